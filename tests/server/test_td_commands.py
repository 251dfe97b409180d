"""The TD commands robots use (lasker-2.2.3's ``rmatch``, ``getpi``, ``getgi``,
``tournset``; ICC's ``qmatch``, ``qset``): refused to anybody not on the td list, the
exact lines lasker prints, a game a TD starts carrying its event label in ``games`` and
the PGN ``Event`` tag, and the ``tourney`` variable's rules."""

from __future__ import annotations

import asyncio

from icswire.protocol.events import UnitStart
from icswire.protocol.level1 import CommandNumber as CN
from icswire.server.app import Server
from icswire.server.core.model.names import name_key
from icswire.server.core.model.tables import Terms

from .client import Client
from .support import bits, connect, has_text, is_text, start_game, texts

ONLY_TD = "Only TD programs are allowed to use this command."


async def login(server: Server, name: str, registered: bool = True, *grams: int) -> Client:
    if registered and await asyncio.to_thread(server.store.load, name) is None:
        await asyncio.to_thread(server.store.add_user, name, "pw")
    client = await connect(server, grams)
    setup = (f"level2settings={bits(*grams)}",) if grams else ()
    await client.login(name, "pw" if registered else None, *setup)
    return client


async def td(server: Server, name: str = "Mamer") -> Client:
    await asyncio.to_thread(server.store.add_user, name, "pw")
    await asyncio.to_thread(server.store.set_on_server_list, "td", name, True)
    return await login(server, name)


async def test_everybody_but_a_td_is_refused(server: Server) -> None:
    alice = await login(server, "Alice")
    for line in ("rmatch Alice Bob 5 0", "getpi Alice", "getgi Alice", "tournset Alice 1"):
        assert texts(await alice.command(line)) == [ONLY_TD], line
    assert texts(await alice.command("qmatch Alice Bob")) == [
        "Only TDs and administrators may use qmatch."
    ]
    assert texts(await alice.command("qset Alice open 0")) == [
        "Only TDs and administrators may use qset."
    ]


async def test_getpi_and_getgi_print_laskers_lines(server: Server) -> None:
    mamer = await td(server)
    alice, bob = await login(server, "Alice"), await login(server, "Bob")
    guest = await login(server, "Visitor", False)
    server.world.online["alice"].ratings["Blitz"] = (1712, 2)
    server.world.online["alice"].ratings["Standard"] = (1850, 2)
    assert texts(await mamer.command("getpi Alice")) == ["*getpi Alice 0 1712 1850 0*"]
    assert texts(await mamer.command("getpi alice")) == ["*getpi Alice 0 1712 1850 0*"]
    for silent in ("getpi Nobody", "getpi Ali", f"getpi {guest.name}", "getgi Nobody"):
        assert texts(await mamer.command(silent)) == [], silent
    assert texts(await mamer.command("getgi Alice")) == ["Alice is not playing a game."]
    game = await start_game(server, "Alice", "Bob", Terms(rated=True, initial=5, increment=2))
    assert texts(await mamer.command("getgi Bob")) == [
        f"*getgi Bob Alice Bob {game.number} 5 2 1 0*"
    ]
    assert texts(await mamer.command("getpi")) == ["Usage: getpi <name>"]
    for client in (mamer, alice, bob, guest):
        await client.close()


