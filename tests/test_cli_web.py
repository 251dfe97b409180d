"""``icswire serve --ws-port``: the options documented, refused when they make no sense,
a busy port named, and a real server process serving the page and a WebSocket session
beside telnet until SIGINT."""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from click.testing import CliRunner
from websockets.asyncio.client import connect as ws_connect

from icswire.cli import main
from icswire.server.core.net.webfiles import static_folder

from .server.client import free_port


def serve(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "icswire", "serve", "--data-dir", str(tmp_path), *args],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_serve_help_documents_the_websocket_options() -> None:
    shown = CliRunner().invoke(main, ["serve", "--help"], terminal_width=200).output
    for option in ("--ws-port", "--ws-host", "--tls-cert", "--tls-key"):
        assert option in shown
    assert "ws://HOST:PORT/" in shown and "wss://" in shown


def test_tls_options_without_a_websocket_port_are_refused(tmp_path: Path) -> None:
    cert = tmp_path / "cert.pem"
    cert.write_text("not a certificate")
    refused = serve(tmp_path, "--tls-cert", str(cert))
    assert refused.returncode == 2 and "--tls-cert is for --ws-port" in refused.stderr
    refused = serve(tmp_path, "--ws-port", "1", "--tls-key", str(cert))
    assert refused.returncode == 2 and "--tls-key needs --tls-cert" in refused.stderr
    refused = serve(tmp_path, "--ws-port", "1", "--tls-cert", str(cert))
    assert refused.returncode == 2 and "--tls-cert/--tls-key" in refused.stderr


def test_a_websocket_port_in_use_is_named(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        busy = taken.getsockname()[1]
        result = serve(tmp_path, "--port", str(free_port()), "--ws-port", str(busy))
    assert result.returncode == 1
    assert result.stderr == (
        f"icswire serve: 127.0.0.1:{busy} is in use (another server?);"
        " choose another with --ws-port\n"
    )


async def _guest_over_websocket(port: int) -> bytes:
    async with ws_connect(f"ws://127.0.0.1:{port}/") as connection:
        await connection.send(b"guest\n\n")
        got = b""
        async with asyncio.timeout(10):
            while b"fics% " not in got:
                got += await connection.recv()
        return got


def test_a_served_process_gives_the_page_and_websocket_sessions(tmp_path: Path) -> None:
    port, ws_port = free_port(), free_port()
    command = ["serve", "--port", str(port), "--ws-port", str(ws_port), "--data-dir", str(tmp_path)]
    process = subprocess.Popen(
        [sys.executable, "-m", "icswire", *command],
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    assert process.stderr is not None
    try:
        deadline = time.monotonic() + 30
        lines = []
        while time.monotonic() < deadline:
            lines.append(process.stderr.readline())
            if "WebSocket sessions on" in lines[-1]:
                break
        assert f"WebSocket sessions on ws://127.0.0.1:{ws_port}/" in lines[-1], lines
        with urllib.request.urlopen(f"http://127.0.0.1:{ws_port}/", timeout=10) as page:
            assert page.read() == static_folder().joinpath("index.html").read_bytes()
        got = asyncio.run(_guest_over_websocket(ws_port))
        assert b"**** Starting FICS session as Guest" in got
        with socket.create_connection(("127.0.0.1", port), timeout=10) as telnet:
            assert telnet.recv(4096)  # the telnet port too
    finally:
        process.send_signal(signal.SIGINT)
        process.wait(timeout=30)
    assert process.returncode == 0
