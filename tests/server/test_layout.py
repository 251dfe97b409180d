"""The server's layout, checked on its source: no import cycle, the core imports no feature,
a feature imports no sibling feature nor the app, the core's inner rooms import no outer
one, and no import hides inside a function.

The core's rooms, inside out: events and model are inner; render and storage read model;
net and dispatch are outer (a connection is a user with a socket: the model and its
renderers know users, never connections).

The graph counts every import, those under ``if TYPE_CHECKING:`` too: a cycle through a
type-only import is still a cycle a reader has to untangle.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator
from pathlib import Path

import icswire.server

PACKAGE = "icswire.server"
ROOT = Path(icswire.server.__file__).parent


def module_names(root: Path, package: str) -> dict[str, Path]:
    """Every module of the package under ``root``, by dotted name."""
    found = {}
    for path in sorted(root.rglob("*.py")):
        parts = list(path.relative_to(root).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join([package, *parts])] = path
    return found


def _imported(node: ast.Import | ast.ImportFrom, modules: dict[str, Path]) -> Iterator[str]:
    """The modules of the package ``node`` imports (``from pkg import mod`` names mod)."""
    if isinstance(node, ast.Import):
        yield from (alias.name for alias in node.names if alias.name in modules)
        return
    if node.module is None or node.level:
        return
    if node.module in modules:
        yield node.module
    for alias in node.names:
        submodule = f"{node.module}.{alias.name}"
        if submodule in modules:
            yield submodule


def imports(
    modules: dict[str, Path],
) -> tuple[dict[str, set[str]], list[tuple[str, int, str]]]:
    """(module -> the modules it imports, [(module, line, target)] of imports inside a
    function or a class)."""
    graph: dict[str, set[str]] = {name: set() for name in modules}
    nested: list[tuple[str, int, str]] = []
    for name, path in modules.items():
        tree = ast.parse(path.read_text(), str(path))
        top_level = {id(node) for node in _module_level(tree)}
        for node in ast.walk(tree):
            if not isinstance(node, ast.Import | ast.ImportFrom):
                continue
            for target in _imported(node, modules):
                if target == name:
                    continue
                graph[name].add(target)
                if id(node) not in top_level:
                    nested.append((name, node.lineno, target))
    return graph, nested


def _module_level(tree: ast.Module) -> Iterator[ast.stmt]:
    """Statements run when the module is imported: the body, and inside its ``if`` and
    ``try`` blocks (``if TYPE_CHECKING:``), not inside functions or classes."""
    pending = list(tree.body)
    while pending:
        node = pending.pop()
        yield node
        if isinstance(node, ast.If | ast.Try):
            pending += [*node.body, *node.orelse]
            if isinstance(node, ast.Try):
                pending += [stmt for handler in node.handlers for stmt in handler.body]


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """One cycle through each strongly connected group of two or more modules."""
    found: list[list[str]] = []
    done: set[str] = set()

    def visit(node: str, path: list[str], on_path: set[str]) -> None:
        for target in sorted(graph[node]):
            if target in on_path:
                found.append([*path[path.index(target) :], target])
            elif target not in done:
                visit(target, [*path, target], on_path | {target})
        done.add(node)

    for start in sorted(graph):
        if start not in done:
            visit(start, [start], {start})
    return found


def layer_violations(graph: dict[str, set[str]]) -> list[str]:
    """Imports against the layout: the core imports no feature and not the app, its model
    and render rooms not its net; a feature imports neither another feature nor the app."""
    core, features, app = f"{PACKAGE}.core", f"{PACKAGE}.features", f"{PACKAGE}.app"
    inner = (f"{core}.model", f"{core}.render")
    wrong = []
    for module, targets in sorted(graph.items()):
        for target in sorted(targets):
            if module.startswith(inner) and target.startswith(f"{core}.net"):
                wrong.append(f"core module {module} imports {target}")
            if module.startswith(core) and (target.startswith(features) or target == app):
                wrong.append(f"core module {module} imports {target}")
            if module.startswith(features + "."):
                own = ".".join(module.split(".")[:4])  # icswire.server.features.NAME
                sibling = target.startswith(features + ".") and not (
                    target == own or target.startswith(own + ".")
                )
                if sibling or target == app:
                    wrong.append(f"feature module {module} imports {target}")
    return wrong


def test_the_server_has_no_import_cycle() -> None:
    graph, _ = imports(module_names(ROOT, PACKAGE))
    assert len(graph) > 20  # the whole package was read
    assert cycles(graph) == []


def test_the_core_knows_no_feature_and_features_know_no_sibling() -> None:
    graph, _ = imports(module_names(ROOT, PACKAGE))
    assert f"{PACKAGE}.core.dispatch.hub" in graph[f"{PACKAGE}.features.watching"]
    assert layer_violations(graph) == []


def test_no_import_hides_in_a_function() -> None:
    _, nested = imports(module_names(ROOT, PACKAGE))
    assert nested == []


def test_the_checks_catch_what_they_are_for(tmp_path: Path) -> None:
    """A made-up package with every fault: the checks above would see them."""
    root = tmp_path / "server"
    (root / "core" / "model").mkdir(parents=True)
    (root / "core" / "net").mkdir()
    (root / "features").mkdir()
    files = {
        "__init__.py": "",
        "app.py": "from icswire.server.features import chat\n",
        "core/__init__.py": "",
        "core/world.py": "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from icswire.server.features.chat import x\n",
        "core/model/__init__.py": "",
        "core/model/users.py": "from icswire.server.core.net.session import Session\n",
        "core/net/__init__.py": "",
        "core/net/session.py": "",
        "features/__init__.py": "",
        "features/chat.py": "from icswire.server.features import games\n",
        "features/games.py": "def f():\n    from icswire.server.features.chat import y\n",
    }
    for name, text in files.items():
        (root / name).write_text(text)
    graph, nested = imports(module_names(root, PACKAGE))
    chat, games = f"{PACKAGE}.features.chat", f"{PACKAGE}.features.games"
    assert cycles(graph) == [[chat, games, chat]]
    assert layer_violations(graph) == [
        f"core module {PACKAGE}.core.model.users imports {PACKAGE}.core.net.session",
        f"core module {PACKAGE}.core.world imports {chat}",
        f"feature module {chat} imports {games}",
        f"feature module {games} imports {chat}",
    ]
    assert nested == [(games, 2, chat)]


# -- all of icswire --------------------------------------------------------------------------

PACKAGE_ROOT = ROOT.parent
#: What each layer may import of icswire (docs/design.md, "Layers"): inner layers never
#: import outer ones.
LAYERS = {
    "icswire.protocol": ("icswire.protocol",),
    "icswire.boards": ("icswire.protocol", "icswire.boards"),
    "icswire.client": ("icswire.protocol", "icswire.boards", "icswire.client"),
    "icswire.server": ("icswire.protocol", "icswire.boards", "icswire.server"),
}
#: The rooms of the server's core (core/__init__.py says what each holds).
ROOMS = {"dispatch", "events", "model", "net", "render", "storage"}


def external_imports(path: Path) -> set[str]:
    """The top-level names of what ``path`` imports from outside icswire."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            found.add(node.module.split(".")[0])
    return found - {"icswire"}


