"""Messages between registered users end to end: kept in the database, counted at login,
shown live, listed and cleared with FICS's texts, DG_MESSAGELIST_BEGIN/ITEM for ICC."""

from __future__ import annotations

import asyncio
import re

import pytest

from icswire.protocol.datagrams import DG
from icswire.protocol.events import Prompt, Text
from icswire.server.app import Server

from .client import Client
from .support import connect, texts

#: FICS's time of a message (``strltime``), UTC.
WHEN = r"[A-Z][a-z]{2} [A-Z][a-z]{2} [ \d]\d, \d\d:\d\d UTC \d{4}"


@pytest.fixture
async def server(server: Server) -> Server:
    """conftest's server, with Alice, Bob, Carol registered (password ``pw``)."""
    for name in ("Alice", "Bob", "Carol"):
        await asyncio.to_thread(server.store.add_user, name, "pw")
    return server


async def user(server: Server, name: str, *datagrams: int) -> Client:
    client = await connect(server, datagrams)
    setup = (f"level2settings={''.join('1' if n in datagrams else '0' for n in range(96))}",)
    password = "pw" if name in ("Alice", "Bob", "Carol") else None
    await client.login(name, password, *(setup if datagrams else ()))
    await client.expect(lambda e: isinstance(e, Prompt))
    return client


async def said(client: Client, line: str) -> list[str]:
    return texts(await client.command(line))


def matches(lines: list[str], patterns: list[str]) -> bool:
    return len(lines) == len(patterns) and all(
        re.fullmatch(p, line) for p, line in zip(patterns, lines, strict=True)
    )


async def test_a_message_waits_for_the_next_login_and_is_listed(server: Server) -> None:
    bob = await user(server, "Bob")
    sent = await said(bob, "message alice see you at 8")
    assert matches(
        sent,
        ["The following message was sent to Alice:", f"Bob at {WHEN}: see you at 8"],
    ), sent
    await said(bob, "messages Alice second one")
    alice = await user(server, "Alice")
    await alice.expect_text("You have 2 messages (2 unread).")
    await alice.expect_text(
        'Use "messages u" to view unread messages and "clearmessages *" to clear all.'
    )
    listed = await said(alice, "messages")
    assert matches(
        listed,
        ["Messages:", f"1\\. Bob at {WHEN}: see you at 8", f"2\\. Bob at {WHEN}: second one"],
    ), listed
    assert await said(alice, "messages u") == ["You have no unread messages."]
    assert matches(await said(alice, "messages 2"), [f"2\\. Bob at {WHEN}: second one"])
    assert await said(alice, "messages 3") == ["You do not have a message 3."]
    await alice.send("quit")
    again = await user(server, "Alice")
    await again.expect_text("You have 2 messages (0 unread).")


async def test_a_message_to_someone_online_is_shown_at_once(server: Server) -> None:
    alice = await user(server, "Alice")
    bob = await user(server, "Bob")
    await bob.command("mess alice are you there?")
    await alice.expect_text("The following message was received:")
    line = await alice.expect(lambda e: isinstance(e, Text) and e.text.startswith("Bob at "))
    assert re.fullmatch(f"Bob at {WHEN}: are you there\\?", line.text)
    between = await said(bob, "messages alice")
    assert matches(
        between,
        [
            "Messages to Alice:",
            f"Bob at {WHEN}: are you there\\?",
            "You have no messages from Alice.",
        ],
    ), between
    from_bob = await said(alice, "messages bob")
    assert from_bob[0] == "Bob has no messages from you."
    assert matches(from_bob[1:], ["Messages from Bob:", f"1\\. Bob at {WHEN}: are you there\\?"])


