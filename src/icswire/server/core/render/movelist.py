"""FICS's move list (``moves N``): the text PyChess, eboard and lichess's relay read.

A real FICS reply (lichess's relay test, freechess.org, 2014)::

    Movelist for game 250:

    MasterBing (1995) vs. Maurian (2035) --- Tue Nov 18, 15:30 PST 2014
    Rated blitz match, initial time: 3 minutes, increment: 0 seconds.

    Move  MasterBing         Maurian
    ----  ----------------   ----------------
      1.  d4      (0:00)     Nf6     (0:00)
     16.  f3      (0:05)     Rfe8    (0:03)
          {Still in progress} *

It starts with an empty line and ends with one. For FICS the names above the columns
are both padded (lasker's ``Move  %-19s%-19s``), Black's too. Each move is FICS's
``move_and_time`` (``%-7s (m:ss)``) in a column of 16; with ``iset ms`` the times are
``m:ss.mmm`` and the columns 21 wide (PyChess's example of a game observed with ms
on). A player without a rating is ``(UNR)`` here (FICS's ``movesToString``). With
``iset startpos 1`` a game that did not start from the usual position shows that
position first, as a style 12 line of relation -4 followed by an empty line (PyChess's
example of a wild/3 game).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

import chess

from icswire.boards.positions import style12_from_board
from icswire.protocol.style12 import format_style12
from icswire.server.core.render.diagrams import move_time_text

__all__ = ["INITIAL_POSITION", "Movelist", "movelist_lines"]

#: Style 12's relation of the initial position in a move list.
INITIAL_POSITION = -4


@dataclass(frozen=True)
class Movelist:
    """What ``moves`` shows of a game. ``moves`` are (SAN, time taken in ms)."""

    number: int
    white: str
    black: str
    white_rating: int
    black_rating: int
    started: datetime
    rated: bool
    type: str  # FICS's name: blitz, lightning, wild/fr ...
    initial: int  # minutes
    increment: int  # seconds
    start: chess.Board
    usual_start: bool
    moves: tuple[tuple[str, int], ...]
    white_ms: int = 0
    black_ms: int = 0
    result: str = "Still in progress"
    score: str = "*"
    #: PGN tags set on the game (an examined game's ``tag``), beside those it has.
    tags: tuple[tuple[str, str], ...] = ()
    #: Notes on moves (an examined game's ``annotate``): (ply of the move, 1 = the
    #: first, text).
    comments: tuple[tuple[int, str], ...] = ()
    #: Black's (minutes, increment) in a game with time odds; None: White's.
    black_time: tuple[int, int] | None = None


def _rating(rating: int) -> str:
    return str(rating) if rating > 0 else "UNR"


def _date(when: datetime) -> str:
    """FICS's ``strltime``: ``Tue Nov 18, 15:30 UTC 2014`` (the day space-padded)."""
    return f"{when:%a %b} {when.day:2d}, {when:%H:%M} UTC {when.year}"


def _cells(moves: Sequence[tuple[str, int]], precise: bool) -> list[str]:
    return [f"{san:<7} ({move_time_text(ms, precise)})" for san, ms in moves]


def movelist_lines(game: Movelist, precise: bool, startpos: bool, fics: bool = True) -> list[str]:
    """The lines of ``moves`` for ``game``: ``precise`` is the receiver's ``iset ms``,
    ``startpos`` its ``iset startpos``; ``fics`` false for an ICC session (Black's name
    not padded)."""
    width = 21 if precise else 16
    odds = ""  # lasker's movesToString: "... seconds AND 3 minutes, increment: 0 seconds."
    if game.black_time is not None and game.black_time != (game.initial, game.increment):
        odds = f" AND {game.black_time[0]} minutes, increment: {game.black_time[1]} seconds"
    out = [
        "",
        f"Movelist for game {game.number}:",
        "",
        f"{game.white} ({_rating(game.white_rating)}) vs. {game.black}"
        f" ({_rating(game.black_rating)}) --- {_date(game.started)}",
        f"{'Rated' if game.rated else 'Unrated'} {game.type} match, initial time:"
        f" {game.initial} minutes, increment: {game.increment} seconds{odds}.",
        "",
    ]
    if startpos and not game.usual_start:
        record = style12_from_board(
            game.start,
            game_number=game.number,
            white_name=game.white,
            black_name=game.black,
            relation=INITIAL_POSITION,
            initial_time=game.initial,
            increment=game.increment,
            white_time=game.white_ms if precise else game.white_ms // 1000,
            black_time=game.black_ms if precise else game.black_ms // 1000,
            move_time_precise=precise,
            clock_ticking=False,
            lag_ms=0,
            last_move=("none", "none"),
        )
        out += [format_style12(record), ""]
    # lasker's movesToString: "Move  %-19s%-19s", both names padded
    header = f"Move  {game.white:<{width + 3}}{game.black:<{width + 3 if fics else 0}}"
    out += [header, f"----  {'-' * width}   {'-' * width}"]
    cells = _cells(game.moves, precise)
    if game.start.turn == chess.BLACK and cells:
        cells.insert(0, "...")
    number = game.start.fullmove_number
    for index in range(0, len(cells), 2):
        pair = cells[index : index + 2]
        row = f"{number:3d}.  {pair[0]:<{width}}"
        if len(pair) > 1:
            row += f"   {pair[1]:<{width}}"
        out.append(row)
        number += 1
    out += [f"      {{{game.result}}} {game.score}", ""]
    return out
