"""Accounts in a real database: SQLite by default, PostgreSQL in production, one schema.

The schema is SQLAlchemy Core (:data:`metadata`) and runs unchanged on both. :class:`Store`
is a small synchronous API over it; the server calls it through :func:`asyncio.to_thread`,
so every method is one short transaction and a Store may be used from several threads at
once. Passwords are kept as argon2id hashes (argon2-cffi's defaults, a memory-hard hash),
never as the password; a hash made with older parameters is replaced on the next good login.

>>> store = Store("sqlite://")
>>> store.add_user("Fred", "secret")
>>> store.check_password("FRED", "secret"), store.check_password("fred", "wrong")
(True, False)
>>> store.add_channel("fred", 50)
True
>>> store.load("fred")
Account(name='Fred', settings={}, channels=(50,), notify=(), aliases={})
>>> store.close()
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from types import TracebackType
from typing import Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import (
    Column,
    Connection,
    DateTime,
    Dialect,
    ForeignKey,
    Integer,
    MetaData,
    PrimaryKeyConstraint,
    String,
    Table,
    Text,
    TypeDecorator,
    create_engine,
    delete,
    event,
    insert,
    make_url,
    select,
    update,
)
from sqlalchemy.exc import IntegrityError
from sqlalchemy.pool import StaticPool

from icswire.server.names import NAME_MAX, name_error, name_key

__all__ = [
    "DEFAULT_DATABASE",
    "SQLITE_FILE",
    "Account",
    "Store",
    "UnknownUser",
    "UserExists",
    "database_url",
    "metadata",
    "user_aliases",
    "user_channels",
    "user_notify",
    "user_settings",
    "users",
]

DEFAULT_DATABASE = "sqlite"
"""What ``--database`` means when it is not given: a SQLite file in the data directory."""

SQLITE_FILE = "icswire.sqlite3"
"""The name of that file."""


class UTCDateTime(TypeDecorator[datetime]):
    """A timezone-aware UTC datetime on every backend (SQLite itself stores no zone)."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("a naive datetime cannot be stored; give it a timezone")
        value = value.astimezone(UTC)
        return value.replace(tzinfo=None) if dialect.name == "sqlite" else value

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            return value.replace(tzinfo=UTC)
        return value.astimezone(UTC)


metadata = MetaData(
    naming_convention={
        "ix": "ix_%(column_0_label)s",
        "uq": "uq_%(table_name)s_%(column_0_name)s",
        "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
        "pk": "pk_%(table_name)s",
    }
)
"""Every icswire table; ``metadata.drop_all(engine)`` empties a test database."""

users = Table(
    "users",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("name_key", String(NAME_MAX), nullable=False, unique=True),
    Column("name", String(NAME_MAX), nullable=False),
    Column("password_hash", Text, nullable=False),
    Column("created", UTCDateTime, nullable=False),
)


def _user_id_column() -> Column[int]:
    return Column("user_id", Integer, ForeignKey("users.id", ondelete="CASCADE"), nullable=False)


user_settings = Table(
    "user_settings",
    metadata,
    _user_id_column(),
    Column("key", Text, nullable=False),
    Column("value", Text, nullable=False),
    PrimaryKeyConstraint("user_id", "key"),
)
"""Variables saved by ``set``: style, prompt, open, shout, notes "1".."10", interface..."""

user_channels = Table(
    "user_channels",
    metadata,
    _user_id_column(),
    Column("channel", Integer, nullable=False),
    PrimaryKeyConstraint("user_id", "channel"),
)

user_notify = Table(
    "user_notify",
    metadata,
    _user_id_column(),
    Column("name", String(NAME_MAX), nullable=False),
    Column("name_key", String(NAME_MAX), nullable=False),
    PrimaryKeyConstraint("user_id", "name_key"),
)
"""Who is on each user's notify list: the name as added, unique whatever its case."""

user_aliases = Table(
    "user_aliases",
    metadata,
    _user_id_column(),
    Column("alias", Text, nullable=False),
    Column("expansion", Text, nullable=False),
    PrimaryKeyConstraint("user_id", "alias"),
)


class UnknownUser(LookupError):
    """No account has this name."""

    def __init__(self, name: str) -> None:
        super().__init__(f"no such user: {name}")
        self.name = name


class UserExists(ValueError):
    """An account with this name, in any case, already exists."""

    def __init__(self, name: str) -> None:
        super().__init__(f"{name} is already registered")
        self.name = name


@dataclass(frozen=True, slots=True)
class Account:
    """What a registered user brings to a session: saved settings and lists."""

    uid: int
    """The permanent user id (DG_UID, 131)."""
    name: str
    """As registered, case kept."""
    settings: dict[str, str]
    channels: tuple[int, ...]
    """Sorted."""
    notify: tuple[str, ...]
    """Sorted case-insensitively."""
    aliases: dict[str, str]


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


