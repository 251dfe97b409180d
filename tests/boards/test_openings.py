"""The ECO classifier on lichess's table (icswire.boards.openings)."""

from __future__ import annotations

import doctest
import sys
from pathlib import Path

import chess
import chess.variant

from icswire.boards import openings
from icswire.boards.openings import classify_board, classify_moves, opening_at, with_eco

NAJDORF = ["e4", "c5", "Nf3", "d6", "d4", "cxd4", "Nxd4", "Nf6", "Nc3", "a6"]


def test_the_najdorf_is_b90_at_its_tenth_ply() -> None:
    found = classify_moves(NAJDORF)
    assert found is not None
    assert (found.opening.eco, found.opening.name, found.ply) == (
        "B90",
        "Sicilian Defense: Najdorf Variation",
        10,
    )


def test_the_deepest_named_position_wins() -> None:
    english_attack = [*NAJDORF, "Be3", "e5", "Nb3", "Be6", "f3"]
    found = classify_moves(english_attack)
    assert found is not None
    assert found.opening.name == "Sicilian Defense: Najdorf Variation, English Attack"
    # moves after the book keep the last named position and its ply
    later = classify_moves([*english_attack, "h5", "Qd2", "Nbd7"])
    assert later == found


def test_a_transposition_is_the_position_the_table_names() -> None:
    found = classify_moves(["c4", "e6", "Nc3", "d5", "d4"])
    assert found is not None
    assert found.opening.pgn == "1. d4 d5 2. c4 e6 3. Nc3"
    assert (found.opening.eco, found.ply) == ("D31", 5)
    assert found.opening.name == "Queen's Gambit Declined: Queen's Knight Variation"


def test_no_opening_without_moves_and_none_for_variants() -> None:
    assert classify_moves([]) is None
    board = chess.variant.CrazyhouseBoard()
    board.push_san("e4")
    assert classify_board(board) is None
    assert classify_board(chess.Board(chess960=True)) is None


def test_a_move_that_does_not_parse_ends_the_game_there() -> None:
    found = classify_moves(["e4", "c5", "Zz9", "d6"])
    assert found is not None
    assert (found.opening.eco, found.ply) == ("B20", 2)


def test_the_table_is_lichess_s_whole_table_indexed_by_position() -> None:
    table = openings.openings()
    assert len(table) > 3000
    assert len({o.epd for o in table}) == len(table)
    assert {o.eco[0] for o in table} == set("ABCDE")
    board = chess.Board()
    board.push_san("e4")
    assert opening_at(board) is not None
    assert opening_at(chess.Board()) is None
    assert [o.name for o in with_eco("c42")][:1] == ["Petrov's Defense"]


def test_each_epd_is_the_position_of_its_moves() -> None:
    """The derived column agrees with the moves (tools/build_openings.py's output)."""
    for opening in openings.openings()[::37]:
        board = chess.Board()
        for token in opening.pgn.split():
            if not token[0].isdigit():
                board.push_san(token)
        assert board.epd() == opening.epd, opening


def test_package_data_is_declared_for_a_non_editable_install() -> None:
    text = (Path(__file__).parents[2] / "pyproject.toml").read_text(encoding="utf-8")
    assert '"boards/openings/openings.tsv"' in text


def test_doctests() -> None:
    assert doctest.testmod(sys.modules[openings.__name__]).failed == 0


def test_load_reads_the_table_once() -> None:
    openings.load()
    assert openings.loaded()
