"""The server: the core and the features wired together, accepting connections.

``icswire serve`` runs :func:`serve`. :class:`Server` makes the core, installs every
feature (each registers its commands and hooks), and owns start and stop. Each
connection is a :class:`Session`; the login dialogue runs in a task of its own. After
it, an idle user has no task: a line that arrives starts one, which runs the lines
waiting one at a time (in order, never two at once), each as one :class:`Batch` of
output, and ends when none is left. One sweep a second logs out who idles.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import signal
import ssl
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Protocol

from icswire.protocol import datagrams as dg
from icswire.protocol.block import BlockCode
from icswire.protocol.level1 import CommandNumber as CN
from icswire.protocol.level1 import Level1
from icswire.server.cluster.access import Access
from icswire.server.cluster.node import Cluster
from icswire.server.cluster.routes import route
from icswire.server.core.dispatch.aliases import expand_system_alias
from icswire.server.core.dispatch.commands import (
    expand_alias,
    expand_punctuation,
    split_block_id,
    split_tag,
)
from icswire.server.core.dispatch.hub import Core
from icswire.server.core.dispatch.run import dispatch
from icswire.server.core.model.names import name_key
from icswire.server.core.model.users import User
from icswire.server.core.model.world import World
from icswire.server.core.net.limits import Limits
from icswire.server.core.net.listener import Listener
from icswire.server.core.net.mail import Mailer
from icswire.server.core.net.session import LINGER, Session
from icswire.server.core.net.webfiles import web_request
from icswire.server.core.net.websocket import WebSocketListener
from icswire.server.core.render import table as _event_table  # noqa: F401 (registers how events render)
from icswire.server.core.render.batch import UNIT_END, Batch, Datagram, Lines, Message, lines
from icswire.server.core.storage.lock import ServerLock
from icswire.server.core.storage.store import Account, Store, StoreUnavailable
from icswire.server.core.storage.writelog import (
    JOURNAL_FILE,
    NODE_JOURNALS,
    JournalBusy,
    node_journal,
)
from icswire.server.features import (
    accounts,
    adjudication,
    admin,
    automail,
    chat,
    events,
    examine,
    help,
    info,
    journal,
    lists,
    logons,
    messages,
    news,
    pairing,
    partners,
    people,
    play,
    pstat,
    rankings,
    registration,
    robots,
    serverinfo,
    settings,
    simuls,
    watching,
)
from icswire.server.features.play.games import Games
from icswire.server.loops import running_loop_name

log = logging.getLogger("icswire.server")
#: Connections the kernel may queue before we accept them (bursts of logins).
LISTEN_BACKLOG = 1024
#: Seconds a stopping server waits for the database to take the writes still queued.
WRITE_PATIENCE = 20.0
#: Seconds between two sweeps over the users for who idled too long (at most; less
#: for an idle timeout under ten of them).
IDLE_SWEEP = 1.0
#: The worker threads that run the store's calls and the write queue's jobs (the loop's
#: default executor; passwords and mail have their own), by database: SQLite takes one
#: writer at a time and answers from a local file in microseconds, so one thread does;
#: a database server answers over the network, and a few calls may wait on it at once.
#: asyncio's default is the cores plus four: each thread costs memory (its allocator
#: arena, its pooled connection) and they contend for SQLite's write lock and the GIL.
#: In bench-peer's logins:400 one thread (against six) halved the memory per idle user,
#: and took a login 25% less CPU in most pairs (issue 27).
STORE_THREADS = {"sqlite": 1}
#: The threads for any other database.
SERVER_STORE_THREADS = 4


class Companion(Protocol):
    """What runs beside a server in its process (``serve --computer``'s bots): started
    once the server listens, stopped before the server stops."""

    async def start(self, server: Server) -> None: ...

    async def stop(self) -> None: ...


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
        cluster: str | None = None,
        cluster_name: str = "icswire",
        node: str | None = None,
        cluster_access: Access | None = None,
        journal_dir: Path | None = None,
        mailer: Mailer | None = None,
        ws_port: int | None = None,
        ws_host: str | None = None,
        tls: ssl.SSLContext | None = None,
    ) -> None:
        self.host = host
        self.port = port
        #: The WebSocket port (``ws://``, ``wss://`` with ``tls``; 0: one the system
        #: picks, None: none), on ``ws_host`` (default: ``host``).
        self.ws_port = ws_port
        self.ws_host = host if ws_host is None else ws_host
        #: The folder of the write journal (:mod:`~icswire.server.core.storage.writelog`),
        #: the data directory: what the server acknowledged survives a crash. None: no
        #: journal.
        self.journal_dir = journal_dir
        self.core = core = Core(
            store, limits=limits or Limits(), open_registration=open_registration, mailer=mailer
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
            logons,
            watching,
            examine,
            journal,
            pairing,
            registration,
            admin,
            news,
            partners,
            pstat,
            rankings,
            serverinfo,
            robots,
            adjudication,
            events,
            simuls,
            automail,
        )
        for feature in features:
            feature.install(core)
        #: Seconds the stop waits for queued writes (games' moves and ends, settings).
        self.write_patience = WRITE_PATIENCE
        self._listener = Listener(self._connection, core.limits, LISTEN_BACKLOG)
        self._ws_listener = WebSocketListener(
            self._connection, self._listener, web_request, ssl_context=tls
        )
        #: Every session, logging in or logged in, until it is closed.
        self._sessions: set[Session] = set()
        #: The task running a session's lines, while it has lines to run.
        self._running: dict[Session, asyncio.Task[None]] = {}
        self._on_input = self._input  # one bound method for every session
        #: The login dialogue of each connection :meth:`attach` made, while it runs.
        self._attached: set[asyncio.Task[None]] = set()
        self._sweep: asyncio.Task[None] | None = None
        self._lock: ServerLock | None = None
        #: The cluster this server is a node of (``--cluster nats://...``), or None.
        self.cluster: Cluster | None = None
        if cluster is not None:
            self.cluster = Cluster(core, cluster, cluster_name, node, access=cluster_access)
            self.cluster.run_line = self.run_line

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

    async def start(self, listen: bool = True) -> None:
        """Take the database (:class:`ServerLock`: one server per database, else
        :class:`AlreadyServing`), take the port (OSError when it is busy), and only then
        touch the data: the games a crash or a stop interrupted are adjourned, the features
        read what they keep in memory (the ``starting`` hooks), and the connections waiting
        are accepted. With ``listen`` False no port is taken: connections come only through
        :meth:`attach`."""
        if self.cluster is None:  # the nodes of a cluster share their database
            self._lock = await asyncio.to_thread(ServerLock.acquire, self.store.engine)
        try:
            if listen:
                await self._listener.bind(self.host, self.port)
                if self.ws_port is not None:
                    await self._ws_listener.bind(self.ws_host, self.ws_port)
            if self.journal_dir is not None:
                await self._replay(self.journal_dir)
            recovered = 0
            if self.cluster is not None:
                await self.cluster.start()
            if self.cluster is None or self.cluster.recovers:
                recovered = await asyncio.to_thread(self.store.interrupted_to_adjourned)
            await self.core.registry.server_starting()
        except BaseException:
            await self._listener.stop()
            self._ws_listener.stop()
            await self._ws_listener.wait_closed()
            if self.cluster is not None:
                await self.cluster.stop()
            self.core.writes.close_journal()
            self._release()
            raise
        if recovered:
            log.info("%d interrupted games are adjourned", recovered)
        self._sweep = asyncio.get_running_loop().create_task(self._idle_sweep())
        if listen:
            self._listener.accept()
            self.port = self._listener.port
            log.info("listening on %s:%d (%s)", self.host, self.port, running_loop_name())
            if self.ws_port is not None:
                await self._ws_listener.accept()
                self.ws_port = self._ws_listener.port
                scheme = "wss" if self._ws_listener.tls else "ws"
                log.info("WebSocket sessions on %s://%s:%d/", scheme, self.ws_host, self.ws_port)

    async def _replay(self, folder: Path) -> None:
        """Open the write journal and write what it kept from the last run, before any
        game is adjourned or loaded: the moves, ends and settings acknowledged then. A
        cluster's node has a journal of its own in ``folder``, and takes over the
        journals there of nodes that do not run (their writes are the cluster's)."""
        writes = self.core.writes
        if self.cluster is None:
            replayed = writes.open_journal(folder / JOURNAL_FILE)
        else:
            own = folder / node_journal(self.cluster.node)
            replayed = writes.open_journal(own)
            for path in sorted(folder.glob(NODE_JOURNALS)):
                if path != own:
                    with contextlib.suppress(JournalBusy):  # that node is running
                        replayed += writes.adopt_journal(path)
        if replayed:
            log.info("writing %d writes kept in the write journal", replayed)
            await writes.drained()
            log.info("the writes kept in the write journal are written")

    def attach(self, transport: asyncio.Transport, host: str = "127.0.0.1") -> Session:
        """Connect a user over ``transport``, any transport and not only a socket the
        listener accepted (the tests' in-memory one): the session becomes its protocol and
        the login dialogue starts, as for an accepted connection. The listener's caps do
        not apply; the connection is not counted in :attr:`connections`."""
        session = Session(host=host)
        transport.set_protocol(session)
        session.connection_made(transport)
        task = asyncio.get_running_loop().create_task(self._connection(session))
        self._attached.add(task)
        task.add_done_callback(self._attached.discard)
        return session

    def _release(self) -> None:
        if self._lock is not None:
            self._lock.release()
            self._lock = None

    async def stop(self) -> None:
        """Stop accepting, say goodbye to everybody, close every connection, then wait up
        to :attr:`write_patience` seconds for the writes still queued (the database may not
        be answering); what is left then is logged."""
        self.core.stopping = True
        if self._sweep is not None:
            self._sweep.cancel()
        await self._listener.stop()
        self._ws_listener.stop()
        for session in self._sessions:
            session.on_input = None  # no more lines run
            if self.cluster is not None and session.logged_in:
                self.world.depart(session)  # the other nodes' users are told
            else:
                self.world.forget(session)  # everybody leaves at once: no goodbyes to send
            session.send_raw(b"\r\n**** The server is shutting down. ****\r\n")
        await asyncio.gather(*(session.close() for session in list(self._sessions)))
        tasks = [
            *self._listener.tasks,
            *self._ws_listener.tasks,
            *self._attached,
            *self._running.values(),
        ]
        if self._sweep is not None:
            tasks.append(self._sweep)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        for session in list(self._sessions):  # those that had no task
            await self._finish(session)
        await self._ws_listener.wait_closed()
        await self.core.writes.close(self.write_patience)
        if self.cluster is not None:
            await self.cluster.stop()
        self.core.close()
        self._release()

    async def _connection(self, session: Session) -> None:
        """The login dialogue of a new connection; once the user is in, its lines are run
        as they come (:meth:`_input`) and this task ends."""
        session.stuck_after = self.stuck_after
        self._sessions.add(session)
        try:
            account = await accounts.login(self.core, session)
            if account is not False:
                if isinstance(account, Account):
                    await accounts.load_account(self.core, session, account)
                if self.cluster is not None and not await self.cluster.claim(session):
                    accounts.name_taken(session)
                elif self._admit(session):
                    self._enter(session)
                    session.on_input = self._on_input
                    if session.has_input():  # typed during the login, or gone meanwhile
                        self._input(session)
                    return
        except StoreUnavailable:  # a cluster's node cut off from the others
            accounts.cut_off(session)
        except (ConnectionError, asyncio.CancelledError):
            pass
        await self._finish(session)

    def _input(self, session: Session) -> None:
        """A line (or the end of the input) arrived for a logged-in user: run it, in the
        task that runs this user's lines, started if there is none."""
        if session not in self._running:
            task = asyncio.get_running_loop().create_task(self._run_lines(session))
            self._running[session] = task

    async def _run_lines(self, session: Session) -> None:
        """Run the lines waiting, one at a time; end when none is left (the user idles,
        with no task), or leave when the input ended or the user is leaving."""
        leave = True
        try:
            while session.has_input():
                line = session.pop_line()
                if line is None or session.leaving or session.closed:
                    break
                await self.execute(session, line)
                session.commands += 1
                if session.leaving:
                    break
            else:
                leave = False
        except (ConnectionError, asyncio.CancelledError):
            pass
        finally:
            del self._running[session]
            if leave:
                await self._finish(session)

    async def _finish(self, session: Session) -> None:
        """A connection ends: the user leaves (every feature lets go of it), it is closed
        (lingering unless the server stops), and the log says so."""
        if session not in self._sessions:
            return
        session.on_input = None
        self._leave(session)
        self._sessions.discard(session)
        await session.close(linger=0 if self.core.stopping else LINGER)
        log.info(
            "%s %s %.1fs %d commands",
            session.peer,
            session.display_name if session.name else "-",
            time.monotonic() - session.connected_at,
            session.commands,
        )

    async def _idle_sweep(self) -> None:
        """Log out who sent no line for :attr:`Limits.idle_timeout` seconds while neither
        playing nor examining, unless a computer (FICS's rule): one look over the users
        every :data:`IDLE_SWEEP` seconds, not a timer per user."""
        while True:
            idle = self.limits.idle_timeout
            await asyncio.sleep(min(IDLE_SWEEP, idle / 10) if idle else IDLE_SWEEP)
            idle = self.limits.idle_timeout
            if not idle:
                continue
            now = time.monotonic()
            for session in self.world.online.values():
                if (  # a replica idles out on its own node
                    isinstance(session, Session)
                    and now - session.last_input >= idle
                    and session.state not in ("P", "E")
                    and not session.is_computer  # FICS spares computers
                    and not (session.leaving or session.closed)
                ):
                    session.send_raw(f"\r\n{idle_logout(idle)}\r\n".encode())
                    session.hang_up()

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
        self._leave(old, release=False)
        accounts.take_over(session, old)
        return True

    def _enter(self, session: Session) -> None:
        """Greet a user who logged in, tell the others, send the lists the DGs it turned
        on at the login prompt come with."""
        session.logged_in = True
        start = lines(accounts.greeting(session))
        self.world.arrive(session, start)
        batch = Batch(CN.SCN_REALLY_LOG_IN, session)
        for number in sorted(session.level2):
            self.core.registry.datagram_on(session, number, batch)
        self.core.registry.player_arrived(session, batch)
        batch.flush()

    def _leave(self, session: User, release: bool = True) -> None:
        """A connection is gone: every feature lets go of it, then the others are told
        (and, in a cluster, the name is free again unless ``release`` is False: a
        takeover keeps it)."""
        self.core.registry.player_left(session)
        if session.logged_in:
            session.logged_in = False
            if not self.core.stopping:
                self.world.depart(session)
            if self.cluster is not None and release:
                self.cluster.release(session)

    async def execute(self, session: Session, line: str) -> None:
        """Run one line the user typed, as one unit of output (one block in FICS's block
        mode, where every line begins with its identifier)."""
        text = line.strip()
        block_id: int | None = None
        if session.ivariables["block"] and not session.level1 & Level1.UNITS:
            block_id, text = split_block_id(text)
            if block_id is None:
                no_id = Batch(CN.SCN_BAD, session, block=(0, BlockCode.BLKCMD_ERROR_NOSEQUENCE))
                no_id.add(session, Lines(()))
                no_id.flush()
                return
        tag, text = split_tag(text)
        plain = text.strip().startswith("$")  # lasker: "$word" is the command, no alias
        text = expand_alias(session.aliases, text.strip().lstrip("$").strip())
        text = expand_punctuation(text)
        if not plain:
            text = expand_system_alias(text)
        word = text.partition(" ")[0]
        if not word:
            if block_id is not None:
                nothing = Batch(CN.SCN_BAD, session, block=(block_id, BlockCode.BLKCMD_NULL))
                nothing.add(session, Lines(()))
                nothing.flush()
            elif not session.level1 & Level1.UNITS:
                session.send_unit(session.prompt_bytes())
            return
        if self.cluster is not None:
            node = route(self.core, self.cluster, session, text.strip())
            if node is not None:
                await self._forwarded(session, node, text.strip(), tag, block_id)
                return
        brackets = False

        def open_unit(cn: int, code: int, command: tuple[str, str] | None) -> Batch:
            nonlocal brackets
            block = None if block_id is None else (block_id, code)
            batch, brackets = self._issuer_unit(session, cn, tag, block, command)
            return batch

        batch, moved = await dispatch(self.core, session, text.strip(), open_unit)
        if moved:
            batch.flush()
        else:
            self._end_unit(session, batch, brackets)

    @staticmethod
    def _issuer_unit(
        session: Session,
        cn: int,
        tag: str | None,
        block: tuple[int, int] | None,
        command: tuple[str, str] | None,
    ) -> tuple[Batch, bool]:
        """The batch of a line's output to its issuer, who always gets a unit (and a
        prompt); for a ``command`` (word, arguments; None for a move) DG_COMMAND, and the
        level 1 brackets opened when asked (the second value: close them at the end)."""
        batch = Batch(cn, session, tag, block=block)
        batch.add(session, Lines(()))
        brackets = command is not None and bool(session.level1 & Level1.COMMAND_MARKS)
        if brackets:
            session.send_raw(b"\x19<")
        if command is not None:
            batch.add(session, Datagram(dg.Command(*command)))
        return batch, brackets

    @staticmethod
    def _end_unit(session: Session, batch: Batch, brackets: bool) -> None:
        batch.flush()
        if session.leaving:
            if session.level1 & Level1.UNITS:
                session.send_raw(UNIT_END)  # the extra ^Y] at disconnect (section 3)
        elif brackets:
            session.send_raw(b"\x19>")

    async def _forwarded(
        self, session: Session, node: str, text: str, tag: str | None, block_id: int | None
    ) -> None:
        """Run ``text`` on the cluster's node ``node`` (:mod:`~icswire.server.cluster.routes`
        says why) and give the user its output as if it had run here."""
        if self.cluster is None:
            raise RuntimeError("not in a cluster")
        word, _, args = text.partition(" ")

        def answer(cn: int, code: int | None, output: list[Message]) -> None:
            if code is None:
                code = BlockCode.BLKCMD_NULL
            block = None if block_id is None else (block_id, code)
            command = None if cn == CN.SCN_MOVE else (word, args.strip())
            batch, brackets = self._issuer_unit(session, cn, tag, block, command)
            for message in output:
                batch.add(session, message)
            self._end_unit(session, batch, brackets)

        await self.cluster.forward(node, session, text, answer)

    async def run_line(self, session: User, text: str) -> tuple[int, int | None]:
        """Run a line another node of the cluster forwarded, for ``session`` (the replica
        of its user): (the level 1 command number, the block code)."""

        def open_unit(cn: int, code: int, command: tuple[str, str] | None) -> Batch:
            if command is None:
                return Batch(CN.SCN_MOVE, session)
            return Batch(cn, session, block=(0, code))  # the block code a command may change

        batch, moved = await dispatch(self.core, session, text, open_unit)
        batch.flush()
        if moved:
            return CN.SCN_MOVE, BlockCode.BLKCMD_GAME_MOVE
        return batch.cn, batch.block[1] if batch.block is not None else None


async def serve(
    store: Store,
    host: str,
    port: int,
    limits: Limits | None = None,
    open_registration: bool = False,
    cluster: str | None = None,
    cluster_name: str = "icswire",
    node: str | None = None,
    cluster_access: Access | None = None,
    journal_dir: Path | None = None,
    companions: Sequence[Companion] = (),
    mailer: Mailer | None = None,
    ws_port: int | None = None,
    ws_host: str | None = None,
    tls: ssl.SSLContext | None = None,
) -> None:
    """Run a server (a node of ``cluster``, a NATS URL, if given, with ``cluster_access``'s
    credentials and TLS) until SIGINT or SIGTERM, then shut it down cleanly. What it
    acknowledged is kept in a write journal in ``journal_dir`` until written (none: not
    kept). ``companions`` start once it listens and stop (in the reverse order) before it
    does. Mail goes through ``mailer``'s relay (None: the server sends none). WebSocket
    sessions and the web client are served on ``ws_host``:``ws_port`` (None: not), with
    TLS (``wss://``, ``https://``) when ``tls`` is given."""
    server = Server(
        store,
        host,
        port,
        limits,
        open_registration,
        cluster,
        cluster_name,
        node,
        cluster_access,
        journal_dir,
        mailer,
        ws_port,
        ws_host,
        tls,
    )
    loop = asyncio.get_running_loop()
    threads = STORE_THREADS.get(store.engine.dialect.name, SERVER_STORE_THREADS)
    loop.set_default_executor(ThreadPoolExecutor(threads, "icswire-store"))
    await server.start()
    # What is loaded by now (modules, the features, the store) lives as long as the
    # process: out of the garbage collector's way, so a full collection scans the users.
    gc.freeze()
    stop = asyncio.Event()
    for signum in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(signum, stop.set)
    started: list[Companion] = []
    try:
        for companion in companions:
            await companion.start(server)
            started.append(companion)
        await stop.wait()
    finally:
        log.info("shutting down")
        for companion in reversed(started):
            try:
                await companion.stop()
            except Exception:  # the server stops all the same
                log.exception("stopping %r failed", companion)
        await server.stop()
        store.close()


__all__ = ["Companion", "Server", "serve"]
