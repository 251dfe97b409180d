"""Examined games and stored games: ``history``, ``stored``, ``smoves``, ``sposition``,
``examine``, ``forward``, ``backward``, ``revert``, moves typed by examiners, ``circle``,
``arrow``, ``boardinfo`` and their removal, ``unexamine``.

Stored games are listed as text and as DG_GAMELIST_BEGIN (72) / DG_GAMELIST_ITEM (73) with
the status, mode and color codes they were stored with; ``smoves`` and ``sposition`` show
one as text, a board (style 12 relation -3, game number -1) and DG_ISOLATED_BOARD (40),
DG_MOVE_LIST (25) or DG_POSITION_BEGIN (101/110) with game number -1.

An examined game takes its number from the same numbering as played games (see
(``core.tables``) and is kept in :class:`Examinations`. Its examiner sees style 12
boards with relation 2 and its observers relation -2; everybody in it gets DG_SEND_MOVES
with is-variation MOVE_EXAMINE (3) for a typed move and MOVE_FORWARD (2) for ``forward``,
DG_BACKWARD (23) for ``backward`` and ``revert``, and the lecture marks (DG_CIRCLE 59,
DG_UNCIRCLE 89, DG_ARROW 60, DG_UNARROW 90, DG_BOARDINFO 143, each translated for clients
that know only the other kind, as the ``boardinfo`` help describes). When its last examiner
leaves, the game is gone: DG_MY_GAME_ENDED (17) to those in it, DG_EXAMINED_GAME_IS_GONE
(14) to those who list games.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

import chess

from icswire.boards.bughouse import replayed_move, supply_drop
from icswire.boards.illegal import illegal_reason
from icswire.boards.moves import IllegalMoveError, move_from_wire, san_from_move, smith_from_move
from icswire.boards.positions import BUGHOUSE, CRAZYHOUSE, new_board, strength
from icswire.boards.variants import Variant, variant_of
from icswire.protocol import datagrams as dg
from icswire.protocol.codes import BoardInfoType, IllegalMoveReason, IsVariation, ResultStatus
from icswire.protocol.datagrams import DG
from icswire.protocol.level1 import CommandNumber as CN
from icswire.protocol.style12 import format_move_time
from icswire.server.core.dispatch.hub import CommandSet, Context
from icswire.server.core.dispatch.numbers import parse_number
from icswire.server.core.model.names import name_key
from icswire.server.core.model.tables import Terms
from icswire.server.core.render.batch import Batch, Datagram, Message, lines
from icswire.server.core.render.boards import (
    BLACK,
    COLOR_LETTER,
    WHITE,
    BoardFacts,
    LineMoves,
    PositionBoard,
    ServerMove,
    isolated_board,
    line_datagrams,
    recent_moves,
)
from icswire.server.core.render.gamelists import (
    HISTORY_SIZE,
    gamelist_item,
    journal_record,
    journal_slot,
    result_of,
    when_ended,
)
from icswire.server.core.render.movelist import Movelist
from icswire.server.core.render.texts import (
    icc_games_row,
    icc_history_kind,
    kind_text,
    rating_text,
)
from icswire.server.core.storage.records import GameRecord

if TYPE_CHECKING:
    from icswire.server.core.dispatch.hub import Core
    from icswire.server.core.net.session import Session

#: Style 12's relation for an examiner, and for an observer of an examined game.
EXAMINER, EXAMINED_OBSERVER = 2, -2

COMMANDS = CommandSet()
command = COMMANDS.command


# -- stored games as boards ---------------------------------------------------------------


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


# -- examined games --------------------------------------------------------------------------


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
    examiners: list[Session] = field(default_factory=list)
    observers: set[Session] = field(default_factory=set)
    flipped: set[Session] = field(default_factory=set)
    #: The lecture marks on the board: (kind, square, square, color), kind "circle",
    #: "arrow" or a DG_BOARDINFO type; they vanish when the position changes.
    marks: list[tuple[int | str, str, str, int]] = field(default_factory=list)
    #: In setup mode (``bsetup``): the examiners place pieces; no move is played.
    setup: bool = False
    line: list[ServerMove] = field(init=False)
    board: chess.Board = field(init=False)

    def __post_init__(self) -> None:
        self.line = list(self.mainline)
        self.board = self.start.copy(stack=False)

    # -- who ---------------------------------------------------------------------------

    def audience(self) -> Iterator[Session]:
        """Examiners and observers."""
        yield from self.examiners
        yield from self.observers

    def relation(self, session: Session) -> int:
        return EXAMINER if session in self.examiners else EXAMINED_OBSERVER

    def is_flipped(self, session: Session) -> bool:
        """Turned with ``flip``, or ``set flip 1`` (both: White's side again)."""
        return (session in self.flipped) != bool(session.variables["flip"])

    # -- as a table people watch (core.tables.Table) -------------------------------------

    examined = True
    partner_table = None

    def seats(self) -> list[Session]:
        return list(self.examiners)

    def seat_symbol(self, session: Session) -> str:
        return "E" if session in self.examiners else "O"

    def player_names(self) -> tuple[str, str]:
        return self.white, self.black

    def isolated_board(self) -> Message:
        return isolated_board(self.board, self.facts())

    def greet_observer(self, session: Session, batch: Batch) -> None:
        """Nothing more than everybody at the table gets."""

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
        kind = kind_text(self.rating_type, self.rated, self.initial, self.increment)
        white = rating_text(self.white_rating)
        black = rating_text(self.black_rating)
        side = "W" if self.board.turn == WHITE else "B"
        return (
            f"{self.number:3d} (Exam. {white:>4} {self.white:<10} {black:>4} {self.black:<10}) "
            f"{kind} {side}:{self.board.fullmove_number:3d}"
        )

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
            self.initial * 60_000, self.initial * 60_000,
        )  # fmt: skip

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
            on_main = _same(self.line[:ply], self.mainline[:ply])
            self.line = [*self.line[:ply], made]
            if on_main and ply == len(self.mainline):
                self.mainline.append(made)
        board.push(move)
        self.marks.clear()
        return made

    def forward(self) -> ServerMove:
        made = self.line[self.ply]
        supply_drop(self.board, made.move)
        self.board.push(made.move)
        self.marks.clear()
        return made

    def backward(self) -> None:
        self.board.pop()
        self.marks.clear()

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

    def board_message(self) -> PositionBoard:
        return PositionBoard(self.board, self.facts(), self.relation, self.is_flipped)

    def game_record(self) -> dg.GameStarted:
        """DG_GAME_STARTED (12) of this game: played-game 0, the ex-string."""
        return dg.GameStarted(
            self.number, self.white, self.black, self.wild, self.rating_type, self.rated,
            self.initial, self.increment, self.initial, self.increment, False, self.ex_string,
            self.white_rating, self.black_rating, self.game_id, "", "", False, False,
            self.wild in (CRAZYHOUSE, BUGHOUSE), "", False,
        )  # fmt: skip

    def send_history(self, session: Session, batch: Batch) -> None:
        """The position so far (DG_MOVE_LIST / DG_POSITION_BEGIN) and the clocks."""
        line_datagrams(
            batch,
            session,
            self.number,
            self.start,
            self.start_fen,
            self.line[: self.ply],
            self.clocks(),
        )


