"""How a move ends a game, in every variant: python-chess's ``outcome()`` of the board,
as DG_GAMELIST_ITEM's status and mode and the words FICS says.

Chess's ends keep their codes: checkmate (0, 1), stalemate (1, 1), neither side can mate
(1, 5). A variant's own win is status 0 mode 12 ("White wins"), said FICS's way where FICS
has words for it: "wins by losing all material" and "wins by having less material
(stalemate)" (suicide, losers; as FICS ends such games), and the same manner of words for
the ends FICS has no text for (losers' "wins by being checkmated", giveaway's stalemate,
atomic's explosion, three-check). A variant's draw (suicide's stalemate with equal
material) is status 1 mode 10, "Game drawn by stalemate (equal material)". The
seventy-five-move rule and fivefold repetition end nothing here: as in chess on this
server, the players claim or agree to those draws.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

import chess
import chess.variant

from icswire.boards.losers import LosersBoard
from icswire.protocol.codes import DrawMode, ResultStatus, WinMode

__all__ = ["Ending", "ending"]

T = chess.Termination


@dataclass(frozen=True, slots=True)
class Ending:
    """A game's end: status and mode (DG_GAMELIST_ITEM), the side that lost (or, for a
    draw, the side to move), and the description in White/Black words when it is not the
    table's (:func:`~icswire.protocol.codes.describe_result`)."""

    status: int
    mode: int
    color: chess.Color
    text: str | None = None


def ending(board: chess.Board) -> Ending | None:
    """How ``board``'s last move ended the game; None if it goes on. A board whose class
    has its own ``outcome()`` (bughouse's) is asked through it.

    >>> ending(chess.variant.GiveawayBoard("8/8/8/8/8/8/p7/8 w - - 0 1")).text
    'White wins by losing all material'
    """
    outcome = _outcome(board) if type(board).outcome is _OUTCOME else board.outcome()
    if outcome is None:
        return None
    term = outcome.termination
    if term == T.CHECKMATE:
        return Ending(ResultStatus.WIN, WinMode.CHECKMATED, board.turn)
    if term == T.STALEMATE:
        return Ending(ResultStatus.DRAW, DrawMode.STALEMATE, board.turn)
    if term == T.INSUFFICIENT_MATERIAL:
        return Ending(ResultStatus.DRAW, DrawMode.NO_MATERIAL, board.turn)
    if term == T.VARIANT_DRAW:
        text = "Game drawn by stalemate (equal material)"
        return Ending(ResultStatus.DRAW, DrawMode.DRAWN, board.turn, text)
    if term in (T.VARIANT_WIN, T.VARIANT_LOSS) and outcome.winner is not None:
        winner = outcome.winner
        return Ending(ResultStatus.WIN, WinMode.WINS, not winner, _win_text(board, winner))
    return None


_OUTCOME: Final = chess.Board.outcome


def _outcome(board: chess.Board) -> chess.Outcome | None:
    """python-chess's ``outcome()`` without the automatic draws it looks for last (the
    seventy-five-move rule, fivefold repetition: they end nothing here), which cost a walk
    back through the game at every move. A standard board (most games) has no variant
    ends, and one look for a legal move tells mate and stalemate apart from going on
    (``is_checkmate`` then ``any(legal moves)`` looked twice when in check)."""
    if type(board) is chess.Board:
        if any(board.generate_legal_moves()):
            if board.is_insufficient_material():
                return chess.Outcome(T.INSUFFICIENT_MATERIAL, None)
            return None
        if board.is_check():
            return chess.Outcome(T.CHECKMATE, not board.turn)
        if board.is_insufficient_material():
            return chess.Outcome(T.INSUFFICIENT_MATERIAL, None)
        return chess.Outcome(T.STALEMATE, None)
    if board.is_variant_loss():
        return chess.Outcome(T.VARIANT_LOSS, not board.turn)
    if board.is_variant_win():
        return chess.Outcome(T.VARIANT_WIN, board.turn)
    if board.is_variant_draw():
        return chess.Outcome(T.VARIANT_DRAW, None)
    if board.is_checkmate():
        return chess.Outcome(T.CHECKMATE, not board.turn)
    if board.is_insufficient_material():
        return chess.Outcome(T.INSUFFICIENT_MATERIAL, None)
    if not any(board.generate_legal_moves()):
        return chess.Outcome(T.STALEMATE, None)
    return None


def _win_text(board: chess.Board, winner: chess.Color) -> str:
    """The words of a variant's win, White/Black for the players."""
    name, other = ("White", "Black") if winner == chess.WHITE else ("Black", "White")
    if isinstance(board, chess.variant.AtomicBoard):
        return f"{name} wins by exploding {other}'s king"
    if isinstance(board, chess.variant.ThreeCheckBoard):
        return f"{name} wins by giving three checks"
    if isinstance(board, LosersBoard):  # a lone king, or no move
        if not board.occupied_co[winner] & ~board.kings:
            return f"{name} wins by losing all material"
        return f"{name} wins by being {'checkmated' if board.is_check() else 'stalemated'}"
    if isinstance(board, chess.variant.SuicideBoard):  # no piece, or no move
        if not board.occupied_co[winner]:
            return f"{name} wins by losing all material"
        if isinstance(board, chess.variant.GiveawayBoard):
            return f"{name} wins by being stalemated"
        return f"{name} wins by having less material (stalemate)"
    return f"{name} wins"
