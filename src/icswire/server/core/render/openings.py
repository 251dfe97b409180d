"""The ``eco`` command's texts (help ``eco``): a game's opening, and the openings of an
ECO code, from lichess's table (:mod:`icswire.boards.openings`).

FICS (freechess.org, as FICS clients' own tests quote it) answers with a heading and the
ECO, NIC and LONG lines, each with the ply its position was reached at::

    Eco for game 1 (alice vs. bob):
     ECO[ 10]: B90
     NIC[  0]: ---
    LONG[ 10]: Sicilian Defense: Najdorf Variation

The table has no NIC codes, so NIC is always FICS's default ``---`` (help ``eco``: "When
no NIC code is available the default value --- is used"), as an unnamed opening's ECO is
its ``A00`` and its name ``---``. An ICC session gets one line: the game, the ECO code and
the name.
"""

from __future__ import annotations

import chess

from icswire.boards.openings import Classified, Opening

__all__ = ["code_lines", "fics_lines", "icc_line"]


def fics_lines(number: int, white: str, black: str, found: Classified | None) -> list[str]:
    """FICS's answer about game ``number``."""
    ply = found.ply if found is not None else 0
    eco = found.opening.eco if found is not None else "A00"
    name = found.opening.name if found is not None else "---"
    return [
        f"Eco for game {number} ({white} vs. {black}):",
        f" ECO[{ply:3d}]: {eco}",
        f" NIC[{0:3d}]: ---",
        f"LONG[{ply:3d}]: {name}",
    ]


def icc_line(number: int, white: str, black: str, found: Classified | None) -> str:
    """ICC's answer about game ``number``."""
    if found is None:
        return f"Game {number} ({white} vs. {black}): no named opening."
    return f"Game {number} ({white} vs. {black}): {found.opening.eco} {found.opening.name}"


def _fen(opening: Opening) -> str:
    board = chess.Board()
    for token in opening.pgn.split():
        if not token[0].isdigit():
            board.push_san(token)
    return board.fen()


def code_lines(openings: list[Opening], fics: bool) -> list[str]:
    """``eco e CODE``: each opening of the code; for FICS its ECO, NIC, LONG and FEN
    lines after a blank line, for ICC one line with its moves."""
    if not fics:
        return [f"{o.eco} {o.name}: {o.pgn}" for o in openings]
    found: list[str] = []
    for opening in openings:
        found += ["", f"  ECO: {opening.eco}", "  NIC: ---", f" LONG: {opening.name}"]
        found.append(f"  FEN: {_fen(opening)}")
    return found
