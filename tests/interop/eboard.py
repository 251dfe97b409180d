"""Drive the real eboard (Debian ``eboard``) under Xvfb with xdotool: the helper of
``test_eboard.py``.

:func:`running_eboard` starts an Xvfb display of its own and an eboard in a throw-away
home folder whose ``~/.eboard/eboard.conf`` holds one ICS bookmark, ``Host,127.0.0.1,PORT,
FICS``: eboard's default protocol, which runs its bundled zseal helper
(``/usr/share/games/eboard/timeseal.Linux``) and talks to the server through it. Everything
eboard does is read back from its own files, never guessed from a sleep:

- ``~/LOG.eboard`` (``eboard -log``): every complete line it received, and ``WROTE: ...``
  for every line it sent (``\\n`` inside a write shown as the two characters);
- ``~/DEBUG.eboard`` (``eboard -debug``): a trace of its functions, e.g.
  ``FicsProtocol::createGame``, ``Board::setInfo [2. ... Nc6 (0:00.100)]`` once it shows a
  position, ``Board::setCanMove`` once it lets the user move, ``FicsProtocol::gameOver``;
- the PGN file it appends every game it played to (``AppendPlayed``, ``AppendFile``);
- its X windows (the main window, its menus, the board's child window).

Waits poll those with a time limit and fail with the end of both logs and the folder of
screenshots (``import -window root``, one per step, plus ``failure.png``).

Input goes in as a person's would: keys and typed text (``xdotool``) into eboard's input
line, which keeps the keyboard focus, and two clicks on the board for a mouse move (GTK 2
gives the board a native X window only with ``GDK_NATIVE_WINDOWS=1``; its squares are
found from that window's size as eboard's ``board_configure_event`` computes them).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import os
import re
import shutil
import signal
import subprocess
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import NoReturn, TypeVar

import pytest

T = TypeVar("T")


def _program(name: str) -> str | None:
    """A program on PATH, or in /usr/games where Debian puts eboard."""
    return shutil.which(name) or shutil.which(name, path="/usr/games:/usr/local/games")


#: What the driver needs, and the Debian package that has it.
TOOLS = {
    "eboard": "eboard",
    "Xvfb": "xvfb",
    "xdotool": "xdotool",
    "xwininfo": "x11-utils",
    "xdpyinfo": "x11-utils",
    "import": "imagemagick",
}
#: eboard's zseal build, which its "FICS" bookmarks run (Debian's path).
HELPER = "/usr/share/games/eboard/timeseal.Linux"
#: The screen of the Xvfb display; eboard's main window opens at its top left, 800x600
#: (a game widens it).
SCREEN = "1024x768x24"
#: Time limits (s): for Xvfb and eboard to start, and for each wait on eboard.
START_LIMIT = 30.0
WAIT_LIMIT = 20.0
POLL = 0.05


@functools.cache
def eboard_missing() -> str | None:
    """Why eboard cannot be driven here (the missing programs), or None if it can."""
    missing = [f"{name} ({package})" for name, package in TOOLS.items() if not _program(name)]
    if _program("eboard") and not Path(HELPER).exists():
        missing.append(f"{HELPER} (eboard)")
    return ", ".join(missing) or None


requires_eboard = pytest.mark.skipif(
    eboard_missing() is not None,
    reason=f"eboard interop needs {eboard_missing()} "
    "(Debian: apt-get install eboard xvfb xdotool x11-utils imagemagick)",
)


class Stopped(Exception):
    """eboard (or its display) went away while the test waited on it."""


@dataclass
class Board:
    """Where eboard draws its board on the screen: the top left corner (a8, white at the
    bottom) and the side of a square, in pixels."""

    x: int
    y: int
    side: int

    def centre(self, square: str) -> tuple[int, int]:
        column, row = ord(square[0]) - ord("a"), 8 - int(square[1])
        return (
            self.x + column * self.side + self.side // 2,
            self.y + row * self.side + self.side // 2,
        )


@dataclass
class _Cursor:
    """A file eboard appends to, and the offset later waits start looking from."""

    path: Path
    offset: int = 0

    def text(self, start: int = 0) -> str:
        try:
            with self.path.open("rb") as file:
                file.seek(start)
                return file.read().decode("latin-1")
        except FileNotFoundError:
            return ""

    def size(self) -> int:
        try:
            return self.path.stat().st_size
        except FileNotFoundError:
            return 0


@dataclass
class Eboard:
    """One eboard on its own Xvfb display, all its files under ``folder``."""

    folder: Path
    port: int
    display: str = ""
    window: str = ""
    _processes: list[subprocess.Popen[bytes]] = field(default_factory=list)
    _shots: int = 0

    def __post_init__(self) -> None:
        self.home = self.folder / "home"
        self.shots = self.folder / "shots"
        self.pgn = self.home / "played.pgn"
        self.log = _Cursor(self.home / "LOG.eboard")
        self.debug = _Cursor(self.home / "DEBUG.eboard")
        self.environment: dict[str, str] = {}

    # -- processes ------------------------------------------------------------------------

    async def start(self) -> None:
        (self.home / ".eboard").mkdir(parents=True)
        self.shots.mkdir()
        self.display = await self._start_xvfb()
        conf = [
            f"Host,127.0.0.1,{self.port},FICS",  # eboard's default: through timeseal
            "FicsAutoLogin::0",
            "AppendPlayed::1",
            f"AppendFile::{self.pgn}",
            "EnableSounds::0",
            "BeepOpp::0",
            "AnimateMoves::0",
            "ShowCoordinates::0",  # no border around the squares
            "VectorPieces::1",  # flat pieces: no half-square band above the board
        ]
        (self.home / ".eboard" / "eboard.conf").write_text("\n".join(conf) + "\n")
        self.environment = dict(os.environ, HOME=str(self.home), DISPLAY=self.display)
        self.environment |= {"LANG": "C", "LC_ALL": "C", "GDK_NATIVE_WINDOWS": "1"}
        self.environment.pop("XAUTHORITY", None)
        eboard = _program("eboard")
        assert eboard is not None
        with (self.folder / "eboard.out").open("wb") as out:
            # cwd = HOME: eboard looks for ./timeseal.Linux first, then ~/.eboard/, then
            # /usr/share/games/eboard/. Its zseal runs in a process group of its own
            # (network.cc) and exits on the end of its input, when eboard is gone.
            self._processes.append(
                subprocess.Popen(
                    [eboard, "-log", "-debug"],
                    cwd=self.home,
                    env=self.environment,
                    stdin=subprocess.DEVNULL,
                    stdout=out,
                    stderr=subprocess.STDOUT,
                    start_new_session=True,
                )
            )
        self.window = await self._wait_window()
        # the pointer out of the way: no tooltip window to be taken for a menu
        width, height = (int(n) for n in SCREEN.split("x")[:2])
        await self._xdotool("mousemove", str(width - 1), str(height - 1))
        await self.shot("started")

    async def _start_xvfb(self) -> str:
        """Start Xvfb on a free display (it writes the number it took to -displayfd)."""
        xvfb = _program("Xvfb")
        assert xvfb is not None
        read_end, write_end = os.pipe()
        os.set_blocking(read_end, False)
        with (self.folder / "xvfb.out").open("wb") as out:
            # -noreset: without it Xvfb resets when its last client leaves (the xdpyinfo
            # below), and an eboard connecting during the reset dies ("cannot open display")
            command = [xvfb, "-displayfd", str(write_end), "-screen", "0", SCREEN]
            command += ["-nolisten", "tcp", "-noreset"]
            self._processes.append(
                subprocess.Popen(
                    command,
                    pass_fds=(write_end,),
                    stdin=subprocess.DEVNULL,
                    stdout=out,
                    stderr=subprocess.STDOUT,
                    start_new_session=True,
                )
            )
        os.close(write_end)
        number = b""
        try:
            deadline = time.monotonic() + START_LIMIT
            while not number.endswith(b"\n"):
                with contextlib.suppress(BlockingIOError):
                    chunk = os.read(read_end, 16)
                    if not chunk:
                        break
                    number += chunk
                if time.monotonic() > deadline:
                    break
                await asyncio.sleep(POLL)
        finally:
            os.close(read_end)
        if not number.strip().isdigit():
            pytest.fail(f"Xvfb gave no display number\n{_tail(self.folder / 'xvfb.out')}")
        display = f":{int(number)}"
        deadline = time.monotonic() + START_LIMIT
        while (await self._run("xdpyinfo", "-display", display, check=False))[0]:
            if time.monotonic() > deadline:
                pytest.fail(f"Xvfb {display} does not answer\n{_tail(self.folder / 'xvfb.out')}")
            await asyncio.sleep(POLL)
        return display

    def stop(self) -> None:
        """Stop eboard (with its zseal) and Xvfb, whatever state they are in."""
        for process in reversed(self._processes):
            for sig in (signal.SIGTERM, signal.SIGKILL):
                if process.poll() is not None:
                    break
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(process.pid, sig)
                with contextlib.suppress(subprocess.TimeoutExpired):
                    process.wait(timeout=5)
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)  # what is left of its group

    def _check_running(self) -> None:
        for process in self._processes:
            if process.poll() is not None:
                name = Path(str(process.args[0])).name  # type: ignore[index]
                raise Stopped(f"{name} exited with status {process.returncode}")

    # -- X ----------------------------------------------------------------------------------

    async def _run(self, *command: str, check: bool = True) -> tuple[int, str]:
        """Run an X client on eboard's display; its exit status and output."""
        environment = self.environment or dict(os.environ, DISPLAY=self.display)
        process = await asyncio.create_subprocess_exec(
            *command,
            env=environment,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        try:
            out, err = await asyncio.wait_for(process.communicate(), START_LIMIT)
        except TimeoutError:
            process.kill()
            await process.wait()
            raise
        status = process.returncode if process.returncode is not None else -1
        if check and status:
            raise RuntimeError(f"{' '.join(command)}: status {status}: {err.decode().strip()}")
        return status, out.decode("latin-1")

    async def _xdotool(self, *arguments: str) -> str:
        return (await self._run("xdotool", *arguments))[1]

    async def _toplevels(self) -> list[str]:
        """eboard's visible top-level windows: the main window, and each open menu."""
        found = await self._run(
            "xdotool", "search", "--onlyvisible", "--maxdepth", "1", "--class", "eboard",
            check=False,
        )  # fmt: skip
        return found[1].split()

    async def _wait_window(self) -> str:
        async def main_window() -> str | None:
            found = await self._run(
                "xdotool", "search", "--onlyvisible", "--name", "^eboard$", check=False
            )
            return found[1].split()[0] if found[1].split() else None

        return await self._poll("eboard's main window", main_window, START_LIMIT)

    async def keys(self, *keys: str, focus: bool = True) -> None:
        """Press keys; ``focus``: in eboard's main window (not while a menu is open)."""
        if focus:
            await self._xdotool("windowfocus", "--sync", self.window)
        await self._xdotool("key", "--delay", "50", *keys)

    async def type_line(self, text: str) -> None:
        """Type a line into eboard's input line and press Return: eboard sends it."""
        await self._xdotool("windowfocus", "--sync", self.window)
        if text:
            await self._xdotool("type", "--delay", "20", text)
        await self._xdotool("key", "Return")

    async def shot(self, label: str) -> Path:
        """A screenshot of the whole display, numbered in the order taken."""
        self._shots += 1
        path = self.shots / f"{self._shots:02d}-{label}.png"
        await self._run("import", "-window", "root", str(path))
        return path

    async def board(self) -> Board:
        """Where eboard's board is: the largest visible child of the main window that is
        wider than high (the board's drawing area, with the clocks right of it). eboard
        sizes its squares in ``board_configure_event``: ``(min(width - 200, height)) // 8``
        with no coordinates and flat pieces, the board at the area's top left."""
        tree = (await self._run("xwininfo", "-children", "-id", self.window))[1]
        candidates = []
        for found in re.finditer(
            r"^\s+(0x[0-9a-f]+) .*?\s(\d+)x(\d+)\+-?\d+\+-?\d+\s+\+(-?\d+)\+(-?\d+)\s*$",
            tree,
            re.MULTILINE,
        ):
            window, (width, height, x, y) = found.group(1), map(int, found.group(2, 3, 4, 5))
            if height >= 160 and width > height:
                candidates.append((width * height, window, width, height, x, y))
        for _, window, width, height, x, y in sorted(candidates, reverse=True):
            info = (await self._run("xwininfo", "-id", window))[1]
            if "IsViewable" in info:
                return Board(x, y, min(width - 200, height) // 8)
        raise AssertionError(f"no board among eboard's windows\n{tree}")

    async def click(self, square: str) -> None:
        x, y = (await self.board()).centre(square)
        # one xdotool: the move reaches the X server before the click. (``mousemove
        # --sync`` waits about 15 s when the pointer is already there, as it is for a
        # piece clicked on the square the last move went to.)
        await self._xdotool("mousemove", str(x), str(y), "click", "1")

    async def timeseal_icon_lit(self) -> bool:
        """Whether eboard's status bar shows its timeseal icon lit (a screenshot check).

        ``setSealPix(net->hasTimeGuard())`` (mainwindow.cc) after connecting: sealon.xpm,
        an orange padlock with a yellow clock, when the connection is its zseal pipe;
        sealoff.xpm, a blue open padlock, on plain TCP. The icon is in the 40x30 pixels at
        the bottom left of the main window; count its orange-gold pixels (about 80 lit, 0
        not)."""
        ppm = self.folder / "window.ppm"
        await self._run("import", "-window", self.window, "-depth", "8", str(ppm))
        data = ppm.read_bytes()
        header = re.match(rb"P6\s+(\d+)\s+(\d+)\s+255\s", data)
        assert header, f"{ppm} is not an 8-bit PPM"
        width, height = int(header.group(1)), int(header.group(2))
        pixels = data[header.end() :]
        gold = 0
        for row in range(height - 30, height):
            start = 3 * row * width
            corner = pixels[start : start + 3 * 40]
            for red, green, blue in zip(corner[::3], corner[1::3], corner[2::3], strict=True):
                gold += red > 200 and green > 100 and blue < 90
        return gold > 20

    # -- waiting on eboard ------------------------------------------------------------------

    async def _poll(
        self, what: str, check: Callable[[], Awaitable[T | None]], limit: float = WAIT_LIMIT
    ) -> T:
        """Poll ``check`` until it gives something; fail after ``limit`` seconds, or at
        once if eboard or Xvfb exits."""
        deadline = time.monotonic() + limit
        while True:
            found = await check()
            if found is not None:
                return found
            try:
                self._check_running()
            except Stopped as stopped:
                await self.fail(f"{stopped} while waiting for {what}")
            if time.monotonic() > deadline:
                await self.fail(f"timed out after {limit:.0f}s waiting for {what}")
            await asyncio.sleep(POLL)

    async def fail(self, message: str) -> NoReturn:
        """Fail the test with ``message``, a last screenshot and the end of eboard's logs."""
        await self.failure_shot()
        pytest.fail(f"{message}\n{self.explain()}")

    async def failure_shot(self) -> None:
        if not any(self.shots.glob("*-failure.png")):
            with contextlib.suppress(Exception):
                await self.shot("failure")

    def explain(self) -> str:
        return "\n".join(
            [
                f"eboard's files are in {self.folder}, its screenshots in {self.shots}",
                _tail(self.log.path),
                _tail(self.debug.path, 25, skip="NotebookInsider::contentUpdated"),
                _tail(self.folder / "eboard.out", 10),
            ]
        )

    def mark(self) -> None:
        """Later waits on the logs only look at what eboard writes from now on."""
        self.log.offset = self.log.size()
        self.debug.offset = self.debug.size()

    async def wait_log(self, pattern: str, limit: float = WAIT_LIMIT) -> re.Match[str]:
        """The next match of ``pattern`` in LOG.eboard (lines received, ``WROTE:`` lines
        sent; each after a time stamp and eboard's process id)."""
        return await self._wait_in(self.log, pattern, limit)

    async def wait_debug(self, pattern: str, limit: float = WAIT_LIMIT) -> re.Match[str]:
        """The next match of ``pattern`` in DEBUG.eboard (eboard's function trace)."""
        return await self._wait_in(self.debug, pattern, limit)

    async def wait_pgn(self, pattern: str, limit: float = WAIT_LIMIT) -> str:
        """The PGN file once ``pattern`` is in it."""
        await self._wait_in(_Cursor(self.pgn), pattern, limit)
        return self.pgn.read_text("latin-1")

    async def _wait_in(self, cursor: _Cursor, pattern: str, limit: float) -> re.Match[str]:
        regex = re.compile(pattern, re.MULTILINE)

        async def search() -> re.Match[str] | None:
            return regex.search(cursor.text(cursor.offset))

        found = await self._poll(f"{pattern!r} in {cursor.path.name}", search, limit)
        cursor.offset += found.end()  # latin-1: one character per byte
        return found

    async def _menus_open(self, count: int) -> bool | None:
        return True if len(await self._toplevels()) > count else None

    # -- what a person does -----------------------------------------------------------------

    async def connect(self) -> str:
        """Peer > ICS Bookmarks > the bookmark, by keys (Alt+P, B, Return), each once the
        menu before it is open; the connection eboard opened (its LOG.eboard line)."""
        self.mark()
        await self.keys("alt+p")
        await self._poll("the Peer menu", lambda: self._menus_open(1))
        await self.keys("b", focus=False)
        await self._poll("the ICS Bookmarks menu", lambda: self._menus_open(2))
        await self.keys("Return", focus=False)
        opened = await self.wait_log(r"\+ (PipeConnection|DirectConnection)::open\((.*)\)$")
        return opened.group(0)

    async def login_guest(self) -> str:
        """Log in as a guest by typing, as a person does; the name the server gave."""
        # the welcome's lines are complete lines, so they reach LOG.eboard; the "login: "
        # prompt is not (no newline after it). A line typed before the prompt shows is
        # fine: the server reads it when it asks for it.
        await self.wait_log(r"^[^]]*\] (?!WROTE:)\S")
        await self.shot("welcome")
        await self.type_line("guest")
        await self.wait_log(r'Logging you in as "\w+"')
        await self.type_line("")  # Press return to enter the server as ...
        started = await self.wait_log(r"\*\*\*\* Starting FICS session as (\w+)")
        # eboard answers that line with its set-up; "style 12" is the last of it
        await self.wait_log(r"WROTE: iset lock 1\\nstyle 12$")
        await self.wait_log(r"Style 12 set\.")
        await self.shot("logged-in")
        return started.group(1)

    async def move_by_keys(self, move: str) -> None:
        """Type a move into the input line; return once eboard sent it."""
        self.mark()
        await self.type_line(move)
        await self.wait_log(rf"WROTE: {re.escape(move)}$")

    async def move_by_clicks(self, source: str, target: str) -> None:
        """Click the piece, then the square it goes to; return once eboard sent the move
        (it sends clicked moves in coordinates, e.g. ``g1f3``)."""
        self.mark()
        await self.click(source)
        await self.click(target)
        await self.wait_log(rf"WROTE: {source}{target}$")

    async def wait_turn(self, number: int, move: str, white: bool) -> None:
        """Wait until eboard shows the position after ``move`` (move ``number``, by white
        or black) and lets its user move (``Board::setCanMove`` after it)."""
        dots = "" if white else "... "
        await self.wait_debug(rf"Board::setInfo \[{number}\. {dots}{re.escape(move)} ")
        await self.wait_debug(r"Board::setCanMove")


def _tail(path: Path, lines: int = 40, skip: str = "") -> str:
    """The last ``lines`` lines of a file (leaving out those that contain ``skip``)."""
    if not path.exists():
        return f"({path.name}: missing)"
    text = path.read_text("latin-1").splitlines()
    text = [line for line in text if not skip or skip not in line][-lines:]
    return f"--- {path.name} (last {len(text)} lines)\n" + "\n".join(text)


@contextlib.asynccontextmanager
async def running_eboard(folder: Path, port: int) -> AsyncIterator[Eboard]:
    """An eboard with a bookmark for ``127.0.0.1:port`` on a display of its own, its files
    under ``folder``; stopped (with its display) on the way out, whatever happened. An
    error from the block gets a last screenshot and, as a note, the end of eboard's logs."""
    eboard = Eboard(folder, port)
    try:
        await eboard.start()
        yield eboard
    except Exception as error:
        if not isinstance(error, pytest.fail.Exception):  # eboard.fail explained it
            await eboard.failure_shot()
            error.add_note(eboard.explain())
        raise
    finally:
        eboard.stop()
