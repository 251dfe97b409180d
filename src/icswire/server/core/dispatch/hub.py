"""What every feature is handed, and where it plugs in.

:class:`Core` is the world (who is online), the store (the database), the tables (the
games being played or examined), the :class:`Registry` of commands and hooks, each
feature's own state, and the one service a feature offers the others: playing games
(:class:`PlayService`, provided by ``features.play``, used by pairing, watching and
examine). A command handler gets a :class:`Context`: the core, who typed the command, and
the output of that command.

A feature never imports a sibling feature or the app. What it must hear of another
feature's doing comes through a hook here; what it must ask of another feature goes
through a typed service on :class:`~icswire.server.core.dispatch.hub.Core` (``core.play``).

Hooks, in the order features were installed:

- ``arrived(session, batch)``: a user has logged in and been greeted;
- ``left(session)``: a user's connection is gone (each feature tells others itself);
- ``dg_on(session, number, batch)``: DG ``number`` was turned on, with ``set-2`` or at
  login: send the list section 4 says comes with it;
- ``game_started(table, batch)``: a game began, played or examined (after its players
  or examiner were told); ``game_ended(table, batch)``: a played game ended;
- ``moves(session, text, batch) -> bool``: a line that looks like a move; the first
  feature that takes it (the mover plays or examines a game) returns True;
- ``variable_set(session, name, value, batch, interface)``: ``set`` (``interface``
  False) or ``iset`` (True) changed a variable; a feature sends what turning it on brings
  (``iset seekinfo 1``: the seeks; ``iset pendinfo 1``: the offers);
- ``starting()``, awaited: the server owns its database and its port and is about to
  accept connections; a feature reads what it keeps in memory (news: how many items).
"""

from __future__ import annotations

import asyncio
import enum
import functools
import logging
import time
from collections.abc import Awaitable, Callable, Coroutine, Iterable, Iterator, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol, TypeVar, cast

from icswire.protocol.level1 import CommandNumber as CN
from icswire.server.core.dispatch.aliases import FICS_NAMES, SYSTEM_ALIASES
from icswire.server.core.dispatch.paging import first_page
from icswire.server.core.model.claims import Claims
from icswire.server.core.model.tables import Table, Tables, Terms
from icswire.server.core.model.variables import Value
from icswire.server.core.model.world import World
from icswire.server.core.net.limits import RATE_KINDS, Bucket, Limits, seconds_text
from icswire.server.core.net.mail import Mailer
from icswire.server.core.render.batch import Batch, lines
from icswire.server.core.storage import jobs
from icswire.server.core.storage.writes import WriteQueue

if TYPE_CHECKING:
    import chess

    from icswire.server.core.model.users import User
    from icswire.server.core.storage.records import GameRecord
    from icswire.server.core.storage.store import Store

log = logging.getLogger("icswire.server")

State = TypeVar("State")
Result = TypeVar("Result")
#: Threads that hash and check passwords (see :meth:`Core.password_work`).
PASSWORD_WORKERS = 2
Handler = Callable[["Context", str], Awaitable[None]]


# -- commands --------------------------------------------------------------------------------


class Route(enum.Flag):
    """Where a command runs in a cluster (``cluster.routes`` finds the node).

    A command runs where it is typed (:attr:`HERE`) unless what it acts on lives on one
    other node. A command may name several routes: they are tried in the order below, and
    the first that applies decides; where it finds no other node that is alive, the
    command runs here."""

    #: Where it is typed: talking, lists, variables, ``who``, history, examining...
    HERE = 0
    #: The game named by the first word (a number, or a player who plays or examines
    #: one), on that game's node; applies when there is a first word.
    OF_A_GAME = enum.auto()
    #: The game its issuer plays or examines; applies when that game is on another node
    #: that is alive.
    IN_GAME = enum.auto()
    #: The game(s) its issuer observes, when they are all on one node; always applies.
    OBSERVED_GAME = enum.auto()
    #: The node of the player the first word names (the offer or the game it makes
    #: lives with the one who answers it); applies when there is a first word.
    TO_A_PLAYER = enum.auto()
    #: The node of the seek the first word numbers; applies when it is a number.
    TO_A_SEEK = enum.auto()


@dataclass(frozen=True)
class Command:
    name: str
    cn: int
    handler: Handler
    usage: str
    #: Only administrators have it; to everybody else it does not exist (FICS's way).
    admin: bool = False
    #: Where it runs in a cluster.
    route: Route = Route.HERE
    #: The level 1 number of the command typed without arguments, where Appendix 1 has
    #: one ("CN_FOLLOW0 is for follow with no arguments. Similarly CN_OBSERVE0 etc.").
    bare_cn: int | None = None

    def cn_for(self, args: str) -> int:
        """The level 1 command number of this command run with ``args``."""
        return self.bare_cn if self.bare_cn is not None and not args.strip() else self.cn


