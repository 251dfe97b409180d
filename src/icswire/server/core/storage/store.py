"""Accounts in a real database: SQLite by default, PostgreSQL in production, one schema.

:class:`Store` is the one door to the database: a small synchronous API, made of one part
per job (:mod:`.accounts`, :mod:`.admin`, :mod:`.messages`, :mod:`.logons`, :mod:`.games`,
:mod:`.search`, :mod:`.ratings`) over the connection of :mod:`.database` and the tables
of :mod:`.schema`. The server calls it through :func:`asyncio.to_thread`, so every method
is one short transaction and a Store may be used from several threads at once. The names
callers use (the errors, the records, the tables) are importable from here too.

>>> store = Store("sqlite://")
>>> store.add_user("Fred", "secret")
>>> store.check_password("FRED", "secret"), store.check_password("fred", "wrong")
(True, False)
>>> store.add_channel("fred", 50)
True
>>> account = store.load("fred")
>>> account.name, account.channels, account.settings
('Fred', (50,), {})
>>> store.close()
"""

from __future__ import annotations

from pathlib import Path

from icswire.server.core.storage.accounts import (
    Account,
    Accounts,
    LooksLike,
    UnknownUser,
    UserExists,
)
from icswire.server.core.storage.admin import Admin, Ban, NewsItem
from icswire.server.core.storage.database import (
    DEFAULT_DATABASE,
    SQLITE_FILE,
    StoreUnavailable,
    database_url,
)
from icswire.server.core.storage.fencing import Fence, Fenced, Nodes
from icswire.server.core.storage.games import (
    ADJOURNED_BY_SHUTDOWN,
    Games,
    MoveTexts,
    Progress,
    UnknownGame,
)
from icswire.server.core.storage.logons import Logon, Logons
from icswire.server.core.storage.messages import Messages, StoredMessage
from icswire.server.core.storage.ratings import Ratings
from icswire.server.core.storage.schema import (
    PERSONAL_LISTS,
    SERVER_LISTS,
    admins,
    bans,
    best_ratings,
    games,
    journal_games,
    logons,
    metadata,
    news,
    nodes,
    ratings,
    server_lists,
    user_aliases,
    user_channels,
    user_lists,
    user_messages,
    user_notify,
    user_presence,
    user_settings,
    users,
)
from icswire.server.core.storage.search import GameQuery, Search

__all__ = [
    "ADJOURNED_BY_SHUTDOWN",
    "DEFAULT_DATABASE",
    "PERSONAL_LISTS",
    "SERVER_LISTS",
    "SQLITE_FILE",
    "Account",
    "Ban",
    "Fence",
    "Fenced",
    "GameQuery",
    "Logon",
    "LooksLike",
    "MoveTexts",
    "NewsItem",
    "Progress",
    "Store",
    "StoreUnavailable",
    "StoredMessage",
    "UnknownGame",
    "UnknownUser",
    "UserExists",
    "admins",
    "bans",
    "best_ratings",
    "database_url",
    "games",
    "journal_games",
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


class Store(Accounts, Admin, Messages, Logons, Games, Search, Ratings, Nodes):
    """Accounts, settings, lists, messages, games (and their search) and ratings in one
    database (and a cluster's nodes, :mod:`.fencing`).

    Names are looked up case-insensitively (:func:`~icswire.server.core.model.names.name_key`);
    methods that need an account raise :class:`UnknownUser` when there is none. Any method
    raises :class:`StoreUnavailable` when the database does not answer (SQLite waits
    ``busy_timeout`` seconds for another writer first); the call may then be made again.
    """

    @classmethod
    def for_data_dir(cls, path: Path) -> Store:
        """The SQLite store in ``path``, created with the folder when missing."""
        path.mkdir(parents=True, exist_ok=True)
        return cls(database_url(path, None))
