"""A node killed mid-game (SIGKILL): its users leave every list, its game is adjourned in
the database and resumed from another node. The nodes are processes of their own here."""

from __future__ import annotations

import asyncio
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from icswire.protocol.events import Style12Line, Text
from icswire.server.core.storage import store
from tests.server.client import Client, free_port

START_TIMEOUT = 30.0


class Node:
    """``icswire serve --cluster ...`` in a process of its own."""

    def __init__(self, node: str, database: str, nats_url: str, cluster: str, log: Path) -> None:
        self.name = node
        self.port = free_port()
        self.log = log
        self._out = open(log, "wb")  # noqa: SIM115 (closed in stop())
        command = [
            sys.executable, "-m", "icswire", "serve", "--host", "127.0.0.1",
            "--port", str(self.port), "--database", database, "--cluster", nats_url,
            "--cluster-name", cluster, "--node", node,
        ]  # fmt: skip
        self.process = subprocess.Popen(
            command, stdin=subprocess.DEVNULL, stdout=self._out, stderr=subprocess.STDOUT
        )

    def wait_listening(self) -> None:
        deadline = time.monotonic() + START_TIMEOUT
        while "listening on" not in self.log.read_text("utf-8", "replace"):
            if self.process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"node {self.name} did not start:\n{self.log.read_text()}")
            time.sleep(0.05)

    def kill(self) -> None:
        self.process.send_signal(signal.SIGKILL)
        self.process.wait()

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self._out.close()


@pytest.fixture
def processes(
    database_url: str, nats_url: str, cluster_name: str, tmp_path: Path
) -> Iterator[dict[str, Node]]:
    data = store.Store(database_url)  # the schema, and two registered players
    for name in ("Ann", "Bob"):
        data.add_user(name, "pw")
    data.close()
    nodes = {n: Node(n, database_url, nats_url, cluster_name, tmp_path / f"{n}.log") for n in "abc"}
    try:
        for node in nodes.values():
            node.wait_listening()
        yield nodes
    finally:
        for node in nodes.values():
            node.stop()


async def logged_in_everywhere(clients: list[Client], *names: str) -> None:
    """Wait until ``finger`` of each name answers from every client's node."""
    for client in clients:
        for name in names:
            while True:
                answer = await client.command(f"finger {name}")
                said = " ".join(e.text for e in answer if isinstance(e, Text))
                if "On for:" in said:
                    break
                await asyncio.sleep(0.1)


def plies(event: object) -> int:
    record = event.record  # type: ignore[attr-defined]
    return int(2 * (record.move_number - 1) + (record.side_to_move == "B"))


async def test_a_killed_nodes_game_is_adjourned_and_resumed_elsewhere(
    processes: dict[str, Node], database_url: str
) -> None:
    a, b, c = processes["a"], processes["b"], processes["c"]
    ann = await Client.connect(a.port)
    await ann.login("Ann", "pw")
    bob = await Client.connect(b.port)
    await bob.login("Bob", "pw")
    cid = await Client.connect(c.port)
    await cid.login("Cid")
    for client in (ann, bob, cid):
        await client.command("set style 12")
    await logged_in_everywhere([ann, bob, cid], "Ann", "Bob")
    await ann.send("match Bob 5 0 white")
    await bob.expect_text("Challenge: Ann")
    await bob.send("accept")  # the game lives on Bob's node, b
    await ann.expect(lambda e: isinstance(e, Style12Line))
    await cid.send("observe 1")
    await cid.expect(lambda e: isinstance(e, Style12Line))
    for done, (mover, move) in enumerate(((ann, "e4"), (bob, "e5")), 1):
        await mover.send(move)
        for client in (ann, cid):
            await client.expect(lambda e, n=done: isinstance(e, Style12Line) and plies(e) == n)
    await asyncio.sleep(1.0)  # the moves' tick is stored (a kill loses at most the last)

    b.kill()
    lost = "{Game 1 (Ann vs. Bob) Game adjourned when its server went down} *"
    for client in (ann, cid):
        await client.expect_text(lost)
    while True:  # Bob leaves every list within a few seconds
        said = " ".join(e.text for e in await cid.command("finger Bob") if isinstance(e, Text))
        if "On for:" not in said:
            break
        await asyncio.sleep(0.2)
    data = store.Store(database_url)
    try:
        adjourned = await asyncio.to_thread(data.adjourned, "Ann")
    finally:
        data.close()
    assert [(g.white, g.black, list(g.moves)) for g in adjourned] == [("Ann", "Bob", ["e4", "e5"])]

    bob = await Client.connect(c.port)  # Bob comes back on node c
    await bob.login("Bob", "pw")
    await bob.command("set style 12")
    await logged_in_everywhere([ann], "Bob")
    await bob.send("resume Ann")  # runs on Ann's node, a
    await ann.expect_text("Bob")
    await ann.send("accept")
    for client in (ann, bob):
        await client.expect(lambda e: isinstance(e, Style12Line) and plies(e) == 2)
    await ann.send("Nf3")
    await bob.expect(lambda e: isinstance(e, Style12Line) and plies(e) == 3)
    for client in (ann, bob, cid):
        await client.close()
