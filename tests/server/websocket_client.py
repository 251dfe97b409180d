"""A test client over WebSocket, as a browser or freechess.org's WebSocket clients are:
:class:`~tests.server.client.Client` (the same decoding, ``command``, ``expect``) over a
:class:`WsPipe`, which sends each ``drain``'s bytes as one binary frame, or with
``sealed`` each line sealed with timeseal 2 in a frame of its own (the hello first), and
answers the server's ``[G]`` pings as timeseal does."""

from __future__ import annotations

import asyncio
import contextlib
import ssl
import time

from websockets.asyncio.client import ClientConnection
from websockets.asyncio.client import connect as ws_connect
from websockets.exceptions import ConnectionClosed

from icswire.protocol.timeseal import PING2, PONG, hello_text, seal

from .client import Client


def stamp() -> int:
    """A timeseal client's clock: ms, wrapping at 10**7 (as PyChess's)."""
    return int(time.time() * 1000) % 10**7


class WsPipe:
    """The Reader and Writer of a :class:`Client` over a WebSocket ``connection``."""

    def __init__(self, connection: ClientConnection, sealed: bool = False) -> None:
        self.connection = connection
        self.sealed = sealed
        self.pings = 0  # [G] pings answered
        self._pending = b""
        self._closing: asyncio.Task[None] | None = None

    async def hello(self) -> None:
        """The timeseal 2 hello, as freechess.org's WebSocket clients send it first."""
        await self.connection.send(seal(hello_text("openseal", "browser", "TIMESEAL2"), stamp()))

    async def read(self, n: int = -1) -> bytes:
        try:
            message = await self.connection.recv()
        except ConnectionClosed:
            return b""
        data = message.encode() if isinstance(message, str) else message
        if self.sealed:
            while PING2 in data:
                data = data.replace(PING2, b"", 1)
                self.pings += 1
                with contextlib.suppress(ConnectionClosed):
                    await self.connection.send(seal(PONG, stamp()))
        return data

    def write(self, data: bytes) -> None:
        self._pending += data

    async def drain(self) -> None:
        data, self._pending = self._pending, b""
        if not data:
            return
        if not self.sealed:
            await self.connection.send(data)
            return
        for line in data.split(b"\n")[:-1]:
            await self.connection.send(seal(line.decode("latin-1"), stamp()))

    def close(self) -> None:
        self._closing = asyncio.get_running_loop().create_task(self.connection.close())

    async def wait_closed(self) -> None:
        if self._closing is not None:
            await self._closing


async def ws_client(
    port: int,
    datagrams: tuple[int, ...] = (),
    sealed: bool = False,
    path: str = "/",
    tls: ssl.SSLContext | None = None,
) -> tuple[Client, WsPipe]:
    """A client connected to ``ws://127.0.0.1:port/path`` (``wss://`` with ``tls``), with
    timeseal 2 when ``sealed`` (its hello sent)."""
    scheme = "wss" if tls else "ws"
    connection = await ws_connect(f"{scheme}://127.0.0.1:{port}{path}", ssl=tls)
    pipe = WsPipe(connection, sealed)
    if sealed:
        await pipe.hello()
    return Client(pipe, pipe, datagrams), pipe
