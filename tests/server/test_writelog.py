"""The write journal: what it reads back, what it never runs, and writes made twice."""

from __future__ import annotations

import errno
import json
import logging
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
from click.testing import CliRunner

from icswire.cli import main
from icswire.server.app import Server
from icswire.server.core.storage import jobs, writelog
from icswire.server.core.storage.games import Progress
from icswire.server.core.storage.records import GameRecord
from icswire.server.core.storage.store import SQLITE_FILE, Store, database_url
from icswire.server.core.storage.writelog import JOURNAL_FILE, JournalBusy, WriteLog, node_journal
from icswire.server.core.storage.writes import WriteQueue

from .support import locked

SHUFFLE = ("Nf3", "Nf6", "Ng1", "Ng8")
WHEN = datetime(2026, 11, 28, 3, 4, 5, 678901, tzinfo=UTC)


def a_record(plies: int) -> GameRecord:
    return GameRecord(
        id=None,
        white="Whitey",
        black="Blacky",
        white_rating=0,
        black_rating=0,
        wild=0,
        rating_type="Blitz",
        rated=True,
        initial=5,
        increment=0,
        start_fen=None,
        moves=tuple(SHUFFLE[ply % 4] for ply in range(plies)),
        clocks=tuple(300_000 - ply for ply in range(plies)),
        times=tuple(ply for ply in range(plies)),
        status=None,
        mode=None,
        color=None,
        score="*",
        eco="?",
        white_clock=300_000,
        black_clock=300_000,
        started=WHEN,
        ended=None,
    )


def progress(game_id: int, plies: int) -> jobs.Write:
    record = a_record(plies)
    texts = " ".join(record.moves), " ".join(map(str, record.clocks))
    return jobs.progress(Progress(game_id, *texts, " ".join(map(str, record.times)), 1, 2))


def resigned(game_id: int, plies: int) -> jobs.Write:
    """White resigns (status 0, mode 0, White lost) after ``plies``; rated."""
    return jobs.finish(game_id, 0, 0, 1, "0-1", "?", 1, 2, a_record(plies), True)


@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    return tmp_path / "data"


@pytest.fixture
def store(data_dir: Path) -> Iterator[Store]:
    with Store(database_url(data_dir, None), busy_timeout=0.05) as store:
        for name in ("Whitey", "Blacky"):
            store.add_user(name, "pw")
        yield store


