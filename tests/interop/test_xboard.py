"""Interop: two real XBoards in zippy mode, each driving fairymax, play icswire games.

Everything runs for real: ``icswire serve`` on a free port of 127.0.0.1 with a fresh data
folder, an Xvfb display of its own (``-displayfd`` picks a free number), and two XBoards
(Debian ``xboard``) with ``-ics -zp``. Each logs in as a guest from a logon file (``guest``
and an empty line) and hands its games to fairymax through ``fairymax-filter``, which drops
the ``name`` and ``rating`` lines fairymax can crash on.

Commands reach the server the way a person at XBoard's terminal types them: with
``-ics`` and no ICS input box, XBoard sends every line of its standard input to the server
unchanged. The test keeps that pipe open (on end of file XBoard logs out) and writes:

1. ``match <other guest> 1 0`` into the first XBoard; the other one's zippy code sees the
   ``Challenge:`` line and answers ``accept <name>`` by itself;
2. after that game, ``seek 1 0`` into each XBoard; the server pairs the two seeks.

Each game must end with a result (``1-0``, ``0-1`` or ``1/2-1/2``) in the PGN file both
XBoards save (``-saveGameFile``), the same result, players and moves in both, and the server
must log both guests' connections. Games are 1 minute a side, so one ends within about two
minutes; each has a hard limit of GAME_LIMIT seconds. On any failure the message carries
what XBoard and the server said (XBoard's ``-debug`` file logs every line both ways).

Without xboard, Xvfb or fairymax (Debian: ``apt-get install xboard xvfb fairymax``) the
test is skipped; ``.ci/run`` installs them when it can.
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import select
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import chess.pgn
import pytest

HERE = Path(__file__).resolve().parent
FILTER = HERE / "fairymax-filter"
#: The time control of both games: minutes, increment.
TIME_CONTROL = "1 0"
#: Hard limits (s) for a game to start after the command that pairs it, and to end.
PAIR_LIMIT = 30.0
GAME_LIMIT = 180.0
#: Hard limit for starting the server and Xvfb, and for both XBoards to log in (s).
START_LIMIT = 60.0
RESULTS = {"1-0", "0-1", "1/2-1/2"}


def _program(name: str) -> str | None:
    """A program on PATH, or in /usr/games where Debian puts xboard and fairymax."""
    return shutil.which(name) or shutil.which(name, path="/usr/games:/usr/local/games")


XBOARD, XVFB, FAIRYMAX = _program("xboard"), _program("Xvfb"), _program("fairymax")
_MISSING = [
    name
    for name, path in (("xboard", XBOARD), ("Xvfb", XVFB), ("fairymax", FAIRYMAX))
    if path is None
]
pytestmark = pytest.mark.skipif(
    bool(_MISSING),
    reason=f"XBoard interop needs {', '.join(_MISSING)} "
    "(Debian: apt-get install xboard xvfb fairymax)",
)


def _wait(what: str, check: Callable[[], object], limit: float, explain: Callable[[], str]) -> None:
    """Poll ``check`` until it is true; fail with ``explain()`` after ``limit`` seconds."""
    deadline = time.monotonic() + limit
    while not check():
        if time.monotonic() > deadline:
            pytest.fail(f"timed out after {limit:.0f}s waiting for {what}\n{explain()}")
        time.sleep(0.2)


def _signal(process: subprocess.Popen[bytes], group: bool, sig: int) -> None:
    try:
        if group:
            os.killpg(process.pid, sig)
        else:
            process.send_signal(sig)
    except ProcessLookupError:
        pass


def _stop(process: subprocess.Popen[bytes], sig: int = signal.SIGTERM, group: bool = False) -> None:
    """Stop a process the test started; ``group``: its whole process group (it was started
    with ``start_new_session``), so that its children go too."""
    if process.poll() is None:
        _signal(process, group, sig)
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            _signal(process, group, signal.SIGKILL)
            process.wait(timeout=10)
    if group:
        _signal(process, group, signal.SIGKILL)  # what is left of the group (the engine)
    if process.stdin is not None:
        with contextlib.suppress(OSError):
            process.stdin.close()


def _tail(path: Path, lines: int = 40) -> str:
    if not path.exists():
        return f"({path.name}: missing)"
    text = path.read_text("utf-8", "replace").splitlines()[-lines:]
    return f"--- {path.name} (last {len(text)} lines)\n" + "\n".join(text)


# -- the server and the display ---------------------------------------------------------------


@dataclass
class ServerProcess:
    process: subprocess.Popen[bytes]
    log: Path
    port: int = 0

    def text(self) -> str:
        return self.log.read_text("utf-8", "replace")


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerProcess]:
    log, data = tmp_path / "server.log", str(tmp_path / "data")
    with log.open("wb") as out:
        process = subprocess.Popen(
            [sys.executable, "-m", "icswire", "serve", "--port", "0", "--data-dir", data],
            stdout=out,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
        )
    running = ServerProcess(process, log)
    try:

        def listening() -> bool:
            found = re.search(r"listening on 127\.0\.0\.1:(\d+)", running.text())
            if found:
                running.port = int(found.group(1))
            return bool(found) or process.poll() is not None

        _wait("the server to listen", listening, START_LIMIT, lambda: _tail(log))
        assert running.port, f"the server did not start\n{_tail(log)}"
        yield running
    finally:
        _stop(process, signal.SIGINT)


@pytest.fixture
def display(tmp_path: Path) -> Iterator[str]:
    """An Xvfb display with a free number (Xvfb writes the number it took to -displayfd)."""
    assert XVFB is not None
    read_end, write_end = os.pipe()
    with (tmp_path / "xvfb.log").open("wb") as out:
        process = subprocess.Popen(
            [XVFB, "-displayfd", str(write_end), "-screen", "0", "1024x768x24", "-nolisten", "tcp"],
            pass_fds=(write_end,),
            stdout=out,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
        )
    os.close(write_end)
    try:
        number = b""
        deadline = time.monotonic() + START_LIMIT
        while not number.endswith(b"\n") and time.monotonic() < deadline:
            ready, _, _ = select.select([read_end], [], [], 0.5)
            if ready:
                chunk = os.read(read_end, 16)
                if not chunk:
                    break
                number += chunk
        if not number.strip().isdigit():
            pytest.fail(f"Xvfb gave no display number\n{_tail(tmp_path / 'xvfb.log')}")
        yield f":{int(number)}"
    finally:
        os.close(read_end)
        _stop(process)


# -- XBoard -----------------------------------------------------------------------------------


@dataclass
class XBoard:
    """One XBoard process: its folder, its debug log, its saved games."""

    label: str
    folder: Path
    engine: Path = FILTER  # the engine command (-fcp)
    process: subprocess.Popen[bytes] = field(init=False)
    name: str = ""

    @property
    def debug(self) -> Path:
        return self.folder / "debug.txt"

    @property
    def pgn(self) -> Path:
        return self.folder / "games.pgn"

    def start(self, display: str, port: int) -> None:
        assert XBOARD is not None
        self.folder.mkdir()
        logon = self.folder / "logon"
        logon.write_text("guest\n\n")  # a guest; the empty line is "press return to enter"
        environment = dict(os.environ, DISPLAY=display, HOME=str(self.folder))
        environment["FAIRYMAX"] = str(FAIRYMAX)
        # fmt: off
        command = [
            XBOARD,
            "-ics", "-icshost", "127.0.0.1", "-icsport", str(port), "-icslogon", str(logon),
            "-zippyPlay", "true", "-zippyTalk", "false",
            "-fcp", str(self.engine), "-fd", str(self.folder),
            "-saveGameFile", str(self.pgn), "-onlyOwnGames", "true",
            "-debugMode", "true", "-nameOfDebugFile", str(self.debug),
            "-saveSettingsOnExit", "false", "-popupExitMessage", "false",
        ]
        # fmt: on
        with (self.folder / "xboard.out").open("wb") as out:
            self.process = subprocess.Popen(
                command,
                cwd=self.folder,
                env=environment,
                stdin=subprocess.PIPE,  # kept open: on end of file XBoard logs out
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,  # its own process group, fairymax included
            )

    def send(self, command: str) -> None:
        """Type a command at XBoard's terminal: it goes to the server as it is."""
        assert self.process.stdin is not None
        self.process.stdin.write(command.encode() + b"\n")
        self.process.stdin.flush()

    def _debug_text(self) -> str:
        return self.debug.read_text("latin-1") if self.debug.exists() else ""

    def received(self) -> str:
        """Everything the server sent, as XBoard logged it (control bytes unescaped)."""
        parts = [line[6:] for line in self._debug_text().splitlines() if line.startswith("<ICS: ")]
        return re.sub(r"\\([0-7]{3})", lambda m: chr(int(m.group(1), 8)), "".join(parts))

    def sent(self) -> str:
        parts = [line[6:] for line in self._debug_text().splitlines() if line.startswith(">ICS: ")]
        return re.sub(r"\\([0-7]{3})", lambda m: chr(int(m.group(1), 8)), "".join(parts))

    def ready(self) -> bool:
        """Logged in, set up for the server (style 12 sent) and the engine answered a ping."""
        found = re.search(r"Starting FICS session as ([A-Za-z]+)", self.received())
        if found:
            self.name = found.group(1)
        return bool(found) and "style 12" in self.sent() and "<first : pong" in self._debug_text()

    def games(self) -> list[chess.pgn.Game]:
        if not self.pgn.exists():
            return []
        stream = io.StringIO(self.pgn.read_text("latin-1"))
        found = []
        while (game := chess.pgn.read_game(stream)) is not None:
            found.append(game)
        return found

    def finished(self) -> int:
        """How many games XBoard saved with a result."""
        return sum(game.headers.get("Result") in RESULTS for game in self.games())

    def explain(self) -> str:
        alive = "running" if self.process.poll() is None else f"exited {self.process.returncode}"
        debug = self._debug_text().splitlines()
        ics = [line for line in debug if line.startswith(("<ICS", ">ICS"))][-60:]
        engine = [line for line in debug if "first :" in line][-15:]
        pgn = self.pgn.read_text("latin-1") if self.pgn.exists() else "(no games saved)"
        return "\n".join(
            [
                f"=== XBoard {self.label} ({self.name or 'not logged in'}, {alive})",
                _tail(self.folder / "xboard.out", 15),
                "--- ICS lines",
                *ics,
                "--- engine lines",
                *engine,
                "--- saved games",
                pgn,
            ]
        )


