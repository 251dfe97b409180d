"""What the server tests share: a user connected in memory (no port, no sleep), and the
small helpers every test file used to copy.

:class:`MemoryClient` is :class:`~tests.server.client.Client` (the same reading, the same
``command``, ``expect`` and ``settle``) over a :class:`MemoryTransport` that
:meth:`Server.attach` connects to a session: what the server writes lands in the
client's buffer at once and wakes the client's reader (an :class:`asyncio.Event`, never
a poll); what the client sends reaches the session in a later turn of the loop, as a
socket's bytes would. :func:`connect` gives a socket client when the server listens
(tests marked ``sockets``, where the wire is the point) and a memory one otherwise.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import sqlite3
from collections.abc import AsyncIterator, Callable, Iterable, Iterator
from pathlib import Path
from typing import Any, ClassVar

from icswire.boards.tracker import GameTracker
from icswire.protocol.events import IvarLine, Style12Line, Text
from icswire.protocol.level1 import CommandNumber as CN
from icswire.server.app import Server
from icswire.server.core.model.names import name_key
from icswire.server.core.model.ratings import Glicko
from icswire.server.core.model.tables import Terms
from icswire.server.core.render.batch import Batch
from icswire.server.core.storage.records import RatingRecord
from icswire.server.core.storage.store import Store
from icswire.server.features.play.games import Game

from .client import TIMEOUT, Client

# -- reading what a client was sent ---------------------------------------------------------


def bits(*numbers: int) -> str:
    """A ``level2settings=`` value that turns on the datagrams ``numbers``."""
    return "".join("1" if n in numbers else "0" for n in range(max(numbers) + 1))


def texts(events: list[Any]) -> list[str]:
    """The text lines, without the empty ones FICS puts before what it tells."""
    return [e.text for e in events if isinstance(e, Text) and e.text]


def text_lines(events: list[Any]) -> list[str]:
    """Every text line, the empty ones too."""
    return [e.text for e in events if isinstance(e, Text)]


async def registered(server: Server, name: str, **ratings: tuple[int, int, int, int]) -> None:
    """Register ``name`` with ratings: type=(rating, wins, losses, draws)."""
    await asyncio.to_thread(server.store.add_user, name, "pw")
    for kind, (rating, wins, losses, draws) in ratings.items():
        games = wins + losses + draws
        record = RatingRecord(name, kind, Glicko(rating, 80.0), games, wins, losses, draws)
        await asyncio.to_thread(server.store.save_rating, record)


def is_text(text: str) -> Callable[[Any], bool]:
    """A predicate for ``expect``: a text line that is ``text``."""
    return lambda e: isinstance(e, Text) and e.text == text


def has_text(fragment: str) -> Callable[[Any], bool]:
    """A predicate for ``expect``: a text line with ``fragment`` in it."""
    return lambda e: isinstance(e, Text) and fragment in e.text


def grams(events: list[Any], number: int) -> list[Any]:
    """The datagrams ``number`` among ``events``."""
    return [e for e in events if getattr(e, "dg", None) == number]


def boards(events: list[Any]) -> list[Any]:
    """The style 12 boards among ``events``."""
    return [e.record for e in events if isinstance(e, Style12Line)]


def records(events: list[Any]) -> list[Any]:
    """The FICS interface variable lines (``<d1>``, ``<s>``...) among ``events``."""
    return [e.record for e in events if isinstance(e, IvarLine)]


def rebuilt(client: Client) -> list[Any]:
    """The games a client's stream describes, rebuilt from its boards and datagrams."""
    tracker = GameTracker()
    for event in client.events:
        tracker.feed(event)
    return tracker.games


async def until(condition: Callable[[], bool], timeout: float = TIMEOUT) -> None:
    """Wait until ``condition()`` holds, for state no stream tells of (a server's tables,
    another process, another node of a cluster)."""
    async with asyncio.timeout(timeout):
        while not condition():
            await asyncio.sleep(0.01)


# -- a connection in memory --------------------------------------------------------------


