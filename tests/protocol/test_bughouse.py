"""Bughouse holdings lines ``<b1>`` (spec fics-style12.txt, icc-style12.txt, NOTES.md)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from icswire.protocol.bughouse import Bughouse, format_b1, parse_b1

HOLDINGS = st.text("PNBRQpnbrq", max_size=16)

bughouse_records = st.one_of(
    st.builds(Bughouse, st.integers(-(2**40), 2**40), HOLDINGS, HOLDINGS, st.none(), st.none()),
    st.builds(
        Bughouse,
        st.integers(-(2**40), 2**40),
        HOLDINGS,
        HOLDINGS,
        st.sampled_from("WB"),
        st.sampled_from("PNBRQpnbrq"),
    ),
)


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("<b1> game 6 white [PNBBB] black [PNB]", Bughouse(6, "PNBBB", "PNB")),
        ("<b1> game 52 white [NB] black [N] <- BN", Bughouse(52, "NB", "N", "B", "N")),
        ("<b1> game 1 white [] black []", Bughouse(1, "", "", None, None)),
        ("<b1> game 3 white [] black [Q] <- BQ", Bughouse(3, "", "Q", "B", "Q")),
        ("<b1> game 9 white [pnQ] black [] <- Wp", Bughouse(9, "pnQ", "", "W", "p")),
    ],
)
def test_examples(line: str, expected: Bughouse) -> None:
    rec = parse_b1(line)
    assert rec == expected
    assert format_b1(rec) == line


def test_help_file_passed_piece_fields() -> None:
    rec = parse_b1("<b1> game 52 white [NB] black [N] <- BN")
    assert rec.game_number == 52
    assert rec.white_holding == "NB"
    assert rec.black_holding == "N"
    assert rec.passed_to == "B"
    assert rec.passed_piece == "N"


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("", "must start with '<b1> '"),
        ("<b1>", "expected 7 fields"),
        ("<12> game 6 white [P] black [P]", "must start with '<b1> '"),
        ("<b1> game 6 white [P] black [P] <-", "expected 7 fields.*got 8"),
        ("<b1> game 6 white [P] black [P] <- BN x", "expected 7 fields.*got 10"),
        ("<b1> game 6 white [P] black [P] ", "expected 7 fields"),
        ("<b1> game 6 white [P]  black [P]", "expected 7 fields"),
        ("<b1> Game 6 white [P] black [P]", "field 2 must be 'game', got 'Game'"),
        ("<b1> game 6 White [P] black [P]", "field 4 must be 'white'"),
        ("<b1> game 6 white [P] blck [P]", "field 6 must be 'black'"),
        ("<b1> game six white [P] black [P]", "game_number must be an integer, got 'six'"),
        ("<b1> game  white [P] black [P]", "game_number"),
        ("<b1> game 6 white [PK] black [P]", r"white_holding .*'\[PK\]'"),
        ("<b1> game 6 white [P] black [P-]", "black_holding"),
        ("<b1> game 6 white P black [P]", "white_holding"),
        ("<b1> game 6 white [P black [P]", "white_holding"),
        ("<b1> game 6 white [P] black P]", "black_holding"),
        ("<b1> game 6 white [P] black ]", "black_holding"),
        ("<b1> game 6 white [P] black ", "black_holding .*''"),
        ("<b1> game 6 white [P] black [", "black_holding"),
        ("<b1> game 6 white [P] black [P] -> BN", "field 8 must be '<-', got '->'"),
        ("<b1> game 6 white [P] black [P] <- XN", "passed piece .*'XN'"),
        ("<b1> game 6 white [P] black [P] <- BK", "passed piece .*'BK'"),
        ("<b1> game 6 white [P] black [P] <- B", "passed piece .*'B'"),
        ("<b1> game 6 white [P] black [P] <- BNN", "passed piece"),
        ("<b1> game 6 white [P] black [P] <- bN", "passed piece"),
    ],
)
def test_malformed(line: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        parse_b1(line)


@pytest.mark.parametrize("rec", [Bughouse(1, "", "", "W", None), Bughouse(1, "", "", None, "N")])
def test_format_needs_both_passed_fields(rec: Bughouse) -> None:
    with pytest.raises(ValueError, match="passed_to and passed_piece"):
        format_b1(rec)


@given(bughouse_records)
def test_round_trip(rec: Bughouse) -> None:
    line = format_b1(rec)
    assert parse_b1(line) == rec
    assert format_b1(parse_b1(line)) == line


def parse_or_value_error(line: str) -> None:
    """Parse ``line``: a ValueError is fine; an accepted line must give a record that
    survives a round trip; any other exception fails the test."""
    try:
        rec = parse_b1(line)
    except ValueError:
        return
    assert parse_b1(format_b1(rec)) == rec


@given(st.text())
def test_random_text_raises_only_value_error(text: str) -> None:
    parse_or_value_error(text)
    parse_or_value_error("<b1> " + text)
    parse_or_value_error("<b1> game 1 white [P] black [" + text)


@given(bughouse_records, st.data())
def test_damaged_lines_raise_only_value_error(rec: Bughouse, data: st.DataObject) -> None:
    fields = format_b1(rec).split(" ")
    index = data.draw(st.integers(0, len(fields) - 1))
    fields[index] = data.draw(st.text(max_size=8))
    parse_or_value_error(" ".join(fields))
    del fields[index]
    parse_or_value_error(" ".join(fields))
