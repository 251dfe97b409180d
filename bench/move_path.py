"""What does the server's chess work on one move cost, against python-chess's own push?

``python bench/move_path.py [--games 40] [--plies 80] [--runs 5] [--seed 1]`` plays
``--games`` random games (seeded python-chess moves, up to ``--plies`` plies or the end)
and times, best of ``--runs``, over every ply of all of them, each step a played move
takes in the server (``features/play/games.py``), in-process and without sockets:

- **floor**: ``board.push(move)`` of the known move (python-chess's least work per ply);
- **read**: :func:`~icswire.boards.moves.move_from_typed` of the move's SAN, as a client
  types it (``bench-peer``'s clients send SAN);
- **push**: :func:`~icswire.boards.moves.push_with_notations` (SAN, SMITH, verbose);
- **ending**: :func:`~icswire.server.features.play.endings.ending` after the move;
- **view**: the style 12 view (:func:`~icswire.boards.positions.placement`,
  :func:`~icswire.boards.positions.fen_of`) and its style 12 line;
- **opening** (per game, spread over its plies): the game's end classified
  (:func:`~icswire.boards.openings.classify_board`);
- **newlines**: a FICS session's unit (a style 12 board and the prompt) with ``\\n\\r``
  line ends (:func:`~icswire.protocol.telnet.fics_newlines`), once per receiver.

Reported: microseconds of CPU per ply for each step and its ratio to the floor (issue 27:
find the chess work worth cutting; the harness in ``../shared/bench-peer`` measures the
whole server). Exit status 0.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable

import chess

from icswire.boards import openings
from icswire.boards.moves import move_from_typed, push_with_notations
from icswire.boards.positions import fen_of, placement, style12_from_view
from icswire.protocol.style12 import format_style12
from icswire.protocol.telnet import fics_newlines
from icswire.server.features.play.endings import ending

Game = list[tuple[chess.Move, str]]


def random_games(count: int, plies: int, seed: int) -> list[Game]:
    rng = random.Random(seed)
    games = []
    for _ in range(count):
        board, game = chess.Board(), []
        while len(game) < plies and not board.is_game_over(claim_draw=False):
            move = rng.choice(list(board.legal_moves))
            game.append((move, board.san(move)))
            board.push(move)
        games.append(game)
    return games


def floor(games: list[Game]) -> None:
    for game in games:
        board = chess.Board()
        for move, _ in game:
            board.push(move)


def read(games: list[Game]) -> None:
    for game in games:
        board = chess.Board()
        for move, san in game:
            move_from_typed(board, san, False)
            board.push(move)


def push(games: list[Game]) -> None:
    for game in games:
        board = chess.Board()
        for move, _ in game:
            push_with_notations(board, move)


def ends(games: list[Game]) -> None:
    for game in games:
        board = chess.Board()
        for move, _ in game:
            board.push(move)
            ending(board)


def view(games: list[Game]) -> None:
    for game in games:
        board = chess.Board()
        for move, san in game:
            board.push(move)
            shown = placement(board)
            fen_of(board, shown.ranks)
            record = style12_from_view(
                shown, (move.uci(), san), game_number=1, white_name="GuestAAAA",
                black_name="GuestBBBB", relation=0, initial_time=5, increment=0,
                white_time=300, black_time=300,
            )  # fmt: skip
            format_style12(record)


def classify(games: list[Game]) -> None:
    for game in games:
        board = chess.Board()
        for move, _ in game:
            board.push(move)
        openings.classify_board(board)


UNIT = (
    b"\r\n<12> rnbqkbnr pppppppp -------- -------- ----P--- -------- PPPP-PPP RNBQKBNR B 4 1 1 1"
    b" 1 0 7 GuestAAAA GuestBBBB 0 5 0 39 39 300 300 1 P/e2-e4 (0:00) e4 0 0 0\r\nfics% "
)


def newlines(games: list[Game]) -> None:
    for game in games:
        for _ in game:
            fics_newlines(UNIT)


def best(runs: int, work: Callable[[list[Game]], None], games: list[Game]) -> float:
    times = []
    for _ in range(runs):
        began = time.process_time()
        work(games)
        times.append(time.process_time() - began)
    return min(times)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--plies", type=int, default=80)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    games = random_games(args.games, args.plies, args.seed)
    plies = sum(len(game) for game in games)
    openings.load()
    steps = {
        "floor": floor, "read": read, "push": push, "ending": ends, "view": view,
        "opening": classify, "newlines": newlines,
    }  # fmt: skip
    timed = {name: best(args.runs, work, games) for name, work in steps.items()}
    base = timed["floor"]
    print(f"{plies} plies in {args.games} games, best of {args.runs}, CPU per ply:")
    for name, seconds in timed.items():
        print(f"  {name:9} {seconds / plies * 1e6:8.1f} us  {seconds / base:6.2f} x floor")
    return 0


if __name__ == "__main__":
    sys.exit(main())
