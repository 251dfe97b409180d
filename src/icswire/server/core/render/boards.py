"""Boards and moves as receivers see them, for played and examined games alike.

A board goes out in the receiver's style: FICS's text boards 1 to 9 and 11
(:mod:`~icswire.server.core.render.diagrams`), style 12 with its relation and flip, style 10, or
nothing under style 13; ``iset ms`` gives millisecond clocks. Games with holdings add a
``<b1>`` line (FICS's order of pieces: P N B R Q) or, in styles 1 to 7, the holdings in
words. As FICS's ``send_board_to`` does (``"\n%s"``), a board to a level 0 receiver
begins with an empty line: after ``{Game N (...) Creating ...}`` or ``Game N: ...``, the
first board is one empty line below. Moves go out as DG_SEND_MOVES (24) with exactly the parts the
receiver asked for (DGs 33-36 and 113); the moves so far as DG_MOVE_LIST (25) or
DG_POSITION_BEGIN(2) (101/110), and both clocks as DG_MSEC (56).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple

import chess

from icswire.boards.bughouse import supply_drop
from icswire.boards.moves import smith_from_move
from icswire.boards.positions import (
    board_to_64,
    last_move_notations,
    style10_of,
    style12_from_view,
)
from icswire.boards.variants import CHESS, Variant
from icswire.protocol import datagrams as dg
from icswire.protocol.bughouse import Bughouse, format_b1
from icswire.protocol.codes import IsVariation
from icswire.protocol.datagrams import DG, DatagramRecord
from icswire.protocol.level1 import Level1
from icswire.protocol.style10 import format_style10
from icswire.protocol.style12 import Style12, format_style12
from icswire.server.core.events.games import BoardView, GameHistory
from icswire.server.core.render.batch import NEWLINE, Batch, Datagram, Message
from icswire.server.core.render.diagrams import (
    DIAGRAM_STYLES,
    RecentMove,
    diagram,
)

if TYPE_CHECKING:
    from icswire.server.core.model.users import User

WHITE, BLACK = chess.WHITE, chess.BLACK
COLOR_LETTER = {WHITE: "W", BLACK: "B"}
#: Style 12's relation for an isolated position (``sposition``, ``refresh`` of a game one
#: does not watch).
ISOLATED = -3
#: DG_JBOARD's status: "played (1), examined (0), or stored (-1)" (icc-formats.txt).
JBOARD_PLAYED, JBOARD_EXAMINED, JBOARD_STORED = 1, 0, -1


@dataclass(frozen=True)
class ServerMove:
    move: chess.Move
    san: str
    smith: str
    time_ms: int
    clock_ms: int  # the mover's clock after the move (increment included)
    verbose: str = ""  # style 12's notation


class BoardFacts(NamedTuple):
    """What a board says besides the position. Clocks in milliseconds.

    ``ply`` is the number of half-moves played in the game so far and ``recent`` its last
    moves (up to four: style 9 shows them); ``last_move`` is style 12's (verbose, pretty)
    pair when the board's own move stack does not hold the last move."""

    number: int
    white: str
    black: str
    initial: int
    increment: int
    white_ms: int
    black_ms: int
    move_time_ms: int = 0
    ticking: bool = False
    ply: int = 0
    recent: tuple[RecentMove, ...] = ()
    last_move: tuple[str, str] | None = None


def recent_moves(moves: Sequence[ServerMove]) -> tuple[RecentMove, ...]:
    """The last four of ``moves``, as style 9 shows them."""
    return tuple([RecentMove(m.san, m.verbose or m.san, m.time_ms) for m in moves[-4:]])


