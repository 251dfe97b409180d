"""One connection: its settings, the lines it sends and the bytes it is sent.

Input: lines ending ``\\n`` or ``\\r\\n``; telnet commands are taken out (a reply to our
timing mark answers a ping) and control characters cleaned from the text. A client whose
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
from typing import Any

from icswire.protocol.telnet import CommandFilter
from icswire.protocol.timeseal import PING, PING2, Hello, Pong, SealedLine, TimesealDecoder
from icswire.server.core.limits import Bucket
from icswire.server.core.linequeue import LineQueue
from icswire.server.core.names import name_key
from icswire.server.core.variables import IVARIABLES, VARIABLES

OUTPUT_LIMIT = 122_000
#: ICC's prompt, where FICS's is ``fics%``.
ICC_PROMPT = "aics%"
MAX_LINE = 1024
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
class Session:
    """A connected user: settings, identity, and the output side of the connection."""

    reader: asyncio.StreamReader
    writer: asyncio.StreamWriter
    peer: str = ""  # host:port
    host: str = ""  # the address, which per-address limits count by
    name: str = ""
    registered: bool = False
    #: A registered user with the administrator flag (FICS shows ``(*)`` after the name).
    admin: bool = False
    logged_in: bool = False
    leaving: bool = False  # quit: no prompt after the last unit
    closed: bool = False
    level1: int = 0
    level2: frozenset[int] = frozenset()
    variables: dict[str, Any] = field(default_factory=lambda: dict(VARIABLES.defaults))
    ivariables: dict[str, Any] = field(default_factory=lambda: dict(IVARIABLES.defaults))
    aliases: dict[str, str] = field(default_factory=dict)
    more: list[str] = field(default_factory=list)  # long text waiting for ``next``
    channels: set[int] = field(default_factory=set)
    #: The notify list: name key -> the name as added.
    notify: dict[str, str] = field(default_factory=dict)
    #: The personal lists ``censor``, ``gnotify`` and ``noplay``: name key -> name.
    lists: dict[str, dict[str, str]] = field(
        default_factory=lambda: {"censor": {}, "gnotify": {}, "noplay": {}}
    )
    state: str = "X"  # DG_STATE: P playing, E examining, S simul, X none
    state_game: int = 0
    observing: set[int] = field(default_factory=set)  # game numbers
    ratings: dict[str, tuple[int, int]] = field(default_factory=dict)  # type: (rating, note)
    connected_at: float = field(default_factory=time.monotonic)
    last_input: float = field(default_factory=time.monotonic)
    stuck_after: float = 30.0
    overflows: int = 0  # units dropped for a full output buffer
    buckets: dict[str, Bucket] = field(default_factory=dict)  # rate limits, by kind
    _stuck_since: float | None = None
    _buffer: bytearray = field(default_factory=bytearray)
    _telnet: CommandFilter = field(default_factory=CommandFilter)
    #: 0 for a plain client, else the timeseal version it speaks (1, or 2 for zseal).
    timeseal: int = 0
    #: The client's timestamp of the line :meth:`read_line` returned last (timeseal only).
    line_stamp: int | None = None
    _lines: LineQueue[tuple[str, int | None] | None] = field(default_factory=lambda: LineQueue(256))
    _sealed: TimesealDecoder | None = None
    _first_line: bool = True
    _pong_waiters: list[Callable[[int], None]] = field(default_factory=list)
    _pump: asyncio.Task[None] | None = None
    _ping_waiters: list[asyncio.Future[float]] = field(default_factory=list)

    # -- identity ----------------------------------------------------------------------

    @property
    def titles(self) -> str:
        """The titles field of datagrams: guests are ``U`` (unregistered)."""
        return "" if self.registered else "U"

    @property
    def display_name(self) -> str:
        return self.name if self.registered else f"{self.name}(U)"

    def censors(self, other: Session) -> bool:
        """Whether ``other`` is on this user's censor list (FICS ``help censor``: their
        tells, channel tells, shouts, match requests and messages are not shown)."""
        return name_key(other.name) in self.lists["censor"]

    @property
    def talks_icc(self) -> bool:
        """Whether this is an ICC client: it turned level 1 or level 2 on (at login or
        later), which FICS clients never do. It gets ICC's text layouts and prompt where
        the two servers differ (README, "Two faces")."""
        return bool(self.level1 or self.level2)

    # -- output ------------------------------------------------------------------------

    def prompt_bytes(self) -> bytes:
        """The level 0 prompt. ``set prompt`` takes FICS's text or ICC's switch: ``0`` is
        no prompt at all (what PyChess asks for), ``1`` the default."""
        prompt = str(self.variables["prompt"])
        if self.leaving or prompt == "0":
            return b""
        if self.ivariables["defprompt"] or prompt == "1":
            prompt = str(VARIABLES.defaults["prompt"])
        if prompt == VARIABLES.defaults["prompt"] and self.talks_icc:
            prompt = ICC_PROMPT
        return (prompt + " ").encode("latin-1")

    @property
    def wrap_width(self) -> int:
        """The column FICS wraps this receiver's text at (``set width``); 0 for none:
        ``iset nowrap 1``, and ICC sessions (ICC's clients do their own wrapping)."""
        if self.talks_icc or self.ivariables["nowrap"]:
            return 0
        return int(self.variables["width"])

    def wrap_key(self, is_issuer: bool) -> Any:
        """What of this receiver's settings the wrapping of a unit depends on."""
        if self.level1 & 1:
            return (self.level1, is_issuer)
        return (0, is_issuer, self.prompt_bytes(), self.leaving, self.wrap_width)

    def pending(self) -> int:
        transport = self.writer.transport
        return 0 if transport.is_closing() else transport.get_write_buffer_size()

    def send_unit(self, data: bytes) -> None:
        """Send one unit, or a control-Z in its place if the receiver cannot take it."""
        if self.closed:
            return
        if self.pending() + len(data) <= OUTPUT_LIMIT:
            self._stuck_since = None
            self.writer.write(data)
            return
        self.overflows += 1
        now = time.monotonic()
        if self._stuck_since is None:
            self._stuck_since = now
        elif now - self._stuck_since > self.stuck_after:
            self.abort()
            return
        self.writer.write(b"\x1a")

    def send_raw(self, data: bytes) -> None:
        """Bytes outside any unit (login texts, telnet commands, brackets)."""
        if not self.closed:
            self.writer.write(data)

    def abort(self) -> None:
        """Cut the connection off at once (a stuck reader, a shutdown)."""
        if self._pump is not None:
            self._pump.cancel()
        self.closed = True
        self.writer.transport.abort()

    async def close(self, linger: float = 0.0) -> None:
        """Close the connection. With ``linger``, first end our side once everything is
        sent, and drop what the peer still sends for up to ``linger`` seconds (until it
        closes too): a peer that is still typing would otherwise get a reset, which can
        destroy the last lines it was sent (a refusal, a goodbye) before it reads them."""
        if self.closed:
            if self._pump is not None:
                self._pump.cancel()
            return
        self.closed = True
        try:
            pump = self._pump
            if linger > 0 and pump is not None and not pump.done() and self.writer.can_write_eof():
                self.writer.write_eof()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._drop_input(), linger)
            if pump is not None:
                pump.cancel()
            self.writer.close()
            await asyncio.wait_for(self.writer.wait_closed(), 2)
        except (TimeoutError, OSError):
            self.writer.transport.abort()

    async def _drop_input(self) -> None:
        while await self._lines.get() is not None:
            pass

    def hang_up(self) -> None:
        """End the connection from outside its own task (a takeover): no more prompts, and
        the line its task waits for comes back None, so the task leaves and closes it."""
        self.leaving = True
        with contextlib.suppress(asyncio.QueueFull):
            self._lines.put_nowait(None)

    # -- input -------------------------------------------------------------------------

    async def read_line(self, timeout: float | None = None) -> str | None:
        """The next line the user sent, cleaned; None when the connection is gone;
        TimeoutError when none comes within ``timeout`` seconds.

        A reading task takes the input as it comes, so telnet replies (a ping's answer)
        are seen even while a command of this user is running; lines wait in a queue.
        """
        if self._pump is None:
            self._pump = asyncio.create_task(self._read_input())
        if timeout is None or not self._lines.empty():
            item = await self._lines.get()
        else:
            async with asyncio.timeout(timeout):
                item = await self._lines.get()
        if item is None:
            return None
        text, self.line_stamp = item
        return text

    async def _read_input(self) -> None:
        buffer = self._buffer
        try:
            while True:
                try:
                    chunk = await self.reader.read(4096)
                except (ConnectionError, OSError):
                    break
                if not chunk:
                    break
                if self._sealed is not None:
                    await self._read_sealed(chunk)
                    continue
                data, commands = self._telnet.feed(chunk)
                for command in commands:
                    if command in _TIMING_MARK_ANSWERS:
                        self._answer_pings()
                buffer += data if self._first_line else _without_controls(data)
                while (end := buffer.find(b"\n")) >= 0:
                    raw = bytes(buffer[:end])
                    del buffer[: end + 1]
                    if self._first_line:
                        if self._starts_timeseal(raw + b"\n"):
                            await self._read_sealed(bytes(buffer))
                            buffer.clear()
                            break
                        raw = _without_controls(raw)
                        buffer[:] = _without_controls(buffer)
                    self.last_input = time.monotonic()
                    await self._lines.put((raw.decode("latin-1")[:MAX_LINE], None))
                if len(buffer) > MAX_LINE * 4:  # an endless line: keep its start only
                    del buffer[MAX_LINE:]
        finally:
            await self._lines.put(None)

    def _starts_timeseal(self, line: bytes) -> bool:
        """Whether the first line is a timeseal hello (then every line is sealed)."""
        self._first_line = False
        decoder = TimesealDecoder(max_size=MAX_LINE * 4)
        events = decoder.feed(line)
        if not (events and isinstance(events[0], Hello)):
            return False
        self._sealed, self.timeseal = decoder, events[0].version
        return True

    async def _read_sealed(self, data: bytes) -> None:
        """Sealed lines with their timestamps; pongs to whoever pinged; a line that is not
        sealed (or too long) is dropped, as FICS drops it."""
        assert self._sealed is not None
        for event in self._sealed.feed(data):
            if isinstance(event, SealedLine):
                self.last_input = time.monotonic()
                text = clean_text(event.text)[:MAX_LINE]
                await self._lines.put((text, event.timestamp))
            elif isinstance(event, Pong) and self._pong_waiters:
                self._pong_waiters.pop(0)(event.timestamp)

    def timeseal_ping(self, answered: Callable[[int], None]) -> bytes:
        """The ``[G]`` ping this client's timeseal answers; ``answered`` gets the client's
        timestamp of the moment it read it (pings are answered in the order sent)."""
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
            self._ping_waiters.append(future)
            self.send_raw(DO_TIMING_MARK)
        try:
            answered = await asyncio.wait_for(future, timeout)
        except TimeoutError:
            if future in self._ping_waiters:
                self._ping_waiters.remove(future)
            return None
        return (answered - sent) * 1000

    def _answer_pings(self) -> None:
        if self._ping_waiters:
            future = self._ping_waiters.pop(0)
            if not future.done():
                future.set_result(time.perf_counter())