class CommandSet:
    """The commands of one feature, declared with :meth:`command` as a decorator."""

    def __init__(self) -> None:
        self._commands: list[Command] = []

    def command(
        self,
        name: str,
        cn: int,
        usage: str,
        admin: bool = False,
        route: Route = Route.HERE,
        bare_cn: int | None = None,
    ) -> Callable[[Handler], Handler]:
        def register(handler: Handler) -> Handler:
            self._commands.append(Command(name, cn, handler, usage, admin, route, bare_cn))
            return handler

        return register

    def __iter__(self) -> Iterator[Command]:
        return iter(self._commands)


# -- the registry ----------------------------------------------------------------------------


#: How many of :meth:`Registry.find_command`'s answers it keeps (the words users type are
#: theirs to choose: the memory they take is bounded).
FOUND_KEPT = 4096

SessionHook = Callable[["User", "Batch"], None]
LeftHook = Callable[["User"], None]
DatagramHook = Callable[["User", int, "Batch"], None]
TableHook = Callable[["Table", "Batch"], None]
MoveTaker = Callable[["User", str, "Batch"], bool]
VariableHook = Callable[["User", str, Value, "Batch", bool], None]
StartingHook = Callable[[], Awaitable[None]]


@dataclass
class Registry:
    """Commands by name, and the hooks features asked for."""

    commands: dict[str, Command] = field(default_factory=dict)
    arrived: list[SessionHook] = field(default_factory=list)
    left: list[LeftHook] = field(default_factory=list)
    dg_on: list[DatagramHook] = field(default_factory=list)
    game_started: list[TableHook] = field(default_factory=list)
    game_ended: list[TableHook] = field(default_factory=list)
    moves: list[MoveTaker] = field(default_factory=list)
    variable_set: list[VariableHook] = field(default_factory=list)
    starting: list[StartingHook] = field(default_factory=list)
    #: :meth:`find_command`'s answers by (word, admin), for the words typed most (a move
    #: such as ``e2e4`` is looked up as a command on every line): forgotten when commands
    #: are added, or when it holds :data:`FOUND_KEPT` of them.
    _found: dict[tuple[str, bool], Command | tuple[str, ...]] = field(
        default_factory=dict, repr=False
    )

    def add_commands(self, commands: Iterable[Command]) -> None:
        self._found.clear()
        for command in commands:
            if command.name in self.commands:
                raise ValueError(f"two features define the command {command.name!r}")
            self.commands[command.name] = command

    def words(self) -> frozenset[str]:
        """Every command name, FICS's name and system alias (names nobody may log in as)."""
        return frozenset((*self.commands, *SYSTEM_ALIASES, *FICS_NAMES))

    def find_command(self, word: str, admin: bool = False) -> Command | list[str]:
        """The command ``word`` names, or the (possibly empty) list of commands it could be.

        Administrators' commands are found only with ``admin``: for anybody else they do not
        exist, not even as a prefix's match."""
        key = word, admin
        found = self._found.get(key)
        if found is None:
            found = self._find_command(word, admin)
            if len(self._found) >= FOUND_KEPT:
                self._found.clear()
            self._found[key] = found
        return found if isinstance(found, Command) else list(found)

    def _find_command(self, word: str, admin: bool) -> Command | tuple[str, ...]:
        """The command ``word`` names exactly (its name or FICS's), else the one command
        it begins the name of (FICS's names count: ``var`` is ``vars``, as ``variables``)."""
        word = word.lower()
        word = FICS_NAMES.get(word, word) if word not in self.commands else word
        found = self.commands.get(word)
        if found is not None and (admin or not found.admin):
            return found
        names = [*self.commands.items()]
        names += [
            (fics, self.commands[ours])
            for fics, ours in FICS_NAMES.items()
            if ours in self.commands
        ]
        matches = sorted(
            {
                command.name
                for name, command in names
                if name.startswith(word) and (admin or not command.admin)
            }
        )
        return self.commands[matches[0]] if len(matches) == 1 else tuple(matches)

    def visible(self, admin: bool = False) -> list[Command]:
        """The commands a user sees (an administrator sees every one), sorted by name."""
        return sorted(
            (command for command in self.commands.values() if admin or not command.admin),
            key=lambda command: command.name,
        )

    # -- calling the hooks -------------------------------------------------------------

    def player_arrived(self, session: User, batch: Batch) -> None:
        for hook in self.arrived:
            hook(session, batch)

    def player_left(self, session: User) -> None:
        for hook in self.left:
            hook(session)

    def datagram_on(self, session: User, number: int, batch: Batch) -> None:
        for hook in self.dg_on:
            hook(session, number, batch)

    def table_started(self, table: Table, batch: Batch) -> None:
        for hook in self.game_started:
            hook(table, batch)

    def table_ended(self, table: Table, batch: Batch) -> None:
        for hook in self.game_ended:
            hook(table, batch)

    def take_move(self, session: User, text: str, batch: Batch) -> bool:
        return any(taker(session, text, batch) for taker in self.moves)

    async def server_starting(self) -> None:
        for hook in self.starting:
            await hook()

    def variable_changed(
        self, session: User, name: str, value: Value, batch: Batch, interface: bool
    ) -> None:
        for hook in self.variable_set:
            hook(session, name, value, batch, interface)