async def test_who_may_send_and_receive(server: Server) -> None:
    alice = await user(server, "Alice")
    guest = await user(server, "Visitor")
    assert await said(guest, "messages") == [
        "Unregistered players may not send or receive messages."
    ]
    assert await said(guest, "message alice hi") == [
        "Unregistered players may not send or receive messages."
    ]
    assert await said(alice, "message visitor hi") == [
        'Player "Visitor" is unregistered and cannot receive messages.'
    ]
    assert await said(alice, "message nosuchname hi") == [
        "There is no player matching the name nosuchname."
    ]
    assert await said(alice, "message 9lives hi") == [
        "There is no player matching the name 9lives."
    ]
    await alice.command("+censor Bob")
    await alice.send("quit")
    await server.core.writes.barrier()
    bob = await user(server, "Bob")
    assert await said(bob, "message alice please") == ["Alice is censoring you."]
    alice = await user(server, "Alice")
    assert await said(bob, "message alice online now") == ["Alice is censoring you."]
    assert await said(alice, "messages") == ["You have no messages."]


async def test_clearmessages_by_number_sender_or_all(server: Server) -> None:
    bob = await user(server, "Bob")
    carol = await user(server, "Carol")
    for sender, text in ((bob, "one"), (carol, "two"), (bob, "three"), (carol, "four")):
        await sender.command(f"message alice {text}")
    alice = await user(server, "Alice")
    await alice.expect_text("You have 4 messages (4 unread).")
    assert await said(alice, "clearmessages") == [
        'Use "clearmessages *" to clear all your messages.'
    ]
    assert await said(alice, "clearmessages 5") == ["You do not have a message 5."]
    assert await said(alice, "clearmessages 2") == ["Cleared 1 message."]
    listed = await said(alice, "messages")
    assert [line.rsplit(": ", 1)[-1] for line in listed[1:]] == ["one", "three", "four"]
    assert await said(alice, "clearmessages bob") == ["Cleared 2 messages."]
    assert await said(alice, "clearmessages bob") == ["You have no messages from Bob."]
    assert await said(alice, "clearmessages *") == ["Cleared 1 message."]
    assert await said(alice, "clearmessages *") == ["You have no messages."]


async def test_icc_sessions_get_the_message_list_datagrams(server: Server) -> None:
    bob = await user(server, "Bob")
    await bob.command("message alice {braces} and all")
    alice = await user(server, "Alice", DG.MESSAGELIST_BEGIN, DG.MESSAGELIST_ITEM)
    await alice.send("messages")
    begin = await alice.expect_dg(DG.MESSAGELIST_BEGIN)
    item = await alice.expect_dg(DG.MESSAGELIST_ITEM)
    assert begin.command == "messages"
    assert (item.index, item.sender, item.message) == (1, "Bob", "{braces} and all")
    assert re.fullmatch(r"\d\d:\d\d", item.time) and re.fullmatch(r"\d{4}-\d\d-\d\d", item.date)
    assert any(t.startswith("1. Bob at ") for t in texts(alice.events))  # the text form too
    assert not alice.errors()


async def test_fmessage_forwards_one_of_your_messages(server: Server) -> None:
    bob = await user(server, "Bob")
    await bob.command("message alice the key is under the mat")
    alice = await user(server, "Alice")
    await alice.expect_text("clearmessages *")  # the count at login
    carol = await user(server, "Carol")
    forwarded = await said(alice, "fmessage carol 1")
    assert matches(
        forwarded,
        [
            "The following message was forwarded to Carol:",
            f"   Bob at {WHEN}: the key is under the mat",
        ],
    ), forwarded
    await carol.expect_text("The following message was received:")
    listed = await said(carol, "messages")
    assert listed[0] == "Messages:" and listed[2].startswith("\\   ")  # wrapped at 79
    assert re.fullmatch(
        f"1\\. Alice at {WHEN}: FORWARDED MSG: Bob at {WHEN}: the key is under the mat",
        listed[1] + listed[2].removeprefix("\\   "),
    ), listed
    assert await said(alice, "fmessage carol 2") == ["You do not have a message 2."]
    assert await said(alice, "fmessage carol") == ["Usage: fmessage <name> <number>"]
    assert await said(alice, "fmessage nosuchname 1") == [
        "There is no player matching the name nosuchname."
    ]
    assert await said(bob, "fmessage carol 1") == ["You have no messages."]
    guest = await user(server, "Visitor")
    assert await said(guest, "fmessage alice 1") == [
        "Unregistered players may not send or receive messages."
    ]
    assert await said(alice, "fmessage visitor 1") == [
        'Player "Visitor" is unregistered and cannot send or receive messages.'
    ]
