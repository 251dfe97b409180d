"""A player's state in a cluster has one writer per fact (docs/cluster.md, "One writer per
fact"): the race of issue 21, played in one process, in the order that froze games.

Node ``h`` is fred's home; a game starts on node ``g`` with fred's replica. Before ``g``
sends fred's home that he plays, ``g``'s registry watch applies an older write of ``h``
(fred "not playing", written before ``h`` heard of the game). The change must still tell
``h`` that fred plays, and ``h``'s next write must not make ``g`` forget it. No NATS: the
two nodes' handlers are driven directly, the messages and registry writes carried by hand.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from icswire.protocol.level1 import CommandNumber as CN
from icswire.server.app import Server
from icswire.server.cluster.node import Cluster
from icswire.server.core.net.session import Session
from icswire.server.core.render.batch import Batch
from icswire.server.core.storage import store


@dataclass
class Entry:
    """A key-value entry as the registry's watch gives it."""

    key: str
    value: bytes | None
    operation: str | None = None


@dataclass
class Msg:
    subject: str
    data: bytes


class Wire:
    """What a node publishes, kept until the test hands it on."""

    def __init__(self) -> None:
        self.sent: list[Msg] = []

    async def publish(self, subject: str, data: bytes) -> None:
        self.sent.append(Msg(subject, data))


def writes(cluster: Cluster) -> list[Entry]:
    """The registry writes ``cluster`` queued, as the other nodes' watches see them."""
    found = []
    while not cluster._writes.empty():
        bucket, key, value = cluster._writes.get_nowait()
        if bucket == "users":
            found.append(Entry(key, value, None if value is not None else "DEL"))
    return found


@pytest.fixture
async def two(tmp_path: Path) -> AsyncIterator[tuple[Server, Server]]:
    servers = []
    for name in "hg":
        data = store.Store(store.database_url(tmp_path / name, None))
        server = Server(data, cluster="nats://unused", node=name)
        assert server.cluster is not None
        server.cluster._nc = Wire()  # type: ignore[assignment]
        server.cluster._tasks.append(asyncio.create_task(server.cluster._send()))
        server.core.world.touched.append(server.cluster.touch)
        servers.append(server)
    yield servers[0], servers[1]
    for server in servers:
        assert server.cluster is not None
        for task in server.cluster._tasks:
            task.cancel()
        server.store.close()


async def settle() -> None:
    for _ in range(5):
        await asyncio.sleep(0)


async def test_an_older_registry_write_does_not_undo_a_game_start(
    two: tuple[Server, Server],
) -> None:
    h, g = two
    assert h.cluster is not None and g.cluster is not None
    fred = Session()
    fred.name, fred.logged_in, fred.registered = "fred", True, True
    h.world.online["fred"] = fred
    h.cluster._put_facts(fred)
    for entry in writes(h.cluster):  # g learns of fred
        g.cluster._user_entry(entry)  # type: ignore[arg-type]
    replica = g.world.online["fred"]
    assert replica.remote is not None and replica.state == "X"

    fred.set_variable("shout", 0)  # fred's home writes his facts again: not playing
    h.cluster._put_facts(fred)
    older = writes(h.cluster)
    assert len(older) == 1

    # game 5 starts on g: fred's replica plays it, and g's tables hold it
    g.core.tables.add_source({5: object()}, {})  # type: ignore[dict-item]
    replica.state, replica.state_game = "P", 5
    g.world.state_changed(replica, Batch(CN.SCN_AUTOMATIC, None))
    # before g sends the change, its watch applies h's older write
    g.cluster._user_entry(older[0])  # type: ignore[arg-type]
    assert (replica.state, replica.state_game) == ("P", 5)
    assert replica.variables["shout"] == 0  # what h owns is taken

    await settle()
    wire: Any = g.cluster._nc
    changes = [m for m in wire.sent if m.subject.endswith(".node.h.changes")]
    assert changes
    for msg in changes:
        await h.cluster._on_changes(msg)  # type: ignore[arg-type]
    assert (fred.state, fred.state_game) == ("P", 5)

    for entry in writes(h.cluster):  # h's write with the game reaches g
        g.cluster._user_entry(entry)  # type: ignore[arg-type]
    assert (replica.state, replica.state_game) == ("P", 5)

    # the game ends on g: both nodes agree fred plays no more
    del g.core.tables._sources[-1]
    replica.state, replica.state_game = "X", 0
    g.world.state_changed(replica, Batch(CN.SCN_AUTOMATIC, None))
    await settle()
    for msg in [m for m in wire.sent[len(changes) :] if m.subject.endswith(".changes")]:
        await h.cluster._on_changes(msg)  # type: ignore[arg-type]
    assert (fred.state, fred.state_game) == ("X", 0)
