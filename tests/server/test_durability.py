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
import errno
import logging
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import threading
import time
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from icswire.protocol.datagrams import DG
from icswire.protocol.events import Text
from icswire.protocol.level1 import CommandNumber as CN
from icswire.server.app import Server
from icswire.server.core.model.tables import Terms
from icswire.server.core.render.batch import Batch
from icswire.server.core.storage.records import GameRecord
from icswire.server.core.storage.store import SQLITE_FILE, Store, StoreUnavailable, database_url
from icswire.server.core.storage.writes import KEPT, NOT_ANSWERING, SAVED
from icswire.server.features.play.games import NOT_CREATED, Game

from .client import Client
from .support import bits, locked

pytestmark = pytest.mark.sockets  # end to end, as a deployed server runs into a failing database

GRAMS = (15, 16, 24, 33, 87)
BLITZ = Terms(rated=True, initial=5, rating_type="Blitz")
FOOLS_MATE = ["f3", "e5", "g4", "Qh4#"]
#: Knights out and back: a game as long as a test wants (nobody claims the repetition).
SHUFFLE = ["Nf3", "Nf6", "Ng1", "Ng8"]


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
    await client.command("iset nowrap 1")  # long notices whole, as interfaces ask
    return client


async def guest(server: Server, name: str, *datagrams: int) -> Client:
    client = await Client.connect(server.port, datagrams)
    setup = [f"level2settings={bits(*datagrams)}"] if datagrams else []
    await client.login(name, None, *setup)
    await client.command("iset nowrap 1")  # long notices whole, as interfaces ask
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


async def told(client: Client, text: str) -> None:
    """Wait until ``client`` was told ``text`` (at any point since it connected)."""
    async with asyncio.timeout(30):
        while not texts(client, text):
            await client.settle(0.1)


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


