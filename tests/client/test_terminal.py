"""``icswire connect`` driven in tmux at 80x24 (send-keys, capture-pane): it logs in,
observes a game two library clients play, and after each move its screen shows the
position, the move list in SAN and the clocks; tells and channel tells show in its pane."""

from __future__ import annotations

import asyncio
import os
import re
import shutil
import subprocess
import sys
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path

import chess
import pytest

from icswire.client import connect
from icswire.client.terminal import board_lines, format_clock
from tests.server.client import free_port

needs_tmux = pytest.mark.skipif(
    shutil.which("tmux") is None, reason="tmux is not installed: the terminal client test drives it"
)
TIMEOUT = 10.0
SESSION = f"icswire-terminal-{os.getpid()}"


@pytest.fixture
async def port(tmp_path: Path) -> AsyncIterator[int]:
    """A real ``icswire serve`` in a subprocess."""
    number = free_port()
    data = str(tmp_path / "data")
    server = subprocess.Popen(
        [sys.executable, "-m", "icswire", "serve", "--port", str(number), "--data-dir", data],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        for _ in range(100):
            try:
                _, writer = await asyncio.open_connection("127.0.0.1", number)
            except OSError:
                await asyncio.sleep(0.1)
                continue
            writer.close()
            break
        else:
            pytest.fail("the server did not start listening")
        yield number
    finally:
        server.terminate()
        server.wait(10)


def tmux(*args: str) -> str:
    done = subprocess.run(["tmux", *args], capture_output=True, text=True, timeout=10, check=True)
    return done.stdout


@pytest.fixture
def terminal(port: int) -> Iterator[str]:
    """The terminal client in a detached 80x24 tmux session; its exit status stays on
    screen after it ends."""
    command = (
        f"{sys.executable} -m icswire connect 127.0.0.1 {port} --user Watcher;"
        " echo EXITED $?; sleep 60"
    )
    tmux("new-session", "-d", "-s", SESSION, "-x", "80", "-y", "24", command)
    try:
        yield SESSION
    finally:
        subprocess.run(["tmux", "kill-session", "-t", SESSION], capture_output=True, timeout=10)


async def screen_until(check: Callable[[str], bool], what: str) -> str:
    """Poll capture-pane (up to TIMEOUT seconds) until ``check(screen)``."""
    screen = ""
    for _ in range(int(TIMEOUT / 0.1)):
        screen = await asyncio.to_thread(tmux, "capture-pane", "-p", "-t", SESSION)
        if check(screen):
            return screen
        await asyncio.sleep(0.1)
    pytest.fail(f"the screen never showed {what}:\n{screen}")


async def until(condition: Callable[[], bool]) -> None:
    for _ in range(int(TIMEOUT / 0.05)):
        if condition():
            return
        await asyncio.sleep(0.05)
    pytest.fail("timed out")


def keys(text: str) -> None:
    tmux("send-keys", "-t", SESSION, "-l", text)
    tmux("send-keys", "-t", SESSION, "Enter")


def rank_lines(board: chess.Board) -> list[str]:
    """``8 r n b q k b n r`` ... ``1 R N B Q K B N R``: python-chess's own drawing."""
    return [f"{8 - i} {row}" for i, row in enumerate(str(board).splitlines())]


def shows_position(board: chess.Board) -> Callable[[str], bool]:
    def check(screen: str) -> bool:
        lines = screen.splitlines()
        return all(any(line.startswith(rank) for line in lines) for rank in rank_lines(board))

    return check


CLOCK = re.compile(r"^\*(Ann|Ben) +(\d+):(\d\d)\b", re.M)


def test_board_drawn_from_blacks_side_and_clocks() -> None:
    board = chess.Board()
    board.push_uci("e2e4")
    lines = board_lines(board, black_at_bottom=True)
    assert lines[0] == "1 R N B K Q B N R" and lines[3] == "4 . . . P . . . ."
    assert lines[8] == "  h g f e d c b a"
    assert board_lines(board)[:8] == rank_lines(board)
    assert [format_clock(ms) for ms in (None, 299_400, 3_725_000, -2_500)] == [
        "-:--",
        "4:59",
        "1:02:05",
        "-0:02",
    ]


@needs_tmux
async def test_the_terminal_client_observes_a_game_in_tmux(port: int, terminal: str) -> None:
    await screen_until(lambda s: "Starting FICS session as Watcher" in s, "the login")
    async with (
        connect("127.0.0.1", port, "Ann") as ann,
        connect("127.0.0.1", port, "Ben") as ben,
    ):
        await ann.run("match Ben 5 0 white")
        await ben.run("accept Ann")
        await until(lambda: 1 in ann.state.my_games and 1 in ben.state.my_games)

        keys("observe 1")
        await screen_until(lambda s: "game 1 (observing)" in s and "Ann vs Ben" in s, "game 1")

        board = chess.Board()
        uci_moves = ["e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6", "b5c6"]
        for ply, uci in enumerate(uci_moves):
            move = chess.Move.from_uci(uci)
            san = board.san(move)
            board.push(move)
            await (ann if ply % 2 == 0 else ben).send(uci)
            number = ply // 2 + 1
            entry = f"{number}. {san}" if ply % 2 == 0 else f" {san}"
            position = shows_position(board)
            screen = await screen_until(
                lambda s, e=entry, p=position: p(s) and e in s,  # type: ignore[misc]
                f"the position and {entry.strip()!r} after {uci}",
            )
        assert "1. e4 e5" in screen and "4. Bxc6" in screen
        assert "Black to move" in screen

        # the clock of the side to move (marked *) ticks on screen
        first = CLOCK.search(screen)
        assert first is not None and first.group(1) == "Ben", screen
        later = await screen_until(
            lambda s: (m := CLOCK.search(s)) is not None and m.groups() != first.groups(),
            "Ben's clock running down",
        )
        tick = CLOCK.search(later)
        assert tick is not None
        assert int(tick.group(2)) * 60 + int(tick.group(3)) < 5 * 60

        # tells and channel tells land in the text pane
        await ann.send("tell Watcher good luck to both")
        await screen_until(lambda s: "Ann tells you: good luck to both" in s, "the tell")
        await ben.run("+channel 7")
        keys("+channel 7")
        await until(lambda: "Watcher" in ben.state.channels.get(7, set()))
        await ben.send("tell 7 anyone here?")
        await screen_until(lambda s: "Ben(7): anyone here?" in s, "the channel tell")

    keys("quit")
    await screen_until(lambda s: "EXITED 0" in s, "a clean exit after `quit`")
