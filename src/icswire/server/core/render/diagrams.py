"""FICS's human-readable boards: styles 1 to 9 and 11 (FICS help ``style``).

Each style is written from the behaviour of FICS's ``board.c`` (Richard Nash's FICS 1.x,
kept unchanged in lasker-2 and its descendants): ``board_to_string`` puts the header
``Game N (White vs. Black)`` and a blank line before every style but 12, and, for a game
with holdings, ``White holding: [...]`` / ``Black holding: [...]`` around the diagram of
styles 1 to 7 (the side at the top first) or the ``<b1>`` line after styles 8, 9 and 11.

Styles 1 to 7 are one generator (``genstyle``) with a table of strings per style: a top
line, a line between ranks, what starts and ends each rank, the piece strings of each side
(an empty square uses the other side's empty string on a "white" square), and the file
labels. FICS's ``square_color(r, f)`` calls a square "white" when file + rank is even
(a1 included); the strings follow it. Beside the ranks, counted from the top: the move
number and side to move, the last move and its time, the clocks and the material. Rank
lines start ``     N  ``. FICS writes the top line and the labels after a tab, which
its network layer sends as spaces up to column 8 (``net_send_string``); so do we.

Clocks are ``m:ss`` (``h:mm:ss`` past the hour), rounded to the second as FICS's
``tenth_str`` does; with ``iset ms`` they are ``m:ss.mmm`` (what FICS sends then, as
FatICS's tests of real FICS show). A negative clock shows as ``0:00``.

Style 8 and 11 are one line each (``#@#...@#@``), style 9 the last two moves. Their quirks
are FICS's: style 11's game number is one less than the game's (FICS prints the internal,
zero-based number), styles 8 and 11 list the squares from a1 to h8.

A real FICS board of style 1 (freechess.org, version 1.25.20, examining):
``Game 145 (GuestFZSG vs. GuestFZSG)``, a blank line, then ranks such as
``     7  | *P| *P| *P| *P|   | B | *P|   |     White Moves : 'Bxf7+   (0:00)'``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Final, NamedTuple

import chess

from icswire.boards.positions import holding_text

__all__ = ["DIAGRAM_STYLES", "RecentMove", "diagram", "holding_text", "move_time_text"]

#: The styles this module draws.
DIAGRAM_STYLES: Final = frozenset({1, 2, 3, 4, 5, 6, 7, 8, 9, 11})

_TAB: Final = " " * 8  # a tab at the start of a line, as FICS's network layer sends it
_VALUES: Final = {chess.PAWN: 1, chess.KNIGHT: 3, chess.BISHOP: 3, chess.ROOK: 5, chess.QUEEN: 9}


class RecentMove(NamedTuple):
    """A move as the text boards show it: SAN, style 12's verbose form, time taken."""

    san: str
    verbose: str
    time_ms: int


@dataclass(frozen=True)
class _Style:
    white: tuple[str, ...]  # empty square, then P N B R Q K
    black: tuple[str, ...]
    white_square: str
    black_square: str
    top: str
    mid: str
    start: str
    end: str
    label: str
    black_label: str


def _pieces(template: str, letters: str = "PNBRQK") -> tuple[str, ...]:
    return tuple(template.replace("@", letter) for letter in letters)


_ANSI_DARK: Final = _Style(
    ("   ", *_pieces(" @ ")),
    ("   ", *_pieces(" *@")),
    "\x1b[0m",
    "\x1b[7m",
    _TAB + "+------------------------+",
    "",
    "|",
    "\x1b[0m|",
    _TAB + "  a  b  c  d  e  f  g  h",
    _TAB + "  h  g  f  e  d  c  b  a",
)

