"""icswire's boards as chess engines know them.

python-chess tells an engine the variant by the board's class (``uci_variant`` for
UCI_Variant, ``xboard_variant`` for xboard's ``variant`` command), so a board of one of
icswire's own classes is given to the engine as a board of a class it knows, with the
same position and, where the moves replay, the same history (repetitions count):

- FICS suicide (:class:`~icswire.boards.suicide.FicsSuicideBoard`) and losers
  (:class:`~icswire.boards.losers.LosersBoard`) already name ``suicide`` and ``losers``,
  the names Sjeng and Fairy-Stockfish use for FICS's rules;
- wild 2, 3 and 4 (:class:`~icswire.boards.wilds.NoCastleBoard`) are chess from a position
  without castling rights;
- wild 0 and 1 (:class:`~icswire.boards.wilds.WildCastleBoard`) are ``wildcastle`` for an
  engine that names it, and chess once no king on the d file may castle;
- ICC atomic (:class:`~icswire.boards.atomic.IccAtomicBoard`, no check) is played as
  atomic with check, whose moves are all legal in ICC atomic; a position atomic with check
  does not allow (a king left attacked) is not given to the engine;
- bughouse is refused: one engine sees one board, and its pieces come from the partner's.
"""

from __future__ import annotations

from collections.abc import Callable

import chess
import chess.variant

from icswire.boards.atomic import IccAtomicBoard
from icswire.boards.bughouse import BughouseBoard
from icswire.boards.wilds import NoCastleBoard, WildCastleBoard

__all__ = ["engine_boards", "rebuild", "winning_move"]


def engine_boards(board: chess.Board) -> list[chess.Board]:
    """Boards an engine may be given for ``board``, the preferred first (empty: none)."""
    if isinstance(board, BughouseBoard):
        return []
    if isinstance(board, IccAtomicBoard):
        atomic = rebuild(board, chess.variant.AtomicBoard, chess960=board.chess960)
        return [atomic] if atomic.is_valid() else []
    if isinstance(board, NoCastleBoard):
        return [rebuild(board, chess.Board, chess960=board.chess960)]
    if isinstance(board, WildCastleBoard):
        boards: list[chess.Board] = [board]
        if not _d_file_castling(board):
            boards.append(rebuild(board, chess.Board, chess960=False))
        return boards
    return [board]


def _d_file_castling(board: WildCastleBoard) -> bool:
    """Whether a king on the d file may still castle (which chess does not know)."""
    for color, rank in ((chess.WHITE, chess.BB_RANK_1), (chess.BLACK, chess.BB_RANK_8)):
        king = board.king(color)
        if king is not None and chess.square_file(king) == 3 and board.castling_rights & rank:
            return True
    return False


def rebuild(board: chess.Board, cls: Callable[..., chess.Board], *, chess960: bool) -> chess.Board:
    """``board``'s game on a board of ``cls``: from its first position with its moves, or
    from its position alone when a move does not replay there."""
    root = board.root()
    copy = cls(root.fen(), chess960=chess960)
    try:
        for move in board.move_stack:
            copy.push(copy.parse_uci(move.uci()))
    except ValueError:
        return cls(board.fen(), chess960=chess960)
    if copy.fen() != board.fen():
        return cls(board.fen(), chess960=chess960)
    return copy


def winning_move(board: chess.Board) -> chess.Move | None:
    """A legal move that wins the game at once (an explosion, a mate), else None."""
    for move in board.legal_moves:
        after = board.copy(stack=False)
        after.push(move)
        outcome = after.outcome()
        if outcome is not None and outcome.winner == board.turn:
            return move
    return None
