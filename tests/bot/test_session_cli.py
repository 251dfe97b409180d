"""``icswire bot``: its options, its refusals, and a bot run as a program that logs in,
obeys its owner's ``quit`` and logs its decisions."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

from click.testing import CliRunner

from icswire.cli import main
from icswire.server.app import Server

from .play import PASSWORD, TIMEOUT, needs_stockfish, register, robot, until


def test_the_command_is_listed_and_says_its_options() -> None:
    runner = CliRunner()
    assert "bot" in runner.invoke(main, ["--help"]).output
    result = runner.invoke(main, ["bot", "--help"])
    assert result.exit_code == 0
    for option in ("--engine", "--protocol", "--config", "--dialect", "--user", "--password"):
        assert option in result.output


def test_an_engine_is_needed_and_settings_are_checked(tmp_path: Path) -> None:
    runner = CliRunner()
    result = runner.invoke(main, ["bot", "127.0.0.1"])
    assert result.exit_code == 2 and "--engine" in result.output
    settings = tmp_path / "bot.toml"
    settings.write_text('[engine]\ncommand = ["stockfish"]\n[challenges]\nmax_games = 0\n')
    result = runner.invoke(main, ["bot", "127.0.0.1", "--config", str(settings)])
    assert result.exit_code == 1 and "challenges.max_games" in result.output
    result = runner.invoke(main, ["bot", "127.0.0.1", "--engine", str(tmp_path / "nothing")])
    assert result.exit_code == 1 and "engine" in result.output


@needs_stockfish
async def test_a_bot_program_logs_in_and_quits_when_its_owner_says(
    server: Server, tmp_path: Path
) -> None:
    await register(server, "Fishy", "Boss")
    command = [
        sys.executable, "-m", "icswire", "bot", "127.0.0.1", str(server.port),
        "--engine", "stockfish", "--dialect", "icc", "--user", "Fishy",
        "--password", PASSWORD, "--owner", "Boss",
    ]  # fmt: skip
    process = await asyncio.create_subprocess_exec(
        *command, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE
    )
    try:
        async with robot(server, "Boss") as boss:
            await until(lambda: "fishy" in server.world.online)
            await boss.run("tell Fishy quit")
            await until(lambda: boss.tells_from("Fishy"))
            _, err = await asyncio.wait_for(process.communicate(), TIMEOUT)
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()
    assert process.returncode == 0
    log = err.decode()
    assert "logged in to 127.0.0.1" in log and "as Fishy (icc dialect), engine Stockfish" in log
    assert "the owner Boss tells the bot: quit" in log
    assert "logged out of" in log
