"""One server per database: :class:`ServerLock`.

Two servers on one database would each take the other's games in progress for games a
crash interrupted, and adjourn them. So a server takes this lock before anything else
(before it listens, before it touches a game), and a second one is refused with
:class:`AlreadyServing`, which says who holds the database:

- SQLite (a file): an exclusive ``flock`` on ``<database file>.lock`` next to it, in the
  data directory. The kernel lets go of it when the process ends, however it ends, so a
  crash leaves no stale lock; the file holds the pid of the server, for the message.
- PostgreSQL: a session-level advisory lock (:data:`ADVISORY_KEY`) on a connection kept
  open while the server runs; advisory locks belong to one database, so servers on other
  databases of the same PostgreSQL do not meet. PostgreSQL lets go of it when that
  connection ends.
- An in-memory SQLite database belongs to one process: nothing to lock.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
from pathlib import Path
from typing import IO

from sqlalchemy import Connection, Engine, text
from sqlalchemy.exc import SQLAlchemyError

__all__ = ["ADVISORY_KEY", "AlreadyServing", "ServerLock"]

#: The key of PostgreSQL's advisory lock: "icswire" in ASCII, as a bigint.
ADVISORY_KEY = int.from_bytes(b"icswire", "big")


class AlreadyServing(Exception):
    """Another server holds the database."""


class ServerLock:
    """The database's lock, held until :meth:`release`. Use :meth:`acquire`."""

    def __init__(self, file: IO[str] | None = None, conn: Connection | None = None) -> None:
        self._file = file
        self._conn = conn

    @classmethod
    def acquire(cls, engine: Engine) -> ServerLock:
        """Lock the database of ``engine``; :class:`AlreadyServing` if a server has it."""
        url = engine.url
        if url.get_backend_name() == "sqlite":
            database = url.database or ""
            if database in ("", ":memory:") or url.query.get("mode") == "memory":
                return cls()
            path = Path(database.removeprefix("file:").split("?")[0])
            return cls(file=_lock_file(Path(f"{path}.lock")))
        if url.get_backend_name() == "postgresql":
            return cls(conn=_advisory_lock(engine))
        return cls()

    def release(self) -> None:
        """Let go of the lock (a stopped server)."""
        if self._file is not None:
            with contextlib.suppress(OSError):
                self._file.truncate(0)
                fcntl.flock(self._file, fcntl.LOCK_UN)
            self._file.close()
            self._file = None
        if self._conn is not None:
            with contextlib.suppress(SQLAlchemyError):
                self._conn.execute(text("SELECT pg_advisory_unlock(:key)"), {"key": ADVISORY_KEY})
            with contextlib.suppress(SQLAlchemyError):
                self._conn.close()
            self._conn = None


def _lock_file(path: Path) -> IO[str]:
    path.parent.mkdir(parents=True, exist_ok=True)
    file = open(path, "a+")  # noqa: SIM115 (held open while the server runs)
    try:
        fcntl.flock(file, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        file.seek(0)
        pid = file.read().strip()
        file.close()
        holder = f" (pid {pid})" if pid.isdigit() else ""
        raise AlreadyServing(
            f"another icswire server{holder} is using the database in {path.parent}"
            f" (lock file {path.name})"
        ) from None
    except BaseException:
        file.close()
        raise
    file.truncate(0)
    file.write(f"{os.getpid()}\n")
    file.flush()
    return file


def _advisory_lock(engine: Engine) -> Connection:
    conn = engine.connect()
    conn.detach()  # closing it must end the session (and the lock), not pool it
    try:
        taken = conn.scalar(text("SELECT pg_try_advisory_lock(:key)"), {"key": ADVISORY_KEY})
        conn.commit()
    except BaseException:
        conn.close()
        raise
    if not taken:
        conn.close()
        shown = engine.url.render_as_string(hide_password=True)
        raise AlreadyServing(f"another icswire server is using the database {shown}")
    return conn
