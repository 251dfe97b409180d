"""Generated sessions: random legal games of any variant told as an observer would receive
them, either as datagrams or as style 12 boards, interleaved, encoded with the protocol
encoders."""

from __future__ import annotations

import random
from dataclasses import dataclass, field

import chess

from icswire.boards.moves import san_from_move, smith_from_move
from icswire.boards.positions import style12_from_board
from icswire.boards.variants import BUGHOUSE, CHESS, Variant
from icswire.protocol import datagrams as dg
from icswire.protocol.encoder import encode_event
from icswire.protocol.events import Event, Style12Line, Text
from icswire.protocol.style12 import Style12

OBSERVER_DATAGRAMS = frozenset({18, 24, 25, 33, 34, 35, 36, 56, 16})
INITIAL_SECONDS = 180


@dataclass
class PlayedGame:
    """A game as it was really played: moves, each mover's clock after it (ms), result."""

    number: int
    white: str
    black: str
    moves: list[chess.Move] = field(default_factory=list)
    clocks_ms: list[int] = field(default_factory=list)
    times_ms: list[int] = field(default_factory=list)
    result: str = "1-0"
    variant: Variant = CHESS
    start_fen: str = chess.STARTING_FEN
    passes: dict[int, chess.Piece] = field(default_factory=dict)
    """Bughouse: the piece the partner's board passed just before the move of that index."""

    def start(self) -> chess.Board:
        return self.variant.new_board(fen=self.start_fen)

    def replay(self) -> list[chess.Board]:
        """The position after each ply, start included (pieces passed added as they came)."""
        board = self.start()
        seen = [board.copy()]
        for ply, move in enumerate(self.moves):
            pass_in(board, self.passes.get(ply))
            board.push(move)
            seen.append(board.copy())
        return seen


def pass_in(board: chess.Board, piece: chess.Piece | None) -> None:
    if piece is not None:
        board.pockets[piece.color].add(piece.piece_type)  # type: ignore[attr-defined]


def play(number: int, seed: int, plies: int = 40, variant: Variant = CHESS) -> PlayedGame:
    """A random legal game of ``variant`` from its (random) start (ends early when the
    game is over); whole-second clocks; in bughouse the partner passes a piece now and
    then."""
    rng = random.Random(seed)
    board = variant.new_board(rng)
    game = PlayedGame(number, f"white{number}", f"black{number}", variant=variant)
    game.start_fen = board.fen()
    clocks = [INITIAL_SECONDS, INITIAL_SECONDS]
    for _ in range(plies):
        if variant is BUGHOUSE and rng.random() < 0.3:
            game.passes[len(game.moves)] = chess.Piece(rng.randint(1, 5), board.turn)
            pass_in(board, game.passes[len(game.moves)])
        legal = list(board.legal_moves)
        if not legal:
            break
        move = rng.choice(legal)
        used = rng.randint(0, 9)
        side = 0 if board.turn == chess.WHITE else 1
        clocks[side] -= used
        board.push(move)
        game.moves.append(move)
        game.times_ms.append(used * 1000)
        game.clocks_ms.append(clocks[side] * 1000)
    outcome = board.outcome()
    game.result = outcome.result() if outcome else rng.choice(["1-0", "0-1"])
    return game


def as_datagrams(game: PlayedGame) -> list[Event]:
    """DG_STARTED_OBSERVING, an empty DG_MOVE_LIST, DG_SEND_MOVES + DG_MSEC per move,
    DG_MY_GAME_RESULT: what a client with OBSERVER_DATAGRAMS on receives."""
    events: list[Event] = [
        dg.StartedObserving(
            game.number,
            game.white,
            game.black,
            game.variant.wild,
            game.variant.icc_rating or "Blitz",
            True,
            3,
            0,
            3,
            0,
            True,
            "",
            1500,
            1600,
            900000 + game.number,
            "",
            "",
            False,
            game.variant.wild in (22, 27),
            game.variant.wild in (23, 24),
            "",
            False,
        ),
    ]
    board = game.start()
    if board.fen() == game.variant.new_board().fen():
        events.append(dg.MoveList(game.number, "*", ()))
    else:
        events.append(dg.PositionBegin(game.number, board.fen(), 0))
    for ply, (move, time_ms, clock_ms) in enumerate(
        zip(game.moves, game.times_ms, game.clocks_ms, strict=True)
    ):
        passed = game.passes.get(ply)
        if passed is not None:
            pass_in(board, passed)
            side = "W" if passed.color == chess.WHITE else "B"
            events.append(dg.BughousePass(game.number, side, passed.symbol().upper()))
        color = "W" if board.turn == chess.WHITE else "B"
        san, smith = san_from_move(board, move), smith_from_move(board, move)
        board.push(move)
        events.append(dg.SendMoves(game.number, san, smith, time_ms // 1000, clock_ms // 1000))
        events.append(dg.Msec(game.number, color, clock_ms, False))
    events.append(dg.MyGameResult(game.number, False, "Res", game.result, "Black resigns", "?"))
    return events


def as_style12(game: PlayedGame, drop: int | None = None) -> list[Event]:
    """A style 12 board per position (ms clocks, FICS form) and the end-of-game line;
    ``drop`` leaves out the board after that ply. (Chess only: the tracker knows no other
    variant from boards alone.)"""
    board = chess.Board()
    clocks = [INITIAL_SECONDS * 1000, INITIAL_SECONDS * 1000]
    events: list[Event] = [Style12Line(_board12(game, board, clocks, 0), "\n")]
    for ply, (move, time_ms, clock_ms) in enumerate(
        zip(game.moves, game.times_ms, game.clocks_ms, strict=True), 1
    ):
        clocks[0 if board.turn == chess.WHITE else 1] = clock_ms
        board.push(move)
        if ply != drop:
            events.append(Style12Line(_board12(game, board, clocks, time_ms), "\n"))
    loser = game.black if game.result == "1-0" else game.white
    end = f"{{Game {game.number} ({game.white} vs. {game.black}) {loser} resigns}} {game.result}"
    events.append(Text(end, "\n"))
    return events


def _board12(game: PlayedGame, board: chess.Board, clocks: list[int], time_ms: int) -> Style12:
    return style12_from_board(
        board,
        game_number=game.number,
        white_name=game.white,
        black_name=game.black,
        relation=0,
        initial_time=3,
        increment=0,
        white_time=clocks[0],
        black_time=clocks[1],
        move_time_ms=time_ms,
        move_time_precise=True,
        clock_ticking=True,
        lag_ms=0,
    )


def interleave(a: list[Event], b: list[Event], seed: int) -> list[Event]:
    """Both event lists merged at random, each keeping its own order."""
    rng = random.Random(seed)
    out: list[Event] = []
    i = j = 0
    while i < len(a) or j < len(b):
        if j >= len(b) or (i < len(a) and rng.random() < 0.5):
            out.append(a[i])
            i += 1
        else:
            out.append(b[j])
            j += 1
    return out


def session(events: list[Event]) -> bytes:
    return b"".join(map(encode_event, events))
