"""A test client over a real socket: sends lines, decodes what comes back with icswire's
own decoder, answers telnet timing marks (pings) as telnet clients do. Its reading works
as well over the in-memory connection of ``support.MemoryClient``, which reads and writes
through the same few methods."""

from __future__ import annotations

import asyncio
import contextlib
import socket
from collections.abc import Callable, Iterable
from typing import Any, Protocol

from icswire.protocol.decoder import Decoder
from icswire.protocol.events import Error, Prompt, Telnet, Text, UnitEnd

Predicate = Callable[[Any], bool]
TIMEOUT = 10.0
WONT_TIMING_MARK = b"\xff\xfc\x06"


def free_port() -> int:
    """A port of 127.0.0.1 nobody listens on now (for a server in another process)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class Reader(Protocol):
    """What a client reads its connection with (``asyncio.StreamReader`` offers it)."""

    async def read(self, n: int = -1) -> bytes: ...


class Writer(Protocol):
    """What a client writes its connection with (``asyncio.StreamWriter`` offers it)."""

    def write(self, data: bytes) -> None: ...

    async def drain(self) -> None: ...

    def close(self) -> None: ...

    async def wait_closed(self) -> None: ...


class Client:
    def __init__(self, reader: Reader, writer: Writer, datagrams: Iterable[int]) -> None:
        self.reader = reader
        self.writer = writer
        self.decoder = Decoder(datagrams)
        self.events: list[Any] = []  # everything received, in order
        self._seen = 0  # events already handed out by expect()
        self.name = ""
        self.answers_pings = True  # as telnet clients do; False: a client that never does

    @classmethod
    async def connect(cls, port: int, datagrams: Iterable[int] = ()) -> Client:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        return cls(reader, writer, datagrams)

    async def send(self, *lines: str) -> None:
        for line in lines:
            self.decoder.note_command(line)
            self.writer.write(line.encode("latin-1") + b"\n")
        await self.writer.drain()

    async def _read(self) -> bool:
        data = await self.reader.read(65536)
        if not data:
            self.events += self.decoder.close()
            return False
        for event in self.decoder.feed(data):
            if isinstance(event, Telnet) and event.data == b"\xff\xfd\x06" and self.answers_pings:
                self.writer.write(WONT_TIMING_MARK)
            self.events.append(event)
        return True

    async def expect(self, predicate: Predicate, timeout: float = TIMEOUT) -> Any:
        """The next event (after those already expected) for which ``predicate`` holds."""

        async def wait() -> Any:
            while True:
                while self._seen < len(self.events):
                    event = self.events[self._seen]
                    self._seen += 1
                    if predicate(event):
                        return event
                if not await self._read():
                    raise ConnectionError(f"closed; got {self.events[-5:]}")

        return await asyncio.wait_for(wait(), timeout)

    async def expect_text(self, fragment: str) -> Text:
        return await self.expect(lambda e: isinstance(e, Text) and fragment in e.text)  # type: ignore[no-any-return]

    async def expect_dg(self, number: int, **fields: Any) -> Any:
        def match(event: Any) -> bool:
            return getattr(event, "dg", None) == number and all(
                getattr(event, k) == v for k, v in fields.items()
            )

        return await self.expect(match)

    async def command(self, line: str) -> list[Any]:
        """Send a command; return its events up to the prompt (level 0) or the end of its
        top-level unit (level 1)."""
        start = self._seen = len(self.events)
        await self.send(line)
        await self.expect(
            lambda e: isinstance(e, Prompt) or (isinstance(e, UnitEnd) and e.depth == 1)
        )
        return self.events[start : self._seen]

    async def login(self, name: str = "guest", password: str | None = None, *setup: str) -> str:
        """Log in (guests and unregistered names press return) and return the name (from
        the greeting: FICS's, or ICC's when ``setup`` turned level 1 or 2 on)."""
        await self.send(*setup)
        if password is None:
            await self.send(name, "")
        else:
            await self.send(f"{name} {password}")
        started = await self.expect(
            lambda e: isinstance(e, Text) and e.text.startswith("**** Starting ")
        )
        self.name = started.text.split(" as ")[1].split(" ")[0].removesuffix("(U)")
        return self.name

    def errors(self) -> list[Error]:
        return [e for e in self.events if isinstance(e, Error)]

    def received(self, number: int) -> list[Any]:
        return [e for e in self.events if getattr(e, "dg", None) == number]

    async def settle(self, seconds: float = 0.2) -> None:
        """Read whatever arrives in the next ``seconds``."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._drain_forever(), seconds)

    async def _drain_forever(self) -> None:
        while await self._read():
            pass

    async def close(self) -> None:
        self.writer.close()
        with contextlib.suppress(ConnectionError, OSError):
            await self.writer.wait_closed()
