"""The schema, stated once: every icswire table as SQLAlchemy Core, the same on SQLite and
PostgreSQL. :mod:`.migrations` brings an older database up to it; the Store's parts
(:mod:`.accounts`, :mod:`.admin`, :mod:`.messages`, :mod:`.games`, :mod:`.ratings`) query it.
"""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import (
    Boolean,
    Column,
    DateTime,
    Dialect,
    Double,
    ForeignKey,
    Integer,
    MetaData,
    PrimaryKeyConstraint,
    String,
    Table,
    Text,
    TypeDecorator,
)

from icswire.server.core.model.names import NAME_MAX
from icswire.server.core.model.titles import TITLE_LISTS

__all__ = [
    "PERSONAL_LISTS",
    "SERVER_LISTS",
    "UTCDateTime",
    "admins",
    "bans",
    "best_ratings",
    "games",
    "journal_games",
    "listed_events",
    "logons",
    "metadata",
    "news",
    "nodes",
    "ratings",
    "server_lists",
    "user_aliases",
    "user_channels",
    "user_lists",
    "user_messages",
    "user_notify",
    "user_presence",
    "user_settings",
    "users",
]


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
    # names.name_skeleton(name): what the name looks like; no new account may share it
    # (not unique: accounts made before the column may already)
    Column("skeleton", String(NAME_MAX), nullable=True, index=True),
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

SERVER_LISTS = TITLE_LISTS
"""The server's own lists of registered users kept in :data:`server_lists`: those that give
a title (:data:`~icswire.server.core.model.titles.TITLE_LISTS`: ``computer``, ``fm``,
``im``, ``gm``, ``wgm``, ``wim``, ``wfm``, and ``td``, the tournament directors' programs
that may ``qtell``). The ``admin`` list is the :data:`admins` table."""

server_lists = Table(
    "server_lists",
    metadata,
    Column("list", String(16), nullable=False),
    _user_id_column(),
    PrimaryKeyConstraint("list", "user_id"),
)
"""Who is on each of the server's lists (:data:`SERVER_LISTS`), set by administrators."""

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

listed_events = Table(
    "listed_events",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=False),
    Column("bitfield", Integer, nullable=False),
    Column("description", Text, nullable=False),
    Column("join_commands", Text, nullable=False),
    Column("watch_commands", Text, nullable=False),
    Column("info_commands", Text, nullable=False),
    Column("confirm_text", Text, nullable=False),
    Column("group_name", Text, nullable=False),
    Column("added_by", String(NAME_MAX), nullable=False),
    Column("added", UTCDateTime, nullable=False),
)
"""The list of events (``qaddevent``, DG_TOURNEY): one row per index, the last added."""

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
    Column("private", Boolean, nullable=True),  # None: not private (rows stored before)
    Column("event", Text, nullable=True),  # a TD's event label; None: none
    # Black's time control in a game with time odds; NULL: White's
    Column("black_initial", Integer, nullable=True),
    Column("black_increment", Integer, nullable=True),
)

#: :meth:`Store.save_progress_many`'s update, built once and executed with many rows.
"""One row per game, from its start: moves (SAN), clocks and times are space-separated.

``white`` and ``black`` are the names as played (guests too), ``white_key`` and ``black_key``
their :func:`~icswire.server.core.model.names.name_key` for look-ups. ``updated`` is when
the row was last saved; ``resumed`` is when an adjourned game was resumed
(:meth:`Store.resume_done`). ``private``: a player had ``set private`` when it started; only
its players and administrators may read its moves.
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

logons = Table(
    "logons",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("name", String(NAME_MAX), nullable=False),
    Column("name_key", String(NAME_MAX), nullable=False, index=True),
    Column("registered", Boolean, nullable=False),
    Column("login", Boolean, nullable=False),
    Column("at", UTCDateTime, nullable=False),
    Column("host", String(64), nullable=False),
)
"""Logins and logouts, oldest first (FICS's ``logons`` files, :mod:`.logons`): each
registered user's last few (``logons``) and the server's last few, guests' too
(``llogons``); ``host`` is shown to administrators only. A cluster sharing the database
shares it."""

journal_games = Table(
    "journal_games",
    metadata,
    _user_id_column(),
    Column("slot", String(1), nullable=False),
    Column("game_id", Integer, ForeignKey("games.id", ondelete="CASCADE"), nullable=False),
    # ICC's libannotate: the owner's note on the game (DG_GAMELIST_ITEM's note); NULL: none
    Column("note", Text, nullable=True),
    PrimaryKeyConstraint("user_id", "slot"),
)
"""Each registered user's journal (``jsave``, ``journal``): a stored game per slot a-z."""

nodes = Table(
    "nodes",
    metadata,
    Column("name", String(64), primary_key=True),
    Column("epoch", Integer, nullable=False),
    Column("joined", UTCDateTime, nullable=False),
)
"""The nodes of a cluster sharing this database (docs/cluster.md, "Failure"): each node's
``epoch`` grows when it joins and when the cluster declares it dead; a node writes its games
only while the epoch it took is still its row's (:mod:`.fencing`)."""
