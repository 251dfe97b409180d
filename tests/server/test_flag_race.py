"""A move that crosses the flag on the wire: both players must record the same game.

XBoard (and any client that plays its own moves at once) puts its move on its own board
and in its own game record when it sends it, and takes the server's boards as the truth:
a style 12 board of ply N makes its record N plies long (a board behind its record takes
back the moves the server did not make; XBoard's ParseBoard12 sets ``forwardMostMove`` to
the board's ply). When the result line comes, it saves the record it has.

So when the server ends a game on time while the mover's move is on its way, that move is
in the mover's record and in nobody else's, unless the server sends the final position
before the result, as FICS does at a time forfeit (the last board again, with the flagged
side's clock below zero; PyChess knows that board and skips it). These tests play that
race deterministically: the server, in this process, has ended the game
before the move is sent (the flag timer fired), or the move arrives with the mover's clock
already at zero (the move loses on time before the timer fires).
"""

from __future__ import annotations

import asyncio
from typing import Any

from icswire.protocol.events import Style12Line, Text
from icswire.protocol.level1 import CommandNumber as CN
from icswire.server.app import Server
from icswire.server.core.model.tables import Terms
from icswire.server.core.render.batch import Batch
from icswire.server.core.render.boards import BLACK
from icswire.server.features.play.games import Game

from .client import Client
from .support import connect

RESULT = "{Game 1 (Whitey vs. Blacky) Blacky forfeits on time.} 1-0"
#: How long Black's turn lasts (s) before its clock runs out.
THINKING = 0.3


class Recorder:
    """A client that records a game as XBoard does: its own moves at once, then whatever
    the server's boards say."""

    def __init__(self, client: Client) -> None:
        self.client = client
        self.moves: list[str] = []
        self.last_board: Any = None

    async def play(self, move: str) -> None:
        self.moves.append(move)
        await self.client.send(move)

    async def follow(self, until: str) -> str:
        """Apply what the server sent, in order, up to the line containing ``until``."""

        def apply(event: Any) -> bool:
            if isinstance(event, Style12Line):
                record = event.record
                ply = (record.move_number - 1) * 2 + (record.side_to_move == "B")
                self.moves = [*self.moves[: ply - 1], record.pretty_move] if ply else []
                self.last_board = record
                return until == "<12>"
            return isinstance(event, Text) and until in event.text

        found = await self.client.expect(apply)
        return found.text.strip() if isinstance(found, Text) else "<12>"


async def _first_move(server: Server) -> tuple[Recorder, Recorder, Game]:
    """Whitey and Blacky, both on style 12 boards with millisecond clocks, play 1. e4."""
    white = await connect(server)
    await white.login("Whitey")
    black = await connect(server)
    await black.login("Blacky")
    for client in (white, black):
        await client.command("set style 12")
        await client.command("iset ms 1")
    batch = Batch(CN.CN_MATCH, None)
    online = server.world.online
    game = await server.games.start(online["whitey"], online["blacky"], Terms(initial=5), batch)
    batch.flush()
    recorders = Recorder(white), Recorder(black)
    for recorder in recorders:
        await recorder.follow("<12>")  # the starting position
    await recorders[0].play("e2e4")
    for recorder in recorders:
        await recorder.follow("<12>")
        assert recorder.moves == ["e4"]
    return *recorders, game


async def _same_game(server: Server, white: Recorder, black: Recorder) -> None:
    """Both saw the result after the final board, and both recorded 1. e4 only; the
    stored game ends with the final board's clocks (Black's turn counted once)."""
    results = [await recorder.follow("forfeits on time") for recorder in (white, black)]
    assert results == [RESULT, RESULT]
    assert white.moves == black.moves == ["e4"]
    for recorder in (white, black):
        board = recorder.last_board
        assert (board.move_number, board.side_to_move, board.pretty_move) == (1, "B", "e4")
        assert board.black_time <= 0, "the final board shows Black's flag down"
    await server.games.flush()
    (stored,) = await asyncio.to_thread(server.store.history, "Whitey")
    assert (stored.moves, stored.score) == (("e4",), "1-0")
    assert stored.white_clock == board.white_time
    assert board.black_time - 10 <= stored.black_clock <= board.black_time


async def test_a_move_sent_as_the_flag_falls_is_taken_back_before_the_result(
    server: Server,
) -> None:
    white, black, game = await _first_move(server)
    await asyncio.sleep(THINKING)
    game.clock_ms[BLACK] -= game.clock_now(BLACK) - 30  # 30 ms left
    server.games.rearm(game)
    while server.games.by_number:  # the flag timer fires (the server runs in this loop)
        await asyncio.sleep(0.005)
    # Black's engine moves now, before its XBoard read the end: the move is on Black's
    # board and on its way, and reaches a server where the game is over.
    await black.play("e7e5")
    await _same_game(server, white, black)


async def test_a_move_that_arrives_out_of_time_loses_and_is_taken_back(server: Server) -> None:
    white, black, game = await _first_move(server)
    game.clock_ms[BLACK] = 0  # no time left, and the flag timer (5 minutes) has not fired
    await asyncio.sleep(THINKING)
    await black.play("e7e5")
    await black.follow("You lost on time.")
    await _same_game(server, white, black)
