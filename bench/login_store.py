"""What does a login cost the store, against a floor measured in the same run?

``python bench/login_store.py [--logins 400] [--runs 5] [--profile]`` makes a fresh SQLite
store in a temporary directory and times, best of ``--runs``, ``--logins`` logins of
unregistered names (what ``bench-peer``'s ``logins:N`` makes, issue 27) as the server's
login makes them, in the calling thread (the server makes them on worker threads):

- **store**: ``Store.load`` and ``Store.is_banned`` of the name, then the logon write
  (``Store.save_logon``, as the write queue's job makes it);
- **floor**: the same reads and the insert with the stdlib ``sqlite3`` module on the same
  kind of file (WAL, ``BEGIN IMMEDIATE`` per transaction, as the store's), statements
  written once, no trimming: the least a login's database work can cost.

The figure to watch is the ratio store / floor per login. ``--profile`` adds the store's
top functions under cProfile.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import sqlite3
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

from icswire.server.core.storage.store import Store, database_url


def store_logins(store: Store, names: list[str], start: datetime) -> None:
    for n, name in enumerate(names):
        store.load(name)
        store.is_banned(name)
        store.save_logon(name, False, True, start + timedelta(seconds=n), "127.0.0.1")


def floor_logins(db: sqlite3.Connection, names: list[str], start: datetime) -> None:
    for n, name in enumerate(names):
        key = name.lower()
        for query in (
            "SELECT id FROM users WHERE name_key = ?",
            "SELECT name FROM bans WHERE name_key = ?",
        ):
            db.execute("BEGIN IMMEDIATE")
            db.execute(query, (key,)).fetchone()
            db.execute("COMMIT")
        at = (start + timedelta(seconds=n)).isoformat()
        db.execute("BEGIN IMMEDIATE")
        db.execute(
            "INSERT INTO logons (name, name_key, registered, login, at, host)"
            " VALUES (?, ?, 0, 1, ?, ?)",
            (name, key, at, "127.0.0.1"),
        )
        db.execute("COMMIT")


def best(runs: int, once: Callable[[int], None]) -> float:
    times = []
    for run in range(runs):
        began = time.process_time()
        once(run)
        times.append(time.process_time() - began)
    return min(times)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--logins", type=int, default=400)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args(argv)
    start = datetime(2026, 11, 28, tzinfo=UTC)
    with tempfile.TemporaryDirectory() as tmp:
        store = Store(database_url(Path(tmp) / "store", None))
        floor_db = sqlite3.connect(Path(tmp) / "floor.sqlite3", isolation_level=None)
        floor_db.execute("PRAGMA journal_mode = WAL")
        floor_db.execute("PRAGMA synchronous = NORMAL")
        for table in (
            "users (id INTEGER PRIMARY KEY, name_key TEXT)",
            "bans (name TEXT, name_key TEXT)",
        ):
            floor_db.execute(f"CREATE TABLE {table}")
        floor_db.execute(
            "CREATE TABLE logons (id INTEGER PRIMARY KEY, name TEXT, name_key TEXT,"
            " registered BOOLEAN, login BOOLEAN, at TEXT, host TEXT)"
        )
        floor_db.execute("CREATE INDEX ix_users ON users (name_key)")
        floor_db.execute("CREATE INDEX ix_bans ON bans (name_key)")
        floor_db.execute("CREATE INDEX ix_logons ON logons (name_key)")

        def names(run: int) -> list[str]:
            return [f"R{run}U{n}" for n in range(args.logins)]

        try:
            floor = best(args.runs, lambda run: floor_logins(floor_db, names(run), start))
            icswire = best(args.runs, lambda run: store_logins(store, names(run), start))
            if args.profile:
                profile = cProfile.Profile()
                profile.runcall(store_logins, store, names(args.runs), start)
                pstats.Stats(profile).sort_stats("cumulative").print_stats(25)
        finally:
            store.close()
            floor_db.close()
    per = 1000 / args.logins
    print(f"store: {icswire * per:.3f} ms CPU a login ({args.logins} logins, best of {args.runs})")
    print(f"floor: {floor * per:.3f} ms CPU a login")
    print(f"ratio store / floor: {icswire / floor:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
