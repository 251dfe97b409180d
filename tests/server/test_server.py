"""The server end to end: several clients at once, everything they receive decoded with
icswire's own decoder; connected in memory, and over real sockets on 127.0.0.1 where the
wire is the point (the tests marked ``sockets``)."""

from __future__ import annotations

import asyncio
import os
import re
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from icswire.protocol import datagrams as dg
from icswire.protocol.datagrams import DG, Rating
from icswire.protocol.events import (
    CommandEnd,
    CommandStart,
    Prompt,
    SessionEnd,
    Telnet,
    Text,
    UnitStart,
)
from icswire.protocol.level1 import CommandNumber
from icswire.server.app import Server
from icswire.server.core.net.session import clean_text
from icswire.server.core.render.batch import Batch
from icswire.server.core.storage.store import Store

from . import support
from .client import Client, free_port
from .support import bits


async def connect(server: Server, *datagrams: int) -> Client:
    return await support.connect(server, datagrams)


# -- login --------------------------------------------------------------------------------


async def test_guests_and_unregistered_names_press_return(server: Server) -> None:
    guest = await connect(server)
    name = await guest.login()
    assert re.fullmatch(r"Guest[A-Z]{4}", name)
    assert isinstance(await guest.expect(lambda e: True), Prompt)
    other = await connect(server)
    assert await other.login("Fred") == "Fred"
    same = await connect(server)
    await same.send("fred")
    await same.expect_text("fred, whose name matches yours, is already logged in.")


async def test_registered_login_with_the_password_later_or_on_the_same_line(server: Server) -> None:
    await asyncio.to_thread(server.store.add_user, "Alice", "secret")
    first = await connect(server)
    await first.send("alice")
    echo_off = await first.expect(lambda e: isinstance(e, Telnet))  # before the prompt
    assert echo_off.data == b"\xff\xfb\x01"
    await first.expect(lambda e: isinstance(e, Prompt) and e.text == "password: ")
    await first.send("wrong")
    await first.expect_text("**** Invalid password! ****")
    await first.send("alice", "secret")
    await first.expect_text("**** Starting FICS session as Alice ****")
    await first.close()
    second = await connect(server, 0)
    assert await second.login("ALICE", "secret", f"level2settings={bits(0)}") == "Alice"
    await second.expect_dg(DG.WHO_AM_I, myname="Alice", titles="")


async def test_login_failures_give_the_spec_texts_and_datagram(server: Server) -> None:
    client = await connect(server, DG.LOGIN_FAILED)
    await client.send(f"level2settings={bits(DG.LOGIN_FAILED)}")
    for name, code in (("a" * 16, 2), ("a", 3), ("9lives", 4), ("no_good", 4)):
        await client.send(name)
        failed = await client.expect_dg(DG.LOGIN_FAILED)
        assert failed.code == code
    texts = [e.text for e in client.events if isinstance(e, Text)]
    assert "Sorry, names may be at most 15 characters long. Try again." in texts
    await client.send("nobody password")
    assert (await client.expect_dg(DG.LOGIN_FAILED)).code == 6
    assert not client.errors()


@pytest.mark.sockets
async def test_lines_sent_before_login_ends_are_not_lost(server: Server) -> None:
    client = await connect(server)
    client.writer.write(b"guest\r\n\r\nset shout 0\r\nvars\r\n")
    await client.expect_text("You will not hear shouts.")
    await client.expect_text("shout=0")


async def _greeted(server: Server, *lines: bytes) -> bytes:
    """The raw bytes a new connection gets up to its greeting's end, after ``lines``."""
    reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
    try:
        writer.write(b"".join(line + b"\r\n" for line in lines))
        async with asyncio.timeout(10):
            return await reader.readuntil(b"session as " + lines[-2] + b"(U) ****")
    finally:
        writer.close()


@pytest.mark.sockets
async def test_fics_sessions_get_ficss_greeting_byte_for_byte(server: Server) -> None:
    """What XBoard, eboard and PyChess wait for, exactly as before ICC sessions got theirs."""
    wire = await _greeted(server, b"Fred", b"")
    # the prompt's line ends at once (issue 23); the greeting follows the return on a line
    # of its own, after an empty one, as lasker's "\n**** Starting FICS session as ..."
    greeting = b'enter the server as "Fred":\n\r\n\r**** Starting FICS session as Fred(U) ****'
    assert wire.endswith(greeting)
    assert b"ICC" not in wire


