"""DG_ILLEGAL_MOVE's reason codes for moves refused in every variant."""

from __future__ import annotations

import doctest

import chess
import pytest
from hypothesis import given
from hypothesis import strategies as st

from icswire.boards import illegal
from icswire.boards.illegal import illegal_reason
from icswire.boards.moves import san_from_move
from icswire.boards.variants import Variant, new_board
from icswire.protocol.codes import IllegalMoveReason as R

from .test_moves import FAST, VARIANTS, games, positions

HOUSE = "r3k2r/pppq1ppp/8/8/8/8/PPPP1PPP/R3K2R[Pn] w KQkq - 0 1"


@pytest.mark.parametrize(
    ("variant", "fen", "text", "reason"),
    [
        # chess
        ("chess", chess.STARTING_FEN, "e2e4", None),
        ("chess", chess.STARTING_FEN, "Nf3", None),
        ("chess", chess.STARTING_FEN, "e2-e4", None),
        ("chess", chess.STARTING_FEN, "e2e5", R.ILLEGAL),
        ("chess", chess.STARTING_FEN, "e7e5", R.ILLEGAL),  # not White's pawn
        ("chess", chess.STARTING_FEN, "Nf4", R.ILLEGAL),
        ("chess", chess.STARTING_FEN, "hello", R.BAD_NOTATION),
        ("chess", chess.STARTING_FEN, "o-o", R.ILLEGAL),
        ("chess", chess.STARTING_FEN, "P@e4", R.ILLEGAL),  # no pockets in chess
        ("chess", "4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1", "Nd2", R.BAD_NOTATION),  # ambiguous
        ("chess", "4k3/4r3/8/8/8/8/4B3/4K3 w - - 0 1", "Bd3", R.KING_IN_CHECK),  # pinned
        ("chess", "4k3/4r3/8/8/8/8/4B3/4K3 w - - 0 1", "e2d3", R.KING_IN_CHECK),
        ("chess", "4k3/8/8/8/8/8/3r4/4K3 w - - 0 1", "Ke2", R.KING_IN_CHECK),
        ("chess", "4k3/8/8/8/8/8/3r4/4K3 w - - 0 1", "Kxd2", None),
        ("chess", "r3k2r/8/8/8/8/8/5r2/R3K2R w KQkq - 0 1", "O-O", R.ILLEGAL),  # f1 is hit
        ("chess", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1g1", None),
        ("chess", "8/4P3/8/8/8/8/8/k6K w - - 0 1", "e7e8", R.ILLEGAL),  # promote to what?
        ("chess", "8/4P3/8/8/8/8/8/k6K w - - 0 1", "e8=K", R.ILLEGAL),
        # crazyhouse and bughouse drops
        ("crazyhouse", HOUSE, "P@e4", None),
        ("crazyhouse", HOUSE, "N@e4", R.PIECE_NOT_HELD),
        ("crazyhouse", HOUSE, "P@d2", R.DROP_SQUARE_OCCUPIED),
        ("crazyhouse", HOUSE, "P@e8", R.DROP_SQUARE_OCCUPIED),
        ("crazyhouse", HOUSE, "P@h8", R.DROP_SQUARE_OCCUPIED),
        ("crazyhouse", "4k3/8/8/8/8/8/8/4K3[P] w - - 0 1", "P@a8", R.PAWN_DROP_ON_BACK_RANK),
        ("crazyhouse", "4k3/8/8/8/8/8/8/4K3[P] w - - 0 1", "@a1", R.PAWN_DROP_ON_BACK_RANK),
        ("crazyhouse", "4k3/8/8/8/8/8/8/r3K3[N] w - - 0 1", "N@h4", R.KING_IN_CHECK),
        ("crazyhouse", "4k3/8/8/8/8/8/8/r3K3[N] w - - 0 1", "N@c1", None),
        ("bughouse", "4k3/8/8/8/8/8/8/4K3[p] w - - 0 1", "P@e4", R.PIECE_NOT_HELD),
        ("bughouse", "4k3/8/8/8/8/8/8/4K3[Q] w - - 0 1", "Q@e1", R.DROP_SQUARE_OCCUPIED),
        # forced captures
        ("losers", "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1", "e4e5", R.WILD_RESTRICTION),
        ("losers", "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1", "Kf1", R.WILD_RESTRICTION),
        ("losers", "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1", "exd5", None),
        ("losers", "4k3/4r3/8/3p4/4P3/8/8/4K3 w - - 0 1", "Kd2", None),  # e4 is pinned
        ("losers", "4k3/4r3/8/3p4/4P3/8/8/4K3 w - - 0 1", "exd5", R.KING_IN_CHECK),
        ("losers", "4k3/4r3/8/8/8/8/8/3K3R w - - 0 1", "Ke2", R.KING_IN_CHECK),
        ("losers", "r3k2r/p6p/8/3p4/4P3/8/P6P/R3K2R w KQkq - 0 1", "O-O", R.WILD_RESTRICTION),
        ("suicide", "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1", "e4e5", R.WILD_RESTRICTION),
        ("suicide", "4k3/8/8/8/8/8/3r4/4K3 w - - 0 1", "Ke2", R.WILD_RESTRICTION),
        ("suicide", "4k3/8/8/8/8/8/3r4/4K3 w - - 0 1", "Kxd2", None),
        ("suicide", "8/3P4/8/8/8/8/8/k7 w - - 0 1", "d8=K", None),
        ("suicide", "r3k2r/p6p/8/8/8/8/P6P/R3K2R w KQkq - 0 1", "O-O", R.ILLEGAL),
        ("giveaway", "r3k2r/p6p/8/8/8/8/P6P/R3K2R w KQkq - 0 1", "O-O", None),
        ("giveaway", "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1", "Ke2", R.WILD_RESTRICTION),
        # atomic
        ("atomic", "4k3/8/8/8/8/8/8/3RK3 b - - 0 1", "Kd8", R.KING_IN_CHECK),
        ("icc-atomic", "4k3/8/8/8/8/8/8/3RK3 b - - 0 1", "Kd8", None),
        ("atomic", "4k3/8/8/8/8/8/3p4/4K3 w - - 0 1", "Kxd2", R.WILD_RESTRICTION),
        ("icc-atomic", "4k3/8/8/8/8/4B3/3p4/4K3 w - - 0 1", "Bxd2", R.WILD_RESTRICTION),
        ("icc-atomic", "4k3/8/8/8/8/8/5r2/4K2R w K - 0 1", "O-O", None),
        ("atomic", "4k3/8/8/8/8/8/5r2/4K2R w K - 0 1", "O-O", R.ILLEGAL),
        # wild castling from the d file
        ("wild/1", "r2k3r/8/8/8/8/8/8/R2K3R w KQkq - 0 1", "d1b1", None),
        ("wild/1", "r2k3r/8/8/8/8/8/8/R2K3R w KQkq - 0 1", "o-o", None),
        ("wild/1", "r2k3r/8/8/8/8/8/8/RN1K3R w KQkq - 0 1", "O-O", R.ILLEGAL),
        ("wild/1", "r2k3r/8/8/8/8/8/8/R2K3R w KQkq - 0 1", "d1f1", None),
        ("wild/2", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1g1", R.ILLEGAL),
        ("three-check", "4k3/4r3/8/8/8/8/4Q3/4K3 w - - 0 1", "Qd3", R.KING_IN_CHECK),
        ("fr", "4k3/8/8/8/8/8/8/RK5R w KQ - 0 1", "b1g1", None),  # two squares: castling
        ("fr", "4k3/8/8/8/8/8/8/RK5R w KQ - 0 1", "b1c1", None),  # one: a king move
    ],
)
def test_reasons(variant: str, fen: str, text: str, reason: R | None) -> None:
    assert illegal_reason(new_board(variant, fen=fen), text) == reason


@pytest.mark.parametrize("variant", VARIANTS.values(), ids=VARIANTS.keys())
@FAST
@given(data=st.data())
def test_every_legal_move_has_no_reason_and_every_refused_one_has_one(
    variant: Variant, data: st.DataObject
) -> None:
    """Legal moves in every notation get None; the moves a piece could make that are
    refused get "king in check" or the variant's restriction; garbage is bad notation."""
    for board in positions(data.draw(games(variant, max_plies=20))):
        for move in board.legal_moves:
            for text in (move.uci(), san_from_move(board, move)):
                assert illegal_reason(board, text) is None, (text, board.fen())
                assert illegal_reason(board, text.rstrip("+#")) is None, (text, board.fen())
        for move in board.generate_pseudo_legal_moves():
            if not board.is_legal(move):
                assert illegal_reason(board, move.uci()) in (R.KING_IN_CHECK, R.WILD_RESTRICTION)
        assert illegal_reason(board, "Zz9") == R.BAD_NOTATION


def test_the_docstring_examples_hold() -> None:
    assert doctest.testmod(illegal).failed == 0
