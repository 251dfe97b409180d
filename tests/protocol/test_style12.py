"""Style 12 lines (spec icc-style12.txt, fics-style12.txt, NOTES.md)."""

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from icswire.protocol.style12 import (
    Style12,
    format_move_time,
    format_style12,
    parse_move_time,
    parse_style12,
)

from .strategies import board_ints as ints
from .strategies import board_tokens as tokens
from .strategies import game_fields

ICC_HELP = (
    "<12> rnbqkb-r pppppppp -----n-- -------- ----P--- -------- PPPPKPPP RNBQ-BNR "
    "B -1 0 0 1 1 0 7 Quimbee Darooha 1 2 12 39 39 119 122 2 K/e1-e2 (0:06) Ke2 0"
)
FICS_HELP = (
    "<12> rnbqkb-r pppppppp -----n-- -------- ----P--- -------- PPPPKPPP RNBQ-BNR "
    "B -1 0 0 1 1 0 7 Newton Einstein 1 2 12 39 39 119 122 2 K/e1-e2 (0:06) Ke2 0"
)
FICS_MS = (
    "<12> rnbqkbnr pppppppp -------- -------- -------- -------- PPPPPPPP RNBQKBNR "
    "W -1 1 1 1 1 0 55 mgatto Thegermain 1 4 0 39 39 240000 240000 1 none (0:00.000) none 0 0 0"
)
FICS_SECONDS = (
    "<12> r-q-kbnr ppp--p-p ---p--p- ---Pp--- --P----- -QNBPP-- PP----PP R----RK- "
    "B -1 0 0 1 1 1 182 milecker jamofr 0 3 0 33 33 118 148 11 o-o (0:04) O-O 0 1 0"
)
#: freechess.org, from mekk.fics's test data: a lag of 215 ms in the last field.
FICS_LAG = (
    "<12> -----r-- --r-p-kp ----Qnp- ----p--- -------- -----PP- P-q---BP ---R-R-K "
    "B -1 0 0 0 0 0 164 CamyC android 0 3 0 26 26 112 107 24 Q/a6-e6 (0:01) Qxe6 0 1 215"
)

PIECES = "-PNBRQKpnbrqk"
ranks = st.tuples(*[st.text(PIECES, min_size=8, max_size=8)] * 8)


@st.composite
def style12_records(draw: st.DrawFn, whole_seconds: bool = True) -> Style12:
    """A valid record; with ``whole_seconds`` an ``(m:ss)`` move time is a whole second."""
    rec = Style12(
        **draw(game_fields(whole_seconds)),
        ranks=draw(ranks),
        flip=draw(st.booleans()),
    )
    tail = draw(st.integers(0, 3))
    if tail >= 1:
        rec = rec._replace(clock_ticking=draw(st.booleans()))
    if tail >= 2:
        rec = rec._replace(lag_ms=draw(ints))
    if tail == 3:
        rec = rec._replace(extra=tuple(draw(st.lists(tokens, min_size=1, max_size=4))))
    return rec


def parse_or_value_error(line: str) -> None:
    """Parse ``line``: a ValueError is fine; an accepted line must give a record that
    survives a round trip; any other exception fails the test."""
    try:
        rec = parse_style12(line)
    except ValueError:
        return
    assert parse_style12(format_style12(rec)) == rec


@pytest.mark.parametrize(
    ("line", "white", "black"),
    [(ICC_HELP, "Quimbee", "Darooha"), (FICS_HELP, "Newton", "Einstein")],
)
def test_help_file_examples(line: str, white: str, black: str) -> None:
    rec = parse_style12(line)
    assert rec.ranks == (
        "rnbqkb-r",
        "pppppppp",
        "-----n--",
        "--------",
        "----P---",
        "--------",
        "PPPPKPPP",
        "RNBQ-BNR",
    )
    assert rec.side_to_move == "B"
    assert rec.double_push_file == -1
    assert (rec.white_castle_short, rec.white_castle_long) == (False, False)
    assert (rec.black_castle_short, rec.black_castle_long) == (True, True)
    assert rec.halfmove_clock == 0
    assert rec.game_number == 7
    assert (rec.white_name, rec.black_name) == (white, black)
    assert rec.relation == 1
    assert (rec.initial_time, rec.increment) == (2, 12)
    assert (rec.white_strength, rec.black_strength) == (39, 39)
    assert (rec.white_time, rec.black_time) == (119, 122)
    assert rec.move_number == 2
    assert rec.verbose_move == "K/e1-e2"
    assert (rec.move_time_ms, rec.move_time_precise) == (6000, False)
    assert rec.pretty_move == "Ke2"
    assert rec.flip is False
    assert (rec.clock_ticking, rec.lag_ms, rec.extra) == (None, None, ())
    assert format_style12(rec) == line


