"""One connection: the lines it sends and the bytes it is sent.

A :class:`Session` is a user connected here: a
:class:`~icswire.server.core.model.users.User` (what every node knows of it) with its
connection, of which it is the :class:`asyncio.Protocol`: no task waits on a connection.
Input: bytes arrive in :meth:`Session.data_received`; telnet commands are taken out at once
(a reply to our timing mark answers a ping), control characters cleaned, and the complete
lines (ending ``\\n`` or ``\\r\\n``) queued. The login dialogue awaits them
(:meth:`Session.read_line`); after it :attr:`Session.on_input` is told of each, and the
app runs them (:meth:`Session.has_input`, :meth:`Session.pop_line`). While
:data:`MAX_QUEUED` lines wait, the session stops reading the socket. A client whose
first line is a timeseal hello (FICS timeseal 1, or zseal's timeseal 2 as eboard runs it)
sends every line sealed with its own timestamp: the session unseals them, keeps each
line's timestamp (:attr:`Session.line_stamp`) and hands the answers to its ``[G]`` pings
to whoever asked (:meth:`Session.timeseal_ping`).

Output (icc-formats.txt Appendix 3): at most :data:`OUTPUT_LIMIT` characters may wait for
a receiver. A unit that does not fit is dropped and a control-Z sent in its place; a
receiver that stays over the limit for :attr:`Session.stuck_after` seconds is cut off.
Nobody waits for a slow reader: writes never block the server.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import cast

from icswire.protocol.telnet import CommandFilter, fics_newlines
from icswire.protocol.timeseal import PING, PING2, Hello, Pong, SealedLine, TimesealDecoder
from icswire.server.core.model.users import User

OUTPUT_LIMIT = 122_000
MAX_LINE = 1024
#: Lines a connection may have waiting to run before its socket is no longer read.
MAX_QUEUED = 256
#: Seconds a connection the server ends waits for its peer to close (Session.close).
LINGER = 2.0
_IAC = 0xFF
_TELNET_DO, _TELNET_WILL, _TELNET_WONT = 0xFD, 0xFB, 0xFC
TIMING_MARK = 6
DO_TIMING_MARK = bytes([_IAC, _TELNET_DO, TIMING_MARK])
WILL_ECHO = bytes([_IAC, _TELNET_WILL, 1])
WONT_ECHO = bytes([_IAC, _TELNET_WONT, 1])
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")
#: What clean_text does, on bytes: a line's control characters go as they arrive, before
#: the endless-line cut, so junk cannot push a line's text out of the kept part.
_TAB_TO_BLANK = bytes.maketrans(b"\t", b" ")
_CONTROL_BYTES = bytes(c for c in [*range(0x20), 0x7F] if c not in b"\t\n")
_TIMING_MARK_ANSWERS = ((_TELNET_WILL, TIMING_MARK), (_TELNET_WONT, TIMING_MARK))


def _without_controls(data: bytes | bytearray) -> bytes:
    return bytes(data).translate(_TAB_TO_BLANK, _CONTROL_BYTES)


def clean_text(text: str) -> str:
    """User text without control characters (tabs become blanks): nothing a user types can
    put a control-Y, a control-Z, a bell or a line break into someone else's stream."""
    return _CONTROL.sub("", text.replace("\t", " "))