class PositionBoard(Message):
    """A board as each receiver sees it: its style, and the relation and flip ``relation``
    and ``flip`` give for that receiver. The position is taken when the message is made,
    with ``stack`` moves of its move stack (as :meth:`chess.Board.copy` takes it), which
    style 10 and 12 read the last move from, or none when ``facts`` names the last move.

    The batch renders it once per distinct :meth:`key`; what depends on the position alone
    (its :class:`BoardView`: style 12's ranks, castling rights, strengths, the ``<b1>``
    holdings; the last move) is worked out once for all those keys.

    Made from a position's ``view`` (``board`` None), styles 10 and 12 need no board:
    ``make_board()`` builds it only for a receiver whose style draws it; ``facts`` then name
    the last move (``none``, ``none`` before any)."""

    def __init__(
        self,
        board: chess.Board | None,
        facts: BoardFacts,
        relation: Callable[[User], int],
        flip: Callable[[User], bool],
        stack: bool | int = True,
        copy: bool = True,
        *,
        view: BoardView | None = None,
        make_board: Callable[[], chess.Board] | None = None,
    ) -> None:
        if board is None and (view is None or make_board is None):
            raise ValueError("a board, or its view and how to make it")
        if copy and board is not None:
            board = board.copy(stack=stack if facts.last_move is None else False)
        self._board = board
        self._make_board = make_board
        self._view = view
        self.facts = facts
        self.relation = relation
        self.flip = flip
        self._style12: Style12 | None = None
        self._b1: str | None = None

    @property
    def board(self) -> chess.Board:
        """The position (built now if it came as a view)."""
        board = self._board
        if board is None:
            board = self._board = self._make_board()  # type: ignore[misc]
        return board

    def view(self) -> BoardView:
        """The position as styles 10 and 12 and ``<b1>`` show it, worked out once."""
        view = self._view
        if view is None:
            view = self._view = BoardView.of(self.board)
        return view

    def last_move(self) -> tuple[str, str]:
        """Style 12's (verbose, pretty) last move: the facts', else the move stack's."""
        last = self.facts.last_move
        return last if last is not None else last_move_notations(self.board)

    def key(self, receiver: User) -> Any:
        """What of the receiver's settings :meth:`form` depends on (nothing under style
        13, which shows no board)."""
        style = receiver.variables["style"]
        if style == 13:
            return 13
        return (
            style,
            receiver.ivariables["ms"],
            receiver.level1 & Level1.UNITS,
            self.relation(receiver),
            self.flip(receiver),
        )

    def render(self, receiver: User) -> bytes:
        return self.form(receiver, self.relation(receiver), self.flip(receiver))

    def resolve(self, receiver: User) -> Message:
        return FixedBoard(self.board, self.facts, self.relation(receiver), self.flip(receiver))

    def form(self, receiver: User, relation: int, flip: bool) -> bytes:
        """``board`` in the receiver's style (1-12, or nothing under 13) with ``relation``
        and ``flip``, ms clocks if asked; an empty line first for a level 0 receiver (FICS's
        ``send_board_to``)."""
        style = receiver.variables["style"]
        if style == 13:
            return b""
        facts = self.facts
        blank = "" if receiver.level1 & Level1.UNITS else NEWLINE
        ms = bool(receiver.ivariables["ms"])
        if style in DIAGRAM_STYLES:
            text = diagram(
                style,
                self.board,
                number=facts.number,
                white=facts.white,
                black=facts.black,
                clocks=(facts.white_ms, facts.black_ms),
                ply=facts.ply,
                recent=list(facts.recent),
                flip=flip,
                precise=ms,
            )
            return (blank + "".join(line + NEWLINE for line in text)).encode("latin-1")
        white_time = facts.white_ms if ms else facts.white_ms // 1000  # style 10 and 12
        black_time = facts.black_ms if ms else facts.black_ms // 1000
        record = self._style12
        if record is None:
            record = self._style12 = style12_from_view(
                self.view(),
                self.last_move(),
                game_number=facts.number,
                white_name=facts.white,
                black_name=facts.black,
                relation=relation,
                initial_time=facts.initial,
                increment=facts.increment,
                white_time=white_time,
                black_time=black_time,
                move_time_ms=facts.move_time_ms,
                move_time_precise=ms,
                flip=flip,
                clock_ticking=facts.ticking,
                lag_ms=0,
            )
        elif (record.relation, record.flip, record.move_time_precise) != (relation, flip, ms):
            record = record._replace(
                relation=relation,
                flip=flip,
                white_time=white_time,
                black_time=black_time,
                move_time_precise=ms,
            )
        if style == 10:  # the same fields as style 12's record, from side to move on
            return (blank + format_style10(style10_of(record))).encode("latin-1")
        line = blank + format_style12(record) + NEWLINE
        in_hand = self.view().in_hand
        if in_hand is not None:
            if self._b1 is None:
                self._b1 = format_b1(Bughouse(facts.number, *in_hand)) + NEWLINE
            line += self._b1
        return line.encode("latin-1")


