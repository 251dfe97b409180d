"""The packages import their names on first use (PEP 562): each name of ``__all__`` and
each submodule is still there, and importing a package loads none of its modules."""

from __future__ import annotations

import importlib
import subprocess
import sys
from pathlib import Path

import pytest

PACKAGES = ("icswire.protocol", "icswire.boards")


@pytest.mark.parametrize("package", PACKAGES)
def test_every_name_of_all_is_the_one_its_module_defines(package: str) -> None:
    module = importlib.import_module(package)
    for name in module.__all__:
        value = getattr(module, name)
        source = importlib.import_module(f"{package}.{module._MODULE_OF[name]}")
        assert value is getattr(source, name)
        assert name in dir(module)


@pytest.mark.parametrize("package", PACKAGES)
def test_submodules_are_attributes_and_other_names_are_errors(package: str) -> None:
    module = importlib.import_module(package)
    assert getattr(module, "variants" if package.endswith("boards") else "timeseal").__name__
    with pytest.raises(AttributeError):
        module.no_such_name  # noqa: B018
    with pytest.raises(AttributeError):
        module._private  # noqa: B018


def test_block_code_is_still_importable_from_the_block_module() -> None:
    from icswire.protocol.block import BlockCode
    from icswire.protocol.blockcodes import BlockCode as Defined

    assert BlockCode is Defined and BlockCode.BLKCMD_NULL == 0


@pytest.mark.parametrize("package", PACKAGES)
def test_importing_a_package_loads_none_of_its_modules(package: str) -> None:
    """None but the few lines that import the others on first use."""
    code = (
        f"import sys, {package}; print(sorted(m for m in sys.modules if m.startswith('icswire.')))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == str(
        sorted({package, "icswire.protocol", "icswire.protocol.lazy"})
    )


def test_ivar_names_are_still_importable_from_events() -> None:
    from icswire.protocol import events, ivars

    assert events.IVAR_NAMES is ivars.IVAR_NAMES
    with pytest.raises(AttributeError):
        events.NO_SUCH_NAME  # noqa: B018


#: Run in a fresh interpreter: what ``icswire pgn`` runs, on a session with none of the
#: rarer lines, then an interface variable line and a style 10 block (argv[2]), then block
#: mode: which of RARE are loaded after each.
RARE_CHILD = """\
import sys
from icswire.boards.pgn import pgn_text
from icswire.boards.tracker import GameTracker
from icswire.cli import TYPICAL_CLIENT_DATAGRAMS
from icswire.protocol.decoder import Decoder

RARE = ("random", "icswire.protocol.ivars", "icswire.protocol.style10", "icswire.protocol.block")
decoder, tracker = Decoder(TYPICAL_CLIENT_DATAGRAMS), GameTracker()
for event in decoder.feed(open(sys.argv[1], "rb").read()) + decoder.close():
    tracker.feed(event)
assert [pgn_text(game) for game in tracker.games]
print([m for m in RARE if m in sys.modules])
decoder = Decoder()
events = decoder.feed(b"<wd> fred\\n" + sys.argv[2].encode()) + decoder.close()
print([type(e).__name__ for e in events], [m for m in RARE if m in sys.modules])
events = Decoder(block_mode=True).feed(b"\\x151\\x1626\\x16hi\\n\\x17")
print([type(e).__name__ for e in events], [m for m in RARE if m in sys.modules])
"""


def test_a_session_without_the_rarer_lines_loads_none_of_their_modules() -> None:
    """The decoder loads interface variables, style 10 and block mode when a stream has
    them, and the boards load ``random`` when a setup is drawn, not before."""
    import chess

    from icswire.boards.positions import style10_from_board
    from icswire.protocol.style10 import format_style10

    session = Path(__file__).resolve().parent.parent / "examples" / "session.bin"
    facts = dict.fromkeys(("game_number", "relation", "initial_time", "increment"), 0)
    block = format_style10(
        style10_from_board(
            chess.Board(), white_name="a", black_name="b", white_time=0, black_time=0, **facts
        )
    )
    result = subprocess.run(
        [sys.executable, "-c", RARE_CHILD, str(session), block],
        capture_output=True,
        text=True,
        check=True,
    )
    assert result.stdout.splitlines() == [
        "[]",
        "['IvarLine', 'Style10Block'] ['icswire.protocol.ivars', 'icswire.protocol.style10']",
        "['BlockStart', 'Text', 'BlockEnd'] "
        "['icswire.protocol.ivars', 'icswire.protocol.style10', 'icswire.protocol.block']",
    ]
