"""``primary``: which of the games one observes kibitz, refresh and the like are about."""

from __future__ import annotations

from icswire.protocol.level1 import CommandNumber as CN
from icswire.server.app import Server
from icswire.server.core.model.tables import Terms

from .support import start_game, texts
from .test_icc_login_commands import user
from .test_level1_labels import icc_user, label


async def test_primary_chooses_among_the_observed_games(server: Server) -> None:
    players = [await user(server, name) for name in ("Alpha", "Beta", "Gamma", "Delta")]
    watcher = await user(server, "Watcher")
    assert texts(await watcher.command("primary 1")) == ["You are not observing any games."]
    await start_game(server, "alpha", "beta", Terms(initial=5))
    await start_game(server, "gamma", "delta", Terms(initial=5))
    await watcher.command("observe 1")
    await watcher.command("observe 2")
    assert texts(await watcher.command("primary")) == ["Game 2 is your primary game."]
    assert texts(await watcher.command("primary 2")) == ["Game 2 is already your primary game."]
    assert texts(await watcher.command("primary alpha")) == ["Game 1 is now your primary game."]
    await watcher.command("kibitz hello one")
    await players[0].expect_text("kibitzes: hello one")
    assert texts(await watcher.command("primary 3")) == ["There is no such game."]
    await watcher.command("unobserve 2")
    assert texts(await watcher.command("primary 2")) == ["You are not observing game 2."]


async def test_primary_is_cn_primary_for_an_icc_session(server: Server) -> None:
    client = await icc_user(server, "Iccuser")
    assert await label(client, "primary") == CN.CN_PRIMARY
