"""icswire serve's event loop (server/loops.py): uvloop's where installed, asyncio's on
request, a clear refusal of ``--loop uvloop`` without it; a server on uvloop logs in."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from icswire.cli import main
from icswire.server.loops import LoopUnavailable, loop_factory, run, running_loop_name


async def _loop_type() -> str:
    return running_loop_name()


def test_asyncio_is_asyncio_s_own_loop() -> None:
    assert loop_factory("asyncio") is None
    assert run(_loop_type(), None) == "asyncio"


def test_auto_is_uvloop_where_it_imports() -> None:
    uvloop = pytest.importorskip("uvloop")
    factory = loop_factory("auto")
    assert factory is uvloop.new_event_loop
    assert run(_loop_type(), factory) == "uvloop"


def test_without_uvloop_auto_falls_back_and_uvloop_is_refused(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setitem(sys.modules, "uvloop", None)  # import uvloop: ModuleNotFoundError
    assert loop_factory("auto") is None
    with pytest.raises(LoopUnavailable, match="icswire\\[speed\\]"):
        loop_factory("uvloop")
    refused = CliRunner().invoke(main, ["serve", "--data-dir", str(tmp_path), "--loop", "uvloop"])
    assert refused.exit_code == 2
    assert "uvloop is not installed" in refused.output


def test_an_unknown_loop_is_an_error() -> None:
    with pytest.raises(ValueError, match="no event loop"):
        loop_factory("trio")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.mark.parametrize("choice", ["uvloop", "asyncio"])
def test_a_server_on_either_loop_logs_a_guest_in(choice: str, tmp_path: Path) -> None:
    if choice == "uvloop":
        pytest.importorskip("uvloop")
    port = _free_port()
    command = [sys.executable, "-m", "icswire", "serve", "--port", str(port)]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    server = subprocess.Popen(
        [*command, "--data-dir", str(tmp_path), "--loop", choice],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        env=env,
    )
    try:
        conn = _connect(port, server)
        with conn:
            got = _read_until(conn, b"login: ")
            conn.sendall(b"guest\r\n")
            got += _read_until(conn, b"Press return")
            conn.sendall(b"\r\n")
            got += _read_until(conn, b"fics% ")
        assert b"Starting FICS session as Guest" in got
    finally:
        server.terminate()
        output, _ = server.communicate(timeout=30)
    assert f"listening on 127.0.0.1:{port} ({choice})".encode() in output


def _connect(port: int, server: subprocess.Popen[bytes]) -> socket.socket:
    deadline = time.monotonic() + 30
    while True:
        try:
            return socket.create_connection(("127.0.0.1", port), timeout=10)
        except OSError:
            if server.poll() is not None or time.monotonic() > deadline:
                raise
            time.sleep(0.1)


def _read_until(conn: socket.socket, marker: bytes) -> bytes:
    got = b""
    while marker not in got:
        chunk = conn.recv(4096)
        if not chunk:
            raise AssertionError(f"closed before {marker!r}: {got[-300:]!r}")
        got += chunk
    return got
