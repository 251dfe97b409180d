"""People and lists end to end, both faces: who (flags, orders, formats), finger (ratings,
notes, offline players), ratings, best, rank, uptime, date, history without aborted
games, journal / jsave / jkill and ICC's liblist."""

from __future__ import annotations

import asyncio
import re
from datetime import UTC, datetime

import pytest

from icswire.protocol.datagrams import DG
from icswire.server.app import Server
from icswire.server.core.model.ratings import Glicko
from icswire.server.core.storage.records import GameRecord, RatingRecord
from icswire.server.core.storage.store import Store

from .client import Client
from .support import bits, connect, grams, quiet, registered, until
from .support import text_lines as texts
from .support import texts as shown

LIST_GRAMS = (72, 73)


async def user(
    server: Server, name: str, password: str | None = None, grams: tuple[int, ...] = ()
) -> Client:
    client = await connect(server, grams)
    login = (f"level2settings={bits(*grams)}",) if grams else ()
    await client.login(name, password, *login)
    return client


# -- who -------------------------------------------------------------------------------------


async def test_who_lists_real_ratings_sorted_with_status_symbols(server: Server) -> None:
    await registered(server, "Anna", Blitz=(1800, 10, 5, 5), Standard=(1500, 1, 0, 0))
    await registered(server, "Bert", Standard=(1900, 3, 0, 0))
    anna = await user(server, "Anna", "pw")
    bert = await user(server, "Bert", "pw")
    await bert.command("set open 0")
    guest = await user(server, "Zoe")
    lines = texts(await guest.command("who"))
    assert lines[0] == ""
    assert lines[-2:] == ["", " 3 players displayed (of 3). (*) indicates system administrator."]
    entries = " ".join(lines[1:-2]).split()
    assert entries == ["1800", "Anna", "----:Bert", "++++", "Zoe(U)"]
    # standard order, alphabetical, registered only, open only, an unknown flag
    lines = texts(await guest.command("who s"))
    assert " ".join(lines[1:-2]).split() == ["1900:Bert", "1500", "Anna", "++++", "Zoe(U)"]
    lines = texts(await guest.command("who A"))
    assert " ".join(lines[1:-2]).split() == ["1800", "Anna", "----:Bert", "++++", "Zoe(U)"]
    lines = texts(await guest.command("who Rl"))
    assert " ".join(lines[1:-2]).split() == ["Anna", "Bert"]
    assert lines[-1] == " 2 players displayed (of 3). (*) indicates system administrator."
    lines = texts(await guest.command("who o"))
    assert " ".join(lines[1:-2]).split() == ["1800", "Anna", "++++", "Zoe(U)"]
    assert shown(await guest.command("who U")) == [
        "++++ Zoe(U)  ",  # FICS pads every column but the last of a full row
        " 1 players displayed (of 3). (*) indicates system administrator.",
    ]
    lines = texts(await guest.command("who 1"))  # the top third
    assert " ".join(lines[1:-2]).split() == ["1800", "Anna"]
    assert shown(await guest.command("who q"))[0].startswith("Usage: who ")
    await anna.close()
    await bert.close()


async def test_who_columns_fill_down_then_across(server: Server) -> None:
    names = ["Aa", "Bb", "Cc", "Dd", "Ee"]
    clients = [await user(server, n) for n in names]
    lines = texts(await clients[0].command("set width 40"))
    lines = texts(await clients[0].command("who A"))
    # entries are 10 wide ("++++ Aa(U)"), 12 with the spacing: 3 columns of 40
    assert lines[1:3] == ["++++ Aa(U)  ++++ Cc(U)  ++++ Ee(U)", "++++ Bb(U)  ++++ Dd(U)  "]
    for client in clients:
        await client.close()