def _same(a: Sequence[ServerMove], b: Sequence[ServerMove]) -> bool:
    return len(a) == len(b) and all(x.move == y.move for x, y in zip(a, b, strict=True))


@dataclass
class Examinations:
    """The examined games, by number and by examiner."""

    games: dict[int, ExaminedGame] = field(default_factory=dict)
    by_examiner: dict[Session, ExaminedGame] = field(default_factory=dict)


def examining(core: Core, session: Session) -> ExaminedGame | None:
    """The game ``session`` examines, if any."""
    return core.state(Examinations).by_examiner.get(session)


def _add_all(batch: Batch, receivers: Iterable[Session], message: Message) -> None:
    batch.add_all(list(receivers), message)


def start_examining(core: Core, session: Session, exam: ExaminedGame, batch: Batch) -> None:
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


def stop_examining(core: Core, session: Session, batch: Batch) -> bool:
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
        gone = Datagram(dg.PlayersInMyGame(number, session.name, "X", False))
        _add_all(batch, exam.audience(), gone)
        _add_all(
            batch, exam.audience(), lines(f"Game {number}: {session.name} has stopped examining.")
        )
        batch.add(session, Datagram(dg.MyGameEnded(number)))
        batch.add(session, Datagram(dg.MyRelationToGame(number, "X")))
        return True
    ended = Datagram(dg.MyGameEnded(number))
    no_relation = Datagram(dg.MyRelationToGame(number, "X"))
    for receiver in (session, *exam.observers):
        batch.add(receiver, ended)
        batch.add(receiver, no_relation)
    left = lines(
        f"Game {number} (which you were observing) has no examiners.",
        f"Removing game {number} from observation list.",
    )
    for observer in exam.observers:
        batch.add(observer, left)
        observer.observing -= {number}
        core.world.touch(observer)  # an observer of another node: its home learns it
    exam.observers.clear()
    del state.games[number]
    listed = Datagram(dg.ExaminedGameIsGone(number))
    for other in core.world.online.values():
        if DG.EXAMINED_GAME_IS_GONE in other.level2:
            batch.add(other, listed)
    return True


def session_left(core: Core, session: Session) -> None:
    """``session`` is gone: it examines nothing (watching takes it off what it observes)."""
    batch = Batch(CN.SCN_LOGOUT, None, issuer_name=session.name)
    stop_examining(core, session, batch)
    batch.flush()


def move(core: Core, session: Session, text: str, batch: Batch) -> bool:
    """``text`` (something that looks like a move) typed by ``session``: if it examines a
    game, make the move there and return True; False if it examines nothing."""
    exam = examining(core, session)
    if exam is None:
        return False
    if exam.setup:
        _drop(exam, session, text, batch)
        return True
    try:
        chosen = move_from_wire(exam.board, text)
    except IllegalMoveError:
        reason = illegal_reason(exam.board, text) or IllegalMoveReason.ILLEGAL
        batch.add(session, lines(f"Illegal move ({text})."))
        record = dg.IllegalMove(exam.number, text.split(" ")[0][:20], reason)
        batch.add(session, Datagram(record))
        return True
    made = exam.play(chosen)
    audience = list(exam.audience())
    batch.add_all(audience, LineMoves(exam.number, [made], IsVariation.MOVE_EXAMINE))
    said = lines(f"Game {exam.number}: {session.name} moves: {made.san}")
    batch.add_all([s for s in audience if s is not session], said)
    batch.add_all(audience, exam.board_message())
    return True


# -- stored games ----------------------------------------------------------------------------


def _who(ctx: Context, args: str) -> str:
    """The player a command is about: the argument (a logged-in player's name as he
    spells it, if one matches), or the issuer."""
    name = args.split()[0] if args.split() else ctx.session.name
    online = ctx.core.world.find(name)
    return str(online.name) if online is not None else name


def _spelled(records: Sequence[GameRecord], name: str) -> str:
    key = name_key(name)
    for record in records:
        for player in (record.white, record.black):
            if name_key(player) == key:
                return player
    return name


