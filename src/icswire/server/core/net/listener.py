"""Accepting connections: the caps on connections, and what happens at the fd limit.

:class:`Listener` owns the listening socket and accepts connections itself, not through
``asyncio.start_server``, for two reasons:

- **Caps.** A connection over :meth:`Limits.connection_cap` or
  :attr:`Limits.max_per_address` is told why and closed at once, on the raw socket, before
  any transport, task or session is made for it.
- **The fd limit.** When ``accept`` fails with EMFILE or ENFILE (the process or the system
  is out of file descriptors), asyncio's own loop reports it through the loop's exception
  handler (a traceback in the log) and retries every second, without telling the client
  anything. Here a spare descriptor kept open for the purpose is closed, the waiting
  client is accepted, told that the server is full and closed, the spare is opened again,
  and accepting pauses until a connection closes (or :attr:`Limits.accept_pause` seconds
  pass). Clients still in the kernel's queue get in once descriptors are free; the users
  already connected notice nothing. One warning is logged a minute at most.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import logging
import math
import os
import socket
from collections import Counter
from collections.abc import Awaitable, Callable

from icswire.server.core.net.limits import Limits
from icswire.server.core.net.session import Session

__all__ = ["FULL", "TOO_MANY_FROM_ADDRESS", "Listener"]

log = logging.getLogger("icswire.server")

#: What a client turned away hears.
FULL = "Sorry, the chess server is full; please try again later."
TOO_MANY_FROM_ADDRESS = (
    "Sorry, there are already {count} connections from your address; please try again later."
)
_OUT_OF_FDS = (errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM)
#: Seconds a refused connection is kept open (its side ended) before it is closed, and
#: how many may be kept at once (beyond that they are closed at once).
REFUSAL_LINGER = 1.0
REFUSALS_KEPT = 64
#: Seconds between two warnings of running out of descriptors (a lasting shortage pauses
#: and resumes accepting with each connection that closes).
WARN_EVERY = 60.0

Handler = Callable[[Session], Awaitable[None]]


class Listener:
    """Accepts connections on ``host``:``port``, makes each one it lets in a
    :class:`Session` (its protocol) and runs ``handler`` for it in a task (the login
    dialogue, which may end before the connection does); counts them by address until
    they are closed."""

    def __init__(self, handler: Handler, limits: Limits, backlog: int) -> None:
        self._handler = handler
        self._limits = limits
        self._backlog = backlog
        self._sockets: list[socket.socket] = []
        self._accepting: list[asyncio.Task[None]] = []
        self._warned = -math.inf
        self._refused: dict[socket.socket, asyncio.TimerHandle] = {}  # kept a moment
        self._spare: int | None = None
        self._freed = asyncio.Event()
        self.by_address: Counter[str] = Counter()
        #: The handler's task of each connection let in, while it runs.
        self.tasks: set[asyncio.Task[None]] = set()
        self._gone_callback = self.gone  # one bound method for every session
        self.port = 0

    @property
    def connections(self) -> int:
        """Connections let in and not yet closed."""
        return self.by_address.total()

    async def start(self, host: str, port: int) -> None:
        """:meth:`bind`, then :meth:`accept`."""
        await self.bind(host, port)
        self.accept()

    async def bind(self, host: str, port: int) -> None:
        """Listen on every address ``host`` names (all of them for ``""``), on one port
        (the one the system picks for the first address when ``port`` is 0); connections
        wait in the kernel's queue until :meth:`accept`."""
        loop = asyncio.get_running_loop()
        found = await loop.getaddrinfo(
            host or None, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
        )
        addresses = list(dict.fromkeys((family, address[0]) for family, *_, address in found))
        try:
            for family, address in addresses:
                sock = socket.create_server((address, port), family=family, backlog=self._backlog)
                sock.setblocking(False)
                self._sockets.append(sock)
                port = port or sock.getsockname()[1]
        except OSError:
            for sock in self._sockets:
                sock.close()
            raise
        self.port = port

    def accept(self) -> None:
        """Start accepting the connections on the sockets :meth:`bind` opened."""
        loop = asyncio.get_running_loop()
        self._spare = self._open_spare()
        self._accepting = [loop.create_task(self._accept_forever(s)) for s in self._sockets]

    async def stop(self) -> None:
        """Stop accepting (the connections let in are the caller's to close)."""
        for task in self._accepting:
            task.cancel()
        await asyncio.gather(*self._accepting, return_exceptions=True)
        for sock in self._sockets:
            sock.close()
        for conn, closing in self._refused.items():
            closing.cancel()
            _close(conn)
        self._refused.clear()
        if self._spare is not None:
            os.close(self._spare)
            self._spare = None

    # -- accepting -------------------------------------------------------------------------

    async def _accept_forever(self, sock: socket.socket) -> None:
        loop = asyncio.get_running_loop()
        while True:
            try:
                conn, address = await loop.sock_accept(sock)
            except OSError as exc:
                if exc.errno in _OUT_OF_FDS:
                    await self._out_of_descriptors(sock, exc)
                else:  # the client gave up before we took it (ECONNABORTED...)
                    log.debug("accept failed: %s", exc)
                continue
            self._let_in(conn, str(address[0]))

    def refusal(self, host: str) -> str | None:
        """Why a new connection from ``host`` is turned away (the server is full, or its
        address has too many), None if it is let in: for this port and any other whose
        connections :meth:`admit` counts (the WebSocket one)."""
        cap, per_address = self._limits.connection_cap(), self._limits.max_per_address
        if cap and self.connections >= cap:
            return FULL
        if per_address and self.by_address[host] >= per_address:
            return TOO_MANY_FROM_ADDRESS.format(count=per_address)
        return None

    def admit(self, host: str) -> None:
        """Count a connection let in from ``host`` until :meth:`gone`."""
        self.by_address[host] += 1

    def gone(self, session: Session) -> None:
        """A connection let in is closed."""
        self._forget(session.host)

    def _let_in(self, conn: socket.socket, host: str) -> None:
        refusal = self.refusal(host)
        if refusal is not None:
            self._refuse(conn, refusal)
        else:
            self.admit(host)
            task = asyncio.get_running_loop().create_task(self._serve(conn, host))
            self.tasks.add(task)
            task.add_done_callback(self.tasks.discard)

    def _refuse(self, conn: socket.socket, text: str) -> None:
        """Turn a client away, keeping the socket a moment (at most :data:`REFUSALS_KEPT`
        at once) so that a client that types at once still reads why."""
        if len(self._refused) >= REFUSALS_KEPT:
            _turn_away(conn, text)
            return
        _say_and_end(conn, text)

        def close() -> None:
            del self._refused[conn]
            _close(conn)

        self._refused[conn] = asyncio.get_running_loop().call_later(REFUSAL_LINGER, close)

    async def _serve(self, conn: socket.socket, host: str) -> None:
        loop = asyncio.get_running_loop()

        def session() -> Session:
            return Session(host=host, on_lost=self._gone_callback)

        try:
            # what asyncio's own servers do (its transports skip sockets whose proto is
            # 0, as socket.create_server makes them): a move is not held back by Nagle
            conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            _, made = await loop.connect_accepted_socket(session, sock=conn)
        except OSError:
            conn.close()
            self._forget(host)
            return
        await self._handler(made)

    def _forget(self, host: str) -> None:
        self.by_address[host] -= 1
        if self.by_address[host] <= 0:
            del self.by_address[host]
        self._freed.set()

    async def _out_of_descriptors(self, sock: socket.socket, exc: OSError) -> None:
        """No descriptor for the next client: tell it so with the spare one, then wait
        until a connection closes (or a while) before accepting again."""
        now = asyncio.get_running_loop().time()
        quiet, self._warned = now - self._warned < WARN_EVERY, now
        log.log(
            logging.DEBUG if quiet else logging.WARNING,
            "out of file descriptors (%s) with %d connections: accepting paused",
            errno.errorcode.get(exc.errno or 0, exc.errno),
            self.connections,
        )
        while True:
            self._turn_one_away(sock)
            self._freed.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._freed.wait(), self._limits.accept_pause or None)
            if self._spare is None:
                self._spare = self._open_spare()
            if self._spare is not None and _descriptor_free():
                level = logging.DEBUG if quiet else logging.INFO
                log.log(level, "accepting again with %d connections", self.connections)
                return

    def _turn_one_away(self, sock: socket.socket) -> None:
        """Accept the next waiting client on the spare descriptor to tell it the server is
        full (a client left in the queue would hear nothing)."""
        if self._spare is None:
            return
        os.close(self._spare)
        self._spare = None
        with contextlib.suppress(OSError):  # nobody waiting, or the descriptor went
            conn, _ = sock.accept()
            _turn_away(conn, FULL)
        self._spare = self._open_spare()

    @staticmethod
    def _open_spare() -> int | None:
        try:
            return os.open(os.devnull, os.O_RDONLY)
        except OSError:
            return None


def _descriptor_free() -> bool:
    """Can the process open one more descriptor (besides the spare)?"""
    try:
        fd = os.open(os.devnull, os.O_RDONLY)
    except OSError:
        return False
    os.close(fd)
    return True


def _say_and_end(conn: socket.socket, text: str) -> None:
    """Say ``text`` and end our side of a connection that is not let in."""
    with contextlib.suppress(OSError):
        conn.setblocking(False)
        conn.send(f"{text}\r\n".encode())
        conn.shutdown(socket.SHUT_WR)
    _read_away(conn)


def _read_away(conn: socket.socket) -> None:
    """Drop what the client sent: closing a socket with unread input resets the
    connection, and a reset can destroy what the client was sent before it reads it."""
    with contextlib.suppress(OSError):  # BlockingIOError: nothing more for now
        while conn.recv(4096):
            pass


def _close(conn: socket.socket) -> None:
    _read_away(conn)
    conn.close()


def _turn_away(conn: socket.socket, text: str) -> None:
    """Say ``text`` on a connection that is not let in, and close it at once."""
    _say_and_end(conn, text)
    conn.close()
