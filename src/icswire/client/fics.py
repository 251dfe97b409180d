"""The client's FICS mode: a connection that talks to a FICS server as FICS clients do.

>>> async with connect("127.0.0.1", 5000, "guest", dialect="fics") as ics:  # doctest: +SKIP
...     block = await ics.run("games")         # its events, block.code == BLKCMD_GAMES
...     async for event in ics.events():
...         ...

It logs in with no level settings (the name, then the password at ``password:``; a
timeseal hello first with ``timeseal=True``), turns block mode on (``iset block 1``, FICS
help ``iv_block``) and from then on sends every line as ``ID COMMAND``: :meth:`run`
returns the command's block, its events with its id and code (:class:`Block`), so
concurrent commands never mix, and a move or any line sent with :meth:`send` has an id
too, as block mode requires. It then sets style 12 with clocks in milliseconds and the
interface variables that make FICS's state parseable (:data:`FICS_SETTINGS`), lists the
players with ``who``, and keeps :attr:`state` from FICS's lines
(:meth:`icswire.client.state.State.apply_fics`): the same model the ICC mode keeps from
datagrams. A game first seen past its start (observed, resumed) gets its earlier moves
from ``moves N``.
"""

from __future__ import annotations

import asyncio
import contextlib
import platform
import re
import time
from collections.abc import Callable, Coroutine, Iterable, Sequence
from typing import Any, Final

from icswire.boards.game import Game, PlayedMove
from icswire.boards.moves import IllegalMoveError, move_from_san, san_from_move, smith_from_move
from icswire.client.connection import Connection, LoginError
from icswire.client.state import first_ply
from icswire.protocol.block import BlockCode
from icswire.protocol.decoder import Decoder
from icswire.protocol.events import (
    BlockEnd,
    BlockStart,
    Event,
    Prompt,
    Style12Line,
    Telnet,
    Text,
)
from icswire.protocol.style12 import parse_move_time
from icswire.protocol.timeseal import PONG, STAMP_MODULUS, PingFilter, hello_text, seal

__all__ = ["FICS_SETTINGS", "Block", "FicsConnection", "parse_movelist"]

#: What a FICS-mode connection sets after ``iset block 1`` (each answered by its own
#: block): prompts always ``fics%``, no wrapping, style 12 with clocks in ms, seeks as
#: ``<s>``/``<sr>`` (seekremove first, as ``iv_seekinfo`` says) with my own seeks too (as
#: DG_SEEK gives them), offers as ``<pf>``/``<pt>``/``<pr>``, ``<g1>`` for each game,
#: arrivals and departures.
FICS_SETTINGS: Final = (
    "iset defprompt 1",
    "iset nowrap 1",
    "iset ms 1",
    "set style 12",
    "iset seekremove 1",
    "iset seekinfo 1",
    "iset showownseek 1",
    "iset pendinfo 1",
    "iset gameinfo 1",
    "set pin 1",
)
_DO_TIMING_MARK: Final = b"\xff\xfd\x06"
_WONT_TIMING_MARK: Final = b"\xff\xfc\x06"
#: What FICS answers a setting it took: ``ms set.``, ``Style 12 set.``, or for ``set pin``
#: its own words (``You will now hear logins/logouts.``).
_SET: Final = re.compile(
    r"\S+ (set|unset)\b|Style \d+ set|style set to \d+|You will (now|not) hear", re.IGNORECASE
)
_TIME: Final = r"(?:\s+(\(\d+:\d\d(?:\.\d{3})?\)))?"  # the time a move took
_MOVE_ROW: Final = re.compile(rf"\s*\d+\.\s+(\.\.\.|\S+){_TIME}(?:\s+(\S+){_TIME})?\s*")


class Block(list[Event]):
    """The output of one command in block mode: its events, with the block's ``id`` and
    ``code`` (:class:`~icswire.protocol.block.BlockCode`: which command ran, or why none
    did: 512 and up)."""

    def __init__(self, block_id: int, code: int, events: Iterable[Event] = ()) -> None:
        super().__init__(events)
        self.id = block_id
        self.code = code

    @property
    def ok(self) -> bool:
        """Whether a command ran (the code is not one of the ``BLKCMD_ERROR_*``)."""
        return self.code < BlockCode.BLKCMD_ERROR_BADCOMMAND

    @property
    def texts(self) -> list[str]:
        """The block's lines of text (blank ones left out)."""
        return [e.text for e in self if isinstance(e, Text) and e.text]

    def __repr__(self) -> str:
        return f"Block(id={self.id}, code={self.code}, {list.__repr__(self)})"


