"""Fixtures of the TD's end-to-end tests: a real server listening on 127.0.0.1."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from icswire.server.app import Server
from tests.server.support import listening


@pytest.fixture
async def server(tmp_path: Path) -> AsyncIterator[Server]:
    async with listening(tmp_path / "td.sqlite3") as running:
        yield running
