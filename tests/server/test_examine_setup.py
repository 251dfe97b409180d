"""Examining, end to end (users connected in memory): ``mexamine`` (an observer made an examiner),
``bsetup`` (a position set up piece by piece or by FEN, checked with python-chess),
``examine`` of an adjourned game, ``moves N`` of an examined game, and ``unfollow``.
"""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from typing import Any

import chess

from icswire.protocol.datagrams import DG
from icswire.protocol.events import Style12Line, Text
from icswire.server.app import Server
from icswire.server.core.storage.records import GameRecord

from .client import Client
from .support import bits, boards, connect, texts


async def user(
    server: Server, name: str, *setup: str, password: str | None = None, grams: tuple[int, ...] = ()
) -> Client:
    client = await connect(server, grams)
    login = (f"level2settings={bits(*grams)}",) if grams else ()
    await client.login(name, password, *login)
    for line in setup:
        await client.command(line)
    return client


def fen_of(board: Any) -> str:
    """The piece placement a style 12 board shows, as FEN's first field."""
    return chess.Board(None).board_fen() if not board else _placement(board.ranks)


def _placement(ranks: tuple[str, ...]) -> str:
    out = []
    for rank in ranks:
        row, empty = "", 0
        for square in rank:
            if square == "-":
                empty += 1
                continue
            row += (str(empty) if empty else "") + square
            empty = 0
        out.append(row + (str(empty) if empty else ""))
    return "/".join(out)


async def test_mexamine_makes_an_observer_an_examiner(server: Server) -> None:
    teacher = await user(server, "Teacher", "set style 12")
    student = await user(server, "Student", "set style 12")
    await teacher.command("examine")
    assert texts(await student.command("mexamine teacher")) == ["You are not examining a game."]
    assert texts(await teacher.command("mexamine student")) == [
        "Student is not observing the game you are examining."
    ]
    await student.command("observe teacher")
    events = await teacher.command("mexamine stud")
    assert texts(events) == ["Student is now an examiner of game 1."]
    await student.expect(
        lambda e: isinstance(e, Text) and e.text == "Teacher has made you an examiner of game 1."
    )
    board = await student.expect(lambda e: isinstance(e, Style12Line))
    assert board.record.relation == 2  # examining
    assert texts(await teacher.command("mexamine student")) == [
        "Student is already an examiner of game 1."
    ]
    await student.send("e4")
    await teacher.expect(lambda e: isinstance(e, Text) and e.text == "Game 1: Student moves: e4")
    events = await teacher.command("allobservers 1")
    assert texts(events) == ["Examining  1 (scratch): #Teacher(U) #Student(U) (2 users)"]
    await teacher.command("unexamine")
    await student.send("e5")  # still examining alone
    board = await student.expect(
        lambda e: isinstance(e, Style12Line) and e.record.pretty_move == "e5"
    )
    assert board.record.relation == 2


async def test_bsetup_sets_up_a_position_checked_by_python_chess(server: Server) -> None:
    grams = (DG.POSITION_BEGIN, DG.MY_GAME_STARTED)
    coach = await user(server, "Coach", "set style 12", grams=grams)
    watcher = await user(server, "Watcher", "set style 12")
    assert texts(await coach.command("bsetup done")) == ["You are not examining a game."]
    await coach.command("examine")
    await watcher.command("observe coach")
    assert texts(await coach.command("bsetup clear")) == [
        'This game is active - type "bsetup" to allow editing.'
    ]
    assert texts(await coach.command("bsetup")) == ["Entering setup mode."]
    await watcher.expect(
        lambda e: isinstance(e, Text) and e.text == "Game 1: Coach enters setup mode."
    )
    events = await coach.command("bsetup clear")
    assert texts(events) == ["Board cleared."]
    assert fen_of(boards(events)[-1]) == "8/8/8/8/8/8/8/8"
    for drop in ("K@e1", "k@e8", "wr@h1", "P@e4", "bp@d4"):
        events = await coach.command(drop)
    assert fen_of(boards(events)[-1]) == "4k3/8/8/8/3pP3/8/8/4K2R"
    assert texts(await coach.command("e2e4")) == [
        "You are still setting up the position.",
        'Type "bsetup done" when you are finished editing.',
    ]
    await coach.command("N@b1")
    events = await coach.command("x@b1")
    assert fen_of(boards(events)[-1]) == "4k3/8/8/8/3pP3/8/8/4K2R"
    assert texts(await coach.command("bsetup wcastle k")) == ["Castling rights for white set to k."]
    assert texts(await coach.command("bsetup tomove black")) == ["It is now black's turn to move."]
    assert texts(await coach.command("bsetup eppos e")) == [
        "En passant capture is possible on the e-file."
    ]
    assert texts(await coach.command("bsetup wcastle maybe")) == [
        "You have supplied an incorrect parameter to bsetup."
    ]
    await coach.command("K@e7")  # two white kings
    assert texts(await coach.command("bsetup done")) == [
        "You can only have one king of each colour.",
        "The position is not valid - staying in setup mode.",
    ]
    await coach.command("x@e7")
    await coach.command("bsetup done")
    events = await coach.command("bsetup done")  # no longer in setup mode
    assert texts(events) == ['This game is active - type "bsetup" to allow editing.']
    exam = server.core.tables.find(1)
    assert exam is not None
    assert exam.board.fen() == "4k3/8/8/8/3pP3/8/8/4K2R b K e3 0 1"
    await watcher.expect(
        lambda e: (
            isinstance(e, Text)
            and e.text == "Game 1: Coach has validated the position. Entering examine mode."
        )
    )
    begin = [e for e in coach.events if getattr(e, "dg", None) == DG.POSITION_BEGIN][-1]
    assert begin.fen == "4k3/8/8/8/3pP3/8/8/4K2R b K e3 0 1"
    events = await coach.command("dxe3")
    assert boards(events)[-1].pretty_move == "dxe3"
    await coach.command("bsetup")
    events = await coach.command("bsetup fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR")
    assert texts(events) == ["Board set up by FEN."]
    assert fen_of(boards(events)[-1]) == chess.Board().board_fen()
    await coach.command("bsetup done")
    events = await coach.command("moves 1")
    assert any(t.startswith("Move  Coach") for t in texts(events))
    await coach.command("unexamine")
    events = await coach.command("bsetup")  # FICS: a scratch game, in setup mode
    assert texts(events) == ["Starting a game in examine (scratch) mode.", "Entering setup mode."]


