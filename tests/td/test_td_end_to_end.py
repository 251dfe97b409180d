"""A whole Swiss on a real server over sockets: a TD (``icswire.td``) and six robots on
:mod:`icswire.client` that join with ``tell TD join`` and play what the TD pairs
(instant random moves; the side to move resigns from move 3 on, now and then). Both
dialects: ICC (``qmatch``, results from DG_GAME_RESULT) and FICS (``rmatch``, results
from the ``set gin 1`` lines)."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import random
from collections.abc import Callable
from pathlib import Path

import pytest

from icswire.client import connect
from icswire.server.app import Server
from icswire.td.config import TdConfig
from icswire.td.model import FORFEITS, load
from icswire.td.scores import points_of, standings
from icswire.td.session import TdSession
from tests.bot.play import PASSWORD, Robot, register, until, wire

PLAYERS = ("Ann", "Ben", "Cid", "Dora", "Eve", "Finn")
ROUNDS = 3


async def _robot_plays(robot: Robot, rng: random.Random) -> None:
    """Forever: when it is its turn, resign (from ply 4, one time in three) or move."""
    while True:
        await until(robot.my_turn, timeout=120)
        mine = robot.game()
        if mine is None:
            continue
        board = mine.game.board
        ply = len(mine.game.moves)
        if ply >= 4 and rng.random() < 0.34:
            await robot.ics.send("resign")
        else:
            move = rng.choice(list(board.legal_moves))
            await robot.ics.send(wire(board, move))
        await until(_moved(robot, ply), timeout=30)


def _moved(robot: Robot, ply: int) -> Callable[[], bool]:
    """Whether the robot's move (or resignation) after ``ply`` half-moves went through."""
    mine = robot.game()
    return lambda: mine is None or not robot.my_turn() or len(mine.game.moves) > ply


@pytest.mark.parametrize("dialect", ["icc", "fics"])
async def test_a_six_player_swiss_is_played_to_the_end(
    server: Server, tmp_path: Path, dialect: str
) -> None:
    await register(server, "TD", *PLAYERS)
    await asyncio.to_thread(server.store.set_on_server_list, "td", "TD", True)
    config = TdConfig(
        host="127.0.0.1",
        port=server.port,
        dialect=dialect,
        user="TD",
        password=PASSWORD,
        name="Test Swiss",
        rounds=ROUNDS,
        minutes=1,
        increment=0,
        start_after=3600,
        min_players=len(PLAYERS),
        managers=("Ann",),
        forfeit_after=60,
        round_delay=0.1,
        state_file=str(tmp_path / "state.json"),
        out_dir=str(tmp_path / "out"),
    )
    session = TdSession(config)
    stop = asyncio.Event()
    td_task = asyncio.create_task(session.run(stop))
    await asyncio.wait_for(session.logged_in.wait(), 30)
    robots = []
    players = []
    rng = random.Random(24)
    try:
        for name in PLAYERS:
            ics = connect("127.0.0.1", server.port, name, PASSWORD, dialect=dialect)
            await ics.open()
            robot = Robot(ics)
            robots.append(robot)
            answer = await robot.run("tell TD join")
            assert answer, answer
        await until(lambda: len(session.tournament.entrants) == len(PLAYERS))
        players = [asyncio.create_task(_robot_plays(r, rng)) for r in robots]
        await robots[0].run("tell TD start")
        await asyncio.wait_for(td_task, 120)
    finally:
        stop.set()
        for task in players:
            task.cancel()
        for task in players:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        with contextlib.suppress(asyncio.CancelledError, TimeoutError):
            await asyncio.wait_for(td_task, 30)
        for robot in robots:
            await robot.close()
            await robot.ics.close()

    t = session.tournament
    assert t.finished and t.round == ROUNDS
    assert [g for g in t.games if g.result in FORFEITS] == []
    met = [frozenset((g.white, g.black)) for g in t.games]
    assert len(met) == len(set(met)) == ROUNDS * len(PLAYERS) // 2
    for name in PLAYERS:
        colours = "".join("w" if g.white == name else "b" for g in t.games if g.has(name))
        assert len(colours) == ROUNDS and "www" not in colours and "bbb" not in colours
    # the standings equal a recomputation from the games the server stored
    stored = {}
    for name in PLAYERS:
        for record in await asyncio.to_thread(server.store.history, name, 50):
            stored[record.white, record.black] = record.score
    assert {(g.white, g.black): g.result for g in t.games} == stored
    saved = load(config.state_file)
    assert saved is not None and dataclasses.asdict(saved) == dataclasses.asdict(t)
    assert standings(saved) == standings(t)
    assert sum(points_of(t).values()) == ROUNDS * len(PLAYERS) // 2
    results = (Path(config.out_dir) / "results.txt").read_text()
    assert "Test Swiss" in results and all(name in results for name in PLAYERS)
    pgns = list((Path(config.out_dir) / "pgn").glob("*.pgn"))
    assert len(pgns) == len(t.games)
    texts = [p.read_text() for p in pgns]
    assert all('[Event "Test Swiss, round' in text for text in texts), texts[0][:300]
