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
import functools
import threading
from collections.abc import Collection, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from types import TracebackType
from typing import Any, NamedTuple

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import (
    Boolean,
    Column,
    Connection,
    DateTime,
    Dialect,
    Double,
    ForeignKey,
    Integer,
    MetaData,
    PrimaryKeyConstraint,
    Row,
    String,
    Table,
    Text,
    TypeDecorator,
    bindparam,
    create_engine,
    delete,
    event,
    func,
    insert,
    inspect,
    make_url,
    or_,
    select,
    text,
    update,
)
from sqlalchemy.exc import DBAPIError, DisconnectionError, IntegrityError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout
from sqlalchemy.pool import StaticPool

from icswire.protocol.codes import AbortMode, AdjournMode, ResultStatus
from icswire.server.core.model.names import NAME_MAX, name_error, name_key
from icswire.server.core.model.ratings import PROVISIONAL_GAMES, RATING_TYPES, Glicko
from icswire.server.core.storage.records import GameRecord, RatingChange, RatingRecord

__all__ = [
    "DEFAULT_DATABASE",
    "PERSONAL_LISTS",
    "SERVER_LISTS",
    "SQLITE_FILE",
    "Account",
    "Ban",
    "NewsItem",
    "Store",
    "StoreUnavailable",
    "StoredMessage",
    "UnknownUser",
    "UserExists",
    "admins",
    "bans",
    "database_url",
    "metadata",
    "news",
    "server_lists",
    "user_aliases",
    "user_channels",
    "user_lists",
    "user_messages",
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

PERSONAL_LISTS = ("censor", "gnotify", "noplay")
"""The personal lists of names kept in :data:`user_lists` (FICS's ``addlist``); the notify
list and the channels have their own tables."""

user_lists = Table(
    "user_lists",
    metadata,
    _user_id_column(),
    Column("list", String(16), nullable=False),
    Column("name", String(NAME_MAX), nullable=False),
    Column("name_key", String(NAME_MAX), nullable=False),
    PrimaryKeyConstraint("user_id", "list", "name_key"),
)
"""Who is on each user's censor, gnotify and noplay list: the name as added."""

SERVER_LISTS = ("td",)
"""The server's own lists of registered users kept in :data:`server_lists`: ``td``, the
tournament directors' programs that may ``qtell``."""

server_lists = Table(
    "server_lists",
    metadata,
    Column("list", String(16), nullable=False),
    _user_id_column(),
    PrimaryKeyConstraint("list", "user_id"),
)
"""Who is on each of the server's lists (:data:`SERVER_LISTS`), set from the shell."""

user_messages = Table(
    "user_messages",
    metadata,
    Column("id", Integer, primary_key=True),
    Column(
        "user_id",
        Integer,
        ForeignKey("users.id", ondelete="CASCADE"),
        nullable=False,
        index=True,
    ),
    Column("sender", String(NAME_MAX), nullable=False),
    Column("sender_key", String(NAME_MAX), nullable=False),
    Column("sent", UTCDateTime, nullable=False),
    Column("text", Text, nullable=False),
    Column("unread", Boolean, nullable=False),
)
"""Messages (FICS's ``message``) to a registered user, in the order they were sent."""

user_aliases = Table(
    "user_aliases",
    metadata,
    _user_id_column(),
    Column("alias", Text, nullable=False),
    Column("expansion", Text, nullable=False),
    PrimaryKeyConstraint("user_id", "alias"),
)

admins = Table(
    "admins",
    metadata,
    Column("user_id", Integer, ForeignKey("users.id", ondelete="CASCADE"), primary_key=True),
)
"""The accounts with the administrator flag (``icswire user admin``, ``asetadmin``)."""

bans = Table(
    "bans",
    metadata,
    Column("name_key", String(NAME_MAX), primary_key=True),
    Column("name", String(NAME_MAX), nullable=False),
    Column("banned_by", String(NAME_MAX), nullable=False),
    Column("created", UTCDateTime, nullable=False),
)
"""Names that may not log in (``+ban``), registered or not, whatever their case."""

news = Table(
    "news",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("title", Text, nullable=False),
    Column("body", Text, nullable=False),
    Column("author", String(NAME_MAX), nullable=False),
    Column("posted", UTCDateTime, nullable=False),
)
"""The server's news items (``cnewsi``): a title, and a text of lines joined by newlines."""


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


class StoreUnavailable(Exception):
    """The database did not answer: it is locked, stopped, unreachable or out of space.

    The same call may succeed later; nothing was written by it. Every other error of a
    :class:`Store` method (an unknown name, a bad value) would fail again the same way.
    """


def unavailable(exc: BaseException) -> bool:
    """Whether ``exc``, raised by SQLAlchemy, means the database is not answering now
    rather than that the call is wrong: SQLite's "database is locked", "database or disk is
    full" and I/O errors, PostgreSQL's refused or lost connections, shutdowns and full disks
    (all operational errors), a lost connection, an exhausted pool."""
    if isinstance(exc, OperationalError | DisconnectionError | PoolTimeout):
        return True
    return isinstance(exc, DBAPIError) and exc.connection_invalidated


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
    admin: bool = False
    """Whether the account has the administrator flag."""
    lists: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """The :data:`PERSONAL_LISTS` that are not empty, each sorted case-insensitively."""


@dataclass(frozen=True, slots=True)
class Ban:
    """A name on the ban list: who put it there, and when."""

    name: str
    banned_by: str
    created: datetime


@dataclass(frozen=True, slots=True)
class NewsItem:
    """One news item: its number, title, text lines, author and date."""

    id: int
    title: str
    lines: tuple[str, ...]
    author: str
    posted: datetime


@dataclass(frozen=True, slots=True)
class StoredMessage:
    """One message to a user: ``number`` is its place in the user's list (from 1)."""

    id: int
    number: int
    sender: str
    sent: datetime
    text: str
    unread: bool


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


class Store:
    """Accounts, settings, channels, notify lists and aliases in one database.

    Names are looked up case-insensitively (:func:`~icswire.server.core.model.names.name_key`);
    methods that need an account raise :class:`UnknownUser` when there is none. Any method
    raises :class:`StoreUnavailable` when the database does not answer (SQLite waits
    ``busy_timeout`` seconds for another writer first); the call may then be made again.
    """

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
        self._hasher = PasswordHasher()
        try:
            with self._begin() as conn:
                metadata.create_all(conn)
                _add_variant_column(conn)
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
            admin = conn.scalar(select(admins.c.user_id).where(admins.c.user_id == uid))
            listed: dict[str, list[tuple[str, str]]] = {}
            for which, member, key in conn.execute(
                select(user_lists.c.list, user_lists.c.name, user_lists.c.name_key).where(
                    user_lists.c.user_id == uid
                )
            ):
                listed.setdefault(str(which), []).append((str(key), str(member)))
            return Account(
                uid=int(uid),
                name=str(row.name),
                settings={str(k): str(v) for k, v in settings},
                channels=tuple(int(c) for c in channels),
                notify=tuple(str(n) for n, _ in sorted(notify, key=lambda r: str(r.name_key))),
                aliases={str(a): str(e) for a, e in aliases},
                admin=admin is not None,
                lists={k: tuple(m for _, m in sorted(v)) for k, v in sorted(listed.items())},
            )

    # -- administrators, bans and news ------------------------------------------------------

    def set_admin(self, name: str, admin: bool) -> bool:
        """Give ``name`` the administrator flag or take it away; False when it already was
        so. UnknownUser for a name that is not registered."""
        with self._begin() as conn:
            uid = self._user_id(conn, name)
            found = conn.scalar(select(admins.c.user_id).where(admins.c.user_id == uid))
            if (found is not None) == admin:
                return False
            if admin:
                conn.execute(insert(admins).values(user_id=uid))
            else:
                conn.execute(delete(admins).where(admins.c.user_id == uid))
            return True

    def list_admins(self) -> list[str]:
        """The names of the administrators, sorted case-insensitively."""
        with self._begin() as conn:
            names = conn.scalars(
                select(users.c.name).join(admins, admins.c.user_id == users.c.id)
            ).all()
        return sorted((str(name) for name in names), key=name_key)

    def ban(self, name: str, banned_by: str) -> bool:
        """Put ``name`` on the ban list; False when it already was there. ValueError if it
        is not a valid name."""
        reason = name_error(name)
        if reason is not None:
            raise ValueError(f"invalid name {name!r}: {reason}")
        try:
            with self._begin() as conn:
                if conn.scalar(select(bans.c.name).where(bans.c.name_key == name_key(name))):
                    return False
                conn.execute(
                    insert(bans).values(
                        name_key=name_key(name),
                        name=name,
                        banned_by=banned_by,
                        created=datetime.now(UTC),
                    )
                )
        except IntegrityError:  # banned by another admin in the meantime
            return False
        return True

    def unban(self, name: str) -> bool:
        """Take ``name`` off the ban list; False when it was not there."""
        with self._begin() as conn:
            result = conn.execute(delete(bans).where(bans.c.name_key == name_key(name)))
            return result.rowcount > 0

    def is_banned(self, name: str) -> bool:
        with self._begin() as conn:
            found = conn.scalar(select(bans.c.name).where(bans.c.name_key == name_key(name)))
        return found is not None

    def list_bans(self) -> list[Ban]:
        """The ban list, sorted by name case-insensitively."""
        with self._begin() as conn:
            rows = conn.execute(select(bans).order_by(bans.c.name_key)).all()
        return [Ban(str(row.name), str(row.banned_by), row.created) for row in rows]

    def add_news(self, title: str, author: str) -> int:
        """Post a news item with ``title`` (and no text yet); its number."""
        if not title.strip():
            raise ValueError("a news item needs a title")
        with self._begin() as conn:
            number = conn.scalar(
                insert(news)
                .values(title=title, body="", author=author, posted=datetime.now(UTC))
                .returning(news.c.id)
            )
        if number is None:
            raise RuntimeError("number is None")
        return int(number)

    def news_items(self, limit: int | None = None) -> list[NewsItem]:
        """The last ``limit`` news items (every one with None), newest first."""
        query = select(news).order_by(news.c.id.desc()).limit(limit)
        with self._begin() as conn:
            rows = conn.execute(query).all()
        return [_news_item(row) for row in rows]

    def news_count(self) -> int:
        with self._begin() as conn:
            return int(conn.scalar(select(func.count()).select_from(news)) or 0)

    def news_item(self, number: int) -> NewsItem | None:
        with self._begin() as conn:
            row = conn.execute(select(news).where(news.c.id == number)).one_or_none()
        return None if row is None else _news_item(row)

    def edit_news(
        self, number: int, title: str | None = None, line: str | None = None, clear: bool = False
    ) -> bool:
        """Change news item ``number``: a new ``title``, its text cleared, ``line`` added to
        its text. False when there is no such item."""
        with self._begin() as conn:
            row = conn.execute(
                select(news.c.body).where(news.c.id == number).with_for_update()
            ).one_or_none()
            if row is None:
                return False
            values: dict[str, str] = {}
            if title is not None:
                values["title"] = title
            body = "" if clear else str(row.body)
            if line is not None:
                body = f"{body}\n{line}" if body else line
            if clear or line is not None:
                values["body"] = body
            if values:
                conn.execute(update(news).where(news.c.id == number).values(values))
            return True

    def remove_news(self, number: int) -> bool:
        """Delete news item ``number``; False when there is none."""
        with self._begin() as conn:
            result = conn.execute(delete(news).where(news.c.id == number))
            return result.rowcount > 0

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

    def add_to_list(self, name: str, which: str, other: str) -> bool:
        """Put ``other`` on the personal list ``which`` (:data:`PERSONAL_LISTS`) of
        ``name``; False when it already was there. ValueError for another list or an
        invalid name."""
        _check_list(which)
        reason = name_error(other)
        if reason is not None:
            raise ValueError(f"invalid name {other!r}: {reason}")
        with self._begin() as conn:
            uid = self._user_id(conn, name)
            where = (
                user_lists.c.user_id == uid,
                user_lists.c.list == which,
                user_lists.c.name_key == name_key(other),
            )
            if conn.scalar(select(user_lists.c.name).where(*where)) is not None:
                return False
            conn.execute(
                insert(user_lists).values(
                    user_id=uid, list=which, name=other, name_key=name_key(other)
                )
            )
            return True

    def remove_from_list(self, name: str, which: str, other: str) -> bool:
        """Take ``other`` (any case) off the list ``which`` of ``name``; False if not there."""
        _check_list(which)
        with self._begin() as conn:
            uid = self._user_id(conn, name)
            result = conn.execute(
                delete(user_lists).where(
                    user_lists.c.user_id == uid,
                    user_lists.c.list == which,
                    user_lists.c.name_key == name_key(other),
                )
            )
            return result.rowcount > 0

    def set_on_server_list(self, which: str, name: str, on: bool) -> bool:
        """Put the registered ``name`` on the server's list ``which`` (or off it with
        ``on`` False); False when that changed nothing."""
        if which not in SERVER_LISTS:
            raise ValueError(f"unknown list {which!r}; one of {SERVER_LISTS}")
        with self._begin() as conn:
            uid = self._user_id(conn, name)
            where = (server_lists.c.list == which, server_lists.c.user_id == uid)
            found = conn.scalar(select(server_lists.c.user_id).where(*where)) is not None
            if found == on:
                return False
            if on:
                conn.execute(insert(server_lists).values(list=which, user_id=uid))
            else:
                conn.execute(delete(server_lists).where(*where))
            return True

    def server_list(self, which: str) -> list[str]:
        """The names on the server's list ``which``, sorted case-insensitively."""
        with self._begin() as conn:
            names = conn.scalars(
                select(users.c.name)
                .join(server_lists, server_lists.c.user_id == users.c.id)
                .where(server_lists.c.list == which)
            )
            return sorted((str(n) for n in names), key=name_key)

    # -- messages ---------------------------------------------------------------------------

    def message_target(self, name: str, sender: str) -> tuple[str, bool] | None:
        """Whom a message to ``name`` goes to: the registered name and whether its censor
        list holds ``sender``; None when ``name`` is not registered."""
        with self._begin() as conn:
            row = conn.execute(
                select(users.c.id, users.c.name).where(users.c.name_key == name_key(name))
            ).one_or_none()
            if row is None:
                return None
            censored = conn.scalar(
                select(user_lists.c.name).where(
                    user_lists.c.user_id == row.id,
                    user_lists.c.list == "censor",
                    user_lists.c.name_key == name_key(sender),
                )
            )
        return str(row.name), censored is not None

    def send_message(self, sender: str, receiver: str, text: str, sent: datetime) -> None:
        """Keep a message from ``sender`` to the registered ``receiver`` (unread)."""
        with self._begin() as conn:
            uid = self._user_id(conn, receiver)
            conn.execute(
                insert(user_messages).values(
                    user_id=uid,
                    sender=sender,
                    sender_key=name_key(sender),
                    sent=sent,
                    text=text,
                    unread=True,
                )
            )

    def messages(self, name: str) -> list[StoredMessage]:
        """Every message to ``name``, oldest first, numbered from 1 (none when ``name`` is
        not registered)."""
        with self._begin() as conn:
            rows = conn.execute(
                select(user_messages)
                .join(users, users.c.id == user_messages.c.user_id)
                .where(users.c.name_key == name_key(name))
                .order_by(user_messages.c.id)
            ).all()
        return [
            StoredMessage(
                int(row.id), number, str(row.sender), row.sent, str(row.text), bool(row.unread)
            )
            for number, row in enumerate(rows, start=1)
        ]

    def messages_sent(self, sender: str, receiver: str) -> list[StoredMessage]:
        """The messages ``sender`` left ``receiver`` that are still kept, numbered as in the
        receiver's list."""
        return [m for m in self.messages(receiver) if name_key(m.sender) == name_key(sender)]

    def mark_messages_read(self, name: str, ids: Sequence[int]) -> None:
        """The messages ``ids`` of ``name`` have been read."""
        with self._begin() as conn:
            uid = self._user_id(conn, name)
            conn.execute(
                update(user_messages)
                .where(user_messages.c.user_id == uid, user_messages.c.id.in_(list(ids)))
                .values(unread=False)
            )

    def clear_messages(self, name: str, ids: Sequence[int]) -> None:
        """Delete the messages ``ids`` of ``name``."""
        with self._begin() as conn:
            uid = self._user_id(conn, name)
            conn.execute(
                delete(user_messages).where(
                    user_messages.c.user_id == uid, user_messages.c.id.in_(list(ids))
                )
            )

    # -- games ------------------------------------------------------------------------------

    def start_game(self, record: GameRecord, resumes: int | None = None) -> int:
        """Store a game that begins now and return its id.

        The row is in progress whatever ``record`` says of its end: status, mode, color and
        ended None, score ``*``. The record's moves (a resumed game's, say) are kept. With
        ``resumes``, the adjourned game of that id is marked resumed in the same
        transaction (:meth:`resume_done`): both happen or neither.
        """
        now = datetime.now(UTC)
        with self._begin() as conn:
            game_id = conn.scalar(
                insert(games)
                .values(
                    white=record.white,
                    white_key=name_key(record.white),
                    black=record.black,
                    black_key=name_key(record.black),
                    white_rating=record.white_rating,
                    black_rating=record.black_rating,
                    wild=record.wild,
                    variant=record.variant,
                    rating_type=record.rating_type,
                    rated=record.rated,
                    initial=record.initial,
                    increment=record.increment,
                    start_fen=record.start_fen,
                    moves=_join_moves(record.moves),
                    clocks=_join_ints(record.clocks),
                    times=_join_ints(record.times),
                    status=None,
                    mode=None,
                    color=None,
                    score="*",
                    eco=record.eco,
                    white_clock=record.white_clock,
                    black_clock=record.black_clock,
                    started=record.started,
                    updated=now,
                    ended=None,
                    resumed=None,
                )
                .returning(games.c.id)
            )
            if resumes is not None:
                self._resume_done(conn, resumes, now)
        if game_id is None:
            raise RuntimeError("game_id is None")
        return int(game_id)

    def save_progress(
        self,
        game_id: int,
        moves: Sequence[str],
        clocks: Sequence[int],
        times: Sequence[int],
        white_clock: int,
        black_clock: int,
    ) -> None:
        """Save the moves so far of a game in progress (after every move: it survives a crash).

        Raises :class:`UnknownGame` when there is no game ``game_id``.
        """
        texts = _join_moves(moves), _join_ints(clocks), _join_ints(times)
        progress = Progress(game_id, *texts, white_clock, black_clock)
        if self.save_progress_many([progress]):
            raise UnknownGame(game_id)

    def save_progress_many(self, saves: Sequence[Progress]) -> list[int]:
        """Save the progress of several games in one transaction (the write queue gathers
        the saves that wait together); the ids of games that do not exist are returned and
        the others saved. One statement, executed once for all of them."""
        if not saves:
            return []
        now = datetime.now(UTC)
        rows = [
            {
                "p_id": save.game_id,
                "p_moves": save.moves,
                "p_clocks": save.clocks,
                "p_times": save.times,
                "p_white_clock": save.white_clock,
                "p_black_clock": save.black_clock,
                "p_updated": now,
            }
            for save in saves
        ]
        with self._begin() as conn:
            result = conn.execute(_SAVE_PROGRESS, rows)
            if conn.dialect.supports_sane_multi_rowcount and result.rowcount == len(rows):
                return []
            ids = [save.game_id for save in saves]
            found = set(conn.scalars(select(games.c.id).where(games.c.id.in_(ids))))
        return [game_id for game_id in ids if game_id not in found]

    def seat_players(
        self, game_id: int, white: str, black: str, white_rating: int, black_rating: int
    ) -> None:
        """Who plays which colour in game ``game_id`` (after ``switch``, FICS help
        ``switch``); setting the same again changes nothing.

        Raises :class:`UnknownGame` when there is no game ``game_id``.
        """
        values = {
            "white": white,
            "white_key": name_key(white),
            "black": black,
            "black_key": name_key(black),
            "white_rating": white_rating,
            "black_rating": black_rating,
            "updated": datetime.now(UTC),
        }
        with self._begin() as conn:
            result = conn.execute(update(games).where(games.c.id == game_id).values(values))
            if result.rowcount == 0:
                raise UnknownGame(game_id)

    def finish_game(
        self,
        game_id: int,
        status: int,
        mode: int,
        color: int | None,
        score: str,
        eco: str,
        white_clock: int,
        black_clock: int,
        *,
        final: GameRecord | None = None,
        rate: bool = False,
    ) -> tuple[RatingChange, ...]:
        """Record how game ``game_id`` ended (or was adjourned, status 2); ended is now.

        ``final`` gives the moves, clocks and times to store with the end (the game's last
        progress need not have been saved). With ``rate``, a win or a draw between two
        registered players also updates both players' ratings of the game's rating type
        (Glicko-2, from the ratings stored when this runs); the result and the ratings are
        one transaction. Returns the rating changes, White's first (none when unrated).

        A game that has already ended is left as it is, and nothing is rated again: a call
        made again after the database lost its answer (it did commit) changes nothing.
        Raises :class:`UnknownGame` when there is no game ``game_id``.
        """
        now = datetime.now(UTC)
        values: dict[str, Any] = {
            "status": status,
            "mode": mode,
            "color": color,
            "score": score,
            "eco": eco,
            "white_clock": white_clock,
            "black_clock": black_clock,
            "updated": now,
            "ended": now,
        }
        if final is not None:
            values["moves"] = _join_moves(final.moves)
            values["clocks"] = _join_ints(final.clocks)
            values["times"] = _join_ints(final.times)
        with self._begin() as conn:
            row = conn.execute(
                select(games.c.status, games.c.white, games.c.black, games.c.rating_type)
                .where(games.c.id == game_id)
                .with_for_update()
            ).one_or_none()
            if row is None:
                raise UnknownGame(game_id)
            if row.status is not None:
                return ()
            conn.execute(update(games).where(games.c.id == game_id).values(values))
            if not rate or status not in (ResultStatus.WIN, ResultStatus.DRAW):
                return ()
            white_score = 0.5 if status == ResultStatus.DRAW else float(color == 0)
            return self._rate(conn, str(row.white), str(row.black), row.rating_type, white_score)

    def _rate(
        self, conn: Connection, white: str, black: str, rating_type: str, white_score: float
    ) -> tuple[RatingChange, ...]:
        """Both players' ratings after one game (White scored ``white_score``), saved; none
        unless both are registered. The players' rows are locked first (PostgreSQL), so two
        updates of one rating never both read the value before the other."""
        keys = [name_key(white), name_key(black)]
        accounts = {
            str(row.name_key): row
            for row in conn.execute(
                select(users.c.id, users.c.name, users.c.name_key)
                .where(users.c.name_key.in_(keys))
                .order_by(users.c.id)
                .with_for_update()
            )
        }
        if not all(key in accounts for key in keys):
            return ()
        before = []
        for key in keys:
            account = accounts[key]
            row = conn.execute(
                select(*_RATING_VALUES).where(
                    ratings.c.user_id == account.id, ratings.c.rating_type == rating_type
                )
            ).one_or_none()
            shown = str(account.name)
            if row is None:
                before.append(_new_rating(shown, rating_type))
            else:
                before.append(_rating_record(shown, rating_type, row))
        scores = (white_score, 1.0 - white_score)
        changes = []
        for index, key in enumerate(keys):
            mine, theirs = before[index], before[1 - index]
            after = mine.played(theirs.glicko, scores[index])
            self._write_rating(conn, int(accounts[key].id), after)
            changes.append(RatingChange(mine, after))
        return tuple(changes)

    def game(self, game_id: int) -> GameRecord | None:
        """The game ``game_id`` as stored, or None."""
        with self._begin() as conn:
            row = conn.execute(select(games).where(games.c.id == game_id)).one_or_none()
        return None if row is None else _game_record(row)

    def history(self, name: str, limit: int = 10) -> list[GameRecord]:
        """The last ``limit`` finished games of ``name`` (won or drawn), newest last.

        Adjourned games are not history (see :meth:`adjourned`), nor are aborted ones
        (FICS's history lists neither).
        """
        key = name_key(name)
        query = (
            select(games)
            .where(
                or_(games.c.white_key == key, games.c.black_key == key),
                games.c.status.in_(_FINISHED),
            )
            .order_by(games.c.ended.desc(), games.c.id.desc())
            .limit(limit)
        )
        with self._begin() as conn:
            rows = conn.execute(query).all()
        return [_game_record(row) for row in reversed(rows)]

    def adjourned(self, name: str) -> list[GameRecord]:
        """The adjourned games of ``name`` not resumed yet, oldest first."""
        key = name_key(name)
        query = (
            select(games)
            .where(
                or_(games.c.white_key == key, games.c.black_key == key),
                games.c.status == ResultStatus.ADJOURNED,
                games.c.resumed.is_(None),
            )
            .order_by(games.c.id)
        )
        with self._begin() as conn:
            rows = conn.execute(query).all()
        return [_game_record(row) for row in rows]

    def interrupted_to_adjourned(self, ids: Collection[int] | None = None) -> int:
        """Adjourn every game left in progress by a crash or a stop (only the games
        ``ids``, when given: those of a cluster's node that died); how many there were.

        For the server's start: such a game gets status 2, mode 2 ("adjourned by system
        shutdown"), color 0, score ``*``, and ended at the last time it was saved. A
        bughouse board (wild 24) cannot go on without its partner board: it is aborted
        instead (status 3, mode 2, "aborted by system shutdown").
        """
        in_progress: Any = games.c.status.is_(None)
        if ids is not None:
            in_progress = in_progress & games.c.id.in_(list(ids))
        with self._begin() as conn:
            aborted = conn.execute(
                update(games)
                .where(in_progress, games.c.wild == BUGHOUSE_WILD)
                .values(
                    status=ResultStatus.ABORTED,
                    mode=AbortMode.SHUTDOWN,
                    color=0,
                    score="*",
                    ended=games.c.updated,
                )
            )
            result = conn.execute(
                update(games)
                .where(in_progress)
                .values(
                    status=ResultStatus.ADJOURNED,
                    mode=ADJOURNED_BY_SHUTDOWN,
                    color=0,
                    score="*",
                    ended=games.c.updated,
                )
            )
            return int(aborted.rowcount) + int(result.rowcount)

    def resume_done(self, game_id: int) -> None:
        """Mark the adjourned game ``game_id`` as resumed: :meth:`adjourned` lists it no more.

        The row is kept, unchanged but for its ``resumed`` time, so :meth:`game` still finds
        it: the game goes on as a new game (:meth:`start_game` with its moves so far, which
        does this too with ``resumes``). No-op for a game that is not adjourned.
        """
        with self._begin() as conn:
            self._resume_done(conn, game_id, datetime.now(UTC))

    @staticmethod
    def _resume_done(conn: Connection, game_id: int, now: datetime) -> None:
        conn.execute(
            update(games)
            .where(
                games.c.id == game_id,
                games.c.status == ResultStatus.ADJOURNED,
                games.c.resumed.is_(None),
            )
            .values(resumed=now)
        )

    # -- ratings ----------------------------------------------------------------------------

    def rating(self, name: str, rating_type: str) -> RatingRecord:
        """The ``rating_type`` rating of ``name``; a new player's rating (Glicko(), no games)
        when it has none or is not registered. ValueError for an unknown rating type.
        """
        _check_rating_type(rating_type)
        with self._begin() as conn:
            row = conn.execute(
                select(users.c.name, *_RATING_VALUES)
                .select_from(users)
                .outerjoin(
                    ratings,
                    (ratings.c.user_id == users.c.id) & (ratings.c.rating_type == rating_type),
                )
                .where(users.c.name_key == name_key(name))
            ).one_or_none()
        if row is None:
            return _new_rating(name, rating_type)
        if row.rating is None:
            return _new_rating(str(row.name), rating_type)
        return _rating_record(str(row.name), rating_type, row)

    def ratings(self, name: str) -> dict[str, RatingRecord]:
        """Every rating of ``name`` by rating type, in :data:`RATING_TYPES` order (defaults
        for the types it has not played, or for every type when it is not registered)."""
        with self._begin() as conn:
            account = conn.execute(
                select(users.c.id, users.c.name).where(users.c.name_key == name_key(name))
            ).one_or_none()
            rows = (
                []
                if account is None
                else conn.execute(
                    select(ratings.c.rating_type, *_RATING_VALUES).where(
                        ratings.c.user_id == account.id
                    )
                ).all()
            )
        shown = name if account is None else str(account.name)
        stored = {str(row.rating_type): _rating_record(shown, row.rating_type, row) for row in rows}
        return {kind: stored.get(kind) or _new_rating(shown, kind) for kind in RATING_TYPES}

    def save_rating(self, record: RatingRecord) -> None:
        """Save one rating of a registered user; nothing happens for an unknown name."""
        _check_rating_type(record.rating_type)
        for attempt in range(2):
            try:
                with self._begin() as conn:
                    uid = conn.scalar(
                        select(users.c.id).where(users.c.name_key == name_key(record.name))
                    )
                    if uid is None:
                        return
                    self._write_rating(conn, int(uid), record)
                return
            except IntegrityError:  # inserted by another thread meanwhile: update it now
                if attempt:
                    raise

    @staticmethod
    def _write_rating(conn: Connection, uid: int, record: RatingRecord) -> None:
        values = {
            "rating": record.glicko.rating,
            "deviation": record.glicko.deviation,
            "volatility": record.glicko.volatility,
            "games": record.games,
            "wins": record.wins,
            "losses": record.losses,
            "draws": record.draws,
        }
        where = (ratings.c.user_id == uid, ratings.c.rating_type == record.rating_type)
        result = conn.execute(update(ratings).where(*where).values(values))
        if result.rowcount == 0:
            conn.execute(
                insert(ratings).values(user_id=uid, rating_type=record.rating_type, **values)
            )
        if record.games >= PROVISIONAL_GAMES:
            Store._write_best(conn, uid, record.rating_type, round(record.glicko.rating))

    @staticmethod
    def _write_best(conn: Connection, uid: int, rating_type: str, rating: int) -> None:
        """Keep ``rating`` as the best of an established rating when it beats the best so
        far (FICS shows the best only once a rating is established)."""
        where = (best_ratings.c.user_id == uid, best_ratings.c.rating_type == rating_type)
        best = conn.scalar(select(best_ratings.c.best).where(*where))
        now = datetime.now(UTC)
        if best is None:
            conn.execute(
                insert(best_ratings).values(
                    user_id=uid, rating_type=rating_type, best=rating, achieved=now
                )
            )
        elif rating > int(best):
            conn.execute(update(best_ratings).where(*where).values(best=rating, achieved=now))

    def best_ratings(self, name: str) -> dict[str, tuple[int, datetime]]:
        """The best established rating of ``name`` per rating type, with when it was made."""
        with self._begin() as conn:
            rows = conn.execute(
                select(best_ratings.c.rating_type, best_ratings.c.best, best_ratings.c.achieved)
                .select_from(best_ratings.join(users, users.c.id == best_ratings.c.user_id))
                .where(users.c.name_key == name_key(name))
            ).all()
        return {str(row.rating_type): (int(row.best), row.achieved) for row in rows}

    def ranking(self, rating_type: str) -> list[tuple[str, int, int]]:
        """Every registered player with a ``rating_type`` rating: (name, rating, games),
        best first (ties by name), as ``best`` and ``rank`` list them."""
        _check_rating_type(rating_type)
        with self._begin() as conn:
            rows = conn.execute(
                select(users.c.name, users.c.name_key, ratings.c.rating, ratings.c.games)
                .select_from(ratings.join(users, users.c.id == ratings.c.user_id))
                .where(ratings.c.rating_type == rating_type, ratings.c.games > 0)
            ).all()
        ranked = sorted(rows, key=lambda row: (-round(row.rating), str(row.name_key)))
        return [(str(row.name), round(row.rating), int(row.games)) for row in ranked]

    # -- presence ---------------------------------------------------------------------------

    def save_logout(self, name: str, when: datetime) -> None:
        """Keep when ``name`` last disconnected (``finger`` of a player not logged in)."""
        with self._begin() as conn:
            uid = self._user_id(conn, name)
            where = user_presence.c.user_id == uid
            result = conn.execute(update(user_presence).where(where).values(last_logout=when))
            if result.rowcount == 0:
                conn.execute(insert(user_presence).values(user_id=uid, last_logout=when))

    def last_logout(self, name: str) -> datetime | None:
        """When ``name`` last disconnected; None if never (or not registered)."""
        with self._begin() as conn:
            found = conn.scalar(
                select(user_presence.c.last_logout)
                .select_from(user_presence.join(users, users.c.id == user_presence.c.user_id))
                .where(users.c.name_key == name_key(name))
            )
        return found if isinstance(found, datetime) else None

    # -- journals ---------------------------------------------------------------------------

    def journal(self, name: str) -> list[tuple[str, GameRecord]]:
        """The games saved in the journal of ``name``: (slot letter, game), by slot."""
        with self._begin() as conn:
            rows = conn.execute(
                select(journal_games.c.slot, games)
                .select_from(
                    journal_games.join(users, users.c.id == journal_games.c.user_id).join(
                        games, games.c.id == journal_games.c.game_id
                    )
                )
                .where(users.c.name_key == name_key(name))
                .order_by(journal_games.c.slot)
            ).all()
        return [(str(row.slot), _game_record(row)) for row in rows]

    def journal_save(self, name: str, slot: str, game_id: int) -> None:
        """Put the stored game ``game_id`` in journal slot ``slot`` (a-z) of ``name``,
        replacing what the slot held."""
        if len(slot) != 1 or not "a" <= slot <= "z":
            raise ValueError(f"a journal slot is a letter a-z, not {slot!r}")
        with self._begin() as conn:
            uid = self._user_id(conn, name)
            where = (journal_games.c.user_id == uid, journal_games.c.slot == slot)
            result = conn.execute(update(journal_games).where(*where).values(game_id=game_id))
            if result.rowcount == 0:
                conn.execute(insert(journal_games).values(user_id=uid, slot=slot, game_id=game_id))

    def journal_kill(self, name: str, slot: str) -> bool:
        """Empty journal slot ``slot`` of ``name``; False when it held nothing."""
        with self._begin() as conn:
            uid = self._user_id(conn, name)
            result = conn.execute(
                delete(journal_games).where(
                    journal_games.c.user_id == uid, journal_games.c.slot == slot
                )
            )
            return result.rowcount > 0


class Progress(NamedTuple):
    """A game in progress as it is saved after a move: its moves, clocks and times as the
    games table keeps them (:class:`MoveTexts`), and the clocks now
    (:meth:`Store.save_progress_many`)."""

    game_id: int
    moves: str
    clocks: str
    times: str
    white_clock: int
    black_clock: int


class MoveTexts:
    """A game's moves, clocks and times as the games table keeps them (blank-separated
    words), brought up to date with the game's moves as they are played: a save after a
    move appends one word to each, not the whole game joined again (which grew with every
    ply). Moves taken back, or replaced, make it join them all once more."""

    __slots__ = ("_count", "_last", "clocks", "moves", "times")

    def __init__(self) -> None:
        self.moves = self.clocks = self.times = ""
        self._count = 0
        self._last: object = None  # the last move counted, to see a takeback

    def follow(self, played: Sequence[Any]) -> None:
        """Bring the texts up to ``played`` (objects with ``san``, ``clock_ms`` and
        ``time_ms``), which is the list they followed with moves added, or anything else
        (then they are made again)."""
        count = self._count
        if count > len(played) or (count and played[count - 1] is not self._last):
            count = 0  # taken back or replaced: made again
        if count == self._count == len(played):
            return
        added = played[count:]
        moves = _join_moves([move.san for move in added])
        clocks = _join_ints([move.clock_ms for move in added])
        times = _join_ints([move.time_ms for move in added])
        if count:
            moves, clocks, times = (
                f"{self.moves} {moves}",
                f"{self.clocks} {clocks}",
                f"{self.times} {times}",
            )
        self.moves, self.clocks, self.times = moves, clocks, times
        self._count, self._last = len(played), played[-1] if played else None


class UnknownGame(LookupError):
    """No stored game has this id."""

    def __init__(self, game_id: int) -> None:
        super().__init__(f"no such game: {game_id}")
        self.game_id = game_id


ADJOURNED_BY_SHUTDOWN = AdjournMode.SHUTDOWN
"""The DG_GAMELIST_ITEM mode of status 2 (adjourned) for "Game adjourned by system shutdown"."""
BUGHOUSE_WILD = 24
"""Bughouse's wild number (its boards are aborted, never adjourned, by a shutdown)."""

_FINISHED = (ResultStatus.WIN, ResultStatus.DRAW)

games = Table(
    "games",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("white", Text, nullable=False),
    Column("white_key", Text, nullable=False, index=True),
    Column("black", Text, nullable=False),
    Column("black_key", Text, nullable=False, index=True),
    Column("white_rating", Integer, nullable=False),
    Column("black_rating", Integer, nullable=False),
    Column("wild", Integer, nullable=False),
    Column("variant", String(32), nullable=True),  # None: the variant of ``wild``
    Column("rating_type", String(32), nullable=False),
    Column("rated", Boolean, nullable=False),
    Column("initial", Integer, nullable=False),
    Column("increment", Integer, nullable=False),
    Column("start_fen", Text, nullable=True),
    Column("moves", Text, nullable=False),
    Column("clocks", Text, nullable=False),
    Column("times", Text, nullable=False),
    Column("status", Integer, nullable=True, index=True),
    Column("mode", Integer, nullable=True),
    Column("color", Integer, nullable=True),
    Column("score", String(16), nullable=False),
    Column("eco", String(16), nullable=False),
    Column("white_clock", Integer, nullable=False),
    Column("black_clock", Integer, nullable=False),
    Column("started", UTCDateTime, nullable=False),
    Column("updated", UTCDateTime, nullable=False),
    Column("ended", UTCDateTime, nullable=True),
    Column("resumed", UTCDateTime, nullable=True),
)

#: :meth:`Store.save_progress_many`'s update, built once and executed with many rows.
_SAVE_PROGRESS = (
    update(games)
    .where(games.c.id == bindparam("p_id"))
    .values(
        moves=bindparam("p_moves"),
        clocks=bindparam("p_clocks"),
        times=bindparam("p_times"),
        white_clock=bindparam("p_white_clock"),
        black_clock=bindparam("p_black_clock"),
        updated=bindparam("p_updated"),
    )
)
"""One row per game, from its start: moves (SAN), clocks and times are space-separated.

``white`` and ``black`` are the names as played (guests too), ``white_key`` and ``black_key``
their :func:`~icswire.server.core.model.names.name_key` for look-ups. ``updated`` is when
the row was last saved; ``resumed`` is when an adjourned game was resumed
(:meth:`Store.resume_done`).
"""

ratings = Table(
    "ratings",
    metadata,
    _user_id_column(),
    Column("rating_type", String(32), nullable=False),
    Column("rating", Double, nullable=False),
    Column("deviation", Double, nullable=False),
    Column("volatility", Double, nullable=False),
    Column("games", Integer, nullable=False),
    Column("wins", Integer, nullable=False),
    Column("losses", Integer, nullable=False),
    Column("draws", Integer, nullable=False),
    PrimaryKeyConstraint("user_id", "rating_type"),
)
"""Each registered user's Glicko-2 rating per rating type (a name in RATING_TYPES)."""

best_ratings = Table(
    "best_ratings",
    metadata,
    _user_id_column(),
    Column("rating_type", String(32), nullable=False),
    Column("best", Integer, nullable=False),
    Column("achieved", UTCDateTime, nullable=False),
    PrimaryKeyConstraint("user_id", "rating_type"),
)
"""The highest established rating of each user per rating type and when it was reached
(``finger``'s best column)."""

user_presence = Table(
    "user_presence",
    metadata,
    _user_id_column(),
    Column("last_logout", UTCDateTime, nullable=False),
    PrimaryKeyConstraint("user_id"),
)
"""When each registered user last disconnected (``finger``: "Last disconnected")."""

journal_games = Table(
    "journal_games",
    metadata,
    _user_id_column(),
    Column("slot", String(1), nullable=False),
    Column("game_id", Integer, ForeignKey("games.id", ondelete="CASCADE"), nullable=False),
    PrimaryKeyConstraint("user_id", "slot"),
)
"""Each registered user's journal (``jsave``, ``journal``): a stored game per slot a-z."""

_RATING_VALUES = (
    ratings.c.rating,
    ratings.c.deviation,
    ratings.c.volatility,
    ratings.c.games,
    ratings.c.wins,
    ratings.c.losses,
    ratings.c.draws,
)


def _join_moves(moves: Sequence[str]) -> str:
    """The moves separated by blanks; each must be one word (checked on the joined text:
    it splits back into the very moves exactly when each is one non-empty word)."""
    text = " ".join(moves)
    if text.split() != list(moves):
        for move in moves:
            if not move or move.split() != [move]:
                raise ValueError(f"a move must be one word, not {move!r}")
    return text


def _join_ints(values: Sequence[int]) -> str:
    return " ".join(map(str, map(int, values)))


def _game_record(row: Row[*tuple[Any, ...]]) -> GameRecord:
    return GameRecord(
        id=int(row.id),
        white=str(row.white),
        black=str(row.black),
        white_rating=int(row.white_rating),
        black_rating=int(row.black_rating),
        wild=int(row.wild),
        variant=None if row.variant is None else str(row.variant),
        rating_type=str(row.rating_type),
        rated=bool(row.rated),
        initial=int(row.initial),
        increment=int(row.increment),
        start_fen=None if row.start_fen is None else str(row.start_fen),
        moves=tuple(str(row.moves).split()),
        clocks=tuple(int(value) for value in str(row.clocks).split()),
        times=tuple(int(value) for value in str(row.times).split()),
        status=None if row.status is None else int(row.status),
        mode=None if row.mode is None else int(row.mode),
        color=None if row.color is None else int(row.color),
        score=str(row.score),
        eco=str(row.eco),
        white_clock=int(row.white_clock),
        black_clock=int(row.black_clock),
        started=row.started,
        ended=row.ended,
    )


def _add_variant_column(conn: Connection) -> None:
    """A database made before games had a ``variant`` column gets it (NULL: the variant
    of the game's wild number, which every such game is)."""
    if "variant" not in {column["name"] for column in inspect(conn).get_columns("games")}:
        conn.execute(text("ALTER TABLE games ADD COLUMN variant VARCHAR(32)"))


def _news_item(row: Row[*tuple[Any, ...]]) -> NewsItem:
    body = str(row.body)
    return NewsItem(
        id=int(row.id),
        title=str(row.title),
        lines=tuple(body.split("\n")) if body else (),
        author=str(row.author),
        posted=row.posted,
    )


def _check_list(which: str) -> None:
    if which not in PERSONAL_LISTS:
        raise ValueError(f"unknown list {which!r}; one of {PERSONAL_LISTS}")


def _check_rating_type(rating_type: str) -> None:
    if rating_type not in RATING_TYPES:
        raise ValueError(f"unknown rating type {rating_type!r}; one of {RATING_TYPES}")


def _new_rating(name: str, rating_type: str) -> RatingRecord:
    return RatingRecord(name, rating_type, Glicko(), 0, 0, 0, 0)


def _rating_record(name: str, rating_type: str, row: Row[*tuple[Any, ...]]) -> RatingRecord:
    return RatingRecord(
        name=name,
        rating_type=str(rating_type),
        glicko=Glicko(float(row.rating), float(row.deviation), float(row.volatility)),
        games=int(row.games),
        wins=int(row.wins),
        losses=int(row.losses),
        draws=int(row.draws),
    )


__all__ += [
    "ADJOURNED_BY_SHUTDOWN",
    "MoveTexts",
    "UnknownGame",
    "best_ratings",
    "games",
    "journal_games",
    "ratings",
    "user_presence",
]
