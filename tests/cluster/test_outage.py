"""The cluster's bus (NATS) goes away (docs/cluster.md, "Failure"). Each test runs its own
nats-server (a free port, JetStream in a temporary folder), kills it or cuts one node off
it, and brings it back: three nodes in this process, their users on real sockets.

- The bus down for every node: nobody can tell who is cut off, so nobody is declared dead;
  a game goes on, its result is stored as the players were told, and when the bus is back
  every node's users are known everywhere again.
- One node cut off: the others declare it dead and adjourn its game in PostgreSQL, which
  fences the node (its epoch is taken); its later writes are refused, its players are told
  the game was adjourned, the row stays as the cluster decided, and once it is back its
  users are known everywhere again and resume the game.
"""

from __future__ import annotations

import asyncio
import contextlib
import shutil
import socket
import subprocess
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from icswire.protocol.codes import ResultStatus
from icswire.protocol.events import Style12Line, Text
from icswire.server.app import Server
from icswire.server.core.storage import store
from icswire.server.core.storage.store import StoreUnavailable
from icswire.server.features.accounts import CUT_OFF
from icswire.server.features.pairing.seeks import NOT_POSTED
from tests.cluster.conftest import start_node
from tests.cluster.support import online_everywhere
from tests.cluster.test_failure import plies
from tests.server.client import Client, free_port
from tests.server.support import until

NATS_SERVER = shutil.which("nats-server") or "/usr/sbin/nats-server"
#: Long enough for every node to have declared every other dead, were it to.
OUTAGE = 4.0


