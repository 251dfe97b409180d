"""Watching games end to end: games, observe, unobserve, follow, allobservers, refresh,
flip, kibitz and whisper, with observers that rebuild the game from datagrams alone and
from style 12 boards alone."""

from __future__ import annotations

import asyncio
import re

from icswire.protocol.datagrams import DG
from icswire.protocol.events import Prompt, Style12Line, Text
from icswire.protocol.level1 import CommandNumber as CN
from icswire.server.app import Server
from icswire.server.core.model.tables import Terms
from icswire.server.core.render.batch import Batch
from icswire.server.features import watching
from icswire.server.features.play.games import Game

from .client import Client
from .support import bits, boards, connect, rebuilt, texts

#: What the players and datagram observers turn on.
GRAMS = (15, 16, 17, 18, 19, 20, 21, 24, 25, 26, 33, 34, 35, 36, 39, 40, 41, 43, 56, 112)
SCHOLARS = ["e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6", "Qxf7#"]


async def user(server: Server, name: str, grams: tuple[int, ...] = (), *setup: str) -> Client:
    """A logged-in guest; with datagrams, style 13 (no boards), else style 12 (not FICS's
    default, style 1)."""
    client = await connect(server, grams)
    login = (f"level2settings={bits(*grams)}",) if grams else ()
    await client.login(name, None, *login)
    await client.command("set style 13" if grams else "set style 12")
    for line in setup:
        await client.command(line)
    return client


async def players(server: Server) -> tuple[Client, Client]:
    return await user(server, "Whitey", GRAMS), await user(server, "Blacky")


async def start(server: Server, terms: Terms | None = None) -> Game:
    terms = terms or Terms(initial=5)
    batch = Batch(CN.CN_MATCH, None)
    online = server.world.online
    game = await server.games.start(online["whitey"], online["blacky"], terms, batch)
    batch.flush()
    return game


async def play(white: Client, black: Client, moves: list[str]) -> None:
    for ply, san in enumerate(moves):
        mover = white if ply % 2 == 0 else black
        await mover.send(san)
        await mover.settle()  # each move is played before the next is sent


# -- games ----------------------------------------------------------------------------------


async def test_games_lists_each_game_and_the_game_started_list(server: Server) -> None:
    white, black = await players(server)
    await start(server, Terms(initial=3))
    await white.send("e2e4")
    await black.expect(lambda e: isinstance(e, Style12Line) and e.record.pretty_move == "e4")
    lister = await user(server, "Lister")
    shown = texts(await lister.command("games"))
    assert re.fullmatch(
        r"  1 \+\+\+\+ Whitey      \+\+\+\+ Blacky     \[ bu  3   0\]   [23]:\d\d -  [23]:\d\d"
        r" \(39-39\) B:  1",
        shown[0],
    ), shown
    assert shown[-1] == "  1 game displayed."
    # an ICC client (level 2 on) gets ICC's layout: no brackets, no rating for none
    icc = await user(server, "Iccer", (12,))
    events = await icc.command("games *19")
    shown = texts(events)
    row = f"   1      {'Whitey':<20}      {'Blacky':<20} {' bu  3   0':<16} B:  1"
    assert shown == [row, "1 games displayed (1 played, 0 examined)."], shown
    assert [e.text for e in events if isinstance(e, Prompt)] == ["aics% "]  # ICC's prompt
    # turning DG_GAME_STARTED on lists every game (world.send_lists hands DG 12 to watching)
    listed = await user(server, "Tomato", (12,))
    batch = Batch(CN.CN_SET2, None)
    watching.send_lists(server.core, server.world.online["tomato"], DG.GAME_STARTED, batch)
    batch.flush()
    started = await listed.expect_dg(DG.GAME_STARTED, gamenumber=1)
    assert (started.whitename, started.blackname, started.played_game) == ("Whitey", "Blacky", True)
    assert (started.white_initial, started.rating_type, started.rated) == (3, "Blitz", False)


async def test_no_games(server: Server) -> None:
    lister = await user(server, "Lister")
    assert texts(await lister.command("games"))[0] == "There are no games in progress."


# -- observing -----------------------------------------------------------------------------


