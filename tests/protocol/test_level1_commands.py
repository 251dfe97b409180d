"""CommandNumber against Appendix 1 of icc-formats.txt, and the level1 bits."""

import re
from pathlib import Path

import pytest

from icswire.protocol import level1
from icswire.protocol.level1 import CommandNumber, Level1

SPEC = Path(__file__).resolve().parents[3] / "shared" / "spec" / "icc-formats.txt"


@pytest.fixture(scope="module")
def spec_defines() -> list[tuple[str, int]]:
    """The ``#define`` lines of Appendix 1, in order."""
    if not SPEC.is_file():
        pytest.skip(f"spec not found at {SPEC} (expected beside the repository in shared/)")
    text = SPEC.read_text()
    appendix = text.split("Appendix 1: Command code numbers for level 1.")[1]
    appendix = appendix.split("Appendix 2.")[0]
    return [
        (m[1], int(m[2]))
        for m in re.finditer(r"^#define (\w+) (\d+)$", appendix, flags=re.MULTILINE)
    ]


def test_spec_parse_found_the_table(spec_defines: list[tuple[str, int]]) -> None:
    assert len(spec_defines) > 200
    assert spec_defines[0] == ("SCN_UNKNOWN", 0)
    assert spec_defines[-1] == ("CN_BOARDINFO", 292)


def test_members_are_exactly_the_spec_defines_in_order(
    spec_defines: list[tuple[str, int]],
) -> None:
    assert [(m.name, m.value) for m in CommandNumber] == spec_defines


def test_no_aliases() -> None:
    assert len(CommandNumber.__members__) == len(CommandNumber)


def test_members_are_written_out_in_the_source(spec_defines: list[tuple[str, int]]) -> None:
    source = Path(level1.__file__).read_text()
    for name, value in spec_defines:
        assert f"    {name} = {value}\n" in source


@pytest.mark.parametrize(
    ("number", "name"),
    [
        (0, "SCN_UNKNOWN"),
        (1, "SCN_ILLEGAL_MOVE"),
        (12, "SCN_REALLY_LOG_IN"),
        (14, "SCN_EVENTS"),
        (25, "SCN_BAD"),
        (31, "SCN_MISCELLANEOUS"),
        (101, "CN_TELL"),
        (110, "CN_CHANNELTELL"),
        (112, "CN_BAD"),
        (123, "CN_ACCEPT"),
        (136, "CN_OBSERVE0"),
        (138, "CN_FOLLOW0"),
        (189, "CN_QTELL"),
        (199, "CN_PARTNER"),
        (201, "CN_PTELL"),
        (211, "CN_CHANNELQTELL"),
        (291, "CN_PSTAT"),
        (292, "CN_BOARDINFO"),
    ],
)
def test_spot_checks(number: int, name: str) -> None:
    assert CommandNumber(number).name == name
    assert CommandNumber[name] == number


@pytest.mark.parametrize("number", [-1, 4, 9, 32, 100, 203, 293])
def test_numbers_not_in_the_table_are_rejected(number: int) -> None:
    with pytest.raises(ValueError):
        CommandNumber(number)


def test_members_are_ints() -> None:
    assert isinstance(CommandNumber.CN_TELL, int)
    assert CommandNumber.CN_TELL + 0 == 101
    assert f"{CommandNumber.CN_TELL:d}" == "101"


def test_level1_bits() -> None:
    """The level1 variable's bits (section 2): named, printed as the number, and a bit
    test gives a plain int, as the server's per-receiver tests and cache keys expect."""
    assert [int(bit) for bit in Level1] == [1, 2, 4, 8]
    for value in range(16):
        flags = Level1(value)
        assert f"{flags}" == str(flags) == str(value) and flags == value
        assert bool(flags & Level1.UNITS) == bool(value & 1)
        assert type(flags & Level1.TAGS) is int and type(value & Level1.TAGS) is int
    both = Level1.UNITS | Level1.TAGS
    assert type(both) is Level1 and both == 5 and Level1.TAGS in both
    assert Level1.OFF == 0 and not Level1.OFF
