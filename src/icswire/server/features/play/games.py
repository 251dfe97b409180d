"""Games on the server: moves, clocks, offers, endings, and what players and observers see.

The server keeps the clocks in milliseconds: the mover's clock runs from the moment the
turn began, the increment is added after the move, and a timer ends the game when the
side to move runs out (XBoard never calls ``flag``). Every move is saved as it is made,
so a game survives a crash as an adjourned game.

Each move reaches players and observers as a board (style 12 with the receiver's
relation, style 10, or nothing under style 13; ``iset ms`` gives millisecond clocks) and
the datagrams they enabled: DG_SEND_MOVES with exactly the parts of DGs 33-36 and 113,
DG_MSEC for both clocks, DG_MY_TURN. Game starts and ends send the text FICS clients
parse (``{Game N (W vs. B) Creating rated blitz match.}``, ``{Game N (W vs. B) B
resigns} 1-0``) and DG_MY_GAME_STARTED / DG_MY_GAME_RESULT / DG_GAME_RESULT.
"""

from __future__ import annotations

import asyncio
import logging
import random
import re
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING

import chess

from icswire.boards import openings
from icswire.boards.bughouse import passed_piece
from icswire.boards.illegal import illegal_reason
from icswire.boards.moves import (
    IllegalMoveError,
    move_from_typed,
    push_with_notations,
)
from icswire.boards.positions import BUGHOUSE, CRAZYHOUSE, fen_of, strength
from icswire.protocol import datagrams as dg
from icswire.protocol.codes import (
    AbortMode,
    AdjournMode,
    DrawMode,
    IllegalMoveReason,
    IsVariation,
    ResultStatus,
    WinMode,
    describe_result,
)
from icswire.protocol.datagrams import DG
from icswire.protocol.ivars import GameInfo, format_game_info
from icswire.protocol.level1 import CommandNumber as CN
from icswire.protocol.timeseal import PING, PING2, elapsed
from icswire.server.core.events.games import (
    BoardShown,
    BoardView,
    ClocksChanged,
    GameChanged,
    GameEnded,
    GameHeader,
    GameHistory,
    GamePosition,
    GameStarted,
    MovePlayed,
    OffersChanged,
    PiecePassed,
    RequestAnswered,
    TakenBack,
)
from icswire.server.core.model.offers import Offer, Offers
from icswire.server.core.model.openings import UNKNOWN, board_opening, eco_code
from icswire.server.core.model.requests import KINDS
from icswire.server.core.model.tables import LOST_WITH_ITS_SERVER, ListedGame, Table, Terms
from icswire.server.core.net.session import Session
from icswire.server.core.render.batch import Batch, Datagram, Message, Raw, lines
from icswire.server.core.render.boards import (
    BLACK,
    COLOR_LETTER,
    WHITE,
    BoardFacts,
    PositionBoard,
    ServerMove,
    game_history,
    history_records,
    isolated_board,
    recent_moves,
)
from icswire.server.core.render.diagrams import holding_text
from icswire.server.core.render.games import game_started
from icswire.server.core.render.movelist import Movelist
from icswire.server.core.render.texts import (
    games_clock_text,
    icc_games_row,
    icc_kind_text,
    kind_text,
    rating_text,
)
from icswire.server.core.storage import jobs
from icswire.server.core.storage.records import GameRecord, record_against
from icswire.server.core.storage.store import MoveTexts, Progress, StoreUnavailable
from icswire.server.features.play.bughouse import partner_result
from icswire.server.features.play.endings import ending
from icswire.server.features.play.rated import announce_ratings
from icswire.server.features.play.tourneys import tourney_ended, tourney_started

if TYPE_CHECKING:
    from icswire.server.core.dispatch.hub import Core
    from icswire.server.core.model.users import User

log = logging.getLogger("icswire.server")
#: The most a timeseal client's own timestamps may take off the server's measure of one
#: move (lag compensation); the rest of what a client claims is not believed.
MAX_LAG_CREDIT_MS = 2000


