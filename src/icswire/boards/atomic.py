"""Atomic chess: FICS's is python-chess's ``AtomicBoard``; ICC's (wild 27) has no check.

Both (FICS help ``atomic``; chronatog.com's atomic rules, "the same regardless of which
site you play atomic on"): a capture explodes the capturing and the captured piece and
every piece but pawns on the eight squares around; "Moves that result in the explosion of
your own king are illegal", so kings may stand side by side and a king never captures;
exploding the enemy king wins, and en passant explodes around the square the pawn lands on.

They differ in check: "When there IS check (such as on FICS ...) the game can be won either
by the explosion of the enemy king ... or by checkmate", which is python-chess's
``AtomicBoard`` (lichess's rules). "When there ISN'T check (such as on the ICC) the game is
won by the explosion of the enemy king": a king may move onto or stay on an attacked
square, and castle through one. :class:`IccAtomicBoard` is that game.
"""

from __future__ import annotations

from typing import ClassVar

import chess
import chess.variant

__all__ = ["IccAtomicBoard"]


class IccAtomicBoard(chess.variant.AtomicBoard):
    """ICC atomic (wild 27): atomic chess without check; only an explosion ends it.

    >>> board = IccAtomicBoard("4k3/8/8/8/8/8/8/3RK3 b - - 0 1")
    >>> board.is_legal(chess.Move.from_uci("e8d8"))  # onto the rook's file: no check here
    True
    >>> board.is_check(), board.is_checkmate()
    (False, False)
    """

    aliases: ClassVar[list[str]] = ["wild/27", "ICC atomic"]
    uci_variant = "atomic"
    xboard_variant = "atomic"

    def checkers_mask(self) -> chess.Bitboard:
        return chess.BB_EMPTY

    def was_into_check(self) -> bool:
        return False

    def _attacked_for_king(self, path: chess.Bitboard, occupied: chess.Bitboard) -> bool:
        return False
