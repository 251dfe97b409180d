"""A robot: log in, seek a game, play random legal moves until the game ends."""

import asyncio
import random
import sys

import chess

from icswire.client import connect


async def robot(host: str = "127.0.0.1", port: int = 5000) -> str | None:
    async with connect(host, port, "guest") as ics:
        await ics.send("seek 1 0")
        played = -1
        async for _ in ics.events():
            if ics.state.finished:
                return ics.state.finished[-1].game.result
            for mine in ics.state.my_games.values():
                board, ply = mine.game.board, len(mine.game.moves)
                my_turn = (mine.relation == "PW") == (board.turn == chess.WHITE)
                if mine.relation in ("PW", "PB") and my_turn and ply != played:
                    played = ply
                    claim = board.can_claim_draw()
                    move = random.choice(list(board.legal_moves)).uci()
                    await ics.send("draw" if claim else move)
    return None


if __name__ == "__main__":
    print(asyncio.run(robot(*sys.argv[1:2], *map(int, sys.argv[2:3]))))