@command("history", CN.CN_HISTORY, "history [name]")
async def history(ctx: Context, args: str) -> None:
    name = _who(ctx, args)
    records = await asyncio.to_thread(ctx.store.history, name, HISTORY_SIZE)
    name = _spelled(records, name)
    begin = dg.GamelistBegin("history", args.strip(), len(records), 1, len(records), "")
    ctx.batch.add(ctx.session, Datagram(begin))
    if not records:
        ctx.reply(f"{name} has no history games.")
        return
    icc = ctx.session.talks_icc
    header = (
        "Opponent     Type         ECO End Date"
        if icc
        else "Opponent      Type         ECO End Date"
    )
    rows = [f"History for {name}:", f"                  {header}"]
    key = name_key(name)
    for index, record in enumerate(records, 1):
        white = name_key(record.white) == key
        mine, theirs = (
            (record.white_rating, record.black_rating)
            if white
            else (record.black_rating, record.white_rating)
        )
        opponent = record.black if white else record.white
        code, _ = result_of(record)
        if record.status == ResultStatus.WIN:
            lost = (record.color == 1) == white
            sign = "-" if lost else "+"
        else:
            sign = "=" if record.status == ResultStatus.DRAW else "*"
        color = "W" if white else "B"
        if icc:  # ICC's layout (help history): its type letters, a shorter date
            kind = icc_history_kind(
                record.rating_type, record.wild, record.rated, record.initial, record.increment
            )
            moment = (record.ended or record.started).strftime("%b %d %y %H:%M")
            rows.append(
                f"{index:2d}: {sign} {rating_text(mine):>4} {color} {rating_text(theirs):>4} "
                f"{opponent:<12} {kind} {record.eco or '?':>3} {code:<3} {moment}"
            )
        else:
            kind = kind_text(record.rating_type, record.rated, record.initial, record.increment)
            rows.append(
                f"{index:2d}: {sign} {rating_text(mine):>4} {color} "
                f"{rating_text(theirs):>4} {opponent:<12} {kind} {record.eco or '?':>3} "
                f"{code:<3} {when_ended(record, ctx.session.variables['tzone'])}"
            )
        ctx.batch.add(ctx.session, Datagram(gamelist_item(index, record)))
    ctx.reply(*rows)


@command("stored", CN.CN_STORED, "stored [name]")
async def stored(ctx: Context, args: str) -> None:
    name = _who(ctx, args)
    records = await asyncio.to_thread(ctx.store.adjourned, name)
    name = _spelled(records, name)
    begin = dg.GamelistBegin("stored", args.strip(), len(records), 1, len(records), "")
    ctx.batch.add(ctx.session, Datagram(begin))
    if not records:
        ctx.reply(f"{name} has no adjourned games.")
        return
    rows = [
        f"Stored games for {name}:",
        "    C Opponent       On Type          Str  M    ECO Date",
    ]
    key = name_key(name)
    for index, record in enumerate(records, 1):
        white = name_key(record.white) == key
        opponent = record.black if white else record.white
        here = ctx.core.world.online.get(name_key(opponent)) is not None
        _, moves = replay(record)
        board = record.game_variant.new_board(fen=record.start_fen)
        for made in moves:
            supply_drop(board, made.move)
            board.push(made.move)
        kind = kind_text(record.rating_type, record.rated, record.initial, record.increment)
        to_move = f"{COLOR_LETTER[board.turn]}{board.fullmove_number}"
        rows.append(
            f"{index:2d}: {'W' if white else 'B'} {opponent:<14} {'Y' if here else 'N'} {kind}"
            f" {strength(board, WHITE):2d}-{strength(board, BLACK):2d} {to_move:<4} "
            f"{record.eco or '?':>3} {when_ended(record, ctx.session.variables['tzone'])}"
        )
        ctx.batch.add(ctx.session, Datagram(gamelist_item(index, record, here)))
    ctx.reply(*rows)


async def find_record(ctx: Context, args: str) -> GameRecord | None:
    """The stored game ``args`` names: ``#ID``, ``NAME %A`` (slot A of NAME's journal) or
    ``NAME [N]`` (N as ``history`` numbers NAME's games, or -N for the N-th last; the last
    one when N is left out). Says why when there is none."""
    words = args.split()
    store = ctx.store
    if not words:
        ctx.reply(f"Usage: {ctx.command} <name> [game number] | #id")
        return None
    if words[0].startswith("#"):
        found = None
        game_id = parse_number(words[0][1:])
        if game_id is not None:
            found = await asyncio.to_thread(store.game, game_id)
        if found is None:
            ctx.reply(f"There is no stored game {words[0]}.")
        return found
    name = _who(ctx, args)
    if len(words) > 1 and words[1].startswith("%"):  # a journal slot (help journal)
        slot = journal_slot(words[1])
        if slot is None:
            ctx.reply("Journal entries are referenced by single letters.")
            return None
        _, record, refused = await journal_record(ctx.core, ctx.session, name, slot)
        if record is None:
            ctx.reply(refused)
        return record
    records = await asyncio.to_thread(store.history, name, HISTORY_SIZE)
    name = _spelled(records, name)
    if not records:
        ctx.reply(f"{name} has no history games.")
        return None
    which = words[1] if len(words) > 1 else "-1"
    index = parse_number(which, signed=True)
    if index is None:
        ctx.reply(f"Usage: {ctx.command} <name> [game number] | #id")
        return None
    if 1 <= index <= len(records):
        return records[index - 1]
    if -len(records) <= index <= -1:
        return records[index]
    ctx.reply(f"There is no history game {which} for {name}.")
    return None


