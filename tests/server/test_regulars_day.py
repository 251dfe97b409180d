"""A FICS regular's day, end to end (users connected in memory) (issue 13's proof): register, set
variables, chat, leave a message for a player who is offline and reads it at login, play a
rated game that ends by a draw offer taken with ``accept``, see the new ratings in
``who``, ``finger`` and ``ratings``, journal the game, examine it and hand it to an
observer with ``mexamine``, then log out and in again with everything kept."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from icswire.protocol.events import Style12Line
from icswire.server.app import Server
from icswire.server.core.storage.store import Store

from .client import Client
from .support import connect, texts


@pytest.fixture
async def server(database_url: str) -> AsyncIterator[Server]:
    store = Store(database_url)
    store.add_user("Barbara", "pw2")
    store.add_user("Carla", "pw3")
    running = Server(store, "127.0.0.1", 0, None, True)  # open registration
    await running.start(listen=False)
    yield running
    await running.stop()
    store.close()


async def board(client: Client, move: str) -> Style12Line:
    found: Style12Line = await client.expect(
        lambda e: isinstance(e, Style12Line) and e.record.pretty_move == move
    )
    return found


async def test_a_regulars_day(server: Server) -> None:
    alfred = await connect(server)
    await alfred.login("Alfred")
    assert texts(await alfred.command("register secret"))[0] == (
        'You are now registered as "Alfred".'
    )
    assert texts(await alfred.command("set 1 I play the Sicilian")) == [
        "Note 1 set: I play the Sicilian"
    ]
    await alfred.command("set style 12")
    assert texts(await alfred.command("+channel 50")) == ["[50] added to your channel list."]
    sent = texts(await alfred.command("message Carla Hello from Alfred"))
    assert sent[0] == "The following message was sent to Carla:"

    barbara = await connect(server)
    await barbara.login("Barbara", "pw2")
    await barbara.command("set style 12")
    await barbara.command("+channel 50")
    await alfred.command("tell 50 good morning")
    await barbara.expect_text("Alfred(50): good morning")
    assert texts(await barbara.command("tell Alfred shall we play?")) == ["(told Alfred)"]
    await alfred.expect_text("Barbara tells you: shall we play?")

    await alfred.send("match Barbara 5 0 rated white")
    await barbara.expect_text("Challenge: Alfred (----) [white] Barbara (----) rated blitz 5 0.")
    await barbara.send("accept")
    await alfred.expect_text("{Game 1 (Alfred vs. Barbara) Creating rated blitz match.}")
    await alfred.send("e4")
    await board(barbara, "e4")
    await barbara.send("e5")
    await board(alfred, "e5")
    await barbara.send("draw")
    await alfred.expect_text("Barbara offers you a draw.")
    await alfred.send("accept")  # what XBoard's Accept button sends
    await alfred.expect_text("{Game 1 (Alfred vs. Barbara) Game drawn by mutual agreement} 1/2-1/2")
    await alfred.expect_text("Blitz rating adjustment:")
    await barbara.expect_text("Blitz rating adjustment:")
    await alfred.settle()
    await barbara.settle()

    who = " ".join(texts(await alfred.command("who")))
    assert "1500 Alfred" in who and "1500 Barbara" in who, who
    finger = texts(await alfred.command("finger Alfred"))
    blitz = next(row for row in finger if row.startswith("Blitz"))
    assert blitz.split()[1] == "1500" and blitz.split()[3:7] == ["0", "0", "1", "1"]
    assert " 1: I play the Sicilian" in finger
    assert next(r for r in texts(await barbara.command("ratings")) if r.startswith("Blitz"))

    history = texts(await alfred.command("history"))
    assert any(row.startswith(" 0: = ") and "Barbara" in row and "Agr" in row for row in history)
    saved = texts(await alfred.command("jsave a Alfred 0"))
    assert saved == ["Game Alfred 0 saved in slot A in journal."]
    journal = texts(await alfred.command("journal"))
    assert any(row.startswith("A: Alfred ") and "Barbara" in row for row in journal), journal

    examined = texts(await alfred.command("examine Alfred %a"))
    assert examined[0] == "Starting game 1 in examine mode: Alfred vs. Barbara."
    await barbara.command("observe Alfred")
    assert texts(await alfred.command("mexamine Barbara")) == [
        "Barbara is now an examiner of game 1."
    ]
    await barbara.expect_text("Alfred has made you an examiner of game 1.")
    await barbara.send("forward")
    await board(barbara, "e4")
    await alfred.command("unexamine")
    await alfred.send("quit")
    await alfred.settle()

    carla = await connect(server)
    await carla.login("Carla", "pw3")
    await carla.expect_text("You have 1 message (1 unread).")
    messages = texts(await carla.command("messages"))
    assert messages[1].endswith("Alfred at " + messages[1].split(" at ", 1)[1])
    assert messages[1].endswith(": Hello from Alfred")

    again = await connect(server)
    assert await again.login("Alfred", "secret") == "Alfred"
    await again.settle()
    kept = texts(await again.command("finger"))
    assert " 1: I play the Sicilian" in kept
    assert next(r for r in kept if r.startswith("Blitz")).split()[1] == "1500"
    assert texts(await again.command("=channel")) == ["-- channel list: 1 channels --", "50"]
    assert any("Barbara" in row for row in texts(await again.command("journal")))