def test_the_writes_not_done_come_back_in_order_and_a_torn_last_line_is_skipped(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / JOURNAL_FILE
    journal, pending = WriteLog.open(path)
    assert pending == []
    for number in range(1, 4):
        assert journal.append("logout", [f"n{number}"]) == number
    journal.done([1])
    journal.close()
    with path.open("a") as file:
        file.write('{"n": 4, "kind": "logout", "args": ["n')  # the crash cut it short

    journal, pending = WriteLog.open(path)
    assert [(p.n, p.kind, p.args) for p in pending] == [
        (2, "logout", ["n2"]),
        (3, "logout", ["n3"]),
    ]
    assert "torn line" in caplog.text
    assert journal.append("logout", ["n5"]) == 4  # a line of its own after the torn one
    journal.close()
    journal, pending = WriteLog.open(path)
    assert [p.args for p in pending] == [["n2"], ["n3"], ["n5"]]
    journal.close()


def test_a_bad_line_inside_is_logged_and_skipped(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / JOURNAL_FILE
    lines = [
        {"n": 1, "kind": "logout", "args": ["a"]},
        "not json",
        {"n": 2, "kind": "logout", "args": "not a list"},
        {"n": True, "kind": "logout", "args": []},
        {"done": ["x"]},
        {"n": 3, "kind": "logout", "args": ["b"]},
    ]
    text = "".join((x if isinstance(x, str) else json.dumps(x)) + "\n" for x in lines)
    path.write_text(text)
    with caplog.at_level(logging.ERROR, logger="icswire.server"):
        journal, pending = WriteLog.open(path)
    journal.close()
    assert [p.args for p in pending] == [["a"], ["b"]]
    assert len([r for r in caplog.records if "is not a write" in r.getMessage()]) == 4


def test_a_second_server_cannot_open_the_same_journal(tmp_path: Path) -> None:
    journal, _ = WriteLog.open(tmp_path / JOURNAL_FILE)
    with pytest.raises(JournalBusy):
        WriteLog.open(tmp_path / JOURNAL_FILE)
    journal.close()
    WriteLog.open(tmp_path / JOURNAL_FILE)[0].close()


async def test_a_kind_the_server_does_not_write_is_never_run(
    store: Store, data_dir: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = data_dir / JOURNAL_FILE
    lines = [
        {"n": 1, "kind": "close", "args": []},  # a store method, not a write
        {"n": 2, "kind": "__import__('os').system", "args": ["touch pwned"]},
        {"n": 3, "kind": "remove_user", "args": ["Whitey"]},
        {"n": 4, "kind": "save_setting", "args": ["Whitey", "1", "kept"]},
    ]
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    queue = WriteQueue(store=store)
    assert queue.open_journal(path) == 4
    await queue.drained()
    await queue.close(1.0)
    assert len([r for r in caplog.records if "unknown write" in r.getMessage()]) == 3
    account = store.load("Whitey")
    assert account is not None and account.settings == {"1": "kept"}
    assert not path.exists()  # a clean stop with nothing waiting leaves no journal


def test_every_kind_of_write_made_again_changes_nothing(database_url: str) -> None:
    with Store(database_url) as store:
        for name in ("Whitey", "Blacky"):
            store.add_user(name, "pw")
        made_twice(store)


def made_twice(store: Store) -> None:
    """Every kind of write, written and then written again from the journal."""
    game_id = store.start_game(a_record(0))
    other = store.start_game(a_record(0))
    writes = [
        progress(game_id, 3),
        jobs.seat(game_id, "Blacky", "Whitey", 0, 0),
        jobs.seat(game_id, "Whitey", "Blacky", 0, 0),
        progress(game_id, 6),
        resigned(game_id, 7),
        progress(other, 5),
        jobs.message("Whitey", "Blacky", "once only", WHEN),
        jobs.logout("Whitey", WHEN),
        jobs.account("save_setting", "Blacky", "1", "a note"),
        jobs.account("save_alias", "Blacky", "hi", "tell fred hi"),
        jobs.account("add_channel", "Blacky", 50),
        jobs.account("remove_channel", "Blacky", 1),
        jobs.account("add_notify", "Blacky", "Whitey"),
        jobs.account("add_to_list", "Blacky", "censor", "Whitey"),
        jobs.account("journal_save", "Blacky", "a", game_id),
    ]
    for _ in range(2):
        for write in writes:
            again = jobs.Write(**json.loads(json.dumps({"kind": write.kind, "args": write.args})))
            jobs.perform(store, again)
    game = store.game(game_id)
    assert game is not None
    assert (game.moves, game.status, game.score) == (a_record(7).moves, 0, "0-1")
    assert (game.white, game.black) == ("Whitey", "Blacky")
    for name, wins in (("Whitey", 0), ("Blacky", 1)):
        rating = store.rating(name, "Blitz")
        assert (rating.games, rating.wins) == (1, wins)
    replayed = store.game(other)
    assert replayed is not None and replayed.moves == a_record(5).moves
    (message,) = store.messages("Blacky")
    assert (message.sender, message.text, message.sent) == ("Whitey", "once only", WHEN)
    account = store.load("Blacky")
    assert account is not None
    assert account.settings["1"] == "a note" and account.aliases == {"hi": "tell fred hi"}
    assert 50 in account.channels and 1 not in account.channels
    assert [slot for slot, _ in store.journal("Blacky")] == ["a"]


async def test_what_the_database_did_not_take_waits_in_the_journal_for_the_next_start(
    store: Store, data_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(writelog, "COMPACT_AT", 2000)  # rewritten while it waits
    path = data_dir / JOURNAL_FILE
    game_id = store.start_game(a_record(0))
    queue = WriteQueue(store=store)
    queue.first_delay = queue.max_delay = 0.01
    queue.open_journal(path)
    with locked(data_dir / SQLITE_FILE):
        queue.put_write(jobs.message("Whitey", "Blacky", "waits", WHEN))
        for plies in range(1, 60):
            queue.put_write(progress(game_id, plies))
        queue.put_write(resigned(game_id, 60))
        queue.put_write(jobs.account("save_setting", "Whitey", "2", "later"))
        assert await queue.close(0.3) == []  # nothing lost: all in the journal
    assert 0 < path.stat().st_size < 3 * 2000 + 4000  # rewritten, not 60 snapshots

    queue = WriteQueue(store=store)
    assert queue.open_journal(path) >= 3
    await queue.drained()
    await queue.close(1.0)
    assert not path.exists()  # a clean stop with nothing waiting leaves no journal
    game = store.game(game_id)
    assert game is not None and (game.moves, game.score) == (a_record(60).moves, "0-1")
    assert store.rating("Blacky", "Blitz").wins == 1
    assert [m.text for m in store.messages("Blacky")] == ["waits"]
    account = store.load("Whitey")
    assert account is not None and account.settings["2"] == "later"


async def test_a_node_takes_over_the_journal_of_a_node_that_is_gone(
    store: Store, data_dir: Path
) -> None:
    gone, alive = data_dir / node_journal("a"), data_dir / node_journal("b/../c")
    assert alive.name == "writes.b____c.journal"
    queue = WriteQueue(store=store)
    queue.open_journal(gone)
    with locked(data_dir / SQLITE_FILE):
        queue.put_write(jobs.message("Whitey", "Blacky", "from node a", WHEN))
        taker = WriteQueue(store=store)
        taker.open_journal(alive)
        with pytest.raises(JournalBusy):  # node a still runs
            taker.adopt_journal(gone)
        await queue.close(0.1)
    assert gone.exists()  # kept: what it holds waits

    assert taker.adopt_journal(gone) == 1
    assert not gone.exists()
    await taker.drained()
    await taker.close(1.0)
    assert [m.text for m in store.messages("Blacky")] == ["from node a"]
    assert not alive.exists()  # a clean stop with nothing waiting leaves no journal


async def test_a_starting_node_writes_its_journal_and_those_of_nodes_that_do_not_run(
    store: Store, data_dir: Path
) -> None:
    for node, text in (("b", "kept by b"), ("gone", "kept by a gone node")):
        queue = WriteQueue(store=store)
        queue.open_journal(data_dir / node_journal(node))
        with locked(data_dir / SQLITE_FILE):
            queue.put_write(jobs.message("Whitey", "Blacky", text, WHEN))
            await queue.close(0.1)
    running = WriteQueue(store=store)
    running.open_journal(data_dir / node_journal("running"))
    running.put_write(jobs.message("Whitey", "Blacky", "by the running node", WHEN))

    server = Server(store, cluster="nats://unused", node="b", journal_dir=data_dir)
    await server._replay(data_dir)  # what start() does before it joins the cluster
    await running.drained()
    assert sorted(m.text for m in store.messages("Blacky")) == [
        "by the running node",
        "kept by a gone node",
        "kept by b",
    ]
    assert sorted(p.name for p in data_dir.glob("*.journal")) == [
        "writes.b.journal",
        "writes.running.journal",  # its node runs: left to it
    ]
    await server.core.writes.close(1.0)
    await running.close(1.0)


async def test_a_journal_that_cannot_be_written_leaves_the_writes_to_the_queue(
    store: Store, data_dir: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    queue = WriteQueue(store=store)
    queue.open_journal(data_dir / JOURNAL_FILE)

    def full(self: WriteLog, line: str) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(WriteLog, "_write", full)
    for number in range(3):
        queue.put_write(jobs.account("save_setting", "Whitey", str(number + 1), "still saved"))
    await queue.drained()
    await queue.close(1.0)
    account = store.load("Whitey")
    assert account is not None and account.settings == {
        "1": "still saved",
        "2": "still saved",
        "3": "still saved",
    }
    assert len([r for r in caplog.records if "cannot be written" in r.getMessage()]) == 1


def test_serve_says_when_another_server_has_the_journal(data_dir: Path) -> None:
    journal, _ = WriteLog.open(data_dir / JOURNAL_FILE)
    try:
        result = CliRunner().invoke(main, ["serve", "--port", "0", "--data-dir", str(data_dir)])
    finally:
        journal.close()
    assert result.exit_code == 1
    assert "cannot serve: another server has the write journal" in result.output