async def test_rmatch_both_ways_starts_a_labelled_game(server: Server) -> None:
    mamer = await td(server)
    alice, bob = await login(server, "Alice"), await login(server, "Bob")
    watcher = await login(server, "Watcher", False)
    said = await mamer.command("rmatch Alice Bob 5 0 rated white | Spring Swiss, round 1")
    assert texts(said) == []  # lasker's rmatch tells the TD nothing
    await alice.expect(has_text("Issuing: Alice"))
    await bob.expect(has_text("Challenge: Alice"))
    await mamer.command("rmatch Bob Alice 5 0 rated black")  # the answer needs no label
    await alice.expect(has_text("Creating: Alice"))
    await bob.expect(has_text("Creating: Alice"))
    game = server.core.play.by_player[server.world.online["alice"]]
    assert game.terms.event == "Spring Swiss, round 1"
    assert game.terms.rated and game.terms.initial == 5
    await watcher.command("set width 240")
    row = [line for line in texts(await watcher.command("games")) if "Alice" in line]
    assert len(row) == 1 and row[0].endswith(" (Spring Swiss, round 1)"), row
    assert ("Event", "Spring Swiss, round 1") in game.pgn_tags()
    # a player offline or unregistered: nothing at all, as lasker
    assert texts(await mamer.command("rmatch Alice Nobody 5 0")) == []
    assert texts(await mamer.command(f"rmatch Alice {watcher.name} 5 0")) == []
    assert texts(await mamer.command("rmatch Alice")) == [
        "Usage: rmatch <player1> <player2> <match terms> [| event]"
    ]
    for client in (mamer, alice, bob, watcher):
        await client.close()


async def test_qmatch_tells_the_td(server: Server) -> None:
    mamer = await td(server)
    alice, bob = await login(server, "Alice"), await login(server, "Bob")
    assert texts(await mamer.command("qmatch Alice Nobody 5 0")) == ["Nobody is not logged in."]
    assert texts(await mamer.command("qmatch Alice Bob 3 0")) == [
        "Match request made for Alice to Bob."
    ]
    await bob.expect(has_text("Challenge: Alice"))
    await bob.send("accept")
    await bob.expect(has_text("Creating: "))
    game = server.core.play.by_player[server.world.online["bob"]]
    assert game.terms.event == "" and ("Event", "ICS unrated blitz match") in game.pgn_tags()
    assert texts(await mamer.command("qmatch Alice Bob 3 0")) == [
        "No match request was made: Alice was told why."
    ]
    await alice.expect(is_text("You are playing a game."))
    for client in (mamer, alice, bob):
        await client.close()


async def test_tournset_and_the_tourney_variable(server: Server) -> None:
    mamer = await td(server)
    alice, bob = await login(server, "Alice"), await login(server, "Bob")
    assert texts(await mamer.command("tournset Alice 1")) == []
    await alice.expect(is_text("Mamer has set your tourney variable to ON."))
    assert server.world.online["alice"].variables["tourney"] == 1
    assert texts(await mamer.command("tournset Alice 1")) == []  # no change: nothing said
    assert texts(await bob.command("match Alice 5 0")) == [
        "Alice is in a tournament, and cannot accept other challenges."
    ]
    assert texts(await alice.command("match Bob 5 0")) == [
        "You may only match players with their tournament variable set."
    ]
    assert texts(await bob.command("set tourney 1")) == ["Your tournament variable is now set."]
    assert "Bob" not in " ".join(texts(await mamer.command("who o")))  # lasker's who_ok
    assert any("Issuing: Bob" in t for t in texts(await bob.command("match Alice 5 0")))
    assert texts(await mamer.command("tournset Alice 0")) == []
    await alice.expect(is_text("Mamer has set your tourney variable to OFF."))
    assert texts(await mamer.command("tournset Alice x")) == ["Usage: tournset <name> 0|1"]
    assert any("tourney=0" in line for line in texts(await alice.command("vars")))
    for client in (mamer, alice, bob):
        await client.close()


async def test_qset_sets_anothers_variable(server: Server) -> None:
    mamer = await td(server)
    alice = await login(server, "Alice")
    assert texts(await mamer.command("qset Alice open 0")) == ["Alice's open set to 0."]
    await alice.expect(is_text("Mamer has set your open variable to 0."))
    assert server.world.online[name_key("Alice")].variables["open"] == 0
    assert texts(await mamer.command("qset Alice width 5")) == [
        "Bad value given for variable width."
    ]
    assert texts(await mamer.command("qset Nobody open 1")) == [
        'No user named "Nobody" is logged in.'
    ]
    assert texts(await mamer.command("qset Alice")) == ["Usage: qset <name> <variable> <value>"]
    for client in (mamer, alice):
        await client.close()


