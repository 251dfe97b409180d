"""Who is online, notify lists, finger and seeks, across the nodes of a cluster."""

from __future__ import annotations

import asyncio

from icswire.protocol import ivars
from icswire.protocol.events import IvarLine, Text
from icswire.server.app import Server
from tests.cluster.support import online_everywhere, until
from tests.server.client import Client


async def test_notify_who_and_finger_across_nodes(nodes: list[Server]) -> None:
    a, b, c = nodes
    for name in ("Ann", "Bob"):
        await asyncio.to_thread(a.store.add_user, name, "pw")
    ann = await Client.connect(a.port)
    await ann.login("Ann", "pw")
    await ann.command("+notify Bob")
    await online_everywhere(nodes, "Ann")
    bob = await Client.connect(b.port)
    await bob.login("Bob", "pw")
    await ann.expect_text("Notification: Bob has arrived.")
    cid = await Client.connect(c.port)
    await cid.login("Cid")
    await online_everywhere(nodes, "Ann", "Bob", "Cid")
    shown = " ".join(e.text for e in await cid.command("who") if isinstance(e, Text))
    for name in ("Ann", "Bob", "Cid(U)"):
        assert name in shown
    assert "3 players displayed" in shown
    finger = [e.text for e in await cid.command("finger Bob") if isinstance(e, Text)]
    assert any(line.startswith("Finger of Bob:") for line in finger)
    assert any(line.startswith("On for:") for line in finger)
    await bob.close()
    await ann.expect_text("Notification: Bob has departed.")
    await until(lambda: all("bob" not in n.world.online for n in nodes))
    await ann.close()
    await cid.close()


async def test_a_seek_on_one_node_is_played_from_another(nodes: list[Server]) -> None:
    a, b, _ = nodes
    ann = await Client.connect(a.port)
    await ann.login("Ann")
    bob = await Client.connect(b.port)
    await bob.login("Bob")
    await bob.command("iset seekinfo 1")
    await online_everywhere(nodes, "Ann", "Bob")
    await ann.send("seek 5 0")
    posted = await bob.expect(
        lambda e: isinstance(e, IvarLine) and isinstance(e.record, ivars.Seek)
    )
    index = posted.record.number
    await until(lambda: b.cluster is not None and index in b.cluster.seeks)
    await bob.send(f"play {index}")
    for client in (ann, bob):
        await client.expect_text("Creating: ")
    assert list(a.games.by_number) == [1] and not b.games.by_number  # the seek's node
    await ann.close()
    await bob.close()


async def test_games_lists_the_games_of_every_node(nodes: list[Server]) -> None:
    b = nodes[1]
    ann, bob, cid = [await Client.connect(n.port) for n in nodes]
    for client, name in ((ann, "Ann"), (bob, "Bob"), (cid, "Cid")):
        await client.login(name)
    await online_everywhere(nodes, "Ann", "Bob", "Cid")
    await ann.send("match Bob 5 0 white")
    await bob.expect_text("Challenge: Ann")
    await bob.send("accept")
    await ann.expect_text("Creating: ")
    await until(lambda: 1 in b.games.by_number)
    shown = [e.text for e in await cid.command("games") if isinstance(e, Text)]
    rows = [line for line in shown if "Ann" in line and "Bob" in line]
    assert len(rows) == 1 and rows[0].split()[0] == "1"
    assert "  1 game displayed." in shown
    for client in (ann, bob, cid):
        await client.close()
