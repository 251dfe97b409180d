"""The server at its file-descriptor limit: ``icswire serve`` in a child process whose
RLIMIT_NOFILE is low, flooded with silent connections.

asyncio's own accept loop logs a traceback through the loop's exception handler each time
``accept`` fails with EMFILE and retries a second later, while the clients left waiting
hear nothing. The server's listener tells one waiting client that the server is full (on a
spare descriptor kept for that), pauses accepting until a connection closes, and logs the
episode once; the users already in go on, and new logins succeed once descriptors are
free again.
"""

from __future__ import annotations

import asyncio
import contextlib
import resource
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from icswire.server.core.net import limits
from icswire.server.core.net.limits import Limits, fd_connection_cap
from icswire.server.core.net.listener import FULL
from tests.server.client import free_port

from .client import Client

#: Run the server with a low RLIMIT_NOFILE (argv[1]); the rest is icswire's command line.
SERVER = """\
import resource, sys
soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
resource.setrlimit(resource.RLIMIT_NOFILE, (int(sys.argv[1]), hard))
from icswire.cli import main
main(sys.argv[2:], prog_name="icswire")
"""
FD_LIMIT = 48
SILENT = 80  # far more connections than descriptors
ASYNCIO_SPIN = "socket.accept() out of system resource"


@pytest.fixture
def low_fd_server(tmp_path: Path) -> Iterator[tuple[int, Path]]:
    """(port, log file) of a server allowed FD_LIMIT descriptors, with no connection cap
    of its own, so the fd limit is what it meets."""
    port, log = free_port(), tmp_path / "server.log"
    args = [
        *("serve", "--host", "127.0.0.1", "--port", str(port), "--data-dir", str(tmp_path)),
        *("--limit", "max_connections=0", "--limit", "max_per_address=0"),
        *("--limit", "accept_pause=0.2"),
    ]
    with open(log, "wb") as out:
        process = subprocess.Popen(
            [sys.executable, "-c", SERVER, str(FD_LIMIT), *args],
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    try:
        deadline = time.monotonic() + 20
        while "listening on" not in log.read_text():
            assert process.poll() is None, log.read_text()
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.05)
        yield port, log
    finally:
        process.terminate()
        try:
            process.wait(20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


async def heard(reader: asyncio.StreamReader) -> bytes:
    """What a silent connection was sent in a moment (the welcome, a refusal, nothing)."""
    with contextlib.suppress(TimeoutError, ConnectionError):
        return await asyncio.wait_for(reader.read(4096), 2.0)
    return b""


async def test_at_the_fd_limit_users_go_on_and_logins_resume(
    low_fd_server: tuple[int, Path],
) -> None:
    port, log = low_fd_server
    steady = await Client.connect(port)
    await steady.login("Steady")
    silent = [await asyncio.open_connection("127.0.0.1", port) for _ in range(SILENT)]
    async with asyncio.timeout(10):
        while "out of file descriptors" not in log.read_text():
            await asyncio.sleep(0.05)
    date = [getattr(e, "text", "") for e in await steady.command("date")]
    assert any(text.startswith("Server time") for text in date)
    said = await asyncio.gather(*(heard(reader) for reader, _ in silent))
    assert any(FULL.encode() in text for text in said)  # told, not left hanging
    assert any(b"login:" in text for text in said)  # those before the limit got in
    for _, writer in silent:
        writer.close()
    # Once the server has seen those connections close, logins get in again; until then
    # a newcomer may still be told the server is full (and tries again).
    async with asyncio.timeout(20):
        while True:
            newcomer = await Client.connect(port)
            try:
                assert await newcomer.login("Newcomer") == "Newcomer"
                break
            except ConnectionError:
                assert any(FULL in getattr(e, "text", "") for e in newcomer.events)
                await asyncio.sleep(0.2)
    date = [getattr(e, "text", "") for e in await steady.command("date")]
    assert any(text.startswith("Server time") for text in date)
    text = log.read_text()
    assert ASYNCIO_SPIN not in text  # asyncio's loop logged it ~5000 times a second
    assert 1 <= text.count("out of file descriptors") <= 3  # once per episode
    assert "accepting again" in text


def test_the_default_cap_leaves_room_below_the_fd_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    for soft, cap in ((1024, 1024 - limits.FD_HEADROOM), (100, 50), (resource.RLIM_INFINITY, 0)):
        monkeypatch.setattr(resource, "getrlimit", lambda _, soft=soft: (soft, soft))
        assert fd_connection_cap() == cap
        assert Limits().connection_cap() == cap
    assert Limits(max_connections=7).connection_cap() == 7
