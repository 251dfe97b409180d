"""Style 10 blocks (spec icc-style10.txt, NOTES.md)."""

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from icswire.protocol.style10 import STYLE10_BLOCK_LINES, Style10, format_style10, parse_style10

from .strategies import board_tokens as tokens
from .strategies import game_fields

# The ICC help file's example, trailing blanks included.
ICC_HELP = [
    '"10"\n',
    "|r b kbnr|   \n",
    "|ppp ppp |   \n",
    "|  nq    |   \n",
    "|   p   p|   \n",
    "|   P    |   \n",
    "|  NQB  N|   \n",
    "|PPP PPPP|   \n",
    "|R   KB R|   \n",
    "B -1 1 1 1 1 3   \n",
    "0 Darooha Quimbee 1 2 12 39 39 113 129 5 B/c1-e3 (0:22) Be3   \n",
]
ICC_RANKS = (
    "r b kbnr",
    "ppp ppp ",
    "  nq    ",
    "   p   p",
    "   P    ",
    "  NQB  N",
    "PPP PPPP",
    "R   KB R",
)
# The same position as FICS frames it, with FICS's line endings.
FICS_BLOCK = [
    "<10>\n\r",
    *[f"|{rank}|\n\r" for rank in ICC_RANKS],
    "B -1 1 1 1 1 3\n\r",
    "0 Darooha Quimbee 1 2 12 39 39 113129 129000 5 B/c1-e3 (0:22.250) Be3\n\r",
    ">10<\n\r",
]

SQUARES = " PNBRQKpnbrqk"
line_ends = st.builds(
    str.__add__, st.text(" \t", max_size=4), st.sampled_from(["\n", "\r\n", "\n\r"])
)


@st.composite
def style10_records(draw: st.DrawFn, whole_seconds: bool = True) -> Style10:
    """A valid record; with ``whole_seconds`` an ``(m:ss)`` move time is a whole second."""
    header = draw(st.sampled_from(sorted(STYLE10_BLOCK_LINES)))
    n = STYLE10_BLOCK_LINES[header]
    ends = draw(st.just(()) | st.lists(line_ends, min_size=n, max_size=n).map(tuple))
    return Style10(
        **draw(game_fields(whole_seconds)),
        header=header,
        ranks=draw(st.tuples(*[st.text(SQUARES, min_size=8, max_size=8)] * 8)),
        extra=tuple(draw(st.lists(tokens, max_size=3))),
        line_ends=() if all(end == "\n" for end in ends) else ends,
    )


def parse_or_value_error(lines: list[str]) -> None:
    """Parse ``lines``: a ValueError is fine; an accepted block must give a record that
    survives a round trip; any other exception fails the test."""
    try:
        rec = parse_style10(lines)
    except ValueError:
        return
    assert parse_style10(_split_block(format_style10(rec), rec)) == rec


def test_block_line_counts() -> None:
    assert STYLE10_BLOCK_LINES == {'"10"': 11, "<10>": 12}


def test_icc_help_example() -> None:
    rec = parse_style10(ICC_HELP)
    assert rec.header == '"10"'
    assert rec.ranks == ICC_RANKS
    assert rec.side_to_move == "B"
    assert rec.double_push_file == -1
    assert rec.white_castle_short and rec.white_castle_long
    assert rec.black_castle_short and rec.black_castle_long
    assert rec.halfmove_clock == 3
    assert rec.game_number == 0
    assert (rec.white_name, rec.black_name) == ("Darooha", "Quimbee")
    assert rec.relation == 1
    assert (rec.initial_time, rec.increment) == (2, 12)
    assert (rec.white_strength, rec.black_strength) == (39, 39)
    assert (rec.white_time, rec.black_time) == (113, 129)
    assert rec.move_number == 5
    assert rec.verbose_move == "B/c1-e3"
    assert (rec.move_time_ms, rec.move_time_precise) == (22000, False)
    assert rec.pretty_move == "Be3"
    assert rec.extra == ()
    assert rec.line_ends == ("\n",) + ("   \n",) * 10
    assert format_style10(rec) == "".join(ICC_HELP)


