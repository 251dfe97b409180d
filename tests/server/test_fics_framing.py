"""FICS framing on the server: block mode (help ``iv_block``) and timeseal (a client's
lines sealed with its own timestamps; clocks charged by them, within bounds)."""

from __future__ import annotations

import asyncio
import contextlib
import re
import time
from typing import Any

import pytest

from icswire.protocol.block import BlockCode
from icswire.protocol.events import BlockEnd, BlockStart, Style12Line, Text
from icswire.protocol.timeseal import PING, PONG, hello_text, seal
from icswire.server.app import Server
from icswire.server.features.play import games

from .client import Client

pytestmark = pytest.mark.sockets  # the wire is what these tests are about


def blocks(events: list[Any]) -> list[tuple[BlockStart, list[str]]]:
    """Each block of ``events`` with the texts inside it."""
    found: list[tuple[BlockStart, list[str]]] = []
    inside = False
    for event in events:
        if isinstance(event, BlockStart):
            found.append((event, []))
            inside = True
        elif isinstance(event, BlockEnd):
            inside = False
        elif inside and isinstance(event, Text) and event.text:
            found[-1][1].append(event.text)
    return found


async def block_user(server: Server, name: str) -> Client:
    client = await Client.connect(server.port)
    await client.login(name)
    said = await client.command("iset block 1")
    assert "block set." in [e.text for e in said if isinstance(e, Text)]
    client.decoder.set_block_mode(True)
    return client


# -- block mode ----------------------------------------------------------------------------


async def test_each_command_is_one_block_with_its_code(server: Server) -> None:
    client = await block_user(server, "Blocky")
    [(start, said)] = blocks(await client.command("5 date"))
    assert start == BlockStart(5, BlockCode.BLKCMD_DATE)
    assert said[0].startswith("Local time")
    [(start, said)] = blocks(await client.command("6 +channel 7"))
    assert start == BlockStart(6, BlockCode.BLKCMD_ADDLIST)
    assert said == ["[7] added to your channel list."]
    [(start, said)] = blocks(await client.command("7 frobnicate"))
    assert start == BlockStart(7, BlockCode.BLKCMD_ERROR_BADCOMMAND)
    assert said == ["frobnicate: Command not found."]
    [(start, said)] = blocks(await client.command("8 s"))  # shout, say, seek, sought ...
    assert start.code == BlockCode.BLKCMD_ERROR_AMBIGUOUS
    [(start, said)] = blocks(await client.command("date"))  # no identifier
    assert (start, said) == (BlockStart(0, BlockCode.BLKCMD_ERROR_NOSEQUENCE), [])
    assert not client.errors()


async def test_output_not_caused_by_the_command_stays_outside_blocks(server: Server) -> None:
    client = await block_user(server, "Blocky")
    other = await Client.connect(server.port)
    await other.login("Talker")
    await other.command("tell Blocky hello there")
    told = await client.expect(lambda e: isinstance(e, Text) and "hello there" in e.text)
    assert told.text == "Talker(U) tells you: hello there"
    events = client.events
    at = events.index(told)
    opened = [e for e in events[:at] if isinstance(e, BlockStart)]
    closed = [e for e in events[:at] if isinstance(e, BlockEnd)]
    assert len(opened) == len(closed)  # every block was closed before the tell came
    [(start, said)] = blocks(await client.command("9 tell Talker hi"))
    assert start == BlockStart(9, BlockCode.BLKCMD_TELL)
    assert said == ["(told Talker)"]


async def test_moves_in_block_mode_are_game_move_blocks(server: Server) -> None:
    white = await block_user(server, "Whitey")
    black = await Client.connect(server.port)
    await black.login("Blacky")
    await white.command("1 set style 12")
    await black.command("match Whitey 5 0 black")
    await white.expect_text("Challenge:")
    await white.settle(0.1)
    [(start, said)] = blocks(await white.command("2 accept"))
    assert start == BlockStart(2, BlockCode.BLKCMD_ACCEPT)
    assert said[0] == "You accept the match offer from Blacky."
    events = await white.command("3 e4")
    [(start, _)] = blocks(events)
    assert start == BlockStart(3, BlockCode.BLKCMD_GAME_MOVE)
    board = [e for e in events if isinstance(e, Style12Line)]
    assert board and board[-1].record.pretty_move == "e4"


