"""ICC's ``copygame`` (a game being played, examined or observed, into one's examined
game) and ``loadgame`` (a stored game: a search hit, a history game, an id), users
connected in memory."""

from __future__ import annotations

from icswire.protocol.datagrams import DG
from icswire.protocol.events import Text
from icswire.server.app import Server
from icswire.server.core.model.tables import Terms

from .support import boards, grams, start_game, texts
from .test_examine_setup import stored_game, user

ICC = (DG.MOVE_LIST, DG.SEND_MOVES, DG.MOVE_ALGEBRAIC)
RESIGNED = (0, 0, 1, "0-1", "D06", 280_000, 290_000)


async def test_copygame_copies_a_game_being_played(server: Server) -> None:
    white = await user(server, "Whitey", "set style 12")
    black = await user(server, "Blacky", "set style 12")
    fan = await user(server, "Fan", "set style 12", grams=ICC)
    assert texts(await fan.command("copygame 9")) == ["There is no game 9."]
    await start_game(server, "Whitey", "Blacky", Terms(initial=5))
    await white.command("e4")
    await black.expect(lambda e: getattr(getattr(e, "record", None), "pretty_move", "") == "e4")
    await black.command("c5")
    await white.expect(lambda e: getattr(getattr(e, "record", None), "pretty_move", "") == "c5")
    events = await fan.command("copygame whitey")
    assert texts(events) == ["You copy game 1. Starting game 2 in examine mode."]
    (moves,) = grams(events, DG.MOVE_LIST)
    assert [m[0] for m in moves.moves] == ["e4", "c5"]
    board = boards(events)[-1]
    assert (board.white_name, board.black_name, board.pretty_move) == ("Whitey", "Blacky", "c5")
    assert board.relation == 2  # examining
    events = await fan.command("backward")
    assert boards(events)[-1].pretty_move == "e4"
    assert texts(await fan.command("copygame 2")) == ["That is the game you are examining."]
    watcher = await user(server, "Watcher", "set style 12")
    await watcher.command("observe fan")
    events = await fan.command("copygame 1")  # into the game examined: the watcher sees it
    assert texts(events) == ["You copy game 1 into game 2."]
    await watcher.expect(lambda e: isinstance(e, Text) and e.text == "Game 2: Fan copies game 1.")
    assert texts(await white.command("copygame 1")) == ["You are playing a game."]


async def test_loadgame_loads_a_search_hit_or_a_history_game(server: Server) -> None:
    await stored_game(server, RESIGNED)
    fan = await user(server, "Fan", "set style 12", grams=ICC)
    assert texts(await fan.command("loadgame")) == [
        "Usage: loadgame <search hit> | <name> [game number|%slot] | #id"
    ]
    assert texts(await fan.command("loadgame 1")) == ["There is no game 1 in your last search."]
    await fan.command("search anna")
    events = await fan.command("loadgame 1")
    assert texts(events) == ["You load Anna vs. Boris. Starting game 1 in examine mode."]
    assert boards(events)[-1].pretty_move == "c4"
    await fan.command("e4")  # not legal: the copy's moves are 1. d4 d5 2. c4
    events = await fan.command("e6")
    assert boards(events)[-1].pretty_move == "e6"
    events = await fan.command("loadgame anna -1")
    assert texts(events) == ["You load Anna vs. Boris into game 1."]
    assert boards(events)[-1].pretty_move == "c4"
    assert texts(await fan.command("loadgame #99")) == ["There is no stored game #99."]
