"""How a move ends a game (features/play/endings.py), against python-chess's outcome()."""

from __future__ import annotations

import random

import chess
import pytest

from icswire.boards.variants import VARIANTS, Variant
from icswire.server.features.play.endings import ending

#: python-chess's automatic draws: here the players claim or agree to them; nothing ends.
CLAIMED = (chess.Termination.SEVENTYFIVE_MOVES, chess.Termination.FIVEFOLD_REPETITION)


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: v.name)
def test_ending_is_outcome_but_the_automatic_draws(variant: Variant) -> None:
    rng = random.Random(variant.name)
    ends = 0
    for _ in range(30):
        board = variant.new_board(rng)
        while True:
            outcome, end = board.outcome(), ending(board)
            if outcome is None or outcome.termination in CLAIMED:
                assert end is None, board.fen()
            else:
                assert end is not None, board.fen()
                assert (end.status == 1) == (outcome.winner is None), board.fen()
                if outcome.winner is not None:
                    assert end.color == (not outcome.winner), board.fen()
                ends += 1
            moves = list(board.legal_moves)
            if end is not None or not moves or board.ply() > 400:
                break
            board.push(rng.choice(moves))
    assert ends


def test_a_fivefold_repetition_ends_nothing() -> None:
    board = chess.Board()
    for _ in range(4):
        for uci in ("g1f3", "g8f6", "f3g1", "f6g8"):
            board.push_uci(uci)
    outcome = board.outcome()
    assert outcome is not None and outcome.termination == chess.Termination.FIVEFOLD_REPETITION
    assert ending(board) is None