@dataclass(eq=False)
class Game:
    """A game being played."""

    number: int
    white: User
    black: User
    terms: Terms
    start: chess.Board
    white_rating: int = 0
    black_rating: int = 0
    game_id: int | None = None
    board: chess.Board = field(init=False)
    start_fen: str | None = field(init=False)  # None: the standard start
    moves: list[ServerMove] = field(default_factory=list)
    #: The score and the result's words once the game ended (``moves``' last line, the
    #: PGN result): what ``automail`` mails.
    score: str = "*"
    result_text: str = "Still in progress"
    #: ``moves`` as the store keeps them, brought up to date at each save.
    move_texts: MoveTexts = field(default_factory=MoveTexts, repr=False)
    clock_ms: dict[bool, int] = field(default_factory=dict)
    turn_started: float = field(default_factory=time.monotonic)
    #: A timeseal player's own timestamp of when the board of its turn reached it.
    turn_stamp: dict[bool, int] = field(default_factory=dict)
    observers: set[User] = field(default_factory=set)
    flipped: set[User] = field(default_factory=set)  # turned their board with ``flip``
    #: The requests standing (draw, abort, adjourn, takeback, pause, unpause, switch), by
    #: kind and the colour that made them; each is one of the server's numbered offers.
    requests: dict[tuple[str, bool], Offer] = field(default_factory=dict)
    paused: bool = False  # both agreed to ``pause``: no clock runs
    timer: asyncio.TimerHandle | None = None
    last_move_time_ms: int = 0
    started: datetime = field(default_factory=lambda: datetime.now(UTC))
    #: The other board of a bughouse game (``<g1>``'s ``pt=``); None for other games.
    partner: Game | None = field(default=None, repr=False)
    #: ``set private`` of either player: not listed in ``games``, nobody may observe it,
    #: and it is not announced (``gin``, DG_GAME_STARTED) to others.
    private: bool = field(init=False)
    #: A player's move sent on the opponent's turn with ``iset premove 1``, by colour: it
    #: is played the moment that colour's turn comes (one a player; a new one replaces it).
    premoves: dict[bool, str] = field(default_factory=dict)
    #: A player seated at another of his games (a simul's giver away from this board).
    away: set[User] = field(default_factory=set)

    def __post_init__(self) -> None:
        self.private = bool(self.white.variables["private"] or self.black.variables["private"])
        self.board = self.start.copy(stack=False)
        self.start_fen = self.terms.game_variant.setup_fen(self.start)
        if not self.clock_ms:
            self.clock_ms = {WHITE: self.initial_ms(WHITE), BLACK: self.initial_ms(BLACK)}

    def initial_ms(self, color: bool) -> int:
        """A side's clock at the start: its minutes; 10 seconds where a timed game gives
        it none (``0 2``: lasker's ``prepare_match``, "0 x games start with 10 seconds");
        an untimed game's clocks stay at 0 and never run."""
        minutes, _ = self.terms.time_of(color)
        if minutes == 0 and not self.terms.untimed:
            return 10_000
        return minutes * 60_000

    def increment_ms(self, color: bool) -> int:
        return self.terms.time_of(color)[1] * 1000

    # -- who is who ----------------------------------------------------------------------

    @property
    def players(self) -> tuple[User, User]:
        return self.white, self.black

    def color_of(self, session: User) -> bool | None:
        if session is self.white:
            return WHITE
        if session is self.black:
            return BLACK
        return None

    def player(self, color: bool) -> User:
        return self.white if color == WHITE else self.black

    def audience(self) -> Iterator[User]:
        """Players and observers."""
        yield self.white
        yield self.black
        yield from self.observers

    def is_flipped(self, session: User) -> bool:
        """Whether ``session`` sees the board from Black's side: it plays Black, turned
        the board with ``flip`` or ``set flip 1``; each turns it once more."""
        black = session is self.black and session is not self.white  # as color_of has it
        return black ^ (session in self.flipped) ^ bool(session.variables["flip"])

    def relation(self, session: User) -> int:
        """Style 12's relation: 1 my move, -1 the opponent's, 0 observing. (Asked for
        every receiver of every move: color_of's tests, without the call.)"""
        if session is self.white:
            color = WHITE
        elif session is self.black:
            color = BLACK
        else:
            return 0
        return 1 if color == self.board.turn else -1

    # -- clocks ------------------------------------------------------------------------

    def clock_now(self, color: bool) -> int:
        """Milliseconds left for ``color`` at this moment (the side to move's clock runs,
        unless the game is paused)."""
        if color == self.board.turn and not self.paused and not self.terms.untimed:
            elapsed = int((time.monotonic() - self.turn_started) * 1000)
            return self.clock_ms[color] - elapsed
        return self.clock_ms[color]

    def record(self) -> GameRecord:
        return GameRecord(
            id=self.game_id,
            white=self.white.name,
            black=self.black.name,
            white_rating=self.white_rating,
            black_rating=self.black_rating,
            wild=self.terms.wild,
            rating_type=self.terms.rating_type,
            rated=self.terms.rated,
            initial=self.terms.initial,
            increment=self.terms.increment,
            start_fen=self.start_fen,
            moves=tuple(m.san for m in self.moves),
            clocks=tuple(m.clock_ms for m in self.moves),
            times=tuple(m.time_ms for m in self.moves),
            status=None,
            mode=None,
            color=None,
            score="*",
            eco="?",
            white_clock=self.clock_ms[WHITE],
            black_clock=self.clock_ms[BLACK],
            started=self.started,
            ended=None,
            variant=self.terms.variant,
            private=self.private,
            event=self.terms.event,
            black_initial=self.terms.black_initial,
            black_increment=self.terms.black_increment,
        )

    # -- as a table people watch (core.tables.Table) -------------------------------------

    examined = False

    @property
    def partner_table(self) -> Game | None:
        return self.partner

    @property
    def rating_type(self) -> str:
        return self.terms.rating_type

    @property
    def variant(self) -> str | None:
        return self.terms.variant

    @property
    def event(self) -> str:
        return self.terms.event

    @property
    def director(self) -> str:
        return self.terms.director

    def seats(self) -> list[User]:
        return [self.white, self.black]

    def seat_symbol(self, session: User) -> str:
        """DG_PLAYERS_IN_MY_GAME's symbol: a simul's giver away from this board is
        ``SW`` ("might show up as PW when at the board and SW the rest of the time")."""
        color = self.color_of(session)
        if color is not None:
            played = "S" if session in self.away else "P"
            return played + ("W" if color == WHITE else "B")
        return "O"

    def player_names(self) -> tuple[str, str]:
        return self.white.name, self.black.name

    def facts(self) -> BoardFacts:
        last = self.moves[-1] if self.moves else None
        return BoardFacts(
            self.number,
            self.white.name,
            self.black.name,
            self.terms.initial,
            self.terms.increment,
            self.clock_now(WHITE),
            self.clock_now(BLACK),
            self.last_move_time_ms,
            not self.paused,
            ply=len(self.moves),
            recent=recent_moves(self.moves),
            last_move=(last.verbose, last.san) if last is not None and last.verbose else None,
        )

    def position(self) -> GamePosition:
        """The board as every receiver's style needs it (the events' view of it). No copy
        of the board goes with it: only a style that draws the board (1 to 9, 11) needs
        one, and builds it from the FEN as another node does (a copy at every move cost
        every move for those few)."""
        moves, board = self.moves, self.board
        last = moves[-1] if moves else None
        view = BoardView.of(board)
        return GamePosition(
            self.number, self.white.name, self.black.name, self.terms.game_variant.name,
            fen_of(board, view.ranks), self.terms.initial, self.terms.increment,
            self.clock_now(WHITE), self.clock_now(BLACK), self.last_move_time_ms,
            not self.paused, len(moves),
            (last.verbose or last.san, last.san, last.smith) if last is not None else None,
            tuple([(m.san, m.verbose or m.san, m.time_ms) for m in moves[-4:]]),
            tuple([s.name for s in self.flipped]), view,
        )  # fmt: skip

    def board_message(self) -> Message:
        return PositionBoard(self.board, self.facts(), self.relation, self.is_flipped)

    def isolated_board(self) -> Message:
        return isolated_board(self.board, self.facts())

    def history(self) -> GameHistory:
        """The moves so far and the clocks (the side to move's runs), as plain data."""
        return game_history(
            self.number, self.start, self.start_fen, self.moves, self.clock_ms, self.board.turn,
            self.terms.game_variant, self.board,
        )  # fmt: skip

    def send_history(self, session: User, batch: Batch) -> None:
        """DG_MOVE_LIST or DG_POSITION_BEGIN(2) + moves, and the clocks (DG_MSEC)."""
        for record in history_records(session.level2, self.history()):
            batch.add(session, Datagram(record))

    def greet_observer(self, session: User, batch: Batch) -> None:
        """The offers standing (DG_OFFERS_IN_MY_GAME) and the PGN tags; ``<g1>`` to an
        observer who set ``iset gameinfo 1`` (FICS help ``iv_gameinfo``: "when you start
        observing a game")."""
        if session.ivariables["gameinfo"]:
            batch.add(session, lines(game_info_line(self)))
        batch.add(session, self.offers())
        for tag, value in self.pgn_tags():
            batch.add(session, Datagram(dg.PgnTag(self.number, tag, value)))

    def games_row(self, icc: bool) -> str:
        """The row, and a TD's event label after it in brackets (``(Spring Swiss)``)."""
        row = self._games_row(icc)
        return f"{row} ({self.terms.event})" if self.terms.event else row

    def _games_row(self, icc: bool) -> str:
        t, board = self.terms, self.board
        if icc:
            return icc_games_row(
                self.number,
                (self.white.name, self.white_rating),
                (self.black.name, self.black_rating),
                icc_kind_text(t.rating_type, t.wild, t.rated, t.initial, t.increment),
                "W" if board.turn == WHITE else "B",
                board.fullmove_number,
            )
        # lasker's com_games: "%3d %4s %-11.11s %4s %-10.10s [...] %6s -%6s (%2d-%2d) %c: %2d"
        kind = kind_text(t.rating_type, t.rated, t.initial, t.increment, self.private, t.odds)
        white = rating_text(self.white_rating, self.white.registered)
        black = rating_text(self.black_rating, self.black.registered)
        side = "W" if board.turn == WHITE else "B"
        return (
            f"{self.number:3d} {white:>4} {self.white.name[:11]:<11} {black:>4} "
            f"{self.black.name[:10]:<10} {kind} {games_clock_text(self.clock_now(WHITE)):>6} -"
            f"{games_clock_text(self.clock_now(BLACK)):>6} ({strength(board, WHITE):2d}-"
            f"{strength(board, BLACK):2d}) {side}: {board.fullmove_number:2d}"
        )

    def listed(self) -> ListedGame:
        return ListedGame(
            self.number, False, self.games_row(False), self.games_row(True),
            self.white_rating + self.black_rating, self.white.name, self.black.name,
            self.private,
        )  # fmt: skip

    def observe_title(self) -> str:
        t = self.terms
        white = f"{self.white.name} ({rating_text(self.white_rating, self.white.registered)})"
        black = f"{self.black.name} ({rating_text(self.black_rating, self.black.registered)})"
        return f"Game {self.number}: {white} {black} {t.words} {t.initial} {t.increment}"

    def movelist(self) -> Movelist:
        t = self.terms
        return Movelist(
            self.number, self.white.name, self.black.name, self.white_rating,
            self.black_rating, self.started, t.rated, t.fics_type, t.initial, t.increment,
            self.start, self.start_fen is None, tuple((m.san, m.time_ms) for m in self.moves),
            self.initial_ms(WHITE), self.initial_ms(BLACK),
            black_time=t.time_of(BLACK), result=self.result_text, score=self.score,
        )  # fmt: skip

    # -- what players are sent -----------------------------------------------------------

    def offers(self) -> OffersChanged:
        """DG_OFFERS_IN_MY_GAME (21): the draw, adjourn, abort and takeback offers (the
        DG has no field for pause, unpause and switch requests)."""
        asked = self.requests

        def plies(color: bool) -> int:
            offer = asked.get(("takeback", color))
            return int(offer.params) if offer is not None else 0

        def both(kind: str) -> tuple[bool, bool]:
            return (kind, WHITE) in asked, (kind, BLACK) in asked

        return OffersChanged(
            self.number, both("draw"), both("adjourn"), both("abort"), (plies(WHITE), plies(BLACK))
        )

    def pgn_tags(self) -> list[tuple[str, str]]:
        """The seven tags, then ``Variant`` for a variant and ``SetUp``/``FEN`` for a game
        that does not start from its variant's usual position."""
        tags = [
            ("Event", self.terms.event or f"ICS {self.terms.words} match"),
            ("Site", "icswire"),
            ("Date", self.started.strftime("%Y.%m.%d")),
            ("Round", "-"),
            ("White", self.white.name),
            ("Black", self.black.name),
            ("Result", "*"),
        ]
        variant = self.terms.game_variant.pgn_variant
        if variant is not None:
            tags.append(("Variant", variant))
        if self.start_fen is not None:
            tags += [("SetUp", "1"), ("FEN", self.start_fen)]
        return tags

    def header(self) -> GameHeader:
        """What DG_GAME_STARTED's form says of this game."""
        t = self.terms
        variant = t.game_variant
        return GameHeader(
            self.number, self.white.name, self.black.name, t.wild, t.rating_type, t.rated,
            t.initial, t.increment, self.white_rating, self.black_rating, self.game_id or 0,
            self.white.titles, self.black.titles, t.wild in (CRAZYHOUSE, BUGHOUSE),
            variant.irregular_legality, variant.irregular_semantics, variant.promote_to_king,
            *t.time_of(BLACK),
        )  # fmt: skip

    def game_record(self) -> dg.GameStarted:
        """DG_GAME_STARTED (12) of this game; ``datagrams.record_as`` makes it one of the
        other DGs of that form (15, 18, 40, 100)."""
        return game_started(self.header())