def adjourned_record(white: str, black: str, moves: list[str]) -> GameRecord:
    return GameRecord(
        id=None, white=white, black=black, white_rating=0, black_rating=0, wild=0,
        rating_type="Blitz", rated=False, initial=5, increment=0, start_fen=None,
        moves=tuple(moves), clocks=tuple(300_000 for _ in moves), times=tuple(0 for _ in moves),
        status=None, mode=None, color=None, score="*", eco="?", white_clock=300_000,
        black_clock=300_000, started=datetime(2025, 1, 2, 3, 4, 5, tzinfo=UTC), ended=None,
    )  # fmt: skip


ADJOURNED = (2, 0, None, "*", "?", 300_000, 300_000)
"""How :func:`stored_game` ends its game by default: adjourned (status 2)."""


async def stored_game(server: Server, ending: tuple[object, ...] = ADJOURNED) -> int:
    """The registered players Anna and Boris, and their game 1. d4 d5 2. c4 stored with
    ``ending`` (Store.finish_game's arguments after the game's id); its id."""
    store = server.store
    for name in ("Anna", "Boris"):
        await asyncio.to_thread(store.add_user, name, "pw")
    game_id = await asyncio.to_thread(
        store.start_game, adjourned_record("Anna", "Boris", ["d4", "d5", "c4"])
    )
    await asyncio.to_thread(store.finish_game, game_id, *ending)
    return game_id


async def test_examine_an_adjourned_game_leaves_it_adjourned(server: Server) -> None:
    await stored_game(server)
    anna = await user(server, "Anna", "set style 12", password="pw")
    guest = await user(server, "Viewer", "set style 12")
    assert texts(await guest.command("examine anna carl")) == [
        "There is no adjourned game between anna and carl."
    ]
    events = await anna.command("examine boris")
    assert texts(events)[0] == "Starting game 1 in examine mode: Anna vs. Boris."
    assert boards(events)[-1].pretty_move == "c4"
    events = await guest.command("examine anna boris")
    assert texts(events)[0] == "Starting game 2 in examine mode: Anna vs. Boris."
    await anna.send("e6")  # a move in the copy
    await anna.expect(lambda e: isinstance(e, Style12Line) and e.record.pretty_move == "e6")
    (still,) = await asyncio.to_thread(server.store.adjourned, "Anna")
    assert still.moves == ("d4", "d5", "c4")
    events = await guest.command("moves 2")  # an examined game's moves, by number
    assert "  1.  d4      (0:00)     d5      (0:00)" in [t.rstrip() for t in texts(events)]


async def test_unfollow_stops_following(server: Server) -> None:
    fan = await user(server, "Fan")
    star = await user(server, "Star")
    assert texts(await fan.command("unfollow")) == ["You are not following any player."]
    await fan.command("follow star")
    assert texts(await fan.command("unfollow")) == ["You will not follow any player's games."]
    assert texts(await fan.command("follow")) == ["You are not following any player."]
    await star.close()