@pytest.mark.sockets
@pytest.mark.parametrize("setting", [b"level1=7", b"level2settings=1"])
async def test_icc_sessions_get_iccs_greeting(server: Server, setting: bytes) -> None:
    """A session that turns level 1 or 2 on at ``login:`` talks ICC from its greeting on."""
    wire = await _greeted(server, setting, b"Gina", b"")
    assert wire.endswith(b"**** Starting ICC session as Gina(U) ****")
    assert b"FICS" not in wire


# -- output levels ------------------------------------------------------------------------


async def test_level_0_1_and_2_users_hear_one_tell_each_their_way(server: Server) -> None:
    plain = await connect(server)
    await plain.login("Plain")
    units = await connect(server)
    await units.login("Units", None, "level1=15")
    grams = await connect(server, 31, 62)
    await grams.login("Grams", None, f"level2settings={bits(31, 62)}")
    for receiver in (plain, units, grams):
        await grams.send(f"tell {receiver.name} hello {{world}}")
    await plain.expect_text("Grams(U) tells you: hello {world}")
    start = await units.expect(lambda e: isinstance(e, UnitStart) and e.command == 101)
    assert start.issuer == "%" and start.tag is None  # level1 & 8: % for somebody else
    await units.expect_text("Grams(U) tells you: hello {world}")
    tell = await grams.expect_dg(DG.PERSONAL_TELL)
    assert (tell.playername, tell.titles, tell.text, tell.type) == (
        "Grams",
        "U",
        "hello {world}",
        1,
    )
    await grams.settle()
    echoes = [e.receiver for e in grams.received(DG.PERSONAL_TELL_ECHO)]
    assert echoes == ["Plain", "Units", "Grams"]
    told = [e for e in grams.events if isinstance(e, Text) and "tells you" in e.text]
    assert told == []  # DG_PERSONAL_TELL replaces the text form
    for client in (plain, units, grams):
        assert not client.errors()


async def test_level1_brackets_tags_and_the_extra_close_at_quit(server: Server) -> None:
    client = await connect(server)
    await client.login("Tagger", None, "level1=7")
    # the newline after the login unit's ^Y] (ICC framing) may come first
    events = [e for e in await client.command("`abc`date") if e != Text("", "\n")]
    assert isinstance(events[0], CommandStart)
    assert events[1] == UnitStart(177, "*", "abc", 1)
    assert any(isinstance(e, Text) and e.text.startswith("Server time") for e in events)
    await client.expect(lambda e: isinstance(e, CommandEnd))
    await client.send("quit")
    await client.expect(lambda e: isinstance(e, SessionEnd))


async def test_set2_acknowledges_and_turning_on_sends_the_lists(server: Server) -> None:
    await asyncio.to_thread(server.store.add_user, "Lister", "pw")
    other = await connect(server)
    await other.login("Other")
    client = await connect(server, DG.SET2)
    await client.login("Lister", "pw", f"level2settings={bits(DG.SET2)}")
    for number in (1, 3, 4, 76, 116, 81, 87, 47, 48, 136):
        await client.send(f"set-2 {number} 1")
        await client.expect_dg(DG.SET2, dg_code=number, on=True)
    await client.settle()
    arrived = {e.playername: e for e in client.received(DG.PLAYER_ARRIVED)}
    assert set(arrived) == {"Lister", "Other"}
    # the registered players' ratings: "Shouldn't get rating DGs for unregs" (DG_BULLET)
    assert [e.playername for e in client.received(DG.BLITZ)] == ["Lister"]
    assert [(e.index, e.label) for e in client.received(DG.RATING_TYPE_KEY)][:2] == [
        (0, "Wild"),
        (1, "Blitz"),
    ]
    assert (0, "Chess") in [(e.index, e.label) for e in client.received(DG.WILD_KEY)]
    assert len(client.received(DG.DUMMY_RESPONSE)) == 1
    assert client.received(DG.NEW_MY_RATING)[0].ratings[0] == 0
    variables = {e.variable: e.value for e in client.received(DG.MY_VARIABLE)}
    assert variables["style"] == 1 and variables["ms"] == 0  # FICS's default style
    assert {e.variable for e in client.received(DG.MY_STRING_VARIABLE)} >= {"prompt", "interface"}
    await client.send("set-2 999 1")
    await client.expect_text("Usage: set-2")
    await client.command("who")
    assert client.received(DG.COMMAND)[-1] == dg.Command("who", "")
    assert not client.errors()


