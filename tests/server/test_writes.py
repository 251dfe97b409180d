"""The write queue on its own: order, retries, coalescing, telling users, stopping."""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Callable, Iterable

import pytest

from icswire.server.core.storage.store import StoreUnavailable
from icswire.server.core.storage.writes import KEPT, NOT_SAVED, SAVED, WriteQueue

from .support import until


class Database:
    """Stands for the store: answers or not, and remembers what was written, in order."""

    def __init__(self) -> None:
        self.answering = threading.Event()
        self.answering.set()
        self.written: list[object] = []
        self.tries = 0

    def write(self, value: object) -> Callable[[], object]:
        def run() -> object:
            self.tries += 1
            if not self.answering.is_set():
                raise StoreUnavailable("database is locked")
            self.written.append(value)
            return value

        return run


class Told:
    def __init__(self) -> None:
        self.said: list[tuple[str, str]] = []

    def __call__(self, names: Iterable[str], text: str) -> None:
        self.said += [(name, text) for name in sorted(names)]


@pytest.fixture
def told() -> Told:
    return Told()


@pytest.fixture
def queue(told: Told) -> WriteQueue:
    queue = WriteQueue(told)
    queue.first_delay = queue.max_delay = 0.01
    return queue


async def test_jobs_run_in_the_order_they_were_queued(queue: WriteQueue) -> None:
    db = Database()
    results: list[object] = []
    for n in range(20):
        queue.put(db.write(n), f"job {n}", done=results.append)
    await queue.barrier()
    assert db.written == list(range(20)) and results == list(range(20))
    assert len(queue) == 0


async def test_a_job_the_database_does_not_take_is_tried_again_and_nothing_overtakes_it(
    queue: WriteQueue, told: Told
) -> None:
    db = Database()
    db.answering.clear()
    queue.put(db.write("first"), "first", concerns=["Fred"])
    queue.put(db.write("second"), "second", concerns=["Bob"])
    await until(lambda: db.tries >= 5)
    assert db.written == [] and len(queue) == 2 and queue.failing
    queue.put(db.write("third"), "third", concerns=["fred", "Carol"])
    assert told.said == [("bob", KEPT), ("fred", KEPT), ("carol", KEPT)]  # once each
    db.answering.set()
    await until(lambda: len(queue) == 0)
    assert db.written == ["first", "second", "third"] and not queue.failing
    assert sorted(told.said[3:]) == [("bob", SAVED), ("carol", SAVED), ("fred", SAVED)]


async def test_saved_is_said_when_the_last_waiting_write_of_that_user_is_written(
    queue: WriteQueue, told: Told
) -> None:
    db = Database()
    db.answering.clear()
    queue.put(db.write(1), "fred's first", concerns=["Fred"])
    queue.put(db.write(2), "bob's", concerns=["Bob"])
    queue.put(db.write(3), "fred's second", concerns=["Fred"])
    await until(lambda: len(told.said) == 2)
    db.answering.set()
    await until(lambda: len(queue) == 0)
    assert told.said[2:] == [("bob", SAVED), ("fred", SAVED)]


async def test_a_job_failing_for_another_reason_is_logged_dropped_and_said(
    queue: WriteQueue, told: Told, caplog: pytest.LogCaptureFixture
) -> None:
    db = Database()

    def broken() -> None:
        raise ValueError("a move must be one word")

    queue.put(db.write(1), "one")
    queue.put(broken, "the broken one", concerns=["Fred"])
    queue.put(db.write(3), "three")
    with caplog.at_level(logging.ERROR, logger="icswire.server"):
        await queue.barrier()
    assert db.written == [1, 3]
    assert told.said == [("fred", NOT_SAVED)]
    (record,) = caplog.records
    assert "the broken one" in record.getMessage() and record.exc_info is not None


