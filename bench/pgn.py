"""How fast are games built from datagrams, against python-chess replaying the same moves?

Run: ``python bench/pgn.py [--games 200] [--plies 80] [--runs 5]``. Both sides are timed
in the same run, interleaved: the GameTracker fed the DG_STARTED_OBSERVING /
DG_MOVE_LIST / DG_SEND_MOVES / DG_MSEC / DG_MY_GAME_RESULT records of each game (and then
exporting PGN, shown apart), and python-chess's own ``Board.push_san`` of the same moves.
"""

from __future__ import annotations

import argparse
import gc
import sys
import time
from collections.abc import Callable
from pathlib import Path

import chess

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.boards.transcript import as_datagrams, play

from icswire.boards.pgn import pgn_text
from icswire.boards.tracker import GameTracker


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--plies", type=int, default=80)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args(argv)

    played = [play(n, seed=n, plies=args.plies) for n in range(1, args.games + 1)]
    records = [record for game in played for record in as_datagrams(game)]
    sans = []
    for game in played:
        board = chess.Board()
        moves = []
        for move in game.moves:
            moves.append(board.san(move))
            board.push(move)
        sans.append(moves)
    plies = sum(len(game.moves) for game in played)

    def build() -> GameTracker:
        tracker = GameTracker()
        for record in records:
            tracker.feed(record)
        return tracker

    def replay() -> None:
        for moves in sans:
            board = chess.Board()
            for san in moves:
                board.push_san(san)

    tracker = build()
    assert [len(g.moves) for g in tracker.games] == [len(g.moves) for g in played]
    assert all(g.complete for g in tracker.games)

    def export() -> None:
        for game in tracker.games:
            pgn_text(game)

    t_build, t_replay, t_export = best_times((build, replay, export), args.runs)
    print(f"{args.games} games, {plies:,} plies, best of {args.runs}")
    print(f"{'':28} {'time ms':>8} {'games/s':>9} {'plies/s':>10}")
    for name, seconds in (
        ("games from datagrams", t_build),
        ("python-chess push_san", t_replay),
        ("PGN export", t_export),
    ):
        print(
            f"{name:28} {seconds * 1e3:8.1f} {args.games / seconds:9,.0f} {plies / seconds:10,.0f}"
        )
    print(f"ratio games-from-datagrams / python-chess replay: {t_build / t_replay:.2f}x")
    return 0


def best_times(fns: tuple[Callable[[], object], ...], runs: int) -> list[float]:
    best = [float("inf")] * len(fns)
    for _ in range(runs):
        for k, fn in enumerate(fns):
            gc.collect()
            start = time.perf_counter()
            fn()
            best[k] = min(best[k], time.perf_counter() - start)
    return best


if __name__ == "__main__":
    sys.exit(main())