async def test_who_verbose_winloss_and_interface_forms(server: Server) -> None:
    await registered(server, "Anna", Blitz=(1800, 10, 5, 5))
    anna = await user(server, "Anna", "pw")
    lines = texts(await anna.command("who v"))
    assert lines[:3] == [
        " +---------------------------------------------------------------+",
        " |      User              Standard    Blitz        On for   Idle |",
        " +---------------------------------------------------------------+",
    ]
    # game number, X (not open), u (registered, not "set rated 1"), name, standard, blitz, on
    # for, idle
    assert lines[3].startswith(
        " |" + "   " + " " + "u" + " " + f"{'Anna':<17}" + " ----        1800"
    )
    assert lines[3].endswith("    0          |") and len(lines[3]) == len(lines[0])
    assert lines[-2] == " |      1 Players Displayed                                      |"
    lines = texts(await anna.command("who n"))
    assert lines[2] == "Anna               ----        0    0    0   1800      10    5    5        "
    assert lines[-1] == "      1 Players Displayed."
    # PyChess's "who IbslwBzSLx": the <wa> form, one line each
    lines = shown(await anna.command("who IbslwBzSLx"))
    assert lines == ["Anna 001800 0P0P0P0P0P0P0P0P", "1 Players Displayed."]
    await anna.close()


async def test_who_for_icc_sessions(server: Server) -> None:
    """ICC's who is FICS's (both come from ICS): ICC clients get the same list."""
    await registered(server, "Anna", Blitz=(1800, 10, 5, 5))
    anna = await user(server, "Anna", "pw")
    icc = await user(server, "Icky", None, (0, 1))
    lines = texts(await icc.command("who"))
    assert lines == texts(await anna.command("who"))
    assert " ".join(lines[1:-2]).split() == ["1800", "Anna", "++++", "Icky(U)"]
    await anna.close()
    await icc.close()


# -- finger ----------------------------------------------------------------------------------


async def test_finger_ratings_notes_and_offline_players(server: Server) -> None:
    await registered(server, "Anna", Blitz=(1800, 10, 5, 5), Standard=(1500, 1, 0, 0))
    anna = await user(server, "Anna", "pw")
    await anna.command("set 1 I like the King's Gambit")
    await anna.command("set 3 third note")
    lines = texts(await anna.command("finger"))
    assert lines[0] == "Finger of Anna:"
    assert re.fullmatch(r"On for: \d+ secs?   Idle: \d+ secs?", lines[2])
    assert lines[4:8] == [
        "         rating     RD     win   loss   draw  total   best",
        "Blitz     1800     80.0     10      5      5     20   1800 ("
        + datetime.now(UTC).strftime("%d-%b-%Y")
        + ")",
        "Standard  1500     80.0      1      0      0      1",
        "",
    ]
    assert lines[8:] == ["Timeseal   : Off", "", " 1: I like the King's Gambit", " 3: third note"]
    assert texts(await anna.command("finger anna r"))[-3:] == [
        "Standard  1500     80.0      1      0      0      1",
        "",
        "Timeseal   : Off",
    ]
    assert texts(await anna.command("finger anna n"))[-2:] == [
        " 1: I like the King's Gambit",
        " 3: third note",
    ]
    await anna.close()
    guest = await user(server, "Zoe")
    await quiet(server)
    # her session left the world: her logout time is queued (the left hooks ran first)
    await until(lambda: "anna" not in server.core.world.online)
    await server.core.writes.barrier()  # and written
    lines = texts(await guest.command("finger Anna"))
    assert lines[0] == "Finger of Anna:"
    assert re.fullmatch(r"Last disconnected: \w{3} \w{3} \d\d, [ \d]\d:\d\d UTC \d{4}", lines[2])
    assert lines[4] == "         rating     RD     win   loss   draw  total   best"
    assert lines[-2:] == [" 1: I like the King's Gambit", " 3: third note"]
    lines = texts(await guest.command("finger"))
    assert lines[0] == "Finger of Zoe(U):"
    assert lines[4:] == ["Zoe is NOT a registered player.", "", "Timeseal   : Off"]
    assert shown(await guest.command("finger Nobodyhere")) == [
        'There is no player matching the name "Nobodyhere".'
    ]
    lines = shown(await guest.command("ratings anna"))
    assert lines[1:] == [
        "Last disconnected: " + lines[1].split(": ", 1)[1],
        "         rating     RD     win   loss   draw  total   best",
        lines[3],
        "Standard  1500     80.0      1      0      0      1",
    ]
    await guest.close()


