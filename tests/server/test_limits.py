"""Abuse limits on what logged-in users do: seeks per address, and rate limits on tells,
shouts, channel tells, seeks and match requests. Over real sockets."""

from __future__ import annotations

import asyncio

import pytest

from icswire.protocol.events import Text
from icswire.server.app import Server
from icswire.server.core.net.limits import Bucket, Rate

from .client import Client

pytestmark = pytest.mark.sockets  # the wire is what these tests are about

SLOW_DOWN = "You are sending {} too fast; please wait "


async def user(
    server: Server, name: str, address: str = "127.0.0.1", password: str | None = None
) -> Client:
    """A logged-in guest (or with ``password`` a registered user) connected from
    ``address`` (any of 127/8 is this machine)."""
    reader, writer = await asyncio.open_connection(
        "127.0.0.1", server.port, local_addr=(address, 0)
    )
    client = Client(reader, writer, ())
    await client.login(name, password)
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


# -- rates -----------------------------------------------------------------------------------


async def test_a_flood_of_channel_tells_is_cut_to_the_rate(server: Server) -> None:
    server.limits.set("channel=6/60")  # the default burst; no refill while the test runs
    talker = await user(server, "Talker")
    reader = await user(server, "Reader")
    for client in (talker, reader):
        await said(client, "+channel 40")
    long_text = "x" * 900
    replies = [await said(talker, f"tell 40 {n} {long_text}") for n in range(10)]
    assert [r[0].startswith("(told 1 players") for r in replies] == [True] * 6 + [False] * 4
    assert all(r[0].startswith(SLOW_DOWN.format("channel tells")) for r in replies[6:])
    await reader.settle(0.2)
    heard = [e.text for e in reader.events if isinstance(e, Text) and "Talker(U)(40):" in e.text]
    assert len(heard) == 6


@pytest.mark.parametrize(
    ("kind", "lines", "noun"),
    [
        ("tell", ["tell Other hi", "tell Other ho", "tell Other hu"], "tells"),
        ("channel", ["tell 1 hi", "tell 1 ho", "tell 1 hu"], "channel tells"),
        ("shout", ["shout hi", "i wave", "sshout hu"], "shouts"),
        ("seek", ["seek 5 0 manual", "seek 6 0 manual", "seek 7 0 manual"], "seeks"),
        ("match", ["match Other 5 0", "match Other 6 0", "match Other 7 0"], "match requests"),
    ],
)
async def test_each_kind_has_its_own_bucket_that_refills(
    server: Server, kind: str, lines: list[str], noun: str
) -> None:
    server.limits.set(f"{kind}=2/60")
    await asyncio.to_thread(server.store.add_user, "Talker", "pw")  # guests may not shout
    talker = await user(server, "Talker", password="pw")
    other = await user(server, "Other")
    await said(talker, "+channel 1")
    await said(other, "+channel 1")
    first, second, third = [await said(talker, line) for line in lines]
    refused = SLOW_DOWN.format(noun)
    assert not any(line.startswith(refused) for line in first + second)
    assert len(third) == 1 and third[0].startswith(refused)
    assert third[0].endswith((" seconds.", " second."))
    if kind != "tell":  # the other kinds are not counted against it
        assert await said(talker, "tell Other still free") == ["(told Other)"]
    server.limits.set(f"{kind}=2/0.01")  # as if a minute had passed: the bucket refills
    await asyncio.sleep(0.05)
    assert not any(line.startswith(refused) for line in await said(talker, lines[2]))


def test_a_bucket_gives_the_burst_then_one_per_period() -> None:
    rate, bucket = Rate(3, 2.0), Bucket(3.0, 0.0)
    assert [bucket.take(rate, 0.0) for _ in range(4)] == [0.0, 0.0, 0.0, 2.0]
    assert bucket.take(rate, 1.5) == 0.5
    assert bucket.take(rate, 2.0) == 0.0
    assert bucket.take(rate, 100.0) == 0.0 and bucket.tokens == 2.0  # never above the burst