def _isolated_record(record: GameRecord) -> dg.IsolatedBoard:
    """DG_ISOLATED_BOARD (40) of a stored game: game number -1."""
    return dg.IsolatedBoard(
        -1, record.white, record.black, record.wild, record.rating_type, record.rated,
        record.initial, record.increment, record.initial, record.increment, True, "",
        record.white_rating, record.black_rating, record.id or 0, "", "", False, False,
        record.wild in (CRAZYHOUSE, BUGHOUSE), "", False,
    )  # fmt: skip


def _stored_result(record: GameRecord) -> Datagram | None:
    """DG_GAME_RESULT (13) of a stored game, sent with sposition and smoves."""
    if record.status is None or record.status == ResultStatus.ADJOURNED:
        return None
    code, description = result_of(record)
    return Datagram(dg.GameResult(-1, False, code, record.score, description, record.eco or "?"))


def _final_clocks(record: GameRecord) -> dict[bool, int]:
    return {WHITE: record.white_clock, BLACK: record.black_clock}


@command("smoves", CN.CN_SMOVES, "smoves <name> [game number] | #id")
async def smoves(ctx: Context, args: str) -> None:
    record = await find_record(ctx, args)
    if record is None:
        return
    start, moves = replay(record)
    session, batch = ctx.session, ctx.batch
    batch.add(session, Datagram(_isolated_record(record)))
    start_fen = record.game_variant.setup_fen(start)
    line_datagrams(batch, session, -1, start, start_fen, moves, _final_clocks(record))
    result = _stored_result(record)
    if result is not None:
        batch.add(session, result)
    ctx.reply(*movelist_text(record, start, moves))


def movelist_text(record: GameRecord, start: chess.Board, moves: Sequence[ServerMove]) -> list[str]:
    """A stored game's moves as FICS's ``moves`` shows them."""
    white = f"{record.white} ({rating_text(record.white_rating)})"
    black = f"{record.black} ({rating_text(record.black_rating)})"
    terms = Terms.of(
        record.game_variant, record.rated, record.initial, record.increment, record.rating_type
    )
    words = f"{'Rated' if record.rated else 'Unrated'} {terms.fics_type} match"
    rows = [
        f"{white} vs. {black} --- {record.started.strftime('%a %b %d, %H:%M UTC %Y')}",
        f"{words}, initial time: {record.initial} minutes, increment: {record.increment} seconds.",
        "",
        f"Move  {record.white:<24}{record.black}",
        "----  ---------------------   ---------------------",
    ]
    cells = [f"{m.san:<8}{format_move_time(m.time_ms, False)}" for m in moves]
    if start.turn == BLACK:
        cells.insert(0, "...")
    number = start.fullmove_number
    for index in range(0, len(cells), 2):
        pair = cells[index : index + 2]
        rows.append(f"{number:3d}.  {pair[0]:<24}{pair[1] if len(pair) > 1 else ''}".rstrip())
        number += 1
    _, description = result_of(record)
    rows.append(f"      {{{description}}} {record.score}")
    return rows


@command("sposition", CN.CN_SPOSITION, "sposition <name> [game number] | #id")
async def sposition(ctx: Context, args: str) -> None:
    record = await find_record(ctx, args)
    if record is None:
        return
    start, moves = replay(record)
    board = start.copy(stack=False)
    for made in moves:
        supply_drop(board, made.move)
        board.push(made.move)
    ctx.batch.add(ctx.session, Datagram(_isolated_record(record)))
    result = _stored_result(record)
    if result is not None:
        ctx.batch.add(ctx.session, result)
    facts = BoardFacts(
        -1,
        record.white,
        record.black,
        record.initial,
        record.increment,
        record.white_clock,
        record.black_clock,
        moves[-1].time_ms if moves else 0,
        ply=len(moves),
        recent=recent_moves(moves),
    )
    ctx.reply(f"Position of {record.white} vs. {record.black} ({len(moves)} half-moves):")
    ctx.batch.add(ctx.session, isolated_board(board, facts))


# -- examining -------------------------------------------------------------------------------


def _examined(ctx: Context) -> ExaminedGame | None:
    exam = examining(ctx.core, ctx.session)
    if exam is None:
        ctx.reply("You are not examining a game.")
    return exam


async def _adjourned_record(ctx: Context, args: str) -> GameRecord | bool:
    """The adjourned game ``examine`` names (FICS help ``examine``): ``examine NAME`` my
    adjourned game with NAME, ``examine NAME1 NAME2`` theirs. False when ``args`` names
    none that way (``examine NAME`` is then NAME's last game); True after saying there is
    none between NAME1 and NAME2. The stored game stays adjourned: what is examined is a
    copy of its position."""
    words = args.split()
    two = (
        len(words) == 2
        and parse_number(words[1], signed=True) is None
        and not words[1].startswith("%")  # NAME %SLOT: a journal entry (find_record)
    )
    if not (len(words) == 1 and ctx.session.registered) and not two:
        return False
    if words[0].startswith("#"):
        return False
    owner, other = (words[0], words[1]) if two else (ctx.session.name, words[0])
    await ctx.core.play.flush()
    records = await asyncio.to_thread(ctx.store.adjourned, owner)
    key = name_key(other)

    def opponent(record: GameRecord) -> str:
        return name_key(record.black if name_key(record.white) == name_key(owner) else record.white)

    found = [r for r in records if opponent(r) == key] or [
        r for r in records if opponent(r).startswith(key)
    ]
    if found:
        return found[-1]
    if two:
        ctx.reply(f"There is no adjourned game between {words[0]} and {words[1]}.")
        return True
    return False


