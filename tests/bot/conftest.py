"""Fixtures of the bot's end-to-end tests: a real server listening on 127.0.0.1."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from icswire.server.app import Server
from tests.server.support import listening


@pytest.fixture
async def server(tmp_path: Path) -> AsyncIterator[Server]:
    """A running server on a free port of 127.0.0.1 over a fresh SQLite file."""
    async with listening(tmp_path / "bot.sqlite3") as running:
        yield running
