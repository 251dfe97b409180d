"""What a robot on a server does with its connection, shared by the bot
(:mod:`icswire.bot.session`) and the TD (:mod:`icswire.td.session`): the connection once
logged in, a read loop that keeps the personal tells and wakes the main loop at each
event, the wait between two looks at the state, and commands whose failures are logged
instead of raised."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from collections.abc import Sequence
from typing import Any, ClassVar, Final

from icswire.client.connection import Connection
from icswire.client.dialects import connect
from icswire.client.tells import tell_of
from icswire.protocol.events import Text

__all__ = ["COMMAND_ERRORS", "Robot"]

#: What a command that got no answer, or a connection that dropped under it, raises.
COMMAND_ERRORS: Final = (TimeoutError, ConnectionError, OSError, RuntimeError)


class Robot:
    """The connection life cycle of one robot; a subclass names itself, its logger and
    the longest it sleeps without an event, and hears each event in :meth:`_heard`."""

    #: Who is not connected, in the error :attr:`ics` raises ("the bot").
    who: ClassVar[str] = "the robot"
    #: The longest the loop sleeps without an event (it then looks at the state again).
    idle_wake: ClassVar[float] = 5.0
    _log: ClassVar[logging.Logger] = logging.getLogger("icswire.client")

    def __init__(self) -> None:
        #: Set once logged in (the first time).
        self.logged_in = asyncio.Event()
        self._ics: Connection | None = None
        self._wake = asyncio.Event()
        self._tells: deque[tuple[str, str]] = deque()
        self._closed = False

    @property
    def ics(self) -> Connection:
        if self._ics is None:
            raise RuntimeError(f"{self.who} is not connected")
        return self._ics

    async def _log_in(
        self, host: str, port: int, user: str, password: str | None, **options: Any
    ) -> Connection:
        """Connect (:func:`icswire.client.connect`, ``options`` as it takes them) and log in."""
        self._ics = connect(host, port, user, password, **options)
        await self._ics.open()
        return self._ics

    async def _close(self, reader: asyncio.Task[None]) -> None:
        """Stop the read loop ``reader`` and close the connection."""
        reader.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await reader
        await self.ics.close()

    async def _sleep(self, stop: asyncio.Event | None) -> None:
        """Until an event comes (or ``stop``, or :attr:`idle_wake` seconds)."""
        waits = [asyncio.ensure_future(self._wake.wait())]
        if stop is not None:
            waits.append(asyncio.ensure_future(stop.wait()))
        try:
            await asyncio.wait(waits, timeout=self.idle_wake, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for waiting in waits:
                waiting.cancel()
        self._wake.clear()

    async def _read(self) -> None:
        """Every event wakes the loop; tells are kept for it, the rest heard by
        :meth:`_heard`; at the connection's end :attr:`_closed` is set."""
        event: Any
        async for event in self.ics.events():
            told = tell_of(event)
            if told is not None:
                self._tells.append(told)
            self._heard(event, told is not None)
            self._wake.set()
        self._closed = True
        self._wake.set()

    def _heard(self, event: Any, told: bool) -> None:
        """One event from the server (``told``: it was a personal tell, kept already)."""

    async def _run(self, command: str) -> list[str]:
        """Run ``command``; its lines of text (none when the connection failed)."""
        try:
            events: Sequence[Any] = await self.ics.run(command)
        except COMMAND_ERRORS as exc:
            self._log.warning("%r got no answer: %s", command, exc or type(exc).__name__)
            return []
        return [e.text for e in events if isinstance(e, Text) and e.text]

    async def _send(self, line: str) -> None:
        """Send ``line`` without waiting for its answer (a move)."""
        try:
            await self.ics.send(line)
        except COMMAND_ERRORS as exc:
            self._log.warning("%r was not sent: %s", line, exc or type(exc).__name__)
