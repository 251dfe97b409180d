"""The nodes of a cluster share one record of logins and logouts (``logons``,
``llogons``): each node keeps its own users' in the database they share."""

from __future__ import annotations

import asyncio

from icswire.server.app import Server
from tests.cluster.support import online_everywhere, until
from tests.server.client import Client
from tests.server.support import texts


async def test_llogons_on_one_node_lists_the_logins_on_the_others(nodes: list[Server]) -> None:
    a, b, c = nodes
    await asyncio.to_thread(a.store.add_user, "Ann", "pw")
    ann, bob = await Client.connect(a.port), await Client.connect(b.port)
    await ann.login("Ann", "pw")
    await bob.login("Bob")
    await online_everywhere(nodes, "Ann", "Bob")
    await bob.close()
    await until(lambda: "bob" not in a.world.online)
    for node in nodes:
        await node.core.writes.drained()
    watcher = await Client.connect(c.port)
    await watcher.login("Watcher")
    await c.core.writes.drained()
    every = [line.split(": ", 1)[1].split() for line in texts(await ann.command("llogons"))]
    assert sorted(every[:2]) == [["Ann", "login"], ["Bob", "login"]], every
    assert every[2] == ["Bob", "logout"], every  # once, by Bob's node
    assert ["Watcher", "login"] in every
    assert len(texts(await watcher.command("logons ann"))) == 1
    for client in (ann, watcher):
        await client.close()
