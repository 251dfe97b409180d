"""``icswire serve --computer``: reading the option (engines by name or path, levels, what
is not installed), the house of computers beside a server (accounts made ready, bots
started once it listens, started again after a failure, logged out before it stops), and
a real engine playing a guest to the end (skipped without stockfish)."""

from __future__ import annotations

import asyncio
import logging
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import chess
import pytest

from icswire.bot.config import BotConfig
from icswire.bot.games import is_my_turn, wire_move
from icswire.client import connect as client_connect
from icswire.computers.accounts import FORMULA
from icswire.computers.engines import KNOWN, ComputerSpecError, parse_computers
from icswire.computers.house import House, bot_config, seeks_of
from icswire.protocol import ivars
from icswire.protocol.events import Text
from icswire.server.app import Server
from icswire.server.features.pairing.state import MAX_COMPUTER_SEEKS

from .client import free_port
from .support import connect, until
from .support import texts as shown

STOCKFISH = shutil.which("stockfish") or (
    "/usr/games/stockfish" if os.access("/usr/games/stockfish", os.X_OK) else None
)


def installed(*names: str) -> Any:
    """A ``find`` for :func:`parse_computers` that finds ``names`` in /usr/games."""
    return lambda name: f"/usr/games/{name}" if name in names else None


# -- reading --computer ----------------------------------------------------------------------


def test_a_known_engine_gives_an_account_per_level() -> None:
    computers, missing = parse_computers("stockfish", installed("stockfish"))
    assert missing == []
    assert [c.name for c in computers] == ["StockfishEasy", "StockfishMedium", "Stockfish"]
    assert {c.command for c in computers} == {("/usr/games/stockfish",)}
    easy, medium, strong = (c.level for c in computers)
    assert (easy.skill, easy.depth) == (0, 5) and medium.nodes and strong.skill == 20
    (one,) = parse_computers("Stockfish:easy", installed("stockfish"))[0]
    assert one.name == "StockfishEasy"
    sjeng, _ = parse_computers("sjeng:strong, stockfish:medium", installed("stockfish", "sjeng"))
    assert [(c.name, c.engine.protocol) for c in sjeng] == [
        ("Sjeng", "xboard"),
        ("StockfishMedium", "uci"),
    ]


def test_an_engine_by_path_is_uci_unless_xboard_and_named_after_its_program(
    tmp_path: Path,
) -> None:
    program = tmp_path / "my-engine_2"
    program.write_text("#!/bin/sh\n")
    program.chmod(0o755)
    computers, _ = parse_computers(f"{program}:medium,xboard:{program}:easy")
    assert [(c.name, c.engine.protocol, c.command) for c in computers] == [
        ("Myengine2Medium", "uci", (str(program),)),
        ("Myengine2Easy", "xboard", (str(program),)),
    ]
    with pytest.raises(ComputerSpecError, match="two engines would play as Myengine2Easy"):
        parse_computers(f"{program}:easy,xboard:{program}:easy")


def test_an_engine_not_installed_is_said_plainly_and_a_malformed_one_refused() -> None:
    computers, missing = parse_computers("stockfish,sjeng,/no/such/engine", installed("sjeng"))
    assert [c.name for c in computers] == ["SjengEasy", "SjengMedium", "Sjeng"]
    assert missing == [
        "stockfish is not installed (not in PATH nor /usr/games): apt install stockfish,"
        " or give its program's path",
        "/no/such/engine: no such engine program (not a known engine, nor an executable)",
    ]
    for wrong in ("stockfish:hard", "stockfish,,sjeng", "lisp:/bin/sh"):
        with pytest.raises(ComputerSpecError):
            parse_computers(wrong, installed("stockfish", "sjeng"))


def test_each_computer_keeps_common_seeks_rated_and_unrated_within_its_cap() -> None:
    for name in KNOWN:
        for computer in parse_computers(name, installed(name))[0]:
            seeks = seeks_of(computer)
            assert len(seeks) <= MAX_COMPUTER_SEEKS
            chess_seeks = {(s.base, s.increment, s.rated) for s in seeks if s.variant == "chess"}
            assert chess_seeks == {
                (base, inc, rated)
                for base, inc in ((1, 0), (3, 0), (5, 3), (15, 10))
                for rated in (True, False)
            }
    (sjeng, *_) = parse_computers("sjeng", installed("sjeng"))[0]
    assert {s.variant for s in seeks_of(sjeng)} == {"chess", "crazyhouse", "suicide"}
    config = bot_config(sjeng, "pw", "127.0.0.1", 5000)
    assert config.challenges.titles_refused == ("C",) and config.challenges.max_games == 1
    assert config.engine.protocol == "xboard" and config.engine.depth == 2


