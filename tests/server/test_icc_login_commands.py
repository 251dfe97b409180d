"""The variables and commands ICC clients send at login, with ICC's meaning:
``set unobserve``, ``set autoflag``, ``set lang``, ``inchannel NAME``."""

from __future__ import annotations

from icswire.protocol.events import Style12Line, Text
from icswire.server.app import Server
from icswire.server.core.model.tables import Terms
from icswire.server.core.render.boards import WHITE

from .client import Client
from .support import connect, start_game, texts, until


async def user(server: Server, name: str, *setup: str) -> Client:
    client = await connect(server)
    await client.login(name)
    for line in setup:
        await client.command(line)
    return client


async def test_set_lang_knows_only_english(server: Server) -> None:
    client = await user(server, "Speaker")
    assert texts(await client.command("set Lang English")) == ["Language set to English."]  # lasker
    assert texts(await client.command("set lang french")) == ["Bad value given for variable lang."]


async def test_inchannel_name_lists_that_players_channels(server: Server) -> None:
    member = await user(server, "Member", "+channel 50", "+channel 4")
    asker = await user(server, "Asker")
    said = texts(await asker.command("inchannel member"))
    assert said == ["Member is in the following channels:", "4     50"]
    assert texts(await asker.command("inchannel asker")) == [
        "Asker is in the following channels: No channels found for Asker."
    ]  # lasker's com_inchannel
    assert texts(await asker.command("inchannel nobody")) == [
        'No user named "nobody" is logged in.'
    ]
    await member.close()


async def test_unobserve_1_stops_observing_when_a_game_of_ones_own_starts(server: Server) -> None:
    players = [await user(server, "Alpha"), await user(server, "Beta")]  # kept referenced
    watcher = await user(server, "Watcher", "set unobserve 1")
    keeper = await user(server, "Keeper")  # unobserve 0 (the default): keeps observing
    await start_game(server, "alpha", "beta", Terms(initial=5))
    await watcher.command("observe 1")
    await keeper.command("observe 1")
    await start_game(server, "watcher", "keeper", Terms(initial=5))
    await watcher.expect_text("Removing game 1 from observation list.")
    assert server.world.online["watcher"].observing == set()
    assert server.world.online["keeper"].observing == {1}
    assert len(players) == 2


async def test_autoflag_0_leaves_the_flag_to_the_opponent(server: Server) -> None:
    white = await user(server, "Whitey", "set style 12")
    black = await user(server, "Blacky", "set autoflag 0")
    game = await start_game(server, "whitey", "blacky", Terms(initial=0, increment=1))
    await black.expect_text("Creating unrated")
    await white.command("e4")  # lasker's com_flag: no flag before both players have moved
    await black.command("e5")
    await black.settle()
    game.clock_ms[WHITE] = 500  # a zero-minute game's 10 seconds, nearly spent
    server.games.rearm(game)
    # White's clock runs out; Black has autoflag off: nobody ends the game
    await until(lambda: game.clock_now(WHITE) < -500)
    assert server.games.by_number.get(1) is game
    said = texts(await black.command("flag"))
    assert any("forfeits on time" in line for line in said), said
    assert 1 not in server.games.by_number
    await white.expect(lambda e: isinstance(e, Text) and "forfeits on time" in e.text)
    assert not [e for e in white.events if isinstance(e, Style12Line) and e.record.relation == 0]