@contextlib.contextmanager
def running(
    pair: tuple[XBoard, XBoard], display: str, port: int
) -> Iterator[tuple[XBoard, XBoard]]:
    """Both XBoards started on ``display`` against the server on ``port``; stopped after."""
    try:
        for xboard in pair:
            xboard.start(display, port)
        yield pair
    finally:
        for xboard in pair:
            if hasattr(xboard, "process"):
                _stop(xboard.process, group=True)


@pytest.fixture
def xboards(tmp_path: Path, display: str, server: ServerProcess) -> Iterator[tuple[XBoard, XBoard]]:
    pair = XBoard("A", tmp_path / "xboard-a"), XBoard("B", tmp_path / "xboard-b")
    with running(pair, display, server.port):
        yield pair


# -- the test ---------------------------------------------------------------------------------


def _moves(game: chess.pgn.Game) -> list[str]:
    return [move.uci() for move in game.mainline_moves()]


def test_two_zippy_xboards_play_a_match_and_a_seek_game(
    server: ServerProcess, xboards: tuple[XBoard, XBoard]
) -> None:
    a, b = xboards

    def explain() -> str:
        return "\n".join([a.explain(), b.explain(), _tail(server.log)])

    _wait("both XBoards to log in", lambda: a.ready() and b.ready(), START_LIMIT, explain)
    assert a.name != b.name

    def play(how: str, pair: Callable[[], None], games: int) -> None:
        started = time.monotonic()
        pair()

        def paired() -> bool:
            for xboard in xboards:
                refused = re.search(
                    r"(?m)(?:^|% )(match|accept|seek|play): Command not found", xboard.received()
                )
                if refused:
                    pytest.fail(f"the server has no {refused.group(1)!r} command\n{explain()}")
            creating = r"\{Game \d+ \(\w+ vs\. \w+\) Creating "
            return all(len(re.findall(creating, x.received())) >= games for x in xboards)

        def done() -> bool:
            for xboard in xboards:
                if xboard.process.poll() is not None:
                    pytest.fail(f"XBoard {xboard.label} exited during the {how} game\n{explain()}")
            return a.finished() >= games and b.finished() >= games

        _wait(f"the {how} game to start in both XBoards", paired, PAIR_LIMIT, explain)
        _wait(f"the {how} game to end in both XBoards", done, GAME_LIMIT, explain)
        print(f"{how} game: {time.monotonic() - started:.1f}s")

    # 1. match / accept: A challenges, B's zippy accepts.
    play("match", lambda: a.send(f"match {b.name} {TIME_CONTROL}"), 1)
    # 2. two seeks: the server pairs them.
    play("seek", lambda: (a.send(f"seek {TIME_CONTROL}"), b.send(f"seek {TIME_CONTROL}")), 2)

    for index, how in enumerate(("match", "seek")):
        game_a, game_b = a.games()[index], b.games()[index]
        for tag in ("White", "Black", "Result"):
            assert game_a.headers.get(tag) == game_b.headers.get(tag), (how, tag, explain())
        assert {game_a.headers["White"], game_a.headers["Black"]} == {a.name, b.name}, how
        assert game_a.headers["Result"] in RESULTS, how
        assert _moves(game_a) == _moves(game_b), (how, explain())
        assert _moves(game_a), f"the {how} game has no moves"
        print(
            f"{how}: {game_a.headers['White']} vs {game_a.headers['Black']} "
            f"{game_a.headers['Result']} after {len(_moves(game_a))} plies "
            f"{{{game_a.end().comment.strip()}}}"
        )

    # The server logs each connection when it closes: stop the XBoards, then look.
    for xboard in xboards:
        _stop(xboard.process, group=True)
    for xboard in xboards:
        _wait(
            f"the server to log {xboard.name}'s connection",
            lambda x=xboard: re.search(rf"127\.0\.0\.1:\d+ {x.name}\b", server.text()),
            30,
            explain,
        )