# -- the house beside a server (bots that only log in) -----------------------------------------


class LoggingIn:
    """A runner that logs in as the bot would, and stays until told to stop; it fails
    ``failures`` times first."""

    def __init__(self, failures: int = 0) -> None:
        self.failures = failures
        self.runs = 0

    async def __call__(self, config: BotConfig, *, stop: asyncio.Event) -> None:
        self.runs += 1
        if self.runs <= self.failures:
            raise RuntimeError("the engine fell over")
        ics = client_connect(
            config.host, config.port, config.user, config.password, dialect=config.dialect
        )
        await ics.open()
        try:
            await stop.wait()
        finally:
            await ics.close()


def computers_of(text: str) -> Any:
    return parse_computers(text, installed("stockfish", "sjeng"))[0]


@pytest.mark.sockets
async def test_the_house_readies_accounts_runs_bots_and_logs_them_out(
    server: Server, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, "icswire.computers")
    runner = LoggingIn()
    house = House(computers_of("stockfish"), ["sjeng is not installed"], runner=runner)
    await house.start(server)
    assert house.started == ["StockfishEasy", "StockfishMedium", "Stockfish"]
    assert "computer opponents: StockfishEasy, StockfishMedium, Stockfish" in caplog.messages
    assert "computer opponents: sjeng is not installed" in caplog.messages
    keys = {"stockfisheasy", "stockfishmedium", "stockfish"}
    await until(lambda: keys <= server.world.online.keys())
    assert server.store.server_list("computer") == ["Stockfish", "StockfishEasy", "StockfishMedium"]
    account = server.store.load("Stockfish")
    assert account is not None and account.settings["formula"] == FORMULA
    guest = await connect(server)
    await guest.login("Zoe")
    entries = " ".join(shown(await guest.command("who"))).split()
    assert {"Stockfish(C)", "StockfishEasy(C)", "StockfishMedium(C)"} <= set(entries)
    await house.stop()
    assert not keys & server.world.online.keys()  # stop waited for them to go
    await guest.close()


@pytest.mark.sockets
async def test_a_failing_bot_is_started_again_and_a_persons_account_never_taken(
    server: Server, caplog: pytest.LogCaptureFixture
) -> None:
    await asyncio.to_thread(server.store.add_user, "Stockfish", "theirs")
    runner = LoggingIn(failures=2)
    house = House(computers_of("stockfish:easy,stockfish:strong"), runner=runner)
    house.first_retry = 0.01
    await house.start(server)
    assert house.started == ["StockfishEasy"]
    refused = "computer opponents: Stockfish not started: Stockfish is somebody's account"
    assert any(m.startswith(refused) for m in caplog.messages)
    assert server.store.check_password("Stockfish", "theirs")
    await until(lambda: "stockfisheasy" in server.world.online)
    assert runner.runs == 3
    assert [m for m in caplog.messages if "failed" in m] == [
        "computer StockfishEasy failed",
        "computer StockfishEasy failed",
    ]
    await house.stop()


# -- a real engine (stockfish, the easy level) ---------------------------------------------


async def until_state(ics: Any, condition: Any, timeout: float = 30.0) -> None:
    """Read the connection's events until ``condition()`` holds of its state."""

    async def wait() -> None:
        if condition():
            return
        async for _ in ics.events():
            if condition():
                return
        raise ConnectionError("the connection ended")

    await asyncio.wait_for(wait(), timeout)


#: FICS's line at a game's end: ``{Game 3 (A vs. B) A checkmated} 1-0``.
GAME_END = re.compile(r"\{Game \d+ \(\w+ vs\. \w+\) [^}]+\} (1-0|0-1|1/2-1/2)")


