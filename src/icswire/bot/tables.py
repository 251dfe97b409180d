"""Moves the bot takes from tables before asking its engine: a Polyglot opening book and
Syzygy endgame tablebases.

A Syzygy move is the best by WDL (win, cursed win, draw, blessed loss, loss, each after
the fifty-move rule as the halfmove clock stands), then among wins the one that reaches
the next capture or pawn move soonest (DTZ plus the plies already on the fifty-move
count) and among losses the one that puts it off longest, as lichess-bot ranks them; a
mate on the board comes first. Both tables are for chess only: a board of another variant
is never looked up.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path
from typing import Final

import chess
import chess.polyglot
import chess.syzygy

__all__ = ["TABLEBASE_WIN", "Book", "TablebaseMove", "Tablebases"]

TABLEBASE_WIN: Final = 50000
"""The score of a tablebase win, less the plies to its next zeroing move: above any
centipawn evaluation, below any mate (100000 less the moves to it)."""

FIFTY_MOVES: Final = 100
"""Plies without a capture or pawn move after which a game is drawn (claimable on ICS)."""


class Book:
    """A Polyglot opening book: a move weighted by its entries' weights, or None."""

    def __init__(self, path: str, rng: random.Random | None = None) -> None:
        self.path = path
        if not Path(path).is_file():
            raise FileNotFoundError("no such file")
        self._reader = chess.polyglot.open_reader(path)
        # Not cryptographic: a book's weighted choice of an opening move.
        self._random = rng if rng is not None else random.Random()  # noqa: S311

    def move(self, board: chess.Board) -> chess.Move | None:
        """A book move in this position, else None."""
        try:
            entry = self._reader.weighted_choice(board, random=self._random)
        except IndexError:
            return None
        return entry.move if board.is_legal(entry.move) else None

    def close(self) -> None:
        self._reader.close()


@dataclass(frozen=True)
class TablebaseMove:
    """A tablebase's move: ``wdl`` from the mover's view after it (2 win ... -2 loss,
    the fifty-move rule counted) and ``score`` as :data:`TABLEBASE_WIN` gives it."""

    move: chess.Move
    wdl: int
    score: int


class Tablebases:
    """Syzygy tables from one or more directories."""

    def __init__(self, directories: tuple[str, ...]) -> None:
        self._tables = chess.syzygy.Tablebase()
        for directory in directories:
            if not Path(directory).is_dir():
                self._tables.close()
                raise FileNotFoundError(f"no directory {directory}")
            self._tables.add_directory(directory)
        names = set(self._tables.wdl) & set(self._tables.dtz)
        self.pieces = max((len(name) - 1 for name in names), default=0)
        """The most pieces (kings included) a position may have to be looked up."""

    def move(self, board: chess.Board) -> TablebaseMove | None:
        """The tablebase's best move for a chess position few enough pieces make, else
        None (too many pieces, castling rights, a table missing)."""
        if type(board).uci_variant != "chess" or board.castling_rights:
            return None
        if chess.popcount(board.occupied) > self.pieces:
            return None
        ranked: list[tuple[tuple[int, int], TablebaseMove]] = []
        for move in board.legal_moves:
            after = board.copy(stack=False)
            after.push(move)
            if after.is_checkmate():
                return TablebaseMove(move, 2, 100000 - 1)
            try:
                wdl = -self._tables.probe_wdl(after)
                dtz = abs(self._tables.probe_dtz(after))
            except KeyError:  # a missing table (MissingTableError) or too many pieces
                return None
            ranked.append(_rank(move, wdl, dtz, after.halfmove_clock))
        if not ranked:
            return None
        return max(ranked, key=lambda pair: pair[0])[1]

    def close(self) -> None:
        self._tables.close()


def _rank(
    move: chess.Move, wdl: int, dtz: int, halfmoves: int
) -> tuple[tuple[int, int], TablebaseMove]:
    """The sort key of a move (higher is better) and the move with its score. ``wdl`` is
    the mover's, ``dtz`` the plies from the position after it to the next zeroing move,
    ``halfmoves`` the fifty-move count there."""
    to_zeroing = dtz + halfmoves
    if wdl == 2 and to_zeroing > FIFTY_MOVES:
        wdl = 1
    elif wdl == -2 and to_zeroing > FIFTY_MOVES:
        wdl = -1
    if wdl == 2:
        return (wdl, -to_zeroing), TablebaseMove(move, wdl, TABLEBASE_WIN - to_zeroing)
    if wdl == -2:
        return (wdl, to_zeroing), TablebaseMove(move, wdl, to_zeroing - TABLEBASE_WIN)
    return (wdl, 0), TablebaseMove(move, wdl, 0)
