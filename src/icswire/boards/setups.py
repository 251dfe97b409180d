"""Starting positions of the wild setups, as FEN; random ones drawn from a ``random.Random``.

The rules are FICS's, from its help file ``wild`` and the generator that writes its board
files (``wild_update`` in FICS's ``board.c``, which draws wild 1 to 4 anew for each game),
and FICS's fixed board files ``wild/0``, ``wild/5``, ``wild/8`` and ``misc/little-game``
("This is Wild7 on ICC"). The ICC help ``wild`` describes wild 1 to 5 and 8 the same way.

- wild 0: chess, but Black's king and queen change places (king d8, queen e8).
- wild 1: both sides have chess's pieces; each king is on d or e with the queen on the
  other, rooks in the corners, bishops on opposite colours, knights anywhere left; White's
  and Black's ranks are drawn independently. Castling as in chess (see ``wilds``).
- wild 2: chess's pieces in random order on the first rank, Black the mirror image of
  White (same files); no castling.
- wild 3: a king on a random square and each other first-rank square a random knight,
  bishop, rook or queen; Black mirrors White; no castling.
- wild 4: White as in wild 3; Black has the same pieces in another random order, "subject to
  the constraint that the bishops must be balanced": a Black bishop on a light square for
  every White bishop on a dark one and vice versa. No castling (same generator as 3).
- wild 5: the chess position turned half a turn: White's pieces on the eighth rank (king
  d8, queen e8) with pawns on the seventh, one step from promoting; no castling.
- wild 7 (ICC): "three pawns and a king": White Kd1 and pawns a2 b2 c2, Black Ke8 and
  pawns f7 g7 h7.
- wild 8: chess with the pawns on the fourth and fifth ranks.
- wild 8a (FICS): the pawns have passed each other: White's on the fifth rank, Black's on
  the fourth (PyChess, a FICS client, plays FICS wild/8a so).
- fr / wild 22: Fischer random chess, one of the 960 positions, each equally likely
  (ICC help ``Fischer-random``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Final

import chess

if TYPE_CHECKING:  # annotations only: a program that draws no setup does not load random
    import random

__all__ = [
    "CHESS",
    "WILD0",
    "WILD5",
    "WILD7",
    "WILD8",
    "WILD8A",
    "chess960",
    "fen",
    "wild1",
    "wild2",
    "wild3",
    "wild4",
]

CHESS: Final = chess.STARTING_FEN
WILD0: Final = "rnbkqbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
WILD5: Final = "RNBKQBNR/PPPPPPPP/8/8/8/8/pppppppp/rnbkqbnr w - - 0 1"
WILD7: Final = "4k3/5ppp/8/8/8/8/PPP5/3K4 w - - 0 1"
WILD8: Final = "rnbqkbnr/8/8/pppppppp/PPPPPPPP/8/8/RNBQKBNR w KQkq - 0 1"
WILD8A: Final = "rnbqkbnr/8/8/PPPPPPPP/pppppppp/8/8/RNBQKBNR w KQkq - 0 1"

_PIECES: Final = "KQRRBBNN"
_RANDOM_PIECES: Final = "NBRQ"


def fen(white: Sequence[str], black: Sequence[str], castling: str) -> str:
    """The FEN of a position with pawns on their usual squares and the given first ranks
    (eight piece letters each, a to h; any case)."""
    back = "".join(white).upper()
    front = "".join(black).lower()
    return f"{front}/pppppppp/8/8/8/8/PPPPPPPP/{back} w {castling} - 0 1"


def _light(file: int, rank: int) -> bool:
    return bool(chess.BB_LIGHT_SQUARES & chess.BB_SQUARES[chess.square(file, rank)])


def _wild1_rank(rng: random.Random, rank: int) -> list[str]:
    """One side's first rank in wild 1 (FICS ``wild_update(1)``)."""
    files: list[str | None] = [None] * 8
    king = rng.choice((3, 4))
    files[king], files[7 - king] = "K", "Q"
    files[0] = files[7] = "R"
    free = [f for f in range(8) if files[f] is None]
    for light in (True, False):  # the bishops first, one on each colour
        files[rng.choice([f for f in free if _light(f, rank) == light])] = "B"
        free = [f for f in range(8) if files[f] is None]
    for file in free:
        files[file] = "N"
    return [letter or "" for letter in files]


def wild1(rng: random.Random) -> str:
    return fen(_wild1_rank(rng, 0), _wild1_rank(rng, 7), "KQkq")


def wild2(rng: random.Random) -> str:
    rank = list(_PIECES)
    rng.shuffle(rank)
    return fen(rank, rank, "-")


def _wild3_rank(rng: random.Random) -> list[str]:
    king = rng.randrange(8)
    return ["K" if f == king else rng.choice(_RANDOM_PIECES) for f in range(8)]


def wild3(rng: random.Random) -> str:
    rank = _wild3_rank(rng)
    return fen(rank, rank, "-")


def wild4(rng: random.Random) -> str:
    white = _wild3_rank(rng)
    black: list[str | None] = [None] * 8
    for file, letter in enumerate(white):
        if letter == "B":  # on the eighth rank's squares of the other colour
            colour = not _light(file, 0)
            free = [f for f in range(8) if black[f] is None and _light(f, 7) == colour]
            black[rng.choice(free)] = "B"
    others = [letter for letter in white if letter != "B"]
    rng.shuffle(others)
    free_files = iter([f for f in range(8) if black[f] is None])
    for letter in others:
        black[next(free_files)] = letter
    return fen(white, [letter or "" for letter in black], "-")


def chess960(rng: random.Random) -> str:
    return chess.Board.from_chess960_pos(rng.randrange(960)).fen()
