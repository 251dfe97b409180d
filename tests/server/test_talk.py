"""Talking and FICS's lists end to end: the punctuation commands, ``xtell``, ``say``,
``cshout``, the talk variables, the censor, noplay and gnotify lists, ``showlist``,
``znotify``; FICS's texts for FICS sessions, the spec's datagrams for ICC ones."""

from __future__ import annotations

import asyncio
import re

from icswire.protocol.block import BlockCode
from icswire.protocol.codes import Sound
from icswire.protocol.datagrams import DG
from icswire.protocol.events import BlockEnd, BlockStart, Prompt, Text
from icswire.server.app import Server
from icswire.server.core.storage.store import Store
from icswire.server.features.lists import columns

from .client import Client
from .support import bits, connect, texts


async def user(server: Server, name: str, *datagrams: int, password: str | None = None) -> Client:
    """A logged-in user; a FICS one (no datagrams) in block mode, so that :func:`said`
    reads the replies to a command apart from what others send meanwhile."""
    client = await connect(server, datagrams)
    setup = (f"level2settings={bits(*datagrams)}",) if datagrams else ()
    await client.login(name, password, *setup)
    await client.expect(lambda e: isinstance(e, Prompt) or getattr(e, "depth", 0) == 1)
    await client.command("set style 13")
    if not datagrams:
        await client.command("iset block 1")
        client.decoder.set_block_mode(True)
    return client


async def member(server: Server, name: str) -> Client:
    """A registered user (only they may shout: lasker's com_shout)."""
    await asyncio.to_thread(server.store.add_user, name, "pw")
    return await user(server, name, password="pw")


COUNTER = iter(range(1, 1_000_000))


async def block(client: Client, line: str) -> tuple[BlockStart, list[str]]:
    """The block of the replies to ``line`` (a block-mode user's command)."""
    number = next(COUNTER)
    await client.send(f"{number} {line}")
    start = await client.expect(lambda e: isinstance(e, BlockStart) and e.id == number)
    first = client._seen
    await client.expect(lambda e: isinstance(e, BlockEnd))
    return start, texts(client.events[first : client._seen])


async def said(client: Client, line: str) -> list[str]:
    """The text replies to ``line`` (for an ICC user, all text until its prompt)."""
    if not client.decoder.block_mode:
        return texts(await client.command(line))
    return (await block(client, line))[1]


async def seen(client: Client, fragment: str) -> None:
    """Wait until ``client`` has been sent a text line with ``fragment`` (at any time)."""

    async def wait() -> None:
        while not any(fragment in t for t in texts(client.events)):
            if not await client._read():
                raise ConnectionError(f"closed; got {client.events[-5:]}")

    await asyncio.wait_for(wait(), 10)


async def play(white: Client, black: Client) -> None:
    await said(white, f"match {black.name} 5 0 white")
    await said(black, "accept")
    await seen(white, "Creating: ")
    await seen(black, "Creating: ")


def heard(client: Client, fragment: str) -> list[str]:
    return [t for t in texts(client.events) if fragment in t]


# -- the punctuation commands, xtell, say -------------------------------------------------------


async def test_dot_comma_and_bang_are_tell_last_told_last_channel_and_shout(
    server: Server,
) -> None:
    alice = await user(server, "Alice")
    bob = await member(server, "Bob")
    assert await said(bob, ".hello") == ["No previous tell."]
    assert await said(bob, ", hello") == ["No previous channel."]
    assert await said(bob, "tell alice hi") == ["(told Alice)"]
    assert await said(bob, ".again") == ["(told Alice)"]
    await alice.expect_text("Bob tells you: again")
    assert await said(bob, "xtell Alice robot reply") == ["(told Alice)"]
    await alice.expect_text("Bob tells you: robot reply")
    await said(alice, "+channel 7")
    assert await said(bob, "+ch 7") == ["[7] added to your channel list."]
    assert await said(bob, "tell 7 in seven") == ["(told 1 players in channel 7)"]
    assert await said(bob, ",still seven") == ["(told 1 players in channel 7)"]
    await alice.expect_text("Bob(7): still seven")
    assert await said(bob, "!hey all") == ["(shouted to 1 players)"]
    await alice.expect_text("Bob shouts: hey all")
    assert await said(bob, "-channel 7") == ["[7] removed from your channel list."]
    assert await said(bob, "-channel 7") == ["[7] is not in your channel list."]
    assert await said(bob, "++ 7") == ["++: Command not found."]