class FicsConnection(Connection):
    """One logged-in FICS-mode connection. Use :func:`icswire.client.connect` with
    ``dialect="fics"``. ``settings`` are the lines run after ``iset block 1``;
    ``timeseal`` seals every line with the client's clock (FICS timeseal 1) and answers
    the server's ``[G]`` pings."""

    def __init__(
        self,
        host: str,
        port: int,
        user: str,
        password: str | None = None,
        reconnect: bool = True,
        timeseal: bool = False,
        settings: Sequence[str] = FICS_SETTINGS,
    ) -> None:
        super().__init__(host, port, user, password, (), reconnect=reconnect)
        self.timeseal = timeseal
        self.settings = tuple(settings)
        #: The settings the server said it took ("ms set.", "style set to 12.").
        self.confirmed_settings: frozenset[str] = frozenset()
        self.pings = 0  # timeseal pings answered
        self._ids = 0
        self._blocks: list[Block] = []  # open blocks, innermost last
        self._waiting: dict[int, asyncio.Future[Block]] = {}
        self._then: dict[int, Callable[[Block], object]] = {}
        self._ping_filter = PingFilter()
        self._tasks: set[asyncio.Task[None]] = set()

    # -- login -------------------------------------------------------------------------

    def _new_decoder(self) -> Decoder:
        self._ping_filter = PingFilter()
        self._blocks = []
        return Decoder()

    def _send_login(self) -> None:
        if self.timeseal:
            self._write(hello_text("icswire", platform.system() or "Python"))
        self._write(self.user)
        if self.password is None:
            self._write("")  # guests and unregistered names press return

    def _login_lines(self) -> int:
        return 0  # FICS clients send no settings at login:

    def _during_login(self, login: asyncio.Future[str], event: Event) -> None:
        """The password at ``password:``; a name that is not registered while we have a
        password is refused at once."""
        if isinstance(event, Prompt) and event.text == "password: " and self.password:
            self._write(self.password)
            return
        if self.password and isinstance(event, Text) and "is not a registered name" in event.text:
            login.set_exception(LoginError(event.text.strip()))
            return
        super()._during_login(login, event)

    async def _setup(self) -> None:
        """Block mode, then the settings (each its own block), then the players."""
        self._write_command("iset block 1")
        replies = await asyncio.gather(*(self.run(line) for line in self.settings))
        self.confirmed_settings = frozenset(
            line
            for line, block in zip(self.settings, replies, strict=True)
            if block.ok and any(_SET.match(text) for text in block.texts)
        )
        await self._run_then("who", lambda block: self.state.apply_who(block.texts))

    # -- commands ----------------------------------------------------------------------

    def _write(self, line: str) -> None:
        if not self.timeseal:
            super()._write(line)
            return
        if self._writer is None:
            raise RuntimeError("not connected")
        text = line.encode("ascii", "replace").decode("ascii").replace("\x18", "?")
        self._writer.write(seal(text, _stamp()))

    def _write_command(self, line: str) -> None:
        """Write a command line: with the next block id once block mode is on, as it is
        before."""
        if self.decoder.block_mode:
            self._write_numbered(self._next_id(), line)
        else:
            super()._write_command(line)

    def _next_id(self) -> int:
        self._ids = self._ids % 999_999_999 + 1
        return self._ids

    def _write_numbered(self, block_id: int, line: str) -> None:
        numbered = f"{block_id} {line}"
        self.decoder.note_command(numbered)
        self._write(numbered)

    async def send(self, line: str) -> None:
        """Send a line (a move, a command whose output you do not wait for); in block
        mode it gets an id like every line, and its block comes as events."""
        self._write_command(line)
        if self._writer is None:
            raise RuntimeError("not connected")
        await self._writer.drain()

    async def run(self, command: str, timeout: float = 10.0) -> Block:
        """Run ``command`` and return its block: the events of its output, its id and
        its code."""
        return await self._run_then(command, None, timeout)

    async def _run_then(
        self, command: str, then: Callable[[Block], object] | None, timeout: float = 10.0
    ) -> Block:
        """:meth:`run`, with ``then`` called on the block as soon as it ends, before any
        later event is applied (for output that updates the state)."""
        if not self.decoder.block_mode:
            raise RuntimeError("block mode is not on yet")
        future: asyncio.Future[Block] = asyncio.get_running_loop().create_future()
        block_id = self._next_id()
        self._waiting[block_id] = future
        if then is not None:
            self._then[block_id] = then
        self._write_numbered(block_id, command)
        if self._writer is None:
            raise RuntimeError("not connected")
        try:
            await self._writer.drain()
            return await asyncio.wait_for(future, timeout)
        finally:
            self._waiting.pop(block_id, None)
            self._then.pop(block_id, None)

    async def close(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        await super().close()

    # -- reading -----------------------------------------------------------------------

    def _received(self, data: bytes) -> bytes:
        if not self.timeseal:
            return data
        data, pings = self._ping_filter.feed(data)
        if pings and self._writer is not None:
            for _ in range(pings):
                self._writer.write(seal(PONG, _stamp()))
            self.pings += pings
        return data

    def _collect(self, event: Event) -> None:
        if isinstance(event, Telnet) and event.data == _DO_TIMING_MARK and not self.timeseal:
            # the server's lag ping: telnet clients answer
            if self._writer is None:
                raise RuntimeError("not connected")
            self._writer.write(_WONT_TIMING_MARK)
        if isinstance(event, BlockStart):
            self._blocks.append(Block(event.id, event.code))
        elif isinstance(event, BlockEnd):
            if self._blocks:
                block = self._blocks.pop()
                then = self._then.pop(block.id, None)
                if then is not None:
                    then(block)
                future = self._waiting.get(block.id)
                if future is not None and not future.done():
                    future.set_result(block)
        elif self._blocks:
            self._blocks[-1].append(event)

    def _apply(self, event: Event) -> None:
        state = self.state
        if isinstance(event, Style12Line):
            number = event.record.game_number
            before = state.my_games.get(number)
            state.apply_fics(event)
            mine = state.my_games.get(number)
            if mine is not None and mine is not before and first_ply(event.record) > 0:
                self._spawn(self._fetch_moves(number, mine.game, first_ply(event.record)))
        else:
            state.apply_fics(event)

    def _spawn(self, coroutine: Coroutine[Any, Any, None]) -> None:
        task = asyncio.get_running_loop().create_task(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _fetch_moves(self, number: int, game: Game, ply: int) -> None:
        """A game first seen at ply ``ply`` > 0: its moves up to there, from ``moves N``."""
        with contextlib.suppress(TimeoutError, ConnectionError, RuntimeError):
            await self._run_then(
                f"moves {number}",
                lambda block: prepend_moves(game, parse_movelist(block.texts), ply),
            )

    # -- recovery ----------------------------------------------------------------------

    async def recover(self) -> None:
        """Have the lists sent again: the settings that send them (seeks, offers), and
        ``who``; my games stay (their next board brings them up to date)."""
        state = self.state
        state.players.clear()
        state.pending.clear()
        state.matches.clear()
        for line in self.settings:
            await self.run(line)
        await self._run_then("who", lambda block: self.state.apply_who(block.texts))

    def _forget_output(self) -> None:
        self._blocks = []
        for future in self._waiting.values():
            if not future.done():
                future.set_exception(ConnectionError("the connection dropped"))
        self._then.clear()


def _stamp() -> int:
    """Timeseal's clock: milliseconds, wrapping as PyChess's does."""
    return int(time.monotonic() * 1000) % STAMP_MODULUS


def parse_movelist(texts: Iterable[str]) -> list[tuple[str, int | None]]:
    """The moves of FICS's ``moves``/``smoves`` output, in order: (SAN, time taken in ms
    or None). ``...`` in White's column (a game that started with Black to move) counts
    as a half-move of nobody's and is skipped."""
    moves: list[tuple[str, int | None]] = []
    started = False
    for text in texts:
        if text.startswith("----"):
            started = True
            continue
        if not started:
            continue
        m = _MOVE_ROW.fullmatch(text)
        if m is None:
            if text.lstrip().startswith("{"):
                break
            continue
        for san, spent in ((m[1], m[2]), (m[3], m[4])):
            if san is not None and san != "...":
                moves.append((san, None if spent is None else parse_move_time(spent)[0]))
    return moves


def prepend_moves(game: Game, moves: Sequence[tuple[str, int | None]], ply: int) -> bool:
    """Give ``game`` (built from style 12 boards, first seen at half-move ``ply``) the
    ``ply`` moves before its first board, when they lead from the variant's start to that
    board; else leave it as it is (True if it was changed)."""
    if not game.replayed or len(moves) < ply or ply <= 0:
        return False
    try:
        start = game.new_board()
    except ValueError:
        return False
    board = start.copy()
    played: list[PlayedMove] = []
    try:
        for san, spent in moves[:ply]:
            move = move_from_san(board, san)
            played.append(
                PlayedMove(move, san_from_move(board, move), smith_from_move(board, move), spent)
            )
            board.push(move)
    except IllegalMoveError:
        return False
    seen = game.start
    if (board.board_fen(promoted=False), board.turn, board.clean_castling_rights()) != (
        seen.board_fen(promoted=False),
        seen.turn,
        seen.clean_castling_rights(),
    ):
        return False
    later = list(game.moves)
    game.start = start.copy(stack=False)
    game.moves = played + later
    replay = start.copy(stack=False)
    for made in game.moves:
        if made.move is None:
            raise RuntimeError("made.move is None")
        replay.push(made.move)
    game.board = replay
    return True
