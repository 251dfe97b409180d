"""A simul on a real server over sockets (issue 24's proof): a giver and six robots on
:mod:`icswire.client`, played to the end. The opponents ask with ``simmatch``, the giver
takes them all with ``startsimul``, then goes (``goboard``) to each board where it is
White's turn and plays a random move; an opponent answers at random and resigns now
and then. Nothing sleeps to synchronise: :func:`until` waits on the clients' state."""

from __future__ import annotations

import asyncio
import contextlib
import random

from icswire.client import connect
from icswire.server.app import Server
from tests.bot.play import PASSWORD, Robot, register, until, wire

GIVER = "Giver"
OPPONENTS = ("Ann", "Ben", "Cid", "Dora", "Eve", "Finn")


async def _opponent_plays(robot: Robot, rng: random.Random) -> None:
    """Until its game is over: move at random; from ply 6, resign one time in three."""
    while True:
        await until(lambda: robot.my_turn() or robot.over(), timeout=120)
        mine = robot.game()
        if mine is None or robot.over():
            return
        ply = len(mine.game.moves)
        if ply >= 6 and rng.random() < 0.34:
            await robot.ics.send("resign")
            await until(robot.over)
            return
        move = rng.choice(list(mine.game.board.legal_moves))
        await robot.ics.send(wire(mine.game.board, move))
        await until(
            lambda m=mine, p=ply: robot.over() or len(m.game.moves) > p or not robot.my_turn()
        )


def _boards(giver: Robot) -> list:  # type: ignore[type-arg]
    """The giver's boards still being played."""
    return [
        m for m in giver.state.my_games.values() if m.relation == "PW" and m.game.result is None
    ]


async def _giver_plays(giver: Robot, rng: random.Random) -> None:
    """Until no board is left: to a board where White is to move, and a move there."""
    while True:
        await until(lambda: not _boards(giver) or any(_to_move(m) for m in _boards(giver)))
        waiting = [m for m in _boards(giver) if _to_move(m)]
        if not waiting:
            return
        mine = waiting[0]
        answer = await giver.run(f"goboard {mine.game.number}")
        assert (
            not answer
            or answer == ["You are already at that board!"]
            or all("board" in line.lower() for line in answer)
        ), answer
        ply = len(mine.game.moves)
        move = rng.choice(list(mine.game.board.legal_moves))
        await giver.ics.send(wire(mine.game.board, move))
        await until(lambda m=mine, p=ply: m.game.result is not None or len(m.game.moves) > p)


def _to_move(mine: object) -> bool:
    game = mine.game  # type: ignore[attr-defined]
    return game.result is None and game.board.turn and not game.board.is_game_over()


async def test_a_giver_plays_six_robots_to_the_end(server: Server) -> None:
    await register(server, GIVER, *OPPONENTS)
    robots: list[Robot] = []
    tasks: list[asyncio.Task[None]] = []
    rng = random.Random(24)
    try:
        for name in (GIVER, *OPPONENTS):
            ics = connect("127.0.0.1", server.port, name, PASSWORD)
            await ics.open()
            robots.append(Robot(ics))
        giver, opponents = robots[0], robots[1:]
        assert "You are now open to receive simul requests." in await giver.run("set simopen 1")
        for robot in opponents:
            assert await robot.run(f"simmatch {GIVER}") == ["Simul match request sent."]
        await until(
            lambda: all(
                f"{r.name} requests to join a simul match with you." in giver.texts()
                for r in opponents
            )
        )
        await giver.run("startsimul")
        await until(lambda: len(_boards(giver)) == len(OPPONENTS))
        assert all(r.game() is not None for r in opponents)
        tasks = [asyncio.create_task(_opponent_plays(r, rng)) for r in opponents]
        tasks.append(asyncio.create_task(_giver_plays(giver, rng)))
        await asyncio.wait_for(asyncio.gather(*tasks), 120)
        await until(lambda: "That was the last board, thanks for playing." in giver.texts())
        assert f"{{Simul ({GIVER} vs. {len(OPPONENTS)}) is over.}}" in giver.texts()
        # every board ended, for both sides, and was stored with its result
        ended = {m.game.black: m.game.result for m in giver.state.finished}
        assert set(ended) >= set(OPPONENTS)
        for robot in opponents:
            (theirs,) = [m for m in robot.state.finished if m.game.white == GIVER]
            assert theirs.game.result == ended[robot.name] in ("1-0", "0-1", "1/2-1/2")
        await server.core.play.flush()
        stored = await asyncio.to_thread(server.store.history, GIVER, 50)
        assert sorted(r.black for r in stored) == sorted(OPPONENTS)
        assert all(r.white == GIVER and r.score == ended[r.black] for r in stored)
    finally:
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        for robot in robots:
            await robot.close()
            await robot.ics.close()
