"""The database: accounts, settings, games and ratings behind one ``Store`` (SQLite or
PostgreSQL, one schema), the queue of writes that must not be lost, the records shared
with the server, and the lock that keeps one server per database."""