def _sqlite_connect(dbapi_connection: Any, connection_record: Any) -> None:
    # SQLAlchemy, not the sqlite3 module, decides when transactions begin (see _sqlite_begin).
    dbapi_connection.isolation_level = None
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA foreign_keys = ON")  # for ON DELETE CASCADE
    cursor.execute("PRAGMA busy_timeout = 10000")  # wait for other writers, do not fail
    cursor.execute("PRAGMA journal_mode = WAL")  # readers do not block the writer
    cursor.close()


def _sqlite_begin(connection: Connection) -> None:
    # Take the write lock at BEGIN: a transaction that reads and then writes can then never
    # fail half-way because another connection wrote in between (SQLITE_BUSY_SNAPSHOT).
    connection.exec_driver_sql("BEGIN IMMEDIATE")


class Store:
    """Accounts, settings, channels, notify lists and aliases in one database.

    Names are looked up case-insensitively (:func:`~icswire.server.names.name_key`);
    methods that need an account raise :class:`UnknownUser` when there is none.
    """

    def __init__(self, url: str) -> None:
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
                self.engine = create_engine(
                    parsed, pool_pre_ping=True, connect_args={"check_same_thread": False}
                )
            event.listen(self.engine, "connect", _sqlite_connect)
            event.listen(self.engine, "begin", _sqlite_begin)
        else:
            self.engine = create_engine(parsed, pool_pre_ping=True)
        self._hasher = PasswordHasher()
        try:
            with self._begin() as conn:
                metadata.create_all(conn)
        except BaseException:
            self.engine.dispose()
            raise

    @classmethod
    def for_data_dir(cls, path: Path) -> Store:
        """The SQLite store in ``path``, created with the folder when missing."""
        path.mkdir(parents=True, exist_ok=True)
        return cls(database_url(path, None))

    def close(self) -> None:
        """Close every pooled connection."""
        self.engine.dispose()

    def __enter__(self) -> Store:
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
        with self._lock or contextlib.nullcontext(), self.engine.begin() as conn:
            yield conn

    # -- accounts ------------------------------------------------------------------------

    def _hash(self, password: str) -> str:
        if not password:
            raise ValueError("the password must not be empty")
        return self._hasher.hash(password)

    def add_user(self, name: str, password: str) -> None:
        """Register ``name``; ValueError if the name is invalid or taken or no password."""
        reason = name_error(name)
        if reason is not None:
            raise ValueError(f"invalid name {name!r}: {reason}")
        password_hash = self._hash(password)
        try:
            with self._begin() as conn:
                existing = conn.scalar(
                    select(users.c.name).where(users.c.name_key == name_key(name))
                )
                if existing is not None:
                    raise UserExists(str(existing))
                conn.execute(
                    insert(users).values(
                        name_key=name_key(name),
                        name=name,
                        password_hash=password_hash,
                        created=datetime.now(UTC),
                    )
                )
        except IntegrityError:  # registered by someone else in the meantime
            raise UserExists(name) from None

    def set_password(self, name: str, password: str) -> None:
        """Replace the password of ``name``."""
        password_hash = self._hash(password)
        with self._begin() as conn:
            result = conn.execute(
                update(users)
                .where(users.c.name_key == name_key(name))
                .values(password_hash=password_hash)
            )
            if result.rowcount == 0:
                raise UnknownUser(name)

    def remove_user(self, name: str) -> None:
        """Delete the account of ``name`` and everything saved for it."""
        with self._begin() as conn:
            result = conn.execute(delete(users).where(users.c.name_key == name_key(name)))
            if result.rowcount == 0:
                raise UnknownUser(name)

    def list_users(self) -> list[str]:
        """Every registered name, case kept, sorted case-insensitively."""
        with self._begin() as conn:
            names = [str(name) for name in conn.scalars(select(users.c.name))]
        return sorted(names, key=name_key)

    def check_password(self, name: str, password: str) -> bool:
        """Whether ``password`` is the password of ``name``; False for an unknown name."""
        with self._begin() as conn:
            row = conn.execute(
                select(users.c.id, users.c.password_hash).where(users.c.name_key == name_key(name))
            ).one_or_none()
        if row is None or not password:
            return False
        stored = str(row.password_hash)
        try:
            self._hasher.verify(stored, password)
        except (VerificationError, InvalidHashError):
            return False
        if self._hasher.check_needs_rehash(stored):
            with self._begin() as conn:  # unless the password was changed meanwhile
                conn.execute(
                    update(users)
                    .where(users.c.id == row.id, users.c.password_hash == stored)
                    .values(password_hash=self._hasher.hash(password))
                )
        return True

    def load(self, name: str) -> Account | None:
        """Everything saved for ``name``, or None when it is not registered."""
        with self._begin() as conn:
            row = conn.execute(
                select(users.c.id, users.c.name).where(users.c.name_key == name_key(name))
            ).one_or_none()
            if row is None:
                return None
            uid = row.id
            settings = conn.execute(
                select(user_settings.c.key, user_settings.c.value).where(
                    user_settings.c.user_id == uid
                )
            )
            channels = conn.scalars(
                select(user_channels.c.channel)
                .where(user_channels.c.user_id == uid)
                .order_by(user_channels.c.channel)
            )
            notify = conn.execute(
                select(user_notify.c.name, user_notify.c.name_key).where(
                    user_notify.c.user_id == uid
                )
            )
            aliases = conn.execute(
                select(user_aliases.c.alias, user_aliases.c.expansion).where(
                    user_aliases.c.user_id == uid
                )
            )
            return Account(
                uid=int(uid),
                name=str(row.name),
                settings={str(k): str(v) for k, v in settings},
                channels=tuple(int(c) for c in channels),
                notify=tuple(str(n) for n, _ in sorted(notify, key=lambda r: str(r.name_key))),
                aliases={str(a): str(e) for a, e in aliases},
            )

    # -- what a session saves -------------------------------------------------------------

    @staticmethod
    def _user_id(conn: Connection, name: str) -> int:
        uid = conn.scalar(select(users.c.id).where(users.c.name_key == name_key(name)))
        if uid is None:
            raise UnknownUser(name)
        return int(uid)

    def _save_pair(
        self, table: Table, columns: tuple[str, str], name: str, key: str, value: str | None
    ) -> None:
        """Set (or with None delete) one keyed text value of ``name`` in ``table``."""
        key_column, value_column = columns
        with self._begin() as conn:
            uid = self._user_id(conn, name)
            where = (table.c.user_id == uid, table.c[key_column] == key)
            if value is None:
                conn.execute(delete(table).where(*where))
                return
            result = conn.execute(update(table).where(*where).values({value_column: value}))
            if result.rowcount == 0:
                conn.execute(
                    insert(table).values(user_id=uid, **{key_column: key, value_column: value})
                )

    def save_setting(self, name: str, key: str, value: str | None) -> None:
        """Save the variable ``key`` of ``name`` (``set``); None forgets it."""
        self._save_pair(user_settings, ("key", "value"), name, key, value)

    def save_alias(self, name: str, alias: str, expansion: str | None) -> None:
        """Save the alias ``alias`` of ``name``; None removes it."""
        self._save_pair(user_aliases, ("alias", "expansion"), name, alias, expansion)

    def add_channel(self, name: str, channel: int) -> bool:
        """Put ``name`` in ``channel``; False when it already was."""
        with self._begin() as conn:
            uid = self._user_id(conn, name)
            found = conn.scalar(
                select(user_channels.c.channel).where(
                    user_channels.c.user_id == uid, user_channels.c.channel == channel
                )
            )
            if found is not None:
                return False
            conn.execute(insert(user_channels).values(user_id=uid, channel=channel))
            return True

    def remove_channel(self, name: str, channel: int) -> bool:
        """Take ``name`` out of ``channel``; False when it was not in it."""
        with self._begin() as conn:
            uid = self._user_id(conn, name)
            result = conn.execute(
                delete(user_channels).where(
                    user_channels.c.user_id == uid, user_channels.c.channel == channel
                )
            )
            return result.rowcount > 0

    def add_notify(self, name: str, other: str) -> bool:
        """Put ``other`` on the notify list of ``name``; False when it already was there.

        ValueError if ``other`` is not a valid name.
        """
        reason = name_error(other)
        if reason is not None:
            raise ValueError(f"invalid name {other!r}: {reason}")
        with self._begin() as conn:
            uid = self._user_id(conn, name)
            found = conn.scalar(
                select(user_notify.c.name).where(
                    user_notify.c.user_id == uid, user_notify.c.name_key == name_key(other)
                )
            )
            if found is not None:
                return False
            conn.execute(
                insert(user_notify).values(user_id=uid, name=other, name_key=name_key(other))
            )
            return True

    def remove_notify(self, name: str, other: str) -> bool:
        """Take ``other`` (any case) off the notify list of ``name``; False if not there."""
        with self._begin() as conn:
            uid = self._user_id(conn, name)
            result = conn.execute(
                delete(user_notify).where(
                    user_notify.c.user_id == uid, user_notify.c.name_key == name_key(other)
                )
            )
            return result.rowcount > 0