async def test_observers_rebuild_the_game_from_datagrams_and_from_boards(server: Server) -> None:
    white, black = await players(server)
    game = await start(server)
    by_datagrams = await user(server, "Grams", GRAMS)
    by_boards = await user(server, "Boarder", (), "iset ms 1")
    said = texts(await by_boards.command("observe 1"))
    assert said[:2] == [
        "You are now observing game 1.",
        "Game 1: Whitey (++++) Blacky (++++) unrated blitz 5 0",
    ]
    await by_datagrams.command("observe whitey")
    await play(white, black, SCHOLARS)
    for watcher in (by_datagrams, by_boards):
        await watcher.expect_text("{Game 1 (Whitey vs. Blacky) Blacky checkmated} 1-0")
    await by_datagrams.expect_dg(DG.MY_GAME_RESULT, gamenumber=1)
    await server.games.flush()
    assert game.game_id is not None
    stored = await asyncio.to_thread(server.store.game, game.game_id)
    assert stored is not None and stored.moves == tuple(SCHOLARS)

    (from_datagrams,) = rebuilt(by_datagrams)
    assert [m.san for m in from_datagrams.moves] == SCHOLARS
    assert [m.clock_ms for m in from_datagrams.moves] == [c // 1000 * 1000 for c in stored.clocks]
    assert (from_datagrams.result, from_datagrams.result_code) == ("1-0", "Mat")
    assert from_datagrams.tags["White"] == "Whitey"

    (from_boards,) = rebuilt(by_boards)
    assert from_boards.source == "style12" and not from_boards.gaps
    assert [m.san for m in from_boards.moves] == SCHOLARS
    assert [m.clock_ms for m in from_boards.moves] == list(stored.clocks)
    assert [m.time_ms for m in from_boards.moves] == list(stored.times)
    assert from_boards.result == "1-0"
    assert {b.relation for b in boards(by_boards.events)} == {0}
    assert not by_datagrams.errors() and not by_boards.errors()


async def test_observing_a_game_under_way_sends_its_moves_and_the_table(server: Server) -> None:
    white, black = await players(server)
    await start(server)
    await play(white, black, SCHOLARS[:2])
    await white.expect_dg(DG.SEND_MOVES, algebraic="e5")
    watcher = await user(server, "Grams", GRAMS)
    await watcher.send("observe 1")
    started = await watcher.expect_dg(DG.STARTED_OBSERVING, gamenumber=1)
    assert (started.whitename, started.blackname, started.played_game) == ("Whitey", "Blacky", True)
    assert (await watcher.expect_dg(DG.FLIP, gamenumber=1)).flip is False
    moves = await watcher.expect_dg(DG.MOVE_LIST, gamenumber=1)
    assert moves.initial_position == "*"
    assert [m.algebraic for m in moves.moves] == ["e4", "e5"]
    assert [m.smith for m in moves.moves] == ["e2e4", "e7e5"]
    await watcher.expect_dg(DG.MSEC, gamenumber=1, color="W", running=True)
    await watcher.expect_dg(DG.MY_RELATION_TO_GAME, gamenumber=1, symbol="O")
    await watcher.expect(lambda e: isinstance(e, Prompt))
    table = [(r.playername, r.symbol) for r in watcher.received(DG.PLAYERS_IN_MY_GAME)]
    assert table == [("Whitey", "PW"), ("Blacky", "PB"), ("Grams", "O")]
    joined = await white.expect_dg(DG.PLAYERS_IN_MY_GAME, playername="Grams")
    assert (joined.symbol, joined.kibitz) == ("O", True)
    said = texts(await watcher.command("observe 1"))
    assert said[0] == "You are already observing game 1."
    said = texts(await white.command("observe 1"))
    assert said[0] == "You are playing game 1."
    said = texts(await watcher.command("observe 7"))
    assert said[0] == "There is no such game."
    said = texts(await watcher.command("observe nobody"))
    assert said[0] == 'No user named "nobody" is logged in.'
    said = texts(await watcher.command("observe grams"))
    assert said[0] == "Grams is not playing or examining a game."


async def test_position_begin_for_observers_who_want_it(server: Server) -> None:
    white, black = await players(server)
    await start(server)
    await play(white, black, SCHOLARS[:3])
    grams = (18, 24, 33, 101, 113)
    watcher = await user(server, "Grams", grams)
    await watcher.send("observe 1")
    begin = await watcher.expect_dg(DG.POSITION_BEGIN, gamenumber=1)
    assert begin.nmoves == 3
    sent = [await watcher.expect_dg(DG.SEND_MOVES, gamenumber=1) for _ in range(3)]
    assert [(m.algebraic, m.variation) for m in sent] == [("e4", 0), ("e5", 0), ("Qh5", 0)]
    await black.send("Nc6")
    played = await watcher.expect_dg(DG.SEND_MOVES, gamenumber=1)
    assert (played.algebraic, played.variation) == ("Nc6", 1)


async def test_unobserve(server: Server) -> None:
    white, _ = await players(server)
    await start(server)
    watcher = await user(server, "Grams", GRAMS)
    await watcher.command("observe 1")
    await watcher.send("unobserve")
    await watcher.expect_text("Removing game 1 from observation list.")
    await watcher.expect_dg(DG.STOP_OBSERVING, gamenumber=1)
    await watcher.expect_dg(DG.MY_RELATION_TO_GAME, gamenumber=1, symbol="X")
    await watcher.expect(lambda e: isinstance(e, Prompt))
    await white.expect_dg(DG.PLAYERS_IN_MY_GAME, playername="Grams", symbol="X")
    assert server.games.by_number[1].observers == set()
    assert texts(await watcher.command("unobserve"))[0] == "You are not observing any games."
    assert texts(await watcher.command("unobserve 1"))[0] == "You are not observing game 1."
    await watcher.command("observe 1")
    await watcher.command("unobserve blacky")
    assert len(watcher.received(DG.STOP_OBSERVING)) == 2


async def test_an_observer_who_leaves_is_gone_from_the_table(server: Server) -> None:
    white, _ = await players(server)
    await start(server)
    watcher = await user(server, "Grams", GRAMS)
    await watcher.command("observe 1")
    # app._leave runs the left hooks (watching.session_left) for a connection that goes away
    watching.session_left(server.core, server.world.online["grams"])
    await white.expect_dg(DG.PLAYERS_IN_MY_GAME, playername="Grams", symbol="X")
    assert server.games.by_number[1].observers == set()
    assert server.world.online["grams"].observing == set()


# -- following -------------------------------------------------------------------------------


async def test_follow_observes_the_players_current_and_next_games(server: Server) -> None:
    white, black = await players(server)
    fan = await user(server, "Fan", GRAMS)
    said = texts(await fan.command("follow whitey"))
    assert said[0] == "You will now be following Whitey's games."
    game = await start(server)
    batch = Batch(CN.CN_MATCH, None)
    watching.game_started(server.core, game, batch)  # what Games.start calls (a no-op if done)
    batch.flush()
    await fan.expect_text("Whitey, whom you are following, has started a game with Blacky.")
    await fan.expect_dg(DG.STARTED_OBSERVING, gamenumber=1)
    assert fan.received(DG.STARTED_OBSERVING)[-1].gamenumber == 1
    assert server.world.online["fan"] in game.observers
    await black.command("resign")
    await fan.expect_dg(DG.MY_GAME_RESULT, gamenumber=1)

    late = await user(server, "Late", GRAMS)
    second = await start(server)
    said = texts(await late.command("follow blacky"))
    assert said[:2] == [
        "You will now be following Blacky's games.",
        "You are now observing game 1.",
    ]
    assert server.world.online["late"] in second.observers
    assert texts(await late.command("follow late"))[0] == "You can't follow your own games."
    assert texts(await late.command("follow"))[0] == "You will not follow any player's games."
    assert texts(await late.command("follow"))[0] == "You are not following any player."
    assert not white.errors() and not fan.errors()


# -- looking at games ------------------------------------------------------------------------


async def test_allobservers(server: Server) -> None:
    white, black = await players(server)  # kept: a dropped client would end the game
    await start(server)
    lister = await user(server, "Lister")
    assert texts(await lister.command("allobservers"))[0] == "No games are being observed."
    assert texts(await lister.command("allobservers 1"))[0] == "No one is observing game 1."
    watchers = [await user(server, name) for name in ("Zed", "Amy")]
    for watcher in watchers:
        await watcher.command("observe 1")
    assert texts(await lister.command("allobservers 1")) == [
        "Observing  1 [Whitey vs. Blacky]: Amy(U) Zed(U) (2 users)"
    ]
    assert texts(await lister.command("allobservers"))[0].startswith("Observing  1 [")
    assert white.name and black.name
    # lasker's order and marks: played games first, then examined ones ("vs" without a
    # dot, "(scratch)" for a position nobody played), "#" before examiners and before an
    # observer who is in a game himself
    teacher = await user(server, "Teacher")
    await teacher.command("examine")
    await watchers[0].command("examine")  # Zed examines, and still observes game 1
    await lister.command("observe 2")
    assert texts(await lister.command("allobservers")) == [
        "Observing  1 [Whitey vs. Blacky]: Amy(U) #Zed(U) (2 users)",
        "Examining  2 (scratch): #Teacher(U) Lister(U) (2 users)",
        "Examining  3 (scratch): #Zed(U) (1 user)",
    ]


async def test_refresh_of_a_watched_game_and_of_another(server: Server) -> None:
    white, black = await players(server)
    await start(server)
    await play(white, black, SCHOLARS[:2])
    await white.expect_dg(DG.SEND_MOVES, algebraic="e5")
    await black.settle()
    events = await black.command("refresh")
    (board,) = [e.record for e in events if isinstance(e, Style12Line)]
    assert (board.relation, board.flip, board.pretty_move) == (-1, True, "e5")
    events = await white.command("refresh")
    assert [e.gamenumber for e in events if getattr(e, "dg", None) == DG.REFRESH] == [1]

    peek = await user(server, "Peek", (25, 40, 41))
    await peek.command("set style 12")
    events = await peek.command("refresh 1")
    (isolated,) = [e for e in events if getattr(e, "dg", None) == DG.ISOLATED_BOARD]
    assert (isolated.gamenumber, isolated.whitename) == (1, "Whitey")
    (moves,) = [e for e in events if getattr(e, "dg", None) == DG.MOVE_LIST]
    assert len(moves.moves) == 2
    (board,) = [e.record for e in events if isinstance(e, Style12Line)]
    assert (board.relation, board.game_number, board.flip) == (-3, 1, False)
    assert not peek.received(DG.REFRESH)
    assert texts(await peek.command("refresh"))[0] == (
        "You are neither playing, observing nor examining a game."
    )


async def test_flip_turns_one_receivers_board(server: Server) -> None:
    _, black = await players(server)
    await start(server)
    watcher = await user(server, "Grams", (18, 39, 41), "set style 12")
    await watcher.command("observe 1")
    events = await watcher.command("flip")
    assert watcher.received(DG.FLIP)[-1].flip is True
    assert [getattr(e, "dg", None) for e in events if hasattr(e, "dg")][-2:] == [39, 41]
    (board,) = [e.record for e in events if isinstance(e, Style12Line)]
    assert (board.flip, board.relation) == (True, 0)
    assert server.games.by_number[1].is_flipped(server.world.online["grams"])
    events = await watcher.command("flip")
    (board,) = [e.record for e in events if isinstance(e, Style12Line)]
    assert board.flip is False and watcher.received(DG.FLIP)[-1].flip is False
    await black.settle()
    events = await black.command("flip")  # Black's board turns to White's side
    (board,) = [e.record for e in events if isinstance(e, Style12Line)]
    assert (board.flip, board.relation) == (False, -1)
    lonely = await user(server, "Lonely")
    assert texts(await lonely.command("flip"))[0] == (
        "You are neither playing, observing nor examining a game."
    )


# -- talking at the board --------------------------------------------------------------------


async def test_kibitz_and_whisper(server: Server) -> None:
    white, black = await players(server)  # White has DG_KIBITZ on: it replaces the text
    await start(server)
    grams = await user(server, "Grams", GRAMS)
    plain = await user(server, "Plain")
    deaf = await user(server, "Deaf", (), "set kibitz 0")
    for watcher in (grams, plain, deaf):
        await watcher.command("observe 1")
    await plain.send("kibitz good {move}")
    await plain.expect_text("(kibitzed to 3 players)")
    await black.expect_text("Plain(U)(++++)[1] kibitzes: good {move}")
    record = await white.expect_dg(DG.KIBITZ, gamenumber=1)
    assert (record.playername, record.titles, record.kibitz, record.text) == (
        "Plain",
        "U",
        True,
        "good {move}",
    )
    await grams.expect_dg(DG.KIBITZ, playername="Plain")

    await grams.send("whisper he missed it")
    await grams.expect_text("(whispered to 1 player)")
    await plain.expect_text("Grams(U)(++++)[1] whispers: he missed it")
    await black.send("whisper hello")
    await black.expect_text("(whispered to 2 players)")
    await grams.expect_dg(DG.KIBITZ, playername="Blacky", kibitz=False)

    for client in (white, black, grams, plain, deaf):
        await client.settle()
    assert not [e for e in white.events if isinstance(e, Text) and "kibitzes:" in e.text]
    assert not [e for e in black.events if isinstance(e, Text) and "whispers:" in e.text]
    heard = [
        e for e in deaf.events if isinstance(e, Text) and re.search("kibitzes:|whispers:", e.text)
    ]
    assert not heard
    lonely = await user(server, "Lonely")
    assert texts(await lonely.command("kibitz hi"))[0] == (
        "You are not playing or observing a game."  # lasker's com_kibitz
    )
