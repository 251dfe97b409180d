"""Challenges the bot's rules refuse are declined with a tell saying why, in both dialects;
its owner pauses it (seeks removed, challenges declined), resumes it, asks its status and
makes it quit."""

from __future__ import annotations

import pytest

from icswire.bot.config import ChallengeRules, Seek
from icswire.server.app import Server

from .play import (
    Robot,
    bot_config,
    needs_stockfish,
    register,
    robot,
    running,
    stockfish,
    until,
)

pytestmark = needs_stockfish


@pytest.mark.parametrize(("bot_dialect", "robot_dialect"), [("fics", "icc"), ("icc", "fics")])
async def test_refused_challenges_are_declined_with_the_reason(
    server: Server, bot_dialect: str, robot_dialect: str
) -> None:
    await register(server, "Fishy", "Robo")
    rules = ChallengeRules(variants=("chess",), max_base=10, guests=False, rated=False)
    config = bot_config(server, "Fishy", stockfish(), dialect=bot_dialect, challenges=rules)
    async with (
        running(config),
        robot(server, "Robo", robot_dialect) as robo,
        robot(server, "guest", robot_dialect, password=None) as guest,
    ):
        await _declined(robo, "match Fishy 2 0 unrated zh", "I play only chess.")
        await _declined(robo, "match Fishy 30 0 unrated", "I play games of at most 10 minutes.")
        await _declined(robo, "match Fishy 3 0 rated", "I play only unrated games.")
        await _declined(guest, "match Fishy 3 0 unrated", "I do not play guests.")
        await robo.run("match Fishy 3 0 unrated")  # within the rules: accepted
        await until(robo.game)


async def _declined(player: Robot, command: str, reason: str) -> None:
    """``command`` challenges the bot, which tells ``reason`` and declines."""
    told = len(player.tells_from("Fishy"))
    await player.run(command)
    await until(lambda: len(player.tells_from("Fishy")) > told)
    assert player.tells_from("Fishy")[told] == reason
    await until(lambda: not player.state.matches)
    assert any("declines the match offer" in text for text in player.texts())


async def test_the_owner_pauses_resumes_asks_the_status_and_quits(server: Server) -> None:
    await register(server, "Fishy", "Boss", "Robo")
    config = bot_config(
        server, "Fishy", stockfish(), seeks=(Seek(5, 0, rated=False),), owner="Boss"
    )
    async with (
        robot(server, "Boss", "icc") as boss,
        robot(server, "Robo", "fics") as robo,
        running(config) as bot,
    ):
        await until(lambda: _seeking(boss))

        async def told(command: str, answer: str) -> None:
            before = len(boss.tells_from("Fishy"))
            await boss.run(f"tell Fishy {command}")
            await until(lambda: len(boss.tells_from("Fishy")) > before)
            assert boss.tells_from("Fishy")[before].startswith(answer)

        await robo.run("tell Fishy pause")  # not its owner: no command
        await told("pause", "Paused")
        assert bot.paused
        await until(lambda: not _seeking(boss))
        await _declined(robo, "match Fishy 3 0 unrated", "Sorry, I am not taking games now.")
        await told("status", "Stockfish")
        assert "paused" in boss.tells_from("Fishy")[-1]
        await told("resume", "Taking games again.")
        await until(lambda: _seeking(boss))
        await told("what", "commands: pause, resume, quit, quit now, status")
        await told("quit", "Leaving once my games are over.")
        await until(lambda: "fishy" not in server.world.online)
        assert bot.games_played == 0


def _seeking(player: Robot) -> bool:
    """Whether ``player`` sees a seek of the bot's."""
    return any(getattr(s, "playername", None) == "Fishy" for s in player.state.seeks.values())