@command("examine", CN.CN_EXAMINE, "examine [<name> [game number] | #id]")
async def examine(ctx: Context, args: str) -> None:
    core, session = ctx.core, ctx.session
    if examining(core, session) is not None:
        ctx.reply("You are already examining a game.")
        return
    if core.play.busy(session):
        ctx.reply("You are playing a game.")
        return
    if not args.strip():
        exam = ExaminedGame(core.tables.free_number(), session.name, session.name, new_board())
        ctx.reply("Starting a game in examine (scratch) mode.")
    else:
        found = await _adjourned_record(ctx, args)
        if found is True:
            return
        record = found if isinstance(found, GameRecord) else await find_record(ctx, args)
        if record is None:
            return
        if examining(core, session) is not None or core.play.busy(session):
            ctx.reply("You are busy.")  # something started while the store answered
            return
        start, moves = replay(record)
        exam = ExaminedGame(
            core.tables.free_number(), record.white, record.black, start, moves,
            wild=record.wild, variant=record.variant, rating_type=record.rating_type,
            rated=record.rated,
            initial=record.initial, increment=record.increment,
            white_rating=record.white_rating, black_rating=record.black_rating,
            game_id=record.id or 0, ex_string="Ex: stored game",
        )  # fmt: skip
        if isinstance(found, GameRecord):  # at the position it was adjourned in
            for _ in exam.mainline:
                exam.forward()
        ctx.reply(f"Starting game {exam.number} in examine mode: {exam.white} vs. {exam.black}.")
    start_examining(core, session, exam, ctx.batch)


@command("unexamine", CN.CN_UNEXAMINE, "unexamine")
async def unexamine(ctx: Context, args: str) -> None:
    if not stop_examining(ctx.core, ctx.session, ctx.batch):
        ctx.reply("You are not examining a game.")


def _steps(ctx: Context, args: str) -> int | None:
    text = args.strip()
    if not text:
        return 1
    steps = parse_number(text)
    if steps is not None and steps > 0:
        return steps
    ctx.reply(f"Usage: {ctx.command} [number of half-moves]")
    return None


def _plural(count: int) -> str:
    return f"{count} move{'' if count == 1 else 's'}"


@command("forward", CN.CN_FORWARD, "forward [n]")
async def forward(ctx: Context, args: str) -> None:
    exam = _examined(ctx)
    steps = _steps(ctx, args) if exam is not None else None
    if exam is None or steps is None:
        return
    steps = min(steps, len(exam.line) - exam.ply)
    if steps == 0:
        ctx.reply("You're at the end of the game.")
        return
    made = [exam.forward() for _ in range(steps)]
    audience = list(exam.audience())
    ctx.batch.add_all(audience, LineMoves(exam.number, made, IsVariation.MOVE_FORWARD))
    said = f"Game {exam.number}: {ctx.session.name} goes forward {_plural(steps)}."
    ctx.batch.add_all(audience, lines(said))
    ctx.batch.add_all(audience, exam.board_message())


def _back(ctx: Context, exam: ExaminedGame, steps: int, said: str) -> None:
    for _ in range(steps):
        exam.backward()
    audience = list(exam.audience())
    if steps:
        ctx.batch.add_all(audience, Datagram(dg.Backward(exam.number, steps)))
    ctx.batch.add_all(audience, lines(said))
    ctx.batch.add_all(audience, exam.board_message())


@command("backward", CN.CN_BACK, "backward [n]")
async def backward(ctx: Context, args: str) -> None:
    exam = _examined(ctx)
    steps = _steps(ctx, args) if exam is not None else None
    if exam is None or steps is None:
        return
    steps = min(steps, exam.ply)
    if steps == 0:
        ctx.reply("You're at the beginning of the game.")
        return
    _back(ctx, exam, steps, f"Game {exam.number}: {ctx.session.name} backs up {_plural(steps)}.")


@command("revert", CN.CN_REVERT, "revert")
async def revert(ctx: Context, args: str) -> None:
    """Back to where the line being looked at left the main line (DG_BACKWARD)."""
    exam = _examined(ctx)
    if exam is None:
        return
    branch = exam.branch()
    if _same(exam.line, exam.mainline) or (branch == len(exam.line) and exam.ply <= branch):
        exam.line = list(exam.mainline)
        ctx.reply("You are already on the main line.")
        return
    steps = max(exam.ply - branch, 0)
    exam.line = list(exam.mainline)
    _back(ctx, exam, steps, f"Game {exam.number}: {ctx.session.name} reverts to the main line.")


# -- lecture marks ---------------------------------------------------------------------------


class Mark(Message):
    """A lecture mark (or its removal) as each receiver's datagrams show it, or text."""

    datagram_kinds = frozenset({DG.CIRCLE, DG.UNCIRCLE, DG.ARROW, DG.UNARROW, DG.BOARDINFO})

    def __init__(self, text: str, build: Callable[[frozenset[int]], list[Any]]) -> None:
        self.said = text
        self.build = build

    def text(self, receiver: Session) -> Sequence[str]:
        return (self.said,) if self.said and not self.build(receiver.level2) else ()

    def datagrams(self, receiver: Session) -> Iterable[Any]:
        return self.build(receiver.level2)


def _square(text: str) -> str | None:
    square = text.lower()
    return square if square in chess.SQUARE_NAMES else None


