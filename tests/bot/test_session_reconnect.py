"""A bot whose connection drops logs in again (the client library reconnects by itself),
asks to resume the game the server adjourned, and plays it to its end; the PGN file holds
the whole game, as the server stored it."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from icswire.server.app import Server

from .play import (
    bot_config,
    needs_stockfish,
    pgn_files,
    prefer,
    random_move,
    register,
    robot,
    running,
    same_game,
    stockfish,
    stored,
    until,
)


@needs_stockfish
@pytest.mark.parametrize(
    ("bot_dialect", "cut"), [("fics", "server"), ("icc", "client")], ids=["fics", "icc"]
)
async def test_a_dropped_bot_resumes_its_adjourned_game_and_finishes_it(
    server: Server,
    tmp_path: Path,
    caplog: pytest.LogCaptureFixture,
    bot_dialect: str,
    cut: str,
) -> None:
    """The server ends the connection (``fics``), or the bot's own socket is cut
    (``icc``); either way the game is adjourned, both players being registered."""
    caplog.set_level(logging.INFO, "icswire.bot")
    await register(server, "Fishy", "Robo")
    config = bot_config(
        server, "Fishy", stockfish(), dialect=bot_dialect, pgn_dir=str(tmp_path / "games")
    )
    async with running(config) as bot, robot(server, "Robo", "fics") as robo:
        await robo.run("match Fishy 2 0 unrated white")
        await until(robo.game)
        opening = prefer("Nf3", "Nc3", "d3")  # no mate before the cut
        for _ in range(3):
            await robo.move(opening)
        first = robo.game()
        assert first is not None
        await until(lambda: len(first.game.moves) == 6)  # the bot moved: its turn is over
        if cut == "server":
            server.world.online["fishy"].abort()
        else:
            transport = bot.ics._writer.transport  # type: ignore[union-attr]
            transport.abort()
        await until(lambda: first.game.result == "*")  # adjourned
        await until(lambda: bot.ics.reconnects == 1)
        await until(lambda: ("Fishy", "Robo") in robo.state.matches)
        resumed = robo.state.matches[("Fishy", "Robo")]
        assert "(adjourned)" in resumed.params
        await robo.run("accept Fishy")
        await until(lambda: robo.game() is not None and robo.game() is not first)
        second = robo.game()
        assert second is not None
        await until(lambda: len(second.game.moves) >= 6)
        await robo.play_out(random_move)
        await until(lambda: bot.games_played == 1 and any(tmp_path.glob("games/*.pgn")))
    (record,) = await stored(server, "Fishy")
    (pgn,) = pgn_files(tmp_path / "games")
    same_game(pgn, record)
    assert len(record.moves) > 6
    messages = [r.getMessage() for r in caplog.records]
    assert "game 1 interrupted (the connection dropped)" in messages
    assert any(m.startswith("reconnected to") for m in messages)
    assert "game 1 continues: Robo vs Fishy at move 4, the bot plays black" in messages
