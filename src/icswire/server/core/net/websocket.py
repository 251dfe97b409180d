"""Sessions over WebSocket: the protocol in a browser, as freechess.org serves it.

Each WebSocket connection is a session exactly like a telnet one: the frames carry the
bytes of a telnet session both ways (the server sends binary frames; a text frame is taken
as its UTF-8 bytes), so timeseal (freechess.org's WebSocket clients seal every line with
timeseal 2 inside the frames), block mode, level 1 and 2 and the login are the session's
own. The WebSocket protocol itself (handshake, frames, pings, close) is the ``websockets``
library's.

:class:`WebSocketTransport` is the :class:`asyncio.Transport` a
:class:`~icswire.server.core.net.session.Session` sees: what it writes is queued and sent
as one binary frame per burst by a writer task, and the session is told to hold back
(``pause_writing``) while bytes wait, as a socket's transport tells it. The library's own
write limit is a byte, so a frame's send ends only once the kernel took it all: what
waits is counted here. :class:`WebSocketListener` accepts the connections, under the
same caps as the telnet port (it asks the
:class:`~icswire.server.core.net.listener.Listener`, which counts every connection of
both), and answers plain HTTP requests on the same port with ``process_request`` (the
web client's files: :mod:`~icswire.server.core.net.webfiles`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import ssl
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

from websockets.asyncio.server import Server as WsServer
from websockets.asyncio.server import ServerConnection
from websockets.asyncio.server import serve as ws_serve
from websockets.exceptions import ConnectionClosed
from websockets.frames import CloseCode
from websockets.http11 import Request, Response

from icswire.server.core.net.listener import Listener
from icswire.server.core.net.session import LINGER, Session

__all__ = ["MAX_FRAME", "WebSocketBindError", "WebSocketListener", "WebSocketTransport"]

#: The library's log (a line per connection and per HTTP request at INFO): warnings only.
ws_log = logging.getLogger("icswire.server.websocket")
ws_log.setLevel(logging.WARNING)
#: The largest message a client may send (bytes); a bigger one closes its connection.
MAX_FRAME = 1 << 16
#: The asyncio transports' default write buffer limits.
_HIGH, _LOW = 64 * 1024, 16 * 1024

HttpHandler = Callable[[ServerConnection, Request], Response | None]


class WebSocketBindError(OSError):
    """The WebSocket port cannot be taken (the telnet port's failure is a plain OSError)."""


class WebSocketTransport(asyncio.Transport):
    """A session's transport over a WebSocket ``connection``: :meth:`run` reads its
    messages into the protocol until it closes, a writer task sends what is written."""

    def __init__(self, connection: ServerConnection, protocol: asyncio.Protocol) -> None:
        super().__init__({"websocket": connection})
        self._connection = connection
        self._protocol = protocol
        self._pending = bytearray()  # written, not yet handed to the library
        self._sending = 0  # bytes of the frame being sent
        self._more = asyncio.Event()  # something to send, or the close
        self._reading = asyncio.Event()
        self._reading.set()
        self._closing = False
        self._paused = False  # the protocol was told to hold back
        self._high, self._low = _HIGH, _LOW
        self._writer: asyncio.Task[None] | None = None

    async def run(self) -> None:
        """Feed the connection's messages to the protocol until the connection closes
        (either side), then tell the protocol it is lost."""
        self._writer = asyncio.get_running_loop().create_task(self._write_all())
        try:
            await self._read_all()
        finally:
            self._closing = True
            self._more.set()
            with contextlib.suppress(ConnectionClosed, asyncio.CancelledError):
                await self._writer
            self._protocol.connection_lost(None)

    async def _read_all(self) -> None:
        connection = self._connection
        while True:
            if not self._reading.is_set() and not await self._resumed():
                return
            try:
                message = await connection.recv()
            except ConnectionClosed:
                return
            self._protocol.data_received(message.encode() if isinstance(message, str) else message)

    async def _resumed(self) -> bool:
        """Wait until reading resumes (True) or the connection closes (False)."""
        resumed = asyncio.ensure_future(self._reading.wait())
        closed = asyncio.ensure_future(self._connection.wait_closed())
        await asyncio.wait((resumed, closed), return_when=asyncio.FIRST_COMPLETED)
        resumed.cancel()
        closed.cancel()
        return self._reading.is_set() and not closed.done()

    async def _write_all(self) -> None:
        """Send what is written, all of it waiting as one frame, until the transport is
        closed (then close the connection once everything is sent)."""
        connection = self._connection
        while True:
            if not self._pending:
                if self._closing:
                    break
                self._more.clear()
                await self._more.wait()
                continue
            data = bytes(self._pending)
            self._pending.clear()
            self._sending = len(data)
            await connection.send(data)
            self._sending = 0
            if self._paused and self.get_write_buffer_size() <= self._low:
                self._paused = False
                self._protocol.resume_writing()
        await connection.close()

    # -- asyncio.Transport ---------------------------------------------------------------

    def write(self, data: bytes | bytearray | memoryview) -> None:
        if self._closing or not data:
            return
        self._pending += data
        self._more.set()
        if not self._paused and self.get_write_buffer_size() > self._high:
            self._paused = True
            self._protocol.pause_writing()

    def get_write_buffer_size(self) -> int:
        return len(self._pending) + self._sending

    def set_write_buffer_limits(self, high: int | None = None, low: int | None = None) -> None:
        if high is None:
            high = _HIGH if low is None else 4 * low
        self._high, self._low = high, high // 4 if low is None else low

    def get_write_buffer_limits(self) -> tuple[int, int]:
        return self._low, self._high

    def can_write_eof(self) -> bool:
        return False  # a WebSocket has no half-close

    def is_closing(self) -> bool:
        return self._closing

    def close(self) -> None:
        """Close the connection once everything written is sent."""
        self._closing = True
        self._more.set()

    def abort(self) -> None:
        self._closing = True
        self._pending.clear()
        self._connection.transport.abort()

    def pause_reading(self) -> None:
        self._reading.clear()

    def resume_reading(self) -> None:
        self._reading.set()

    def is_reading(self) -> bool:
        return self._reading.is_set()

    def set_protocol(self, protocol: asyncio.BaseProtocol) -> None:
        self._protocol = protocol  # type: ignore[assignment]

    def get_protocol(self) -> asyncio.BaseProtocol:
        return self._protocol

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        """The socket's (``peername``, ``sockname``, ``ssl_object``...), and ``websocket``:
        the library's connection."""
        if name == "websocket":
            return self._connection
        return self._connection.transport.get_extra_info(name, default)


class WebSocketListener:
    """Accepts WebSocket connections on ``host``:``port`` (``wss://`` with ``ssl``), each
    one a :class:`Session` whose login ``handler`` runs in a task, as the telnet
    ``gate``'s are, under its caps; plain HTTP requests go to ``http``."""

    def __init__(
        self,
        handler: Callable[[Session], Coroutine[Any, Any, None]],
        gate: Listener,
        http: HttpHandler | None = None,
        ssl_context: ssl.SSLContext | None = None,
    ) -> None:
        self._handler = handler
        self._gate = gate
        self._http = http
        #: The TLS context of ``wss://`` (None: ``ws://``).
        self.tls = ssl_context
        self._server: WsServer | None = None
        #: The login task of each connection let in, while it runs.
        self.tasks: set[asyncio.Task[None]] = set()
        self.port = 0

    async def start(self, host: str, port: int) -> None:
        """:meth:`bind`, then :meth:`accept`."""
        await self.bind(host, port)
        await self.accept()

    async def bind(self, host: str, port: int) -> None:
        """Listen on every address ``host`` names (all of them for ``""``); connections
        wait in the kernel's queue until :meth:`accept`."""
        try:
            self._server = await self._serve_on(host, port)
        except OSError as exc:
            raise WebSocketBindError(exc.errno, exc.strerror) from exc
        self.port = self._server.sockets[0].getsockname()[1]

    def _serve_on(self, host: str, port: int) -> Awaitable[WsServer]:
        return ws_serve(
            self._serve,
            host or None,
            port,
            ssl=self.tls,
            process_request=self._process_request,
            compression=None,  # small frames: deflating each costs more than it saves
            max_size=MAX_FRAME,
            # a send ends once the kernel has it all, so what waits is counted here (not
            # (0, 0): asyncio's TLS transport would pause at 0 bytes and never resume)
            write_limit=(1, 0),
            close_timeout=LINGER,
            logger=ws_log,
            start_serving=False,
        )

    async def accept(self) -> None:
        """Start accepting the connections on the port :meth:`bind` took."""
        if self._server is None:
            raise RuntimeError("not bound")
        await self._server.server.start_serving()

    def stop(self) -> None:
        """Stop accepting (the sessions let in are the caller's to close, before
        :meth:`wait_closed`)."""
        if self._server is not None:
            self._server.server.close()

    async def wait_closed(self) -> None:
        """Close what is left (1001, going away) and wait until every connection's
        handler has ended."""
        if self._server is not None:
            self._server.close()
            await self._server.wait_closed()
            self._server = None

    def _process_request(self, connection: ServerConnection, request: Request) -> Response | None:
        """A WebSocket upgrade on any path goes on to the handshake (freechess.org's
        clients connect to ``/``); any other request is plain HTTP."""
        if request.headers.get("Upgrade", "").lower() == "websocket" or self._http is None:
            return None
        return self._http(connection, request)

    async def _serve(self, connection: ServerConnection) -> None:
        host = str(connection.remote_address[0])
        refusal = self._gate.refusal(host)
        if refusal is not None:
            with contextlib.suppress(ConnectionClosed):
                await connection.send(f"{refusal}\r\n".encode())
                await connection.close(CloseCode.TRY_AGAIN_LATER, "full")
            return
        self._gate.admit(host)
        session = Session(host=host, on_lost=self._gate.gone)
        transport = WebSocketTransport(connection, session)
        session.connection_made(transport)
        login = asyncio.get_running_loop().create_task(self._handler(session))
        self.tasks.add(login)
        login.add_done_callback(self.tasks.discard)
        await transport.run()