def test_fics_framing() -> None:
    rec = parse_style10(FICS_BLOCK)
    assert rec.header == "<10>"
    assert rec.ranks == ICC_RANKS
    assert (rec.white_time, rec.black_time) == (113129, 129000)
    assert (rec.move_time_ms, rec.move_time_precise) == (22250, True)
    assert rec.line_ends == ("\n\r",) * 12
    assert format_style10(rec) == "".join(FICS_BLOCK)


def test_canonical_line_ends_are_stored_as_empty() -> None:
    lines = [line.rstrip(" \n") + "\n" for line in ICC_HELP]
    rec = parse_style10(lines)
    assert rec.line_ends == ()
    assert rec == parse_style10(ICC_HELP)._replace(line_ends=())
    assert format_style10(rec) == "".join(lines)
    fics = [line.rstrip("\n\r") + "\n" for line in FICS_BLOCK]
    rec = parse_style10(fics)
    assert rec.line_ends == ()
    assert format_style10(rec) == "".join(fics)


def test_mixed_line_ends() -> None:
    lines = [
        line.rstrip(" \n") + end for line, end in zip(ICC_HELP, ["\r\n", "\n"] * 6, strict=False)
    ]
    lines[0] = '"10" \t\n'
    rec = parse_style10(lines)
    assert rec.line_ends[:3] == (" \t\n", "\n", "\r\n")
    assert rec.header == '"10"'
    assert format_style10(rec) == "".join(lines)


def test_extra_fields_negative_clocks_and_none_moves() -> None:
    lines = ICC_HELP.copy()
    lines[10] = "12 a b -2 3 0 39 39 -917 -5 1 none (-0:01) none 0 1 x\r\n"
    rec = parse_style10(lines)
    assert rec.relation == -2
    assert (rec.white_time, rec.black_time) == (-917, -5)
    assert (rec.verbose_move, rec.pretty_move) == ("none", "none")
    assert rec.move_time_ms == -1000
    assert rec.extra == ("0", "1", "x")
    assert rec.line_ends[10] == "\r\n"
    assert format_style10(rec) == "".join(lines)


def _with(lines: list[str], index: int, line: str) -> list[str]:
    changed = lines.copy()
    changed[index] = line
    return changed


@pytest.mark.parametrize(
    ("lines", "message"),
    [
        ([], "no lines"),
        (['"10"'], "line 1 has no line ending"),
        (ICC_HELP[:10], "block has 11 lines, got 10"),
        ([*ICC_HELP, "\n"], "block has 11 lines, got 12"),
        (FICS_BLOCK[:11], "block has 12 lines, got 11"),
        (_with(ICC_HELP, 0, "10\n"), "header"),
        (_with(ICC_HELP, 0, ' "10"\n'), "header"),
        (_with(ICC_HELP, 0, "<12>\n"), "header"),
        (_with(FICS_BLOCK, 11, ">10\n"), "line 12 must be '>10<'"),
        (_with(FICS_BLOCK, 11, "<10>\n"), "line 12 must be '>10<'"),
        (_with(ICC_HELP, 1, "|r b kbnr|"), "line 2 has no line ending"),
        (_with(ICC_HELP, 1, "|r b kbnr\n"), "line 2 must be '|' 8 squares"),
        (_with(ICC_HELP, 1, "r b kbnr|\n"), "line 2"),
        (_with(ICC_HELP, 2, "|ppp ppp|\n"), "line 3"),
        (_with(ICC_HELP, 3, "|  nq     |\n"), "line 4"),
        (_with(ICC_HELP, 8, "|R - KB R|\n"), r"line 9 .*'\|R - KB R\|'"),
        (_with(ICC_HELP, 8, "|R  xKB R|\n"), "line 9"),
        (_with(ICC_HELP, 5, "|\n  P    |\n"), "line 6 holds a line break"),
        (_with(ICC_HELP, 5, "|   P    |\r\r\n"), "line 6 holds a line break"),
        (_with(ICC_HELP, 5, "|   P    |\r"), "line 6 has no line ending"),
        (_with(ICC_HELP, 9, "B -1 1 1 1 1\n"), "line 10 must have 7 fields, got 6"),
        (_with(ICC_HELP, 9, "B -1 1 1 1 1 3 0\n"), "line 10 must have 7 fields, got 8"),
        (_with(ICC_HELP, 9, "B -1 1  1 1 3\n"), "line 10: field 4 is empty"),
        (_with(ICC_HELP, 9, "X -1 1 1 1 1 3\n"), "side_to_move .*'X'"),
        (_with(ICC_HELP, 9, "B 9 1 1 1 1 3\n"), "double_push_file .*'9'"),
        (_with(ICC_HELP, 9, "B -1 1 2 1 1 3\n"), "white_castle_long must be 0 or 1, got '2'"),
        (_with(ICC_HELP, 9, "B -1 1 1 1 1 x\n"), "halfmove_clock must be an integer"),
        (
            _with(ICC_HELP, 10, "0 Darooha Quimbee 1 2 12 39 39 113 129 5 B/c1-e3 (0:22)\n"),
            "line 11 must have at least 14 fields, got 13",
        ),
        (
            _with(ICC_HELP, 10, "0 Darooha Quimbee 1 2 12 39 39 113 129 5 B/c1-e3  Be3\n"),
            "line 11: field 13 is empty",
        ),
        (
            _with(ICC_HELP, 10, "0 Darooha Quimbee me 2 12 39 39 113 129 5 B/c1-e3 (0:22) Be3\n"),
            "relation must be an integer, got 'me'",
        ),
        (
            _with(ICC_HELP, 10, "0 Darooha Quimbee 1 2 12 39 39 113 1:29 5 B/c1-e3 (0:22) Be3\n"),
            "black_time .*'1:29'",
        ),
        (
            _with(ICC_HELP, 10, "0 Darooha Quimbee 1 2 12 39 39 113 129 5 B/c1-e3 0:22 Be3\n"),
            "move time",
        ),
    ],
)
def test_malformed(lines: list[str], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        parse_style10(lines)


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"header": "10"}, "header"),
        ({"header": "<10>"}, "needs 12 line_ends, got 11"),
        ({"line_ends": ("\n",) * 12}, "needs 11 line_ends, got 12"),
    ],
)
def test_format_rejects_bad_framing(changes: dict[str, Any], message: str) -> None:
    rec = parse_style10(ICC_HELP)._replace(**changes)
    with pytest.raises(ValueError, match=message):
        format_style10(rec)