# -- what receivers see ------------------------------------------------------------------


# -- the games of a server ------------------------------------------------------------------


#: lasker's game types (``gamedb.h``), as its end line tells mamer.
_LASKER_TYPES = {"Blitz": 1, "Standard": 2, "Lightning": 5, "Bughouse": 6}


def _mamer_info(game: Game) -> str:
    """lasker's `` [MIN INC RATED PRIVATE TYPE]`` after a game's end line when both
    players have ``set tourney`` ("mamer wants more info"), else ""."""
    if not (game.white.variables["tourney"] and game.black.variables["tourney"]):
        return ""
    t = game.terms
    if t.initial == 0 and t.increment == 0:
        kind = 0  # untimed
    elif t.game_variant.wild != 0 and t.rating_type != "Bughouse":
        kind = 4  # wild
    else:
        kind = _LASKER_TYPES.get(t.rating_type, 4)
    return f" [{t.initial} {t.increment} {int(t.rated)} {int(game.private)} {kind}]"


NOT_CREATED = "The game could not be created: the database is not answering. Try again in a moment."
"""Told to both players when a game cannot be stored: it does not start."""

NOT_NUMBERED = (
    "The game could not be created: the servers of this cluster cannot reach each other. "
    "Try again in a moment."
)
"""Told to both players when a cluster's node cannot claim a game number (NATS is away)."""


