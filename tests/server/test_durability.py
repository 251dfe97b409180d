"""The database failing under a running server: nothing is lost, nobody gets a traceback.

A SQLite file locked by another connection (``BEGIN EXCLUSIVE``), a full disk (a small
tmpfs mounted for the test, as root), a PostgreSQL server stopped and started again (a
private instance made with ``initdb``, never the shared one): games keep being played,
their moves, results and ratings are all stored once the database answers again, a game
that cannot be stored does not start, users are told once and told when it is saved.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sqlite3
import time
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from icswire.protocol.datagrams import DG
from icswire.protocol.events import Text
from icswire.protocol.level1 import CommandNumber as CN
from icswire.server.app import Server
from icswire.server.core.records import GameRecord
from icswire.server.core.render import Batch
from icswire.server.core.store import SQLITE_FILE, Store, StoreUnavailable, database_url
from icswire.server.core.tables import Terms
from icswire.server.core.writes import KEPT, NOT_ANSWERING, SAVED
from icswire.server.features.play.games import NOT_CREATED, Game

from .client import Client

GRAMS = (15, 16, 24, 33, 87)
BLITZ = Terms(rated=True, initial=5, rating_type="Blitz")
FOOLS_MATE = ["f3", "e5", "g4", "Qh4#"]
#: Knights out and back: a game as long as a test wants (nobody claims the repetition).
SHUFFLE = ["Nf3", "Nf6", "Ng1", "Ng8"]


def bits(*numbers: int) -> str:
    return "".join("1" if n in numbers else "0" for n in range(max(numbers) + 1))


def texts(client: Client, fragment: str) -> list[str]:
    return [e.text for e in client.events if isinstance(e, Text) and fragment in e.text]


class Problems:
    """Every error logged and every exception the event loop saw unhandled."""

    def __init__(self, caplog: pytest.LogCaptureFixture) -> None:
        self.caplog = caplog
        self.unhandled: list[dict[str, Any]] = []
        caplog.set_level(logging.INFO, logger="icswire.server")
        asyncio.get_running_loop().set_exception_handler(
            lambda loop, context: self.unhandled.append(context)
        )

    def errors(self) -> list[str]:
        records = [r for r in self.caplog.records if r.levelno >= logging.ERROR or r.exc_info]
        return [r.getMessage() for r in records] + [str(c) for c in self.unhandled]


async def make_server(store: Store) -> Server:
    server = Server(store, "127.0.0.1", 0)
    server.core.writes.max_delay = 0.2  # retry often: the tests wait for it
    await server.start()
    return server


@contextlib.asynccontextmanager
async def running(store: Store) -> AsyncIterator[Server]:
    server = await make_server(store)
    try:
        yield server
    finally:
        await server.stop()
        store.close()


async def registered(server: Server, name: str, *datagrams: int) -> Client:
    client = await Client.connect(server.port, datagrams)
    setup = [f"level2settings={bits(*datagrams)}"] if datagrams else []
    await client.login(name, "pw", *setup)
    return client


async def guest(server: Server, name: str) -> Client:
    client = await Client.connect(server.port)
    await client.login(name)
    return client


async def start(server: Server, white: str, black: str, terms: Terms = BLITZ) -> Game:
    batch = Batch(CN.CN_MATCH, None)
    online = server.world.online
    game = await server.games.start(online[white.lower()], online[black.lower()], terms, batch)
    batch.flush()
    return game


async def play(white: Client, black: Client, moves: list[str], first_ply: int = 0) -> None:
    """Each move, and its arrival at the opponent (the game goes on)."""
    for ply, san in enumerate(moves, first_ply):
        mover, other = (white, black) if ply % 2 == 0 else (black, white)
        await mover.send(san)
        await other.expect_dg(DG.SEND_MOVES, algebraic=san)


async def until(check: Callable[[], Any], timeout: float = 30.0) -> Any:
    """Poll ``check`` (run in a thread: it reads the store) until it returns a true value."""
    deadline = time.monotonic() + timeout
    while True:
        value = await asyncio.to_thread(check)
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"still {value!r} after {timeout} s")
        await asyncio.sleep(0.1)


# -- a locked SQLite file ---------------------------------------------------------------------


@contextlib.contextmanager
def locked(path: Path) -> Iterator[None]:
    """The database's write lock, held by another connection until the block ends."""
    locker = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    locker.execute("BEGIN EXCLUSIVE")
    try:
        yield
    finally:
        locker.execute("COMMIT")
        locker.close()