async def test_a_late_rating_change_reaches_the_player_logged_in_again(
    sqlite_store: Store, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    problems = Problems(caplog)
    may_finish = threading.Event()
    real_finish = sqlite_store.finish_game

    def late_finish(*args: Any, **kwargs: Any) -> Any:
        may_finish.wait(30)  # the database answers only once White is back
        return real_finish(*args, **kwargs)

    monkeypatch.setattr(sqlite_store, "finish_game", late_finish)
    async with running(sqlite_store) as server:
        white = await registered(server, "Whitey", *GRAMS)
        black = await registered(server, "Blacky", *GRAMS)
        await start(server, "Whitey", "Blacky")
        await play(white, black, FOOLS_MATE[:3])
        await black.send(FOOLS_MATE[3])
        await white.expect_dg(DG.MY_GAME_RESULT)
        await white.close()
        async with asyncio.timeout(10):
            while "whitey" in server.world.online:
                await asyncio.sleep(0.01)
        again = await registered(server, "Whitey", *GRAMS)
        may_finish.set()
        await again.expect_text("Blitz rating adjustment: 0 --> ")
        new = await again.expect_dg(DG.NEW_MY_RATING)
        assert 0 < new.ratings[1] < 1500
        assert server.world.online["whitey"].ratings["Blitz"][0] == new.ratings[1]
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


# -- a full disk --------------------------------------------------------------------------------


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A 4 MB tmpfs mounted for the test (root only; skipped where mounting is refused)."""
    if os.geteuid() != 0 or shutil.which("mount") is None:
        pytest.skip("a full disk needs a tmpfs, and mounting one needs root")
    disk = tmp_path / "disk"
    disk.mkdir()
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=4m,mode=0700", "tmpfs", str(disk)],
        capture_output=True,
        text=True,
    )
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {mounted.stderr.strip()}")
    try:
        yield disk
    finally:
        subprocess.run(["umount", "-l", str(disk)], check=True)


def fill(disk: Path) -> Path:
    """Fill ``disk`` to the last byte with a file; remove the file to free the space."""
    filler = disk / "filler"
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT, 0o600)
    try:
        for size in (1 << 16, 1 << 12, 1):
            while True:
                try:
                    os.write(fd, b"\0" * size)
                except OSError as exc:
                    assert exc.errno == errno.ENOSPC, exc
                    break
    finally:
        os.close(fd)
    return filler


async def test_a_full_disk_refuses_new_games_and_keeps_the_moves_of_those_played(
    small_disk: Path, caplog: pytest.LogCaptureFixture
) -> None:
    problems = Problems(caplog)
    store = Store(database_url(small_disk, None), busy_timeout=0.1)
    async with running(store) as server:
        white, black = [await guest(server, name, *GRAMS) for name in ("Wa", "Ba")]
        one, two = [await guest(server, name) for name in ("One", "Two")]
        game = await start(server, "Wa", "Ba", Terms(initial=5))
        await play(white, black, SHUFFLE)
        await server.games.flush()

        filler = fill(small_disk)
        await play(white, black, SHUFFLE * 2, first_ply=4)  # the game goes on
        await told(white, KEPT)
        await told(black, KEPT)
        await one.command("match Two 5 0")
        await two.command("accept")
        await one.expect_text(NOT_CREATED)
        await two.expect_text(NOT_CREATED)
        await one.command("seek 5 0")
        await two.command("seek 5 0")
        await one.expect_text(NOT_CREATED)
        await two.expect_text(NOT_CREATED)
        assert list(server.games.by_number.values()) == [game]
        stored = await asyncio.to_thread(store.game, game.game_id)
        assert stored is not None and stored.moves == tuple(SHUFFLE)  # not yet

        filler.unlink()
        await told(white, SAVED)
        await told(black, SAVED)
        stored = await asyncio.to_thread(store.game, game.game_id)
        assert stored is not None and stored.moves == tuple(SHUFFLE * 3)
        await white.command("resign")
        await one.command("match Two 5 0")
        await two.command("accept")
        await one.expect_text("Creating unrated blitz match")
        await server.games.flush()
        stored = await asyncio.to_thread(store.game, game.game_id)
        assert stored is not None and (stored.status, stored.score) == (0, "0-1")
        assert len(texts(white, KEPT)) == 1 and len(texts(white, SAVED)) == 1
    assert problems.errors() == []


# -- shutting down --------------------------------------------------------------------------


async def test_the_stop_waits_for_the_queued_writes_but_not_forever(
    sqlite_store: Store, data_dir: Path, caplog: pytest.LogCaptureFixture
) -> None:
    Problems(caplog)
    url = database_url(data_dir, None)
    server = await make_server(sqlite_store)
    fred = await registered(server, "Fred")
    with locked(data_dir / SQLITE_FILE):
        await fred.command("set style 12")
        await fred.command("+channel 77")
        await fred.expect_text(KEPT)
        stopping = asyncio.create_task(server.stop())
        await asyncio.sleep(0.5)
        assert not stopping.done()  # it waits for the database
    await stopping
    sqlite_store.close()
    with Store(url) as store:
        account = await asyncio.to_thread(store.load, "Fred")
        assert account is not None
        assert account.settings["style"] == "12" and account.channels == (77,)

    store = Store(url, busy_timeout=0.1)
    server = await make_server(store)
    server.write_patience = 0.5
    fred = await registered(server, "Fred")
    await server.core.writes.drained()  # his login is recorded (logons) before the lock
    with locked(data_dir / SQLITE_FILE):
        await fred.command("set style 10")
        await server.stop()  # returns, though the database never answered
    store.close()
    assert "the server stops with 1 writes the database did not take" in caplog.text
    assert "save_setting('Fred', 'style', '10')" in caplog.text


# -- PostgreSQL stopped and started again --------------------------------------------------------


def _postgres_bin() -> Path | None:
    found = shutil.which("pg_ctl")
    if found is not None:
        return Path(found).resolve().parent
    versions = sorted(Path("/usr/lib/postgresql").glob("*/bin/pg_ctl"))
    return versions[-1].parent if versions else None


class PrivatePostgres:
    """A PostgreSQL server of the test's own (initdb in a temporary folder, its own port),
    so it can be stopped without touching the one CI and others share."""

    def __init__(self, bin_dir: Path, folder: Path, as_user: list[str]) -> None:
        self.bin_dir, self.folder, self.as_user = bin_dir, folder, as_user
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = int(probe.getsockname()[1])
        self.url = f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/postgres"

    def _run(self, *args: str) -> None:
        subprocess.run([*self.as_user, *args], check=True, capture_output=True, timeout=120)

    def initdb(self) -> None:
        self._run(
            str(self.bin_dir / "initdb"), "-D", str(self.folder / "data"), "-U", "postgres",
            "-A", "trust", "--no-sync",
        )  # fmt: skip

    def start(self) -> None:
        options = f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1 -c fsync=off"
        self._run(
            str(self.bin_dir / "pg_ctl"), "-D", str(self.folder / "data"), "-o", options,
            "-l", str(self.folder / "log"), "-w", "start",
        )  # fmt: skip

    def stop(self) -> None:
        self._run(str(self.bin_dir / "pg_ctl"), "-D", str(self.folder / "data"), "-m", "fast",
                  "-w", "stop")  # fmt: skip


@pytest.fixture
def private_postgres() -> Iterator[PrivatePostgres]:
    bin_dir = _postgres_bin()
    if bin_dir is None or not (bin_dir / "initdb").exists():
        pytest.skip("PostgreSQL's initdb and pg_ctl are not installed")
    as_user: list[str] = []
    folder = Path(tempfile.mkdtemp(prefix="icswire-pg-"))
    if os.geteuid() == 0:  # PostgreSQL refuses to run as root
        runuser = shutil.which("runuser")
        try:
            owner = pwd.getpwnam("postgres")
        except KeyError:
            owner = None
        if runuser is None or owner is None:
            shutil.rmtree(folder)
            pytest.skip("as root, a private PostgreSQL needs runuser and a postgres user")
        folder.chmod(0o755)
        os.chown(folder, owner.pw_uid, owner.pw_gid)
        as_user = [runuser, "-u", "postgres", "--"]
    server = PrivatePostgres(bin_dir, folder, as_user)
    try:
        server.initdb()
        server.start()
        yield server
    finally:
        with contextlib.suppress(subprocess.CalledProcessError):
            server.stop()
        shutil.rmtree(folder, ignore_errors=True)


async def test_postgresql_stopped_and_started_under_load_loses_no_move(
    private_postgres: PrivatePostgres, caplog: pytest.LogCaptureFixture
) -> None:
    problems = Problems(caplog)
    store = Store(private_postgres.url)
    for name in ("Rateda", "Ratedb", "Fred"):
        store.add_user(name, "pw")
    async with running(store) as server:
        pairs = [
            (await registered(server, "Rateda", *GRAMS), await registered(server, "Ratedb", *GRAMS))
        ]
        for n in range(5):
            pairs.append(
                (await guest(server, f"White{n}", *GRAMS), await guest(server, f"Black{n}", *GRAMS))
            )
        games = [await start(server, pairs[0][0].name, pairs[0][1].name)]
        games += [await start(server, w.name, b.name, Terms(initial=5)) for w, b in pairs[1:]]
        clients = [client for pair in pairs for client in pair]

        async def all_play(moves: list[str], first_ply: int, start: int = 0) -> None:
            await asyncio.gather(*(play(w, b, moves, first_ply) for w, b in pairs[start:]))

        await all_play(SHUFFLE, 0)
        private_postgres.stop()
        await all_play(SHUFFLE * 2, 4)  # every game goes on
        for client in clients:
            await told(client, KEPT)
        rated_white, rated_black = pairs[0]
        await rated_white.send("resign")  # the rated game ends while the database is down
        await rated_black.expect_dg(DG.MY_GAME_RESULT)
        late = await Client.connect(server.port)
        await late.send("Fred pw")
        await late.expect_text(NOT_ANSWERING)  # a login is told, and asked again
        # "guest" needs no account look-up ("One" would: is it registered?)
        one, two = await guest(server, "guest"), await guest(server, "guest")
        await one.command(f"match {two.name} 5 0")
        await two.command("accept")
        await one.expect_text(NOT_CREATED)  # no game starts that cannot be stored

        private_postgres.start()
        await all_play(SHUFFLE, 12, start=1)  # the games that go on
        for white, _ in pairs[1:]:
            await white.send("resign")
        for client in clients:
            await told(client, SAVED)
        await late.send("Fred pw")
        await late.expect_text("**** Starting FICS session as Fred")
        await server.games.flush()

        rated = await asyncio.to_thread(store.game, games[0].game_id)
        assert rated is not None
        assert rated.moves == tuple(SHUFFLE * 3) and (rated.status, rated.score) == (0, "0-1")
        for name, wins in (("Rateda", 0), ("Ratedb", 1)):
            rating = await asyncio.to_thread(store.rating, name, "Blitz")
            assert (rating.games, rating.wins) == (1, wins)
        for game in games[1:]:
            stored = await asyncio.to_thread(store.game, game.game_id)
            assert stored is not None
            assert stored.moves == tuple(SHUFFLE * 4) and stored.score == "0-1"
        for client in clients:
            assert len(texts(client, KEPT)) == 1 and len(texts(client, SAVED)) == 1
        assert len(texts(rated_black, "rating adjustment")) == 1
    assert problems.errors() == []