async def test_player_arrived_carries_the_enabled_parts_in_dg_order(server: Server) -> None:
    watcher = await connect(server)
    on = (1, 2, 3, 5, 10, 11, 55, 88, 131, 151)
    await watcher.login("Watcher", None, f"level2settings={bits(*on)}")
    watcher.decoder.set_datagrams(on)
    newcomer = await connect(server)
    await newcomer.login("Newcomer")
    arrived = await watcher.expect_dg(DG.PLAYER_ARRIVED, playername="Newcomer")
    assert arrived.ratings == (
        Rating(3, 0, 0),
        Rating(5, 0, 0),
        Rating(88, 0, 0),
        Rating(151, 0, 0),
    )
    assert (arrived.open, arrived.state, arrived.state_game, arrived.uid) == (True, "X", 0, 0)
    await watcher.expect_dg(DG.PLAYER_ARRIVED_SIMPLE, playername="Newcomer")
    await newcomer.send("set open 0")
    await watcher.expect_dg(DG.OPEN, playername="Newcomer", open=False)
    await newcomer.send("quit")
    await watcher.expect_dg(DG.PLAYER_LEFT, playername="Newcomer")
    assert not watcher.errors()


# -- talking --------------------------------------------------------------------------------


async def test_shouts_i_and_sshouts_reach_those_who_listen(server: Server) -> None:
    await asyncio.to_thread(server.store.add_user, "Speaker", "pw")  # guests may not shout
    speaker = await connect(server)
    await speaker.login("Speaker", "pw")
    grams = await connect(server, 32)
    await grams.login("Grams", None, f"level2settings={bits(32)}")
    deaf = await connect(server)
    await deaf.login("Deaf")
    await deaf.command("set shout 0")
    await speaker.send("shout hello all", "i waves", "sshout psst")
    assert [(s.type, s.text) for s in [await grams.expect_dg(DG.SHOUT) for _ in range(3)]] == [
        (0, "hello all"),
        (1, "waves"),
        (2, "psst"),
    ]
    await speaker.expect_text("(shouted to 1 players)")
    await deaf.expect_text("Speaker sshouts: psst")
    assert not [e for e in deaf.events if isinstance(e, Text) and "shouts: hello" in e.text]


async def test_channels_membership_and_tells(server: Server) -> None:
    one = await connect(server, 27, 28)
    await one.login("One", None, f"level2settings={bits(27, 28)}")
    two = await connect(server)
    await two.login("Two")
    await one.send("+channel 50")
    await one.expect_dg(DG.PEOPLE_IN_MY_CHANNEL, channel=50, playername="One", present=True)
    await two.command("+ch 50")
    await one.expect_dg(DG.PEOPLE_IN_MY_CHANNEL, channel=50, playername="Two", present=True)
    await two.send("tell 50 hi {50} there")
    told = await one.expect_dg(DG.CHANNEL_TELL)
    assert (told.channel, told.playername, told.text, told.type) == (50, "Two", "hi {50} there", 1)
    await two.expect_text('(told 1 players in channel 50 "Chat")')
    await one.send("tell 50 back")
    await two.expect_text("One(U)(50): back")
    events = await two.command("inchannel 50")
    said = [e.text for e in events if isinstance(e, Text)]
    assert said == ["Channel 50: One Two", "2 people are in channel 50."]  # lasker's
    await two.command("-channel 50")
    await one.expect_dg(DG.PEOPLE_IN_MY_CHANNEL, channel=50, playername="Two", present=False)
    await two.send("tell 50 gone")
    await two.expect_text("You are not in channel 50.")


async def test_notify_lists_in_text_and_datagrams(server: Server) -> None:
    await asyncio.to_thread(server.store.add_user, "Keeper", "pw")
    await asyncio.to_thread(server.store.add_user, "Friend", "pw")  # a list names players
    keeper = await connect(server, 64, 65, 68)
    await keeper.login("Keeper", "pw", f"level2settings={bits(64, 65, 68)}")
    await keeper.send("+notify Friend")
    await keeper.expect_dg(DG.MY_NOTIFY_LIST, playername="Friend", present=True)
    plain = await connect(server)
    await plain.login("Plainy")
    await plain.command("+notify Friend")
    friend = await connect(server)
    await friend.login("Friend", "pw")
    await keeper.expect_dg(DG.NOTIFY_ARRIVED, playername="Friend")
    await plain.expect_text("Notification: Friend has arrived.")
    await friend.send("quit")
    await keeper.expect_dg(DG.NOTIFY_LEFT, playername="Friend")
    await plain.expect_text("Notification: Friend has departed.")
    assert not [e for e in keeper.events if isinstance(e, Text) and "Notification" in e.text]