async def test_a_newer_snapshot_replaces_the_waiting_one_and_keeps_its_place(
    queue: WriteQueue,
) -> None:
    db = Database()
    gate = threading.Event()

    def slow() -> object:
        gate.wait(10)
        return db.write("other game")()

    queue.put(slow, "other game")  # holds the queue while the snapshots come
    for ply in range(1, 6):
        queue.put(db.write(("game 1", ply)), f"ply {ply}", key=("game", 1))
    queue.put(db.write("settings"), "settings")
    queue.put(db.write(("game 1", 6)), "ply 6", key=("game", 1))
    gate.set()
    await queue.barrier()
    assert db.written == ["other game", ("game 1", 6), "settings"]


async def test_a_snapshot_is_never_cleared_before_a_write_that_contains_it_succeeded(
    queue: WriteQueue,
) -> None:
    db = Database()
    running = threading.Event()
    release = threading.Event()

    def first_fails() -> object:
        running.set()
        release.wait(10)
        raise StoreUnavailable("database is locked")

    queue.put(first_fails, "ply 1", key=("game", 1))
    await until(running.is_set)
    # ply 2 comes while ply 1 is being written: it cannot replace a running job
    queue.put(db.write(("game 1", 2)), "ply 2", key=("game", 1))
    release.set()
    await until(lambda: len(queue) == 0)
    # ply 1 failed: ply 2, which holds it, was written instead (and ply 1 not again)
    assert db.written == [("game 1", 2)]

    db.answering.clear()
    queue.put(db.write(("game 1", 3)), "ply 3", key=("game", 1))
    await until(lambda: db.tries >= 3)
    assert db.written == [("game 1", 2)]  # still waiting, not dropped
    db.answering.set()
    await until(lambda: len(queue) == 0)
    assert db.written == [("game 1", 2), ("game 1", 3)]


async def test_a_barrier_waits_for_what_was_queued_before_it_and_fails_fast_while_failing(
    queue: WriteQueue,
) -> None:
    db = Database()
    await queue.barrier()  # nothing queued: at once
    db.answering.clear()
    queue.put(db.write(1), "one")
    with pytest.raises(StoreUnavailable):
        await queue.barrier()  # the database stops answering while it waits
    with pytest.raises(StoreUnavailable):
        await queue.barrier()  # ... and it knows at once now
    db.answering.set()
    await until(lambda: not queue.failing)
    await queue.barrier()
    assert db.written == [1]


async def test_close_waits_for_the_queue_but_not_forever(
    told: Told, caplog: pytest.LogCaptureFixture
) -> None:
    queue = WriteQueue(told)
    queue.first_delay = queue.max_delay = 0.01
    db = Database()
    db.answering.clear()
    queue.put(db.write(1), "one")
    loop = asyncio.get_running_loop()
    loop.call_later(0.2, db.answering.set)
    assert await queue.close(timeout=10) == []
    assert db.written == [1]

    queue = WriteQueue(told)
    queue.first_delay = queue.max_delay = 0.01
    db = Database()
    db.answering.clear()
    queue.put(db.write(2), "game 7 at ply 12")
    with caplog.at_level(logging.ERROR, logger="icswire.server"):
        assert await queue.close(timeout=0.2) == ["game 7 at ply 12"]
    assert "game 7 at ply 12" in caplog.text
    with caplog.at_level(logging.ERROR, logger="icswire.server"):
        queue.put(db.write(3), "after the stop")  # nothing runs, and the log says so
    assert "after the stop" in caplog.text


async def test_a_failure_to_tell_never_stops_the_queue(
    queue: WriteQueue, caplog: pytest.LogCaptureFixture
) -> None:
    def tell(names: Iterable[str], text: str) -> None:
        raise ConnectionResetError("gone")

    queue.tell = tell
    db = Database()
    db.answering.clear()
    queue.put(db.write(1), "one", concerns=["Fred"])
    await until(lambda: db.tries >= 2)
    db.answering.set()
    queue.put(db.write(2), "two", concerns=["Fred"])
    await until(lambda: len(queue) == 0)
    assert db.written == [1, 2]
    assert "could not tell fred" in caplog.text


