"""What players and observers of a played game see happen: a move, the board shown again,
a takeback, the clocks changed, a piece passed to a bughouse partner board."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import chess

from icswire.boards.variants import new_board
from icswire.server.core.events.base import LOCAL, Event, kind


@kind
@dataclass(frozen=True, slots=True)
class GamePosition:
    """A played game's board as every receiver's style needs it, in milliseconds.

    ``fen`` is the position (with the holdings, in games that have them) of ``variant``
    (the name in :mod:`icswire.boards.variants`); ``last`` the last move's (verbose,
    SAN, SMITH), ``recent`` the last four moves as (SAN, verbose, milliseconds taken) for style
    9. ``flipped`` names who turned their board with ``flip``. ``board``, when the game's
    node made the event, is the position already built (not shipped)."""

    game: int
    white: str
    black: str
    variant: str
    fen: str
    initial: int
    increment: int
    white_ms: int
    black_ms: int
    move_time_ms: int
    ticking: bool
    ply: int
    last: tuple[str, str, str] | None
    recent: tuple[tuple[str, str, int], ...]
    flipped: tuple[str, ...]
    board: Any = field(default=None, compare=False, repr=False, metadata=LOCAL, kw_only=True)

    @property
    def white_to_move(self) -> bool:
        return self.fen.split(" ", 2)[1] == "w"

    def position(self) -> chess.Board:
        """The board of :attr:`fen`, built once (the game's node gives it ready)."""
        board = self.board
        if board is None:
            board = new_board(self.variant, fen=self.fen)
            object.__setattr__(self, "board", board)
        return board  # type: ignore[no-any-return]

    def relation(self, name: str) -> int:
        """Style 12's relation of ``name``: 1 its move, -1 the opponent's, 0 observing."""
        if name == self.white:
            return 1 if self.white_to_move else -1
        if name == self.black:
            return -1 if self.white_to_move else 1
        return 0

    def flipped_for(self, name: str, flip_variable: bool) -> bool:
        """Whether ``name`` sees the board from Black's side: it plays Black, turned the
        board with ``flip`` or has ``set flip 1``; each turns it once more."""
        black = name == self.black and name != self.white
        return black ^ (name in self.flipped) ^ flip_variable

    @property
    def holdings(self) -> tuple[str, str] | None:
        """The holdings (White's, Black's) in DG_BUGHOUSE_HOLDINGS' letters, in games with
        holdings."""
        pockets = getattr(self.position(), "pockets", None)
        if pockets is None:
            return None
        return str(pockets[chess.WHITE]).upper(), str(pockets[chess.BLACK]).upper()


@kind
@dataclass(frozen=True, slots=True)
class MovePlayed(Event):
    """A move in a played game: its notations, the time it took and the mover's clock
    after it (increment included), as DG_SEND_MOVES (24) and its parts tell them, and the
    position after it. ``lag_ms`` is the lag charged to a mover with timestamping
    (timeseal), None for the others (DG_MOVE_LAG, 144)."""

    position: GamePosition
    san: str
    smith: str
    time_ms: int
    clock_ms: int
    variation: int
    lag_ms: int | None = None


@kind
@dataclass(frozen=True, slots=True)
class BoardShown(Event):
    """The board of a played game, shown again as it is (at a flag, a refresh)."""

    position: GamePosition


@kind
@dataclass(frozen=True, slots=True)
class TakenBack(Event):
    """The last ``plies`` moves were taken back (DG_TAKEBACK, 22); ``position`` is the
    board after it."""

    position: GamePosition
    plies: int


@kind
@dataclass(frozen=True, slots=True)
class ClocksChanged(Event):
    """The clocks were set again (pause, unpause, moretime, switch): both clocks
    (DG_MSEC, 56) and the board."""

    position: GamePosition


@kind
@dataclass(frozen=True, slots=True)
class PiecePassed(Event):
    """A capture on the partner board passed a piece to game ``game``'s holding of
    ``color`` ("W" or "B"): DG_BUGHOUSE_PASS (57), DG_BUGHOUSE_HOLDINGS (37) and FICS's
    ``<b1>`` line with the piece received. ``white`` and ``black`` are the holdings after
    it, in FICS's order (P N B R Q)."""

    game: int
    white: str
    black: str
    color: str
    piece: str
