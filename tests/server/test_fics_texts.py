"""FICS's texts byte for byte as lasker-2.2.3 writes them (issue 23), to FICS sessions:
``inchannel`` (``com_inchannel``) ..."""

from __future__ import annotations

import asyncio

from icswire.server.app import Server

from .client import Client
from .support import connect
from .support import text_lines as lines


async def user(server: Server, name: str, *setup: str, password: str = "") -> Client:
    """A guest, or the registered ``name`` when ``password`` is given."""
    if password:
        await asyncio.to_thread(server.store.add_user, name, password)
    client = await connect(server)
    await client.login(name, password or None)
    for line in setup:
        await client.command(line)
    return client


async def test_inchannel_as_lasker_writes_it(server: Server) -> None:
    await user(server, "Zed", "+channel 50", "+channel 4")
    await user(server, "Amy", "+channel 50")
    asker = await user(server, "Asker")
    assert lines(await asker.command("inchannel 50")) == [
        "Channel 50: Amy Zed",
        "2 people are in channel 50.",
    ]
    assert lines(await asker.command("inchannel 4")) == [
        "Channel 4: Zed",
        "1 person is in channel 4.",
    ]
    assert lines(await asker.command("inchannel 7")) == ["Channel 7 is empty."]
    assert lines(await asker.command("inchannel 256")) == [
        "No such channel; the largest channel number is 255."
    ]
    assert lines(await asker.command("inchannel")) == ["Channel 4: Zed", "Channel 50: Amy Zed"]
    assert lines(await asker.command("inchannel asker")) == [
        "Asker is in the following channels: No channels found for Asker."
    ]
    assert lines(await asker.command("inchannel zed")) == [
        "Zed is in the following channels:",
        "4     50",
    ]


#: ``set`` and lasker's answer (variable.c), for each variable lasker has that icswire has.
SET_ANSWERS = [
    ("set shout 0", "You will not hear shouts."),
    ("set shout 1", "You will now hear shouts."),
    ("set cshout 0", "You will not hear cshouts."),
    ("set kibitz 0", "You will not hear kibitzes."),
    ("set tell 0", "You will not hear tells from unregistered users."),
    ("set notifiedby 1", "You will now hear if people notify you, but you don't notify them."),
    ("set pin 1", "You will now hear logins/logouts."),
    ("set gin 1", "You will now hear game results."),
    ("set open 0", "You are no longer receiving match requests."),
    ("set open 1", "You are now open to receive match requests."),
    ("set ropen 0", "ropen set to 0."),
    ("set seek 0", "You will not hear ads."),
    ("set seek 1", "You will now hear ads."),
    ("set private 1", "Your games will be private."),
    ("set private 0", "Your games may not be private."),
    ("set bell 1", "Bell on."),
    ("set bell 0", "Bell off."),
    ("set flip 1", "Flip on."),
    ("set flip 0", "Flip off."),
    ("set style 12", "Style 12 set."),
    ("set time 5", "Default time set to 5."),
    ("set inc 3", "Default increment set to 3."),
    ("set height 40", "Height set to 40."),
    ("set width 100", "Width set to 100."),
    ("set highlight 0", "Highlight is off."),
    ("set lang english", "Language set to English."),
    ("set busy", 'Your "busy" string was cleared.'),
    ("set busy eating", 'Your "busy" string was set to " eating"'),
    ("set formula blitz", "Formula set to blitz."),
    ("set formula", "Formula unset."),
    ("set f1 rated", "Formula variable f1 set to rated."),
    ("set f1", "Formula variable f1 unset."),
    ("set availinfo 0", "availinfo set to 0."),
    ("set style 99", "Bad value given for variable style."),
    ("set nosuchthing 1", "No such variable name nosuchthing."),
]


async def test_set_answers_each_variable_as_lasker(server: Server) -> None:
    client = await user(server, "Setter")
    for command, answer in SET_ANSWERS:
        said = lines(await client.command(command))
        assert said[:1] == [answer], command
    # prompt and interface are set in silence
    assert lines(await client.command("set interface xboard")) == []
    assert lines(await client.command("set prompt fics%")) == []


async def test_the_echoes_of_shouts_and_channel_tells(server: Server) -> None:
    """freechess.org's echoes, which FICS clients match: ``(shouted to N players)`` (a web
    client's ``/^\\(shouted to \\d+ players\\)$/``), ``(told N players in channel C "NAME")``
    for a channel with a name (PyChess's ``\\(told (\\d+) players in channel (\\d+) ".+"\\)``)."""
    await user(server, "Hearer", "+channel 1", "+channel 7")
    talker = await user(server, "Talker", "+channel 1", "+channel 7", password="pw")
    assert lines(await talker.command("tell 1 hello")) == ['(told 1 players in channel 1 "Help")']
    assert lines(await talker.command("tell 7 hello")) == ["(told 1 players in channel 7)"]
    assert lines(await talker.command("shout hello")) == ["(shouted to 1 players)"]
    assert lines(await talker.command("cshout hello")) == ["(c-shouted to 1 players)"]


async def test_guests_may_not_shout(server: Server) -> None:
    """lasker's com_shout, com_it and com_cshout refuse unregistered players."""
    guest = await user(server, "Visitor")
    for command, name in (("shout hi", "shout"), ("it waves", "it"), ("cshout e4", "cshout")):
        assert lines(await guest.command(command)) == [
            f"Only registered players can use the {name} command."
        ]


async def test_unknown_and_ambiguous_commands(server: Server) -> None:
    client = await user(server, "Typer")
    assert lines(await client.command("frobnicate")) == ["frobnicate: Command not found."]
    said = lines(await client.command("un"))
    assert said[0].startswith("Ambiguous command. Matches: unalias ") and '"' not in said[0]