def computer_seeks(ics: Any, name: str) -> list[Any]:
    return [seek for seek in ics.state.seeks.values() if seek.name == name]


async def play_randomly(ics: Any, rng: random.Random, resign_after: int = 60) -> str:
    """Play the game the guest has, a random legal move at once each turn (resigning after
    ``resign_after`` of its own moves), to its end; its ``{Game N ...}`` line."""
    sent_in: str | None = None
    moves = 0
    async for event in ics.events():
        if isinstance(event, Text) and GAME_END.fullmatch(event.text):
            return event.text
        for mine in ics.state.my_games.values():
            board = mine.game.board
            if not is_my_turn(mine) or board.fen() == sent_in or board.is_game_over():
                continue
            sent_in = board.fen()
            moves += 1
            if moves > resign_after:
                await ics.send("resign")
            else:
                move = rng.choice(sorted(board.legal_moves, key=chess.Move.uci))
                await ics.send(wire_move(board, move))
    raise ConnectionError("the connection ended during the game")


@pytest.mark.sockets
@pytest.mark.skipif(STOCKFISH is None, reason="stockfish is not installed (apt install stockfish)")
async def test_a_guest_plays_the_computers_seek_to_the_end_and_it_seeks_again(
    server: Server, tmp_path: Path
) -> None:
    house = House.from_option("stockfish:easy", tmp_path / "computers")
    await house.start(server)
    guest = client_connect("127.0.0.1", server.port, "guest", dialect="fics", reconnect=False)
    await guest.open()
    await until_state(guest, lambda: len(computer_seeks(guest, "StockfishEasy")) == 8)
    rows = [e.text for e in await guest.run("sought") if isinstance(e, Text)]
    ours = [row.split() for row in rows if "StockfishEasy(C)" in row]
    # a guest's sought: the seeks it may answer (every one with "sought all")
    assert [row[3:6] for row in ours] == [
        [base, inc, "unrated"] for base, inc in (("1", "0"), ("3", "0"), ("5", "3"), ("15", "10"))
    ]
    one_minute = ours[0]
    await guest.run(f"play {one_minute[0]}")
    result = await asyncio.wait_for(play_randomly(guest, random.Random(26)), 60)
    assert "(StockfishEasy vs. Guest" in result or "vs. StockfishEasy)" in result
    # the game took its seeks off; it posts all eight again (each a new <s> line)
    posted: set[int] = set()

    async def seeks_again() -> None:
        async for event in guest.events():
            record = getattr(event, "record", None)
            if isinstance(record, ivars.Seek) and record.name == "StockfishEasy":
                posted.add(record.number)
                if len(posted) == 8:
                    return

    await asyncio.wait_for(seeks_again(), 30)
    await house.stop()
    assert "stockfisheasy" not in server.world.online
    assert not [t for t in asyncio.all_tasks() if t.get_name().startswith("computer ")]
    await guest.close()


@pytest.mark.skipif(STOCKFISH is None, reason="stockfish is not installed (apt install stockfish)")
def test_serve_computer_says_what_it_started_and_stops_its_bots(tmp_path: Path) -> None:
    port = free_port()
    command = [sys.executable, "-m", "icswire", "serve", "--port", str(port), "--data-dir"]
    command += [str(tmp_path), "--computer", "stockfish:easy,nosuchengine9"]
    server = subprocess.Popen(command, stderr=subprocess.PIPE, text=True)
    assert server.stderr is not None
    said: list[str] = []
    watchdog = threading.Timer(60, server.kill)  # a server that hangs ends the reading
    watchdog.start()
    try:
        for line in server.stderr:  # the log: until the bot logged in
            said.append(line.split(" ", 2)[-1].strip())  # without the date and time
            if "logged in to" in line:
                break
        server.send_signal(signal.SIGINT)
        said += [line.split(" ", 2)[-1].strip() for line in server.stderr]
        assert server.wait(30) == 0
    finally:
        watchdog.cancel()
        server.kill()
    assert "computer opponents: StockfishEasy" in said
    assert (
        "computer opponents: nosuchengine9: no such engine program (not a known engine, nor"
        " an executable)" in said
    )
    assert said.index("shutting down") < max(
        i for i, line in enumerate(said) if line.startswith("logged out of")
    )