def test_fics_real_line_with_milliseconds() -> None:
    rec = parse_style12(FICS_MS)
    assert rec.ranks[0] == "rnbqkbnr"
    assert rec.ranks[2:6] == ("--------",) * 4
    assert rec.ranks[7] == "RNBQKBNR"
    assert rec.side_to_move == "W"
    assert rec.white_castle_short and rec.white_castle_long
    assert rec.black_castle_short and rec.black_castle_long
    assert rec.game_number == 55
    assert (rec.white_name, rec.black_name) == ("mgatto", "Thegermain")
    assert rec.relation == 1
    assert (rec.initial_time, rec.increment) == (4, 0)
    assert (rec.white_time, rec.black_time) == (240000, 240000)
    assert rec.move_number == 1
    assert (rec.verbose_move, rec.pretty_move) == ("none", "none")
    assert rec.move_time_ms == 0
    assert rec.move_time_precise is True
    assert rec.flip is False
    assert rec.clock_ticking is False
    assert rec.lag_ms == 0
    assert rec.extra == ()
    assert format_style12(rec) == FICS_MS


def test_fics_real_line_with_seconds() -> None:
    rec = parse_style12(FICS_SECONDS)
    assert rec.ranks[5] == "-QNBPP--"
    assert rec.side_to_move == "B"
    assert (rec.white_castle_short, rec.white_castle_long) == (False, False)
    assert (rec.black_castle_short, rec.black_castle_long) == (True, True)
    assert rec.halfmove_clock == 1
    assert rec.game_number == 182
    assert (rec.white_name, rec.black_name) == ("milecker", "jamofr")
    assert rec.relation == 0
    assert (rec.initial_time, rec.increment) == (3, 0)
    assert (rec.white_strength, rec.black_strength) == (33, 33)
    assert (rec.white_time, rec.black_time) == (118, 148)
    assert rec.move_number == 11
    assert (rec.verbose_move, rec.pretty_move) == ("o-o", "O-O")
    assert (rec.move_time_ms, rec.move_time_precise) == (4000, False)
    assert rec.clock_ticking is True
    assert rec.lag_ms == 0
    assert format_style12(rec) == FICS_SECONDS


def test_fics_real_line_with_lag() -> None:
    rec = parse_style12(FICS_LAG)
    assert (rec.game_number, rec.white_name, rec.black_name) == (164, "CamyC", "android")
    assert (rec.white_time, rec.black_time, rec.move_number) == (112, 107, 24)
    assert (rec.pretty_move, rec.move_time_ms, rec.lag_ms) == ("Qxe6", 1000, 215)
    assert rec.clock_ticking and not rec.flip
    assert format_style12(rec) == FICS_LAG


@pytest.mark.parametrize(
    ("tail", "ticking", "lag", "extra"),
    [
        ("", None, None, ()),
        (" 1", True, None, ()),
        (" 0 250", False, 250, ()),
        (" 1 -3 foo 7", True, -3, ("foo", "7")),
    ],
    ids=["31", "32", "33", "35"],
)
def test_field_counts(
    tail: str, ticking: bool | None, lag: int | None, extra: tuple[str, ...]
) -> None:
    line = ICC_HELP + tail
    rec = parse_style12(line)
    assert len(line.split(" ")) == 31 + len(tail.split(" ")) - 1
    assert (rec.clock_ticking, rec.lag_ms, rec.extra) == (ticking, lag, extra)
    assert rec.pretty_move == "Ke2"
    assert format_style12(rec) == line


def test_negative_clocks_and_move_time() -> None:
    line = FICS_SECONDS.replace(" 118 148 11 o-o (0:04) ", " -917 -3 11 o-o (-0:01) ")
    rec = parse_style12(line)
    assert (rec.white_time, rec.black_time) == (-917, -3)
    assert (rec.move_time_ms, rec.move_time_precise) == (-1000, False)
    assert format_style12(rec) == line