# -- the core --------------------------------------------------------------------------------


class PlayService(Protocol):
    """Playing games, as other features ask for it."""

    @property
    def by_player(self) -> Mapping[User, Table]:
        """The game each player plays."""
        ...

    async def start(
        self,
        white: User,
        black: User,
        terms: Terms,
        batch: Batch,
        start: chess.Board | None = None,
        resumed: GameRecord | None = None,
    ) -> Table:
        """Create a game, tell the players and those who list games, start the clock.

        The game is stored first; when it cannot be, it does not start: both players are
        told and StoreUnavailable is raised."""
        ...

    async def start_bughouse(
        self,
        first: tuple[User, User],
        second: tuple[User, User],
        terms: Terms,
        batch: Batch,
    ) -> tuple[Table, Table]:
        """Create the two linked boards of a bughouse game ((white, black) of each) and
        start both; StoreUnavailable (neither starts) when they cannot be stored."""
        ...

    def player_gone(self, session: User, batch: Batch) -> None:
        """``session``'s connection went away: its game ends as its terms say."""
        ...

    def busy(self, session: User) -> bool:
        """Whether ``session`` plays a game or one is being created for it."""
        ...

    def seat(self, session: User, table: Table, batch: Batch) -> None:
        """Put ``session``, who plays ``table`` among other games (a simul's giver), at
        its board: his moves and game commands go there; DG_STATE ``S``."""
        ...

    def end_game(self, table: Table, status: int, mode: int, color: bool, batch: Batch) -> None:
        """End the played game ``table`` (DG_GAMELIST_ITEM's status and mode; ``color``
        the side that lost or acted): everybody told, stored."""
        ...

    def score_of(self, table: Table) -> str:
        """A played game's result: ``1-0``, ``0-1``, ``1/2-1/2``, ``*`` (unfinished)."""
        ...

    def adjourned_by_cluster(self, batch: Batch) -> None:
        """This node of a cluster was declared dead: its games end as the cluster ended
        them in the database (adjourned), the players and observers told, nothing stored."""
        ...

    async def flush(self) -> None:
        """Wait until every game's moves and results are stored; StoreUnavailable when the
        database does not answer (they are kept, and stored once it does)."""
        ...


