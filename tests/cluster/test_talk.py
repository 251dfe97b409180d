"""Users on different nodes of a cluster talk as on one server."""

from __future__ import annotations

import asyncio

from icswire.server.app import Server
from tests.cluster.support import online_everywhere, until
from tests.server.client import Client
from tests.server.support import texts


async def test_a_name_is_logged_in_once_in_the_cluster(nodes: list[Server]) -> None:
    a, b, _ = nodes
    first = await Client.connect(a.port)
    await first.login("Fred")
    await online_everywhere(nodes, "Fred")
    second = await Client.connect(b.port)
    await second.send("Fred", "")
    await second.expect_text("Fred, whose name matches yours, is already logged in.")
    assert "fred" in b.world.online and b.world.online["fred"].remote is not None
    await first.close()
    await second.close()


async def test_tell_shout_and_channel_tell_cross_nodes(nodes: list[Server]) -> None:
    await asyncio.to_thread(nodes[2].store.add_user, "Cid", "pw")  # guests may not shout
    ann, bob, cid = [await Client.connect(n.port) for n in nodes]
    for client, name in ((ann, "Ann"), (bob, "Bob")):
        await client.login(name)
    await cid.login("Cid", "pw")
    await online_everywhere(nodes, "Ann", "Bob", "Cid")
    await ann.send("tell Bob hello from a")
    await bob.expect_text("Ann(U) tells you: hello from a")
    await bob.send("tell Ann and back from b")
    await ann.expect_text("Bob(U) tells you: and back from b")
    await cid.send("shout anyone there?")
    for client in (ann, bob):
        await client.expect_text("Cid shouts: anyone there?")
    for client in (ann, bob, cid):
        await client.send("+channel 77")
        await client.expect_text("[77] added to your channel list.")
    await until(lambda: all(len(n.world.channels.get(77, ())) == 3 for n in nodes))
    await bob.send("tell 77 on channel")
    for client in (ann, cid):
        await client.expect_text("Bob(U)(77): on channel")
    for client in (ann, bob, cid):
        await client.close()


async def test_a_registered_user_logging_in_elsewhere_takes_over(nodes: list[Server]) -> None:
    a, b, _ = nodes
    await asyncio.to_thread(a.store.add_user, "Ann", "pw")
    first = await Client.connect(a.port)
    await first.login("Ann", "pw")
    await online_everywhere(nodes, "Ann")
    second = await Client.connect(b.port)
    await second.login("Ann", "pw")
    await first.expect_text("**** Ann has arrived - you can't both be logged in. ****")
    await until(lambda: all(n.world.online.get("ann") is not None for n in nodes))
    await until(lambda: a.world.online["ann"].remote is not None)  # now b's user
    assert b.world.online["ann"].remote is None
    await second.close()
    await first.close()


async def test_away_reaches_a_teller_on_another_node_until_its_owner_types(
    nodes: list[Server],
) -> None:
    a, b, _ = nodes
    ann, bob = await Client.connect(a.port), await Client.connect(b.port)
    await ann.login("Ann")
    await bob.login("Bob")
    await online_everywhere(nodes, "Ann", "Bob")
    await bob.command("away on the phone")
    await until(lambda: a.world.online["bob"].away == "on the phone")
    assert "(told Bob, who is on the phone)" in texts(await ann.command("tell bob hi"))
    await bob.command("date")
    await until(lambda: a.world.online["bob"].away == "")
    assert "(told Bob)" in texts(await ann.command("tell bob back?"))
    for client in (ann, bob):
        await client.close()