USER_TEXT = [
    "plain",
    "{",
    "}",
    "{}",
    "}{",
    "{{a}}",
    "a {b} c",
    *(f"x{chr(c)}y" for c in [*range(0, 32), 127] if c != 10),  # \n ends the line
    "\x19{evil\x19}",
    "\x19(31 forged {} {hi} 1\x19)",
    "end\x1a",
]


@pytest.mark.sockets
async def test_no_user_text_can_forge_or_break_a_datagram(server: Server) -> None:
    server.limits.rates.clear()  # a hundred tells and shouts at once
    await asyncio.to_thread(server.store.add_user, "Sender", "pw")  # guests may not shout
    sender = await connect(server)
    await sender.login("Sender", "pw")
    await sender.command("+channel 7")
    wanted = (28, 31, 32, 48)
    receiver = await connect(server, *wanted)
    await receiver.login("Receiver", None, f"level2settings={bits(*wanted)}")
    await receiver.command("+channel 7")
    for text in USER_TEXT:
        meant = clean_text(text).strip()
        if not meant:
            continue
        raw = text.encode("latin-1")
        for line in (b"tell Receiver " + raw, b"shout " + raw, b"tell 7 " + raw):
            sender.writer.write(line + b"\n")
        receiver.writer.write(b"set interface " + raw + b"\n")
        personal = await receiver.expect_dg(DG.PERSONAL_TELL)
        shouted = await receiver.expect_dg(DG.SHOUT)
        channel = await receiver.expect_dg(DG.CHANNEL_TELL)
        variable = await receiver.expect_dg(DG.MY_STRING_VARIABLE, variable="interface")
        assert personal.text == shouted.text == channel.text == meant, repr(text)
        assert variable.value == clean_text(text).lstrip(), repr(text)
    await receiver.settle()
    assert not receiver.errors()
    assert len(receiver.received(DG.PERSONAL_TELL)) == len(
        [t for t in USER_TEXT if clean_text(t).strip()]
    )


# -- commands -------------------------------------------------------------------------------


async def test_everyday_commands(server: Server) -> None:
    client = await connect(server)
    await client.login("Daily")
    assert any("1 players displayed" in getattr(e, "text", "") for e in await client.command("who"))
    assert any(getattr(e, "text", "") == "Finger of Daily(U):" for e in await client.command("fi"))
    await client.command("$set 1 my first note")
    assert any(
        getattr(e, "text", "") == " 1: my first note" for e in await client.command("finger daily")
    )
    assert any("ms=0" in getattr(e, "text", "") for e in await client.command("ivars"))
    await client.command("$iset ms 1")
    assert any("ms=1" in getattr(e, "text", "") for e in await client.command("ivars"))
    await client.command("iset lock 1")
    assert any("locked" in getattr(e, "text", "") for e in await client.command("iset ms 0"))
    await client.command("style 10")
    assert any("style=10" in getattr(e, "text", "") for e in await client.command("vars"))
    assert "Style 7 set." in [getattr(e, "text", "") for e in await client.command("style 7")]
    bad = [getattr(e, "text", "") for e in await client.command("style 14")]
    assert "Bad value given for variable style." in bad
    assert any("help intro" in getattr(e, "text", "") for e in await client.command("help"))
    assert any("tell NAME" in getattr(e, "text", "") for e in await client.command("help tell"))
    assert any(
        "Command not found" in getattr(e, "text", "") for e in await client.command("frobnicate")
    )
    assert any("Ambiguous" in getattr(e, "text", "") for e in await client.command("s hi"))
    await client.command("alias hi tell daily hello @")
    await client.send("hi there")
    await client.expect_text("Daily(U) tells you: hello there")
    await client.command("set prompt aics%")
    assert (await client.command("date"))[-1] == Prompt("aics% ")


async def test_ping_answers_with_the_round_trip(server: Server) -> None:
    client = await connect(server, DG.ACK_PING)
    await client.login("Pinger", None, f"level2settings={bits(DG.ACK_PING)}")
    await client.send("ping")
    await client.expect_text("Ping time for Pinger:")
    ack = await client.expect_dg(DG.ACK_PING, playername="Pinger")
    assert ack.lag >= 0 and ack.mean == ack.lag and ack.variance == 0


