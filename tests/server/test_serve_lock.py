"""One server per database, and nothing touched before the server owns its port: a second
server (on the same data, or on a busy port) leaves the running server's games alone."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

import pytest

from icswire.server.app import Server
from icswire.server.core.storage.lock import AlreadyServing
from icswire.server.core.storage.records import GameRecord
from icswire.server.core.storage.store import Store, database_url


def a_game_in_progress(store: Store) -> int:
    return store.start_game(
        GameRecord(
            id=None,
            white="Fred",
            black="Gina",
            white_rating=0,
            black_rating=0,
            wild=0,
            rating_type="Blitz",
            rated=False,
            initial=3,
            increment=0,
            start_fen=None,
            moves=("e4",),
            clocks=(180_000,),
            times=(1000,),
            status=None,
            mode=None,
            color=None,
            score="*",
            eco="?",
            white_clock=180_000,
            black_clock=180_000,
            started=datetime.now(UTC),
            ended=None,
        )
    )


def serve(data_dir: Path, port: int) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "icswire", "serve", "--port", str(port)]
    return subprocess.run(
        [*command, "--data-dir", str(data_dir)],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )


async def test_a_second_server_on_one_database_is_refused(database_url: str) -> None:
    store, other = Store(database_url), Store(database_url)
    running = Server(store, "127.0.0.1", 0)
    await running.start()
    try:
        game = a_game_in_progress(store)
        second = Server(other, "127.0.0.1", 0)
        with pytest.raises(AlreadyServing, match="another icswire server"):
            await second.start()
        record = store.game(game)
        assert record is not None and record.status is None  # still in progress
    finally:
        await running.stop()
        store.close()
    await second.start()  # the database is free again: the game was interrupted
    await second.stop()
    record = other.game(game)
    other.close()
    assert record is not None and record.status == 2  # adjourned


async def test_serve_refuses_a_data_dir_another_server_uses(tmp_path: Path) -> None:
    data = tmp_path / "data"
    store = Store(database_url(data, None))
    running = Server(store, "127.0.0.1", 0)
    await running.start()
    try:
        game = a_game_in_progress(store)
        result = serve(data, running.port)  # the same data, and the same (busy) port
        assert result.returncode == 1
        assert "Error: cannot serve: another icswire server (pid " in result.stderr
        assert f"is using the database in {data}" in result.stderr
        record = store.game(game)
        assert record is not None and record.status is None
    finally:
        await running.stop()
        store.close()


def test_serve_on_a_busy_port_touches_no_game(tmp_path: Path) -> None:
    data = tmp_path / "data"
    with Store(database_url(data, None)) as store:
        game = a_game_in_progress(store)  # a crash's game: the next real start adjourns it
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        result = serve(data, busy.getsockname()[1])
    assert result.returncode == 1
    assert " is in use (another server?); choose another with --port" in result.stderr
    with Store(database_url(data, None)) as store:
        record = store.game(game)
    assert record is not None and record.status is None
