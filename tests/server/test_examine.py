"""Stored and examined games end to end: history, stored, smoves, sposition, examine,
forward, backward, revert, moves typed by examiners, lecture marks, unexamine."""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from typing import Any

import pytest

from icswire.boards.tracker import GameTracker
from icswire.protocol.datagrams import DG
from icswire.protocol.events import Prompt, Style12Line, Text
from icswire.protocol.level1 import CommandNumber as CN
from icswire.server.app import Server
from icswire.server.core.dispatch.commands import looks_like_move
from icswire.server.core.model.tables import Terms
from icswire.server.core.net.session import Session
from icswire.server.core.render.batch import Batch, Lines
from icswire.server.core.storage.records import GameRecord
from icswire.server.core.storage.store import Store
from icswire.server.features.examine import examining, games

from .client import Client
from .support import bits, boards, connect, grams, texts

SCHOLARS = ["e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6", "Qxf7#"]
EXAMINE_GRAMS = (14, 15, 17, 18, 20, 23, 24, 25, 33, 34, 42, 43, 59, 60, 89, 90, 113)
LIST_GRAMS = (13, 25, 33, 34, 35, 36, 40, 72, 73)


@pytest.fixture
async def server(database_url: str, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[Server]:
    store = Store(database_url)
    running = Server(store, "127.0.0.1", 0)
    original = running.execute

    async def execute(session: Session, line: str) -> None:
        """The examiner's moves, as app.execute hands them to examine.move."""
        text = line.strip()
        if games.examining(running.core, session) is not None and looks_like_move(text):
            batch = Batch(CN.SCN_MOVE, session)
            batch.add(session, Lines(()))
            examining.move(running.core, session, text, batch)
            batch.flush()
            return
        await original(session, line)

    monkeypatch.setattr(running, "execute", execute)
    await running.start(listen=False)
    yield running
    await running.stop()
    store.close()


async def user(server: Server, name: str, grams: tuple[int, ...] = (), *setup: str) -> Client:
    client = await connect(server, grams)
    login = (f"level2settings={bits(*grams)}",) if grams else ()
    await client.login(name, None, *login)
    for line in setup:
        await client.command(line)
    return client


def a_record(white: str, black: str, moves: list[str], **result: Any) -> GameRecord:
    return GameRecord(
        id=None,
        white=white,
        black=black,
        white_rating=1723,
        black_rating=0,
        wild=0,
        rating_type="Blitz",
        rated=False,
        initial=3,
        increment=2,
        start_fen=None,
        moves=tuple(moves),
        clocks=tuple(180_000 - 1000 * i for i in range(len(moves))),
        times=tuple(1000 * i for i in range(len(moves))),
        status=None,
        mode=None,
        color=None,
        score="*",
        eco="C20",
        white_clock=175_000,
        black_clock=176_000,
        started=datetime(2024, 5, 17, 21, 4, 5, tzinfo=UTC),
        ended=None,
    )


async def stored_game(
    server: Server, white: str, black: str, moves: list[str], status: int, mode: int, color: int
) -> int:
    store = server.store
    game_id = await asyncio.to_thread(store.start_game, a_record(white, black, moves))
    score = {0: "0-1" if color == 1 else "1-0", 1: "1/2-1/2"}.get(status, "*")
    await asyncio.to_thread(
        store.finish_game, game_id, status, mode, color, score, "C20", 175_000, 176_000
    )
    return game_id


# -- history and stored ----------------------------------------------------------------------


async def test_history_of_a_played_game_and_of_stored_ones(server: Server) -> None:
    first = await stored_game(server, "Fred", "Joe", SCHOLARS, 0, 1, 0)  # Black checkmated
    await stored_game(server, "Joe", "Fred", ["d4", "d5"], 1, 0, 1)  # drawn by agreement
    white = await user(server, "Fred")
    black = await user(server, "Joe", (), "set style 12")
    batch = Batch(CN.CN_MATCH, None)
    online = server.world.online
    await server.games.start(online["fred"], online["joe"], Terms(initial=5), batch)
    batch.flush()
    await white.send("e2e4")
    await black.expect(lambda e: isinstance(e, Style12Line) and e.record.pretty_move == "e4")
    await white.send("resign")
    await white.expect_text("{Game 1 (Fred vs. Joe) Fred resigns} 0-1")
    await server.games.flush()

    lister = await user(server, "Lister", LIST_GRAMS)
    events = await lister.command("history fred")
    shown = texts(events)
    assert shown[:2] == [  # the lister has datagrams on: ICC's layout (test_people: FICS's)
        "History for Fred:",
        "                  Opponent     Type         ECO End Date",
    ]
    assert re.fullmatch(
        r" 1: \+ 1723 W ---- Joe          \[ bu  3   2\] C20 Mat \w{3} .*", shown[2]
    )
    assert re.fullmatch(r" 2: = ---- B 1723 Joe          \[ bu  3   2\] C20 Agr .*", shown[3])
    assert re.fullmatch(r" 3: - ---- W ---- Joe          \[ bu  5   0\] B00 Res .*", shown[4])
    (begin,) = grams(events, DG.GAMELIST_BEGIN)
    assert (begin.command, begin.parameters, begin.nhits, begin.first, begin.last) == (
        "history",
        "fred",
        3,
        1,
        3,
    )
    items = grams(events, DG.GAMELIST_ITEM)
    assert [(i.index, i.status, i.mode, i.color) for i in items] == [
        (1, 0, 1, 0),
        (2, 1, 0, 1),
        (3, 0, 0, 1),
    ]
    item = items[0]
    assert (item.id, item.event, item.date, item.time) == (first, "?", "2024.05.17", "21:04:05")
    assert (item.white_name, item.white_rating, item.black_name, item.black_rating) == (
        "Fred",
        "1723",
        "Joe",
        "-",
    )
    assert (item.rated, item.rating_type, item.wild_number, item.white_initial) == (
        False,
        1,
        0,
        "3",
    )
    assert (item.white_increment, item.eco, item.note) == ("2", "C20", "")
    assert texts(await lister.command("history"))[0] == "Lister has no history games."
    assert not lister.errors()


async def test_stored_lists_adjourned_games(server: Server) -> None:
    await stored_game(server, "Fred", "Joe", SCHOLARS[:4], 2, 0, 0)
    joe = await user(server, "Joe")
    lister = await user(server, "Lister", LIST_GRAMS)
    events = await lister.command("stored fred")
    shown = texts(events)
    assert shown[:2] == [
        "Stored games for Fred:",
        "    C Opponent       On Type          Str  M    ECO Date",
    ]
    assert re.fullmatch(r" 1: W Joe            Y \[ bu  3   2\] 39-39 W3   C20 .*", shown[2])
    (begin,) = grams(events, DG.GAMELIST_BEGIN)
    assert (begin.command, begin.nhits) == ("stored", 1)
    (item,) = grams(events, DG.GAMELIST_ITEM)
    assert (item.status, item.mode, item.color, item.here) == (2, 0, 0, True)
    await joe.close()
    assert texts(await lister.command("stored lister"))[0] == "Lister has no adjourned games."


# -- smoves and sposition ------------------------------------------------------------------


async def test_smoves_text_and_move_list_with_game_number_minus_one(server: Server) -> None:
    game_id = await stored_game(server, "Fred", "Joe", SCHOLARS, 0, 1, 0)
    lister = await user(server, "Lister", LIST_GRAMS)
    events = await lister.command("smoves fred 1")
    shown = texts(events)
    assert shown[0] == "Fred (1723) vs. Joe (----) --- Fri May 17, 21:04 UTC 2024"
    assert shown[1] == "Unrated blitz match, initial time: 3 minutes, increment: 2 seconds."
    assert shown[2:5] == [
        "Move  Fred                    Joe",
        "----  ---------------------   ---------------------",
        "  1.  e4      (0:00)          e5      (0:01)",
    ]
    assert shown[-1] == "      {Joe checkmated} 1-0"
    (isolated,) = grams(events, DG.ISOLATED_BOARD)
    assert (isolated.gamenumber, isolated.whitename, isolated.game_id) == (-1, "Fred", game_id)
    (moves,) = grams(events, DG.MOVE_LIST)
    assert moves.gamenumber == -1 and moves.initial_position == "*"
    assert [m.algebraic for m in moves.moves] == SCHOLARS
    assert moves.moves[1].smith == "e7e5" and moves.moves[1].time == 1
    assert moves.moves[2].clock == 178
    (result,) = grams(events, DG.GAME_RESULT)
    assert (result.gamenumber, result.result_code, result.score) == (-1, "Mat", "1-0")
    same = await lister.command(f"smoves #{game_id}")
    assert grams(same, DG.MOVE_LIST) == [moves]
    assert texts(await lister.command("smoves fred 5"))[0] == "There is no history game 5 for Fred."
    assert texts(await lister.command("smoves #999999"))[0] == "There is no stored game #999999."


async def test_sposition_gives_an_isolated_board(server: Server) -> None:
    await stored_game(server, "Fred", "Joe", SCHOLARS[:3], 0, 0, 0)
    lister = await user(server, "Lister", LIST_GRAMS, "set style 12")
    events = await lister.command("sposition fred -1")
    (isolated,) = grams(events, DG.ISOLATED_BOARD)
    assert isolated.gamenumber == -1
    (board,) = boards(events)
    assert (board.game_number, board.relation, board.pretty_move) == (-1, -3, "Qh5")
    assert board.ranks[3] == "----p--Q"  # the fifth rank, from a5 to h5
    assert (board.white_time, board.black_time) == (175, 176)


# -- examining -----------------------------------------------------------------------------


async def test_examine_a_new_game_with_an_observer(server: Server) -> None:
    examiner = await user(server, "Teacher", EXAMINE_GRAMS, "set style 12")
    pupil = await user(server, "Pupil", EXAMINE_GRAMS, "set style 12")
    lister = await user(server, "Lister", (12, 14))
    events = await examiner.command("examine")
    assert texts(events)[0] == "Starting a game in examine (scratch) mode."
    (started,) = grams(events, DG.MY_GAME_STARTED)
    assert (started.gamenumber, started.played_game, started.ex_string) == (1, False, "Ex: scratch")
    assert grams(events, DG.MY_RELATION_TO_GAME)[0].symbol == "E"
    (board,) = boards(events)
    assert (board.relation, board.game_number) == (2, 1)
    await lister.expect_dg(DG.GAME_STARTED, gamenumber=1, played_game=False)
    assert server.core.state(games.Examinations).games[1].examiners == [
        server.world.online["teacher"]
    ]
    assert server.world.online["teacher"].state == "E"

    events = await pupil.command("observe teacher")
    (observing,) = grams(events, DG.STARTED_OBSERVING)
    assert observing.played_game is False
    assert boards(events)[0].relation == -2
    assert [(p.playername, p.symbol) for p in grams(events, DG.PLAYERS_IN_MY_GAME)] == [
        ("Teacher", "E"),
        ("Pupil", "O"),
    ]
    await examiner.settle()  # the news of the observer (DG_PLAYERS_IN_MY_GAME)
    for move in ("e4", "e7e5", "Nf3"):
        await examiner.command(move)
    await pupil.expect_text("Game 1: Teacher moves: Nf3")
    moved = [m for m in pupil.received(DG.SEND_MOVES)]
    assert [(m.algebraic, m.variation) for m in moved] == [("e4", 3), ("e5", 3), ("Nf3", 3)]
    events = await examiner.command("backward 2")
    (back,) = grams(events, DG.BACKWARD)
    assert back.count == 2
    assert boards(events)[-1].pretty_move == "e4"
    await pupil.expect_dg(DG.BACKWARD, count=2)
    events = await examiner.command("forward")
    (forward,) = grams(events, DG.SEND_MOVES)
    assert (forward.algebraic, forward.variation) == ("e5", 2)
    await examiner.command("Nc3")  # a variation: the main line goes on with Nf3
    events = await examiner.command("forward")
    assert texts(events)[0] == "You're at the end of the game."
    await examiner.command("backward")
    await examiner.command("d4")
    events = await examiner.command("revert")
    assert texts(events)[0] == "Game 1: Teacher reverts to the main line."
    assert grams(events, DG.BACKWARD)[0].count == 1
    events = await examiner.command("forward")
    assert grams(events, DG.SEND_MOVES)[0].algebraic == "Nf3"
    await examiner.command("Nc6")  # at the end of the main line: the main line grows
    events = await examiner.command("revert")
    assert texts(events)[0] == "You are already on the main line."
    bad = await examiner.command("e2e5")
    assert texts(bad)[0] == "Illegal move (e2e5)."
    assert (grams(bad, DG.ILLEGAL_MOVE)[0].move, grams(bad, DG.ILLEGAL_MOVE)[0].reason) == (
        "e2e5",
        2,
    )

    games_list = texts(await lister.command("games"))  # a level 2 client: ICC's layout
    assert games_list[0] == f"   1      {'Teacher':<20}      {'Teacher':<20} Ex: scratch      W:  3"
    assert games_list[-1] == "1 games displayed (0 played, 1 examined)."
    plain = await user(server, "Plain")  # a FICS client: FICS's layout
    games_list = texts(await plain.command("games"))
    assert games_list[0] == "  1 (Exam.    0 Teacher        0 Teacher   ) [ uu  0   0] W:  3"
    events = await examiner.command("unexamine")
    assert texts(events)[0] == "You are no longer examining game 1."
    assert grams(events, DG.MY_GAME_ENDED)[0].gamenumber == 1
    await pupil.expect_dg(DG.MY_GAME_ENDED, gamenumber=1)
    await pupil.expect_dg(DG.MY_RELATION_TO_GAME, gamenumber=1, symbol="X")
    await pupil.expect_text("Game 1 (which you were observing) has no examiners.")
    await lister.expect_dg(DG.EXAMINED_GAME_IS_GONE, gamenumber=1)
    assert server.core.state(games.Examinations).games == {}
    assert server.world.online["pupil"].observing == set()
    assert server.world.online["teacher"].state == "X"
    assert texts(await examiner.command("forward"))[0] == "You are not examining a game."
    assert not examiner.errors() and not pupil.errors()


async def test_revert_goes_back_to_the_main_line_of_a_stored_game(server: Server) -> None:
    await stored_game(server, "Fred", "Joe", SCHOLARS, 0, 1, 0)
    examiner = await user(server, "Teacher", EXAMINE_GRAMS, "set style 12")
    events = await examiner.command("examine fred 1")
    assert texts(events)[0] == "Starting game 1 in examine mode: Fred vs. Joe."
    (started,) = grams(events, DG.MY_GAME_STARTED)
    assert (started.whitename, started.blackname, started.white_rating) == ("Fred", "Joe", 1723)
    assert grams(events, DG.MOVE_LIST)[0].moves == ()  # the game starts at the beginning
    events = await examiner.command("forward 3")
    assert [(m.algebraic, m.variation) for m in grams(events, DG.SEND_MOVES)] == [
        ("e4", 2),
        ("e5", 2),
        ("Qh5", 2),
    ]
    assert texts(events)[0] == "Game 1: Teacher goes forward 3 moves."
    (board,) = boards(events)
    assert (board.pretty_move, board.white_time, board.black_time) == ("Qh5", 178, 179)
    await examiner.command("g6")  # a variation
    await examiner.command("Qxe5+")
    events = await examiner.command("revert")
    assert grams(events, DG.BACKWARD)[0].count == 2
    assert boards(events)[0].pretty_move == "Qh5"
    events = await examiner.command("forward 9")
    assert [m.algebraic for m in grams(events, DG.SEND_MOVES)] == SCHOLARS[3:]
    assert texts(await examiner.command("examine"))[0] == "You are already examining a game."

    # an observer who comes now rebuilds the position from its datagrams
    pupil = await user(server, "Pupil", EXAMINE_GRAMS, "set style 13")
    await pupil.command("observe 1")
    await examiner.settle()
    await examiner.command("backward 1")
    await pupil.expect_dg(DG.BACKWARD, gamenumber=1, count=1)
    tracker = GameTracker()
    for event in pupil.events:
        tracker.feed(event)
    (seen,) = tracker.games
    assert [m.san for m in seen.moves] == SCHOLARS[:-1]


async def test_lecture_marks_reach_examiners_and_observers_in_their_form(server: Server) -> None:
    examiner = await user(server, "Teacher", EXAMINE_GRAMS)
    blitzin = await user(server, "Blitzin", (59, 60, 89, 90))
    dasher = await user(server, "Dasher", (143,))
    plain = await user(server, "Plain")
    assert texts(await examiner.command("circle e4"))[0] == "You are not examining a game."
    await examiner.command("examine")
    for client in (blitzin, dasher, plain):
        await client.command("observe 1")
    await examiner.settle()
    await examiner.command("circle e4")
    circle = await blitzin.expect_dg(DG.CIRCLE)
    assert (circle.gamenumber, circle.examiner, circle.square) == (1, "Teacher", "e4")
    mark = await dasher.expect_dg(DG.BOARDINFO)
    assert (mark.type, mark.coord1, mark.coord2) == (6, "e4", "e4")
    await plain.expect_text("Game 1: Teacher circles e4.")
    await examiner.command("arrow e2 e4")
    arrow = await blitzin.expect_dg(DG.ARROW)
    assert (arrow.origin, arrow.destination) == ("e2", "e4")
    await plain.expect_text("Game 1: Teacher draws an arrow from e2 to e4.")
    await examiner.command("unarrow e2 e4")
    await blitzin.expect_dg(DG.UNARROW, origin="e2", destination="e4")
    await examiner.command("uncircle e4")
    await blitzin.expect_dg(DG.UNCIRCLE, square="e4")

    await examiner.command("boardinfo 6 d4 e5 3")
    mark = await dasher.expect_dg(DG.BOARDINFO, type=6)
    assert (mark.coord1, mark.coord2, mark.color) == ("d4", "e5", 3)
    circles = [await blitzin.expect_dg(DG.CIRCLE) for _ in range(4)]
    assert sorted(c.square for c in circles) == ["d4", "d5", "e4", "e5"]
    await examiner.command("boardinfo 4 a1 h8 8")
    await blitzin.expect_dg(DG.ARROW, origin="a1", destination="h8")
    await examiner.command("boardinfo 1 a1 a1")  # undo: the arrow goes
    await blitzin.expect_dg(DG.UNARROW, origin="a1", destination="h8")
    await dasher.expect_dg(DG.BOARDINFO, type=1)
    await examiner.command("boardinfo 0 a1 a1")  # clear all: the circles go
    gone = [await blitzin.expect_dg(DG.UNCIRCLE) for _ in range(4)]
    assert sorted(c.square for c in gone) == ["d4", "d5", "e4", "e5"]
    bad = await examiner.command("boardinfo 4 a9 h8")
    assert texts(bad)[0] == "Usage: boardinfo <type> <square-a> <square-b> [<color>]"
    for client in (blitzin, dasher, plain):
        await client.settle(0.1)
        assert not client.errors()
    assert not [e for e in plain.events if isinstance(e, Text) and "boardinfo" in e.text]


async def test_an_examiner_who_leaves_ends_the_game(server: Server) -> None:
    examiner = await user(server, "Teacher")
    pupil = await user(server, "Pupil", EXAMINE_GRAMS)
    await examiner.command("examine")
    await pupil.command("observe 1")
    server.core.registry.player_left(server.world.online["teacher"])  # what app._leave calls
    await pupil.expect_dg(DG.MY_GAME_ENDED, gamenumber=1)
    assert server.core.state(games.Examinations).games == {}
    await pupil.send("refresh 1")
    await pupil.expect_text("There is no such game.")
    await pupil.expect(lambda e: isinstance(e, Prompt))