async def test_finger_in_icc_layout(server: Server) -> None:
    await registered(server, "Anna", Blitz=(1800, 10, 5, 5), Bullet=(1600, 2, 1, 0))
    icc = await user(server, "Icky", None, (0, 1))
    lines = texts(await icc.command("finger anna"))
    assert lines[4:7] == [
        "                  rating [need] win  loss  draw total   best",
        "Blitz               1800         10     5     5    20   1800 ("
        + datetime.now(UTC).strftime("%d-%b-%Y")
        + ")",
        "Bullet              1600 [17]     2     1     0     3",
    ]
    await icc.close()


# -- best, rank, uptime, date ------------------------------------------------------------------


async def test_best_and_rank_list_established_players(server: Server) -> None:
    await registered(server, "Anna", Blitz=(1800, 20, 0, 0), Wild=(1700, 10, 10, 0))
    await registered(server, "Bert", Blitz=(1900, 15, 5, 0))
    await registered(server, "Carl", Blitz=(1800, 25, 0, 0))
    await registered(server, "Dora", Blitz=(2000, 1, 0, 0))  # not established: not ranked
    guest = await user(server, "Zoe")
    assert texts(await guest.command("best")) == [
        "         Blitz                    Wild",
        "",
        "   1. Bert         1900     1. Anna         1700",
        "   2. Anna         1800",
        "      Carl         1800",
    ]
    assert texts(await guest.command("best b")) == [
        "         Blitz",
        "",
        "   1. Bert         1900",
        "   2. Anna         1800",
        "      Carl         1800",
    ]
    assert texts(await guest.command("rank carl b")) == texts(await guest.command("best b"))
    assert texts(await guest.command("ranks dora b")) == [
        "         Blitz",
        "",
        "----  Dora         2000",
    ]
    assert texts(await guest.command("rank 2-2 b")) == [
        "         Blitz",
        "",
        "   2. Anna         1800",
        "      Carl         1800",
    ]
    assert shown(await guest.command("rank zoe")) == ["No ratings to show."]
    assert shown(await guest.command("best q")) == ["Usage: best [b][s][w]"]
    await guest.close()


async def test_uptime_and_date(server: Server) -> None:
    guest = await user(server, "Zoe")
    lines = texts(await guest.command("uptime"))
    assert re.fullmatch(
        r"The server has been up since \w{3} \w{3} \d\d, [ \d]\d:\d\d UTC \d{4}\.", lines[0]
    )
    assert re.fullmatch(r"Up for( \d+ (day|hour|minute|second)s?)*\.", lines[1])
    assert lines[2:] == [
        "",
        "There are currently 1 players, with a high of 1 since last restart.",
        "There are currently 0 games, with a high of 0 since last restart.",
    ]
    lines = texts(await guest.command("date"))
    assert [line[:17] for line in lines] == [
        "Local time     - ",
        "Server time    - ",
        "GMT            - ",
    ]
    assert lines[2].endswith(datetime.now(UTC).strftime(" GMT %Y"))
    await guest.close()


# -- history, journal, liblist -----------------------------------------------------------------


def a_game(white: str, black: str, moves: tuple[str, ...] = ("e4", "e5")) -> GameRecord:
    return GameRecord(
        id=None, white=white, black=black, white_rating=1723, black_rating=0, wild=0,
        rating_type="Blitz", rated=False, initial=3, increment=2, start_fen=None,
        moves=moves, clocks=(180_000,) * len(moves), times=(1000,) * len(moves), status=None,
        mode=None, color=None, score="*", eco="C20", white_clock=175_000,
        black_clock=176_000, started=datetime(2024, 5, 17, 21, 4, 5, tzinfo=UTC), ended=None,
    )  # fmt: skip


