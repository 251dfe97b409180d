"""The opening of a game, by lichess's ECO table (``README.md`` beside this file).

The table (``openings.tsv``, built by ``tools/build_openings.py``) names about 3,800
positions with an ECO code and an English name. A game is classified as lichess
classifies it: by the deepest position of the game that the table names, so a
transposition counts (``1. c4 e6 2. Nc3 d5 3. d4`` is the table's ``1. d4 d5 2. c4 e6
3. Nc3``, the Queen's Gambit Declined).
Only chess has openings here; a variant's game (wild, crazyhouse, Fischer random ...) has
none, as FICS's ``eco`` says of a wild game.

The table is read and indexed by EPD on first use, once per process (some 100 ms, or at
:func:`load`);
classifying a game then walks back from its end, and writes the EPD only of the positions
whose occupied squares are those of a position the table names (a few in a game, where an
EPD of every ply cost a game's end some 60 ms).

>>> classify_moves("e4 c5 Nf3 d6 d4 cxd4 Nxd4 Nf6 Nc3 a6".split()).opening.eco
'B90'
>>> classify_moves("c4 e6 Nc3 d5 d4".split()).opening.name
"Queen's Gambit Declined: Queen's Knight Variation"
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from importlib import resources

import chess


@dataclass(frozen=True, slots=True)
class Opening:
    """One line of the table: the ECO code, the name (``Family: Variation, ...``), the
    moves lichess lists for it (PGN movetext) and the EPD of the position they reach."""

    eco: str
    name: str
    pgn: str
    epd: str


@dataclass(frozen=True, slots=True)
class Classified:
    """A game's opening and ``ply``, the number of half-moves played (from the game's
    start) when its position was reached: FICS's ``ECO[  6]``."""

    opening: Opening
    ply: int


@cache
def openings() -> tuple[Opening, ...]:
    """Every line of the table, in its order (by ECO code, then name)."""
    text = resources.files(__name__).joinpath("openings.tsv").read_text(encoding="utf-8")
    rows = text.splitlines()[1:]
    return tuple(Opening(*row.split("\t")) for row in rows if row)


@cache
def _by_epd() -> dict[str, Opening]:
    return {opening.epd: opening for opening in openings()}


@cache
def _occupancies() -> frozenset[int]:
    """The occupied-squares bitboard of every position the table names: a cheap test a
    position must pass before its EPD is worth writing."""
    return frozenset(chess.BaseBoard(epd.split(" ", 1)[0]).occupied for epd in _by_epd())


def load() -> None:
    """Read and index the table now (a server does it in a thread before its first game,
    so no game's end waits for it)."""
    _occupancies()


def loaded() -> bool:
    """Whether the table is read and indexed."""
    return _occupancies.cache_info().currsize > 0


def opening_at(board: chess.Board) -> Opening | None:
    """The table's opening whose position is ``board``'s (None if it names none)."""
    return _by_epd().get(board.epd())


def with_eco(code: str) -> list[Opening]:
    """The table's openings whose ECO code is ``code`` (``B90``), in the table's order."""
    code = code.upper()
    return [opening for opening in openings() if opening.eco == code]


def classify_board(board: chess.Board) -> Classified | None:
    """The deepest position of ``board``'s move stack (its start included) that the table
    names; None for a variant's board or a game that never reached one."""
    if type(board) is not chess.Board or board.chess960:
        return None
    index, occupancies = _by_epd(), _occupancies()
    walked = board.copy()
    while True:
        found = index.get(walked.epd()) if walked.occupied in occupancies else None
        if found is not None:
            return Classified(found, len(walked.move_stack))
        if not walked.move_stack:
            return None
        walked.pop()


def classify_moves(moves: Iterable[str], start_fen: str | None = None) -> Classified | None:
    """:func:`classify_board` of the chess game that plays the SAN ``moves`` from
    ``start_fen`` (the standard start if None); the moves up to the first one that does
    not parse count."""
    board = chess.Board(start_fen) if start_fen is not None else chess.Board()
    for san in moves:
        try:
            board.push_san(san)
        except ValueError:
            break
    return classify_board(board)