async def test_xtell_leaves_the_last_told_alone(server: Server) -> None:
    alice = await user(server, "Alice")
    robot = await user(server, "Robot")
    assert await said(alice, "tell robot one") == ["(told Robot)"]
    assert await said(alice, "xtell alice two") == ["Alice(U) tells you: two", "(told Alice)"]
    assert await said(alice, ".three") == ["(told Robot)"]
    await robot.expect_text("Alice(U) tells you: three")


async def test_say_tells_the_opponent_during_and_after_the_game(server: Server) -> None:
    white = await user(server, "White")
    black = await user(server, "Black", 31, 62)
    assert await said(white, "say hi") == ["No one to say anything to, try tell."]
    await play(white, black)
    assert await said(white, "say good luck") == ["(told Black)"]
    told = await black.expect_dg(DG.PERSONAL_TELL)
    assert (told.playername, told.text, told.type) == ("White", "good luck", 0)
    await black.send("say thanks")
    echo = await black.expect_dg(DG.PERSONAL_TELL_ECHO)
    assert (echo.receiver, echo.type, echo.text) == ("White", 0, "thanks")
    await white.expect_text("Black(U) says: thanks")
    await said(white, "resign")
    await seen(black, "White resigns} 0-1")
    assert await said(white, "say good game") == ["(told Black)"]
    await black.send("quit")
    assert await said(white, "say gone?") == ['No user named "Black" is logged in.']


async def test_a_tell_says_who_plays_examines_or_is_busy(server: Server) -> None:
    one = await user(server, "One")
    two = await user(server, "Two")
    three = await user(server, "Three")
    await play(one, two)
    assert await said(three, "tell one hi") == ["(told One, who is playing)"]
    assert await said(two, "tell one hi") == ["(told One)"]  # one's own game
    four = await user(server, "Four")
    await said(four, "examine")
    assert await said(three, "tell four hi") == ["(told Four, who is examining a game)"]
    assert await said(three, "set busy is away") == ['Your "busy" string was set to " is away"']
    replies = await said(four, "tell three back")
    assert len(replies) == 1
    assert re.fullmatch(r"\(told Three, who is away \(idle: \d+ secs?\)\)", replies[0])
    assert await said(three, "set busy") == ['Your "busy" string was cleared.']
    assert await said(four, "tell three back") == ["(told Three)"]


# -- the talk variables --------------------------------------------------------------------------


async def test_the_talk_variables_change_who_hears_what(server: Server) -> None:
    await asyncio.to_thread(server.store.add_user, "Member", "pw")
    member = await user(server, "Member", password="pw")
    guest = await user(server, "Chatter")
    listener = await user(server, "Listener")
    for client in (member, guest, listener):
        await said(client, "+channel 40")
    assert await said(listener, "set tell 0") == [
        "You will not hear tells from unregistered users."
    ]
    assert await said(guest, "tell listener hi") == [
        'Player "Listener" isn\'t listening to unregistered tells.'
    ]
    assert await said(member, "tell listener hi") == ["(told Listener)"]
    await listener.expect_text("Member tells you: hi")
    assert await said(listener, "set ctell 0") == [
        "You will not hear channel tells from unregistered users."
    ]
    assert await said(guest, "tell 40 from a guest") == ["(told 1 players in channel 40)"]
    assert await said(member, "tell 40 from a member") == ["(told 2 players in channel 40)"]
    assert await said(listener, "set chanoff 1") == ["You will not hear channel tells."]
    assert await said(member, "tell 40 nobody hears") == ["(told 1 players in channel 40)"]
    assert await said(listener, "set chanoff 0") == ["You will now hear channel tells."]
    assert await said(listener, "set cshout 0") == ["You will not hear cshouts."]
    assert await said(member, "cshout e4 is best") == ["(c-shouted to 1 players)"]
    await guest.expect_text("Member c-shouts: e4 is best")
    assert await said(listener, "set shout 1") == ["You will now hear shouts."]
    assert await said(listener, "set kibitz 0") == ["You will not hear kibitzes."]
    await listener.settle()
    assert not heard(listener, "from a guest") and not heard(listener, "nobody hears")
    assert heard(listener, "Member(40): from a member")
    assert not heard(listener, "c-shouts")


