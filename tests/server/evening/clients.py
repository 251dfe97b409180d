"""The evening's clients: ICC sessions over real sockets with level1=1 and every DG bit
on (``level2settings=1...1`` at the login prompt, icc-formats.txt section 2), one of them
through timeseal. Each command's output is read as its level 1 unit (section 3: "the
output to a user's command will begin with a header line of the form ^Y[
command-number *, and end with ^Y]"), and its command number is checked."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any

from icswire.protocol.datagrams import DG
from icswire.protocol.events import UnitEnd, UnitStart
from icswire.protocol.timeseal import PONG, PingFilter, hello_text, seal

from ..client import Client

#: Every bit from 0 to the highest DG of Appendix 2 (151).
ALL_ON = "1" * (max(DG) + 1)


class SealedWriter:
    """Writes each line sealed with the client's clock (FICS timeseal 1, as PyChess does)."""

    def __init__(self, writer: asyncio.StreamWriter) -> None:
        self.writer = writer
        self.writer.write(seal(hello_text("evening", "Linux"), self.now()))

    @staticmethod
    def now() -> int:
        return int(time.time() * 1000) % 10**7

    def write(self, data: bytes) -> None:
        for line in data.split(b"\n")[:-1]:
            self.writer.write(seal(line.decode("latin-1"), self.now()))

    async def drain(self) -> None:
        await self.writer.drain()

    def close(self) -> None:
        self.writer.close()

    async def wait_closed(self) -> None:
        await self.writer.wait_closed()


class SealedReader:
    """Takes the server's ``[G]`` pings out and answers each with a sealed pong."""

    def __init__(self, reader: asyncio.StreamReader, writer: SealedWriter) -> None:
        self.reader, self.writer = reader, writer
        self.filter = PingFilter()
        self.pings = 0

    async def read(self, n: int = -1) -> bytes:
        while True:
            data = await self.reader.read(n)
            if not data:
                return self.filter.close()
            kept, pings = self.filter.feed(data)
            for _ in range(pings):
                self.writer.writer.write(seal(PONG, self.writer.now()))
            self.pings += pings
            if kept:
                return kept


class Icc(Client):
    """An ICC client of the evening."""

    @classmethod
    async def open(cls, port: int, sealed: bool = False) -> Icc:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        if not sealed:
            return cls(reader, writer, ())
        sealed_writer = SealedWriter(writer)
        client = cls(SealedReader(reader, sealed_writer), sealed_writer, ())
        client.answers_pings = False  # timeseal's pings are [G], answered by the reader
        return client

    async def enter(self, name: str, password: str | None) -> str:
        return await self.login(name, password, "level1=1", f"level2settings={ALL_ON}")

    async def do(self, line: str, number: int, timeout: float = 10.0) -> list[Any]:
        """Send ``line``; its unit's events (header to end), after checking the header
        carries the command number ``number`` (Appendix 1) and ``*`` as the issuer."""
        self._seen = len(self.events)
        await self.send(line)
        start = await self.expect(
            lambda e: isinstance(e, UnitStart) and e.depth == 1 and e.issuer == "*", timeout
        )
        assert start.command == number, (line, start, number)
        at = self._seen - 1
        await self.expect(lambda e: isinstance(e, UnitEnd) and e.depth == 1, timeout)
        return self.events[at : self._seen]

    async def dg(
        self,
        number: int,
        since: int = 0,
        timeout: float = 10.0,
        where: Callable[[Any], bool] | None = None,
        **fields: Any,
    ) -> Any:
        """The first DG ``number`` with ``fields`` (and for which ``where`` holds) among
        the events from ``since`` on, reading until one comes."""

        def found() -> Any:
            for event in self.events[since:]:
                if (
                    getattr(event, "dg", None) == number
                    and all(getattr(event, k) == v for k, v in fields.items())
                    and (where is None or where(event))
                ):
                    return event
            return None

        async def wait() -> Any:
            while (event := found()) is None:
                if not await self._read():
                    raise ConnectionError(f"closed waiting for DG {number} {fields}")
            return event

        return await asyncio.wait_for(wait(), timeout)

    async def drain(self) -> None:
        """Read (and answer pings) until cancelled."""
        while await self._read():
            pass

    @property
    def mark(self) -> int:
        """Where the events received so far end (for ``dg(since=...)``)."""
        return len(self.events)