def _rectangle(a: str, b: str) -> list[str]:
    """The squares of the rectangle with corners ``a`` and ``b``."""
    sa, sb = chess.parse_square(a), chess.parse_square(b)
    files = range(
        min(chess.square_file(sa), chess.square_file(sb)),
        max(chess.square_file(sa), chess.square_file(sb)) + 1,
    )
    ranks = range(
        min(chess.square_rank(sa), chess.square_rank(sb)),
        max(chess.square_rank(sa), chess.square_rank(sb)) + 1,
    )
    return [chess.square_name(chess.square(f, r)) for r in ranks for f in files]


def _as_circles_and_arrows(
    number: int,
    examiner: str,
    mark: tuple[int | str, str, str, int],
    on: frozenset[int],
    remove: bool,
) -> list[Any]:
    """A mark in DG_CIRCLE / DG_ARROW terms (or their removal), for clients without
    DG_BOARDINFO: arrows as arrows, highlighted, throbbing and ghost squares as circles."""
    kind, a, b, _ = mark
    arrow_dg, circle_dg = (DG.UNARROW, DG.UNCIRCLE) if remove else (DG.ARROW, DG.CIRCLE)
    arrow = dg.Unarrow if remove else dg.Arrow
    circle = dg.Uncircle if remove else dg.Circle
    if kind in ("arrow", BoardInfoType.ARROW):
        return [arrow(number, examiner, a, b)] if arrow_dg in on else []
    if kind == "circle" or kind in (
        BoardInfoType.HIGHLIGHT,
        BoardInfoType.THROBBING_PIECES,
        BoardInfoType.GHOST_PIECES,
    ):
        return [circle(number, examiner, s) for s in _rectangle(a, b)] if circle_dg in on else []
    return []


def _add_mark(ctx: Context, exam: ExaminedGame, message: Message) -> None:
    ctx.batch.add_all(list(exam.audience()), message)


async def _circle(ctx: Context, args: str, remove: bool) -> None:
    exam = _examined(ctx)
    if exam is None:
        return
    square = _square(args.strip())
    if square is None:
        ctx.reply(f"Usage: {ctx.command} <square>")
        return
    name, number = ctx.session.name, exam.number
    mark: tuple[int | str, str, str, int] = ("circle", square, square, 0)
    if remove:
        if mark in exam.marks:
            exam.marks.remove(mark)
        said = f"Game {number}: {name} removes the circle from {square}."

        def build(on: frozenset[int]) -> list[Any]:
            return [dg.Uncircle(number, name, square)] if DG.UNCIRCLE in on else []
    else:
        exam.marks.append(mark)
        said = f"Game {number}: {name} circles {square}."

        def build(on: frozenset[int]) -> list[Any]:
            if DG.CIRCLE in on:
                return [dg.Circle(number, name, square)]
            if DG.BOARDINFO in on:  # "Dasher users will see BlitzIn circles as highlighted squares"
                return [dg.Boardinfo(number, name, BoardInfoType.HIGHLIGHT, square, square, 0)]
            return []

    _add_mark(ctx, exam, Mark(said, build))


async def _arrow(ctx: Context, args: str, remove: bool) -> None:
    exam = _examined(ctx)
    if exam is None:
        return
    words = args.split()
    squares = [_square(w) for w in words]
    if len(words) != 2 or squares[0] is None or squares[1] is None:
        ctx.reply(f"Usage: {ctx.command} <from square> <to square>")
        return
    a, b = squares[0], squares[1]
    name, number = ctx.session.name, exam.number
    mark: tuple[int | str, str, str, int] = ("arrow", a, b, 0)
    if remove:
        if mark in exam.marks:
            exam.marks.remove(mark)
        said = f"Game {number}: {name} removes the arrow from {a} to {b}."

        def build(on: frozenset[int]) -> list[Any]:
            return [dg.Unarrow(number, name, a, b)] if DG.UNARROW in on else []
    else:
        exam.marks.append(mark)
        said = f"Game {number}: {name} draws an arrow from {a} to {b}."

        def build(on: frozenset[int]) -> list[Any]:
            if DG.ARROW in on:
                return [dg.Arrow(number, name, a, b)]
            if DG.BOARDINFO in on:
                return [dg.Boardinfo(number, name, BoardInfoType.ARROW, a, b, 0)]
            return []

    _add_mark(ctx, exam, Mark(said, build))


@command("circle", CN.CN_CIRCLE, "circle <square>")
async def circle(ctx: Context, args: str) -> None:
    await _circle(ctx, args, remove=False)


@command("uncircle", CN.CN_CIRCLE, "uncircle <square>")
async def uncircle(ctx: Context, args: str) -> None:
    await _circle(ctx, args, remove=True)


@command("arrow", CN.CN_ARROW, "arrow <from square> <to square>")
async def arrow(ctx: Context, args: str) -> None:
    await _arrow(ctx, args, remove=False)


@command("unarrow", CN.CN_ARROW, "unarrow <from square> <to square>")
async def unarrow(ctx: Context, args: str) -> None:
    await _arrow(ctx, args, remove=True)