@pytest.mark.parametrize(
    ("verbose", "pretty"),
    [
        ("none", "none"),
        ("P/e2-e4", "e4"),
        ("N/g1-f3", "Nf3"),
        ("o-o", "O-O"),
        ("o-o-o", "O-O-O+"),
        ("P/e7-e8=Q", "e8=Q#"),
        ("P@e4", "P@e4"),
    ],
)
def test_move_notations_are_kept(verbose: str, pretty: str) -> None:
    line = ICC_HELP.replace("K/e1-e2 (0:06) Ke2", f"{verbose} (0:06) {pretty}")
    rec = parse_style12(line)
    assert (rec.verbose_move, rec.pretty_move) == (verbose, pretty)
    assert format_style12(rec) == line


def test_relation_values_are_kept() -> None:
    for relation in (-4, -3, -2, -1, 0, 1, 2):
        line = ICC_HELP.replace(" Darooha 1 ", f" Darooha {relation} ")
        rec = parse_style12(line)
        assert rec.relation == relation
        assert format_style12(rec) == line


@pytest.mark.parametrize(
    ("text", "ms", "precise"),
    [
        ("(0:06)", 6000, False),
        ("(0:00)", 0, False),
        ("(1:05)", 65000, False),
        ("(125:59)", 7559000, False),
        ("(1234:00)", 74040000, False),
        ("(-0:01)", -1000, False),
        ("(-2:03)", -123000, False),
        ("(0:00.000)", 0, True),
        ("(0:04.123)", 4123, True),
        ("(61:02.003)", 3662003, True),
        ("(-0:00.500)", -500, True),
    ],
)
def test_move_time(text: str, ms: int, precise: bool) -> None:
    assert parse_move_time(text) == (ms, precise)
    assert format_move_time(ms, precise) == text


@pytest.mark.parametrize(
    ("text", "ms"), [("(-0:00)", 0), ("(-0:00.000)", 0), ("(00:06)", 6000), ("(007:00)", 420000)]
)
def test_move_time_non_canonical_spellings_are_read(text: str, ms: int) -> None:
    assert parse_move_time(text)[0] == ms


@pytest.mark.parametrize(
    ("ms", "text"), [(6999, "(0:06)"), (-999, "(0:00)"), (-1999, "(-0:01)"), (60500, "(1:00)")]
)
def test_move_time_seconds_form_truncates_towards_zero(ms: int, text: str) -> None:
    assert format_move_time(ms, False) == text


@pytest.mark.parametrize(
    "text",
    [
        "",
        "0:06",
        "(0:06",
        "0:06)",
        "()",
        "(0:6)",
        "(0:060)",
        "(:06)",
        "(0-06)",
        "(0:60)",
        "(0:99)",
        "(a:06)",
        "(0:0a)",
        "(+0:06)",
        "(--0:06)",
        "(- 0:06)",
        "(0:06.12)",
        "(0:06.1234)",
        "(0:06,123)",
        "(0:06.12a)",
        "(0:06:00)",
        "(0:٠٦)",
        "(\u0661:06)",
        "(" + "9" * 5000 + ":00)",
    ],
)
def test_move_time_malformed(text: str) -> None:
    with pytest.raises(ValueError, match="move time"):
        parse_move_time(text)


@given(ints, st.booleans())
def test_move_time_round_trip(ms: int, precise: bool) -> None:
    if not precise:
        ms -= ms % 1000
    assert parse_move_time(format_move_time(ms, precise)) == (ms, precise)


@given(ints)
def test_move_time_seconds_form_is_stable(ms: int) -> None:
    text = format_move_time(ms, False)
    parsed, precise = parse_move_time(text)
    assert precise is False
    assert abs(parsed) <= abs(ms) < abs(parsed) + 1000
    assert format_move_time(parsed, False) == text


@given(style12_records())
def test_round_trip(rec: Style12) -> None:
    line = format_style12(rec)
    assert parse_style12(line) == rec
    assert format_style12(parse_style12(line)) == line


@given(style12_records(whole_seconds=False))
def test_format_parse_format_is_stable(rec: Style12) -> None:
    line = format_style12(rec)
    assert format_style12(parse_style12(line)) == line


