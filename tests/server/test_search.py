"""ICC's ``search``: the store's query with every filter (on SQLite and, with
ICSWIRE_TEST_DATABASE_URL, PostgreSQL), the typed terms and their refusals, and the
command end to end: DG_GAMELIST_BEGIN / DG_GAMELIST_ITEM, the text, the level 1 numbers."""

from __future__ import annotations

import asyncio
import dataclasses
import doctest
import re
from collections.abc import Iterator
from datetime import UTC, date, datetime

import pytest

from icswire.protocol.codes import ResultStatus
from icswire.protocol.datagrams import DG
from icswire.protocol.events import UnitStart
from icswire.protocol.level1 import CommandNumber as CN
from icswire.server.app import Server
from icswire.server.core.storage import search as store_search
from icswire.server.core.storage.records import GameRecord
from icswire.server.core.storage.store import GameQuery, Store
from icswire.server.features.examine import search
from icswire.server.features.examine.search import parse_search

from .support import bits, connect, grams, texts

LIST_GRAMS = (72, 73)
WIN, DRAW = ResultStatus.WIN, ResultStatus.DRAW


def a_game(white: str, black: str, day: int, **fields: object) -> GameRecord:
    record = GameRecord(
        id=None, white=white, black=black, white_rating=1600, black_rating=1500, wild=0,
        rating_type="Blitz", rated=True, initial=3, increment=0, start_fen=None,
        moves=("e4", "e5"), clocks=(180_000, 180_000), times=(0, 0), status=None, mode=None,
        color=None, score="*", eco="?", white_clock=180_000, black_clock=180_000,
        started=datetime(2026, 1, day, 12, 0, tzinfo=UTC), ended=None,
    )  # fmt: skip
    return dataclasses.replace(record, **fields)  # type: ignore[arg-type]


def store_game(
    store: Store, record: GameRecord, status: int, color: int = 0, eco: str = "?"
) -> int:
    """Store ``record`` ended with ``status`` (``color``: the side that lost a win)."""
    game_id = store.start_game(record)
    score = {WIN: "1-0" if color == 0 else "0-1", DRAW: "1/2-1/2"}.get(status, "*")
    store.finish_game(game_id, status, 0, color, score, eco, 1000, 1000)
    return game_id


@pytest.fixture
def store(database_url: str) -> Iterator[Store]:
    """A store over an empty database (SQLite, or PostgreSQL)."""
    opened = Store(database_url)
    yield opened
    opened.close()


def fill(store: Store) -> dict[int, int]:
    """Games of Fred, Joe and Ann on January 1-8 2026, each day's id by its day."""
    games = {
        1: store_game(store, a_game("Fred", "Joe", 1), WIN, 0, "B90"),  # Fred wins as White
        2: store_game(store, a_game("Joe", "Fred", 2), WIN, 0, "B12"),  # Joe wins as White
        3: store_game(store, a_game("Fred", "Ann", 3, rated=False), DRAW, 1),
        4: store_game(store, a_game("Ann", "Fred", 4, wild=23, rating_type="Crazyhouse"), WIN, 1),
        5: store_game(store, a_game("Joe", "Ann", 5, initial=15, increment=5), DRAW, 0, "C20"),
        6: store_game(store, a_game("Fred", "Joe", 6), ResultStatus.ADJOURNED),
        7: store_game(store, a_game("Fred", "Joe", 7), ResultStatus.ABORTED),
    }
    games[8] = store.start_game(a_game("Fred", "Joe", 8))  # in progress
    return games


def found(store: Store, **terms: object) -> list[int]:
    total, records = store.search_games(GameQuery(**terms))  # type: ignore[arg-type]
    assert total >= len(records)
    return [record.started.day for record in records]


def test_the_store_finds_finished_games_by_every_filter(store: Store) -> None:
    fill(store)
    assert found(store) == [5, 4, 3, 2, 1]  # finished only, newest first
    assert found(store, player="FRED") == [4, 3, 2, 1]
    assert found(store, player="fred", opponent="joe") == [2, 1]
    assert found(store, player="fred", color="white") == [3, 1]
    assert found(store, player="fred", opponent="joe", color="black") == [2]
    assert found(store, result="1-0") == [2, 1]
    assert found(store, result="0-1") == [4]
    assert found(store, result="1/2-1/2") == [5, 3]
    assert found(store, player="fred", result="win") == [4, 1]
    assert found(store, player="fred", result="loss") == [2]
    assert found(store, player="fred", result="win", color="black") == [4]
    assert found(store, player="ann", result="win") == []
    assert found(store, player="fred", result="1-0") == [2, 1]
    assert found(store, rated=False) == [3]
    assert found(store, wild=23) == found(store, rating_type="Crazyhouse") == [4]
    assert found(store, initial=15, increment=5) == [5]
    assert found(store, initial=3, increment=5) == []
    assert found(store, since=date(2026, 1, 2), until=date(2026, 1, 4)) == [4, 3, 2]
    assert found(store, until=date(2026, 1, 1)) == [1]
    assert found(store, eco="B") == [2, 1]
    assert found(store, eco="B9") == found(store, eco="B90") == [1]
    assert found(store, eco="A") == []  # an unknown ECO ("?") matches no code


def test_the_limit_keeps_the_newest_and_the_count_counts_them_all(store: Store) -> None:
    fill(store)
    total, records = store.search_games(GameQuery(player="fred", limit=2))
    assert total == 4
    assert [record.started.day for record in records] == [4, 3]
    assert store.search_games(GameQuery(player="nobody")) == (0, [])