def test_icswire_has_no_import_cycle_and_each_layer_imports_only_inward() -> None:
    modules = module_names(PACKAGE_ROOT, "icswire")
    graph, _ = imports(modules)
    assert len(graph) > 100
    assert cycles(graph) == []
    wrong = []
    for module, targets in sorted(graph.items()):
        for layer, allowed in LAYERS.items():
            if module == layer or module.startswith(layer + "."):
                wrong += [
                    f"{module} imports {target}"
                    for target in sorted(targets)
                    if not any(target == a or target.startswith(a + ".") for a in allowed)
                ]
    assert wrong == []


def test_the_protocol_layer_uses_the_standard_library_only() -> None:
    modules = module_names(PACKAGE_ROOT / "protocol", "icswire.protocol")
    outside = {
        name: sorted(external_imports(path) - set(sys.stdlib_module_names))
        for name, path in modules.items()
    }
    assert {name: found for name, found in outside.items() if found} == {}


def test_the_core_is_rooms_that_say_what_they_hold() -> None:
    core = ROOT / "core"
    assert {p.stem for p in core.glob("*.py")} == {"__init__"}
    assert {p.name for p in core.iterdir() if p.is_dir() and p.name != "__pycache__"} == ROOMS
    overview = ast.get_docstring(ast.parse((core / "__init__.py").read_text())) or ""
    for room in ROOMS:
        docstring = ast.get_docstring(ast.parse((core / room / "__init__.py").read_text()))
        assert docstring, f"core/{room}/__init__.py says nothing of what it holds"
        assert f":mod:`.{room}`" in overview, f"core/__init__.py does not name {room}"
