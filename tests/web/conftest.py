"""What the browser tests share: ``icswire serve`` with its WebSocket port (the web client
and its sessions) on 127.0.0.1, Debian's chromium driven by Playwright, a telnet user, and
screenshots of each page under the test's tmp dir (``screens/``).

Without ``/usr/bin/chromium`` or the ``playwright`` package the tests skip (Debian:
``apt-get install chromium``; ``.ci/run`` installs it when it can). No browser is
downloaded: Playwright launches the system's.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = os.environ.get("ICSWIRE_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
START_LIMIT = 60.0
#: How long a page may take to show what a test waits for (ms).
PAGE_WAIT_MS = 15000


def _missing() -> str | None:
    if not (os.path.exists(CHROMIUM) or shutil.which(CHROMIUM)):
        return f"the browser tests need chromium at {CHROMIUM} (Debian: apt-get install chromium)"
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "the browser tests need the playwright package (pip install playwright)"
    return None


MISSING = _missing()


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def wait_for(what: str, check: Callable[[], Any], limit: float, explain: Callable[[], str]) -> Any:
    """Poll ``check`` until it gives something true; fail with ``explain()`` after ``limit``."""
    deadline = time.monotonic() + limit
    while not (found := check()):
        if time.monotonic() > deadline:
            pytest.fail(f"timed out after {limit:.0f}s waiting for {what}\n{explain()}")
        time.sleep(0.1)
    return found


@dataclass
class WebServer:
    process: subprocess.Popen[bytes]
    log: Path
    data: Path
    port: int = 0
    ws_port: int = 0

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.ws_port}/"

    def text(self) -> str:
        return self.log.read_text("utf-8", "replace")

    def tail(self, lines: int = 40) -> str:
        return "--- server log\n" + "\n".join(self.text().splitlines()[-lines:])


@pytest.fixture
def serve_options() -> list[str]:
    """More ``icswire serve`` options for a test module's server (override the fixture)."""
    return []


@pytest.fixture
def web_server(tmp_path: Path, serve_options: list[str]) -> Iterator[WebServer]:
    """``icswire serve`` on free ports of 127.0.0.1, telnet and WebSocket, a fresh data dir."""
    log, data = tmp_path / "server.log", tmp_path / "data"
    ws_port = _free_port()
    command = [sys.executable, "-m", "icswire", "serve", "--port", "0", "--ws-port", str(ws_port)]
    command += serve_options
    with log.open("wb") as out:
        process = subprocess.Popen(
            [*command, "--data-dir", str(data)],
            stdout=out,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
        )
    server = WebServer(process, log, data)
    try:

        def listening() -> bool:
            telnet = re.search(r"listening on 127\.0\.0\.1:(\d+)", server.text())
            ws = re.search(r"WebSocket sessions on ws://127\.0\.0\.1:(\d+)/", server.text())
            if telnet and ws:
                server.port, server.ws_port = int(telnet[1]), int(ws[1])
            return bool(telnet and ws) or process.poll() is not None

        wait_for("the server to listen", listening, START_LIMIT, server.tail)
        assert server.ws_port, f"the server did not start\n{server.tail()}"
        yield server
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGINT)
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(timeout=10)


@pytest.fixture
def browser() -> Iterator[Any]:
    if MISSING:
        pytest.skip(MISSING)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield launched
        finally:
            launched.close()


@dataclass
class WebUser:
    """One person at the web client: a page of its own (its own browser context)."""

    page: Any
    screens: Path
    label: str
    name: str = ""
    shots: list[Path] = field(default_factory=list)

    def shot(self, step: str) -> Path:
        taken = len(list(self.screens.iterdir()))  # numbered across the test's users
        path = self.screens / f"{taken + 1:02d}-{self.label}-{step}.png"
        self.page.screenshot(path=str(path), full_page=True)
        self.shots.append(path)
        return path

    def login_guest(self) -> str:
        self.page.click("#login-guest")
        self.page.wait_for_selector(".app", timeout=PAGE_WAIT_MS)
        self.name = self.page.inner_text("#me").strip()
        assert re.fullmatch(r"Guest[A-Z]{4}", self.name), self.name
        return self.name

    def tab(self, name: str) -> None:
        """Show a side tab: play, watch, talk, games."""
        self.page.click(f'.side-tabs > .tab-bar [data-tab="{name}"]')


@pytest.fixture
def web_user(
    browser: Any, web_server: WebServer, tmp_path: Path
) -> Iterator[Callable[..., WebUser]]:
    """Open the web client as a new person: ``web_user("a", width=1280, height=900)``."""
    screens = tmp_path / "screens"
    screens.mkdir()
    contexts = []

    def make(label: str, width: int = 1280, height: int = 900) -> WebUser:
        context = browser.new_context(viewport={"width": width, "height": height})
        contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(PAGE_WAIT_MS)
        page.goto(web_server.url)
        page.wait_for_selector("#login-guest")
        return WebUser(page, screens, label)

    try:
        yield make
    finally:
        for context in contexts:
            context.close()
        print(f"screenshots: {screens}")


class TelnetUser:
    """A person at a plain telnet client: lines out, the server's text in."""

    def __init__(self, port: int) -> None:
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=10)
        self.received = ""
        self.name = ""

    def send(self, line: str) -> None:
        self.sock.sendall(line.encode("latin-1") + b"\n")

    def read(self) -> None:
        self.sock.settimeout(0.2)
        try:
            while chunk := self.sock.recv(65536):
                self.received += chunk.replace(b"\xff\xff", b"\xff").decode("latin-1")
        except TimeoutError:
            pass

    def expect(self, pattern: str, limit: float = 15.0) -> re.Match[str]:
        def found() -> re.Match[str] | None:
            self.read()
            return re.search(pattern, self.received)

        match: re.Match[str] = wait_for(repr(pattern), found, limit, lambda: self.received[-3000:])
        return match

    def login_guest(self, name: str = "guest") -> str:
        """Log in as a guest, or under an unregistered ``name``."""
        self.send(name)
        self.expect(r'Press return to enter the server as "(\w+)"')
        self.send("")
        self.name = self.expect(r"Starting FICS session as (\w+)")[1]
        return self.name

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self.send("quit")
        self.sock.close()


@pytest.fixture
def telnet_user(web_server: WebServer) -> Iterator[Callable[[], TelnetUser]]:
    users: list[TelnetUser] = []

    def make() -> TelnetUser:
        user = TelnetUser(web_server.port)
        users.append(user)
        return user

    yield make
    for user in users:
        user.close()
