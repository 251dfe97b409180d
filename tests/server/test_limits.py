"""Abuse limits on what logged-in users do: seeks per address, and rate limits on tells,
shouts, channel tells, seeks and match requests. Over real sockets."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest

from icswire.protocol.events import Text
from icswire.server.app import Server
from icswire.server.core.store import Store

from .client import Client


@pytest.fixture
async def server(database_url: str) -> AsyncIterator[Server]:
    store = Store(database_url)
    running = Server(store, "127.0.0.1", 0)
    await running.start()
    yield running
    await running.stop()
    store.close()


async def user(server: Server, name: str, address: str = "127.0.0.1") -> Client:
    """A logged-in guest connected from ``address`` (any of 127/8 is this machine)."""
    reader, writer = await asyncio.open_connection(
        "127.0.0.1", server.port, local_addr=(address, 0)
    )
    client = Client(reader, writer, ())
    await client.login(name)
    return client


async def said(client: Client, line: str) -> list[str]:
    """The reply to ``line`` (what others' seeks announced to the client meanwhile read
    first, so that it is not taken for the reply)."""
    await client.settle(0.05)
    return [e.text for e in await client.command(line) if isinstance(e, Text) and e.text]


# -- seeks per address -----------------------------------------------------------------------


async def test_one_address_cannot_fill_the_seek_table(server: Server) -> None:
    server.limits.seeks_per_address = 4
    server.limits.rates.clear()
    crowd = [await user(server, f"Crowd{n}") for n in range(3)]
    posted = [await said(crowd[n // 2], f"seek {n + 1} 0 manual") for n in range(6)]
    assert [lines[0].startswith("Your seek has been posted") for lines in posted] == [
        True, True, True, True, False, False
    ]  # fmt: skip
    assert posted[4] == ["Sorry, there are already 4 seeks from your address; try again later."]
    other = await user(server, "Other", "127.0.0.2")
    assert (await said(other, "seek 1 0 manual"))[0].startswith("Your seek has been posted")
    # a seek that replaces one of the same terms, or unseeking, makes no new ad
    assert (await said(crowd[0], "seek 1 0 manual"))[0].startswith("Your seek has been updated")
    await said(crowd[0], "unseek")
    assert (await said(crowd[2], "seek 9 0 manual"))[0].startswith("Your seek has been posted")