def _replace_field(line: str, index: int, value: str) -> str:
    fields = line.split(" ")
    fields[index] = value
    return " ".join(fields)


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("", "must start with '<12> '"),
        ("<12>", "at least 31 fields"),
        ("<12 " + ICC_HELP[5:], "must start with '<12> '"),
        (" " + ICC_HELP, "must start with '<12> '"),
        (ICC_HELP.rsplit(" ", 1)[0], "at least 31 fields"),
        (ICC_HELP.replace("K/e1-e2 ", "K/e1-e2  "), "field 29 is empty"),
        (ICC_HELP + " ", "field 32 is empty"),
        (ICC_HELP.replace("B -1", "B  -1"), "field 11 is empty"),
        (_replace_field(ICC_HELP, 1, "rnbqkbXr"), "rank 8 .*'rnbqkbXr'"),
        (_replace_field(ICC_HELP, 8, "RNBQ-BN"), "rank 1 .*'RNBQ-BN'"),
        (_replace_field(ICC_HELP, 4, "---------"), "rank 5"),
        (_replace_field(ICC_HELP, 3, "--- -n--"), "rank 6 .*'---'"),
        (_replace_field(ICC_HELP, 9, "b"), "side_to_move .*'b'"),
        (_replace_field(ICC_HELP, 9, "WB"), "side_to_move"),
        (_replace_field(ICC_HELP, 10, "8"), "double_push_file .*'8'"),
        (_replace_field(ICC_HELP, 10, "-2"), "double_push_file"),
        (_replace_field(ICC_HELP, 10, "e"), "double_push_file must be an integer, got 'e'"),
        (_replace_field(ICC_HELP, 11, "2"), "white_castle_short must be 0 or 1, got '2'"),
        (_replace_field(ICC_HELP, 12, "yes"), "white_castle_long .*'yes'"),
        (_replace_field(ICC_HELP, 13, "-1"), "black_castle_short"),
        (_replace_field(ICC_HELP, 14, "01"), "black_castle_long"),
        (_replace_field(ICC_HELP, 15, "x"), "halfmove_clock must be an integer, got 'x'"),
        (_replace_field(ICC_HELP, 16, "7a"), "game_number .*'7a'"),
        (_replace_field(ICC_HELP, 19, "one"), "relation .*'one'"),
        (_replace_field(ICC_HELP, 20, "2.5"), "initial_time .*'2.5'"),
        (_replace_field(ICC_HELP, 21, "0x1"), "increment"),
        (_replace_field(ICC_HELP, 22, "?"), "white_strength"),
        (_replace_field(ICC_HELP, 23, "?"), "black_strength"),
        (_replace_field(ICC_HELP, 24, "1:59"), "white_time .*'1:59'"),
        (_replace_field(ICC_HELP, 25, "--3"), "black_time"),
        (_replace_field(ICC_HELP, 26, "II"), "move_number"),
        (_replace_field(ICC_HELP, 28, "0:06"), "move time.*'0:06'"),
        (_replace_field(ICC_HELP, 30, "W"), "flip must be 0 or 1, got 'W'"),
        (ICC_HELP + " 2", "clock_ticking must be 0 or 1, got '2'"),
        (ICC_HELP + " 1 lag", "lag_ms must be an integer, got 'lag'"),
        (ICC_HELP.replace(" 0 7 ", " 0 7\t"), "at least 31 fields"),
    ],
)
def test_malformed_lines(line: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        parse_style12(line)


def test_error_names_the_first_bad_integer() -> None:
    line = _replace_field(_replace_field(ICC_HELP, 24, "a"), 16, "c")
    with pytest.raises(ValueError, match="game_number must be an integer, got 'c'"):
        parse_style12(line)


@pytest.mark.parametrize(
    "changes",
    [{"lag_ms": 5}, {"extra": ("x",)}, {"clock_ticking": True, "extra": ("x",)}],
)
def test_format_rejects_optional_fields_with_gaps(changes: dict[str, Any]) -> None:
    rec = parse_style12(ICC_HELP)._replace(**changes)
    with pytest.raises(ValueError, match="style 12"):
        format_style12(rec)


@given(st.text())
def test_random_text_raises_only_value_error(text: str) -> None:
    parse_or_value_error(text)
    parse_or_value_error("<12> " + text)


@given(style12_records(), st.data())
def test_damaged_lines_raise_only_value_error(rec: Style12, data: st.DataObject) -> None:
    fields = format_style12(rec).split(" ")
    index = data.draw(st.integers(0, len(fields) - 1))
    fields[index] = data.draw(st.text(max_size=12))
    parse_or_value_error(" ".join(fields))
    del fields[index]
    parse_or_value_error(" ".join(fields))


@given(style12_records(), st.text(max_size=12))
def test_damaged_move_time_raises_only_value_error(rec: Style12, text: str) -> None:
    parse_or_value_error(_replace_field(format_style12(rec), 28, f"({text})"))
    parse_or_value_error(_replace_field(format_style12(rec), 28, f"(0:{text})"))