class Games:
    """Every game being played, by number and by player."""

    def __init__(self, core: Core) -> None:
        self.core = core
        self.by_number: dict[int, Game] = {}
        self.by_player: dict[User, Game] = {}
        self.starting: set[User] = set()  # a game is being stored for them

    # -- saving: through the core's write queue, in order, retried, off the hot path ------

    def save_progress(self, game: Game) -> None:
        """Save ``game``'s moves and clocks (after every move: it survives a crash). The
        saves of one game coalesce: a waiting save is replaced by the newer state."""
        if game.game_id is None:
            raise RuntimeError("the game is not stored yet")
        texts = game.move_texts
        texts.follow(game.moves)  # one move more: a word more each, the rest as it was
        clocks = game.clock_ms[WHITE], game.clock_ms[BLACK]
        played = Progress(game.game_id, texts.moves, texts.clocks, texts.times, *clocks)
        self.core.writes.put_write(
            jobs.progress(played),
            f"game {game.game_id} ({game.white.name} vs. {game.black.name}) "
            f"at ply {len(game.moves)}",
            concerns=game.player_names(),
        )

    async def flush(self) -> None:
        """Wait until every queued save is done (StoreUnavailable while the database does
        not answer)."""
        await self.core.writes.barrier()

    def busy(self, session: User) -> bool:
        return session in self.by_player or session in self.starting

    # -- starting --------------------------------------------------------------------------

    async def start(
        self,
        white: User,
        black: User,
        terms: Terms,
        batch: Batch,
        start: chess.Board | None = None,
        resumed: GameRecord | None = None,
    ) -> Game:
        """Store a game, then tell both players (and DG_GAME_STARTED listeners), start the
        clock.

        A game that cannot be stored does not start: both players are told (NOT_CREATED),
        nothing is registered, and StoreUnavailable is raised. A resumed adjourned game goes
        on as a new stored row with its moves so far (the old row is marked resumed in the
        same transaction), from its own start position."""
        if not openings.loaded():  # its end is classified: the table is read off the loop
            await asyncio.to_thread(openings.load)
        game, past = await self._create(white, black, terms, batch, start, resumed)
        self._open(game, batch, resumed is not None, past)
        return game

    async def start_bughouse(
        self,
        first: tuple[User, User],
        second: tuple[User, User],
        terms: Terms,
        batch: Batch,
    ) -> tuple[Game, Game]:
        """Store the two boards of a bughouse game ((white, black) of each; a player's
        partner has the other colour on the other board), link them, then start both.

        When the second board cannot be stored, the first is stored as aborted (no result),
        neither starts, and StoreUnavailable is raised (the four players were told)."""
        one, past_one = await self._create(*first, terms, batch)
        try:
            two, past_two = await self._create(*second, terms, batch)
        except StoreUnavailable:
            self.core.tables.release(one.number)
            batch.add_all(first, lines(NOT_CREATED))
            self._store_end(one, ResultStatus.ABORTED, AbortMode.NO_RESULT, WHITE, UNKNOWN)
            raise
        one.partner, two.partner = two, one
        self._open(one, batch, False, past_one)
        self._open(two, batch, False, past_two)
        return one, two

    async def _create(
        self,
        white: User,
        black: User,
        terms: Terms,
        batch: Batch,
        start: chess.Board | None = None,
        resumed: GameRecord | None = None,
    ) -> tuple[Game, list[GameRecord]]:
        """Store a game on a reserved number, which stays reserved until :meth:`_open`
        registers it; the game and the players' past games for DG_PSTAT."""
        # the players' ratings as their sessions keep them (loaded at login, updated
        # after each rated game); a player's record against the other only for DG_PSTAT
        white_rating, black_rating = (
            p.ratings.get(terms.rating_type, (0, 0))[0] for p in (white, black)
        )
        if terms.fics_type in ("untimed", "non-standard"):
            # lasker's GetRating: TYPE_UNTIMED and TYPE_NONSTANDARD (time odds) games
            # have no rating, so their lines show ---- (++++ for a guest)
            white_rating = black_rating = 0
        store = self.core.store
        if start is None:
            fen = resumed.start_fen if resumed is not None else None
            start = terms.game_variant.new_board(random.Random(), fen)  # noqa: S311  (not a secret)
        tables = self.core.tables
        self.starting |= {white, black}
        try:
            number = await tables.reserve_claimed()  # no other game gets it meanwhile
        except StoreUnavailable:  # a cluster's registry did not answer: no number
            self.starting -= {white, black}
            batch.add_all((white, black), lines(NOT_NUMBERED))
            raise
        except BaseException:
            self.starting -= {white, black}
            raise
        game = Game(number, white, black, terms, start, white_rating, black_rating)
        if resumed is not None:
            for san, clock, used in zip(resumed.moves, resumed.clocks, resumed.times, strict=True):
                move = game.board.parse_san(san)
                # played again: its notations as a move played now has them
                _, smith, verbose = push_with_notations(game.board, move)
                game.moves.append(ServerMove(move, san, smith, used, clock, verbose))
            game.clock_ms = {WHITE: resumed.white_clock, BLACK: resumed.black_clock}
        resumes = resumed.id if resumed is not None else None
        try:
            try:
                game.game_id = await asyncio.to_thread(store.start_game, game.record(), resumes)
            except StoreUnavailable as exc:
                log.warning("game %s vs. %s not started: %s", white.name, black.name, exc)
                batch.add_all((white, black), lines(NOT_CREATED))
                tables.release(number)
                raise
            past: list[GameRecord] = []
            if any(DG.PSTAT in p.level2 for p in (white, black)):
                try:
                    past = await asyncio.to_thread(store.between, white.name, black.name)
                except StoreUnavailable as exc:  # DG_PSTAT counts nothing then
                    log.warning("no history for DG_PSTAT: %s", exc)
        finally:
            self.starting -= {white, black}
        return game, past

    def _open(self, game: Game, batch: Batch, resumed: bool, past: list[GameRecord]) -> None:
        """Register a stored game under its reserved number, announce it, start its clock."""
        self.by_number[game.number] = game
        self.core.tables.release(game.number)
        white, black = game.players
        self.by_player[white] = self.by_player[black] = game
        for session in (white, black):
            session.state, session.state_game = "P", game.number
            self.core.world.state_changed(session, batch)
        self._announce_start(game, batch, resumed, past)
        world, terms = self.core.world, game.terms
        number, game_id = game.number, game.game_id or 0
        tourney_started(world, number, game_id, game.players, terms, game.private, batch)
        self.core.registry.table_started(game, batch)
        game.turn_started = time.monotonic()
        self._arm_timer(game)

    def _announce_start(
        self, game: Game, batch: Batch, resumed: bool, past: list[GameRecord]
    ) -> None:
        """:class:`GameStarted` to the players, and to the others who list games
        (DG_GAME_STARTED) or ``set gin``, unless the game is private."""
        t, white, black = game.terms, game.white, game.black
        other = game.partner
        started = GameStarted(
            game.header(),
            game.position(),
            game.history(),
            resumed,
            t.words,
            (
                rating_text(game.white_rating, white.registered),
                rating_text(game.black_rating, black.registered),
            ),
            (other.number, other.white.name, other.black.name) if other is not None else None,
            game_info_line(game),
            tuple(game.pgn_tags()),
            (
                record_against(white.name, black.name, t.rating_type, past),
                record_against(black.name, white.name, t.rating_type, past),
            ),
        )
        batch.add_all(game.players, started)
        if not game.private:
            listening = [
                s
                for s in self.core.world.online.values()
                if game.color_of(s) is None and (DG.GAME_STARTED in s.level2 or s.variables["gin"])
            ]
            batch.add_all(listening, started)
        world, playing = self.core.world, self.by_player.keys()
        for player in game.players:
            if player.variables["open"]:  # FICS: only an open player was available
                world.availability_changed(player, False, batch, playing)
        self._stamp_turn(game, batch)

    def send_lists(self, session: User, number: int, batch: Batch) -> None:
        """Turning on DG_MY_GAME_STARTED (15) or DG_STARTED_OBSERVING (18) shows my games
        again, with their moves and clocks; DG_MOVE_LIST (25): "a DG_MOVE_LIST being sent
        for each game of one's games" (section 4)."""
        for game in self.by_number.values():
            playing = game.color_of(session) is not None
            watching = session in game.observers
            if number == DG.MOVE_LIST and (playing or watching):
                game.send_history(session, batch)
            elif (number == DG.MY_GAME_STARTED and playing) or (
                number == DG.STARTED_OBSERVING and watching
            ):
                batch.add(session, Datagram(dg.record_as(number, game.game_record())))
                game.send_history(session, batch)
                symbol = "O" if watching else ("PW" if game.color_of(session) else "PB")
                batch.add(session, Datagram(dg.MyRelationToGame(game.number, symbol)))

    # -- hooks -------------------------------------------------------------------------

    def take_move(self, session: User, text: str, batch: Batch) -> bool:
        """A line that looks like a move, from a player: play it."""
        if session not in self.by_player:
            return False
        self.play(session, text, batch)
        return True

    def session_left(self, session: User) -> None:
        """A player left: the game ends as :meth:`player_gone` says (not at shutdown)."""
        if session not in self.by_player or self.core.stopping:
            return
        batch = Batch(CN.SCN_LOGOUT, None, issuer_name=session.name)
        self.player_gone(session, batch)
        batch.flush()

    # -- moving ------------------------------------------------------------------------

    def play(self, session: User, text: str, batch: Batch) -> None:
        """A player typed something that looks like a move."""
        game = self.by_player[session]
        batch.command_cn(CN.SCN_MOVE)
        color = game.color_of(session)
        if color is None:
            raise RuntimeError("not a player of this game")
        if color != game.board.turn:
            if self.premove_allowed(game, session):
                game.premoves[color] = text
                batch.add(session, lines(f"Premove stored: {text}"))
                return
            self._illegal(
                game, session, text, IllegalMoveReason.NOT_YOUR_MOVE, "It is not your move.", batch
            )
            return
        if game.paused:  # FICS's words (gameproc.c)
            batch.add(session, lines('Game clock is paused, use "unpause" to resume.'))
            return
        used = self._charged(game, session, color)
        left = game.clock_ms[color] - used
        if left <= 0 and not game.terms.untimed:
            self._illegal(
                game, session, text, IllegalMoveReason.LOST_ON_TIME, "You lost on time.", batch
            )
            self.out_of_time(game, batch)
            return
        move = self._typed_move(game, session, text, batch)
        if move is None:
            return
        # FICS: a move declines the requests made to the mover ("Any move resets opponent's
        # offers", DG 21, which is not sent for it)
        self.decline_requests(game, color, batch)
        passed = self._push(game, move, used, left + game.increment_ms(color))
        self._after_move(game, batch, passed, used if session.timeseal else None)
        self._play_premove(game, batch)

    def _typed_move(self, game: Game, session: User, text: str, batch: Batch) -> chess.Move | None:
        """The move ``session`` typed as ``text`` (its ``movecase`` and ``promote``); None
        after telling it the move is illegal."""
        try:
            return move_from_typed(
                game.board, text, bool(session.ivariables["movecase"]), session.variables["promote"]
            )
        except IllegalMoveError:
            reason = illegal_reason(game.board, text) or IllegalMoveReason.ILLEGAL
            self._illegal(game, session, text, reason, f"Illegal move ({text}).", batch)
            return None

    @staticmethod
    def premove_allowed(game: Game, session: User) -> bool:
        """Whether a move ``session`` sends on the opponent's turn is kept as a premove:
        it set ``iset premove 1`` and the game has a clock (an untimed game gains nothing
        from it, and DG_DISABLE_PREMOVE tells ICC clients so at its start)."""
        return bool(session.ivariables["premove"]) and not game.terms.untimed

    def _play_premove(self, game: Game, batch: Batch) -> None:
        """The side to move had a premove waiting: play it now, charging no time (the
        turn has just begun), as FICS plays one; a premove that is not legal in this
        position is dropped with the words and DG_ILLEGAL_MOVE of any illegal move."""
        if self.by_number.get(game.number) is not game or game.paused:
            return
        color = game.board.turn
        text = game.premoves.pop(color, None)
        if text is None:
            return
        session = game.player(color)
        move = self._typed_move(game, session, text, batch)
        if move is None:
            return
        self.decline_requests(game, color, batch)
        clock = game.clock_ms[color] + game.increment_ms(color)
        passed = self._push(game, move, 0, clock)
        self._after_move(game, batch, passed, 0 if session.timeseal else None)

    @staticmethod
    def _charged(game: Game, session: User, color: bool) -> int:
        """The time the mover's clock is charged for this move: the server's measure, or a
        timeseal client's own (from the board reaching it to its move, by its timestamps),
        which takes the network's delay off, as FICS does; but never more than
        :data:`MAX_LAG_CREDIT_MS` off, so a client lying about its time gains little."""
        server_used = game.clock_ms[color] - game.clock_now(color)
        started = game.turn_stamp.get(color)
        moved = session.line_stamp if isinstance(session, Session) else None
        if started is None or moved is None:
            return server_used
        credit = server_used - elapsed(started, moved)
        return server_used - min(max(credit, 0), MAX_LAG_CREDIT_MS)

    def _stamp_turn(self, game: Game, batch: Batch) -> None:
        """The player to move, if it speaks timeseal, gets a ``[G]`` after the board: its
        answer carries its own time of the turn's start."""
        color, ply = game.board.turn, len(game.moves)
        game.turn_stamp.pop(color, None)
        mover = game.player(color)
        if not mover.timeseal:
            return

        def answered(stamp: int) -> None:
            if len(game.moves) == ply and game.board.turn == color:  # not a stale answer
                game.turn_stamp[color] = stamp

        if isinstance(mover, Session):
            ping = mover.timeseal_ping(answered)
        else:  # a replica: its own node's connection gets the answer, and drops it
            ping = PING2 if mover.timeseal == 2 else PING
        batch.add(mover, Raw(ping))

    @staticmethod
    def _grace(game: Game) -> int:
        """How far past zero a timeseal player's clock may look on the server before the
        flag falls: its move may be on the way, and its own clock decides."""
        return MAX_LAG_CREDIT_MS if game.player(game.board.turn).timeseal else 0

    def flag_fell(self, game: Game) -> bool:
        """Whether the side to move is out of time (never in an untimed game)."""
        if game.terms.untimed:
            return False
        return game.clock_now(game.board.turn) + self._grace(game) <= 0

    def _push(self, game: Game, move: chess.Move, used: int, clock: int) -> chess.Piece | None:
        """Play ``move``; in bughouse, the piece it captures joins the partner board's
        holding of its colour (FICS help ``bughouse``), and is returned."""
        board = game.board
        partner = game.partner
        passed = passed_piece(board, move) if partner is not None else None
        # played, and its notations: a pawn plunk is P@e4, as FICS has it
        san, smith, verbose = push_with_notations(board, move)
        mover = not board.turn
        game.clock_ms[mover] = clock
        game.moves.append(ServerMove(move, san, smith, used, clock, verbose))
        game.last_move_time_ms = used
        game.turn_started = time.monotonic()
        self.save_progress(game)
        if partner is not None and passed is not None:
            partner.board.pockets[passed.color].add(passed.piece_type)  # type: ignore[attr-defined]
        return passed

    def _after_move(
        self,
        game: Game,
        batch: Batch,
        passed: chess.Piece | None = None,
        lag_ms: int | None = None,
    ) -> None:
        """Everybody at the table is told the move (:class:`MovePlayed`); ``lag_ms`` is
        the time charged to a mover with timestamping."""
        move = game.moves[-1]
        played = MovePlayed(
            game.position(), move.san, move.smith, move.time_ms, move.clock_ms,
            IsVariation.MOVE_PLAYED, lag_ms,
        )  # fmt: skip
        batch.add_all(self._move_audience(game), played)
        partner = game.partner
        if partner is not None and passed is not None:
            board = partner.board
            told = PiecePassed(
                partner.number, holding_text(board, WHITE), holding_text(board, BLACK),
                COLOR_LETTER[passed.color], passed.symbol().upper(),
            )  # fmt: skip
            batch.add_all(partner.audience(), told)
        over = ending(game.board)
        if over is not None:
            self.end(game, over.status, over.mode, over.color, batch, over.text)
        else:
            self._arm_timer(game)
            self._stamp_turn(game, batch)

    def _move_audience(self, game: Game) -> list[User]:
        """Who is told a move: everybody at the table, but a FICS player seated at
        another of his games (a simul's giver away from this board), who gets this board
        when he comes to it (lasker's ``send_boards``). An ICC session keeps every game
        it plays by number (DG_SEND_MOVES), and is told every move."""
        audience = list(game.audience())
        for player in game.players:
            seat = self.by_player.get(player)
            if seat is not None and seat is not game and not player.talks_icc:
                audience.remove(player)
        return audience

    def _illegal(
        self, game: Game, session: User, text: str, reason: int, said: str, batch: Batch
    ) -> None:
        batch.command_cn(CN.SCN_ILLEGAL_MOVE)  # Appendix 1's code for an illegal move
        record = dg.IllegalMove(game.number, text.split(" ")[0][:20], reason)
        batch.add(session, lines(said))
        batch.add(session, Datagram(record))

    def take_back(self, game: Game, plies: int, batch: Batch) -> None:
        """Both players agreed: the last ``plies`` moves are gone (DG_TAKEBACK, 22)."""
        del game.moves[-plies:]
        game.premoves.clear()
        board = game.start.copy(stack=False)
        for played in game.moves:
            board.push(played.move)
        game.board = board
        game.turn_started = time.monotonic()
        self.save_progress(game)
        batch.add_all(game.audience(), TakenBack(game.position(), plies))
        self._arm_timer(game)
        self._stamp_turn(game, batch)

    # -- requests (FICS's numbered offers, iset pendinfo) --------------------------------

    def decline_requests(self, game: Game, color: bool, batch: Batch) -> None:
        """The requests made to ``color`` are declined, as FICS says it when its player
        moves or accepts another request (pending.c)."""
        for (kind, asker), offer in list(game.requests.items()):
            if asker == color:
                continue
            self.drop_request(game, offer, batch)
            me, other = game.player(color), game.player(asker)
            batch.add(me, lines(f"You decline the {KINDS[kind].noun} from {other.name}."))
            said = RequestAnswered(game.number, me.name, other.name, "declines", kind)
            batch.add_all([other, *game.observers], said)

    def drop_request(self, game: Game, offer: Offer, batch: Batch) -> None:
        """``offer`` is no longer standing in ``game`` (``<pr>`` to both players)."""
        for key, standing in list(game.requests.items()):
            if standing is offer:
                del game.requests[key]
        self.core.state(Offers).close(offer, batch)

    # -- pausing and switching sides (both players agreed) ------------------------------

    def _clocks_changed(self, game: Game, batch: Batch) -> None:
        """DG_MSEC of both clocks (running or not) and the board, to the table."""
        batch.add_all(game.audience(), ClocksChanged(game.position()))

    def pause(self, game: Game, batch: Batch) -> None:
        """Stop both clocks where they are (FICS help ``pause``)."""
        turn = game.board.turn
        game.clock_ms[turn] = game.clock_now(turn)
        game.paused = True
        if game.timer is not None:
            game.timer.cancel()
        self._clocks_changed(game, batch)

    def unpause(self, game: Game, batch: Batch) -> None:
        """The side to move's clock runs again from where it stopped."""
        game.paused = False
        game.turn_started = time.monotonic()
        game.turn_stamp.pop(game.board.turn, None)
        self._clocks_changed(game, batch)
        self._arm_timer(game)
        self._stamp_turn(game, batch)

    def switch(self, game: Game, batch: Batch) -> None:
        """The players change colours before the first move: the clocks stay with the
        colours and White's starts again; the table is told the game changed
        (DG_MY_GAME_CHANGE, :class:`GameChanged`) and each player its new colour, then the
        clocks and the board; the stored game records who plays which colour."""
        game.white, game.black = game.black, game.white
        game.white_rating, game.black_rating = game.black_rating, game.white_rating
        game.premoves.clear()
        game.turn_started = time.monotonic()
        game.turn_stamp.clear()
        for offer in list(game.requests.values()):
            self.drop_request(game, offer, batch)
        if game.game_id is None:
            raise RuntimeError("the game is not stored yet")
        write = jobs.seat(
            game.game_id, game.white.name, game.black.name, game.white_rating,
            game.black_rating,
        )  # fmt: skip
        self.core.writes.put_write(
            write,
            f"game {game.game_id}: {game.white.name} now White, {game.black.name} Black",
            concerns=game.player_names(),
        )
        batch.add_all(game.audience(), GameChanged(game.header(), game.history()))
        self._clocks_changed(game, batch)
        self._arm_timer(game)
        self._stamp_turn(game, batch)

    # -- a player at several boards (a simul's giver) -----------------------------------

    def seat(self, session: User, table: Table, batch: Batch) -> None:
        """Put ``session``, who plays ``table`` among others, at its board: his moves and
        game commands go there (lasker's ``player_goto_board``); DG_STATE ``S``."""
        game = self.by_number.get(table.number)
        if game is not table or game is None or game.color_of(session) is None:
            raise ValueError(f"{session.name} does not play game {table.number}")
        self.by_player[session] = game
        for other in self.by_number.values():
            if other is game:
                other.away.discard(session)
            elif other.color_of(session) is not None:
                other.away.add(session)
        session.state, session.state_game = "S", game.number
        self.core.world.state_changed(session, batch)

    def end_game(self, table: Table, status: int, mode: int, color: bool, batch: Batch) -> None:
        """End ``table`` with DG_GAMELIST_ITEM's status and mode (``color``: the side that
        acted), as :meth:`end` does."""
        game = self.by_number.get(table.number)
        if game is not None and game is table:
            self.end(game, status, mode, color, batch)

    def score_of(self, table: Table) -> str:
        """A played game's result (``*`` while it goes on)."""
        return table.score if isinstance(table, Game) else "*"

    def rearm(self, game: Game) -> None:
        """The clocks changed (moretime): the flag timer follows."""
        self._arm_timer(game)

    def player_gone(self, session: User, batch: Batch) -> None:
        """A player's connection went away: two registered players' game is adjourned;
        otherwise it is aborted before move 2 and forfeited after."""
        game = self.by_player.get(session)
        if game is None:
            return
        color = game.color_of(session)
        if color is None:
            raise RuntimeError("not a player of this game")
        if game.white.registered and game.black.registered and game.partner is None:
            # a bughouse game is never adjourned
            self.end(game, ResultStatus.ADJOURNED, AdjournMode.DISCONNECTED, color, batch)
        elif len(game.moves) < 2:
            self.end(game, ResultStatus.ABORTED, AbortMode.DISCONNECTED, color, batch)
        else:
            gone = WinMode.DISCONNECTED if session.registered else WinMode.GUEST_DISCONNECTED
            self.end(game, ResultStatus.WIN, gone, color, batch)

    # -- time ------------------------------------------------------------------------

    def _arm_timer(self, game: Game) -> None:
        """The flag timer fires when the side to move runs out. A timer still to come
        that fires no later stays (most moves leave the other clock with about as much
        time): it finds the flag up and arms again."""
        if game.terms.untimed:  # no clock runs: no flag falls
            return
        left = game.clock_now(game.board.turn) + self._grace(game)
        loop = asyncio.get_running_loop()
        when = loop.time() + max(left, 0) / 1000 + 0.001
        timer = game.timer
        if timer is not None:
            if not timer.cancelled() and timer.when() <= when:
                return
            timer.cancel()
        game.timer = loop.call_at(when, self._timer_fired, game)

    def _timer_fired(self, game: Game) -> None:
        game.timer = None  # it is the game's timer that fires: no other is waiting
        if self.by_number.get(game.number) is not game or self.core.stopping or game.paused:
            return
        if not self.flag_fell(game):
            self._arm_timer(game)
            return
        if not game.player(not game.board.turn).variables["autoflag"]:
            return  # ``set autoflag 0``: the opponent calls ``flag`` himself
        batch = Batch(CN.SCN_TIMEOUT, None)
        self.out_of_time(game, batch)
        batch.flush()

    def out_of_time(self, game: Game, batch: Batch) -> None:
        """The side to move has no time left: it loses, or draws if the other side cannot
        mate (DG_GAMELIST_ITEM status 0 mode 2, or status 1 mode 4).

        Before the result, players and observers get the final board again, as FICS sends
        it at a time forfeit (the flagged side's clock at or below zero): the loser's move
        may be on its way, already on its own board (XBoard plays its engine's move there
        when it sends it), and only a board behind that makes it take the move back before
        it saves the game."""
        loser = game.board.turn
        batch.add_all(game.audience(), BoardShown(game.position()))
        if game.board.has_insufficient_material(not loser):
            self.end(game, ResultStatus.DRAW, DrawMode.TIME_AND_NO_MATERIAL, loser, batch)
        else:
            self.end(game, ResultStatus.WIN, WinMode.FORFEITS_ON_TIME, loser, batch)

    # -- ending ------------------------------------------------------------------------

    def end(
        self,
        game: Game,
        status: int,
        mode: int,
        color: bool,
        batch: Batch,
        text: str | None = None,
        store: bool = True,
    ) -> None:
        """End ``game`` with DG_GAMELIST_ITEM's status/mode; ``color`` is the side that
        lost or acted; ``text`` the description in White/Black words, when not the
        table's (a variant's win). Tells everybody, stores the game (unless ``store`` is
        False: the database has its end already), updates ratings."""
        if self.by_number.get(game.number) is not game:
            return
        if game.timer is not None:
            game.timer.cancel()
        for color_side in (WHITE, BLACK):
            game.clock_ms[color_side] = game.clock_now(color_side)
        result = describe_result(status, mode, 1 if color == WHITE else 0)
        description = _named(text if text is not None else result.text, game)
        score = game.score = _score(status, color)
        audience = list(game.audience())
        names = tuple(dict.fromkeys([s.name for s in audience]))
        adjusted = game.terms.rated and status in (ResultStatus.WIN, ResultStatus.DRAW)
        eco = eco_code(board_opening(game.board, game.terms.game_variant))
        ended = GameEnded(
            game.number,
            game.white.name,
            game.black.name,
            result.code,
            score,
            description,
            names,
            adjusted,
            eco,
            _mamer_info(game),
        )
        batch.add_all(audience, ended)
        game.result_text = description
        if not game.private:  # those who list games or read every result
            seated = set(audience)
            listening = [
                s
                for s in self.core.world.online.values()
                if s not in seated
                and (DG.GAME_RESULT in s.level2 or s.variables["gin"] or s.ivariables["allresults"])
            ]
            batch.add_all(listening, ended)
        world, terms, game_id = self.core.world, game.terms, game.game_id or 0
        tourney_ended(world, game_id, game.players, terms, game.private, status, score, batch)
        del self.by_number[game.number]
        for offer in list(game.requests.values()):
            self.drop_request(game, offer, batch)
        for player in game.players:
            if self.by_player.get(player) is game:
                del self.by_player[player]
                player.state, player.state_game = "X", 0
                self.core.world.state_changed(player, batch)
        for player in game.players:
            if player in self.core.world.online.values() and player.variables["open"]:
                self.core.world.availability_changed(player, True, batch, self.by_player.keys())
        self.core.registry.table_ended(game, batch)
        if store:
            self._store_end(game, status, mode, color, eco)
        partner = game.partner
        if partner is not None and self.by_number.get(partner.number) is partner:
            # the partnership's result on the other board, where partners' colours swap
            self.end(partner, *partner_result(status, mode), not color, batch, store=store)

    def adjourned_by_cluster(self, batch: Batch) -> None:
        """This node of a cluster was declared dead (docs/cluster.md, "Failure"): the
        cluster adjourned its games in the database (a bughouse board: aborted). Each ends
        here as the cluster ended it, told as the other nodes told it; nothing is stored."""
        for game in list(self.by_number.values()):
            if game.partner is not None:
                self.end(game, ResultStatus.ABORTED, AbortMode.SHUTDOWN, WHITE, batch, store=False)
            else:
                status, mode = ResultStatus.ADJOURNED, AdjournMode.SHUTDOWN
                self.end(game, status, mode, WHITE, batch, LOST_WITH_ITS_SERVER, store=False)

    def _store_end(self, game: Game, status: int, mode: int, color: bool, eco: str) -> None:
        """Queue the end: the final moves, the result, the ECO code and (rated) both
        ratings in one transaction; the rating changes are announced once it is written."""
        if game.game_id is None:
            raise RuntimeError("the game is not stored yet")
        final = game.record()
        clocks = game.clock_ms[WHITE], game.clock_ms[BLACK]
        loser = 1 if color == WHITE else 0
        score = _score(status, color)
        write = jobs.finish(
            game.game_id, status, mode, loser, score, eco, *clocks, final, game.terms.rated
        )
        self.core.writes.put_write(
            write,
            f"the end of game {game.game_id} ({game.white.name} vs. {game.black.name},"
            f" {score}, {len(final.moves)} plies)",
            concerns=game.player_names(),
            done=lambda changes: announce_ratings(self.core, game, changes),
        )