@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    return tmp_path / "data"


@pytest.fixture
def sqlite_store(data_dir: Path) -> Store:
    store = Store(database_url(data_dir, None), busy_timeout=0.1)
    for name in ("Whitey", "Blacky", "Fred"):
        store.add_user(name, "pw")
    return store


async def test_a_rated_game_ending_while_the_database_is_locked_is_stored_whole_and_rated_once(
    sqlite_store: Store, data_dir: Path, caplog: pytest.LogCaptureFixture
) -> None:
    problems = Problems(caplog)
    async with running(sqlite_store) as server:
        white = await registered(server, "Whitey", *GRAMS)
        black = await registered(server, "Blacky", *GRAMS)
        game = await start(server, "Whitey", "Blacky")
        await play(white, black, FOOLS_MATE[:1])
        with locked(data_dir / SQLITE_FILE):
            await play(white, black, FOOLS_MATE[1:3], first_ply=1)
            await black.send(FOOLS_MATE[3])
            result = await white.expect_dg(DG.MY_GAME_RESULT)
            assert result.score == "0-1"  # the game ends for the players at once
            await white.expect_text(KEPT)
            await black.expect_text(KEPT)
            await asyncio.sleep(0.5)  # several tries fail meanwhile
        await black.expect_text("Blitz rating adjustment: 0 --> ")
        await white.expect_text("Blitz rating adjustment: 0 --> ")
        await white.expect_text(SAVED)
        await black.expect_text(SAVED)
        stored = await asyncio.to_thread(sqlite_store.game, game.game_id)
        assert stored is not None
        assert stored.moves == tuple(FOOLS_MATE)
        assert (stored.status, stored.mode, stored.score) == (0, 1, "0-1")
        for name, wins in (("Whitey", 0), ("Blacky", 1)):
            rating = await asyncio.to_thread(sqlite_store.rating, name, "Blitz")
            assert (rating.games, rating.wins) == (1, wins)
        await white.settle(0.5)
        assert len(texts(white, KEPT)) == 1 and len(texts(white, SAVED)) == 1
        assert len(texts(white, "rating adjustment")) == 1
    assert problems.errors() == []


async def test_a_login_while_the_database_is_locked_is_told_and_works_after(
    sqlite_store: Store, data_dir: Path, caplog: pytest.LogCaptureFixture
) -> None:
    problems = Problems(caplog)
    async with running(sqlite_store) as server:
        somebody = await guest(server, "Somebody")
        fred = await Client.connect(server.port)
        with locked(data_dir / SQLITE_FILE):
            await fred.send("Fred pw")
            await fred.expect_text(NOT_ANSWERING)
            for command in ("finger Fred", "history Fred", "stored Fred", "examine Fred"):
                reply = await somebody.command(command)
                said = [e.text for e in reply if isinstance(e, Text)]
                assert NOT_ANSWERING in said, command
        await fred.send("Fred pw")
        await fred.expect_text("**** Starting FICS session as Fred")
        reply = await somebody.command("finger Fred")
        assert any("Finger of Fred" in e.text for e in reply if isinstance(e, Text))
    assert problems.errors() == []


# -- a game that cannot be stored does not start ---------------------------------------------


async def test_a_game_whose_row_cannot_be_created_does_not_start(
    database_url: str, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    problems = Problems(caplog)
    store = Store(database_url)
    async with running(store) as server:
        one, two = await guest(server, "One"), await guest(server, "Two")
        real_start = store.start_game

        def refuse(record: GameRecord, resumes: int | None = None) -> int:
            raise StoreUnavailable("disk full")

        monkeypatch.setattr(store, "start_game", refuse)
        await one.command("match Two 5 0")
        await two.command("accept")
        await one.expect_text(NOT_CREATED)
        await two.expect_text(NOT_CREATED)
        await one.command("seek 5 0")
        await two.command("seek 5 0")
        await one.expect_text(NOT_CREATED)
        await two.expect_text(NOT_CREATED)
        assert server.games.by_number == {} and server.games.by_player == {}
        assert server.core.tables.free_number() == 1
        reply = await two.command("games")
        assert not any("One" in e.text for e in reply if isinstance(e, Text))

        monkeypatch.setattr(store, "start_game", real_start)
        await one.command("match Two 5 0")
        await two.command("accept")
        started = await one.expect_text("Creating unrated blitz match")
        assert started
        (game,) = server.games.by_number.values()
        assert game.game_id is not None and game.number == 1
    assert problems.errors() == []