_GENSTYLES: Final = {
    # Standard ICS
    1: _Style(
        ("   |", *_pieces(" @ |")),
        ("   |", *_pieces(" *@|")),
        "",
        "",
        _TAB + "-" * 33,
        _TAB + "|---+---+---+---+---+---+---+---|",
        "|",
        "",
        _TAB + "  a   b   c   d   e   f   g   h",
        _TAB + "  h   g   f   e   d   c   b   a",
    ),
    # USA-Today Sports Center-style board
    2: _Style(
        ("+  ", *_pieces("@  ")),
        ("-  ", *_pieces("@' ", "pnbrqk")),
        "",
        "",
        "",
        "",
        "",
        "",
        _TAB + "a  b  c  d  e  f  g  h",
        _TAB + "h  g  f  e  d  c  b  a",
    ),
    # Experimental vt-100 ANSI board for dark backgrounds
    3: _ANSI_DARK,
    # Experimental vt-100 ANSI board for light backgrounds: the square colours swapped
    4: replace(_ANSI_DARK, white_square="\x1b[7m", black_square="\x1b[0m"),
    # Style suggested by ajpierce@med.unc.edu
    5: _Style(
        ("    ", "  o ", " :N:", " <B>", " |R|", " {Q}", " =K="),
        ("    ", "  p ", " :n:", " <b>", " |r|", " {q}", " =k="),
        "",
        "",
        " " * 8 + "." + "   ." * 8,
        " " * 8 + "." + "   ." * 8,
        "",
        "",
        _TAB + "  a   b   c   d   e   f   g   h",
        _TAB + "  h   g   f   e   d   c   b   a",
    ),
    # Email Board suggested by Thomas Fought (tlf@rsch.oclc.org)
    6: _Style(
        ("    |", " wp |", " WN |", " WB |", " WR |", " WQ |", " WK |"),
        ("    |", " bp |", " BN |", " BB |", " BR |", " BQ |", " BK |"),
        "",
        "",
        _TAB + "-" * 41,
        _TAB + "-" * 41,
        "|",
        "",
        _TAB + "  A    B    C    D    E    F    G    H",
        _TAB + "  H    G    F    E    D    C    B    A",
    ),
    # Miniature board
    7: _Style(
        ("  ", *_pieces(" @")),
        (" -", *_pieces(" @", "pnbrqk")),
        "",
        "",
        _TAB + ":" * 21,
        "",
        "..",
        " ..",
        _TAB + "   a b c d e f g h",
        _TAB + "   h g f e d c b a",
    ),
}


def _strength(board: chess.Board, color: chess.Color) -> int:
    """FICS's ``board_calc_strength``: the material on the board and in hand."""
    pockets = getattr(board, "pockets", None)
    return sum(
        value
        * (
            chess.popcount(board.pieces_mask(piece, color))
            + (pockets[color].count(piece) if pockets is not None else 0)
        )
        for piece, value in _VALUES.items()
    )


def _c_div(a: int, b: int) -> int:
    """C's integer division (toward zero)."""
    quotient = abs(a) // abs(b)
    return quotient if (a >= 0) == (b > 0) else -quotient


def _seconds_text(seconds: int) -> str:
    """FICS's ``hms(t, 0, 1, 0)``: ``m:ss``, or ``h:mm:ss`` from an hour on."""
    hours, rest = divmod(seconds, 3600)
    minutes, seconds = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{seconds:02d}" if hours else f"{minutes}:{seconds:02d}"


