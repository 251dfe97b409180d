"""One game the bot plays, as the session follows it: its judge (draws and resignation by
evaluation), the takebacks granted, the offers answered, the move being thought of; and
what is read from the client's game to play in it: whose turn, the clocks, a move in the
form servers take, an evaluation in words.

Moves go to the server in coordinates (``e2e4``, ``e7e8q``, a drop ``P@e4``), castling
as ``o-o``/``o-o-o``, which every ICS reads for chess and Fischer random alike (icswire's
server takes the side of the board python-chess's ``is_kingside_castling`` names).
"""

from __future__ import annotations

import asyncio
from collections.abc import Hashable
from dataclasses import dataclass, field
from typing import Final

import chess

from icswire.bot.engine import Choice, Clocks
from icswire.bot.rules import GameJudge
from icswire.client.state import MyGame

__all__ = [
    "UNTIMED_MS",
    "GameRun",
    "clocks_of",
    "full_moves",
    "is_my_turn",
    "kibitz_text",
    "score_text",
    "wire_move",
]

#: The clock an engine is told it has in an untimed game (its own limits still apply).
UNTIMED_MS: Final = 10 * 60 * 1000
#: Scores at or beyond this are mates (:class:`~icswire.bot.engine.Choice`'s convention).
MATE: Final = 100_000
_MATE_ZONE: Final = MATE - 1000


@dataclass
class GameRun:
    """The bot's own record of one game it plays."""

    mine: MyGame
    judge: GameJudge
    takebacks_granted: int = 0
    answered: set[Hashable] = field(default_factory=set)
    #: The position (FEN) a move was sent for: not thought of again.
    moved_in: str | None = None
    thinking: asyncio.Task[None] | None = None
    thinking_in: str | None = None
    ended: bool = False
    last: Choice | None = None

    @property
    def number(self) -> int:
        return self.mine.game.number

    @property
    def white(self) -> bool:
        return self.mine.relation == "PW"

    @property
    def opponent(self) -> str:
        game = self.mine.game
        return game.black if self.white else game.white


def is_my_turn(mine: MyGame) -> bool:
    """Whether the bot (White or Black in ``mine``) is to move in a game still going."""
    if mine.relation not in ("PW", "PB") or mine.game.result is not None:
        return False
    return (mine.relation == "PW") == (mine.game.board.turn == chess.WHITE)


def full_moves(mine: MyGame) -> int:
    """The full moves played in the game."""
    return len(mine.game.moves) // 2


def clocks_of(mine: MyGame) -> Clocks:
    """Both clocks now (running down since the server last said) and the increment; an
    untimed game's clocks are :data:`UNTIMED_MS`."""
    game = mine.game
    increment = (game.increment_seconds or 0) * 1000
    if game.initial_minutes == 0 and not increment:
        return Clocks(UNTIMED_MS, UNTIMED_MS, 0)
    start = (game.initial_minutes or 0) * 60_000 or UNTIMED_MS

    def clock(color: str, known: int | None) -> int:
        now = mine.clock_ms(color)
        value = now if now is not None else known if known is not None else start
        return max(value, 0)

    white = clock("W", game.white_clock_ms)
    black = clock("B", game.black_clock_ms)
    return Clocks(white, black, increment)


def wire_move(board: chess.Board, move: chess.Move) -> str:
    """``move`` as it is sent: coordinates, a drop as ``P@e4``, castling ``o-o``/``o-o-o``.

    >>> board = chess.Board("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
    >>> wire_move(board, chess.Move.from_uci("e1g1")), wire_move(board, chess.Move.from_uci("a1a8"))
    ('o-o', 'a1a8')
    """
    if board.is_castling(move):
        return "o-o" if board.is_kingside_castling(move) else "o-o-o"
    return move.uci()


def score_text(score: int | None) -> str:
    """An evaluation in centipawns from the bot's view, as players read it: ``+0.35``,
    ``-1.20``, ``#3`` (it mates in 3), ``#-2`` (it is mated in 2), ``?`` unknown."""
    if score is None:
        return "?"
    if abs(score) >= _MATE_ZONE:
        moves = (MATE - abs(score) + 1) // 2
        return f"#{moves}" if score > 0 else f"#-{moves}"
    return f"{score / 100:+.2f}"


def kibitz_text(board: chess.Board, choice: Choice, engine: str) -> str:
    """What the bot whispers after a move: its evaluation, depth and line (``board`` is
    the position before the move)."""
    parts = [f"{engine}: {score_text(choice.score)}"]
    if choice.depth is not None:
        parts.append(f"depth {choice.depth}")
    parts.append(f"({choice.source})")
    line = list(choice.pv) or [choice.move]
    try:
        parts.append(board.variation_san(line))
    except (ValueError, AssertionError):
        parts.append(board.san(choice.move) if board.is_legal(choice.move) else choice.move.uci())
    return " ".join(parts)