@dataclass(eq=False)
class Core:
    """The parts of the server that know no command, shared by every feature.

    ``writes`` is where everything that must be stored goes (see
    :mod:`~icswire.server.core.storage.writes`): in order, retried until the database takes it.
    """

    store: Store
    world: World = field(default_factory=World)
    tables: Tables = field(default_factory=Tables)
    registry: Registry = field(default_factory=Registry)
    #: What a connection, an address and a user may do (timeouts, caps, rates).
    limits: Limits = field(default_factory=Limits)
    #: Seconds a receiver may stay over the output limit before it is cut off.
    stuck_after: float = 30.0
    #: True while the server shuts down: nobody is told who leaves, no game ends.
    stopping: bool = False
    #: Whether guests may register themselves (``icswire serve --open-registration``).
    open_registration: bool = False
    #: The SMTP relay mail goes through (``icswire serve --smtp-relay``); None: no mail.
    mailer: Mailer | None = None
    #: Seek indexes are unique in a whole cluster (game numbers: ``tables.claims``).
    seek_claims: Claims[int] = field(default_factory=Claims)
    #: So are the guest names the server gives (by name key).
    guest_claims: Claims[str] = field(default_factory=Claims)
    _play: PlayService | None = None
    _states: dict[type[Any], Any] = field(default_factory=dict)
    _background: set[asyncio.Task[Any]] = field(default_factory=set)
    _password_pool: ThreadPoolExecutor = field(
        default_factory=lambda: ThreadPoolExecutor(PASSWORD_WORKERS, "icswire-passwords")
    )
    writes: WriteQueue = field(init=False)

    def __post_init__(self) -> None:
        self.writes = WriteQueue(self.tell, self.store)

    def tell(self, name_keys: Iterable[str], text: str) -> None:
        """Say ``text`` to each of these users who is online (a notice of the server)."""
        batch = Batch(CN.SCN_AUTOMATIC, None)
        said = lines(text)
        for key in name_keys:
            session = self.world.online.get(key)
            if session is not None:
                batch.add(session, said)
        batch.flush()

    async def password_work(self, call: Callable[..., Result], *args: Any) -> Result:
        """Run a password hash or check (``store.check_password``, ``store.set_password``,
        ``store.add_user``) on threads of its own. An argon2id hash holds 64 MiB for a
        tenth of a second or more: on asyncio's default pool, a wave of logins would take
        every thread, and the database calls of everybody else would wait behind them."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._password_pool, functools.partial(call, *args))

    def close(self) -> None:
        """Let the password threads go (the server has stopped)."""
        self._password_pool.shutdown(wait=False, cancel_futures=True)

    @property
    def play(self) -> PlayService:
        """Playing games (``features.play`` provides it when the app installs it)."""
        if self._play is None:
            raise RuntimeError("no feature provides playing games")
        return self._play

    def provide_play(self, service: PlayService) -> None:
        self._play = service

    def state(self, kind: type[State]) -> State:
        """A feature's own state: the one :meth:`keep` was given, or ``kind()`` made on
        first use. One per server."""
        found = self._states.get(kind)
        if found is None:
            found = self._states[kind] = kind()
        return cast(State, found)

    def keep(self, state: object) -> None:
        """Keep a feature's state object made with arguments (found by its type)."""
        self._states[type(state)] = state

    def spawn(self, work: Coroutine[Any, Any, None]) -> None:
        """Run ``work`` in the background, keeping it referenced until it is done; an
        exception it raises is logged (never left unretrieved in the task)."""
        task = asyncio.get_running_loop().create_task(work)
        self._background.add(task)
        task.add_done_callback(self._background_done)

    def _background_done(self, task: asyncio.Task[Any]) -> None:
        self._background.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("background work failed", exc_info=task.exception())


@dataclass
class Context:
    """What a command handler works with: who typed it, the output of this command, and
    the core (the world, the store, the games, the features' state)."""

    core: Core
    session: User
    batch: Batch
    command: str

    @property
    def world(self) -> World:
        return self.core.world

    @property
    def store(self) -> Store:
        return self.core.store

    def reply(self, *text: str) -> None:
        self.batch.reply(*text)

    def page(self, *text: str) -> int:
        """Reply with long text a page at a time (``set height``; ``next`` goes on).
        Returns how many of its lines are on this page."""
        page = first_page(self.session, list(text))
        self.batch.reply(*page)
        return len(text) - len(self.session.more)

    async def run(self, name: str, args: str) -> None:
        """Run the command ``name`` with ``args`` into this command's output, as lasker's
        ``pcommand`` does (``prefresh`` is ``refresh PARTNER``): a feature uses another's
        command through the registry, never by importing it."""
        found = self.core.registry.commands[name]
        await found.handler(Context(self.core, self.session, self.batch, name), args)

    def too_fast(self, kind: str) -> bool:
        """Has the user used up its rate of ``kind`` (a token bucket per user and kind,
        :attr:`Limits.rates <icswire.server.core.net.limits.Limits.rates>`)? Then it is told
        to slow down and True is returned; else the action is counted."""
        rate = self.core.limits.rates.get(kind)
        if rate is None:
            return False
        now = time.monotonic()
        bucket = self.session.buckets.setdefault(kind, Bucket(rate.burst, now))
        wait = bucket.take(rate, now)
        if wait <= 0:
            return False
        self.reply(
            f"You are sending {RATE_KINDS[kind]} too fast; please wait {seconds_text(wait)}."
        )
        return True

    def save(self, method: str, *args: Any) -> None:
        """Keep a registered user's change in the database (guests keep nothing): the
        store's ``method(name, *args)``, queued in ``core.writes``, so it is kept and
        retried while the database does not answer."""
        if self.session.registered:
            name = self.session.name
            write = jobs.account(method, name, *args)
            self.core.writes.put_write(write, concerns=(name,))