class MemoryTransport(asyncio.Transport):
    """The server's end of a connection in memory: what :class:`asyncio.Transport` offers
    a session. Writes are kept for the client (:meth:`take`); nothing is ever waiting to
    be sent, so the session's output limit never applies. The client's bytes
    (:meth:`send`) and the end of its input (:meth:`finish`) are handed to the session in
    a later turn of the loop, while reading is not paused."""

    _ports = itertools.count(50_000)
    #: Transports with the client's bytes or end on their way to the session.
    delivering: ClassVar[set[MemoryTransport]] = set()

    def __init__(self) -> None:
        super().__init__()
        self._protocol: asyncio.BaseProtocol | None = None
        self._peer = ("127.0.0.1", next(self._ports))
        self._sent = bytearray()  # written by the server, not yet read by the client
        self._written = asyncio.Event()
        #: Set once the server ends its side (write_eof, close, abort).
        self.ended = asyncio.Event()
        self._inbound = bytearray()  # sent by the client, not yet given to the session
        self._client_done = False
        self._eof_given = False
        self._reading = True
        self._closing = False
        self._lost = False

    # -- what the session uses -----------------------------------------------------------

    def set_protocol(self, protocol: asyncio.BaseProtocol) -> None:
        self._protocol = protocol

    def get_protocol(self) -> asyncio.BaseProtocol:
        assert self._protocol is not None
        return self._protocol

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return self._peer if name == "peername" else default

    def write(self, data: bytes | bytearray | memoryview) -> None:
        if not self._closing:
            self._sent += data
            self._written.set()

    def can_write_eof(self) -> bool:
        return True

    def write_eof(self) -> None:
        self._end()

    def is_closing(self) -> bool:
        return self._closing

    def close(self) -> None:
        if not self._closing:
            self._closing = True
            self._end()
            asyncio.get_running_loop().call_soon(self._lose)

    def abort(self) -> None:
        self._inbound.clear()
        self.close()

    def get_write_buffer_size(self) -> int:
        return 0

    def set_write_buffer_limits(self, high: int | None = None, low: int | None = None) -> None:
        pass  # nothing ever waits to be sent

    def pause_reading(self) -> None:
        self._reading = False

    def resume_reading(self) -> None:
        if not self._reading:
            self._reading = True
            self._deliver_soon()

    def is_reading(self) -> bool:
        return self._reading and not self._closing

    # -- what the client uses ------------------------------------------------------------

    def send(self, data: bytes) -> None:
        """The client sends ``data``."""
        if not (self._client_done or self._closing):
            self._inbound += data
            self._deliver_soon()

    def finish(self) -> None:
        """The client closes the connection: the session sees the end of its input."""
        self._client_done = True
        self._deliver_soon()

    async def take(self, n: int) -> bytes:
        """Up to ``n`` bytes the server wrote, once there are some; b"" once the server
        ended its side and every byte was taken."""
        while not self._sent and not self.ended.is_set():
            self._written.clear()
            await self._written.wait()
        data = bytes(self._sent[:n])
        del self._sent[:n]
        return data

    @property
    def waiting(self) -> bool:
        """Whether bytes the server wrote wait to be taken."""
        return bool(self._sent)

    # -- inside --------------------------------------------------------------------------

    def _end(self) -> None:
        self.ended.set()
        self._written.set()

    def _lose(self) -> None:
        if not self._lost:
            self._lost = True
            self.get_protocol().connection_lost(None)

    def _deliver_soon(self) -> None:
        if self not in self.delivering:
            self.delivering.add(self)
            asyncio.get_running_loop().call_soon(self._deliver)

    def _deliver(self) -> None:
        self.delivering.discard(self)
        protocol = self.get_protocol()
        assert isinstance(protocol, asyncio.Protocol)
        if self._closing or not self._reading:
            return
        if self._inbound:
            data = bytes(self._inbound)
            self._inbound.clear()
            protocol.data_received(data)
        if self._client_done and not self._eof_given and not self._closing:
            self._eof_given = True
            if not protocol.eof_received():
                self.close()


