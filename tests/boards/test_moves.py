"""Moves: SMITH (DG_MOVE_SMITH 34), style 12 verbose and pretty notation, SAN, client input."""

from __future__ import annotations

import doctest
import random
import re
from collections.abc import Callable, Iterator

import chess
import chess.variant
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from icswire.boards import moves
from icswire.boards.moves import (
    IllegalMoveError,
    move_from_san,
    move_from_smith,
    move_from_verbose,
    move_from_wire,
    san_from_move,
    smith_from_move,
    verbose_from_move,
)
from icswire.boards.variants import VARIANTS as ALL_VARIANTS
from icswire.boards.variants import Variant

# -- random legal games (also used by test_positions) ------------------------------------

# Starts where castling, en passant, promotions, drops, chess960's odd castlings, wild
# castling from the d file, forced captures, promotions to king, explosions and check
# counts are legal, so that every run meets them; random games from each variant's own
# (random) starts do the rest.
_CHESS_SPECIALS = [
    "r3k2r/pPp1pppp/8/3pP3/8/8/p1PPPPPP/R3K2R w KQkq d6 0 1",
    "r3k2r/8/8/8/3pP3/8/8/R3K2R b KQkq e3 0 1",
]
_HOUSE_SPECIALS = [
    "rnbqkbnr/ppppp1pp/8/5p2/8/8/PPPPPPPP/RNBQKBNR[QNPpb] w KQkq - 0 2",
    "r3k2r/pPp1pppp/8/8/8/8/P1PPPPPp/R3K2R[Nn] w KQkq - 0 1",
    "4k3/8/8/8/8/8/8/Q~3K3[p] b - - 0 1",
]
_WILD_CASTLE_SPECIALS = [
    "r2k3r/1P6/8/3pP3/8/8/6p1/R2K3R w KQkq d6 0 1",
    "r3k2r/pp4pp/8/8/8/8/PP4PP/R2K3R b KQkq - 0 1",
]
_LOSING_SPECIALS = [
    *_CHESS_SPECIALS,
    "4k3/1P6/8/8/8/8/6p1/4K3 w - - 0 1",
    "k1k5/1P6/8/8/8/8/8/K1K5 b - - 0 1",
]
SPECIAL_STARTS: dict[str, list[str]] = {
    "chess": _CHESS_SPECIALS,
    "fr": [
        "rk5r/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RK5R w KQkq d6 0 1",
        "1r4kr/pppppppp/8/8/8/8/PPPPPPPP/1R4KR w KQkq - 0 1",
        "r3k2r/1P6/8/8/8/8/6p1/R3K2R w KQkq - 0 1",
    ],
    "crazyhouse": _HOUSE_SPECIALS,
    "bughouse": _HOUSE_SPECIALS,
    "wild/0": _WILD_CASTLE_SPECIALS,
    "wild/1": _WILD_CASTLE_SPECIALS,
    "losers": _CHESS_SPECIALS,
    "suicide": _LOSING_SPECIALS,
    "giveaway": _LOSING_SPECIALS,
    "atomic": [*_CHESS_SPECIALS, "rnbqkbnr/ppp2ppp/8/3pp3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 0 3"],
    "icc-atomic": [*_CHESS_SPECIALS, "4k3/8/8/8/8/8/5r2/4K2R w K - 0 1"],
    "three-check": [
        *_CHESS_SPECIALS,
        "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 1+2 0 2",
    ],
}
VARIANTS = {variant.name: variant for variant in ALL_VARIANTS}


def start_positions(variant: Variant) -> st.SearchStrategy[chess.Board]:
    """The variant's start (drawn anew for a random setup) or one of its special starts."""
    drawn = st.integers(0, 2**32 - 1).map(lambda seed: variant.new_board(random.Random(seed)))
    special = SPECIAL_STARTS.get(variant.name)
    if not special:
        return drawn
    return drawn | st.sampled_from(special).map(lambda fen: variant.new_board(fen=fen))


@st.composite
def games(draw: st.DrawFn, variant: Variant, max_plies: int = 40) -> chess.Board:
    """A board after a random legal game (one of its legal moves drawn per ply)."""
    board = draw(start_positions(variant))
    for _ in range(draw(st.integers(0, max_plies))):
        legal = list(board.legal_moves)
        if not legal:
            break
        board.push(draw(st.sampled_from(legal)))
    return board