async def test_silence_keeps_shouts_and_channel_tells_from_players(server: Server) -> None:
    white = await user(server, "White")
    black = await user(server, "Black")
    talker = await member(server, "Talker")
    for client in (white, black, talker):
        await said(client, "+channel 3")
    assert await said(white, "set silence 1") == ["You will now play games in silence."]
    assert await said(talker, "shout before") == ["(shouted to 2 players)"]
    await play(white, black)
    assert await said(talker, "shout during") == ["(shouted to 1 players)"]
    assert await said(talker, "tell 3 during") == ["(told 1 players in channel 3)"]
    assert await said(talker, "tell white personal") == ["(told White, who is playing)"]
    await white.expect_text("Talker tells you: personal")
    assert heard(white, "shouts: before")
    assert not heard(white, "during")


# -- censor, noplay, gnotify ---------------------------------------------------------------------


async def test_censor_keeps_out_tells_channel_tells_shouts_and_matches(server: Server) -> None:
    alice = await user(server, "Alice")
    bob = await member(server, "Bob")
    await said(alice, "+channel 9")
    await said(bob, "+channel 9")
    assert await said(alice, "+censor bob") == ["[Bob] added to your censor list."]
    assert await said(alice, "+cen Bob") == ["[Bob] is already on your censor list."]
    assert await said(bob, "tell alice hi") == ["Alice is censoring you."]
    assert await said(bob, "xtell alice hi") == ["Alice is censoring you."]
    assert await said(bob, "tell 9 hi") == ["(told 0 players in channel 9)"]
    assert await said(bob, "shout hi") == ["(shouted to 0 players)"]
    assert await said(bob, "match alice") == ["Alice is censoring you."]
    assert await said(alice, "=censor") == ["-- censor list: 1 names --", "Bob"]
    assert await said(alice, "-censor bob") == ["[Bob] removed from your censor list."]
    assert await said(alice, "sublist censor bob") == ["[Bob] is not in your censor list."]
    assert await said(bob, "tell alice hi") == ["(told Alice)"]


async def test_noplay_refuses_match_requests(server: Server) -> None:
    alice = await user(server, "Alice")
    bob = await user(server, "Bob")
    assert await said(alice, "addlist noplay Bob") == ["[Bob] added to your noplay list."]
    assert await said(bob, "match alice 5 0") == ["You are on Alice's noplay list."]
    assert await said(alice, "-noplay Bob") == ["[Bob] removed from your noplay list."]
    assert "Issuing: Bob (----) Alice (----) unrated blitz 5 0." in await said(
        bob, "match alice 5 0"
    )


async def test_gnotify_tells_when_a_listed_player_starts_a_game(server: Server) -> None:
    white = await user(server, "White")
    black = await user(server, "Black")
    fan = await user(server, "Fan")
    icc_fan = await user(server, "Iccfan", DG.SOUND)
    await said(fan, "+gnotify black")
    await icc_fan.command("+gnotify White")
    await play(white, black)
    line = "Game notification: White (++++) vs. Black (++++) unrated blitz 5 0: Game 1"
    await fan.expect_text(line)
    await icc_fan.expect_text(line)
    assert (await icc_fan.expect_dg(DG.SOUND)).code == Sound.GNOTIFY
    assert await said(fan, "=gnotify") == ["-- gnotify list: 1 names --", "Black"]


# -- showlist, znotify, block codes, DG_LIST -----------------------------------------------------