def move_time_text(ms: int, precise: bool) -> str:
    """A clock or a move's time as the text boards show it: FICS's ``tenth_str`` (rounded
    to the second), or ``m:ss.mmm`` under ``iset ms``. Below zero it is zero."""
    ms = max(ms, 0)
    if precise:
        seconds, millis = divmod(ms, 1000)
        return f"{_seconds_text(seconds)}.{millis:03d}"
    return _seconds_text((ms // 100 + 5) // 10)


def _move_and_time(move: RecentMove, precise: bool) -> str:
    """FICS's ``move_and_time``: ``e4      (0:03)``."""
    return f"{move.san:<7} ({move_time_text(move.time_ms, precise)})"


def _piece_at(board: chess.Board, square: chess.Square) -> tuple[int, bool]:
    piece = board.piece_at(square)
    return (0, True) if piece is None else (piece.piece_type, piece.color)


def _genstyle(
    style: _Style,
    board: chess.Board,
    ply: int,
    recent: Sequence[RecentMove],
    clocks: tuple[int, int],
    flip: bool,
    precise: bool,
) -> list[str]:
    side = "White" if board.turn == chess.WHITE else "Black"
    moved = "Black" if board.turn == chess.WHITE else "White"
    notes = {
        7: f"     Move # : {board.fullmove_number} ({side})",
        6: f"     {moved} Moves : '{_move_and_time(recent[-1], precise)}'"
        if ply > 0 and recent
        else "",
        4: f"     Black Clock : {move_time_text(clocks[1], precise)}",
        3: f"     White Clock : {move_time_text(clocks[0], precise)}",
        2: f"     Black Strength : {_strength(board, chess.BLACK)}",
        1: f"     White Strength : {_strength(board, chess.WHITE)}",
    }
    ranks = range(8) if flip else range(7, -1, -1)
    files = range(7, -1, -1) if flip else range(8)
    out = [style.top] if style.top else []
    for count, rank in zip(range(7, -1, -1), ranks, strict=True):
        row = [f"     {rank + 1}  {style.start}"]
        for file in files:
            white_square = (file + rank) % 2 == 0  # FICS's square_color(r, f)
            row.append(style.white_square if white_square else style.black_square)
            piece, color = _piece_at(board, chess.square(file, rank))
            if piece == 0:
                row.append(style.black[0] if white_square else style.white[0])
            else:
                row.append((style.white if color == chess.WHITE else style.black)[piece])
        row.append(style.end)
        row.append(notes.get(count, ""))
        out.append("".join(row))
        between = style.mid if count else style.top
        if between:
            out.append(between)
    out.append(style.black_label if flip else style.label)
    return out


def _dump(
    style: int,
    number: int,
    white: str,
    black: str,
    board: chess.Board,
    ply: int,
    recent: Sequence[RecentMove],
    clocks: tuple[int, int],
    flip: bool,
) -> str:
    """Styles 8 and 11: ``#@#`` ... ``@#@`` on one line."""
    shown = number if style == 8 else number - 1
    squares = "".join(
        " "
        if (piece := board.piece_at(square)) is None
        else (piece.symbol().upper() if piece.color == chess.WHITE else piece.symbol())
        for square in chess.SQUARES
    )
    last = recent[-1] if ply > 0 and recent else None
    if last is None:
        move, took = "none", "0:00"
    else:
        move = last.san if style == 8 else last.verbose
        took = move_time_text(last.time_ms, False)
    seconds = [_c_div(_c_div(ms, 100) + 5, 10) for ms in clocks]
    return (
        f"#@#{shown:03d}{white:<16}{':' if flip else '*'}{black:<16}{'*' if flip else ':'}"
        f"{squares}{ply // 2 + 1:03d}{'B' if board.turn == chess.BLACK else 'W'}"
        f"{_strength(board, chess.WHITE):02d}{_strength(board, chess.BLACK):02d}"
        f"{seconds[0]:05d}{seconds[1]:05d}{move:<7}({took})@#@"
    )


def _last_moves(white: str, black: str, ply: int, recent: Sequence[RecentMove]) -> list[str]:
    """Style 9: the last two moves (up to four half-moves) with their times."""
    out = ["", f"Move     {white:<23}{black}", "----     --------------         --------------"]
    start = max(_c_div(ply - 3, 2) * 2, 0)
    first = ply - len(recent)  # the half-move number of recent[0]
    line = ""
    index = start
    count = 0
    while index < ply and count < 4:
        if index % 2 == 0:
            line = f"  {index // 2 + 1:2d}     "
        move = recent[index - first] if index >= first else RecentMove("?", "?", 0)
        line += f"{_move_and_time(move, False):<23}"
        if index % 2:
            out.append(line)
            line = ""
        index += 1
        count += 1
    if index % 2:
        out.append(line)
    return out


def diagram(
    style: int,
    board: chess.Board,
    *,
    number: int,
    white: str,
    black: str,
    clocks: tuple[int, int],
    ply: int,
    recent: Sequence[RecentMove],
    flip: bool,
    precise: bool,
) -> list[str]:
    """The lines of ``board`` in FICS style ``style`` (one of :data:`DIAGRAM_STYLES`), from
    the header ``Game N (White vs. Black)`` on, without line endings.

    ``clocks`` are (White, Black) in milliseconds, ``ply`` the half-moves played in the
    game, ``recent`` its last moves (the last four for style 9, the last one otherwise),
    ``flip`` Black at the bottom, ``precise`` the receiver's ``iset ms``.
    """
    if style not in DIAGRAM_STYLES:
        raise ValueError(f"no FICS diagram for style {style}")
    shown = max(number, 0)
    out = [f"Game {shown} ({white} vs. {black})", ""] if style != 11 else []
    holdings = getattr(board, "pockets", None) is not None
    machine = style in (8, 9, 11)
    top_color = chess.WHITE if flip else chess.BLACK
    if holdings and not machine:
        out.append(_holding_line(board, top_color))
    if style in _GENSTYLES:
        out += _genstyle(_GENSTYLES[style], board, ply, recent, clocks, flip, precise)
    elif style == 9:
        out += _last_moves(white, black, ply, recent)
    else:
        out.append(_dump(style, shown, white, black, board, ply, recent, clocks, flip))
    if holdings:
        if machine:
            whites, blacks = (holding_text(board, c) for c in (chess.WHITE, chess.BLACK))
            out.append(f"<b1> game {shown} white [{whites}] black [{blacks}]")
        else:
            out.append(_holding_line(board, not top_color))
    return out


def _holding_line(board: chess.Board, color: chess.Color) -> str:
    name = "White" if color == chess.WHITE else "Black"
    return f"{name} holding: [{holding_text(board, color)}]"
