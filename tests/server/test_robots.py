"""The robots' commands: ``isregname``, ``getpx`` and ``gameid``, each one fixed line."""

from __future__ import annotations

import asyncio
import re

from icswire.protocol.level1 import CommandNumber as CN
from icswire.server.app import Server
from icswire.server.core.model.ratings import RATING_TYPES
from icswire.server.core.model.tables import Terms

from .support import start_game, texts
from .test_icc_login_commands import user
from .test_level1_labels import icc_user, label


async def test_isregname_says_whether_a_name_is_registered(server: Server) -> None:
    await asyncio.to_thread(server.store.add_user, "Alice", "pw")
    robot = await user(server, "Robot")
    assert texts(await robot.command("isregname aLiCe")) == ["Alice is a registered name."]
    assert texts(await robot.command("isregname robot")) == ["robot is not a registered name."]
    assert texts(await robot.command("isregname 9lives")) == ["9lives is not a registered name."]
    assert texts(await robot.command("isregname")) == ["Usage: isregname <name>"]


async def test_getpx_is_for_td_programs(server: Server) -> None:
    for name in ("Tomato", "Kasparov"):
        await asyncio.to_thread(server.store.add_user, name, "pw")
    await asyncio.to_thread(server.store.set_on_server_list, "td", "Tomato", True)
    await asyncio.to_thread(server.store.set_on_server_list, "gm", "Kasparov", True)
    guest = await user(server, "Visitor")
    assert texts(await guest.command("getpx visitor")) == [
        "Only TD programs are allowed to use this command."
    ]
    gm = await icc_user(server, "Kasparov", "pw")
    tomato = await icc_user(server, "Tomato", "pw")
    zeros = " ".join("0" for _ in RATING_TYPES)
    assert texts(await tomato.command("getpx kasparov")) == [f"*getpx Kasparov GM {zeros}*"]
    assert texts(await tomato.command("getpx visitor")) == [f"*getpx Visitor U {zeros}*"]
    assert texts(await tomato.command("getpx nobody")) == ["*getpx nobody -1*"]
    assert await label(tomato, "getpx kasparov") == CN.CN_GETPX
    assert await label(gm, "isregname x") == CN.CN_ISREGNAME
    assert len(RATING_TYPES) == 16


async def test_gameid_gives_the_stored_id(server: Server) -> None:
    players = [await user(server, "Alpha"), await user(server, "Beta")]
    watcher = await user(server, "Watcher")
    game = await start_game(server, "alpha", "beta", Terms(initial=5))
    await server.core.writes.barrier()  # its row is made
    shown = texts(await watcher.command("gameid 1"))
    assert re.fullmatch(r"Game 1: #\d+", shown[0]), shown
    assert shown == [f"Game 1: #{game.game_id}"]
    await players[0].expect_text("Creating unrated blitz match.")
    assert texts(await players[0].command("gameid"))[-1:] == shown
    assert texts(await watcher.command("gameid")) == [
        "You are neither playing, observing nor examining a game."
    ]
    assert texts(await watcher.command("gameid 7")) == ["There is no such game."]
    iccy = await icc_user(server, "Iccy")
    assert await label(iccy, "gameid 1") == CN.CN_GAMEID
