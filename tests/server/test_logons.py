"""logons and llogons: every login and logout kept in the store (capped as FICS caps its
files), listed with lasker-2.2.3's line (``plogins``)."""

from __future__ import annotations

import asyncio
import re
from datetime import UTC, datetime, timedelta

import pytest

from icswire.protocol.events import Prompt
from icswire.server.app import Server
from icswire.server.core.storage.logons import PLAYER_KEPT, SERVER_KEPT
from icswire.server.core.storage.store import Store

from .client import Client
from .support import connect, texts

WHEN = r"[A-Z][a-z]{2} [A-Z][a-z]{2} [ \d]\d, \d\d:\d\d UTC \d{4}"


@pytest.fixture
async def server(server: Server) -> Server:
    """conftest's server, with Alice, Bob registered (password ``pw``)."""
    for name in ("Alice", "Bob"):
        await asyncio.to_thread(server.store.add_user, name, "pw")
    return server


async def user(server: Server, name: str) -> Client:
    client = await connect(server)
    await client.login(name, "pw" if name in ("Alice", "Bob") else None)
    await client.expect(lambda e: isinstance(e, Prompt))
    return client


async def said(client: Client, line: str) -> list[str]:
    return [text.rstrip() for text in texts(await client.command(line))]


def line(name: str, kind: str) -> str:
    return f"{WHEN}: {name:<17} {kind}"


async def test_logons_lists_a_players_logins_and_logouts(server: Server) -> None:
    alice = await user(server, "Alice")
    await alice.send("quit")
    await asyncio.sleep(0.05)
    alice = await user(server, "Alice")
    shown = await said(alice, "logons")
    patterns = [line("Alice", "login"), line("Alice", "logout"), line("Alice", "login")]
    assert len(shown) == 3
    assert all(re.fullmatch(p, s) for p, s in zip(patterns, shown, strict=True)), shown
    bob = await user(server, "Bob")
    assert await said(bob, "logons alice") == shown
    assert await said(bob, "logons nosuchname") == [
        "There is no player matching the name nosuchname."
    ]
    guest = await user(server, "Visitor")
    assert await said(guest, "logons") == ["Sorry, no login information available."]
    assert await said(guest, "llogons") == ["Sorry, guest users may not use this command"]
    every = await said(bob, "llogons")
    assert [s.split(": ", 1)[1].split() for s in every] == [
        ["Alice", "login"], ["Alice", "logout"], ["Alice", "login"], ["Bob", "login"],
        ["Visitor", "login"],
    ]  # fmt: skip


async def test_administrators_see_where_each_came_from(server: Server) -> None:
    await asyncio.to_thread(server.core.store.set_admin, "Bob", True)
    bob = await user(server, "Bob")
    shown = await said(bob, "logons")
    assert len(shown) == 1 and re.fullmatch(line("Bob", "login ") + " from .+", shown[0]), shown


def test_the_store_keeps_8_per_player_and_30_for_the_server(database_url: str) -> None:
    store = Store(database_url)
    try:
        store.add_user("Alice", "pw")
        start = datetime(2026, 11, 28, 10, 0, tzinfo=UTC)
        for n in range(12):
            store.save_logon("Alice", True, n % 2 == 0, start + timedelta(minutes=n), "10.0.0.1")
        store.save_logon("Alice", True, True, start, "10.0.0.1")  # again: kept once
        for n in range(40):
            store.save_logon(f"Guest{n}", False, True, start + timedelta(hours=1, minutes=n))
        own = store.logons("alice")
        assert len(own) == PLAYER_KEPT
        assert [x.at for x in own] == [start + timedelta(minutes=n) for n in range(4, 12)]
        every = store.llogons()
        assert len(every) == SERVER_KEPT and every[-1].name == "Guest39"
        assert store.logons("Guest39") == []
    finally:
        store.close()
