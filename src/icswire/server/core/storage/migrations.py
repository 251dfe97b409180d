"""What brings a database made by an older icswire up to the schema of :mod:`.schema`.

Nothing here states the schema again: the tables a database lacks are created from
:data:`~.schema.metadata`, and each column added to a table since databases were made with
it is added as :mod:`.schema` defines it (its DDL compiled from the column), with the
indexes :mod:`.schema` gives it. A column whose value is computed from others is then
filled where it is NULL: rows made before it, or by an older icswire.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import Column, Connection, inspect, select, text, update
from sqlalchemy.schema import CreateColumn

from icswire.server.core.model.names import name_skeleton
from icswire.server.core.storage.schema import games, journal_games, metadata, users

__all__ = ["ADDED_COLUMNS", "migrate"]

ADDED_COLUMNS: tuple[Column[Any], ...] = (
    games.c.variant,
    games.c.private,
    users.c.skeleton,
    journal_games.c.note,
    games.c.event,
    games.c.black_initial,
    games.c.black_increment,
)
"""Columns added to existing tables, oldest first. Each is nullable: the rows a database
already has get NULL (a game's ``variant`` NULL is the variant of its wild number, which
every game stored before the column was; ``private`` NULL is a game nobody made private,
as no game could be before the column; a user's ``skeleton`` is then filled; a journal
entry's ``note`` NULL is one nobody annotated; ``event`` NULL is a game no TD started in an
event; a game's ``black_initial`` and ``black_increment`` NULL are White's, as every game
had before)."""


def _fill_skeletons(conn: Connection) -> None:
    rows = conn.execute(select(users.c.id, users.c.name).where(users.c.skeleton.is_(None)))
    for row in rows.all():
        conn.execute(
            update(users).where(users.c.id == row.id).values(skeleton=name_skeleton(row.name))
        )


def migrate(conn: Connection) -> None:
    """Create the missing tables, add the missing :data:`ADDED_COLUMNS` (and their
    indexes), then fill the users' NULL skeletons."""
    metadata.create_all(conn)
    for column in ADDED_COLUMNS:
        _add_column(conn, column)
    _fill_skeletons(conn)


def _add_column(conn: Connection, column: Column[Any]) -> None:
    table = column.table
    if column.name in {found["name"] for found in inspect(conn).get_columns(table.name)}:
        return
    name = conn.dialect.identifier_preparer.format_table(table)
    spec = CreateColumn(column).compile(dialect=conn.dialect)
    conn.execute(text(f"ALTER TABLE {name} ADD COLUMN {spec}"))
    for index in table.indexes:
        if column in index.columns.values():
            index.create(conn, checkfirst=True)
