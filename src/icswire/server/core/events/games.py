"""What players and observers of a played game see happen: a move, the board shown again,
a takeback, the clocks changed, a piece passed to a bughouse partner board."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import chess

from icswire.boards.positions import Flags, holding_text, placement
from icswire.boards.variants import new_board
from icswire.server.core.events.base import LOCAL, Event, kind


@kind
@dataclass(frozen=True, slots=True)
class BoardView:
    """A position as style 12, style 10, DG_JBOARD (49), ``<b1>`` and
    DG_BUGHOUSE_HOLDINGS (37) show it, worked out once by the game's node from its board
    so that no receiving node builds a board for them: the fields of
    :class:`~icswire.boards.positions.Placement`, and in games with holdings (else None)
    ``holdings`` (White's, Black's) in DG_BUGHOUSE_HOLDINGS' letters and ``in_hand`` in
    ``<b1>``'s (FICS's order: P N B R Q)."""

    ranks: tuple[str, ...]
    side_to_move: str
    double_push_file: int
    castling: Flags
    halfmove_clock: int
    move_number: int
    strengths: tuple[int, int]
    holdings: tuple[str, str] | None
    in_hand: tuple[str, str] | None

    @classmethod
    def of(cls, board: chess.Board) -> BoardView:
        """The view of ``board`` (the game's node's own)."""
        pockets = getattr(board, "pockets", None)
        holdings = in_hand = None
        if pockets is not None:
            holdings = str(pockets[chess.WHITE]).upper(), str(pockets[chess.BLACK]).upper()
            in_hand = holding_text(board, chess.WHITE), holding_text(board, chess.BLACK)
        return cls(*placement(board), holdings, in_hand)


@kind
@dataclass(frozen=True, slots=True)
class GamePosition:
    """A played game's board as every receiver's style needs it, in milliseconds.

    ``fen`` is the position (with the holdings, in games that have them; the en passant
    square after any double push, as style 12 shows it) of ``variant``
    (the name in :mod:`icswire.boards.variants`); ``last`` the last move's (verbose,
    SAN, SMITH), ``recent`` the last four moves as (SAN, verbose, milliseconds taken) for style
    9. ``flipped`` names who turned their board with ``flip``; ``view`` is the position
    as style 12 and its kin show it (:class:`BoardView`). ``board`` is the position already
    built when the event's maker gave it (not shipped); else it is built from ``fen``,
    once, for a receiver whose style draws the board (1 to 9, 11) (a played game's move
    gives none: most receivers never need it)."""

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
    view: BoardView
    board: Any = field(default=None, compare=False, repr=False, metadata=LOCAL, kw_only=True)

    @property
    def white_to_move(self) -> bool:
        return self.view.side_to_move == "W"

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
        return self.view.holdings


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


@kind
@dataclass(frozen=True, slots=True)
class GameHeader:
    """What DG_GAME_STARTED's form (12, 15, 18, 40, 100) says of a played game: the
    players, their ratings and titles, the wild, rating type and time control (White's,
    then Black's, which differ in a game with time odds), the stored game's id, whether the
    variant has holdings, and its irregular-legality, irregular-semantics and
    promote-to-king flags (:class:`~icswire.boards.variants.Variant`)."""

    game: int
    white: str
    black: str
    wild: int
    rating_type: str
    rated: bool
    initial: int
    increment: int
    white_rating: int
    black_rating: int
    game_id: int
    white_titles: str
    black_titles: str
    holdings: bool
    irregular_legality: bool
    irregular_semantics: bool
    promote_to_king: bool
    #: Black's time control: White's, unless the game has time odds.
    black_initial: int = 0
    black_increment: int = 0


@kind
@dataclass(frozen=True, slots=True)
class GameHistory:
    """What a client needs to set a game up (DG_POSITION_BEGIN(2) and the moves, or
    DG_MOVE_LIST, and DG_MSEC): ``fen`` the initial position, None for chess's usual one,
    ``board64`` it as DG_MOVE_LIST's 64 characters (``*`` for chess's), ``moves`` as (SAN,
    SMITH, milliseconds taken, clock after), both clocks and the one that runs ("W", "B"
    or None). In a game of irregular semantics (atomic, Fischer random, wild castling)
    ``set_board`` is DG_SET_BOARD's (84) 64-character board and side to move after the
    moves, None in others; ``fischer_random`` says it is wild 22's, which a client with
    DG_KNOWS_FISCHER_RANDOM (132) does without. ``now`` is the position after the moves,
    in FEN (DG_FEN, 70). ``holdings`` (White's, Black's) in a game that has them, for
    DG_BUGHOUSE_HOLDINGS (37): "You also need DG_BUGHOUSE_HOLDINGS if only to find out the
    holdings when you start observing an ongoing bughouse game"."""

    game: int
    fen: str | None
    board64: str
    moves: tuple[tuple[str, str, int, int], ...]
    white_ms: int
    black_ms: int
    running: str | None
    now: str
    set_board: tuple[str, str] | None = None
    fischer_random: bool = False
    holdings: tuple[str, str] | None = None


