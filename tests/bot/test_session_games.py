"""The bot plays whole games on a real server over 127.0.0.1, in both dialects: against a
robot, against another bot, and crazyhouse and suicide with sjeng; each game's PGN file
is the game the server stored."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from icswire.bot.config import ChallengeRules, DrawRules, ResignRules, Seek
from icswire.server.app import Server

from .play import (
    bot_config,
    needs_sjeng,
    needs_stockfish,
    pgn_files,
    random_move,
    register,
    robot,
    running,
    same_game,
    sjeng,
    stockfish,
    stored,
    until,
)


@needs_stockfish
@pytest.mark.parametrize(("bot_dialect", "robot_dialect"), [("fics", "icc"), ("icc", "fics")])
async def test_the_bot_plays_a_robot_to_the_end_and_saves_the_game(
    server: Server, tmp_path: Path, bot_dialect: str, robot_dialect: str
) -> None:
    await register(server, "Fishy", "Robo", "Watcher")
    config = bot_config(
        server,
        "Fishy",
        stockfish(),
        dialect=bot_dialect,
        greeting="Hello, good luck!",
        farewell="Thanks for the game.",
        kibitz=True,
        pgn_dir=str(tmp_path / "games"),
    )
    async with (
        running(config) as bot,
        robot(server, "Robo", robot_dialect) as robo,
        robot(server, "Watcher", "fics") as watcher,
    ):
        await robo.run("match Fishy 1 0 unrated black")
        await until(robo.game)
        mine = robo.game()
        assert mine is not None and mine.relation == "PB"
        await watcher.run(f"observe {mine.game.number}")
        await robo.play_out(random_move)
        await until(lambda: bot.games_played == 1 and any(tmp_path.glob("games/*.pgn")))
        await until(lambda: "Thanks for the game." in robo.tells_from("Fishy"))
        assert robo.tells_from("Fishy")[0] == "Hello, good luck!"
        whispers = [t for t in watcher.texts() if t.startswith("Fishy(") and " whispers: " in t]
        assert whispers and "depth" in whispers[0]
    (record,) = await stored(server, "Fishy")
    (pgn,) = pgn_files(tmp_path / "games")
    same_game(pgn, record)
    assert pgn.headers["Site"] == f"127.0.0.1:{server.port}"


@needs_stockfish
async def test_two_bots_pair_by_their_seeks_and_play_a_game(server: Server, tmp_path: Path) -> None:
    """A FICS bot and an ICC bot seek the same game; the server pairs them. They resign
    and agree draws early (so the game is short) and each saves it."""
    await register(server, "Strong", "Weak")
    quick = {
        "seeks": (Seek(1, 0, rated=False),),
        "resign": ResignRules(below=-250, moves=2),
        "draw": DrawRules(
            offer_after=8, offer_within=40, offer_for=3, accept_after=8, accept_below=40
        ),
    }
    strong = bot_config(server, "Strong", stockfish(3000), pgn_dir=str(tmp_path / "s"), **quick)
    weak = bot_config(
        server, "Weak", stockfish(200, skill=0), dialect="icc", pgn_dir=str(tmp_path / "w"), **quick
    )
    async with running(strong) as one, running(weak) as two:
        await until(lambda: one.games_played >= 1 and two.games_played >= 1, 90)
        await until(lambda: any(tmp_path.glob("s/*.pgn")) and any(tmp_path.glob("w/*.pgn")))
    first = (await stored(server, "Strong"))[0]
    assert {first.white, first.black} == {"Strong", "Weak"}
    same_game(pgn_files(tmp_path / "s")[0], first)
    same_game(pgn_files(tmp_path / "w")[0], first)


@needs_sjeng
@pytest.mark.parametrize(
    ("variant", "bot_dialect", "terms"),
    [("crazyhouse", "icc", "zh"), ("suicide", "fics", "suicide")],
)
async def test_sjeng_plays_a_variant_against_a_robot(
    server: Server,
    tmp_path: Path,
    caplog: pytest.LogCaptureFixture,
    variant: str,
    bot_dialect: str,
    terms: str,
) -> None:
    """Drops go to the server as ``P@e4``; the robot's random drops come back too."""
    caplog.set_level(logging.INFO, "icswire.bot")
    await register(server, "Sjengy", "Robo")
    (tmp_path / "sjeng").mkdir()
    config = bot_config(
        server,
        "Sjengy",
        sjeng(tmp_path / "sjeng"),
        dialect=bot_dialect,
        pgn_dir=str(tmp_path / "games"),
        challenges=ChallengeRules(variants=("chess", variant)),
    )
    async with running(config) as bot, robot(server, "Robo", "fics") as robo:
        await robo.run(f"match Sjengy 1 0 unrated {terms}")
        await until(robo.game)
        await robo.play_out(random_move, resign_at=120)
        await until(lambda: bot.games_played == 1 and any(tmp_path.glob("games/*.pgn")))
    (record,) = await stored(server, "Sjengy")
    (pgn,) = pgn_files(tmp_path / "games")
    assert pgn.headers["Variant"].lower() == variant
    same_game(pgn, record)
    assert not [r for r in caplog.records if "refused a move" in r.getMessage()]
