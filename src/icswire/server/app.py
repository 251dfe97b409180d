"""The server: the core and the features wired together, accepting connections.

``icswire serve`` runs :func:`serve`. :class:`Server` makes the core, installs every
feature (each registers its commands and hooks), and owns start and stop. Each
connection gets a :class:`Session`; after the login dialogue its lines are run one at a
time, each as one :class:`Batch` of output.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import signal
import time

from icswire.protocol import datagrams as dg
from icswire.protocol.block import BlockCode
from icswire.protocol.level1 import CommandNumber as CN
from icswire.server.core.commands import (
    block_code,
    expand_alias,
    expand_punctuation,
    looks_like_move,
    split_block_id,
    split_tag,
    unknown,
)
from icswire.server.core.hub import Command, Context, Core
from icswire.server.core.limits import Limits
from icswire.server.core.listener import Listener
from icswire.server.core.lock import ServerLock
from icswire.server.core.names import name_key
from icswire.server.core.render import UNIT_END, Batch, Datagram, Lines, lines
from icswire.server.core.session import LINGER, Session
from icswire.server.core.store import Account, Store, StoreUnavailable
from icswire.server.core.world import World
from icswire.server.core.writes import NOT_ANSWERING
from icswire.server.features import (
    accounts,
    admin,
    chat,
    examine,
    help,
    info,
    journal,
    lists,
    messages,
    news,
    pairing,
    partners,
    people,
    play,
    registration,
    settings,
    watching,
)
from icswire.server.features.play.games import Games

log = logging.getLogger("icswire.server")
#: Connections the kernel may queue before we accept them (bursts of logins).
LISTEN_BACKLOG = 1024
#: Seconds a stopping server waits for the database to take the writes still queued.
WRITE_PATIENCE = 20.0
#: Seconds between looks at an idle player or examiner (logged out once neither).
IDLE_RECHECK = 60.0


def idle_logout(seconds: float) -> str:
    """FICS's line (``... more than 60 minutes. ****``, what clients look for)."""
    span = f"{seconds / 60:g} minutes" if seconds % 60 == 0 else f"{seconds:g} seconds"
    return f"**** Auto-logout because you were idle more than {span}. ****"


