"""The in-memory connection the feature tests use: a server started without listening opens
no port, a user attached in memory logs in, is answered, hears the others and leaves as
over a socket, and nothing waits on a clock."""

from __future__ import annotations

import pytest

from icswire.protocol.datagrams import DG
from icswire.protocol.events import Text
from icswire.server.app import Server

from .support import MemoryClient, bits, connect, quiet, texts


async def test_a_server_in_memory_opens_no_port_and_serves_attached_users(server: Server) -> None:
    assert server.port == 0 and server.connections == 0
    ann = await connect(server)
    assert isinstance(ann, MemoryClient)
    assert await ann.login("Ann") == "Ann"
    bob = await connect(server, [DG.PERSONAL_TELL])
    await bob.login("Bob", None, f"level2settings={bits(DG.PERSONAL_TELL)}")
    assert texts(await ann.command("tell Bob hello")) == ["(told Bob)"]
    told = await bob.expect_dg(DG.PERSONAL_TELL)
    assert (told.playername, told.text) == ("Ann", "hello")
    assert server.world.online["ann"].peer.startswith("127.0.0.1:")
    await ann.send("quit")
    await ann.expect_text("Thank you for using icswire.")
    await quiet(server)
    assert "ann" not in server.world.online
    await ann.settle()
    with pytest.raises(ConnectionError):  # the server ended the connection
        await ann.expect(lambda e: False)


async def test_settle_reads_everything_the_server_sends_and_no_more(server: Server) -> None:
    ann, bob = await connect(server), await connect(server)
    await ann.login("Ann")
    await bob.login("Bob")
    for n in range(3):
        await ann.send(f"tell Bob {n}")
    await bob.settle()
    told = [e.text for e in bob.events if isinstance(e, Text) and "tells you" in e.text]
    assert told == [f"Ann(U) tells you: {n}" for n in range(3)]
    await bob.close()
    await quiet(server)
    assert set(server.world.online) == {"ann"}


@pytest.mark.sockets
async def test_a_test_marked_sockets_gets_a_listening_server(server: Server) -> None:
    assert server.port != 0
    client = await connect(server)
    assert not isinstance(client, MemoryClient)
    assert await client.login("Carl") == "Carl"
    assert server.connections == 1
    await client.close()
