"""Fixtures of the bot's end-to-end tests: a real server listening on 127.0.0.1."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from icswire.server.app import Server
from icswire.server.core.storage.store import Store


@pytest.fixture
async def server(tmp_path: Path) -> AsyncIterator[Server]:
    """A running server on a free port of 127.0.0.1 over a fresh SQLite file."""
    store = Store(f"sqlite:///{tmp_path / 'bot.sqlite3'}")
    running = Server(store, "127.0.0.1", 0)
    await running.start()
    yield running
    await running.stop()
    store.close()