def positions(board: chess.Board) -> Iterator[chess.Board]:
    """Every position of ``board``'s game, start included (one board, replayed)."""
    replay = board.root()
    yield replay
    for move in board.move_stack:
        replay.push(move)
        yield replay


FAST = settings(max_examples=25, deadline=None)


# -- round trips over every legal move of random games -----------------------------------


@pytest.mark.parametrize("variant", VARIANTS.values(), ids=VARIANTS.keys())
@FAST
@given(data=st.data())
def test_every_legal_move_round_trips_through_smith_and_verbose(
    variant: Variant, data: st.DataObject
) -> None:
    for board in positions(data.draw(games(variant))):
        for move in board.legal_moves:
            smith = smith_from_move(board, move)
            assert move_from_smith(board, smith) == move, smith
            verbose = verbose_from_move(board, move)
            assert move_from_verbose(board, verbose) == move, verbose
            san = san_from_move(board, move)
            assert move_from_san(board, san) == move, san
            assert move_from_wire(board, san) == move, san
            played, pushed = board.copy(), board.copy()
            assert moves.push_with_notations(played, move) == (san, smith, verbose)
            pushed.push(move)
            assert played.move_stack == pushed.move_stack and played.fen() == pushed.fen()


# -- SMITH -----------------------------------------------------------------------------

CASTLING = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"