def test_format_switches_framing_with_the_header() -> None:
    rec = parse_style10(FICS_BLOCK)._replace(line_ends=())
    fics = format_style10(rec)
    assert fics.startswith("<10>\n|r b kbnr|\n")
    assert fics.endswith(" Be3\n>10<\n")
    icc = format_style10(rec._replace(header='"10"'))
    assert icc == '"10"\n' + fics[len("<10>\n") : -len(">10<\n")]


@given(style10_records())
def test_round_trip(rec: Style10) -> None:
    text = format_style10(rec)
    lines = _split_block(text, rec)
    assert parse_style10(lines) == rec
    assert format_style10(parse_style10(lines)) == text


@given(style10_records(whole_seconds=False))
def test_format_parse_format_is_stable(rec: Style10) -> None:
    text = format_style10(rec)
    assert format_style10(parse_style10(_split_block(text, rec))) == text


def _split_block(text: str, rec: Style10) -> list[str]:
    """Cut a formatted block into its lines, using the record's line endings."""
    lines = []
    for end in rec.line_ends or ("\n",) * STYLE10_BLOCK_LINES[rec.header]:
        cut = text.index(end.lstrip(" \t")) + len(end.lstrip(" \t"))
        lines.append(text[:cut])
        text = text[cut:]
    assert text == ""
    return lines


@given(st.lists(st.text(), max_size=13))
def test_random_lines_raise_only_value_error(lines: list[str]) -> None:
    parse_or_value_error(lines)
    parse_or_value_error([line + "\n" for line in lines])
    parse_or_value_error(['"10"\n', *[line + "\n" for line in lines]])


@given(style10_records(), st.data())
def test_damaged_blocks_raise_only_value_error(rec: Style10, data: st.DataObject) -> None:
    lines = _split_block(format_style10(rec), rec)
    index = data.draw(st.integers(0, len(lines) - 1))
    fields = lines[index].split(" ")
    where = data.draw(st.integers(0, len(fields) - 1))
    fields[where] = data.draw(st.text(max_size=12))
    parse_or_value_error(_with(lines, index, " ".join(fields)))
    parse_or_value_error(_with(lines, index, data.draw(st.text(max_size=20))))
    parse_or_value_error(lines[:index] + lines[index + 1 :])