@dataclass(frozen=True)
class Always:
    """A relation or a flip that is the same for every receiver (a board resolved for one
    receiver on another node keeps its values)."""

    value: Any

    def __call__(self, receiver: User) -> Any:
        return self.value


class FixedBoard(PositionBoard):
    """A board resolved for one receiver on another node of a cluster: the position, its
    facts, and the relation and flip it has for that receiver; rendered in the receiver's
    style where the receiver is."""

    def __init__(self, board: chess.Board, facts: BoardFacts, relation: int, flip: bool) -> None:
        super().__init__(board, facts, Always(relation), Always(flip), stack=1)

    def resolve(self, receiver: User) -> Message:
        return self


def isolated_board(board: chess.Board, facts: BoardFacts) -> PositionBoard:
    """A peek at a position (style 12 relation -3), White at the bottom."""
    return PositionBoard(board, facts, lambda _: ISOLATED, lambda _: False)


def peek_jboard(board: chess.Board, facts: BoardFacts, status: int) -> DatagramRecord:
    """DG_JBOARD (49) beside a peek's board (:func:`isolated_board`, White at the bottom),
    status 1 for a played game, 0 for an examined one: "sent in approximately (maybe
    exactly) the same places as a style 12 board would be generated". The last move is
    read from the board's move stack (its SMITH from the position before it)."""
    view = BoardView.of(board)
    algebraic = smith = ""
    if board.move_stack:
        before = board.copy(stack=1)
        move = before.pop()
        before = before.copy(stack=False)  # see last_move_notations
        algebraic, smith = before.san(move), smith_from_move(before, move)
    elif facts.last_move is not None and facts.last_move[1] != "none":
        algebraic = facts.last_move[1]
    return dg.Jboard(
        "".join(view.ranks),
        view.side_to_move,
        view.double_push_file,
        *view.castling,
        view.move_number,
        algebraic,
        smith,
        facts.white_ms // 1000,
        facts.black_ms // 1000,
        status,
        False,
    )


# -- moves in datagrams ----------------------------------------------------------------------


def game_history(
    number: int,
    start: chess.Board,
    start_fen: str | None,
    moves: Sequence[ServerMove],
    clocks: dict[bool, int],
    running: bool | None = None,
    variant: Variant = CHESS,
    now: chess.Board | None = None,
) -> GameHistory:
    """A game's moves and clocks as plain data (``running``: the side whose clock runs).

    The initial position is left out (``*``, an empty FEN) only for chess's: a wild's own
    fixed start (wild 5, 8, 8a...) is given too, as DG_MOVE_LIST says it is "unless ...
    it's a wild game". The position after the moves (``now``, else ``start`` with the
    moves played) is given in FEN for DG_FEN, the en passant square after any double push
    as the FEN standard has it, and for DG_SET_BOARD in a ``variant`` of irregular
    semantics."""
    if start_fen is None and start.board_fen() != chess.STARTING_BOARD_FEN:
        start_fen = start.fen()
    if now is None:
        now = start.copy(stack=False)
        for move in moves:
            supply_drop(now, move.move)  # a bughouse drop of a piece the partner passed
            now.push(move.move)
    set_board = None
    if variant.irregular_semantics:
        set_board = board_to_64(now), COLOR_LETTER[now.turn]
    pockets = getattr(now, "pockets", None)
    holdings = None
    if pockets is not None:  # DG_BUGHOUSE_HOLDINGS' letters, as BoardView has them
        holdings = str(pockets[chess.WHITE]).upper(), str(pockets[chess.BLACK]).upper()
    return GameHistory(
        number,
        start_fen,
        "*" if start_fen is None else board_to_64(start),
        tuple([(m.san, m.smith, m.time_ms, m.clock_ms) for m in moves]),
        clocks[WHITE],
        clocks[BLACK],
        None if running is None else COLOR_LETTER[running],
        now.fen(en_passant="fen"),
        set_board,
        variant.chess960,
        holdings,
    )


