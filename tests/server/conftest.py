"""Fixtures shared by the server tests.

``database_url`` runs a test once on SQLite (a fresh file) and once on PostgreSQL, when
``ICSWIRE_TEST_DATABASE_URL`` names a PostgreSQL database; there every icswire table is
dropped first, so each test starts from an empty database. ``server`` is a server in memory,
or on a port for the tests marked ``sockets``. Close every Store (and stop every
server) a test opens: an open connection would keep the next test's ``DROP TABLE`` waiting.
"""

from __future__ import annotations

import os
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from sqlalchemy import create_engine

from icswire.server.app import Server
from icswire.server.core.storage import store

DATABASE_ENV = "ICSWIRE_TEST_DATABASE_URL"


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A SQLAlchemy URL of an empty database, for ``Store(url)`` or ``--database``."""
    if request.param == "sqlite":
        return store.database_url(tmp_path / "data", None)
    return empty_postgresql(tmp_path, "PostgreSQL: set {} to a database URL to run this case")


def empty_postgresql(tmp_path: Path, why_skipped: str) -> str:
    """The PostgreSQL database ``ICSWIRE_TEST_DATABASE_URL`` names, every icswire table
    dropped; the test is skipped with ``why_skipped`` (``{}``: the variable) without it."""
    url = os.environ.get(DATABASE_ENV)
    if not url:
        pytest.skip(why_skipped.format(DATABASE_ENV))
    url = store.database_url(tmp_path, url)
    engine = create_engine(url)
    try:
        store.metadata.drop_all(engine)
    finally:
        engine.dispose()
    return url


@pytest.fixture
async def server(database_url: str, request: pytest.FixtureRequest) -> AsyncIterator[Server]:
    """A running server over the database of ``database_url`` (stopped, and its store
    closed, after the test). It opens no port, its users connect in memory
    (``support.connect``), unless the test is marked ``sockets``: then it listens on a free
    port of 127.0.0.1, for tests where the wire is the point."""
    data = store.Store(database_url)
    running = Server(data, "127.0.0.1", 0)
    await running.start(listen=request.node.get_closest_marker("sockets") is not None)
    yield running
    await running.stop()
    data.close()