@command("boardinfo", CN.CN_BOARDINFO, "boardinfo <type> <square-a> <square-b> [<color>]")
async def boardinfo(ctx: Context, args: str) -> None:
    """Dasher's lecture marks (DG_BOARDINFO, 143). Clients without DG_BOARDINFO see arrows
    and circles (DG_ARROW, DG_CIRCLE; DG_UNARROW, DG_UNCIRCLE for clear-all and undo)."""
    exam = _examined(ctx)
    if exam is None:
        return
    words = args.split()
    kind = parse_number(words[0], signed=True) if words else None
    color = parse_number(words[3], signed=True) if len(words) == 4 else 0
    squares = [_square(w) for w in words[1:3]]
    if len(words) not in (3, 4) or kind is None or color is None or None in squares:
        ctx.reply("Usage: boardinfo <type> <square-a> <square-b> [<color>]")
        return
    a, b = str(squares[0]), str(squares[1])
    name, number = ctx.session.name, exam.number
    record = dg.Boardinfo(number, name, kind, a, b, color)
    if kind == BoardInfoType.CLEAR_ALL:
        removed, exam.marks[:] = list(exam.marks), []
    elif kind == BoardInfoType.UNDO:
        removed = [exam.marks.pop()] if exam.marks else []
    else:
        removed = []
        exam.marks.append((kind, a, b, color))
    added: tuple[int | str, str, str, int] = (kind, a, b, color)

    def build(on: frozenset[int]) -> list[Any]:
        if DG.BOARDINFO in on:
            return [record]
        if removed or kind in (BoardInfoType.CLEAR_ALL, BoardInfoType.UNDO):
            found: list[Any] = []
            for mark in removed:
                found += _as_circles_and_arrows(number, name, mark, on, remove=True)
            return found
        return _as_circles_and_arrows(number, name, added, on, remove=False)

    _add_mark(ctx, exam, Mark("", build))


# -- more examiners ---------------------------------------------------------------------------


@command("mexamine", CN.CN_MEXAMINE, "mexamine <name>")
async def mexamine(ctx: Context, args: str) -> None:
    """Give an observer of my examined game examiner rights (FICS help ``mexamine``;
    the texts as FICS words them)."""
    core, exam = ctx.core, _examined(ctx)
    if exam is None:
        return
    name = args.strip()
    if not name:
        ctx.reply("Usage: mexamine <name>")
        return
    player = ctx.world.find(name)
    if player is None:
        ctx.reply(f'No user named "{name}" is logged in.')
        return
    number = exam.number
    if player in exam.examiners:
        ctx.reply(f"{player.name} is already an examiner of game {number}.")
        return
    if examining(core, player) is not None:
        ctx.reply(f"{player.name} is examining a game.")
        return
    if core.play.busy(player):
        ctx.reply(f"{player.name} is playing a game.")
        return
    if player not in exam.observers:
        ctx.reply(f"{player.name} is not observing the game you are examining.")
        return
    exam.observers.discard(player)
    player.observing -= {number}
    exam.examiners.append(player)
    core.state(Examinations).by_examiner[player] = exam
    player.state, player.state_game = "E", number
    core.world.state_changed(player, ctx.batch)
    ctx.reply(f"{player.name} is now an examiner of game {number}.")
    ctx.batch.add(player, lines(f"{ctx.session.name} has made you an examiner of game {number}."))
    kib = bool(player.variables["kibitz"])
    _add_all(
        ctx.batch, exam.audience(), Datagram(dg.PlayersInMyGame(number, player.name, "E", kib))
    )
    ctx.batch.add(player, Datagram(dg.MyRelationToGame(number, "E")))
    ctx.batch.add(player, exam.board_message())  # style 12 now says: examining


# -- setting up a position -------------------------------------------------------------------

#: ``P@e4`` puts a white pawn on e4, ``p@e4`` a black one, ``wn@c3`` / ``bn@c6`` as well,
#: ``x@e4`` empties e4; ``*`` may stand for ``@`` (FICS's setup.c).
_DROP = re.compile(r"(?:([wb])([pnbrqk])|([pnbrqkPNBRQKxX]))[@*]([a-h][1-8])")
_CASTLING = {"white": (chess.BB_H1, chess.BB_A1), "black": (chess.BB_H8, chess.BB_A8)}
#: What python-chess finds wrong with a position, as FICS says it (setup.c).
_INVALID = (
    (chess.STATUS_NO_WHITE_KING, "There is no white king."),
    (chess.STATUS_NO_BLACK_KING, "There is no black king."),
    (chess.STATUS_TOO_MANY_KINGS, "You can only have one king of each colour."),
    (chess.STATUS_PAWNS_ON_BACKRANK, "Pawns cannot be placed on the first or eighth rank."),
    (chess.STATUS_OPPOSITE_CHECK, "Only the player to move may be in check."),
    (chess.STATUS_TOO_MANY_CHECKERS, "The side to move is in check too many times."),
    (chess.STATUS_IMPOSSIBLE_CHECK, "The side to move cannot be in check that way."),
)


def _setup_changed(exam: ExaminedGame, batch: Batch) -> None:
    """The position being set up, to everybody at the table."""
    exam.marks.clear()
    _add_all(batch, exam.audience(), exam.board_message())


def _drop(exam: ExaminedGame, session: Session, text: str, batch: Batch) -> None:
    """A line that looks like a move, in setup mode: a piece put on or taken off."""
    found = _DROP.fullmatch(text)
    if found is None:
        batch.add(
            session,
            lines(
                "You are still setting up the position.",
                'Type "bsetup done" when you are finished editing.',
            ),
        )
        return
    color_word, kind, letter, square_name = found.groups()
    square = chess.parse_square(square_name)
    if letter in ("x", "X"):
        exam.board.remove_piece_at(square)
    else:
        symbol = letter or (kind.upper() if color_word == "w" else kind)
        exam.board.set_piece_at(square, chess.Piece.from_symbol(symbol))
    _setup_changed(exam, batch)


def _castling(exam: ExaminedGame, color: str, rights: str) -> str | None:
    """``bsetup wcastle|bcastle kq|k|q|none``."""
    rights = rights.lower()
    if rights not in ("kq", "qk", "k", "q", "none"):
        return None
    king_side, queen_side = _CASTLING[color]
    board = exam.board
    board.castling_rights &= ~(king_side | queen_side)
    if "k" in rights:
        board.castling_rights |= king_side
    if "q" in rights:
        board.castling_rights |= queen_side
    return f"Castling rights for {color} set to {rights}."


