"""``ltell`` (FICS's tell to one's list) and ``away`` (ICC's line for whoever tells)."""

from __future__ import annotations

import asyncio

from icswire.protocol.level1 import CommandNumber as CN
from icswire.server.app import Server

from .support import until
from .test_level1_labels import icc_user, label
from .test_talk import said, seen, user


async def test_ltell_tells_everybody_online_on_the_list(server: Server) -> None:
    alice = await user(server, "Alice")
    bob = await user(server, "Bob")
    carol = await user(server, "Carol")
    for name in ("Carol", "Bob"):
        await said(alice, f"+notify {name}")
    await said(alice, "+gnotify Carol")
    await carol.send("999 quit")  # block mode: a line with its id
    await until(lambda: "carol" not in server.core.world.online)
    assert await said(alice, "ltell notify meeting at 8") == ["(told Bob)"]
    await seen(bob, "Alice(U) tells you: meeting at 8")
    assert await said(alice, "ltell gn anyone?") == []  # Carol is gone: nobody, no word
    assert await said(alice, "tell . x") == ["No previous tell."]  # ltell leaves it alone


async def test_ltell_refuses_what_is_no_list(server: Server) -> None:
    alice = await user(server, "Alice")
    assert await said(alice, "ltell nosuchlist hi") == ["Can't find that list"]
    assert await said(alice, "ltell ban hi") == [
        '"ban" is not an appropriate list name or you have insufficient rights.',
        "Can't find that list",
    ]
    assert await said(alice, "ltell notify") == ["Usage: ltell <list> <message>"]


async def test_ltell_to_a_title_list_reaches_its_members_online(server: Server) -> None:
    await asyncio.to_thread(server.core.store.add_user, "Kasparov", "pw")
    await asyncio.to_thread(server.core.store.set_on_server_list, "gm", "Kasparov", True)
    gm = await user(server, "Kasparov", password="pw")
    alice = await user(server, "Alice")
    assert await said(alice, "ltell gm hello masters") == ["(told Kasparov)"]
    await seen(gm, "tells you: hello masters")


async def test_away_is_shown_to_whoever_tells_until_one_types(server: Server) -> None:
    alice = await user(server, "Alice")
    bob = await user(server, "Bob")
    assert await said(bob, "away on the phone") == [
        "Away message set: players who tell you see (told Bob, who is on the phone)",
        "until you type anything.",
    ]
    assert await said(alice, "tell bob hi") == ["(told Bob, who is on the phone)"]
    assert await said(alice, "tell bob hi again") == ["(told Bob, who is on the phone)"]
    await said(bob, "date")
    assert await said(alice, "tell bob back?") == ["(told Bob)"]
    await said(bob, "away gone")
    assert await said(bob, "away") == ["Away message cleared."]
    assert await said(alice, "tell bob now?") == ["(told Bob)"]


async def test_away_for_an_icc_session_is_cn_away(server: Server) -> None:
    client = await icc_user(server, "Iccuser")
    assert await label(client, "away lunch") == CN.CN_AWAY
    assert await label(client, "ltell notify hi") == CN.CN_TELL