class Bus:
    """A nats-server of the test's own, on one port and store folder, killed and started
    again at will."""

    def __init__(self, folder: Path) -> None:
        if not Path(NATS_SERVER).exists():
            pytest.skip("nats-server is not installed")
        self.port = free_port()
        self.folder = folder
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"nats://127.0.0.1:{self.port}"

    def start(self) -> None:
        command = [NATS_SERVER, "-a", "127.0.0.1", "-p", str(self.port), "-js", "-sd",
                   str(self.folder)]  # fmt: skip
        self.process = subprocess.Popen(command, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            with socket.socket() as probe:
                if probe.connect_ex(("127.0.0.1", self.port)) == 0:
                    return
            assert self.process.poll() is None, "nats-server did not start"
            time.sleep(0.05)
        raise RuntimeError("nats-server did not listen")

    def kill(self) -> None:
        if self.process is not None:
            self.process.kill()
            self.process.wait()
            self.process = None


class Link:
    """One node's way to the bus, a TCP relay the test cuts (every connection closed,
    new ones refused) and restores."""

    def __init__(self, target: int) -> None:
        self.target = target
        self.up = True
        self.port = 0
        self._pairs: set[asyncio.StreamWriter] = set()
        self._server: asyncio.Server | None = None

    @property
    def url(self) -> str:
        return f"nats://127.0.0.1:{self.port}"

    async def start(self) -> None:
        self._server = await asyncio.start_server(self._relay, "127.0.0.1", 0)
        self.port = self._server.sockets[0].getsockname()[1]

    async def _relay(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        if not self.up:
            writer.close()
            return
        try:
            far_reader, far_writer = await asyncio.open_connection("127.0.0.1", self.target)
        except OSError:
            writer.close()
            return
        self._pairs |= {writer, far_writer}

        async def pipe(source: asyncio.StreamReader, sink: asyncio.StreamWriter) -> None:
            with contextlib.suppress(OSError):
                while data := await source.read(65536):
                    sink.write(data)
                    await sink.drain()
            sink.close()

        await asyncio.gather(pipe(reader, far_writer), pipe(far_reader, writer))
        self._pairs -= {writer, far_writer}

    def cut(self) -> None:
        self.up = False
        for writer in self._pairs:
            writer.close()

    def restore(self) -> None:
        self.up = True

    async def stop(self) -> None:
        self.cut()
        if self._server is not None:
            self._server.close()


@pytest.fixture
def bus(tmp_path: Path) -> Iterator[Bus]:
    running = Bus(tmp_path / "jetstream")
    running.start()
    yield running
    running.kill()


@pytest.fixture
async def link(bus: Bus) -> AsyncIterator[Link]:
    relay = Link(bus.port)
    await relay.start()
    yield relay
    await relay.stop()


async def cluster(database_url: str, urls: dict[str, str]) -> list[Server]:
    await asyncio.to_thread(_register, database_url)
    return [await start_node(database_url, url, "outage", name) for name, url in urls.items()]


def _register(database_url: str) -> None:
    data = store.Store(database_url)
    for name in ("Ann", "Bob"):
        data.add_user(name, "pw")
    data.close()


async def stop(servers: list[Server]) -> None:
    for server in servers:
        await server.stop()
        server.store.close()


async def game_on_a(a: Server, c: Server, servers: list[Server]) -> tuple[Client, Client, Client]:
    """Ann and Bob, both on node a, play e4 e5 there; Cid is on node c."""
    ann, bob, cid = [await Client.connect(n.port) for n in (a, a, c)]
    await ann.login("Ann", "pw")
    await bob.login("Bob", "pw")
    await cid.login("Cid")
    for client in (ann, bob):
        await client.command("set style 12")
    await online_everywhere(servers, "Ann", "Bob", "Cid")
    await ann.send("match Bob 5 0 white")
    await bob.expect_text("Challenge: Ann")
    await bob.send("accept")
    for client in (ann, bob):
        await client.expect(lambda e: isinstance(e, Style12Line))
    for done, (mover, move) in enumerate(((ann, "e4"), (bob, "e5")), 1):
        await mover.send(move)
        for client in (ann, bob):
            await client.expect(lambda e, n=done: isinstance(e, Style12Line) and plies(e) == n)
    game = a.games.by_number[1]
    await until(lambda: len(a.core.writes) == 0)  # the two plies are stored
    assert game.game_id is not None
    return ann, bob, cid


async def presence_is_back(cid: Client, ann: Client) -> None:
    """A tell from Cid (node c) reaches Ann (node a): c knows Ann is online again (a tell
    sent while a node is still reconnecting is lost, as anything NATS carries then)."""
    for tries in range(50):
        await cid.send(f"tell Ann are you there? {tries}")
        told = await cid.expect(
            lambda e: isinstance(e, Text) and ("(told Ann" in e.text or "No user named" in e.text)
        )
        if "(told Ann" in told.text:
            with contextlib.suppress(TimeoutError):
                await ann.expect(
                    lambda e, n=tries: (
                        isinstance(e, Text) and f"Cid(U) tells you: are you there? {n}" in e.text
                    ),
                    timeout=1.0,
                )
                return
        await asyncio.sleep(0.2)
    raise AssertionError("Ann is not known on node c again")


async def test_the_bus_down_for_everybody_loses_no_result_and_no_presence(
    bus: Bus, database_url: str
) -> None:
    servers = await cluster(database_url, {n: bus.url for n in "abc"})
    a, _, c = servers
    try:
        ann, bob, cid = await game_on_a(a, c, servers)
        game_id = a.games.by_number[1].game_id
        bus.kill()
        await asyncio.sleep(OUTAGE)  # each node alone, longer than a death takes
        with pytest.raises(StoreUnavailable):  # no new game: no number can be claimed
            await c.core.tables.claims.claim(2)
        await cid.send("seek 5 0")  # nor a seek index, nor a name: each is told so
        await cid.expect_text(NOT_POSTED.split(":")[0])  # the server wraps the rest
        newcomer = await Client.connect(c.port)
        await newcomer.send("guest")
        await newcomer.expect_text(CUT_OFF.split(":")[0])
        await newcomer.close()
        await ann.send("Nf3")
        await bob.expect(lambda e: isinstance(e, Style12Line) and plies(e) == 3)
        await bob.send("resign")
        for client in (ann, bob):
            await client.expect_text("{Game 1 (Ann vs. Bob) Bob resigns} 1-0")
        await until(lambda: len(a.core.writes) == 0)
        bus.start()
        await presence_is_back(cid, ann)
        found = await asyncio.to_thread(a.store.game, game_id or 0)
        assert found is not None
        assert (found.status, found.score, found.moves) == (
            ResultStatus.WIN, "1-0", ("e4", "e5", "Nf3"),
        )  # fmt: skip
        epochs = [await asyncio.to_thread(a.store.epoch, name) for name in "abc"]
        assert epochs == [1, 1, 1]  # nobody was declared dead
        for client in (ann, bob, cid):
            await client.close()
    finally:
        await stop(servers)


async def test_a_node_cut_off_the_bus_is_fenced_and_comes_back(
    bus: Bus, link: Link, database_url: str
) -> None:
    servers = await cluster(database_url, {"a": link.url, "b": bus.url, "c": bus.url})
    a, b, c = servers
    try:
        ann, bob, cid = await game_on_a(a, c, servers)
        game_id = a.games.by_number[1].game_id or 0
        link.cut()

        def adjourned() -> bool:
            found = b.store.game(game_id)
            return found is not None and found.status == ResultStatus.ADJOURNED

        await until(lambda: "a" not in b.cluster.alive if b.cluster else False)
        while not await asyncio.to_thread(adjourned):  # by the leader, b
            await asyncio.sleep(0.1)
        await ann.send("Nf3")  # a node fenced writes nothing more of its games
        lost = "{Game 1 (Ann vs. Bob) Game adjourned when its server went down} *"
        for client in (ann, bob):
            await client.expect_text(lost)
        await bob.send("resign")
        await bob.expect_text("You are not playing a game.")
        found = await asyncio.to_thread(a.store.game, game_id)
        assert found is not None
        assert (found.status, found.score, found.moves) == (
            ResultStatus.ADJOURNED, "*", ("e4", "e5"),
        )  # fmt: skip

        link.restore()
        await presence_is_back(cid, ann)
        assert a.cluster is not None and a.cluster.epoch == 3  # declared dead, joined again
        await bob.send("resume Ann")
        await ann.expect_text("Bob")
        await ann.send("accept")
        for client in (ann, bob):
            await client.expect(lambda e: isinstance(e, Style12Line) and plies(e) == 2)
        await ann.send("Nf3")
        await bob.expect(lambda e: isinstance(e, Style12Line) and plies(e) == 3)
        for client in (ann, bob, cid):
            await client.close()
    finally:
        await stop(servers)