async def test_showlist_names_the_lists_and_shows_each(server: Server) -> None:
    alice = await user(server, "Alice")
    replies = await said(alice, "showlist")
    assert replies[:2] == ["Lists:", "fm                   is PUBLIC"]
    assert "td                   is PUBLIC" in replies
    assert replies[-5:] == [
        f"{name:<20} is PERSONAL" for name in ("censor", "gnotify", "noplay", "notify", "channel")
    ]
    assert await said(alice, "=td") == ["-- td list: 0 names --"]
    assert await said(alice, "+td Alice") == [
        '"td" is not an appropriate list name or you have insufficient rights.'
    ]
    assert await said(alice, "=admin") == ["-- admin list: 0 names --"]  # lasker: read by all
    assert await said(alice, "+admin Alice") == [
        '"admin" is not an appropriate list name or you have insufficient rights.'
    ]
    assert await said(alice, "=ban") == [
        '"ban" is not an appropriate list name or you have insufficient rights.'
    ]
    assert await said(alice, "=xyz") == ['"xyz" does not match any list name.']
    assert await said(alice, "=w") == ['"w" does not match any list name.']  # ambiguous
    assert await said(alice, "=c") == ["-- computer list: 0 names --"]  # c: computer
    await said(alice, "+channel 10")
    await said(alice, "+channel 4")
    assert await said(alice, "=ch") == ["-- channel list: 2 channels --", "4   10"]
    for name in ("Zed", "amy", "Bo"):  # a list names players
        await asyncio.to_thread(server.store.add_user, name, "pw")
        await said(alice, f"+notify {name}")
    assert await said(alice, "showlist notify") == ["-- notify list: 3 names --", "amy  Bo   Zed"]
    assert await said(alice, "+notify 9lives") == ['"9lives" is not a valid handle.']
    assert await said(alice, "addlist notify") == ["Usage: addlist <list> <name>"]


def test_columns_go_down_then_across_as_fics_multicol() -> None:
    names = ["amy", "Bo", "Zed", "Fourth", "Fifth"]
    assert columns(names, 79) == ["amy     Bo      Zed     Fourth  Fifth"]
    assert columns(names, 20) == ["amy     Fourth", "Bo      Fifth", "Zed"]
    assert columns(names, 5) == names
    assert columns([], 79) == [""]


async def test_znotify_shows_both_directions(server: Server) -> None:
    alice = await user(server, "Alice")
    assert await said(alice, "znotify") == [
        "No one from your notify list is logged on.",
        "No one logged in has you on their notify list.",
    ]
    bob = await user(server, "Bob")
    carol = await user(server, "Carol")
    await said(alice, "+notify Carol")
    await said(alice, "+notify Bob")
    await said(bob, "+notify alice")
    assert await said(alice, "znotify") == [
        "Present company on your notify list:",
        "   Bob Carol",
        "The following players have you on their notify list:",
        "   Bob",
    ]
    assert (await said(carol, "znotify"))[-1] == "   Alice"


async def test_lists_speak_block_mode_and_icc(server: Server) -> None:
    fics = await user(server, "Blocky")
    for line, code in (
        ("+censor Nobody1", BlockCode.BLKCMD_ADDLIST),
        ("-censor Nobody1", BlockCode.BLKCMD_SUBLIST),
        ("=censor", BlockCode.BLKCMD_SHOWLIST),
        ("znotify", BlockCode.BLKCMD_ZNOTIFY),
        (".hi", BlockCode.BLKCMD_TELL),
        ("xtell blocky hi", BlockCode.BLKCMD_XTELL),
        ("say hi", BlockCode.BLKCMD_SAY),
        ("cshout hi", BlockCode.BLKCMD_CSHOUT),
    ):
        start, _ = await block(fics, line)
        assert start.code == code, line
    icc = await user(server, "Iccy", DG.LIST)
    await user(server, "Someone")  # a list names players
    await icc.command("+censor Someone")
    await icc.send("=censor")
    listed = await icc.expect_dg(DG.LIST)
    assert (listed.header, listed.items) == ("censor", ("Someone",))