async def played(server: Server, white: str, black: str, status: int, mode: int) -> int:
    store = server.store
    game_id = await asyncio.to_thread(store.start_game, a_game(white, black))
    score = {0: "1-0", 1: "1/2-1/2", 3: "aborted"}[status]
    await asyncio.to_thread(store.finish_game, game_id, status, mode, 0, score, "C20", 1, 2)
    return game_id


async def test_history_leaves_aborted_games_out(server: Server) -> None:
    await played(server, "Fred", "Joe", 0, 0)  # Joe resigns
    await played(server, "Joe", "Fred", 3, 0)  # aborted: not history
    await played(server, "Fred", "Joe", 1, 0)  # drawn by agreement
    guest = await user(server, "Zoe")
    lines = shown(await guest.command("history fred"))
    assert lines[:2] == [
        "History for Fred:",
        "                  Opponent      Type         ECO End Date",
    ]
    assert len(lines) == 4
    assert re.fullmatch(
        r" 0: \+ 1723 W ---- Joe           \[ bu  3   2\] C20 Res \w{3} .*", lines[2]
    )
    assert re.fullmatch(
        r" 1: = 1723 W ---- Joe           \[ bu  3   2\] C20 Agr \w{3} .*", lines[3]
    )
    icc = await user(server, "Icky", None, LIST_GRAMS)
    events = await icc.command("history fred")
    lines = shown(events)
    assert lines[1] == "                  Opponent     Type         ECO End Date"
    assert re.fullmatch(
        r" 1: \+ 1723 W ---- Joe          \[ bu  3   2\] C20 Res \w{3} \d\d \d\d \d\d:\d\d",
        lines[2],
    )
    (begin,) = grams(events, DG.GAMELIST_BEGIN)
    assert (begin.command, begin.nhits) == ("history", 2)
    await guest.close()
    await icc.close()


async def test_journal_jsave_jkill_and_liblist(server: Server) -> None:
    await registered(server, "Fred")
    first = await played(server, "Fred", "Joe", 0, 0)
    second = await played(server, "Joe", "Fred", 1, 0)
    fred = await user(server, "Fred", "pw")
    assert shown(await fred.command("journal")) == ["Fred has no journal entries."]
    # history's numbers: FICS's counter of each player's games, from 0
    assert shown(await fred.command("jsave a fred 0")) == [
        "Game Fred 0 saved in slot A in journal."
    ]
    assert shown(await fred.command("jsave C joe 1")) == ["Game Joe 1 saved in slot C in journal."]
    assert shown(await fred.command("jsave b joe 2")) == ["History game 2 not available for Joe."]
    assert shown(await fred.command("jsave b fred 7")) == ["History game 7 not available for Fred."]
    assert shown(await fred.command("jsave b fred A")) == [
        "Journal entry Fred A saved in slot B in journal."
    ]
    assert shown(await fred.command("jsave a fred a")) == [
        "Source and destination entries are the same."
    ]
    assert shown(await fred.command("jsave ab fred 1")) == [
        "Journal entries are referenced by single letters."
    ]
    assert shown(await fred.command("journal")) == [
        "Journal for Fred:",
        "   White         Rating  Black         Rating  Type         ECO End Result",
        "A: Fred          1723    Joe           ----    [ bu  3   2] C20 Res 1-0    ",
        "B: Fred          1723    Joe           ----    [ bu  3   2] C20 Res 1-0    ",
        "C: Joe           1723    Fred          ----    [ bu  3   2] C20 Agr 1/2-1/2",
    ]
    assert shown(await fred.command("jkill b")) == ["Journal entry B deleted."]
    assert shown(await fred.command("jkill b")) == ["You have no journal entry B."]
    # a journal game is examined, and shown by smoves, as NAME %A
    moves = shown(await fred.command("smoves fred %c"))
    assert moves[0].startswith("Joe (1723) vs. Fred (----) --- ")
    guest = await user(server, "Zoe")
    assert shown(await guest.command("jsave a fred 1")) == [
        "Only registered players may keep a journal."
    ]
    assert shown(await guest.command("journal")) == ["Only registered players may keep a journal."]
    assert shown(await guest.command("journal fred"))[2].startswith("A: Fred ")
    # ICC's liblist: its layout and the game list datagrams
    icc = await user(server, "Icky", None, LIST_GRAMS)
    events = await icc.command("liblist fred")
    assert shown(events)[0] == "Library for Fred:"
    assert re.fullmatch(
        r"a: 1-0     1723 Fred         ---- Joe          \[ bu  3   2\] C20 Res .*",
        shown(events)[1],
    )
    (begin,) = grams(events, DG.GAMELIST_BEGIN)
    assert (begin.command, begin.parameters, begin.nhits) == ("liblist", "Fred", 2)
    items = grams(events, DG.GAMELIST_ITEM)
    assert [(i.index, i.id, i.status) for i in items] == [(1, first, 0), (3, second, 1)]
    await fred.close()
    # a private journal is its owner's alone
    await asyncio.to_thread(server.store.save_setting, "Fred", "jprivate", "1")
    assert shown(await guest.command("journal fred")) == ["Sorry, this journal is private."]
    assert shown(await guest.command("smoves fred %a")) == ["Sorry, this journal is private."]
    await guest.close()
    await icc.close()


