"""Games a TD starts in an event: DG_TOURNEY_GAME_STARTED (137) and DG_TOURNEY_GAME_ENDED
(138) to whoever has them on (a private game's to its players and the TD only), the
label kept when an adjourned game resumes; DG_IDLE (74) and DG_ACK_PING (75) of its
players to the TD ("sent to TDs for players in their tournaments")."""

from __future__ import annotations

import asyncio

import pytest

from icswire.protocol.datagrams import DG
from icswire.server.app import Server
from icswire.server.features import info

from .support import has_text
from .test_td_commands import login, td

LABEL = "Spring Swiss, round 1"


async def _labelled_game(server: Server, mamer, alice, bob) -> None:  # type: ignore[no-untyped-def]
    await mamer.command(f"rmatch Alice Bob 5 0 white | {LABEL}")
    await bob.expect(has_text("Challenge: Alice"))
    await mamer.command("rmatch Bob Alice 5 0 black")
    await alice.expect(has_text("Creating: Alice"))


async def test_a_labelled_game_sends_137_and_138(server: Server) -> None:
    mamer = await td(server)
    alice, bob = await login(server, "Alice"), await login(server, "Bob")
    fan = await login(server, "Fan", True, DG.TOURNEY_GAME_STARTED, DG.TOURNEY_GAME_ENDED)
    await _labelled_game(server, mamer, alice, bob)
    game = server.core.play.by_player[server.world.online["alice"]]
    started = await fan.expect_dg(DG.TOURNEY_GAME_STARTED, gamenumber=game.number)
    assert (started.event_label, started.white, started.black) == (LABEL, "Alice", "Bob")
    assert started.id == game.game_id and started.id > 0
    await bob.send("resign")
    ended = await fan.expect_dg(DG.TOURNEY_GAME_ENDED, id=game.game_id)
    assert (ended.event_label, ended.white, ended.black, ended.score) == (
        LABEL, "Alice", "Bob", "1-0",
    )  # fmt: skip
    # an ordinary game is no tournament game: nothing
    await alice.send("match Bob 1 0")
    await bob.expect(has_text("Challenge: Alice"))
    await bob.send("accept")
    await alice.expect(has_text("Creating: "))
    await alice.send("abort")
    await bob.expect(has_text("aborted"))
    await fan.settle()
    assert len(fan.received(DG.TOURNEY_GAME_STARTED)) == 1
    assert len(fan.received(DG.TOURNEY_GAME_ENDED)) == 1
    for client in (mamer, alice, bob, fan):
        await client.close()


async def test_an_aborted_and_an_adjourned_then_resumed_game(server: Server) -> None:
    mamer = await td(server)
    alice, bob = await login(server, "Alice"), await login(server, "Bob")
    fan = await login(server, "Fan", True, DG.TOURNEY_GAME_STARTED, DG.TOURNEY_GAME_ENDED)
    await _labelled_game(server, mamer, alice, bob)
    await alice.send("abort")
    assert (await fan.expect_dg(DG.TOURNEY_GAME_ENDED)).score == "aborted"
    await _labelled_game(server, mamer, alice, bob)
    await alice.send("e4")
    await bob.expect(has_text("e4"))
    await bob.send("e5")
    await alice.expect(has_text("e5"))
    await alice.send("adjourn")
    await bob.expect(has_text("Alice would like to adjourn"))
    await bob.send("adjourn")
    assert (await fan.expect_dg(DG.TOURNEY_GAME_ENDED, score="*")).event_label == LABEL
    await server.core.play.flush()
    await alice.send("resume Bob")
    await bob.expect(has_text("Challenge: Alice"))
    await bob.send("resume Alice")
    resumed = await fan.expect(
        lambda e: (
            getattr(e, "dg", None) == DG.TOURNEY_GAME_STARTED
            and len(fan.received(DG.TOURNEY_GAME_STARTED)) == 3
        )
    )
    assert resumed.event_label == LABEL
    for client in (mamer, alice, bob, fan):
        await client.close()


async def test_the_td_hears_of_his_players_idling(
    server: Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(info, "IDLE_PING", 0.2)
    monkeypatch.setattr(info, "IDLE_TOLD", 0.3)
    mamer = await td(server)
    await mamer.command("set-2 74 1")
    await mamer.command("set-2 75 1")
    alice, bob = await login(server, "Alice"), await login(server, "Bob")
    await _labelled_game(server, mamer, alice, bob)
    answering = asyncio.create_task(alice._drain_forever())  # answers the pings
    try:
        pinged = await mamer.expect_dg(DG.ACK_PING, playername="Alice")
        assert pinged.lag >= 0
        idle = await mamer.expect_dg(DG.IDLE, playername="Bob")
        assert idle.idle_time >= 0
    finally:
        answering.cancel()
    for client in (mamer, alice, bob):
        await client.close()


async def test_a_private_games_dgs_go_to_its_players_and_td_only(server: Server) -> None:
    mamer = await td(server)
    await mamer.command("set-2 137 1")
    alice, bob = await login(server, "Alice"), await login(server, "Bob")
    fan = await login(server, "Fan", True, DG.TOURNEY_GAME_STARTED)
    await alice.command("set private 1")
    await _labelled_game(server, mamer, alice, bob)
    await mamer.settle()  # it came with the answer to his rmatch
    [started] = mamer.received(DG.TOURNEY_GAME_STARTED)
    assert started.event_label == LABEL
    await fan.settle()
    assert fan.received(DG.TOURNEY_GAME_STARTED) == []
    for client in (mamer, alice, bob, fan):
        await client.close()