class _MemoryReader:
    def __init__(self, transport: MemoryTransport) -> None:
        self._transport = transport

    async def read(self, n: int = -1) -> bytes:
        return await self._transport.take(n if n > 0 else 1 << 30)


class _MemoryWriter:
    def __init__(self, transport: MemoryTransport) -> None:
        self._transport = transport

    def write(self, data: bytes) -> None:
        self._transport.send(data)

    async def drain(self) -> None:
        pass  # the session takes everything

    def close(self) -> None:
        self._transport.finish()

    async def wait_closed(self) -> None:
        pass


async def quiet(server: Server) -> None:
    """Until ``server`` has done everything that was asked of it in memory: every byte a
    client sent is handed to its session, every line is run (the commands' database
    reads included). A session that ends is not waited for once it ended its side (it
    lingers for its client to close, as over a socket); timers (clocks, flags, the idle
    sweep) are not waited for."""
    while True:
        await asyncio.sleep(0)  # a turn of the loop: what was scheduled runs
        running = dict(server._running)
        if running:
            ends = [
                asyncio.ensure_future(session.transport.ended.wait())
                for session in running
                if isinstance(session.transport, MemoryTransport)
                and not session.transport.ended.is_set()
            ]
            await asyncio.wait([*running.values(), *ends], return_when=asyncio.FIRST_COMPLETED)
            for end in ends:
                end.cancel()
        elif not MemoryTransport.delivering:
            return


class MemoryClient(Client):
    """A :class:`Client` connected to ``server`` in memory through :meth:`Server.attach`."""

    def __init__(self, server: Server, datagrams: Iterable[int] = ()) -> None:
        self.transport = MemoryTransport()
        super().__init__(_MemoryReader(self.transport), _MemoryWriter(self.transport), datagrams)
        self.server = server
        self.session = server.attach(self.transport)

    async def settle(self, seconds: float = 0.0) -> None:
        """Read whatever the server sends until it has nothing left to do (no time passes
        in memory: ``seconds`` is the socket client's, and not needed here)."""
        await quiet(self.server)
        while self.transport.waiting:
            await self._read()


async def connect(server: Server, datagrams: Iterable[int] = ()) -> Client:
    """A client of ``server``: over a socket when the server listens (a test marked
    ``sockets``), else in memory."""
    if server.port:
        return await Client.connect(server.port, datagrams)
    return MemoryClient(server, datagrams)


async def guest(server: Server, name: str, *setup: str, grams: tuple[int, ...] = ()) -> Client:
    """``name`` logged in without a password, the datagrams ``grams`` on, after the
    commands ``setup``."""
    client = await connect(server, grams)
    login = (f"level2settings={bits(*grams)}",) if grams else ()
    await client.login(name, None, *login)
    for line in setup:
        await client.command(line)
    return client


@contextlib.contextmanager
def locked(path: Path) -> Iterator[None]:
    """The database's write lock, held by another connection until the block ends."""
    locker = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    locker.execute("BEGIN EXCLUSIVE")
    try:
        yield
    finally:
        locker.execute("COMMIT")
        locker.close()


@contextlib.asynccontextmanager
async def listening(database: Path) -> AsyncIterator[Server]:
    """A running server on a free port of 127.0.0.1 over a fresh SQLite file ``database``
    (the end-to-end tests of the client library and the bot, where the wire is the point)."""
    store = Store(f"sqlite:///{database}")
    running = Server(store, "127.0.0.1", 0)
    await running.start()
    try:
        yield running
    finally:
        await running.stop()
        store.close()


async def start_game(server: Server, white: str, black: str, terms: Terms) -> Game:
    """A game between two users online, started by the server as ``match`` would start
    it (no challenge, no answer awaited); what it sends them is flushed."""
    batch = Batch(CN.CN_MATCH, None)
    online = server.world.online
    game = await server.games.start(online[name_key(white)], online[name_key(black)], terms, batch)
    batch.flush()
    return game