def set_board_record(
    number: int, board64: str, side: str, fischer_random: bool, on: AbstractSet[int]
) -> DatagramRecord | None:
    """DG_SET_BOARD (84) of a game of irregular semantics, for a receiver with the DGs
    ``on``: "only to be sent for irregular-semantics games such as atomic chess or
    fischer-random" (icc-formats.txt), and a Fischer random one (wild 22) not to a client
    with DG_KNOWS_FISCHER_RANDOM (132) on, which "can therefore update the board just
    given DG_SEND_MOVE"."""
    if DG.SET_BOARD not in on or (fischer_random and DG.KNOWS_FISCHER_RANDOM in on):
        return None
    return dg.SetBoard(number, board64, side)


def history_records(on: frozenset[int], history: GameHistory) -> list[Any]:
    """What a client needs to set up a game, in the DGs ``on``: DG_POSITION_BEGIN(2) and
    the moves (DG_PAST_MOVE, DG_SEND_MOVES: each only if on), or DG_MOVE_LIST, the
    position they lead to in a game of irregular semantics (DG_SET_BOARD), the holdings in
    a game that has them (DG_BUGHOUSE_HOLDINGS), that position
    in FEN (DG_FEN: "not sent on every move, but only on the same occasions that
    DG_MOVE_LIST might be sent") and both clocks (DG_MSEC)."""
    number, moves = history.game, history.moves
    found: list[DatagramRecord] = []
    variation = IsVariation.MOVE_INITIAL
    if DG.POSITION_BEGIN in on or DG.POSITION_BEGIN2 in on:
        begin2 = DG.POSITION_BEGIN2 in on
        kind = dg.PositionBegin2 if begin2 else dg.PositionBegin
        found.append(kind(number, history.fen or "", len(moves)))
        past = dg.PastMove if begin2 else dg.SendMoves
        found += [past(number, *_parts(on, move, variation)) for move in moves]
    elif DG.MOVE_LIST in on:
        infos = tuple([dg.MoveInfo(*_parts(on, move, variation)) for move in moves])
        found.append(dg.MoveList(number, history.board64, infos))
    if history.set_board is not None:
        board64, side = history.set_board
        record = set_board_record(number, board64, side, history.fischer_random, on)
        if record is not None:
            found.append(record)
    if history.holdings is not None and DG.BUGHOUSE_HOLDINGS in on:
        found.append(dg.BughouseHoldings(number, *history.holdings))
    if DG.FEN in on:
        found.append(dg.Fen(number, history.now))
    if DG.MSEC in on:
        found.append(dg.Msec(number, "W", history.white_ms, history.running == "W"))
        found.append(dg.Msec(number, "B", history.black_ms, history.running == "B"))
    return [record for record in found if record.dg in on]


def _parts(on: frozenset[int], move: tuple[str, str, int, int], variation: int) -> tuple[Any, ...]:
    """DG_SEND_MOVES' optional parts of a move of :class:`GameHistory`, each present if
    its DG (33-36, 113) is on."""
    san, smith, time_ms, clock_ms = move
    return (
        san if DG.MOVE_ALGEBRAIC in on else None,
        smith if DG.MOVE_SMITH in on else None,
        time_ms // 1000 if DG.MOVE_TIME in on else None,
        clock_ms // 1000 if DG.MOVE_CLOCK in on else None,
        int(variation) if DG.IS_VARIATION in on else None,
    )


def line_datagrams(
    batch: Batch,
    session: User,
    number: int,
    start: chess.Board,
    start_fen: str | None,
    moves: Sequence[ServerMove],
    clocks: dict[bool, int],
    running: bool | None = None,
    variant: Variant = CHESS,
    now: chess.Board | None = None,
) -> None:
    """:func:`history_records` of a game, to ``session``."""
    history = game_history(number, start, start_fen, moves, clocks, running, variant, now)
    for record in history_records(session.level2, history):
        batch.add(session, Datagram(record))
