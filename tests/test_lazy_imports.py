"""The packages import their names on first use (PEP 562): each name of ``__all__`` and
each submodule is still there, and importing a package loads none of its modules."""

from __future__ import annotations

import importlib
import subprocess
import sys

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