async def test_settled_waits_for_the_writes_of_one_user_only(queue: WriteQueue) -> None:
    """A login reads the account after its queued account writes: ``settled(name)`` waits
    for the jobs changing that user's account, not for others' nor his games', and fails
    while the database does not answer."""
    db = Database()
    gate = threading.Event()

    def slow() -> object:
        gate.wait(10)
        return db.write("fred's channel")()

    await queue.settled("Bob")  # nothing concerns Bob: at once
    queue.put(db.write("fred's game"), "fred's game", concerns=["Fred"])  # not his account
    await queue.settled("Fred")  # at once
    queue.put(slow, "fred's channel", concerns=["Fred"], account=True)
    waiting = asyncio.ensure_future(queue.settled("fred"))
    await asyncio.sleep(0.05)
    assert not waiting.done()
    await queue.settled("Bob")  # still at once
    gate.set()
    await asyncio.wait_for(waiting, 10)
    assert db.written == ["fred's game", "fred's channel"]
    db.answering.clear()
    queue.put(db.write("again"), "again", concerns=["Fred"], account=True)
    await until(lambda: queue.failing)
    with pytest.raises(StoreUnavailable):
        await queue.settled("Fred")


class Batches:
    """A grouped store call: remembers each call's items (one call, one transaction)."""

    def __init__(self, database: Database) -> None:
        self.database = database
        self.calls: list[list[object]] = []

    def __call__(self, items: object) -> None:
        items = list(items)  # type: ignore[call-overload]
        self.database.tries += 1
        if not self.database.answering.is_set():
            raise StoreUnavailable("database is locked")
        self.calls.append(items)
        self.database.written += items


async def test_grouped_jobs_waiting_together_are_written_in_one_call(queue: WriteQueue) -> None:
    database = Database()
    batches = Batches(database)
    database.answering.clear()  # everything queues behind the first try
    queue.put(database.write("settings"), "settings")
    for game in (1, 2, 3):
        queue.put_grouped(batches, f"game {game} ply 1", f"game {game}", key=("game", game))
    queue.put_grouped(batches, "game 1 ply 2", "game 1", key=("game", 1))  # replaces ply 1
    queue.put(database.write("result"), "result")
    queue.put_grouped(batches, "game 4 ply 1", "game 4", key=("game", 4))
    await until(lambda: database.tries >= 2)
    database.answering.set()
    await until(lambda: len(queue) == 0)
    assert batches.calls == [["game 1 ply 2", "game 2 ply 1", "game 3 ply 1"], ["game 4 ply 1"]]
    assert database.written == [
        "settings", "game 1 ply 2", "game 2 ply 1", "game 3 ply 1", "result", "game 4 ply 1",
    ]  # fmt: skip


async def test_a_grouped_write_that_fails_is_retried_whole(queue: WriteQueue) -> None:
    database = Database()
    batches = Batches(database)
    database.answering.clear()
    queue.put_grouped(batches, "a1", "a", key=("game", 1))
    queue.put_grouped(batches, "b1", "b", key=("game", 2))
    await until(lambda: database.tries >= 3)
    queue.put_grouped(batches, "a2", "a", key=("game", 1))  # queues behind the failing try
    database.answering.set()
    await until(lambda: len(queue) == 0)
    # a1 failed and a newer snapshot of its game waits: given up for it; b1 was tried
    # with a1 each time and is written with a2, in one call.
    assert batches.calls == [["b1", "a2"]]
    assert database.tries > 3


async def test_a_plain_job_that_replaces_a_grouped_one_is_what_is_written(
    queue: WriteQueue,
) -> None:
    """A game's end (a plain job) replaces its waiting progress save (a grouped one)."""
    database = Database()
    batches = Batches(database)
    database.answering.clear()
    queue.put(database.write("first"), "first")
    queue.put_grouped(batches, "game 1 ply 9", "game 1", key=("game", 1))
    queue.put(database.write("game 1 ended"), "game 1 end", key=("game", 1))
    await until(lambda: database.tries >= 2)
    database.answering.set()
    await until(lambda: len(queue) == 0)
    assert database.written == ["first", "game 1 ended"] and batches.calls == []