def test_a_query_refuses_what_needs_a_player() -> None:
    with pytest.raises(ValueError, match="need a player"):
        GameQuery(result="win")
    with pytest.raises(ValueError, match="limit"):
        GameQuery(limit=0)


def test_doctests() -> None:
    for module in (store_search, search):
        result = doctest.testmod(module)
        assert result.failed == 0 and result.attempted > 0


# -- the typed terms -------------------------------------------------------------------------


def test_terms_are_read_into_a_query() -> None:
    query = parse_search(
        "Fred Joe color=b result=draw rated=0 type=Bullet time=1 inc=0 until=2026-02-28 "
        "eco=c limit=3",
        "Me",
    )
    assert query == GameQuery(
        player="Fred", opponent="Joe", color="black", result="1/2-1/2", rated=False,
        rating_type="Bullet", initial=1, increment=0, until=date(2026, 2, 28), eco="C", limit=3,
    )  # fmt: skip
    assert parse_search("", "Me") == GameQuery(player="Me")
    assert parse_search("wild=23", "Me") == GameQuery(wild=23)


@pytest.mark.parametrize(
    ("args", "said"),
    [
        ("fred joe ann", 'Usage: search [name [opponent]] [key=value ...] (see "help search")'),
        ("wild=1 fred", 'Usage: search [name [opponent]] [key=value ...] (see "help search")'),
        ("4fred", '"4fred" is not a player\'s name. Sorry, a name must begin with a letter'),
        ("fred colour=w", 'Unknown search key "colour". Keys: color, result, rated, wild,'),
        ("fred result=2-0", 'Bad value for result: "2-0" (it must be 1-0, 0-1, 1/2-1/2'),
        ("fred since=2026-02-30", 'Bad value for since: "2026-02-30" (it must be a date'),
        ("fred eco=F00", 'Bad value for eco: "F00" (it must be an ECO code'),
        ("fred limit=0", 'Bad value for limit: "0" (it must be 1 to 100).'),
        ("fred limit=101", 'Bad value for limit: "101" (it must be 1 to 100).'),
        ("fred type=rapid", 'Bad value for type: "rapid" (it must be a rating type'),
        ("result=win", "color=, result=win and result=loss need a player's name."),
        ("color=w", "color=, result=win and result=loss need a player's name."),
        ("since=2026-02-02 until=2026-02-01", "since= must not be after until=."),
    ],
)
def test_bad_terms_are_refused_with_the_reason(args: str, said: str) -> None:
    refused = parse_search(args, "Me")
    assert isinstance(refused, str) and refused.startswith(said)


# -- the command -----------------------------------------------------------------------------


async def test_search_sends_the_game_list_and_a_table(server: Server) -> None:
    games = await asyncio.to_thread(fill, server.store)
    client = await connect(server, LIST_GRAMS)
    await client.login("Lister", None, f"level2settings={bits(*LIST_GRAMS)}")
    events = await client.command("search fred limit=3")
    (begin,) = grams(events, DG.GAMELIST_BEGIN)
    assert (begin.command, begin.parameters, begin.nhits, begin.first, begin.last) == (
        "search",
        "fred limit=3",
        4,
        1,
        3,
    )
    items = grams(events, DG.GAMELIST_ITEM)
    assert [(i.index, i.id) for i in items] == [(1, games[4]), (2, games[3]), (3, games[2])]
    item = items[0]
    assert (item.date, item.time, item.white_name, item.black_name) == (
        "2026.01.04",
        "12:00:00",
        "Ann",
        "Fred",
    )
    assert (item.rated, item.rating_type, item.wild_number, item.eco) == (True, 6, 23, "?")
    assert (item.status, item.color, item.mode, item.white_initial) == (0, 1, 0, "3")
    shown = texts(events)
    assert shown[0] == "4 games found; the newest 3:"
    assert re.fullmatch(r" 1: 0-1     1600 Ann          1500 Fred         .* \? Res .*", shown[1])
    assert len(shown) == 4
    events = await client.command("search fred joe result=win")
    assert texts(events)[0] == "1 game found:"
    assert [i.id for i in grams(events, DG.GAMELIST_ITEM)] == [games[1]]
    events = await client.command("search fred eco=A")
    assert texts(events) == ["No games found."]
    (begin,) = grams(events, DG.GAMELIST_BEGIN)
    assert (begin.nhits, begin.first, begin.last) == (0, 1, 0)
    assert not client.errors()


async def test_a_fics_session_gets_the_table_and_the_refusals(server: Server) -> None:
    await asyncio.to_thread(fill, server.store)
    client = await connect(server)
    await client.login("Fred")
    events = await client.command("search")  # his own games
    assert texts(events)[0] == "4 games found:"
    assert not grams(events, DG.GAMELIST_BEGIN)
    refused = texts(await client.command("search fred result=2-0"))
    assert refused[0].startswith('Bad value for result: "2-0"')


async def test_level1_numbers_search_and_search0(server: Server) -> None:
    client = await connect(server)
    await client.login("Iccy", None, "level1=1")
    await client.settle()

    async def label(line: str) -> int:
        events = await client.command(line)
        return next(e.command for e in events if isinstance(e, UnitStart) and e.depth == 1)

    assert await label("search") == CN.CN_SEARCH0
    assert await label("search iccy") == CN.CN_SEARCH


async def test_help_search(server: Server) -> None:
    client = await connect(server)
    await client.login("Reader")
    shown = texts(await client.command("help search"))
    assert shown[0] == "search [name [opponent]] [key=value ...]"
    assert any(line.lstrip().startswith("eco=CODE") for line in shown)
