"""FICS suicide chess on python-chess's ``SuicideBoard``; ICC's giveaway is python-chess's
``GiveawayBoard`` as it is.

FICS help ``suicide_chess``: you win if "(a) You lose all of your pieces before your
opponent loses all of his/hers", or "(b) You have no legal moves to make and have fewer
pieces left at the end than your opponent does. The type of pieces remaining make no
difference. If the number of pieces is equal, the game would be drawn." The different
rules: "(a) Castling is not permitted. (b) If you can capture an opponent's piece, you must
do so ... (c) Treat the king as if it were just a regular piece. There is no check or
checkmate. The king can be captured. And you can promote a pawn to a king".

python-chess's ``SuicideBoard`` has exactly (b), (c) and both ways to win, but lets a
position's castling rights stand; :class:`FicsSuicideBoard` has none.

ICC help ``Giveaway`` (wild 26) differs in two points, both python-chess's
``GiveawayBoard``: "The player to move wins if he cannot move; i.e., he has no pieces
left or all his pieces are stalemated" (whatever the count), and "Castling is sometimes
legal; just ignore the check considerations".
"""

from __future__ import annotations

import chess
import chess.variant

__all__ = ["FicsSuicideBoard"]


class FicsSuicideBoard(chess.variant.SuicideBoard):
    """FICS suicide: python-chess's suicide chess without castling.

    >>> board = FicsSuicideBoard()
    >>> board.fen()
    'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1'
    >>> FicsSuicideBoard("8/8/8/8/1p6/p7/P7/8 w - - 0 1").outcome().winner  # no move, fewer
    True
    """

    starting_fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1"

    def __init__(self, fen: str | None = starting_fen, chess960: bool = False) -> None:
        super().__init__(fen, chess960=chess960)

    def reset(self) -> None:
        self.set_fen(type(self).starting_fen)

    def clean_castling_rights(self) -> chess.Bitboard:
        return chess.BB_EMPTY