@kind
@dataclass(frozen=True, slots=True)
class GameStarted(Event):
    """A played game began (or an adjourned one went on, ``resumed``). Its players get
    FICS's ``Creating:`` and ``{Game N (W vs. B) Creating rated blitz match.}`` (and, in
    bughouse, which game the partner plays), ``<g1>`` with ``iset gameinfo``, then
    DG_MY_GAME_STARTED (15), DG_FLIP (39), the moves so far, DG_MY_RELATION_TO_GAME (43),
    DG_PLAYERS_IN_MY_GAME (20), DG_PGN_TAG (112), DG_PSTAT (142), the board and DG_MY_TURN
    (139) to the one to move; everybody DG_GAME_STARTED (12) if on, and the others with
    ``gin`` the ``{Game N ...}`` line.

    ``ratings`` are the players' ratings as FICS's texts show them (``1500``, ``++++``),
    ``info`` the ``<g1>`` line, ``tags`` the PGN tags, ``pstat`` White's and Black's
    record against the other (DG_PSTAT's six counts)."""

    header: GameHeader
    position: GamePosition
    history: GameHistory
    resumed: bool
    words: str
    ratings: tuple[str, str]
    partner: tuple[int, str, str] | None
    info: str
    tags: tuple[tuple[str, str], ...]
    pstat: tuple[tuple[int, ...], tuple[int, ...]]


@kind
@dataclass(frozen=True, slots=True)
class GameEnded(Event):
    """A played game ended (won, drawn, adjourned, aborted): DG_GAME_RESULT's (13) fields,
    and ``audience``, the names of its players and observers, who get FICS's ``{Game N (W
    vs. B) B resigns} 1-0``, DG_MY_GAME_RESULT (16) and DG_MY_RELATION_TO_GAME (43) ``X``;
    the others the line if they ``set gin`` or ``iset allresults``; everybody
    DG_GAME_RESULT if on. ``adjusted``: the players' ratings change (a rated game won or
    drawn); when they do not, FICS tells the players "No ratings adjustment done.".
    ``eco``: the ECO code of the game's opening (``?`` if none, :mod:`..model.openings`).
    ``tourney``: what lasker adds to the line for mamer when both players have ``set
    tourney`` (`` [5 0 1 0 1]``: minutes, increment, rated, private, game type), else ""."""

    game: int
    white: str
    black: str
    code: str
    score: str
    description: str
    audience: tuple[str, ...]
    adjusted: bool = False
    eco: str = "?"
    tourney: str = ""


@kind
@dataclass(frozen=True, slots=True)
class GameChanged(Event):
    """A game's terms changed (``switch``: the players changed colours): DG_MY_GAME_CHANGE
    (100) and the moves again to everybody at the table, and to each player DG_FLIP and
    DG_MY_RELATION_TO_GAME of its new colour."""

    header: GameHeader
    history: GameHistory


@kind
@dataclass(frozen=True, slots=True)
class ObserverJoined(Event):
    """``name`` began to observe game ``game``: DG_PLAYERS_IN_MY_GAME (20) ``O`` to the
    others at the table."""

    game: int
    name: str
    kibitz: bool


@kind
@dataclass(frozen=True, slots=True)
class ObserverLeft(Event):
    """``name`` stopped observing game ``game`` (or left): DG_PLAYERS_IN_MY_GAME ``X``."""

    game: int
    name: str


@kind
@dataclass(frozen=True, slots=True)
class OffersChanged(Event):
    """The requests standing in a game changed: DG_OFFERS_IN_MY_GAME (21), the draw,
    adjourn and abort requests of White and Black and the half-moves each asks to take
    back (0: none)."""

    game: int
    draw: tuple[bool, bool]
    adjourn: tuple[bool, bool]
    abort: tuple[bool, bool]
    takeback: tuple[int, int]


@kind
@dataclass(frozen=True, slots=True)
class RequestMade(Event):
    """``name`` asked its opponent for a ``request`` (its kind) in game ``game`` (draw,
    abort, adjourn, takeback of ``params`` half-moves, pause, unpause, switch): the
    opponent reads FICS's words (``alice offers you a draw.``; with ``counter``, a takeback
    of another number than the opponent's: ``alice proposes a different number (2) of
    half-move(s).``), the observers ``Game N: alice offers a draw.``"""

    game: int
    name: str
    opponent: str
    request: str
    params: str
    counter: bool = False


@kind
@dataclass(frozen=True, slots=True)
class RequestAnswered(Event):
    """``name`` ``accepts``, ``declines`` or ``withdraws`` the ``request`` (its kind) between it
    and ``other``: ``other`` reads ``bob declines the draw request.``, the observers ``Game
    N: bob declines the draw request.``"""

    game: int
    name: str
    other: str
    answer: str
    request: str


@kind
@dataclass(frozen=True, slots=True)
class ClockPaused(Event):
    """Both players agreed to ``pause`` (``paused``) or ``unpause`` game ``game``: its
    players read ``Game clock paused.`` (``resumed``), its observers ``Game N: ...``."""

    game: int
    white: str
    black: str
    paused: bool