@pytest.mark.parametrize(
    ("fen", "smith", "uci"),
    [
        (chess.STARTING_FEN, "g1f3", "g1f3"),
        # the spec's examples: a knight taking a pawn, a queening, a capture and queening
        ("4k3/8/8/6p1/4N3/8/8/4K3 w - - 0 1", "e4g5p", "e4g5"),
        ("4k3/5P2/8/8/8/8/8/4K3 w - - 0 1", "f7f8Q", "f7f8q"),
        ("4k1n1/5P2/8/8/8/8/8/4K3 w - - 0 1", "f7g8nQ", "f7g8q"),
        ("4k1n1/5P2/8/8/8/8/8/4K3 w - - 0 1", "f7g8nN", "f7g8n"),
        ("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "e5d6E", "e5d6"),
        ("4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1", "d4e3E", "d4e3"),
        (CASTLING, "e1g1c", "e1g1"),
        (CASTLING, "e1c1C", "e1c1"),
        (CASTLING.replace(" w ", " b "), "e8g8c", "e8g8"),
        (CASTLING.replace(" w ", " b "), "e8c8C", "e8c8"),
        (CASTLING, "a1a8r", "a1a8"),
    ],
)
def test_smith_moves(fen: str, smith: str, uci: str) -> None:
    board = chess.Board(fen)
    move = chess.Move.from_uci(uci)
    assert move_from_smith(board, smith) == move
    assert smith_from_move(board, move) == smith


@pytest.mark.parametrize(
    ("fen", "smith", "uci"),
    [
        # king b1, rook a1: castling long (king to c1, rook to d1) beside a plain king move
        ("rk5r/8/8/8/8/8/8/RK5R w KQkq - 0 1", "b1c1C", "b1a1"),
        ("rk5r/8/8/8/8/8/8/RK5R w KQkq - 0 1", "b1c1", "b1c1"),
        ("rk5r/8/8/8/8/8/8/RK5R w KQkq - 0 1", "b1g1c", "b1h1"),
        # king g1, rook h1: castling short leaves the king where it is
        ("1r4kr/8/8/8/8/8/8/1R4KR w KQkq - 0 1", "g1g1c", "g1h1"),
        ("1r4kr/8/8/8/8/8/8/1R4KR b KQkq - 0 1", "g8g8c", "g8h8"),
        ("1r4kr/8/8/8/8/8/8/1R4KR w KQkq - 0 1", "g1c1C", "g1b1"),
        (CASTLING, "e1g1c", "e1h1"),
    ],
)
def test_smith_chess960_castling_gives_the_kings_squares(fen: str, smith: str, uci: str) -> None:
    board = chess.Board(fen, chess960=True)
    move = chess.Move.from_uci(uci)
    assert move in board.legal_moves
    assert smith_from_move(board, move) == smith
    assert move_from_smith(board, smith) == move


def test_smith_plunks_carry_check_as_the_spec_shows() -> None:
    board = chess.variant.CrazyhouseBoard(SPECIAL_STARTS["crazyhouse"][0])
    plunk = chess.Move.from_uci("Q@f7")
    assert smith_from_move(board, plunk) == "Q@f7+"
    assert move_from_smith(board, "Q@f7+") == plunk
    assert move_from_smith(board, "Q@f7") == plunk
    mate = chess.variant.CrazyhouseBoard("7k/6pp/8/8/8/8/8/K7[R] w - - 0 1")
    assert smith_from_move(mate, chess.Move.from_uci("R@e8")) == "R@e8#"
    assert smith_from_move(board, chess.Move.from_uci("P@e4")) == "P@e4"


# -- verbose and pretty ------------------------------------------------------------------

SCHOLAR = "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4"
BEFORE_KE2 = "rnbqkb1r/pppppppp/5n2/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 1 2"
BEFORE_BE3 = "r1b1kbnr/ppp1ppp1/2nq4/3p3p/3P4/2NQ3N/PPP1PPPP/R1B1KB1R w KQkq - 2 5"


@pytest.mark.parametrize(
    ("fen", "verbose", "uci", "san"),
    [
        (chess.STARTING_FEN, "P/e2-e4", "e2e4", "e4"),
        (chess.STARTING_FEN, "N/g1-f3", "g1f3", "Nf3"),
        ("4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1", "P/e4-d5", "e4d5", "exd5"),
        (CASTLING, "o-o", "e1g1", "O-O"),
        (CASTLING, "o-o-o", "e1c1", "O-O-O"),
        ("3k4/4P3/8/8/8/8/8/4K3 w - - 0 1", "P/e7-e8=Q", "e7e8q", "e8=Q+"),
        ("4k3/8/8/8/8/8/8/4K2R w K - 0 1", "R/h1-h8", "h1h8", "Rh8+"),
        (SCHOLAR, "Q/h5-f7", "h5f7", "Qxf7#"),
        # the style 12 and style 10 help files' examples (icc-style12.txt, icc-style10.txt)
        (BEFORE_KE2, "K/e1-e2", "e1e2", "Ke2"),
        (BEFORE_BE3, "B/c1-e3", "c1e3", "Be3"),
    ],
)
def test_verbose_and_pretty_moves(fen: str, verbose: str, uci: str, san: str) -> None:
    board = chess.Board(fen)
    move = chess.Move.from_uci(uci)
    assert verbose_from_move(board, move) == verbose
    assert move_from_verbose(board, verbose) == move
    assert san_from_move(board, move) == san
    assert move_from_san(board, san) == move


def test_verbose_chess960_castling_is_o_o() -> None:
    board = chess.Board("rk5r/8/8/8/8/8/8/RK5R w KQkq - 0 1", chess960=True)
    long, king = chess.Move.from_uci("b1a1"), chess.Move.from_uci("b1c1")
    assert verbose_from_move(board, long) == "o-o-o"
    assert verbose_from_move(board, king) == "K/b1-c1"
    assert move_from_verbose(board, "o-o-o") == long
    assert move_from_verbose(board, "o-o") == chess.Move.from_uci("b1h1")
    assert move_from_verbose(board, "K/b1-c1") == king


def test_drops_in_verbose_and_pretty_notation() -> None:
    board = chess.variant.CrazyhouseBoard(SPECIAL_STARTS["crazyhouse"][0])
    pawn = chess.Move.from_uci("P@e4")
    assert verbose_from_move(board, pawn) == "P@e4"
    assert move_from_verbose(board, "P@e4") == pawn
    assert move_from_verbose(board, "P/@@-e4") == pawn  # the form FICS sends
    # "bughouse plunks are the same in all move formats" (icc-formats.txt, DG 34)
    assert san_from_move(board, pawn) == "P@e4"
    assert move_from_san(board, "P@e4") == pawn
    assert san_from_move(board, chess.Move.from_uci("Q@f7")) == "Q@f7+"


# -- what clients type -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("fen", "text", "uci"),
    [
        (chess.STARTING_FEN, "e2e4", "e2e4"),
        (chess.STARTING_FEN, "Nf3", "g1f3"),
        (chess.STARTING_FEN, "g1f3", "g1f3"),
        ("3k4/4P3/8/8/8/8/8/4K3 w - - 0 1", "e7e8=q", "e7e8q"),
        ("3k4/4P3/8/8/8/8/8/4K3 w - - 0 1", "e7e8q", "e7e8q"),
        ("3k4/4P3/8/8/8/8/8/4K3 w - - 0 1", "e7e8=N", "e7e8n"),
        ("3k4/4P3/8/8/8/8/8/4K3 w - - 0 1", "e8=R", "e7e8r"),
        (CASTLING, "o-o", "e1g1"),
        (CASTLING, "o-o-o", "e1c1"),
        (CASTLING, "0-0", "e1g1"),
        (CASTLING, "0-0-0", "e1c1"),
        (CASTLING, "O-O-O", "e1c1"),
        (CASTLING, "e1g1", "e1g1"),
        ("4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1", "exd5", "e4d5"),
    ],
)
def test_wire_moves(fen: str, text: str, uci: str) -> None:
    assert move_from_wire(chess.Board(fen), text) == chess.Move.from_uci(uci)


