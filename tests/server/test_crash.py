"""Kill the server process mid-game (SIGKILL) and start it again: finished games and
ratings are all there, and the interrupted game is resumed from its last stored move."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from icswire.protocol.datagrams import DG
from icswire.protocol.events import Style12Line
from icswire.server.core.storage.store import Store, database_url

from .client import Client, free_port
from .support import bits

WANTED = (15, 16, 24, 33, 87)


class ServerProcess:
    def __init__(self, data_dir: Path) -> None:
        self.data_dir = data_dir
        self.port = free_port()
        self.process: subprocess.Popen[str] | None = None

    def start(self) -> None:
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "icswire",
                "serve",
                "--port",
                str(self.port),
                "--data-dir",
                str(self.data_dir),
            ],
            stderr=subprocess.PIPE,
            text=True,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
        )
        assert self.process.stderr is not None
        while "listening on" not in (line := self.process.stderr.readline()):
            assert line, "the server did not start"

    def kill(self) -> None:
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=10)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=10)


@pytest.fixture
def server_process(tmp_path: Path) -> Iterator[ServerProcess]:
    process = ServerProcess(tmp_path / "data")
    with Store(database_url(process.data_dir, None)) as store:
        store.add_user("Crasha", "pw")
        store.add_user("Crashb", "pw")
    yield process
    process.stop()


async def _pair(a: Client, b: Client, terms: str = "5 0 rated") -> tuple[Client, Client]:
    """A challenges B; returns (white, black)."""
    await a.send(f"match crashb {terms}")
    await b.expect_text("Challenge: Crasha")
    await b.send("accept crasha")
    started = await a.expect_dg(DG.MY_GAME_STARTED)
    return (a, b) if started.whitename == "Crasha" else (b, a)


async def _move(white: Client, black: Client, ply: int, san: str) -> None:
    mover, other = (white, black) if ply % 2 == 0 else (black, white)
    await mover.send(san)
    await other.expect_dg(DG.SEND_MOVES, algebraic=san)


async def test_sigkill_mid_game_loses_no_finished_game_and_the_game_resumes(
    server_process: ServerProcess,
) -> None:
    server_process.start()
    a = await Client.connect(server_process.port, WANTED)
    await a.login("Crasha", "pw", f"level2settings={bits(*WANTED)}")
    b = await Client.connect(server_process.port, WANTED)
    await b.login("Crashb", "pw", f"level2settings={bits(*WANTED)}")

    white, black = await _pair(a, b)
    winner = "Crasha" if black is a else "Crashb"
    for ply, san in enumerate(["f3", "e5", "g4"]):
        await _move(white, black, ply, san)
    await black.send("Qh4#")
    await white.expect_dg(DG.MY_GAME_RESULT, score="0-1")
    await white.expect(lambda e: getattr(e, "dg", None) == DG.NEW_MY_RATING and e.ratings[1])

    white, black = await _pair(a, b)
    for ply, san in enumerate(["e4", "e5"]):
        await _move(white, black, ply, san)
    await asyncio.sleep(1.0)  # the saves run right behind the moves
    server_process.kill()
    await a.close()
    await b.close()

    server_process.start()
    with Store(database_url(server_process.data_dir, None)) as store:
        finished = store.history("Crasha")
        assert [(g.moves, g.status, g.mode, g.score) for g in finished] == [
            (("f3", "e5", "g4", "Qh4#"), 0, 1, "0-1")
        ]
        assert store.rating("Crasha", "Blitz").games == 1
        assert store.rating(winner, "Blitz").wins == 1
        (adjourned,) = store.adjourned("Crasha")
        assert adjourned.moves == ("e4", "e5") and adjourned.status == 2

    a = await Client.connect(server_process.port, WANTED)
    await a.login("Crasha", "pw", f"level2settings={bits(*WANTED)}")
    b = await Client.connect(server_process.port)
    await b.login("Crashb", "pw")
    await b.command("set style 12")  # style 1 is the default
    await a.send("resume crashb")
    await b.expect_text("Challenge: ")
    await b.send("accept crasha")
    resumed = await a.expect_dg(DG.MY_GAME_STARTED)
    white_is_a = resumed.whitename == "Crasha"
    board = await b.expect(lambda e: isinstance(e, Style12Line))
    assert board.record.verbose_move == "P/e7-e5" and board.record.side_to_move == "W"
    mover = a if white_is_a else b
    await mover.send("Nf3")
    if white_is_a:
        await b.expect(lambda e: isinstance(e, Style12Line) and e.record.pretty_move == "Nf3")
    else:
        await a.expect_dg(DG.SEND_MOVES, algebraic="Nf3")
    await asyncio.sleep(0.5)
    with Store(database_url(server_process.data_dir, None)) as store:
        assert store.adjourned("Crasha") == []  # resumed: no longer listed
        (playing,) = [g for g in [store.game(resumed.game_id)] if g is not None]
        assert playing.moves == ("e4", "e5", "Nf3") and playing.status is None
    await a.close()
    await b.close()