class Server:
    """An Internet Chess Server on ``host``:``port`` keeping accounts in ``store``."""

    def __init__(
        self,
        store: Store,
        host: str = "127.0.0.1",
        port: int = 5000,
        limits: Limits | None = None,
        open_registration: bool = False,
    ) -> None:
        self.host = host
        self.port = port
        self.core = core = Core(
            store, limits=limits or Limits(), open_registration=open_registration
        )
        # the order of installation is the order hooks run in: a player who leaves ends
        # his game first, then stops watching and examining, then his offers go
        self.games: Games = play.install(core)
        features = (
            info,
            help,
            people,
            settings,
            chat,
            lists,
            messages,
            watching,
            examine,
            journal,
            pairing,
            registration,
            admin,
            news,
            partners,
        )
        for feature in features:
            feature.install(core)
        #: Seconds the stop waits for queued writes (games' moves and ends, settings).
        self.write_patience = WRITE_PATIENCE
        self._listener = Listener(self._connection, core.limits, LISTEN_BACKLOG)
        self._sessions: set[Session] = set()
        self._lock: ServerLock | None = None

    @property
    def store(self) -> Store:
        return self.core.store

    @property
    def world(self) -> World:
        return self.core.world

    @property
    def connections(self) -> int:
        """Connections open now (logging in or logged in)."""
        return self._listener.connections

    @property
    def limits(self) -> Limits:
        """Timeouts, caps and rates (change them before or while serving)."""
        return self.core.limits

    @property
    def stuck_after(self) -> float:
        return self.core.stuck_after

    @stuck_after.setter
    def stuck_after(self, seconds: float) -> None:
        self.core.stuck_after = seconds

    async def start(self) -> None:
        """Take the database (:class:`ServerLock`: one server per database, else
        :class:`AlreadyServing`), take the port (OSError when it is busy), and only then
        touch the data: the games a crash or a stop interrupted are adjourned, the features
        read what they keep in memory (the ``starting`` hooks), and the connections waiting
        are accepted."""
        self._lock = await asyncio.to_thread(ServerLock.acquire, self.store.engine)
        try:
            await self._listener.bind(self.host, self.port)
            recovered = await asyncio.to_thread(self.store.interrupted_to_adjourned)
            await self.core.registry.server_starting()
        except BaseException:
            await self._listener.stop()
            self._release()
            raise
        if recovered:
            log.info("%d interrupted games are adjourned", recovered)
        self._listener.accept()
        self.port = self._listener.port
        log.info("listening on %s:%d", self.host, self.port)

    def _release(self) -> None:
        if self._lock is not None:
            self._lock.release()
            self._lock = None

    async def stop(self) -> None:
        """Stop accepting, say goodbye to everybody, close every connection, then wait up
        to :attr:`write_patience` seconds for the writes still queued (the database may not
        be answering); what is left then is logged."""
        self.core.stopping = True
        await self._listener.stop()
        for session in self._sessions:
            self.world.forget(session)  # everybody leaves at once: no goodbyes to send
            session.send_raw(b"\r\n**** The server is shutting down. ****\r\n")
        await asyncio.gather(*(session.close() for session in list(self._sessions)))
        tasks = list(self._listener.tasks)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await self.core.writes.close(self.write_patience)
        self.core.close()
        self._release()

    async def _connection(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        host, port = writer.get_extra_info("peername")[:2]
        session = Session(
            reader, writer, peer=f"{host}:{port}", host=host, stuck_after=self.stuck_after
        )
        self._sessions.add(session)
        started = time.monotonic()
        commands = 0
        try:
            account = await accounts.login(self.core, session)
            if account is not False:
                if isinstance(account, Account):
                    await accounts.load_account(self.core, session, account)
                if not self._admit(session):
                    return
                self._enter(session)
                while not session.closed:
                    line = await self._next_line(session)
                    if line is None or session.leaving:
                        break
                    await self.execute(session, line)
                    commands += 1
                    if session.leaving:
                        break
        except (ConnectionError, asyncio.CancelledError):
            pass
        finally:
            self._leave(session)
            self._sessions.discard(session)
            await session.close(linger=0 if self.core.stopping else LINGER)
            log.info(
                "%s %s %.1fs %d commands",
                session.peer,
                session.display_name if session.name else "-",
                time.monotonic() - started,
                commands,
            )

    async def _next_line(self, session: Session) -> str | None:
        """The user's next line; None when the connection is gone or the user was logged
        out for idling (no line for :attr:`Limits.idle_timeout` seconds while neither
        playing nor examining, FICS's rule)."""
        while True:
            idle = self.limits.idle_timeout
            if not idle:
                return await session.read_line()
            left = session.last_input + idle - time.monotonic()
            if left <= 0:
                if session.state not in ("P", "E"):
                    session.send_raw(f"\r\n{idle_logout(idle)}\r\n".encode())
                    return None
                left = min(idle, IDLE_RECHECK)
            with contextlib.suppress(TimeoutError):
                return await session.read_line(timeout=left)

    def _admit(self, session: Session) -> bool:
        """One session per name, checked and taken with no await in between: a registered
        user who is online already takes over (the old session leaves at once, its
        connection is closed), an unregistered name taken meanwhile is refused."""
        old = self.world.online.get(name_key(session.name))
        if old is None or old is session:
            return True
        if not session.registered:
            accounts.name_taken(session)
            return False
        accounts.take_over(session, old)
        self._leave(old)
        old.hang_up()
        return True

    def _enter(self, session: Session) -> None:
        """Greet a user who logged in, tell the others, send the lists the DGs it turned
        on at the login prompt come with."""
        session.logged_in = True
        start = lines(f"**** Starting FICS session as {session.display_name} ****")
        self.world.arrive(session, start)
        batch = Batch(CN.SCN_REALLY_LOG_IN, session)
        for number in sorted(session.level2):
            self.core.registry.datagram_on(session, number, batch)
        self.core.registry.player_arrived(session, batch)
        batch.flush()

    def _leave(self, session: Session) -> None:
        """A connection is gone: every feature lets go of it, then the others are told."""
        self.core.registry.player_left(session)
        if session.logged_in:
            session.logged_in = False
            if not self.core.stopping:
                self.world.depart(session)

    async def execute(self, session: Session, line: str) -> None:
        """Run one line the user typed, as one unit of output (one block in FICS's block
        mode, where every line begins with its identifier)."""
        text = line.strip()
        block_id: int | None = None
        if session.ivariables["block"] and not session.level1 & 1:
            block_id, text = split_block_id(text)
            if block_id is None:
                no_id = Batch(CN.SCN_BAD, session, block=(0, BlockCode.BLKCMD_ERROR_NOSEQUENCE))
                no_id.add(session, Lines(()))
                no_id.flush()
                return
        tag, text = split_tag(text)
        text = expand_alias(session.aliases, text.strip().lstrip("$").strip())
        text = expand_punctuation(text)
        word, _, args = text.partition(" ")
        if not word:
            if block_id is not None:
                nothing = Batch(CN.SCN_BAD, session, block=(block_id, BlockCode.BLKCMD_NULL))
                nothing.add(session, Lines(()))
                nothing.flush()
            elif not session.level1 & 1:
                session.send_unit(session.prompt_bytes())
            return
        registry = self.core.registry
        if looks_like_move(text.strip()):
            moved = None if block_id is None else (block_id, BlockCode.BLKCMD_GAME_MOVE)
            batch = Batch(CN.SCN_MOVE, session, tag, block=moved)
            batch.add(session, Lines(()))
            if registry.take_move(session, text.strip(), batch):
                batch.flush()
                return
        found = registry.find_command(word, admin=session.admin)
        block: tuple[int, int] | None = None
        if block_id is not None:
            code = block_code(found.name) if isinstance(found, Command) else BlockCode.BLKCMD_NULL
            block = (block_id, code)
        batch = Batch(
            found.cn if isinstance(found, Command) else CN.SCN_BAD, session, tag, block=block
        )
        batch.add(session, Lines(()))  # the issuer always gets a unit (and a prompt)
        brackets = bool(session.level1 & 2)
        if brackets:
            session.send_raw(b"\x19<")
        batch.add(session, Datagram(dg.Command(word, args.strip())))
        if isinstance(found, Command):
            try:
                await found.handler(Context(self.core, session, batch, found.name), args.strip())
            except StoreUnavailable as exc:
                log.warning("command %r of %s: %s", text, session.name, exc)
                batch.reply(NOT_ANSWERING)
            except Exception:
                log.exception("command %r of %s failed", text, session.name)
                batch.reply("Sorry, that command failed on the server.")
        else:
            batch.add(session, unknown(batch, word, found))
        self.world.listening.refresh(session)  # its settings may have changed
        batch.flush()
        if session.leaving:
            if session.level1 & 1:
                session.send_raw(UNIT_END)  # the extra ^Y] at disconnect (section 3)
        elif brackets:
            session.send_raw(b"\x19>")


async def serve(
    store: Store,
    host: str,
    port: int,
    limits: Limits | None = None,
    open_registration: bool = False,
) -> None:
    """Run a server until SIGINT or SIGTERM, then shut it down cleanly."""
    server = Server(store, host, port, limits, open_registration)
    await server.start()
    # What is loaded by now (modules, the features, the store) lives as long as the
    # process: out of the garbage collector's way, so a full collection scans the users.
    gc.freeze()
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(signum, stop.set)
    try:
        await stop.wait()
    finally:
        log.info("shutting down")
        await server.stop()
        store.close()


__all__ = ["Server", "serve"]