async def test_sought_for_icc_sessions(server: Server) -> None:
    await registered(server, "Anna", Blitz=(1800, 10, 5, 5))
    anna = await user(server, "Anna", "pw")
    guest = await user(server, "Zoe")
    await anna.command("seek 5 0")
    await guest.command("seek 1 0 m")
    icc = await user(server, "Icky", None, (0, 1))
    assert shown(await icc.command("sought")) == [
        "  1 1800 Anna                5   0 unrated blitz                 0-9999",
        "  2      Zoe                 1   0 unrated bullet                0-9999 m",
        "2 ads displayed.",
    ]
    await anna.close()
    await guest.close()
    await icc.close()


def test_the_store_keeps_best_ratings_logouts_and_journals(database_url: str) -> None:
    with Store(database_url) as store:
        store.add_user("Fred", "pw")

        def rating(value: float, games: int) -> RatingRecord:
            return RatingRecord("Fred", "Blitz", Glicko(value, 60.0), games, games, 0, 0)

        store.save_rating(rating(1900, 19))  # provisional: no best yet
        assert store.best_ratings("fred") == {}
        store.save_rating(rating(1700, 20))
        store.save_rating(rating(1650, 21))  # lower: the best stays
        (best, when) = store.best_ratings("FRED")["Blitz"]
        assert best == 1700 and when.tzinfo is not None
        store.save_rating(rating(1750.4, 22))
        assert store.best_ratings("fred")["Blitz"][0] == 1750
        assert store.ranking("Blitz") == [("Fred", 1750, 22)]
        assert store.last_logout("fred") is None
        moment = datetime(2025, 1, 2, 3, 4, 5, tzinfo=UTC)
        store.save_logout("Fred", moment)
        store.save_logout("Fred", moment.replace(minute=9))
        assert store.last_logout("FRED") == moment.replace(minute=9)
        game_id = store.start_game(a_game("Fred", "Joe"))
        store.journal_save("Fred", "c", game_id)
        store.journal_save("Fred", "a", game_id)
        assert [(slot, g.id) for slot, g in store.journal("fred")] == [
            ("a", game_id),
            ("c", game_id),
        ]
        assert store.journal_kill("Fred", "a") and not store.journal_kill("Fred", "a")
        with pytest.raises(ValueError):
            store.journal_save("Fred", "aa", game_id)