# -- timeseal ------------------------------------------------------------------------------


class Raw:
    """A client that reads bytes as they come and sends plain lines."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer
        self.received = b""
        self._reading = asyncio.create_task(self._read())

    def send(self, text: str) -> None:
        self.writer.write(text.encode() + b"\n")

    async def _read(self) -> None:
        while data := await self.reader.read(65536):
            self.received += data
            self.got(data)

    def got(self, data: bytes) -> None:
        """What arrived (timeseal answers its pings here)."""

    async def wait_for(self, text: bytes, timeout: float = 10.0) -> None:
        async with asyncio.timeout(timeout):
            while text not in self.received:
                await asyncio.sleep(0.002)

    async def wait_for_board(self, san: str, timeout: float = 10.0) -> None:
        """Until a style 12 board whose last move is ``san`` has come."""
        board = re.compile(rb"<12> [^\n]*\(\d+:\d\d(?:\.\d+)?\) " + re.escape(san.encode()) + b" ")
        async with asyncio.timeout(timeout):
            while not board.search(self.received):
                await asyncio.sleep(0.002)

    async def close(self) -> None:
        self._reading.cancel()
        self.writer.close()
        with contextlib.suppress(ConnectionError, OSError, asyncio.CancelledError):
            await self._reading


class Sealed(Raw):
    """A timeseal client: lines sealed with its clock (ms, wrapping at 10**7 as PyChess's),
    every ``[G]`` answered at once. ``lying`` stamps moves with its last answer's time, as
    if it always moved at once."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        super().__init__(reader, writer)
        self.lying = False
        self.pinged_at = 0
        self.pings = 0

    @staticmethod
    def now() -> int:
        return int(time.time() * 1000) % 10**7

    def send(self, text: str, stamp: int | None = None) -> None:
        if stamp is None:
            stamp = self.pinged_at if self.lying and self.pings else self.now()
        self.writer.write(seal(text, stamp))

    def got(self, data: bytes) -> None:
        while PING in self.received:
            self.received = self.received.replace(PING, b"", 1)
            self.pings += 1
            self.pinged_at = self.now()
            self.send(PONG, self.pinged_at)


async def delaying_proxy(port: int, delay: float) -> tuple[asyncio.Server, int]:
    """A proxy on loopback that holds every chunk ``delay`` seconds each way: a slow
    network between a client and the server."""

    async def pipe(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        queue: asyncio.Queue[tuple[float, bytes]] = asyncio.Queue()

        async def deliver() -> None:
            while True:
                due, data = await queue.get()
                await asyncio.sleep(max(0.0, due - time.monotonic()))
                if not data:
                    writer.close()
                    return
                writer.write(data)

        sender = asyncio.create_task(deliver())
        with contextlib.suppress(ConnectionError, OSError):
            while data := await reader.read(65536):
                queue.put_nowait((time.monotonic() + delay, data))
        queue.put_nowait((time.monotonic() + delay, b""))
        await sender

    async def connected(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        upstream_reader, upstream_writer = await asyncio.open_connection("127.0.0.1", port)
        await asyncio.gather(
            pipe(reader, upstream_writer), pipe(upstream_reader, writer), return_exceptions=True
        )

    proxy = await asyncio.start_server(connected, "127.0.0.1", 0)
    return proxy, proxy.sockets[0].getsockname()[1]


async def connect(port: int, name: str, sealed: bool, tag: str = "TIMESTAMP") -> Raw:
    """A guest logged in as ``name``, with timeseal or plain."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    client = Sealed(reader, writer) if sealed else Raw(reader, writer)
    if isinstance(client, Sealed):
        client.writer.write(seal(hello_text("tester", "Linux", tag), client.now()))
    client.send(name)
    await client.wait_for(b"Press return")
    client.send("")
    await client.wait_for(b"**** Starting FICS session as " + name.encode())
    client.send("set style 12")
    await client.wait_for(b"Style 12 set.")
    return client


@pytest.mark.parametrize("tag", ["TIMESTAMP", "TIMESEAL2"])
async def test_a_timeseal_client_logs_in_and_is_known_as_one(server: Server, tag: str) -> None:
    client = await connect(server.port, "Sealy", sealed=True, tag=tag)
    assert server.world.online["sealy"].timeseal == (2 if tag == "TIMESEAL2" else 1)
    client.send("tell Sealy to myself")
    await client.wait_for(b"tells you: to myself")
    await client.close()


#: White's moves and Black's answers in the clock tests.
OPENING = [("e4", "e5"), ("Nf3", "Nc6"), ("Bc4", "Nf6"), ("d3", "d6")]
DELAY = 0.25  # seconds each way between White and the server


async def white_through_a_slow_network(
    server: Server, sealed: bool, think: float = 0.0
) -> list[int]:
    """White (through :func:`delaying_proxy`) answers each of Black's moves as soon as its
    board arrives (after ``think`` seconds): the ms White's clock was charged per move."""
    proxy, proxy_port = await delaying_proxy(server.port, DELAY)
    async with proxy:
        white = await connect(proxy_port, "Whitey", sealed)
        black = Client(*await asyncio.open_connection("127.0.0.1", server.port), ())
        await black.login("Blacky")
        await black.command("match Whitey 1 0 black")
        white.send("accept")
        await white.wait_for(b"Creating unrated")
        game = server.games.by_player[server.world.online["whitey"]]
        for ply, (white_move, black_move) in enumerate(OPENING):
            if ply:  # White's turn begins when Black's move reaches it
                await white.wait_for_board(OPENING[ply - 1][1])
            await asyncio.sleep(think)
            white.send(white_move)
            await black.expect(lambda e, n=2 * ply + 1: len(game.moves) == n)
            await black.send(black_move)
            async with asyncio.timeout(10):
                while len(game.moves) < 2 * ply + 2:
                    await asyncio.sleep(0.002)
        await white.wait_for_board(OPENING[-1][1])
        charged = [move.time_ms for move in game.moves[0::2]]
        await white.close()
        await black.close()
        return charged


async def test_a_timeseal_clock_is_charged_by_the_clients_own_time(server: Server) -> None:
    """Over a network that takes 0.25 s each way, the server sees each of White's moves at
    least 0.5 s after sending the board; a plain client is charged that, a timeseal client
    what its own clock says (it answered at once): the network's delay is not on its clock."""
    plain = await white_through_a_slow_network(server, sealed=False)
    assert all(used >= 2 * DELAY * 1000 for used in plain[1:]), plain
    sealed = await white_through_a_slow_network(server, sealed=True)
    assert all(used < DELAY * 1000 for used in sealed[1:]), sealed


async def test_a_lying_timeseal_client_gains_no_more_than_the_lag_credit(
    server: Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A client that stamps its moves as if made the instant its board came, after
    thinking 1 s: it is charged all but the most the server credits for lag."""
    monkeypatch.setattr(games, "MAX_LAG_CREDIT_MS", 300)
    white = await connect(server.port, "Whitey", sealed=True)
    assert isinstance(white, Sealed)
    white.lying = True
    black = Client(*await asyncio.open_connection("127.0.0.1", server.port), ())
    await black.login("Blacky")
    await black.command("match Whitey 1 0 black")
    white.send("accept")
    await white.wait_for(b"Creating unrated")
    game = server.games.by_player[server.world.online["whitey"]]
    await asyncio.sleep(1.0)
    white.send("e4")
    async with asyncio.timeout(10):
        while not game.moves:
            await asyncio.sleep(0.002)
    assert white.pings >= 1
    assert 1000 - 300 - 50 <= game.moves[0].time_ms <= 1000 + 500
    await white.close()
    await black.close()
