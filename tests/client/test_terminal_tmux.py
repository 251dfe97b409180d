"""``icswire connect`` driven in tmux (send-keys, capture-pane) against a real ``icswire
serve`` on 127.0.0.1, the other players being library clients in the test: the text
pane's scrollback, the input history and completion, a game played to its end (premove,
bell, header, clocks and result), two observed games switched with a key, and the layout
at 80x24 and when the window grows."""

from __future__ import annotations

import asyncio
import itertools
import os
import re
import shutil
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import chess
import pytest

from icswire.client import Connection, connect
from tests.client.support import until
from tests.server.client import free_port

pytestmark = pytest.mark.skipif(
    shutil.which("tmux") is None, reason="tmux is not installed: these tests drive the client in it"
)
TIMEOUT = 15.0
_sessions = itertools.count()


@pytest.fixture
async def port(tmp_path: Path) -> AsyncIterator[int]:
    """A real ``icswire serve`` in a subprocess, on a fresh SQLite file."""
    number = free_port()
    database = f"sqlite:///{tmp_path / 'server.sqlite3'}"
    server = subprocess.Popen(
        [sys.executable, "-m", "icswire", "serve", "--port", str(number), "--database", database],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + TIMEOUT
        while True:
            try:
                _, writer = await asyncio.open_connection("127.0.0.1", number)
            except OSError:
                if time.monotonic() > deadline or server.poll() is not None:
                    pytest.fail("the server did not start listening")
                await asyncio.sleep(0.1)
                continue
            writer.close()
            break
        yield number
    finally:
        server.terminate()
        server.wait(10)


def tmux(*args: str) -> str:
    done = subprocess.run(["tmux", *args], capture_output=True, text=True, timeout=10, check=True)
    return done.stdout


@dataclass
class Screen:
    """The client in a detached tmux session: keys go in, the pane comes out."""

    session: str
    bells: Path

    def keys(self, *names: str) -> None:
        tmux("send-keys", "-t", self.session, *names)

    def type(self, text: str, enter: bool = True) -> None:
        tmux("send-keys", "-t", self.session, "-l", text)
        if enter:
            self.keys("Enter")

    def capture(self) -> str:
        return tmux("capture-pane", "-p", "-t", self.session)

    async def until(self, check: Callable[[str], bool], what: str) -> str:
        """Poll the pane until ``check(pane)``, for up to TIMEOUT seconds."""
        deadline = time.monotonic() + TIMEOUT
        while True:
            pane = await asyncio.to_thread(self.capture)
            if check(pane):
                return pane
            if time.monotonic() > deadline:
                pytest.fail(f"the screen never showed {what}:\n{pane}")
            await asyncio.sleep(0.05)

    async def shows(self, text: str) -> str:
        return await self.until(lambda pane: text in pane, repr(text))

    def bell_count(self) -> int:
        return len(self.bells.read_text().split()) if self.bells.exists() else 0

    def header(self, pane: str) -> str:
        return pane.splitlines()[0]


def start_screen(port: int, tmp_path: Path, user: str, width: int, height: int) -> Screen:
    session = f"icswire-term-{os.getpid()}-{next(_sessions)}"
    bells = tmp_path / f"{session}.bells"
    env = f"PYTHONPATH={os.environ.get('PYTHONPATH', '')} XDG_STATE_HOME={tmp_path / 'state'}"
    command = (
        f"env {env} {sys.executable} -m icswire connect 127.0.0.1 {port} --user {user};"
        " echo EXITED $?; sleep 60"
    )
    tmux("new-session", "-d", "-s", session, "-x", str(width), "-y", str(height), command)
    tmux("set-option", "-t", session, "-w", "monitor-bell", "on")
    tmux("set-hook", "-t", session, "alert-bell", f'run-shell "echo bell >> {bells}"')
    return Screen(session, bells)


@pytest.fixture
def screens(port: int, tmp_path: Path) -> Iterator[Callable[..., Screen]]:
    """Start clients in tmux (``screens(user, width, height)``); all end with the test."""
    started: list[Screen] = []

    def start(user: str = "Tess", width: int = 100, height: int = 30) -> Screen:
        started.append(start_screen(port, tmp_path, user, width, height))
        return started[-1]

    try:
        yield start
    finally:
        for screen in started:
            subprocess.run(
                ["tmux", "kill-session", "-t", screen.session], capture_output=True, timeout=10
            )


async def logged_in(screen: Screen, user: str = "Tess") -> None:
    await screen.shows(f"Starting ICC session as {user}")


def rank_lines(board: chess.Board) -> list[str]:
    """``8 r n b q k b n r`` ... ``1 R N B Q K B N R``: python-chess's own drawing."""
    return [f"{8 - i} {row}" for i, row in enumerate(str(board).splitlines())]


def shows_position(board: chess.Board) -> Callable[[str], bool]:
    def check(pane: str) -> bool:
        lines = pane.splitlines()
        return all(any(line.startswith(rank) for line in lines) for rank in rank_lines(board))

    return check


def clock_of(pane: str, name: str) -> int:
    """The seconds of ``name``'s clock line on the board (``*Tess   4:41``)."""
    m = re.search(rf"^[* ]{name} +(\d+):(\d\d)\b", pane, re.M)
    assert m is not None, pane
    return int(m[1]) * 60 + int(m[2])


async def game_on(a: Connection, b: Connection, minutes: int = 5) -> int:
    """``a`` (White) and ``b`` start a game; its number."""
    await a.run(f"match {b.name} {minutes} 0 white")
    await b.run(f"accept {a.name}")
    await until(lambda: any(g.relation == "PW" for g in a.state.my_games.values()))
    return next(n for n, g in a.state.my_games.items() if g.relation == "PW")


def lines_below(pane: str) -> int:
    """How many lines the header says are below the view (0 at the bottom)."""
    found = re.search(r"(\d+) more below", pane)
    return int(found.group(1)) if found else 0


async def page_up_until(screen: Screen, text: str) -> str:
    """PageUp, a page at a time (each waited for), until ``text`` is in view."""
    pane = await asyncio.to_thread(screen.capture)
    for _ in range(12):
        if text in pane:
            return pane
        before = lines_below(pane)
        screen.keys("PPage")
        pane = await screen.until(
            lambda p, before=before: lines_below(p) != before, "the view a page up"
        )
    pytest.fail(f"paging up never showed {text!r}:\n{pane}")


async def test_scrollback_history_and_completion(screens: Callable[..., Screen], port: int) -> None:
    screen = screens(height=24)
    await logged_in(screen)
    screen.type("help commands")
    pane = await screen.shows("See also: abbreviations")
    assert "> help commands" not in pane  # the top of the output went up out of sight

    pane = await page_up_until(screen, "> help commands")
    assert "more below (PageDown)" in pane and "See also: abbreviations" not in pane
    await page_up_until(screen, "Welcome to icswire")
    screen.keys(*["NPage"] * 12)  # the list is long: more pages down than up, to be sure
    pane = await screen.until(lambda p: "more below" not in p, "the bottom again")
    assert "See also: abbreviations" in pane

    # the mouse wheel (SGR mouse reports) scrolls too
    screen.type("\x1b[<64;5;12M" * 8, enter=False)
    await screen.shows("more below (PageDown)")
    screen.type("\x1b[<65;5;12M" * 8, enter=False)
    await screen.until(lambda p: "more below" not in p, "the wheel back down")

    # new lines while scrolled up do not move the view
    screen.keys("PPage")
    top = await screen.shows("more below")
    async with connect("127.0.0.1", port, "Ben") as ben:
        await ben.send("tell Tess are you there?")
        await until(lambda: "Ben" in ben.state.players and "Tess" in ben.state.players)
        pane = await screen.until(lambda p: "2:tells*" in p, "the unread mark of the tells tab")
        assert pane.splitlines()[2:6] == top.splitlines()[2:6]
        screen.keys("Enter")  # an empty line goes back down
        await screen.shows("Ben tells you: are you there?")

        # Up walks the lines sent; with text typed, only those that begin with it
        screen.type("finger Ben")
        await screen.shows("Finger of Ben")
        screen.type("uptime")
        await screen.shows("> uptime")
        screen.keys("Up", "Up")
        await screen.until(lambda p: p.rstrip().endswith("> finger Ben"), "finger in the input")
        screen.keys("Down")
        await screen.until(lambda p: p.rstrip().endswith("> uptime"), "uptime in the input")
        screen.keys("C-u")
        screen.type("hel", enter=False)
        screen.keys("Up")
        await screen.until(lambda p: p.rstrip().endswith("> help commands"), "help from hel")

        # Tab completes command words, then names of players met
        screen.keys("C-u")
        screen.type("obs", enter=False)
        screen.keys("Tab")
        await screen.until(lambda p: p.rstrip().endswith("> observe"), "observe completed")
        screen.keys("C-u")
        screen.type("t B", enter=False)
        screen.keys("Tab")
        await screen.until(lambda p: p.rstrip().endswith("> t Ben"), "Ben completed")
        screen.type("fine thanks")
        await screen.shows("(told Ben)")
        screen.keys("M-2")  # the tells tab: both sides of the conversation, nothing else
        pane = await screen.shows("Tess -> Ben: fine thanks")
        assert "Ben tells you: are you there?" in pane and "told" not in pane
        assert "2:tells*" not in pane

    screen.type("quit")
    await screen.shows("EXITED 0")


async def test_a_game_played_to_its_end(screens: Callable[..., Screen], port: int) -> None:
    screen = screens()
    await logged_in(screen)
    async with connect("127.0.0.1", port, "Ben") as ben:
        screen.type("match Ben 5 0 white")
        await until(lambda: ("Tess", "Ben") in ben.state.matches)
        await ben.run("accept Tess")
        pane = await screen.shows("(playing)")
        assert "game 1 Tess-Ben (playing)" in screen.header(pane)
        game = ben.state.my_games[1].game

        screen.type("e4")
        await until(lambda: len(game.moves) == 1)
        bells = screen.bell_count()
        screen.type("Nf3")  # Black's turn: a premove
        await screen.shows("premove: Nf3 (Ctrl-X cancels)")
        assert len(game.moves) == 1
        await ben.send("e5")
        await until(lambda: len(game.moves) == 3)  # the premove went when my turn came
        assert game.moves[2].san == "Nf3"
        pane = await screen.shows("2. Nf3")
        assert "> Nf3 (premove sent)" in pane and "premove:" not in pane
        await until(lambda: screen.bell_count() > bells)  # the bell rang on my move

        screen.type("Bc4")  # a premove, cancelled before Black moves
        await screen.shows("premove: Bc4")
        screen.keys("C-x")
        await screen.shows("premove Bc4 cancelled")
        await ben.send("Nc6")
        board = chess.Board()
        for san in ("e4", "e5", "Nf3", "Nc6"):
            board.push_san(san)
        pane = await screen.until(shows_position(board), "the position after 2... Nc6")
        assert "Bc4 (premove sent)" not in pane
        assert "White to move" in pane and len(game.moves) == 4

        # my clock runs from the last board; it stops where it is at the end
        started = clock_of(pane, "Tess")
        pane = await screen.until(lambda p: clock_of(p, "Tess") < started, "my clock running")
        running = clock_of(pane, "Tess")
        black = clock_of(pane, "Ben")
        await ben.send("draw")
        await screen.shows("Ben offers you a draw")
        screen.type("draw")
        pane = await screen.shows("(over) 1/2-1/2")
        assert "game 1 Tess-Ben (over) 1/2-1/2" in screen.header(pane)
        assert "1/2-1/2 Game drawn by mutual agreement" in pane
        assert pane.count("Game drawn by mutual agreement} 1/2-1/2") == 1, pane
        assert "{Game 1 (Tess vs. Ben) Game drawn by mutual agreement} 1/2-1/2" in pane
        final = clock_of(pane, "Tess")
        assert final <= running < started
        assert clock_of(pane, "Ben") == black
        assert not re.search(r"^\*(Tess|Ben) ", pane, re.M)  # no side is to move any more
        # and it stays there (a wait, not a measure: the screen redraws 4 times a second)
        deadline = time.monotonic() + 1.5
        while time.monotonic() < deadline:
            later = await asyncio.to_thread(screen.capture)
            assert (clock_of(later, "Tess"), clock_of(later, "Ben")) == (final, black)
            await asyncio.sleep(0.1)


async def test_two_observed_games_switched(screens: Callable[..., Screen], port: int) -> None:
    screen = screens()
    await logged_in(screen)
    async with (
        connect("127.0.0.1", port, "Ann") as ann,
        connect("127.0.0.1", port, "Ben") as ben,
        connect("127.0.0.1", port, "Cid") as cid,
        connect("127.0.0.1", port, "Dan") as dan,
    ):
        first = await game_on(ann, ben)
        second = await game_on(cid, dan, minutes=3)
        await ann.send("e4")
        await cid.send("d4")
        await until(lambda: len(ann.state.my_games[first].game.moves) == 1)
        await until(lambda: len(cid.state.my_games[second].game.moves) == 1)

        screen.type(f"observe {first}")
        await screen.shows(f"game {first} Ann-Ben (observing)")
        screen.type(f"observe {second}")
        pane = await screen.shows(f"game {second} Cid-Dan (observing)")
        assert f"games {first} [{second}] (Ctrl-G)" in screen.header(pane)
        assert "1. d4" in pane and "1. e4" not in pane

        screen.keys("C-g")
        pane = await screen.shows(f"game {first} Ann-Ben (observing)")
        assert f"games [{first}] {second}" in screen.header(pane) and "1. e4" in pane
        await ben.send("c5")
        await screen.shows("1. e4 c5")
        await dan.send("d5")
        await until(lambda: len(cid.state.my_games[second].game.moves) == 2)
        screen.keys("C-g")
        await screen.shows("1. d4 d5")

        # the game shown ends: it stays, with its result; the other goes on
        await cid.run("resign")
        pane = await screen.shows(f"game {second} Cid-Dan (over) 0-1")
        assert "0-1 Cid resigns" in pane
        screen.keys("C-g")
        await screen.shows(f"game {first} Ann-Ben (observing)")


async def test_layout_at_80x24_and_larger(screens: Callable[..., Screen], port: int) -> None:
    screen = screens(width=80, height=24)
    await logged_in(screen)
    pane = await screen.shows("no game:")
    assert screen.header(pane).rstrip().endswith("seek 5 0")  # the hint whole, not cut
    async with connect("127.0.0.1", port, "Ben") as ben:
        await ben.run("seek 5 0")
        screen.keys("M-3")
        await screen.until(
            lambda p: re.search(r"^ +\d+ Ben +.* 5 0 +u blitz", p, re.M) is not None,
            "the seek list",
        )
        screen.keys("M-1")
        tmux("resize-window", "-t", screen.session, "-x", "140", "-y", "40")
        pane = await screen.until(
            lambda p: len(p.splitlines()[0]) > 80 and "F1: keys" in p, "the header at 140"
        )
        assert re.search(r"\| +\d+ Ben +-+ +5 0 +u blitz", pane)  # on the right now
        assert len(pane.splitlines()) == 40
        screen.keys("F1")
        await screen.shows("Ctrl-G           show the next game")


async def test_an_observed_game_move_by_move_with_tells(
    screens: Callable[..., Screen], port: int
) -> None:
    """At 80x24: after each move the position, the move list in SAN and the clocks; tells
    and channel tells land in the console and in their tabs."""
    screen = screens(user="Watcher", width=80, height=24)
    await logged_in(screen, "Watcher")
    async with (
        connect("127.0.0.1", port, "Ann") as ann,
        connect("127.0.0.1", port, "Ben") as ben,
    ):
        number = await game_on(ann, ben)
        screen.type(f"observe {number}")
        await screen.shows(f"game {number} Ann-Ben (observing)")

        board = chess.Board()
        pane = ""
        for ply, uci in enumerate(["e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6", "b5c6"]):
            move = chess.Move.from_uci(uci)
            san = board.san(move)
            board.push(move)
            await (ann if ply % 2 == 0 else ben).send(uci)
            entry = f"{ply // 2 + 1}. {san}" if ply % 2 == 0 else f" {san}"
            position = shows_position(board)
            pane = await screen.until(
                lambda p, e=entry, s=position: s(p) and e in p,  # type: ignore[misc]
                f"the position and {entry.strip()!r} after {uci}",
            )
        assert "1. e4 e5" in pane and "4. Bxc6" in pane and "Black to move" in pane
        assert re.search(r"^\*Ben ", pane, re.M)  # the side to move is marked
        started = clock_of(pane, "Ben")
        await screen.until(lambda p: clock_of(p, "Ben") < started, "Ben's clock running down")

        screen.keys("F2")  # the board hidden: the text pane has its rows
        pane = await screen.until(lambda p: not position(p), "the board hidden")
        assert f"game {number} Ann-Ben (observing)" in screen.header(pane)
        screen.keys("F2")
        await screen.until(position, "the board again")

        await ann.send("tell Watcher good luck to both")
        await screen.shows("Ann tells you: good luck to both")
        await ben.run("+channel 7")
        screen.type("+channel 7")
        await until(lambda: "Watcher" in ben.state.channels.get(7, set()))
        await ben.send("tell 7 anyone here?")
        await screen.shows("Ben(7): anyone here?")
        pane = await screen.shows("4:ch7*")
        screen.type("tell 7 me")
        screen.keys("M-4")
        pane = await screen.shows("Watcher(7): me")
        assert "Ben(7): anyone here?" in pane and "good luck" not in pane

    screen.type("quit")
    await screen.shows("EXITED 0")