@dataclass(eq=False, slots=True)
class Session(User, asyncio.Protocol):
    """A user connected here: the user, and its connection (its protocol)."""

    closed: bool = False
    stuck_after: float = 30.0
    overflows: int = 0  # units dropped for a full output buffer
    commands: int = 0  # lines run (the app counts them, for its log)
    #: Told of each line (or the end) that arrives while :meth:`read_line` is not waiting:
    #: the app's, once the user is logged in.
    on_input: Callable[[Session], None] | None = None
    #: Told once the connection is gone (the listener's count of connections).
    on_lost: Callable[[Session], None] | None = None
    #: The connection's transport, from :meth:`connection_made`.
    transport: asyncio.Transport | None = None
    #: The client's timestamp of the line :meth:`pop_line` returned last (timeseal only).
    line_stamp: int | None = None
    #: When anything was last read from the connection, ping answers included (DG_IDLE's
    #: time-since-read); :attr:`last_input` is the last line's.
    last_read: float = field(default_factory=time.monotonic)
    _stuck_since: float | None = None
    #: Bytes wait in the transport for the socket (between pause_ and resume_writing).
    _backlog: bool = False
    #: Bytes read and not yet queued as lines (telnet commands out, controls too once the
    #: first line is in).
    _buffer: bytes = b""
    _telnet: CommandFilter | None = None  # made at the first IAC byte
    _sealed: TimesealDecoder | None = None
    _first_line: bool = True
    #: Lines to run (text, client timestamp); None for the end of the input.
    _lines: list[tuple[str, int | None] | None] | None = None
    _eof: bool = False  # the input ended (end of file, or the connection is gone)
    _ended: bool = False  # the end of the input is queued
    _lost: bool = False  # connection_lost came
    _waiter: asyncio.Future[None] | None = None  # read_line, waiting
    _closing: asyncio.Future[None] | None = None  # close, waiting
    _pong_waiters: list[Callable[[int], None]] | None = None
    _ping_waiters: list[asyncio.Future[float]] | None = None

    @property
    def peer(self) -> str:
        """host:port of the other end (for the log)."""
        address = self.transport.get_extra_info("peername") if self.transport else None
        return f"{address[0]}:{address[1]}" if address else "-"

    # -- output ------------------------------------------------------------------------

    def pending(self) -> int:
        transport = self.transport
        if transport is None:
            raise RuntimeError("the connection is not made")
        return 0 if transport.is_closing() else transport.get_write_buffer_size()

    def send_unit(self, data: bytes) -> None:
        """Send one unit, or a control-Z in its place if the receiver cannot take it."""
        if self.closed:
            return
        if self.transport is None:
            raise RuntimeError("the connection is closed")
        # with nothing waiting (the usual case) the buffer is empty: no need to ask it
        if len(data) <= OUTPUT_LIMIT and (
            not self._backlog or self.pending() + len(data) <= OUTPUT_LIMIT
        ):
            self._stuck_since = None
            self.transport.write(data)
            return
        self.overflows += 1
        now = time.monotonic()
        if self._stuck_since is None:
            self._stuck_since = now
        elif now - self._stuck_since > self.stuck_after:
            self.abort()
            return
        self.transport.write(b"\x1a")

    def send_raw(self, data: bytes) -> None:
        """Bytes outside any unit (login texts, telnet commands, brackets); a FICS-dialect
        session gets their line ends as FICS sends them, ``\\n\\r``."""
        if not self.closed:
            if self.transport is None:
                raise RuntimeError("the connection is closed")
            self.transport.write(data if self.talks_icc else fics_newlines(data))

    def abort(self) -> None:
        """Cut the connection off at once (a stuck reader, a shutdown); the end of its
        input follows, as for a connection the peer closed."""
        self.closed = True
        if self.transport is None:
            raise RuntimeError("the connection is closed")
        self.transport.abort()

    async def close(self, linger: float = 0.0) -> None:
        """Close the connection. With ``linger``, first end our side once everything is
        sent, and drop what the peer still sends for up to ``linger`` seconds (until it
        closes too): a peer that is still typing would otherwise get a reset, which can
        destroy the last lines it was sent (a refusal, a goodbye) before it reads them."""
        if self.closed:
            return
        self.closed = True
        self._lines, self._buffer = None, b""
        transport = self.transport
        if transport is None:
            raise RuntimeError("the connection is not made")
        transport.resume_reading()  # a full queue paused it: the end must be seen
        try:
            if linger > 0 and not self._eof and transport.can_write_eof():
                transport.write_eof()
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(linger):
                        while not self._eof:
                            await self._wait_closing()
            transport.close()
            async with asyncio.timeout(2):
                while not self._lost:
                    await self._wait_closing()
        except (TimeoutError, OSError):
            transport.abort()

    def taken_over(self) -> None:
        """The registered user logged in again (here or on another node of a cluster):
        FICS's line, which clients such as PyChess look for, then the connection ends."""
        said = f"\r\n**** {self.name} has arrived - you can't both be logged in. ****\r\n"
        self.send_raw(said.encode())
        self.hang_up()

    def hang_up(self) -> None:
        """End the session from outside (a takeover, a nuke, the idle logout): no more
        prompts, and the end of its input is queued, so it leaves and is closed."""
        self.leaving = True
        if not self._ended:
            self._ended = True
            self._queue(None)

    # -- input -------------------------------------------------------------------------

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = cast(asyncio.Transport, transport)
        # told (pause_writing) as soon as any byte waits for the socket, and when none does
        self.transport.set_write_buffer_limits(high=0)

    def pause_writing(self) -> None:
        self._backlog = True

    def resume_writing(self) -> None:
        self._backlog = False

    def data_received(self, data: bytes) -> None:
        if self.closed:  # lingering: what the peer still sends is dropped
            return
        self.last_read = time.monotonic()
        if self._sealed is None:
            if self._telnet is not None or _IAC in data:
                self._telnet = self._telnet or CommandFilter()
                data, commands = self._telnet.feed(data)
                for command in commands:
                    if command in _TIMING_MARK_ANSWERS:
                        self._answer_pings()
            if not self._first_line:
                data = _without_controls(data)
        self._buffer += data
        self._scan()

    def eof_received(self) -> bool:
        """The peer sent everything (it may still read): the lines it sent run, then the
        session ends. True keeps the transport open for writing."""
        self._eof = True
        self._scan()
        self._wake()
        return True

    def connection_lost(self, exc: Exception | None) -> None:
        self._eof = self._lost = True
        self._scan()
        self._wake()
        if self.on_lost is not None:
            self.on_lost(self)

    async def read_line(self) -> str | None:
        """The next line the user sent, cleaned; None when the connection is gone (the
        login dialogue's way; after it the app is told of lines by :attr:`on_input`)."""
        while not self._lines:
            await self._wait()
        return self.pop_line()

    def has_input(self) -> bool:
        """Whether a line, or the end of the input, waits for :meth:`pop_line`."""
        return bool(self._lines)

    def pop_line(self) -> str | None:
        """The oldest line waiting (None: the input ended); reading the socket resumes
        once the queue has room again."""
        if not self._lines:
            raise RuntimeError("self._lines is empty")
        item = self._lines.pop(0)
        if not self._lines:
            self._lines = None
        self._scan()
        transport = self.transport
        room = len(self._lines or ()) < MAX_QUEUED
        if room and transport is not None and not transport.is_reading() and not self.closed:
            transport.resume_reading()
        if item is None:
            return None
        text, self.line_stamp = item
        return text

    def _scan(self) -> None:
        """Queue the complete lines in the buffer while there is room for them (the rest
        waits, and the socket with it); at the end of the input, the end once every line
        is queued (also on a closed session, whose lines are dropped)."""
        buffer, start = self._buffer, 0
        while not self.closed:
            if len(self._lines or ()) >= MAX_QUEUED:
                self._buffer = buffer[start:]
                if self.transport is not None:
                    self.transport.pause_reading()
                return
            end = buffer.find(b"\n", start)
            if end < 0:
                break
            line, start = buffer[start : end + 1], end + 1
            if self._sealed is not None:
                self._read_sealed(line)
            elif self._first_line and self._starts_timeseal(line):
                continue  # the hello: what follows is sealed
            else:
                if self._first_line:
                    self._first_line = False
                    line = _without_controls(line)
                    buffer, start = _without_controls(buffer[start:]), 0
                self._queue((line[:-1].decode("latin-1")[:MAX_LINE], None))
        buffer = b"" if self.closed else buffer[start:]
        if self._sealed is not None and buffer:
            self._read_sealed(buffer)  # the decoder keeps (and limits) an unfinished line
            buffer = b""
        elif len(buffer) > MAX_LINE * 4:  # an endless line: keep its start only
            buffer = buffer[:MAX_LINE]
        self._buffer = buffer
        if self._eof and not self._ended:
            self._ended = True
            self._queue(None)

    def _queue(self, item: tuple[str, int | None] | None) -> None:
        if item is not None:
            self.last_input = time.monotonic()
        if self._lines is None:
            self._lines = []
        self._lines.append(item)
        self._wake()
        if self.on_input is not None:
            self.on_input(self)

    async def _wait(self) -> None:
        """Until the next line or the end of the input (for :meth:`read_line`)."""
        self._waiter = asyncio.get_running_loop().create_future()
        try:
            await self._waiter
        finally:
            self._waiter = None

    async def _wait_closing(self) -> None:
        """Until the end of the input or the connection's loss (for :meth:`close`)."""
        self._closing = asyncio.get_running_loop().create_future()
        try:
            await self._closing
        finally:
            self._closing = None

    def _wake(self) -> None:
        for waiter in (self._waiter, self._closing):
            if waiter is not None and not waiter.done():
                waiter.set_result(None)

    def _starts_timeseal(self, line: bytes) -> bool:
        """Whether the first line is a timeseal hello (then every line is sealed)."""
        decoder = TimesealDecoder(max_size=MAX_LINE * 4)
        events = decoder.feed(line)
        if not (events and isinstance(events[0], Hello)):
            return False
        self._first_line = False
        self._sealed, self.timeseal = decoder, events[0].version
        return True

    def _read_sealed(self, data: bytes) -> None:
        """Sealed lines with their timestamps; pongs to whoever pinged; a line that is not
        sealed (or too long) is dropped, as FICS drops it."""
        if self._sealed is None:
            raise RuntimeError("self._sealed is None")
        for event in self._sealed.feed(data):
            if isinstance(event, SealedLine):
                self._queue((clean_text(event.text)[:MAX_LINE], event.timestamp))
            elif isinstance(event, Pong) and self._pong_waiters:
                self._pong_waiters.pop(0)(event.timestamp)

    def timeseal_ping(self, answered: Callable[[int], None]) -> bytes:
        """The ``[G]`` ping this client's timeseal answers; ``answered`` gets the client's
        timestamp of the moment it read it (pings are answered in the order sent)."""
        if self._pong_waiters is None:
            self._pong_waiters = []
        self._pong_waiters.append(answered)
        return PING2 if self.timeseal == 2 else PING

    async def ping(self, timeout: float = 10.0) -> float | None:
        """Round trip in milliseconds of a telnet timing mark (of timeseal's ``[G]`` ping
        for a timeseal client, whose timeseal answers it), None if it is not answered within
        ``timeout`` seconds. Only the caller waits: the session goes on meanwhile."""
        future: asyncio.Future[float] = asyncio.get_running_loop().create_future()
        sent = time.perf_counter()
        if self.timeseal:

            def pong(stamp: int) -> None:
                if not future.done():
                    future.set_result(time.perf_counter())

            self.send_raw(self.timeseal_ping(pong))
        else:
            if self._ping_waiters is None:
                self._ping_waiters = []
            self._ping_waiters.append(future)
            self.send_raw(DO_TIMING_MARK)
        try:
            answered = await asyncio.wait_for(future, timeout)
        except TimeoutError:
            if self._ping_waiters and future in self._ping_waiters:
                self._ping_waiters.remove(future)
            return None
        return (answered - sent) * 1000

    def _answer_pings(self) -> None:
        if self._ping_waiters:
            future = self._ping_waiters.pop(0)
            if not future.done():
                future.set_result(time.perf_counter())
