"""Fencing a cluster's nodes in the database (storage/fencing.py): a node declared dead
writes nothing more of its games, and the write queue drops what it refused. On SQLite and,
where ICSWIRE_TEST_DATABASE_URL names one, PostgreSQL."""

from __future__ import annotations

import logging
from datetime import UTC, datetime

import pytest
from sqlalchemy import inspect, text

from icswire.protocol.codes import ResultStatus
from icswire.server.core.storage.records import GameRecord
from icswire.server.core.storage.store import Fence, Fenced, Progress, Store, StoreUnavailable
from icswire.server.core.storage.writes import FENCED, WriteQueue

from .support import until


def a_game() -> GameRecord:
    return GameRecord(
        id=None, white="Ann", black="Bob", white_rating=0, black_rating=0, wild=0,
        variant=None, rating_type="Blitz", rated=False, initial=5, increment=0,
        start_fen=None, moves=(), clocks=(), times=(), status=None, mode=None, color=None,
        score="*", eco="?", white_clock=300_000, black_clock=300_000,
        started=datetime(2026, 11, 28, tzinfo=UTC), ended=None,
    )  # fmt: skip


def progress(game_id: int, moves: str) -> Progress:
    count = len(moves.split())
    return Progress(game_id, moves, " ".join(["1000"] * count), " ".join(["0"] * count), 1, 2)


def test_each_join_takes_a_new_epoch(database_url: str) -> None:
    with Store(database_url) as data:
        assert data.epoch("a") is None
        assert [data.join("a"), data.join("b"), data.join("a")] == [1, 1, 2]
        assert data.epoch("a") == 2


def test_a_node_declared_dead_writes_nothing_more_of_its_games(database_url: str) -> None:
    refused: list[str] = []
    with Store(database_url) as a, Store(database_url) as c:
        a.fence = Fence("a", a.join("a"), lambda: refused.append("a"))
        c.fence = Fence("c", c.join("c"))
        game_id = a.start_game(a_game())
        a.save_progress_many([progress(game_id, "e4 e5")])

        epoch = a.fence.epoch
        assert c.declare_dead("a", epoch, [game_id]) == 1
        for write in (
            lambda: a.save_progress_many([progress(game_id, "e4 e5 Nf3")]),
            lambda: a.finish_game(game_id, ResultStatus.WIN, 0, 1, "1-0", "?", 1, 2),
            lambda: a.seat_players(game_id, "Bob", "Ann", 0, 0),
            lambda: a.start_game(a_game()),
            lambda: a.declare_dead("c", 1, []),  # a dead node declares nobody dead
        ):
            with pytest.raises(Fenced):
                write()
        assert refused == ["a"] * 5
        found = c.game(game_id)
        assert found is not None
        assert (found.status, found.score, found.moves) == (
            ResultStatus.ADJOURNED,
            "*",
            ("e4", "e5"),
        )
        assert c.epoch("c") == 1  # c was not declared dead

        a.fence = Fence("a", a.join("a"))  # it joins again
        a.save_progress_many([progress(game_id, "e4 e5 Nf3")])  # late: the row stays
        after = c.game(game_id)
        assert after is not None and after.moves == ("e4", "e5")
        assert c.declare_dead("a", epoch, []) == 0  # an old epoch: the new one stands
        assert a.start_game(a_game()) > game_id


def test_a_store_outside_a_cluster_is_not_fenced(database_url: str) -> None:
    with Store(database_url) as data:
        game_id = data.start_game(a_game())
        data.save_progress_many([progress(game_id, "d4")])
        assert (found := data.game(game_id)) is not None and found.moves == ("d4",)


def test_a_database_without_the_nodes_table_gets_it(database_url: str) -> None:
    with Store(database_url) as made, made.engine.begin() as conn:
        conn.execute(text("DROP TABLE nodes"))
    with Store(database_url) as opened:
        assert inspect(opened.engine).has_table("nodes")
        assert opened.join("a") == 1


async def test_the_write_queue_drops_a_refused_write_and_says_so(
    caplog: pytest.LogCaptureFixture,
) -> None:
    said: list[tuple[str, str]] = []
    queue = WriteQueue(lambda names, line: said.extend((n, line) for n in names))
    written: list[int] = []

    def refused() -> None:
        raise Fenced("node a was declared dead")

    queue.put(refused, "a move of game 7", concerns=["Ann"])
    queue.put(lambda: written.append(1), "a setting", concerns=["Ann"])
    with caplog.at_level(logging.WARNING, logger="icswire.server"):
        await until(lambda: len(queue) == 0)
    assert written == [1] and not queue.failing
    assert said == [("ann", FENCED)]
    assert "a move of game 7 is not saved: node a was declared dead" in caplog.text
    assert issubclass(Fenced, StoreUnavailable)  # a caller that only needs "not written"