def game_info_line(game: Game) -> str:
    """``<g1>`` (FICS help ``iv_gameinfo``) in the form FICS sends: ``it=`` White's initial
    seconds and increment, ``i=`` Black's (FatICS found FICS's fields so, against the help
    file's wording), then ``m=2 n=0``. ``u=`` 1 for a registered player, ``rt=`` the ratings
    with ``P`` when provisional, ``ts=`` whether each player's client uses timeseal."""
    t = game.terms

    def rating(player: User, value: int) -> tuple[int, str]:
        note = player.ratings.get(t.rating_type, (0, 0))[1] if player.registered else 0
        return value, "" if note == 2 else "P"

    white_time, black_time = t.time_of(WHITE), t.time_of(BLACK)
    record = GameInfo(
        game.number,
        game.private,
        t.fics_type,
        t.rated,
        (game.white.registered, game.black.registered),
        (white_time[0] * 60, white_time[1]),
        (black_time[0] * 60, black_time[1]),
        game.partner.number if game.partner is not None else 0,
        (rating(game.white, game.white_rating), rating(game.black, game.black_rating)),
        (
            bool(getattr(game.white, "timeseal", False)),
            bool(getattr(game.black, "timeseal", False)),
        ),
        ("m=2", "n=0"),
    )
    return format_game_info(record)


def _named(text: str, game: Game) -> str:
    """The table's words White and Black as the players' names (FICS's way)."""
    return re.sub(
        r"\b(White|Black)\b",
        lambda m: game.white.name if m[1] == "White" else game.black.name,
        text,
    )


def _score(status: int, loser: bool) -> str:
    if status == ResultStatus.WIN:
        return "0-1" if loser == WHITE else "1-0"
    if status == ResultStatus.DRAW:
        return "1/2-1/2"
    return "*"
