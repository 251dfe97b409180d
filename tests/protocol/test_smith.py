"""SMITH move syntax (DG_MOVE_SMITH, 34)."""

import typing

import pytest
from hypothesis import given
from hypothesis import strategies as st

from icswire.protocol.smith import (
    Smith,
    SmithDrop,
    SmithHidden,
    SmithMove,
    format_smith,
    parse_smith,
)

SQUARES = [f + r for f in "abcdefgh" for r in "12345678"]

squares = st.sampled_from(SQUARES)
moves = st.builds(
    SmithMove,
    squares,
    squares,
    st.none() | st.sampled_from("pnbrqkEcC"),
    st.none() | st.sampled_from("NBRQK"),
)
drops = st.builds(SmithDrop, st.sampled_from("PNBRQ"), squares, st.sampled_from(["", "+", "#"]))
hidden = st.builds(SmithHidden, st.none() | squares)
smiths: st.SearchStrategy[Smith] = moves | drops | hidden


@pytest.mark.parametrize(
    ("text", "move"),
    [
        ("e4g5p", SmithMove("e4", "g5", "p", None)),
        ("f7f8Q", SmithMove("f7", "f8", None, "Q")),
        ("f7g8nQ", SmithMove("f7", "g8", "n", "Q")),
        ("e2e4", SmithMove("e2", "e4", None, None)),
        ("e1g1c", SmithMove("e1", "g1", "c", None)),
        ("e8c8C", SmithMove("e8", "c8", "C", None)),
        ("e5d6E", SmithMove("e5", "d6", "E", None)),
        ("d4e5k", SmithMove("d4", "e5", "k", None)),
        ("a7a8K", SmithMove("a7", "a8", None, "K")),
        ("h2g1rN", SmithMove("h2", "g1", "r", "N")),
        ("Q@f7+", SmithDrop("Q", "f7", "+")),
        ("Q@f7", SmithDrop("Q", "f7", "")),
        ("P@e4", SmithDrop("P", "e4", "")),
        ("N@g6#", SmithDrop("N", "g6", "#")),
        ("?", SmithHidden(None)),
        ("?xb1", SmithHidden("b1")),
    ],
)
def test_examples(text: str, move: Smith) -> None:
    parsed = parse_smith(text)
    assert parsed == move
    assert type(parsed) is type(move)
    assert format_smith(move) == text


@given(smiths)
def test_format_then_parse(move: Smith) -> None:
    parsed = parse_smith(format_smith(move))
    assert parsed == move
    assert type(parsed) is type(move)


@given(smiths)
def test_parse_then_format(move: Smith) -> None:
    text = format_smith(move)
    assert format_smith(parse_smith(text)) == text


@given(st.text(alphabet="abcdefghi012345678990pnbrqkEcCNBRQKP@?x+#- ", max_size=8))
def test_any_text_is_rejected_or_round_trips(text: str) -> None:
    try:
        move = parse_smith(text)
    except ValueError as error:
        assert repr(text) in str(error)
    else:
        assert format_smith(move) == text


@pytest.mark.parametrize(
    "text",
    [
        "",
        "e2",
        "e2e",
        "e2e9",
        "e0e4",
        "i2e4",
        "E2E4",
        "e2-e4",
        "e2e4x",
        "e2e4P",
        "e2e4QQ",
        "e2e4pp",
        "e2e4Qp",
        "e7e8Qq",
        "e2e4 ",
        " e2e4",
        "e2e4\n",
        "e2e4Q+",
        "Q@f9",
        "Q@i7",
        "K@e4",
        "q@f7",
        "Q@f7++",
        "Q@f7!",
        "Qf7",
        "@f7",
        "??",
        "?x",
        "?b1",
        "?xb9",
        "?xb1+",
        "x",
    ],
)
def test_malformed(text: str) -> None:
    with pytest.raises(ValueError, match="not a SMITH move") as error:
        parse_smith(text)
    assert repr(text) in str(error.value)


@pytest.mark.parametrize(
    "move",
    [
        SmithMove("z9", "e4", None, None),
        SmithMove("e2", "e4", "", None),
        SmithMove("e2", "e4", None, ""),
        SmithMove("e2", "e4", "x", None),
        SmithMove("e2", "e4", None, "P"),
        SmithMove("e2e4", "", None, None),
        SmithDrop("K", "e4", ""),
        SmithDrop("Q", "f7", "++"),
        SmithDrop("Q", "f9", ""),
        SmithHidden("b9"),
        SmithHidden(""),
    ],
)
def test_format_rejects_invalid_fields(move: Smith) -> None:
    with pytest.raises(ValueError, match="not a valid SMITH move"):
        format_smith(move)


def test_records_are_immutable() -> None:
    move = parse_smith("e2e4")
    assert isinstance(move, SmithMove)
    with pytest.raises(AttributeError):
        move.capture = "p"  # type: ignore[misc]


def test_smith_alias_names_the_three_records() -> None:
    assert typing.get_args(Smith) == (SmithMove, SmithDrop, SmithHidden)
