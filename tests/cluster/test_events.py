"""The list of events in a cluster: an event a TD posts on one node reaches the users of
every node with DG_TOURNEY on, ``events`` lists it everywhere, and its removal reaches
them too (the registry's ``events`` bucket)."""

from __future__ import annotations

import asyncio

from icswire.protocol.datagrams import DG
from icswire.server.app import Server
from icswire.server.core.model.tourneys import EventList
from tests.cluster.support import online_everywhere, until
from tests.server.client import Client
from tests.server.support import bits, texts


async def test_an_event_posted_on_one_node_reaches_every_node(nodes: list[Server]) -> None:
    a, b, c = nodes
    await asyncio.to_thread(a.store.add_user, "Mamer", "pw")
    await asyncio.to_thread(a.store.set_on_server_list, "td", "Mamer", True)
    mamer, fan = await Client.connect(a.port), await Client.connect(b.port)
    await mamer.login("Mamer", "pw")
    await fan.login("Fan", None, f"level2settings={bits(DG.TOURNEY, DG.REMOVE_TOURNEY)}")
    await online_everywhere(nodes, "Mamer", "Fan")
    assert texts(await mamer.command("qaddevent 100 0 Blitz Swiss | tell mamer join")) == [
        "Event 100 added."
    ]
    await fan.expect_dg(DG.TOURNEY, index=100, description="Blitz Swiss")
    await until(lambda: 100 in c.core.state(EventList).events)
    watcher = await Client.connect(c.port)
    await watcher.login("Watcher")
    assert texts(await watcher.command("events"))[1] == " 100  Blitz Swiss"
    assert texts(await mamer.command("qremoveevent 100")) == ["Event 100 removed."]
    await fan.expect_dg(DG.REMOVE_TOURNEY, index=100)
    await until(lambda: 100 not in c.core.state(EventList).events)
    assert texts(await watcher.command("events")) == ["There are no events."]
    assert [e.dg for e in fan.events if getattr(e, "dg", None) == DG.TOURNEY] == [DG.TOURNEY]
    for client in (mamer, fan, watcher):
        await client.close()
