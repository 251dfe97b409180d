"""A package's names imported on first use (PEP 562), as ``icswire.protocol`` and
``icswire.boards`` do: each keeps a table of the module that defines each name of its
``__all__``, and a program that needs one module loads only that one."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import Any


def lazy_getattr(
    package: str, module_of: Mapping[str, str], namespace: dict[str, Any]
) -> Callable[[str], Any]:
    """The module ``__getattr__`` of ``package``: a name of ``module_of`` from its module
    (then kept in ``namespace``, the package's globals), or a submodule
    (``package.module`` without importing it first, as when the package imported them
    all)."""

    def find(name: str) -> Any:
        module = module_of.get(name)
        if module is not None:
            value = getattr(importlib.import_module(f"{package}.{module}"), name)
            namespace[name] = value
            return value
        if not name.startswith("_"):
            try:
                return importlib.import_module(f"{package}.{name}")
            except ModuleNotFoundError as exc:
                if exc.name != f"{package}.{name}":
                    raise
        raise AttributeError(f"module {package!r} has no attribute {name!r}")

    return find
