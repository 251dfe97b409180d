"""The world's indexes of who listens for what follow each user's own commands: turning
``pin``, ``iset pin``, a presence DG or a notify entry on and off changes who hears of the
next arrival and departure at once, and a user who left is in no index."""

from __future__ import annotations

import asyncio

from icswire.protocol.datagrams import DG
from icswire.protocol.encoder import encode_event
from icswire.protocol.events import IvarLine, Text
from icswire.server.app import Server

from .client import Client
from .support import connect


async def visit(server: Server, name: str, password: str | None = None) -> None:
    """``name`` logs in, then quits."""
    client = await connect(server)
    await client.login(name, password)
    await client.send("quit")
    await client.settle()


def heard(client: Client) -> list[str]:
    """The pin lines ``client`` got: ``[NAME has ...]`` and ``<wa>``/``<wd>``, as sent."""
    found = []
    for event in client.events:
        if isinstance(event, Text) and event.text.startswith("["):
            found.append(event.text)
        elif isinstance(event, IvarLine):
            found.append(encode_event(event).decode("latin-1").rstrip("\n\r"))
    return found


async def test_switches_and_notify_take_effect_at_the_next_arrival(server: Server) -> None:
    listener = await connect(server)
    await listener.login("Listener")
    await visit(server, "Quiet")
    await listener.command("set pin 1")
    await listener.command("iset pin 1")
    await visit(server, "Heard")
    await listener.command("set pin 0")
    await listener.command("iset pin 0")
    await visit(server, "Unheard")
    await listener.settle()
    assert heard(listener) == [
        "[Heard has connected.]",
        "<wa> Heard 01" + "0P" * 9,
        "[Heard has disconnected.]",
        "<wd> Heard",
    ]
    assert server.world.listening.with_variable("pin") == set()


async def test_set2_and_notify_lists_are_followed(server: Server) -> None:
    listener = await connect(server, [DG.PLAYER_ARRIVED_SIMPLE])
    await listener.login("Listener")
    await listener.command(f"set-2 {DG.PLAYER_ARRIVED_SIMPLE} 1")
    await asyncio.to_thread(server.store.add_user, "Friend", "pw")  # a list names players
    await listener.command("+notify Friend")
    await visit(server, "Friend", "pw")
    await listener.command(f"set-2 {DG.PLAYER_ARRIVED_SIMPLE} 0")
    await listener.command("-notify Friend")
    await visit(server, "Friend", "pw")
    await listener.settle()
    simple = [e.playername for e in listener.received(DG.PLAYER_ARRIVED_SIMPLE)]
    notices = [e.text for e in listener.events if isinstance(e, Text) and "Friend" in e.text]
    assert simple == ["Listener", "Friend"]  # the list set-2 sends, then one arrival
    assert [t for t in notices if t.startswith("Notification:")] == [
        "Notification: Friend has arrived.",
        "Notification: Friend has departed.",
    ]
    await listener.send("quit")
    await listener.settle()
    listening = server.world.listening
    assert not listening.with_dg(DG.PLAYER_ARRIVED_SIMPLE) and not listening.notifying("friend")


async def test_a_registered_player_who_logs_in_is_announced_as_available(
    server: Server,
) -> None:
    """FICS announces a registered player's login to those with ``availinfo`` on (and open,
    and not playing); a guest's login is not announced."""
    server.store.add_user("Ready", "pw")
    listener = await connect(server)
    await listener.login("Listener")
    await listener.command("set availinfo 1")
    await visit(server, "Someguest")
    ready = await connect(server)
    await ready.login("Ready", "pw")
    told = await listener.expect_text("Ready Blitz (")
    assert told.text == "Ready Blitz (----), Std (----), Wild (----), Light(----), Bug(----)"
    await listener.expect_text("  is now available for matches.")
    assert not [e for e in listener.events if isinstance(e, Text) and "Someguest" in e.text]
