"""``icswire serve --computer``: reading the option (engines by name or path, levels, what
is not installed), the house of computers beside a server (accounts made ready, bots
started once it listens, started again after a failure, logged out before it stops), and
a real engine playing a guest to the end (skipped without stockfish)."""

from __future__ import annotations

import asyncio
import logging
import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import chess
import pytest

from icswire.bot.config import BotConfig
from icswire.client import connect as client_connect
from icswire.computers.accounts import FORMULA
from icswire.computers.engines import KNOWN, ComputerSpecError, parse_computers
from icswire.computers.house import House, bot_config, seeks_of
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
        ("MyengineMedium", "uci", (str(program),)),
        ("MyengineEasy", "xboard", (str(program),)),
    ]


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
    assert any("Stockfish not started: Stockfish is somebody's account" in m for m in caplog.messages)
    assert server.store.check_password("Stockfish", "theirs")
    await until(lambda: "stockfisheasy" in server.world.online)
    assert runner.runs == 3
    assert [m for m in caplog.messages if "failed" in m] == [
        "computer StockfishEasy failed",
        "computer StockfishEasy failed",
    ]
    await house.stop()
