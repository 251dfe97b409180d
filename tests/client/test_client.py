"""The client library against a real server over 127.0.0.1: logging in, commands whose
output never mixes, live state that agrees with the server, recovery, reconnection."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import chess
import pytest

from icswire.client import Connection, LoginError, connect
from icswire.protocol.events import Text
from icswire.server.app import Server

from .support import until

ROOT = Path(__file__).resolve().parents[2]


async def test_login_and_commands_whose_outputs_never_mix(server: Server) -> None:
    async with connect("127.0.0.1", server.port, "guest") as ics:
        assert ics.name.startswith("Guest")
        outputs = await asyncio.gather(
            *(ics.run(c) for c in ("who", "date", "help", "finger", "vars"))
        )
        firsts = [next(e.text for e in out if isinstance(e, Text) and e.text) for out in outputs]
        assert firsts[0].startswith("++++") and firsts[1].startswith("Local time")
        assert firsts[2].startswith("This is icswire") and firsts[3].startswith("Finger of")
        assert firsts[4].startswith("Variable settings of")
    with pytest.raises(LoginError):
        await asyncio.to_thread(server.store.add_user, "Owner", "secret")
        async with connect("127.0.0.1", server.port, "Owner", "wrong"):
            pass


async def test_two_players_and_an_observer_agree_with_the_server(server: Server) -> None:
    async with (
        connect("127.0.0.1", server.port, "Ann") as ann,
        connect("127.0.0.1", server.port, "Ben") as ben,
        connect("127.0.0.1", server.port, "Obs") as obs,
    ):
        await ann.run("match Ben 5 0 white")
        await ben.run("accept Ann")
        await until(lambda: 1 in ann.state.my_games and 1 in ben.state.my_games)
        await obs.run("observe 1")
        moves = ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6"]
        for ply, san in enumerate(moves):
            player = ann if ply % 2 == 0 else ben
            await player.send(san)
            await until(
                lambda n=ply: all(len(c.state.my_games[1].game.moves) > n for c in (ann, ben, obs))
            )
        game = server.games.by_number[1]
        for client in (ann, ben, obs):
            mine = client.state.my_games[1]
            assert [m.san for m in mine.game.moves] == moves
            assert mine.game.board.fen() == game.board.fen()
            for color, side in (("W", chess.WHITE), ("B", chess.BLACK)):
                clock = mine.clock_ms(color)
                assert clock is not None and abs(clock - game.clock_now(side)) < 500
        assert ann.state.my_games[1].relation == "PW" and obs.state.my_games[1].relation == "O"
        assert set(obs.state.my_games[1].observers) >= {"Ann", "Ben", "Obs"}
        assert {"Ann", "Ben", "Obs"} <= set(ann.state.players)
        await ben.send("resign")
        await until(lambda: all(c.state.finished for c in (ann, ben, obs)))
        for client in (ann, ben, obs):
            assert client.state.finished[-1].game.result == "1-0"
            assert client.state.my_games == {}


async def test_a_dropped_observer_reconnects_and_rebuilds_its_state(server: Server) -> None:
    async with (
        connect("127.0.0.1", server.port, "Ann") as ann,
        connect("127.0.0.1", server.port, "Ben") as ben,
        connect("127.0.0.1", server.port, "Obs") as obs,
    ):
        await ann.run("match Ben 5 0 white")
        await ben.run("accept Ann")
        await until(lambda: 1 in ann.state.my_games)
        await obs.run("observe 1")
        await ann.send("d4")
        await until(lambda: 1 in obs.state.my_games and len(obs.state.my_games[1].game.moves) == 1)
        before = ([m.san for m in obs.state.my_games[1].game.moves], set(obs.state.players))
        server.world.online["obs"].abort()  # the connection drops
        await until(lambda: obs.reconnects == 1 and 1 in obs.state.my_games)
        await until(
            lambda: len(obs.state.my_games[1].game.moves) == 1 and "Obs" in obs.state.players
        )
        after = ([m.san for m in obs.state.my_games[1].game.moves], set(obs.state.players))
        assert after == before
        await ben.send("d5")
        await until(lambda: len(obs.state.my_games[1].game.moves) == 2)


async def test_recovery_after_overflow_rebuilds_the_same_state(server: Server) -> None:
    async with (
        connect("127.0.0.1", server.port, "Ann") as ann,
        connect("127.0.0.1", server.port, "Ben") as ben,
    ):
        await ann.run("+channel 5")
        await ben.run("+channel 5")
        await ann.run("match Ben 5 0 white")
        await ben.run("accept Ann")
        await until(lambda: 1 in ben.state.my_games)
        await ann.send("c4")
        await until(lambda: len(ben.state.my_games[1].game.moves) == 1)
        snapshot = _snapshot(ben)
        await ben.recover()
        await until(lambda: 1 in ben.state.my_games and len(ben.state.my_games[1].game.moves) == 1)
        assert _snapshot(ben) == snapshot


def _snapshot(client: Connection) -> object:
    state = client.state
    return (
        sorted(state.players),
        {n: sorted(m) for n, m in state.channels.items()},
        {n: [m.san for m in g.game.moves] for n, g in state.my_games.items()},
        {n: g.relation for n, g in state.my_games.items()},
    )


async def test_the_readme_robots_play_a_game_to_its_end(server: Server) -> None:
    sys.path.insert(0, str(ROOT / "examples"))
    try:
        from robot import robot  # type: ignore[import-not-found]
    finally:
        sys.path.pop(0)
    results = await asyncio.wait_for(
        asyncio.gather(robot("127.0.0.1", server.port), robot("127.0.0.1", server.port)), 120
    )
    assert results[0] == results[1] and results[0] in ("1-0", "0-1", "1/2-1/2")


async def test_settings_are_confirmed_at_login_or_set_after_it(server: Server) -> None:
    async with connect("127.0.0.1", server.port, "Early") as early:
        assert early.confirmed == early.datagrams
    async with connect("127.0.0.1", server.port, "Late", login_settings=False) as late:
        assert late.confirmed == late.datagrams  # every set-2 acknowledged by DG_SET2
        assert "Late" in late.state.players
        session = server.world.online["late"]
        assert session.level1 & 5 == 5 and session.level2 == late.datagrams
        assert any(isinstance(e, Text) for e in await late.run("date"))


async def test_robots_keep_crazyhouse_holdings_and_their_partners(server: Server) -> None:
    async with (
        connect("127.0.0.1", server.port, "Ann") as ann,
        connect("127.0.0.1", server.port, "Ben") as ben,
        connect("127.0.0.1", server.port, "Obs") as obs,
    ):
        await ben.run("set bugopen 1")
        await ann.run("partner Ben")
        await ben.run("partner Ann")
        await until(lambda: ann.state.partner == "Ben" and ben.state.partner == "Ann")
        await ann.run("match Ben 5 0 white zh")
        await ben.run("accept Ann")
        await until(lambda: 1 in ann.state.my_games and 1 in ben.state.my_games)
        await obs.run("observe 1")
        moves = ["e4", "d5", "exd5", "Qxd5", "Nc3", "Qa5", "P@d4", "P@e4"]
        for ply, san in enumerate(moves):
            await (ann if ply % 2 == 0 else ben).send(san)
            await until(
                lambda n=ply: all(len(c.state.my_games[1].game.moves) > n for c in (ann, ben, obs))
            )
        game = server.games.by_number[1]
        for client in (ann, ben, obs):
            mine = client.state.my_games[1].game
            assert [m.san for m in mine.moves] == moves
            assert mine.board.fen() == game.board.fen()  # pockets included
        await ann.run("partner")
        await until(lambda: ann.state.partner is None and ben.state.partner is None)