def test_wire_moves_in_chess960_and_crazyhouse() -> None:
    board = chess.Board("rk5r/8/8/8/8/8/8/RK5R w KQkq - 0 1", chess960=True)
    assert move_from_wire(board, "o-o-o") == chess.Move.from_uci("b1a1")
    assert move_from_wire(board, "b1c1") == chess.Move.from_uci("b1c1")
    house = chess.variant.CrazyhouseBoard(SPECIAL_STARTS["crazyhouse"][0])
    assert move_from_wire(house, "P@e4") == chess.Move.from_uci("P@e4")
    assert move_from_wire(house, "n@d3") == chess.Move.from_uci("N@d3")
    assert move_from_wire(house, "Q@f7+") == chess.Move.from_uci("Q@f7")  # SAN, with its +


# -- bad input ---------------------------------------------------------------------------

EP = "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1"
CAPTURE = "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1"
PROMOTION = "3k4/4P3/8/8/8/8/8/4K3 w - - 0 1"
HOUSE = SPECIAL_STARTS["crazyhouse"][0]


def _chess(fen: str) -> chess.Board:
    return chess.Board(fen)


def _chess960(fen: str) -> chess.Board:
    return chess.Board(fen, chess960=True)


def _house(fen: str) -> chess.Board:
    return chess.variant.CrazyhouseBoard(fen)