# -- persistence, output limits, the process -------------------------------------------------


async def test_accounts_and_settings_survive_a_restart(database_url: str) -> None:
    store = Store(database_url)
    await asyncio.to_thread(store.add_user, "Stayer", "pw")
    await asyncio.to_thread(store.add_user, "Buddy", "pw")  # a list names players
    first = Server(store, "127.0.0.1", 0)
    await first.start()
    client = await Client.connect(first.port)
    await client.login("Stayer", "pw")
    for line in (
        "set style 10",
        "+channel 9",
        "+notify Buddy",
        "alias yo tell stayer yo @",
        "set 2 second note",
    ):
        await client.command(line)
    await first.stop()
    store.close()

    store = Store(database_url)
    second = Server(store, "127.0.0.1", 0)
    await second.start()
    try:
        again = await Client.connect(second.port)
        await again.login("Stayer", "pw")
        shown = " ".join(getattr(e, "text", "") for e in await again.command("vars"))
        assert "style=10" in shown  # FICS's vars leaves the notes to finger
        fingered = " ".join(getattr(e, "text", "") for e in await again.command("finger"))
        assert "2: second note" in fingered
        channel = [getattr(e, "text", "") for e in await again.command("inchannel 9")]
        assert channel[:2] == ["Channel 9: Stayer", "1 person is in channel 9."]
        await again.send("yo there")
        await again.expect_text("Stayer tells you: yo there")
        assert second.world.online["stayer"].notify == {"buddy": "Buddy"}
    finally:
        await second.stop()
        store.close()


@pytest.mark.sockets
async def test_a_reader_that_never_reads_gets_overflow_and_is_cut_off(server: Server) -> None:
    server.stuck_after = 0.5
    server.limits.rates.clear()  # shouts until a reader is cut off
    slow = socket.create_connection(("127.0.0.1", server.port))
    slow.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    slow.sendall(b"guest\n\n")
    listener = await connect(server, 32)
    await listener.login("Listener", None, f"level2settings={bits(32)}")
    await asyncio.to_thread(server.store.add_user, "Shouter", "pw")  # guests may not shout
    shouter = await connect(server)
    await shouter.login("Shouter", "pw")
    await asyncio.sleep(0.2)
    assert len(server.world.online) == 3
    # a slow link: the kernel may not absorb megabytes for this reader
    (slow_session,) = [s for s in server.world.online.values() if s.name.startswith("Guest")]
    slow_session.transport.get_extra_info("socket").setsockopt(
        socket.SOL_SOCKET, socket.SO_SNDBUF, 4096
    )
    text = "x" * 1000
    for round_ in range(400):
        await shouter.send(f"shout {round_} {text}")
        if round_ % 50 == 0:
            await asyncio.sleep(0.1)
    for round_ in range(400):
        shout = await listener.expect_dg(DG.SHOUT)
        assert shout.text.startswith(f"{round_} ")
    for _ in range(50):
        if len(server.world.online) == 2:
            break
        await shouter.send("shout one more")
        await asyncio.sleep(0.1)
    assert set(server.world.online) == {"listener", "shouter"}
    assert slow_session.overflows > 0 and slow_session.closed
    slow.close()


def test_the_serve_command_logs_connections_and_stops_cleanly_on_sigterm(tmp_path: Path) -> None:
    port = free_port()
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "icswire",
            "serve",
            "--port",
            str(port),
            "--data-dir",
            str(tmp_path / "data"),
        ],
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    try:
        assert process.stderr is not None
        assert "listening on" in process.stderr.readline()
        with socket.create_connection(("127.0.0.1", port)) as conn:
            conn.sendall(b"guest\n\nquit\n")
            conn.settimeout(5)
            data = b""
            while b"Thank you" not in data:
                data += conn.recv(4096)
        assert "Guest" in process.stderr.readline()
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=10) == 0
        assert "shutting down" in process.stderr.read()
        assert (tmp_path / "data" / "icswire.sqlite3").exists()
    finally:
        if process.poll() is None:
            process.kill()


