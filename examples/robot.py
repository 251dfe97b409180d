"""A robot: log in, seek a game, play random legal moves until the game ends.

The same code runs as an ICC client (level 2 datagrams) or, with ``--fics``, as a FICS
client (block mode, style 12, interface variables):

    python examples/robot.py [--fics] [HOST [PORT]]
"""

import argparse
import asyncio
import random

import chess

from icswire.client import connect


async def robot(host: str = "127.0.0.1", port: int = 5000, dialect: str = "icc") -> str | None:
    async with connect(host, port, "guest", dialect=dialect) as ics:
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
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("host", nargs="?", default="127.0.0.1")
    parser.add_argument("port", nargs="?", type=int, default=5000)
    parser.add_argument("--fics", action="store_true", help="talk FICS, not ICC")
    args = parser.parse_args()
    print(asyncio.run(robot(args.host, args.port, "fics" if args.fics else "icc")))
