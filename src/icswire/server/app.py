"""The server: accept connections, log people in, run their commands.

``icswire serve`` runs :func:`serve`. Each connection gets a :class:`Session`; after the
login dialogue its lines are run one at a time, each as one :class:`Batch` of output.
"""

from __future__ import annotations

import asyncio
import logging
import signal
import time
from typing import Any

from icswire.protocol.datagrams import DG
from icswire.protocol.level1 import CommandNumber as CN
from icswire.server import (
    examine,
    pairing,
    play,  # noqa: F401  (registers the game commands)
    watching,
)
from icswire.server.commands import (
    COMMANDS,
    Command,
    Context,
    expand_alias,
    find_command,
    split_tag,
    unknown,
)
from icswire.server.games import Games, looks_like_move
from icswire.server.login import login
from icswire.server.names import name_key
from icswire.server.rated import load_ratings, update_ratings
from icswire.server.render import Batch, Datagram, Lines, lines
from icswire.server.session import Session
from icswire.server.store import Account, Store
from icswire.server.variables import VARIABLES
from icswire.server.world import World

log = logging.getLogger("icswire.server")
#: Connections the kernel may queue before we accept them (bursts of logins).
LISTEN_BACKLOG = 1024


class Server:
    """An Internet Chess Server on ``host``:``port`` keeping accounts in ``store``."""

    def __init__(self, store: Store, host: str = "127.0.0.1", port: int = 5000) -> None:
        self.store = store
        self.host = host
        self.port = port
        self.world = World()
        self.games = Games(self)
        self.ping_samples: dict[Session, list[int]] = {}
        self.stuck_after = 30.0
        self.stopping = False
        self._server: asyncio.Server | None = None
        self._sessions: set[Session] = set()
        self._tasks: set[asyncio.Task[None]] = set()
        self._background: set[asyncio.Task[None]] = set()

    async def start(self) -> None:
        recovered = await asyncio.to_thread(self.store.interrupted_to_adjourned)
        if recovered:
            log.info("%d interrupted games are adjourned", recovered)
        self._server = await asyncio.start_server(
            self._connection, self.host, self.port, backlog=LISTEN_BACKLOG
        )
        self.port = self._server.sockets[0].getsockname()[1]
        log.info("listening on %s:%d", self.host, self.port)

    async def stop(self) -> None:
        """Stop accepting, say goodbye to everybody, close every connection."""
        self.stopping = True
        if self._server is not None:
            self._server.close()
        for session in self._sessions:
            self.world.forget(session)  # everybody leaves at once: no goodbyes to send
            session.send_raw(b"\r\n**** The server is shutting down. ****\r\n")
        await asyncio.gather(*(session.close() for session in list(self._sessions)))
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        if self._server is not None:
            await self._server.wait_closed()

    async def _connection(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        assert task is not None
        self._tasks.add(task)
        host, port = writer.get_extra_info("peername")[:2]
        session = Session(reader, writer, peer=f"{host}:{port}", stuck_after=self.stuck_after)
        self._sessions.add(session)
        started = time.monotonic()
        commands = 0
        try:
            account = await login(self, session)
            if account is not False:
                if isinstance(account, Account):
                    await load_ratings(self, session)
                self._enter(session, account if isinstance(account, Account) else None)
                while not session.closed:
                    line = await session.read_line()
                    if line is None:
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
            self._tasks.discard(task)
            await session.close()
            log.info(
                "%s %s %.1fs %d commands",
                session.peer,
                session.display_name if session.name else "-",
                time.monotonic() - started,
                commands,
            )

    def _enter(self, session: Session, account: Account | None) -> None:
        if account is not None:
            _load(session, account)
            self.world.uids[name_key(account.name)] = account.uid
        session.logged_in = True
        start = lines(f"**** Starting FICS session as {session.display_name} ****")
        self.world.arrive(session, start)
        batch = Batch(CN.SCN_REALLY_LOG_IN, session)
        if DG.GAME_STARTED in session.level2:
            watching.send_lists(self, batch, session, DG.GAME_STARTED)
        for number in (DG.SEEK, DG.MATCH):
            if number in session.level2:
                pairing.send_lists(self, session, number, batch)
        batch.flush()

    def _leave(self, session: Session) -> None:
        self.ping_samples.pop(session, None)
        game = self.games.by_player.get(session)
        if game is not None and not self.stopping:
            batch = Batch(CN.SCN_LOGOUT, None, issuer_name=session.name)
            self.games.disconnected(game, session, batch)
            batch.flush()
        watching.session_left(self, session)
        if session.logged_in and not self.stopping:
            pairing.player_left(self, session)
        if session.logged_in:
            session.logged_in = False
            if not self.stopping:
                self.world.depart(session)

    async def execute(self, session: Session, line: str) -> None:
        """Run one line the user typed, as one unit of output."""
        tag, text = split_tag(line.strip())
        text = expand_alias(session.aliases, text.strip().lstrip("$").strip())
        word, _, args = text.partition(" ")
        if not word:
            if not session.level1 & 1:
                session.send_unit(session.prompt_bytes())
            return
        if session in self.games.by_player and looks_like_move(text.strip()):
            batch = Batch(CN.SCN_MOVE, session, tag)
            batch.add(session, Lines(()))
            self.games.play(session, text.strip(), batch)
            batch.flush()
            return
        if looks_like_move(text.strip()) and examine.examining(self, session) is not None:
            batch = Batch(CN.SCN_MOVE, session, tag)
            batch.add(session, Lines(()))
            examine.move(self, session, text.strip(), batch)
            batch.flush()
            return
        found = find_command(word)
        batch = Batch(found.cn if isinstance(found, Command) else CN.SCN_BAD, session, tag)
        batch.add(session, Lines(()))  # the issuer always gets a unit (and a prompt)
        brackets = bool(session.level1 & 2)
        if brackets:
            session.send_raw(b"\x19<")
        command = dict(command=word, arguments=args.strip())
        batch.add(session, Datagram(_command_record(**command)))
        if isinstance(found, Command):
            try:
                await found.handler(Context(self, session, batch, found.name), args.strip())
            except Exception:
                log.exception("command %r of %s failed", text, session.name)
                batch.reply("Sorry, that command failed on the server.")
        else:
            batch.add(session, unknown(batch, word, found))
        batch.flush()
        if session.leaving:
            if session.level1 & 1:
                session.send_raw(b"\x19]")  # the extra ^Y] at disconnect (section 3)
        elif brackets:
            session.send_raw(b"\x19>")

    def ratings_changed(self, game: Any, score: str) -> None:
        """A rated game ended: Glicko-2 for both players, then DG_NEW_MY_RATING to each
        and the game's rating DG to those who follow ratings (DG_PLAYER_ARRIVED on)."""
        task = asyncio.get_running_loop().create_task(update_ratings(self, game, score))
        self._background.add(task)
        task.add_done_callback(self._background.discard)


def _command_record(command: str, arguments: str) -> Any:
    from icswire.protocol import datagrams as dg

    return dg.Command(command, arguments)


def _load(session: Session, account: Account) -> None:
    """A registered user's saved variables, channels, notify list and aliases."""
    for key, value in account.settings.items():
        variable = VARIABLES.by_name.get(key)
        if variable is None:
            continue
        try:
            parsed = variable.parse(value)
        except ValueError:
            continue
        if key == "level1":
            session.level1 = session.level1 or parsed
        else:
            session.variables[key] = parsed
    session.channels = set(account.channels)
    session.notify = {name.lower() for name in account.notify}
    session.aliases = dict(account.aliases)


async def serve(store: Store, host: str, port: int) -> None:
    """Run a server until SIGINT or SIGTERM, then shut it down cleanly."""
    server = Server(store, host, port)
    await server.start()
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


__all__ = ["COMMANDS", "Server", "serve"]