async def test_a_tourney_games_end_tells_mamer_its_terms(server: Server) -> None:
    """lasker adds `` [MIN INC RATED PRIVATE TYPE]`` to the end line when both players
    have ``tourney`` set ("mamer wants more info")."""
    mamer = await td(server)
    alice, bob = await login(server, "Alice"), await login(server, "Bob")
    for name in ("Alice", "Bob"):
        await mamer.command(f"tournset {name} 1")
    await mamer.command("rmatch Alice Bob 5 2 rated white")
    await mamer.command("rmatch Bob Alice 5 2 rated black")
    await bob.expect(has_text("Creating: Alice"))
    await alice.send("resign")
    await bob.expect(is_text("{Game 1 (Alice vs. Bob) Alice resigns} 0-1 [5 2 1 0 1]"))
    # without tourney on both sides, the line is FICS's plain one
    await mamer.command("tournset Bob 0")
    await alice.command("set tourney 0")
    await alice.command("match Bob 3 0 white")
    await bob.command("accept")
    await alice.expect(has_text("Creating unrated blitz match."))
    await alice.send("resign")
    await bob.expect(is_text("{Game 1 (Alice vs. Bob) Alice resigns} 0-1"))
    for client in (mamer, alice, bob):
        await client.close()


async def test_the_event_label_is_in_pgn_and_kept_with_the_stored_game(server: Server) -> None:
    mamer = await td(server)
    alice, bob = await login(server, "Alice"), await login(server, "Bob")
    await mamer.command("rmatch Alice Bob 5 0 white | Club Cup, round 3")
    await mamer.command("rmatch Bob Alice 5 0 black | Club Cup, round 3")
    await bob.expect(has_text("Creating: Alice"))
    assert '[Event "Club Cup, round 3"]' in texts(await bob.command("pgn"))
    await alice.send("resign")
    await bob.expect(has_text("Alice resigns} 0-1"))
    await server.games.flush()
    [record] = await asyncio.to_thread(server.store.history, "Alice")
    assert record.event == "Club Cup, round 3"
    assert '[Event "Club Cup, round 3"]' in texts(await bob.command("spgn Alice 0"))
    for client in (mamer, alice, bob):
        await client.close()


async def test_a_label_goes_with_its_challenge(server: Server) -> None:
    """A labelled challenge declined leaves no label for the players' next game."""
    mamer = await td(server)
    alice, bob = await login(server, "Alice"), await login(server, "Bob")
    await mamer.command("rmatch Alice Bob 5 0 | Autumn Open")
    await bob.expect(has_text("Challenge: Alice"))
    await bob.command("decline")
    await alice.expect(has_text("Bob declines the match offer."))
    await alice.send("match Bob 5 0")
    await bob.expect(has_text("Challenge: Alice (----) Bob (----) unrated blitz 5 0."))
    await bob.send("accept")
    await alice.expect(has_text("Creating: "))  # colours as the server chooses
    game = server.core.play.by_player[server.world.online["bob"]]
    assert game.terms.event == ""
    for client in (mamer, alice, bob):
        await client.close()


async def test_the_match_qmatch_makes_is_labelled_with_the_td(server: Server) -> None:
    """The player qmatch makes challenge typed nothing: his level 1 unit names the TD
    (``%`` with level1 & 8), never ``*``, which would end the output of his own command
    (icc-formats.txt section 3)."""
    mamer = await td(server)
    await asyncio.to_thread(server.store.add_user, "Alice", "pw")
    await login(server, "Bob")
    alice = await connect(server)
    await alice.login("Alice", "pw", "level1=1")
    await mamer.command("qmatch Alice Bob 3 0")
    start = await alice.expect(lambda e: isinstance(e, UnitStart) and e.command == CN.CN_MATCH)
    assert start.issuer == "Mamer"
    marked = await connect(server)
    await alice.close()
    await marked.login("Alice", "pw", "level1=9")
    await mamer.command("qmatch Alice Bob 5 0")
    start = await marked.expect(lambda e: isinstance(e, UnitStart) and e.command == CN.CN_MATCH)
    assert start.issuer == "%"
    for client in (mamer, marked):
        await client.close()
