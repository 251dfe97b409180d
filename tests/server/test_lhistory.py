"""``lhistory``: the server's last finished games (what ``llogons`` is to ``logons``)."""

from __future__ import annotations

import re

from icswire.protocol.level1 import CommandNumber as CN
from icswire.server.app import Server
from icswire.server.core.model.tables import Terms

from .support import start_game, texts
from .test_icc_login_commands import user
from .test_level1_labels import icc_user, label


async def test_lhistory_lists_the_last_games_ended_on_the_server(server: Server) -> None:
    alpha, beta = await user(server, "Alpha"), await user(server, "Beta")
    watcher = await user(server, "Watcher")
    assert texts(await watcher.command("lhistory")) == ["No games have ended on this server yet."]
    for _ in range(2):
        game = await start_game(server, "alpha", "beta", Terms(initial=5))
        await alpha.command("resign")
        await beta.expect_text("Alpha resigns} 0-1")
    await server.core.writes.barrier()
    shown = texts(await watcher.command("lhistory"))
    assert shown[0] == "The last 2 games ended on the server:"
    row = r" ?\d: Alpha +-{4} Beta +-{4} 0-1 +\[ bu +5 +0\] Res \w{3} \d\d #\d+"
    assert all(re.fullmatch(row, line) for line in shown[1:]), shown
    assert shown[2].endswith(f"#{game.game_id}")
    assert texts(await watcher.command("lhistory 1")) == [
        "The last 1 games ended on the server:",
        " 1" + shown[2][2:],
    ]
    assert texts(await watcher.command("lhistory 0")) == ["Usage: lhistory [n] (n from 1 to 50)"]


async def test_private_games_are_listed_to_their_players_only(server: Server) -> None:
    alpha, beta = await user(server, "Alpha", "set private 1"), await user(server, "Beta")
    watcher = await icc_user(server, "Watcher")
    await start_game(server, "alpha", "beta", Terms(initial=5))
    await alpha.command("resign")
    await beta.expect_text("Alpha resigns} 0-1")
    await server.core.writes.barrier()
    assert texts(await watcher.command("lhistory")) == ["No games have ended on this server yet."]
    assert len(texts(await beta.command("lhistory"))) == 2
    assert await label(watcher, "lhistory") == CN.CN_LHISTORY
