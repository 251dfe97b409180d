"""What brings a database made by an older icswire up to the schema of :mod:`.schema`.

Nothing here states the schema again: the tables a database lacks are created from
:data:`~.schema.metadata`, and each column added to a table since databases were made with
it is added as :mod:`.schema` defines it (its DDL compiled from the column).
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import Column, Connection, inspect, text
from sqlalchemy.schema import CreateColumn

from icswire.server.core.storage.schema import games, metadata

__all__ = ["ADDED_COLUMNS", "migrate"]

ADDED_COLUMNS: tuple[Column[Any], ...] = (games.c.variant, games.c.private)
"""Columns added to existing tables, oldest first. Each is nullable: the rows a database
already has get NULL (a game's ``variant`` NULL is the variant of its wild number, which
every game stored before the column was; ``private`` NULL is a game nobody made private,
as no game could be before the column)."""


def migrate(conn: Connection) -> None:
    """Create the missing tables, then add the missing :data:`ADDED_COLUMNS`."""
    metadata.create_all(conn)
    for column in ADDED_COLUMNS:
        _add_column(conn, column)


def _add_column(conn: Connection, column: Column[Any]) -> None:
    table = column.table
    if column.name in {found["name"] for found in inspect(conn).get_columns(table.name)}:
        return
    name = conn.dialect.identifier_preparer.format_table(table)
    spec = CreateColumn(column).compile(dialect=conn.dialect)
    conn.execute(text(f"ALTER TABLE {name} ADD COLUMN {spec}"))