def _validated(exam: ExaminedGame) -> list[str]:
    """What is wrong with the position set up, the first thing only, as FICS says it
    (empty: it may be played from)."""
    board = exam.board
    board.castling_rights = board.clean_castling_rights()
    if board.ep_square is not None and board.status() & chess.STATUS_INVALID_EP_SQUARE:
        board.ep_square = None
    status = board.status()
    wrong = [said for flag, said in _INVALID if status & flag]
    if status & chess.STATUS_TOO_MANY_WHITE_PIECES or status & chess.STATUS_TOO_MANY_BLACK_PIECES:
        wrong.append("There are too many pieces of one colour.")
    if status & (chess.STATUS_TOO_MANY_WHITE_PAWNS | chess.STATUS_TOO_MANY_BLACK_PAWNS):
        wrong.append("There are too many pawns of one colour.")
    return wrong[:1]  # FICS says the first thing wrong


def _setup_done(ctx: Context, exam: ExaminedGame) -> None:
    """``bsetup done``: the position, if python-chess finds it legal, is the start of the
    examined game from now on."""
    wrong = _validated(exam)
    if wrong:
        ctx.reply(*wrong, "The position is not valid - staying in setup mode.")
        return
    exam.setup = False
    exam.start = exam.board.copy(stack=False)
    exam.mainline = []
    exam.line = []
    exam.board = exam.start.copy(stack=False)
    ctx.reply("Game is validated - entering examine mode.")
    others = [s for s in exam.audience() if s is not ctx.session]
    said = f"Game {exam.number}: {ctx.session.name} has validated the position."
    _add_all(ctx.batch, others, lines(f"{said} Entering examine mode."))
    for session in exam.audience():
        exam.send_history(session, ctx.batch)
    _setup_changed(exam, ctx.batch)


@command("bsetup", CN.SCN_MISCELLANEOUS, "bsetup [fen FEN|clear|start|done|tomove W|...]")
async def bsetup(ctx: Context, args: str) -> None:
    """Set up a position in an examined game (FICS help ``bsetup``): ``bsetup`` enters
    setup mode (starting a scratch game when none is examined), pieces are put on and taken
    off with ``P@e4``, ``p@e5``, ``x@e4``; ``bsetup done`` checks the position."""
    core, session = ctx.core, ctx.session
    exam = examining(core, session)
    words = args.split()
    if exam is None and not words:
        if core.play.busy(session):
            ctx.reply("You are playing a game.")
            return
        exam = ExaminedGame(core.tables.free_number(), session.name, session.name, new_board())
        ctx.reply("Starting a game in examine (scratch) mode.")
        start_examining(core, session, exam, ctx.batch)
    if exam is None:
        ctx.reply("You are not examining a game.")
        return
    if not words:
        if exam.setup:
            ctx.reply("You are already setting up a position.")
            return
        exam.setup = True
        exam.start = exam.board.copy(stack=False)
        exam.mainline = []
        exam.line = []
        exam.board = exam.start.copy(stack=False)
        ctx.reply("Entering setup mode.")
        others = [s for s in exam.audience() if s is not session]
        _add_all(ctx.batch, others, lines(f"Game {exam.number}: {session.name} enters setup mode."))
        _setup_changed(exam, ctx.batch)
        return
    if not exam.setup:
        ctx.reply('This game is active - type "bsetup" to allow editing.')
        return
    what, rest = words[0].lower(), words[1:]
    said = _setup_command(exam, what, rest, " ".join(args.split()[1:]))
    if what == "done":
        _setup_done(ctx, exam)
        return
    if said is None:
        ctx.reply("You have supplied an incorrect parameter to bsetup.")
        return
    ctx.reply(said)
    _setup_changed(exam, ctx.batch)


def _setup_command(exam: ExaminedGame, what: str, rest: list[str], text: str) -> str | None:
    """One ``bsetup`` sub-command other than ``done``: what to say, None when it is not
    understood (the position is left as it was)."""
    board = exam.board
    if what == "clear":
        board.clear()
        return "Board cleared."
    if what == "start":
        board.reset()
        return "Board set up as starting position."
    if what == "fen" and rest:
        try:
            found = chess.Board(text) if len(rest) > 1 else chess.Board(f"{text} w - - 0 1")
        except ValueError:
            return None
        exam.board = found
        return "Board set up by FEN."
    if what in ("wcastle", "bcastle") and len(rest) == 1:
        return _castling(exam, "white" if what == "wcastle" else "black", rest[0])
    if what == "tomove" and len(rest) == 1 and rest[0].lower() in ("white", "black"):
        board.turn = rest[0].lower() == "white"
        board.ep_square = None
        return f"It is now {rest[0].lower()}'s turn to move."
    if what == "eppos" and len(rest) == 1:
        file = rest[0].lower()
        if file == "none":
            board.ep_square = None
            return "En passant capture is not possible now."
        if len(file) != 1 or file not in "abcdefgh":
            return None
        rank = 5 if board.turn == WHITE else 2
        board.ep_square = chess.square(chess.FILE_NAMES.index(file), rank)
        return f"En passant capture is possible on the {file}-file."
    return None


def install(core: Core) -> None:
    """Examining and stored games on ``core``: the commands, examiners' moves, and the
    examined games among the tables."""
    state = core.state(Examinations)
    core.tables.add_source(state.games, state.by_examiner)
    registry = core.registry
    registry.add_commands(COMMANDS)
    registry.moves.append(lambda session, text, batch: move(core, session, text, batch))
    registry.left.append(lambda session: session_left(core, session))
