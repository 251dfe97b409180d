"""What those in an examined game (its examiners and observers) see happen: moves made
or gone through, moves taken back, the board shown again, examiners joining and leaving,
the game gone."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import chess

from icswire.boards.variants import new_board
from icswire.server.core.events.base import LOCAL, Event, kind

#: Style 12's relation for an examiner, and for an observer of an examined game.
EXAMINER, EXAMINED_OBSERVER = 2, -2


@kind
@dataclass(frozen=True, slots=True)
class ExaminedPosition:
    """An examined game's board as every receiver's style needs it, in milliseconds.

    ``fen`` is the position (with the holdings, in games that have them; the en passant
    square after any double push, as style 12 shows it) of ``variant`` (the name in
    :mod:`icswire.boards.variants`); ``last`` the last move's (verbose, pretty) notations
    as style 12 shows them, None at the start; ``recent`` the last four moves as (SAN,
    verbose, milliseconds taken) for style 9. Examiners see relation 2, the others -2;
    ``flipped`` names who turned their board with ``flip``. ``board``, when the game's
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
    ply: int
    last: tuple[str, str] | None
    recent: tuple[tuple[str, str, int], ...]
    examiners: tuple[str, ...]
    flipped: tuple[str, ...]
    #: The last move in Smith notation (DG_JBOARD's "smith last move"), "" at the start.
    last_smith: str = ""
    board: Any = field(default=None, compare=False, repr=False, metadata=LOCAL, kw_only=True)

    def position(self) -> chess.Board:
        """The board of :attr:`fen`, built once (the game's node gives it ready)."""
        board = self.board
        if board is None:
            board = new_board(self.variant, fen=self.fen)
            object.__setattr__(self, "board", board)
        return board  # type: ignore[no-any-return]

    def relation(self, name: str) -> int:
        return EXAMINER if name in self.examiners else EXAMINED_OBSERVER

    def flipped_for(self, name: str, flip_variable: bool) -> bool:
        """Turned with ``flip``, or ``set flip 1`` (both: White's side again)."""
        return (name in self.flipped) != flip_variable


@kind
@dataclass(frozen=True, slots=True)
class ExaminedBoard(Event):
    """The board of an examined game, shown as it is (a position set up, an examiner
    more, one who starts examining or observing)."""

    position: ExaminedPosition


@kind
@dataclass(frozen=True, slots=True)
class ExaminedForward(Event):
    """``examiner`` made a move (``variation`` MOVE_EXAMINE, 3: the others read ``Game N:
    NAME moves: SAN``) or went forward through the line (MOVE_FORWARD, 2: everybody reads
    ``Game N: NAME goes forward N moves.``): DG_SEND_MOVES (24) for each of ``moves``
    (SAN, SMITH, milliseconds taken, clock in milliseconds), then the board."""

    position: ExaminedPosition
    examiner: str
    moves: tuple[tuple[str, str, int, int], ...]
    variation: int


@kind
@dataclass(frozen=True, slots=True)
class ExaminedBackward(Event):
    """``examiner`` went back ``steps`` moves (DG_BACKWARD, 23, when there are any), with
    ``backward`` or, ``reverted``, back to the main line; then the board."""

    position: ExaminedPosition
    examiner: str
    steps: int
    reverted: bool


@kind
@dataclass(frozen=True, slots=True)
class ExaminerJoined(Event):
    """``name`` examines game ``game`` too (``mexamine``): DG_PLAYERS_IN_MY_GAME (20)
    with ``E``; ``kibitz`` is its ``kibitz`` variable."""

    game: int
    name: str
    kibitz: bool


@kind
@dataclass(frozen=True, slots=True)
class ExaminerLeft(Event):
    """``name`` stopped examining game ``game``, which others still examine:
    DG_PLAYERS_IN_MY_GAME with ``X`` and ``Game N: NAME has stopped examining.``"""

    game: int
    name: str


@kind
@dataclass(frozen=True, slots=True)
class ExaminedGameGone(Event):
    """Nobody examines game ``game`` any more: to its observers DG_MY_GAME_ENDED (17),
    DG_MY_RELATION_TO_GAME (43) ``X`` and the words that they observe it no longer."""

    game: int


@kind
@dataclass(frozen=True, slots=True)
class BoardMarked(Event):
    """``examiner`` marked the board of game ``game`` (help ``boardinfo``): ``verb`` is
    ``circle``, ``uncircle``, ``arrow`` or ``unarrow`` (from ``a`` to ``b``; a circle's
    ``b`` is ``a``), or ``boardinfo``, Dasher's DG_BOARDINFO (143) with its ``info`` type
    and ``color``, and ``removed``, the marks (kind, a, b, color) its clear-all or undo
    took away. ``said`` is the text for those who get no DG of it."""

    game: int
    examiner: str
    verb: str
    a: str
    b: str
    info: int
    color: int
    removed: tuple[tuple[int | str, str, str, int], ...]
    said: str
