"""The examined games: :class:`ExaminedGame` (a main line, the line looked at, the position,
its examiners and observers) and :class:`Examinations` (by number and by examiner);
starting and stopping examining, and a stored game replayed into a board and its moves.

An examined game takes its number from the same numbering as played games (see
``core.tables``). Its examiner sees style 12 boards with relation 2 and its observers
relation -2. When its last examiner leaves, the game is gone: DG_MY_GAME_ENDED (17) to
those in it, DG_EXAMINED_GAME_IS_GONE (14) to those who list games.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING

import chess

from icswire.boards.bughouse import replayed_move, supply_drop
from icswire.boards.moves import san_from_move, smith_from_move
from icswire.boards.positions import BUGHOUSE, CRAZYHOUSE, last_move_notations
from icswire.boards.variants import Variant, variant_of
from icswire.protocol import datagrams as dg
from icswire.protocol.datagrams import DG
from icswire.protocol.level1 import CommandNumber as CN
from icswire.server.core.dispatch.hub import Context
from icswire.server.core.events.base import Event
from icswire.server.core.events.examine import (
    EXAMINED_OBSERVER,
    EXAMINER,
    ExaminedBoard,
    ExaminedGameGone,
    ExaminedPosition,
    ExaminerLeft,
)
from icswire.server.core.model.tables import ListedGame, Terms
from icswire.server.core.render.batch import Batch, Datagram, Message, lines, message_of
from icswire.server.core.render.boards import (
    BLACK,
    WHITE,
    BoardFacts,
    ServerMove,
    isolated_board,
    line_datagrams,
    recent_moves,
)
from icswire.server.core.render.movelist import Movelist
from icswire.server.core.render.texts import icc_games_row, kind_text
from icswire.server.core.storage.records import GameRecord

if TYPE_CHECKING:
    from icswire.server.core.dispatch.hub import Core
    from icswire.server.core.model.users import User


def replay(record: GameRecord) -> tuple[chess.Board, list[ServerMove]]:
    """The start position of a stored game and its moves (as far as they replay)."""
    start = record.game_variant.new_board(fen=record.start_fen)
    board = start.copy(stack=False)
    moves: list[ServerMove] = []
    for index, text in enumerate(record.moves):
        try:
            move = replayed_move(board, text)  # a bughouse drop: from the partner board
        except ValueError:
            break
        used = record.times[index] if index < len(record.times) else 0
        clock = record.clocks[index] if index < len(record.clocks) else 0
        san, smith = san_from_move(board, move), smith_from_move(board, move)
        moves.append(ServerMove(move, san, smith, used, clock))
        board.push(move)
    return start, moves


@dataclass(eq=False)
class ExaminedGame:
    """A game being examined: a main line, the line being looked at, and the position."""

    #: Examined games are never private (``set private`` is about the games one plays).
    private = False

    number: int
    white: str
    black: str
    start: chess.Board
    mainline: list[ServerMove] = field(default_factory=list)
    wild: int = 0
    variant: str | None = None  # the registry's name; None: the variant of ``wild``
    rating_type: str = "Blitz"
    rated: bool = False
    initial: int = 0
    increment: int = 0
    white_rating: int = 0
    black_rating: int = 0
    game_id: int = 0
    ex_string: str = "Ex: scratch"
    examiners: list[User] = field(default_factory=list)
    observers: set[User] = field(default_factory=set)
    flipped: set[User] = field(default_factory=set)
    #: The lecture marks on the board: (kind, square, square, color), kind "circle",
    #: "arrow" or a DG_BOARDINFO type; they vanish when the position changes.
    marks: list[tuple[int | str, str, str, int]] = field(default_factory=list)
    #: In setup mode (``bsetup``): the examiners place pieces; no move is played.
    setup: bool = False
    #: PGN tags the examiners set (``tag``), the result they gave (``result``).
    tags: dict[str, str] = field(default_factory=dict)
    score: str = "*"
    result_text: str = "Still in progress"
    #: Clocks set at the position shown (``setclock``), in ms, by side; going through
    #: the game forgets them, a move made from here starts from them.
    clock_override: dict[bool, int] = field(default_factory=dict)
    #: Notes on moves (``annotate``), by the moves from the start up to the one noted.
    annotations: dict[tuple[chess.Move, ...], str] = field(default_factory=dict)
    line: list[ServerMove] = field(init=False)
    board: chess.Board = field(init=False)

    def __post_init__(self) -> None:
        self.line = list(self.mainline)
        self.board = self.start.copy(stack=False)

    # -- who ---------------------------------------------------------------------------

    def audience(self) -> Iterator[User]:
        """Examiners and observers."""
        yield from self.examiners
        yield from self.observers

    def relation(self, session: User) -> int:
        return EXAMINER if session in self.examiners else EXAMINED_OBSERVER

    def is_flipped(self, session: User) -> bool:
        """Turned with ``flip``, or ``set flip 1`` (both: White's side again)."""
        return (session in self.flipped) != bool(session.variables["flip"])

    # -- as a table people watch (core.tables.Table) -------------------------------------

    examined = True
    partner_table = None
    event = ""
    director = ""

    def seats(self) -> list[User]:
        return list(self.examiners)

    def seat_symbol(self, session: User) -> str:
        return "E" if session in self.examiners else "O"

    def player_names(self) -> tuple[str, str]:
        return self.white, self.black

    def isolated_board(self) -> Message:
        return isolated_board(self.board, self.facts())

    def greet_observer(self, session: User, batch: Batch) -> None:
        """The PGN tags the examiners set (``tag``), as DG_PGN_TAG."""
        for tag, value in self.tags.items():
            batch.add(session, Datagram(dg.PgnTag(self.number, tag, value)))

    def games_row(self, icc: bool) -> str:
        if icc:
            return icc_games_row(
                self.number,
                (self.white, self.white_rating),
                (self.black, self.black_rating),
                self.ex_string,
                "W" if self.board.turn == WHITE else "B",
                self.board.fullmove_number,
            )
        # lasker's com_games: "%3d (%s %4d %-11.11s %4d %-10.10s) [...] %c: %2d"; the
        # ratings are numbers here (0 unrated), "Setup" while the examiners set it up
        kind = kind_text(self.rating_type, self.rated, self.initial, self.increment)
        side = "W" if self.board.turn == WHITE else "B"
        return (
            f"{self.number:3d} ({'Setup' if self.setup else 'Exam.'} {self.white_rating:4d} "
            f"{self.white[:11]:<11} {self.black_rating:4d} {self.black[:10]:<10}) "
            f"{kind} {side}: {self.board.fullmove_number:2d}"
        )

    def listed(self) -> ListedGame:
        order = self.white_rating + self.black_rating - 10000  # examined games come first
        return ListedGame(
            self.number, True, self.games_row(False), self.games_row(True), order, self.white,
            self.black, self.private,
        )  # fmt: skip

    def observe_title(self) -> str:
        return f"Game {self.number}: {self.white} vs. {self.black} (examined)"

    def movelist(self) -> Movelist:
        """The moves up to the position shown (FICS lists an examined game so)."""
        fics_type = Terms(
            self.wild, self.rated, self.initial, self.increment, self.rating_type, self.variant
        )
        return Movelist(
            self.number, self.white, self.black, self.white_rating, self.black_rating,
            datetime.now(UTC), self.rated, fics_type.fics_type, self.initial, self.increment,
            self.start, self.start_fen is None,
            tuple((m.san, m.time_ms) for m in self.line[: self.ply]),
            self.initial * 60_000, self.initial * 60_000, self.result_text, self.score,
            tuple(self.tags.items()), self.comments(),
        )  # fmt: skip

    def line_key(self, ply: int) -> tuple[chess.Move, ...]:
        """The moves of the line looked at up to half-move ``ply``: where a note is."""
        return tuple([m.move for m in self.line[:ply]])

    def comments(self) -> tuple[tuple[int, str], ...]:
        """The notes on the moves shown: (ply, text)."""
        if not self.annotations:
            return ()
        found = ((ply, self.annotations.get(self.line_key(ply))) for ply in range(1, self.ply + 1))
        return tuple((ply, text) for ply, text in found if text)

    # -- the position ------------------------------------------------------------------

    @property
    def ply(self) -> int:
        return len(self.board.move_stack)

    @property
    def start_fen(self) -> str | None:
        return self.game_variant.setup_fen(self.start)

    @property
    def game_variant(self) -> Variant:
        return variant_of(self.variant if self.variant is not None else self.wild)

    def clocks(self) -> dict[bool, int]:
        """Each side's clock after the last move it made up to the position shown."""
        clocks = {WHITE: self.initial * 60_000, BLACK: self.initial * 60_000}
        mover = self.start.turn
        for move in self.line[: self.ply]:
            clocks[mover] = move.clock_ms
            mover = not mover
        clocks.update(self.clock_override)
        return clocks

    def play(self, move: chess.Move) -> ServerMove:
        """An examiner's move: the next move of the line, or a new line from here. A move
        at the end of the main line extends it."""
        ply, board = self.ply, self.board
        if ply < len(self.line) and self.line[ply].move == move:
            made = self.line[ply]
        else:
            clock = self.clocks()[board.turn]
            made = ServerMove(
                move, san_from_move(board, move), smith_from_move(board, move), 0, clock
            )
            on_main = same_line(self.line[:ply], self.mainline[:ply])
            self.line = [*self.line[:ply], made]
            if on_main and ply == len(self.mainline):
                self.mainline.append(made)
        board.push(move)
        self.marks.clear()
        self.clock_override.pop(not board.turn, None)  # the move carries it
        return made

    def forward(self) -> ServerMove:
        made = self.line[self.ply]
        supply_drop(self.board, made.move)
        self.board.push(made.move)
        self.marks.clear()
        self.clock_override.clear()
        return made

    def backward(self) -> None:
        self.board.pop()
        self.marks.clear()
        self.clock_override.clear()

    def branch(self) -> int:
        """How many moves the line and the main line share."""
        shared = 0
        for here, main in zip(self.line, self.mainline, strict=False):
            if here.move != main.move:
                break
            shared += 1
        return shared

    # -- what clients are told -----------------------------------------------------------

    def facts(self) -> BoardFacts:
        clocks = self.clocks()
        ply = self.ply
        return BoardFacts(
            self.number,
            self.white,
            self.black,
            self.initial,
            self.increment,
            clocks[WHITE],
            clocks[BLACK],
            self.line[ply - 1].time_ms if ply else 0,
            ply=ply,
            recent=recent_moves(self.line[:ply]),
        )

    def position(self) -> ExaminedPosition:
        """The board as plain data, for the events of those in the game."""
        board, ply = self.board, self.ply
        clocks = self.clocks()
        shown = self.line[:ply]
        return ExaminedPosition(
            self.number, self.white, self.black, self.game_variant.name,
            board.fen(en_passant="fen"), self.initial, self.increment,
            clocks[WHITE], clocks[BLACK], shown[-1].time_ms if ply else 0, ply,
            last_move_notations(board) if ply else None,
            tuple([(m.san, m.verbose or m.san, m.time_ms) for m in shown[-4:]]),
            tuple([s.name for s in self.examiners]),
            tuple([s.name for s in self.flipped]),
            shown[-1].smith if ply else "",
            board=board.copy(stack=False),
        )  # fmt: skip

    def board_message(self) -> Message:
        return message_of(ExaminedBoard(self.position()))

    def game_record(self) -> dg.GameStarted:
        """DG_GAME_STARTED (12) of this game: played-game 0, the ex-string."""
        variant = self.game_variant
        return dg.GameStarted(
            self.number, self.white, self.black, self.wild, self.rating_type, self.rated,
            self.initial, self.increment, self.initial, self.increment, False, self.ex_string,
            self.white_rating, self.black_rating, self.game_id, "", "",
            variant.irregular_legality, variant.irregular_semantics,
            self.wild in (CRAZYHOUSE, BUGHOUSE), "", variant.promote_to_king,
        )  # fmt: skip

    def send_history(self, session: User, batch: Batch) -> None:
        """The position so far (DG_MOVE_LIST / DG_POSITION_BEGIN) and the clocks."""
        line_datagrams(
            batch,
            session,
            self.number,
            self.start,
            self.start_fen,
            self.line[: self.ply],
            self.clocks(),
            variant=self.game_variant,
            now=self.board,
        )


def exam_of_record(number: int, record: GameRecord) -> ExaminedGame:
    """A stored game, examined as game ``number``, at its start."""
    start, moves = replay(record)
    return ExaminedGame(
        number, record.white, record.black, start, moves,
        wild=record.wild, variant=record.variant, rating_type=record.rating_type,
        rated=record.rated, initial=record.initial, increment=record.increment,
        white_rating=record.white_rating, black_rating=record.black_rating,
        game_id=record.id or 0, ex_string="Ex: stored game",
    )  # fmt: skip


def same_line(a: Sequence[ServerMove], b: Sequence[ServerMove]) -> bool:
    return len(a) == len(b) and all(x.move == y.move for x, y in zip(a, b, strict=True))


@dataclass
class Examinations:
    """The examined games, by number and by examiner."""

    games: dict[int, ExaminedGame] = field(default_factory=dict)
    by_examiner: dict[User, ExaminedGame] = field(default_factory=dict)


def examining(core: Core, session: User) -> ExaminedGame | None:
    """The game ``session`` examines, if any."""
    return core.state(Examinations).by_examiner.get(session)


def add_to_all(batch: Batch, receivers: Iterable[User], message: Message | Event) -> None:
    batch.add_all(list(receivers), message)


def start_examining(core: Core, session: User, exam: ExaminedGame, batch: Batch) -> None:
    """``session`` examines ``exam``, a new game: tell it, and those who list games."""
    state = core.state(Examinations)
    state.games[exam.number] = exam
    state.by_examiner[session] = exam
    exam.examiners.append(session)
    session.state, session.state_game = "E", exam.number
    core.world.state_changed(session, batch)
    batch.add(session, Datagram(dg.record_as(DG.MY_GAME_STARTED, exam.game_record())))
    batch.add(session, Datagram(dg.Flip(exam.number, False)))
    exam.send_history(session, batch)
    batch.add(session, Datagram(dg.MyRelationToGame(exam.number, "E")))
    kib = bool(session.variables["kibitz"])
    batch.add(session, Datagram(dg.PlayersInMyGame(exam.number, session.name, "E", kib)))
    batch.add(session, exam.board_message())
    listed = Datagram(exam.game_record())
    for other in core.world.online.values():
        if DG.GAME_STARTED in other.level2:
            batch.add(other, listed)
    core.registry.table_started(exam, batch)


def stop_examining(core: Core, session: User, batch: Batch) -> bool:
    """``session`` stops examining; the game is gone when nobody examines it any more."""
    state = core.state(Examinations)
    exam = state.by_examiner.pop(session, None)
    if exam is None:
        return False
    number = exam.number
    exam.examiners.remove(session)
    exam.flipped.discard(session)
    if session.state == "E" and session.state_game == number:
        session.state, session.state_game = "X", 0
        if session.logged_in:
            core.world.state_changed(session, batch)
    batch.add(session, lines(f"You are no longer examining game {number}."))
    if exam.examiners:
        add_to_all(batch, exam.audience(), ExaminerLeft(number, session.name))
        batch.add(session, Datagram(dg.MyGameEnded(number)))
        batch.add(session, Datagram(dg.MyRelationToGame(number, "X")))
        return True
    batch.add(session, Datagram(dg.MyGameEnded(number)))
    batch.add(session, Datagram(dg.MyRelationToGame(number, "X")))
    gone = ExaminedGameGone(number)
    for observer in exam.observers:
        batch.add(observer, gone)
        observer.observing -= {number}
        core.world.touch(observer)  # an observer of another node: its home learns it
    exam.observers.clear()
    del state.games[number]
    listed = Datagram(dg.ExaminedGameIsGone(number))
    for other in core.world.online.values():
        if DG.EXAMINED_GAME_IS_GONE in other.level2:
            batch.add(other, listed)
    return True


def session_left(core: Core, session: User) -> None:
    """``session`` is gone: it examines nothing (watching takes it off what it observes)."""
    batch = Batch(CN.SCN_LOGOUT, None, issuer_name=session.name)
    stop_examining(core, session, batch)
    batch.flush()


def examined_by_issuer(ctx: Context) -> ExaminedGame | None:
    exam = examining(ctx.core, ctx.session)
    if exam is None:
        ctx.reply("You are not examining a game.")
    return exam
