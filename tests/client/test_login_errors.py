"""A refused login fails at once with the server's own words, in both dialects; a server
that never answers is a LoginError too."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from icswire.client import LoginError, connect
from icswire.client import connection as client_connection
from icswire.server.app import Server
from icswire.server.core.storage.store import Store


@pytest.fixture
async def server(tmp_path: Path) -> AsyncIterator[Server]:
    store = Store(f"sqlite:///{tmp_path / 'client.sqlite3'}")
    store.add_user("Owner", "secret")
    store.ban("Banned", "Owner")
    running = Server(store, "127.0.0.1", 0)
    await running.start()
    yield running
    await running.stop()
    store.close()


REFUSALS = [
    ("x", None, "A name should be at least two characters long! Try again."),
    ("9lives", None, "Sorry, a name must begin with a letter and consist of letters and digits."),
    ("admin", None, 'Sorry, "admin" is a reserved name; please choose another.'),
    ("Owner", "wrong", "Invalid password!"),
    ("Banned", None, "The administrators have banned you from using this chess server."),
]


@pytest.mark.parametrize("dialect", ["icc", "fics"])
@pytest.mark.parametrize(("name", "password", "said"), REFUSALS)
async def test_a_refused_login_says_why_at_once(
    server: Server, dialect: str, name: str, password: str | None, said: str
) -> None:
    # at once: well before the 15 s the login may take
    async with asyncio.timeout(5):
        with pytest.raises(LoginError) as refused:
            async with connect(
                "127.0.0.1", server.port, name, password, dialect=dialect, reconnect=False
            ):
                pass
    assert said in str(refused.value)


async def test_a_silent_server_is_a_login_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(client_connection, "LOGIN_TIMEOUT", 0.2)
    silent = await asyncio.start_server(lambda reader, writer: None, "127.0.0.1", 0)
    port = silent.sockets[0].getsockname()[1]
    try:
        with pytest.raises(LoginError, match=r"no login within 0\.2 s"):
            async with connect("127.0.0.1", port, "guest", reconnect=False):
                pass
    finally:
        silent.close()