BAD: list[tuple[Callable[[chess.Board, str], chess.Move], Callable[[str], chess.Board], str, str]]
BAD = [
    (move_from_smith, _chess, chess.STARTING_FEN, "e2e5"),
    (move_from_smith, _chess, chess.STARTING_FEN, "e7e5"),  # not White's pawn
    (move_from_smith, _chess, CAPTURE, "e4d5"),  # capture without its indicator
    (move_from_smith, _chess, CAPTURE, "e4d5q"),  # the wrong piece
    (move_from_smith, _chess, chess.STARTING_FEN, "e2e4p"),  # nothing is captured
    (move_from_smith, _chess, EP, "e5d6"),
    (move_from_smith, _chess, EP, "e5d6p"),  # en passant is E
    (move_from_smith, _chess, CASTLING, "e1g1"),  # castling is c
    (move_from_smith, _chess, CASTLING, "e1g1C"),  # long castling does not go to g1
    (move_from_smith, _chess, CASTLING, "e1c1c"),
    (move_from_smith, _chess, CASTLING, "e1g1cQ"),
    (move_from_smith, _chess, CASTLING, "a1a8"),  # a capture without its indicator
    (move_from_smith, _chess, chess.STARTING_FEN, "e1g1c"),  # not legal yet
    (move_from_smith, _chess960, CASTLING, "e1h1"),  # python-chess's form is not SMITH
    (move_from_smith, _chess960, CASTLING, "e1h1c"),
    (move_from_smith, _chess, PROMOTION, "e7e8"),  # promotion missing
    (move_from_smith, _chess, PROMOTION, "e7e8K"),  # not a promote-to-king variant
    (move_from_smith, _chess, chess.STARTING_FEN, "Q@f7"),  # no drops in chess
    (move_from_smith, _house, HOUSE, "R@e4"),  # not in the pocket
    (move_from_smith, _house, HOUSE, "P@e8"),
    (move_from_smith, _chess, chess.STARTING_FEN, "?"),  # hidden kriegspiel move
    (move_from_smith, _chess, chess.STARTING_FEN, "?xb1"),
    (move_from_smith, _chess, chess.STARTING_FEN, ""),
    (move_from_smith, _chess, chess.STARTING_FEN, "e2-e4"),
    (move_from_smith, _chess, chess.STARTING_FEN, "E2E4"),
    (move_from_smith, _chess, chess.STARTING_FEN, "none"),
    (move_from_verbose, _chess, chess.STARTING_FEN, "none"),
    (move_from_verbose, _chess, chess.STARTING_FEN, "P/e2-e5"),
    (move_from_verbose, _chess, chess.STARTING_FEN, "N/e2-e4"),  # no knight on e2
    (move_from_verbose, _chess, chess.STARTING_FEN, "P/e2e4"),
    (move_from_verbose, _chess, chess.STARTING_FEN, "e2e4"),
    (move_from_verbose, _chess, chess.STARTING_FEN, "o-o"),
    (move_from_verbose, _chess, CASTLING, "K/e1-g1"),  # castling is written o-o
    (move_from_verbose, _chess, PROMOTION, "P/e7-e8"),
    (move_from_verbose, _chess, PROMOTION, "P/e7-e8=P"),
    (move_from_verbose, _chess, chess.STARTING_FEN, "P@e4"),
    (move_from_verbose, _house, HOUSE, "P@e8"),
    (move_from_verbose, _house, HOUSE, "R/@@-e4"),
    (move_from_san, _chess, chess.STARTING_FEN, "e5"),
    (move_from_san, _chess, chess.STARTING_FEN, "--"),  # python-chess's null move
    (move_from_san, _chess, chess.STARTING_FEN, "xyz"),
    (move_from_san, _chess, chess.STARTING_FEN, ""),
    (move_from_san, _chess, "4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1", "Nd2"),  # ambiguous
    (move_from_san, _house, HOUSE, "@e8"),
    (move_from_wire, _chess, chess.STARTING_FEN, "e2e5"),
    (move_from_wire, _chess, chess.STARTING_FEN, "o-o"),
    (move_from_wire, _chess, chess.STARTING_FEN, "0-0-0"),
    (move_from_wire, _chess, chess.STARTING_FEN, "P@e4"),
    (move_from_wire, _chess, chess.STARTING_FEN, "0000"),
    (move_from_wire, _chess, chess.STARTING_FEN, "hello"),
    (move_from_wire, _chess, PROMOTION, "e7e8"),
    (move_from_wire, _chess, PROMOTION, "e7e8=k"),
]


@pytest.mark.parametrize(
    ("read", "make", "fen", "text"),
    BAD,
    ids=[f"{read.__name__}-{text or 'empty'}" for read, _, _, text in BAD],
)
def test_bad_moves_are_refused_naming_the_move_and_the_position(
    read: Callable[[chess.Board, str], chess.Move],
    make: Callable[[str], chess.Board],
    fen: str,
    text: str,
) -> None:
    board = make(fen)
    before = board.fen()
    with pytest.raises(IllegalMoveError, match=re.escape(f"illegal move {text!r} in {before}")):
        read(board, text)
    assert board.fen() == before and not board.move_stack


@pytest.mark.parametrize("write", [smith_from_move, verbose_from_move, san_from_move])
@pytest.mark.parametrize("uci", ["e2e5", "e7e5", "0000", "P@e4"])
def test_writers_refuse_illegal_moves(
    write: Callable[[chess.Board, chess.Move], str], uci: str
) -> None:
    with pytest.raises(IllegalMoveError, match=re.escape(f"illegal move {uci!r} in ")):
        write(chess.Board(), chess.Move.from_uci(uci))


def test_illegal_move_error_is_a_value_error() -> None:
    assert issubclass(IllegalMoveError, ValueError)
    assert str(IllegalMoveError("a plain message")) == "a plain message"


def test_the_docstring_examples_hold() -> None:
    assert doctest.testmod(moves).failed == 0