async def test_lists_are_kept_for_registered_users(database_url: str) -> None:
    for _ in range(2):  # the second server finds what the first saved
        store = Store(database_url)
        server = Server(store, "127.0.0.1", 0)
        await server.start(listen=False)
        try:
            if not await asyncio.to_thread(store.load, "Keeper"):
                for name in ("Keeper", "Troll", "Cheat", "Star", "Idol", "Pal"):
                    await asyncio.to_thread(store.add_user, name, "pw")
                keeper = await user(server, "Keeper", password="pw")
                for line in ("+censor Troll", "+noplay Cheat", "+gnotify Star", "+notify Pal"):
                    await said(keeper, line)
                await said(keeper, "-gnotify star")
                await said(keeper, "+gnotify Idol")
                await keeper.send("quit")
                await server.core.writes.barrier()
                continue
            keeper = await user(server, "Keeper", password="pw")
            for shown, listed in (("censor", "Troll"), ("noplay", "Cheat"), ("gnotify", "Idol")):
                assert await said(keeper, f"={shown}") == [f"-- {shown} list: 1 names --", listed]
            assert await said(keeper, "=notify") == ["-- notify list: 1 names --", "Pal"]
            guest = await user(server, "Troll", password="pw")
            assert await said(guest, "tell keeper hi") == ["Keeper is censoring you."]
        finally:
            await server.stop()
            store.close()


# -- qtell ---------------------------------------------------------------------------------------


async def test_qtell_is_for_td_programs_with_fics_and_icc_forms(server: Server) -> None:
    await asyncio.to_thread(server.store.add_user, "Tomato", "pw")
    await asyncio.to_thread(server.store.set_on_server_list, "td", "Tomato", True)
    tomato = await user(server, "Tomato", password="pw")
    fics = await user(server, "Alice")
    icc = await user(server, "Iccy", DG.PERSONAL_QTELL, DG.CHANNEL_QTELL)
    guest = await user(server, "Bob")
    assert await said(guest, "qtell alice hi") == [
        "Only TD programs are allowed to use this command."
    ]
    assert await said(tomato, "qtell alice Round 1\\nBoard 2") == ["*qtell Alice 0*"]
    assert (await fics.expect_text(":Round 1")).text == ":Round 1"
    assert (await fics.expect(lambda e: isinstance(e, Text))).text == ":Board 2"
    assert await said(tomato, "qtell iccy \\Hyou\\h play\\nnext") == ["*qtell Iccy 0*"]
    personal = await icc.expect_dg(DG.PERSONAL_QTELL)
    assert (personal.playername, personal.text) == ("Tomato", "\\Hyou\\h play\\nnext")
    assert await said(tomato, "qtell nobody1 hi") == ["*qtell nobody1 1*"]
    assert await said(tomato, "qtell 0 hi") == ["*qtell 0 1*"]
    await said(fics, "+channel 64")
    await icc.command("+channel 64")
    assert await said(tomato, "qtell 64 pairings\\b are out") == ["*qtell 64 0*"]
    await fics.expect_text(":pairings are out")
    channel = await icc.expect_dg(DG.CHANNEL_QTELL)
    assert (channel.channel, channel.text) == (64, "pairings\\b are out")
    assert await said(guest, "=td") == ["-- td list: 1 names --", "Tomato"]


async def test_the_new_tell_forms_count_against_the_rates(server: Server) -> None:
    server.limits.set("tell=3/60")
    server.limits.set("shout=1/60")
    talker = await member(server, "Talker")
    other = await user(server, "Other")  # kept: a lost client is closed
    assert await said(talker, "tell other one") == ["(told Other)"]
    assert await said(talker, "xtell other two") == ["(told Other)"]
    assert await said(talker, ".three") == ["(told Other)"]
    refused = await said(talker, ".four")
    assert len(refused) == 1 and refused[0].startswith("You are sending tells too fast")
    assert (await said(talker, "xtell other five"))[0].startswith("You are sending tells")
    assert await said(talker, "cshout one") == ["(c-shouted to 1 players)"]
    assert (await said(talker, "!two"))[0].startswith("You are sending shouts too fast")
    await other.settle()
    assert len(heard(other, "Talker tells you:")) == 3


async def test_icc_guests_may_not_shout_either(server: Server) -> None:
    """ICC, like lasker's com_shout, keeps guests from shouting; it gives them the words
    the server gives guests for other commands they may not use."""
    guest = await user(server, "Visitor", DG.SHOUT)
    for line in ("shout hi", "i waves", "sshout psst", "cshout e4"):
        assert await said(guest, line) == ["Sorry, guest users may not use this command"], line
