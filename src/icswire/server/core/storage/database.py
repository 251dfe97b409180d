"""The connection every part of the Store shares: the engine (SQLite's settings, or a pool
of PostgreSQL connections), one transaction per call, and :class:`StoreUnavailable` when
the database does not answer.

The server calls the Store through :func:`asyncio.to_thread`, so every method is one short
transaction (:meth:`Database._begin`) and a Store may be used from several threads at once.
"""

from __future__ import annotations

import contextlib
import functools
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Any, Self

from sqlalchemy import Connection, create_engine, event, make_url
from sqlalchemy.exc import DBAPIError, DisconnectionError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout
from sqlalchemy.pool import StaticPool

from icswire.server.core.storage.migrations import migrate

__all__ = [
    "DEFAULT_DATABASE",
    "SQLITE_FILE",
    "Database",
    "Fence",
    "StoreUnavailable",
    "database_url",
    "unavailable",
]

DEFAULT_DATABASE = "sqlite"
"""What ``--database`` means when it is not given: a SQLite file in the data directory."""

SQLITE_FILE = "icswire.sqlite3"
"""The name of that file."""


class StoreUnavailable(Exception):
    """The database did not answer: it is locked, stopped, unreachable or out of space.

    The same call may succeed later; nothing was written by it. Every other error of a
    :class:`~.store.Store` method (an unknown name, a bad value) would fail again the same way.
    """


@dataclass
class Fence:
    """The epoch a cluster's node writes its games under (:mod:`.fencing`), and what it is
    told (in the store's thread) when a write was refused."""

    node: str
    epoch: int
    fenced: Callable[[], None] | None = None


def unavailable(exc: BaseException) -> bool:
    """Whether ``exc``, raised by SQLAlchemy, means the database is not answering now
    rather than that the call is wrong: SQLite's "database is locked", "database or disk is
    full" and I/O errors, PostgreSQL's refused or lost connections, shutdowns and full disks
    (all operational errors), a lost connection, an exhausted pool."""
    if isinstance(exc, OperationalError | DisconnectionError | PoolTimeout):
        return True
    return isinstance(exc, DBAPIError) and exc.connection_invalidated


def _normalize_url(url: str) -> str:
    """``postgresql://`` and ``postgres://`` go through psycopg 3, the driver icswire ships."""
    for prefix in ("postgresql://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url.removeprefix(prefix)
    return url


def database_url(data_dir: Path, database: str | None) -> str:
    """The SQLAlchemy URL for ``--data-dir`` and ``--database``.

    None (or ``"sqlite"``) is the SQLite file in ``data_dir``; anything else is a URL, used as
    given except that ``postgresql://`` means psycopg 3.

    >>> database_url(Path("/srv/ics"), None)
    'sqlite:////srv/ics/icswire.sqlite3'
    >>> database_url(Path("/srv/ics"), "postgresql://ics@db/ics")
    'postgresql+psycopg://ics@db/ics'
    """
    if database is None or database == DEFAULT_DATABASE:
        return f"sqlite:///{(data_dir / SQLITE_FILE).absolute()}"
    return _normalize_url(database)


def _sqlite_connect(busy_timeout: float, dbapi_connection: Any, connection_record: Any) -> None:
    # SQLAlchemy, not the sqlite3 module, decides when transactions begin (see _sqlite_begin).
    dbapi_connection.isolation_level = None
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA foreign_keys = ON")  # for ON DELETE CASCADE
    # wait for other writers this long before "database is locked" (StoreUnavailable)
    cursor.execute(f"PRAGMA busy_timeout = {round(busy_timeout * 1000)}")
    cursor.execute("PRAGMA journal_mode = WAL")  # readers do not block the writer
    # In WAL mode NORMAL keeps every commit through a crash of the process (a SIGKILL);
    # only a power loss can take the last ones. FULL would fsync on every move.
    cursor.execute("PRAGMA synchronous = NORMAL")
    cursor.close()


def _sqlite_begin(connection: Connection) -> None:
    # Take the write lock at BEGIN: a transaction that reads and then writes can then never
    # fail half-way because another connection wrote in between (SQLITE_BUSY_SNAPSHOT).
    connection.exec_driver_sql("BEGIN IMMEDIATE")


class Database:
    """An open database, its schema brought up to date (:func:`~.migrations.migrate`): the
    base of each part of the :class:`~.store.Store`, which it gives :meth:`_begin`."""

    #: The epoch a cluster's node writes its games under (:mod:`.fencing`); None alone.
    fence: Fence | None = None

    def __init__(self, url: str, busy_timeout: float = 10.0) -> None:
        parsed = make_url(_normalize_url(url))
        self._lock: threading.Lock | None = None
        if parsed.get_backend_name() == "sqlite":
            database = parsed.database or ""
            if database in ("", ":memory:") or parsed.query.get("mode") == "memory":
                # One in-memory database shared by every thread, one transaction at a time.
                self.engine = create_engine(
                    parsed, connect_args={"check_same_thread": False}, poolclass=StaticPool
                )
                self._lock = threading.Lock()
            else:
                if not database.startswith("file:"):
                    Path(database).parent.mkdir(parents=True, exist_ok=True)
                # no pre-ping: a file has no server that could drop the connection
                self.engine = create_engine(parsed, connect_args={"check_same_thread": False})
            event.listen(self.engine, "connect", functools.partial(_sqlite_connect, busy_timeout))
            event.listen(self.engine, "begin", _sqlite_begin)
        else:
            self.engine = create_engine(parsed, pool_pre_ping=True)
        try:
            with self._begin() as conn:
                migrate(conn)
        except BaseException:
            self.engine.dispose()
            raise

    def close(self) -> None:
        """Close every pooled connection."""
        self.engine.dispose()

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"Store({self.engine.url.render_as_string(hide_password=True)!r})"

    @contextlib.contextmanager
    def _begin(self) -> Iterator[Connection]:
        """One transaction; the database not answering is :class:`StoreUnavailable`."""
        try:
            with self._lock or contextlib.nullcontext(), self.engine.begin() as conn:
                yield conn
        except DBAPIError as exc:
            if unavailable(exc):
                raise StoreUnavailable(f"{type(exc.orig).__name__}: {exc.orig}") from exc
            raise
        except (DisconnectionError, PoolTimeout) as exc:
            raise StoreUnavailable(str(exc)) from exc
