"""An asyncio connection to an ICC/FICS server, with live state.

>>> async with connect("127.0.0.1", 5000, "guest") as ics:      # doctest: +SKIP
...     print(await ics.run("games"))
...     async for event in ics.events():
...         ...

This is the ICC mode; ``connect(..., dialect="fics")`` (:mod:`icswire.client.dialects`)
gives the FICS mode (:mod:`icswire.client.fics`), which keeps the same state from FICS's
lines.

It logs in with ``level1=`` and ``level2settings=`` at the login prompt, runs commands
with a backquote tag so their output comes back whole and never mixed with another's
(icc-formats.txt section 3, level1 & 4), keeps :attr:`Connection.state` from the
datagrams, recovers from an output overflow the way Appendix 3 advises (all DGs off, then
on again one by one, the lists rebuilt), and reconnects when the connection drops.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
from collections.abc import AsyncIterator, Iterable

from icswire.client.state import STATE_DATAGRAMS, State
from icswire.protocol.datagrams import DG, MOVE_PART_DGS, RATING_DGS
from icswire.protocol.decoder import Decoder
from icswire.protocol.events import Event, Overflow, Prompt, Text, UnitEnd, UnitStart
from icswire.protocol.level1 import Level1

#: The greeting of a session that logged in: FICS's, or in an ICC session ICC's.
STARTING = ("**** Starting FICS session as ", "**** Starting ICC session as ")
LOGIN_EVENTS = 200  # what is kept of the login's events to confirm the settings
_MODIFIERS = frozenset(
    {*MOVE_PART_DGS, *RATING_DGS, DG.OPEN, DG.STATE, DG.UID, DG.MATCH_ASSESSMENT}
)
LOGIN_TIMEOUT = 15.0


class LoginError(Exception):
    """The server refused the login (the text it gave is the message)."""


class Connection:
    """One logged-in connection. Use :func:`connect`."""

    def __init__(
        self,
        host: str,
        port: int,
        user: str,
        password: str | None = None,
        datagrams: Iterable[int] = STATE_DATAGRAMS,
        level1: int = 5,
        reconnect: bool = True,
        login_settings: bool = True,
    ) -> None:
        self.host, self.port = host, port
        self.login_settings = login_settings
        self.user, self.password = user, password
        self.datagrams = frozenset(datagrams)
        self.level1 = Level1(level1) | Level1.UNITS | Level1.TAGS  # the tags echoed: section 3
        self.reconnect = reconnect
        self.state = State()
        self.name = ""
        self._tags = (f"c{n}" for n in itertools.count(1))
        self._pending: dict[str, asyncio.Future[list[Event]]] = {}
        self._unit: tuple[str, list[Event]] | None = None
        self._queue: asyncio.Queue[Event | None] = asyncio.Queue()
        self._reader: asyncio.StreamReader | None = None
        self._writer: asyncio.StreamWriter | None = None
        self._task: asyncio.Task[None] | None = None
        self._closing = False
        self._login: asyncio.Future[str] | None = None
        self.reconnects = 0
        self.overflows = 0
        #: The DGs the server confirmed: all of them when it answered the login settings
        #: with DG_WHO_AM_I, else those DG_SET2 acknowledged.
        self.confirmed: frozenset[int] = frozenset()
        self._login_events: list[Event] = []
        self._login_prompts = 0  # login: prompts seen while logging in
        self._login_said = ""  # the last line the server said while logging in

    # -- life cycle ----------------------------------------------------------------------

    async def open(self) -> None:
        """Connect and log in; :class:`LoginError` with the server's words at once when
        the login is refused (a wrong password, a bad or banned name), or when no answer
        comes within :data:`LOGIN_TIMEOUT` seconds."""
        self._reader, self._writer = await asyncio.open_connection(self.host, self.port)
        self._login_events = []
        self._login_prompts = 0
        self._login_said = ""
        self.decoder = self._new_decoder()
        loop = asyncio.get_running_loop()
        self._login = loop.create_future()
        self._task = loop.create_task(self._read_forever())
        self._send_login()
        try:
            self.name = await asyncio.wait_for(self._login, LOGIN_TIMEOUT)
        except TimeoutError:
            await self._abandon()
            said = f" (it said: {self._login_said})" if self._login_said else ""
            raise LoginError(f"no login within {LOGIN_TIMEOUT:g} s{said}") from None
        except LoginError:
            await self._abandon()
            raise
        self.state.me = self.name
        await self._setup()

    async def _abandon(self) -> None:
        """A login that failed: close the connection and stop reading it."""
        if self._writer is not None:
            self._writer.close()
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, ConnectionError, OSError):
                await self._task

    def _new_decoder(self) -> Decoder:
        return Decoder(self.datagrams)

    def _send_login(self) -> None:
        """What goes to ``login:``: the settings, then the name (and password)."""
        if self.login_settings:
            self._write(f"level1={self.level1}")
            self._write("level2settings=" + _bits(self.datagrams))
        if self.password is None:
            self._write(self.user)
            self._write("")  # guests and unregistered names press return
        else:
            self._write(f"{self.user} {self.password}")

    async def _setup(self) -> None:
        """What is done once logged in, before :meth:`open` returns."""
        await self._confirm()
        # boards come from datagrams; style 12 lines, not FICS's default text boards (style
        # 1), are what the console leaves out
        await self.run("set style 12")

    async def _confirm(self) -> None:
        """Check that the server took the settings: DG_WHO_AM_I comes right after login
        when level 2 is on. If it does not (a server that ignores them at ``login:``),
        set them after login, level1 first, then each DG with ``set-2``, and take
        DG_SET2's acknowledgements as the confirmation (section 2)."""
        if self.login_settings and DG.WHO_AM_I in self.datagrams:
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self._seen(DG.WHO_AM_I), 2.0)
                self.confirmed = self.datagrams
                return
        elif self.login_settings:
            self.confirmed = self.datagrams
            return
        await self.send(f"set level1 {self.level1}")
        self.confirmed = frozenset()
        acknowledged = [DG.SET2] if DG.SET2 in self.datagrams else []  # first: acks for the rest
        for number in acknowledged + [n for n in _in_order(self.datagrams) if n != DG.SET2]:
            await self.run(f"set-2 {number} 1")

    async def _seen(self, number: int) -> None:
        while not any(getattr(e, "dg", None) == number for e in self._login_events):
            await asyncio.sleep(0.01)

    async def close(self) -> None:
        self._closing = True
        if self._writer is not None:
            with contextlib.suppress(ConnectionError, OSError):
                self._write_command("quit")
                await self._writer.drain()
            self._writer.close()
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, ConnectionError, OSError):
                await self._task
        self._queue.put_nowait(None)

    async def __aenter__(self) -> Connection:
        await self.open()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    # -- commands --------------------------------------------------------------------

    def _write(self, line: str) -> None:
        if self._writer is None:
            raise RuntimeError("not connected")
        self._writer.write(line.encode("latin-1") + b"\n")

    def _write_command(self, line: str) -> None:
        self.decoder.note_command(line)
        self._write(line)

    async def send(self, line: str) -> None:
        """Send a line as it is (a move, a command whose output you do not wait for)."""
        self._write_command(line)
        if self._writer is None:
            raise RuntimeError("not connected")
        await self._writer.drain()

    async def run(self, command: str, timeout: float = 10.0) -> list[Event]:
        """Run ``command`` and return its whole output: the events of its level 1 unit,
        found by the backquote tag it was sent with."""
        tag = next(self._tags)
        future: asyncio.Future[list[Event]] = asyncio.get_running_loop().create_future()
        self._pending[tag] = future
        await self.send(f"`{tag}`{command}")
        try:
            return await asyncio.wait_for(future, timeout)
        finally:
            self._pending.pop(tag, None)

    async def events(self) -> AsyncIterator[Event]:
        """Every event, in order, as it comes (ends when the connection is closed)."""
        while (event := await self._queue.get()) is not None:
            yield event

    # -- reading ---------------------------------------------------------------------

    async def _read_forever(self) -> None:
        while True:
            if self._reader is None:
                raise RuntimeError("not connected")
            try:
                data = await self._reader.read(65536)
            except (ConnectionError, OSError):
                data = b""
            if not data:
                if (
                    self._closing
                    or not self.reconnect
                    or self._login is None
                    or not self._login.done()
                ):
                    if self._login is not None and not self._login.done():
                        said = self._login_said or "the connection closed"
                        self._login.set_exception(LoginError(said))
                    self._queue.put_nowait(None)
                    return
                await self._reconnect()
                return
            for event in self.decoder.feed(self._received(data)):
                self._take(event)

    def _received(self, data: bytes) -> bytes:
        """The bytes read, before the decoder sees them (timeseal takes its pings out)."""
        return data

    def _take(self, event: Event) -> None:
        if len(self._login_events) < LOGIN_EVENTS:
            self._login_events.append(event)
        if getattr(event, "dg", None) == DG.SET2 and event.on:  # type: ignore[union-attr]
            self.confirmed = self.confirmed | {event.dg_code}  # type: ignore[union-attr]
        login = self._login
        if login is not None and not login.done():
            self._during_login(login, event)
        self._collect(event)
        if isinstance(event, Overflow):
            self.overflows += 1
            asyncio.get_running_loop().create_task(self.recover())
        else:
            self._apply(event)
        self._queue.put_nowait(event)

    def _collect(self, event: Event) -> None:
        """Gather the output of the commands :meth:`run` waits for: level 1 units."""
        if isinstance(event, UnitStart) and event.depth == 1:
            self._unit = (event.tag or "", [])
        elif self._unit is not None:
            if isinstance(event, UnitEnd) and event.depth == 1:
                tag, collected = self._unit
                self._unit = None
                future = self._pending.get(tag)
                if future is not None and not future.done():
                    future.set_result(collected)
            else:
                self._unit[1].append(event)

    def _apply(self, event: Event) -> None:
        """Keep :attr:`state` up to date (from the datagrams)."""
        self.state.apply(event)

    def _login_lines(self) -> int:
        """How many lines before the name ``login:`` answers with ``login:`` again."""
        return 2 if self.login_settings else 0

    def _during_login(self, login: asyncio.Future[str], event: Event) -> None:
        """The name refused is a ``login:`` more than the lines sent before it asked for
        (the reason is the text before it)."""
        if isinstance(event, Text) and event.text.strip():
            self._login_said = event.text.strip().strip("* ").strip()
        if isinstance(event, Prompt) and event.text == "login: ":
            self._login_prompts += 1
            if self._login_prompts > 1 + self._login_lines():
                login.set_exception(LoginError(self._login_said or "the name was refused"))
                return
        if isinstance(event, Text) and event.text.startswith(STARTING):
            name = event.text.split(" as ", 1)[1].split(" ")[0].removesuffix("(U)")
            login.set_result(name)
        elif getattr(event, "dg", None) == DG.LOGIN_FAILED:
            login.set_exception(LoginError(event.explanation))  # type: ignore[union-attr]
        elif isinstance(event, Text) and "Invalid password" in event.text:
            login.set_exception(LoginError(event.text.strip("* ")))
        elif isinstance(event, Prompt) and event.text == "password: ":
            login.set_exception(LoginError(f"{self.user} is registered: a password is needed"))

    # -- recovery --------------------------------------------------------------------

    async def recover(self) -> None:
        """After an overflow (``^Z``), Appendix 3's advice: turn every DG off, then on again
        one at a time; turning a DG on sends its list again, so the state is rebuilt."""
        for number in sorted(self.datagrams):
            await self.send(f"set-2 {number} 0")
        self.state.clear()
        for number in _in_order(self.datagrams):
            await self.run(f"set-2 {number} 1")

    async def _reconnect(self) -> None:
        """The connection dropped: log in again (the lists come again with the DGs), and
        observe again the games that were being observed."""
        observed = [n for n, g in self.state.my_games.items() if g.relation == "O"]
        self.state.clear()
        self._forget_output()
        delay = 0.2
        while not self._closing:
            try:
                await self.open()
                break
            except (TimeoutError, ConnectionError, OSError, LoginError):
                await asyncio.sleep(delay)
                delay = min(delay * 2, 5.0)
        self.reconnects += 1
        for number in observed:
            await self.run(f"observe {number}")

    def _forget_output(self) -> None:
        """The connection dropped: commands waiting for their output get an error."""
        self._unit = None
        for future in self._pending.values():
            if not future.done():
                future.set_exception(ConnectionError("the connection dropped"))


def _in_order(datagrams: Iterable[int]) -> list[int]:
    """The order to turn DGs on: the variables that shape other DGs first (move parts,
    ratings, open, state, uid, assessments), so the lists come in their full form."""
    ordered = sorted(datagrams)
    return [n for n in ordered if n in _MODIFIERS] + [n for n in ordered if n not in _MODIFIERS]


def _bits(datagrams: Iterable[int]) -> str:
    enabled = set(datagrams)
    return "".join("1" if n in enabled else "0" for n in range(max(enabled, default=0) + 1))


__all__ = ["Connection", "LoginError"]
