"""What a user may store is capped as FICS caps it (playerdb.h, lists.c): aliases, the
personal lists (names on them must be players), the mailbox; a listing longer than the
output limit is paged, never dropped for a control-Z."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from datetime import UTC, datetime

import pytest

from icswire.protocol.datagrams import DG
from icswire.protocol.events import Overflow
from icswire.server.app import Server
from icswire.server.core.dispatch.paging import MORE
from icswire.server.core.net.limits import Limits
from icswire.server.core.storage.store import Store

from .client import Client
from .support import bits, connect, texts


@pytest.fixture
async def server(database_url: str) -> AsyncIterator[Server]:
    store = Store(database_url)
    running = Server(store, "127.0.0.1", 0)
    await running.start(listen=False)
    for name in ("Alice", "Bob", "Carol"):
        await asyncio.to_thread(store.add_user, name, "pw")
    yield running
    await running.stop()
    store.close()


async def user(server: Server, name: str, *setup: str) -> Client:
    client = await connect(server)
    password = "pw" if name in ("Alice", "Bob", "Carol") else None
    await client.login(name, password, *setup)
    return client


async def said(client: Client, line: str) -> list[str]:
    return texts(await client.command(line))


def test_the_defaults_are_ficss() -> None:
    limits = Limits()
    assert (limits.max_aliases, limits.max_list, limits.max_messages) == (29, 200, 40)


# -- aliases ---------------------------------------------------------------------------------


async def test_aliases_are_capped_for_guests_and_members(server: Server) -> None:
    server.limits.max_aliases = 3
    for name in ("Visitor", "Alice"):
        client = await user(server, name)
        for n in range(3):
            assert await said(client, f"alias a{n} tell me {'x' * 900}") == [f"Alias 'a{n}' set."]
        assert await said(client, "alias a3 tell me") == ["You have your maximum of 3 aliases."]
        # one already there may still be replaced, and a removed one makes room
        assert await said(client, "alias a0 tell you") == ["Alias 'a0' set."]
        assert await said(client, "unalias a1") == ["Alias 'a1' removed."]
        assert await said(client, "alias a3 tell me") == ["Alias 'a3' set."]
        assert len(server.world.online[name.lower()].aliases) == 3


# -- lists -----------------------------------------------------------------------------------


async def test_names_on_a_personal_list_must_be_players(server: Server) -> None:
    alice = await user(server, "Alice")
    visitor = await user(server, "Visitor")
    for which in ("notify", "censor", "gnotify", "noplay"):
        assert await said(alice, f"+{which} nosuchplayer") == [
            'There is no player matching the name "nosuchplayer".'
        ]
        assert await said(alice, f"+{which} carol") == [f"[Carol] added to your {which} list."]
        assert await said(alice, f"+{which} visitor") == [f"[Visitor] added to your {which} list."]
        # a name no longer a player may still be taken off
        alice_session = server.world.online["alice"]
        listed = alice_session.notify if which == "notify" else alice_session.lists[which]
        listed["gone"] = "Gone"
        assert await said(alice, f"-{which} gone") == [f"[Gone] removed from your {which} list."]
    assert await said(visitor, "+notify nosuchplayer") == [
        'There is no player matching the name "nosuchplayer".'
    ]
    await server.core.writes.barrier()
    account = await asyncio.to_thread(server.store.load, "Alice")
    assert account is not None
    assert account.notify == ("Carol", "Visitor")


async def test_a_full_list_says_so(server: Server) -> None:
    server.limits.max_list = 2
    alice = await user(server, "Alice")
    await user(server, "Dave")
    for name in ("Bob", "Carol"):
        assert await said(alice, f"+censor {name}") == [f"[{name}] added to your censor list."]
    assert await said(alice, "+censor Dave") == ["Sorry, your censor list is full."]
    assert await said(alice, "+notify Dave") == ["[Dave] added to your notify list."]
    assert await said(alice, "+channel 1") == ["[1] added to your channel list."]
    assert await said(alice, "+channel 2") == ["[2] added to your channel list."]
    assert await said(alice, "+channel 3") == ["Sorry, your channel list is full."]
    assert await said(alice, "-censor Bob") == ["[Bob] removed from your censor list."]
    assert await said(alice, "+censor Dave") == ["[Dave] added to your censor list."]


# -- the mailbox -----------------------------------------------------------------------------


async def test_a_full_mailbox_refuses_a_message_and_the_sender_is_told(server: Server) -> None:
    server.limits.max_messages = 3
    bob = await user(server, "Bob")
    for n in range(3):
        assert (await said(bob, f"message alice number {n}"))[0] == (
            "The following message was sent to Alice:"
        )
    assert await said(bob, "message alice one more") == [
        "Couldn't send message to Alice. Message buffer full."
    ]
    alice = await user(server, "Alice")
    await alice.expect_text("You have 3 messages (3 unread).")
    assert await said(alice, "clearmessages 1") == ["Cleared 1 message."]
    assert (await said(bob, "message alice now there is room"))[0] == (
        "The following message was sent to Alice:"
    )


async def test_a_long_message_list_is_paged_not_dropped(server: Server) -> None:
    """200 messages of 900 characters (180 KB: more than the output limit in one unit),
    as if sent before the cap was lowered: paged in both faces, every one shown."""
    long, now = "y" * 900, datetime.now(UTC)
    for n in range(200):
        sender = "Bob" if n % 2 else "Carol"
        await asyncio.to_thread(server.store.send_message, sender, "Alice", f"{n} {long}", now)
    icc = (f"level2settings={bits(DG.MESSAGELIST_BEGIN, DG.MESSAGELIST_ITEM)}",)
    for face in ((), icc):
        alice = await user(server, "Alice", *face)
        await alice.expect_text("You have 200 messages (")
        events = await alice.command("messages")
        assert texts(events)[0] == "Messages:"
        assert texts(events)[1].startswith("1. Carol at ")
        seen: list[str] = []
        while True:
            assert not any(isinstance(e, Overflow) for e in events)
            seen += [line for line in texts(events) if line[:1].isdigit()]
            if texts(events)[-1] != MORE:
                break
            events = await alice.command("next")
        assert [line.split(". ", 1)[0] for line in seen] == [str(n) for n in range(1, 201)]
        await alice.send("quit")
        await alice.close()
