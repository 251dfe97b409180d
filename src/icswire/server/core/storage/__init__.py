"""The database: accounts, settings, games and ratings behind one ``Store`` (SQLite or
PostgreSQL, one schema), the queue of writes that must not be lost and its journal, the
records shared with the server, and the lock that keeps one server per database.

- ``store``: :class:`~.store.Store`, made of the parts below, and the names callers use.
- ``schema``: every table (SQLAlchemy Core), the one statement of the schema.
- ``migrations``: what brings an older database up to the schema.
- ``database``: the engine, one transaction per call, ``StoreUnavailable``.
- ``accounts``: users, passwords, settings, channels, notify and personal lists, aliases,
  last logout.
- ``admin``: administrators, bans, news, the server's lists.
- ``messages``: messages left for registered users.
- ``logons``: logins and logouts (``logons``, ``llogons``).
- ``games``: stored games, progress saves, history, adjourned and resumed games, journals.
- ``ratings``: ratings, best ratings, ranking, rating a finished game.
- ``records``: the game and rating records shared with the server.
- ``writes``: the queue of writes that must not be lost.
- ``jobs``: those writes as data (a kind and JSON arguments), each idempotent.
- ``writelog``: the write journal they wait in, so a crash loses none of them.
- ``lock``: one server per database.
"""