async def test_connect_brings_uid_shared_channels_sees_shouts_and_state(server: Server) -> None:
    await asyncio.to_thread(server.store.add_user, "Member", "pw")
    on = (1, 11, 45, 46, 67, 131)
    watcher = await connect(server)
    await watcher.login("Watcher", None, f"level2settings={bits(*on)}")
    watcher.decoder.set_datagrams(on)
    await watcher.command("+channel 3")
    await watcher.command("+notify Member")
    member = await connect(server)
    await member.send("Member pw", "+channel 3", "quit")
    await member.expect_text("Thank you for using icswire.")
    again = await connect(server)
    await again.login("Member", "pw")
    arrived = await watcher.expect_dg(DG.PLAYER_ARRIVED, playername="Member")
    assert arrived.uid > 0 and arrived.state == "X"
    assert (await watcher.expect_dg(DG.SEES_SHOUTS, playername="Member")).bitvector == 3
    assert (await watcher.expect_dg(DG.CHANNELS_SHARED, playername="Member")).channels == (3,)
    session = server.world.online["member"]
    session.state, session.state_game = "P", 12  # what starting a game will do (issue 5)
    batch = Batch(CommandNumber.CN_MATCH, session)
    server.world.state_changed(session, batch)
    batch.flush()
    assert await watcher.expect_dg(DG.STATE, playername="Member", state="P", state_game=12)
    assert await watcher.expect_dg(DG.NOTIFY_STATE, playername="Member", state="P")
    assert not watcher.errors()


async def test_finger_notes_keep_only_the_text_meant(server: Server) -> None:
    client = await connect(server)
    await client.login("Noter")
    for text in USER_TEXT:
        meant = clean_text(text).strip()
        if not meant:
            continue
        await client.command("set 1 " + text)
        shown = [getattr(e, "text", "") for e in await client.command("finger")]
        assert f" 1: {clean_text(text).lstrip()}" in shown, repr(text)
    assert not client.errors()


async def test_what_xboard_and_pychess_send_after_login_is_understood(server: Server) -> None:
    xboard = await connect(server)
    await xboard.login()
    for line in (
        "alias $ @",
        "$set interface xboard 4.9",
        "$iset startpos 1",
        "$iset ms 1",
        "$iset lock 1",
        "$style 12",
        "set width 79",
    ):
        replies = [getattr(e, "text", "") for e in await xboard.command(line)]
        assert not [r for r in replies if "not found" in r or "Bad value" in r or "No such" in r]
    assert xboard.events[-1] == Prompt("fics% ")
    assert server.world.online[xboard.name.lower()].ivariables["ms"] == 1
    pychess = await connect(server, 0, 31)
    await pychess.login()
    await pychess.expect(lambda e: isinstance(e, Prompt))
    start = len(pychess.events)
    await pychess.send("set level1 5", "set prompt 0", "set-2 0 1", "set-2 31 1", "set style 13")
    await pychess.settle(0.5)
    later = pychess.events[start:]
    assert not [e for e in later if isinstance(e, Prompt)]
    assert [e.command for e in later if isinstance(e, UnitStart)] == [107, 107, 216, 216, 107]
    assert server.world.online[pychess.name.lower()].variables["style"] == 13
    assert not pychess.errors()


@pytest.mark.sockets
async def test_every_top_level_unit_ends_with_a_newline(server: Server) -> None:
    """ICC clients read a line at a time: ``^Y]`` is followed by ``\\n``, the extra one at
    disconnect too (NOTES.md, "ICC framing")."""
    reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
    writer.write(b"level1=5\nguest\n\n")
    await asyncio.wait_for(reader.readuntil(b"\x19]"), 10)  # the login unit
    assert await asyncio.wait_for(reader.readexactly(1), 10) == b"\n"
    writer.write(b"date\nquit\n")
    data = await asyncio.wait_for(reader.read(-1), 10)
    assert data.count(b"\x19]") == 3  # date, quit, and the extra one at disconnect
    assert data.count(b"\x19]") == data.count(b"\x19]\n")
    assert data.endswith(b"\x19]\n")
    writer.close()


async def test_a_login_reads_what_the_same_user_saved_just_before(
    server: Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Saves are queued; logging in again at once must still find them (a slow write of
    ``+channel`` must not be overtaken by the next login's read of the account)."""
    await asyncio.to_thread(server.store.add_user, "Member", "pw")
    add_channel = server.store.add_channel

    def slow_add_channel(*args: object) -> None:
        time.sleep(0.5)
        add_channel(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(server.store, "add_channel", slow_add_channel)
    member = await connect(server)
    await member.send("Member pw", "+channel 3", "quit")
    await member.expect_text("Thank you for using icswire.")
    again = await connect(server)
    await again.login("Member", "pw")
    assert server.world.online["member"].channels == {3}
