"""Style 12 board lines (ICC/FICS help ``style12``; extra FICS fields per spec NOTES.md).

A style 12 line is ``<12>`` followed by blank-separated fields: eight ranks, the game
state, the players, the clocks and the previous move (31 fields in all, counting ``<12>``).
FICS appends ``clock-is-ticking`` and ``lag``; anything after those is kept verbatim.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from operator import itemgetter
from typing import Final, NamedTuple

__all__ = [
    "Style12",
    "check_exact",
    "format_move_time",
    "format_style12",
    "parse_move_time",
    "parse_style12",
]

_PIECES: Final = "-PNBRQKpnbrqk"
_FLAGS: Final = {"0": False, "1": True}
_BIT: Final = ("0", "1")

# The 21 fields that style 12 and style 10 share, from side_to_move to pretty_move
# (style 12 fields 10..30, style 10's 7-field line followed by its 14-field line).
_INT_FIELDS: Final = (
    (1, "double_push_file"),
    (6, "halfmove_clock"),
    (7, "game_number"),
    (10, "relation"),
    (11, "initial_time"),
    (12, "increment"),
    (13, "white_strength"),
    (14, "black_strength"),
    (15, "white_time"),
    (16, "black_time"),
    (17, "move_number"),
)
_GET_INTS: Final = itemgetter(*(index for index, _ in _INT_FIELDS))

_GameFields = tuple[
    str, int, bool, bool, bool, bool, int, int, str, str, int,
    int, int, int, int, int, int, int, str, int, bool, str,
]  # fmt: skip


class Style12(NamedTuple):
    """One style 12 line. Times and clocks are kept exactly as sent (no unit is guessed)."""

    ranks: tuple[str, ...]
    side_to_move: str
    double_push_file: int
    white_castle_short: bool
    white_castle_long: bool
    black_castle_short: bool
    black_castle_long: bool
    halfmove_clock: int
    game_number: int
    white_name: str
    black_name: str
    relation: int
    initial_time: int
    increment: int
    white_strength: int
    black_strength: int
    white_time: int
    black_time: int
    move_number: int
    verbose_move: str
    move_time_ms: int
    move_time_precise: bool
    pretty_move: str
    flip: bool
    clock_ticking: bool | None = None
    lag_ms: int | None = None
    extra: tuple[str, ...] = ()


def parse_move_time(text: str) -> tuple[int, bool]:
    """Parse the time-taken field: ``(m:ss)`` or, with FICS ``iset ms 1``, ``(m:ss.mmm)``.

    Returns ``(milliseconds, precise)``; ``precise`` tells which form was sent. Minutes
    may have any number of digits; a leading ``-`` (``(-0:01)``) gives a negative time.
    Non-canonical spellings are read but not reproduced: ``(-0:00)`` is 0, ``(01:02)`` is
    ``(1:02)``.
    """
    if len(text) < 6 or text[0] != "(" or text[-1] != ")":
        raise _move_time_error(text)
    body = text[1:-1]
    negative = body[0] == "-"
    if negative:
        body = body[1:]
    minutes, colon, rest = body.partition(":")
    if len(rest) == 2:
        seconds, millis, precise = rest, "0", False
    elif len(rest) == 6 and rest[2] == ".":
        seconds, millis, precise = rest[:2], rest[3:], True
    else:
        raise _move_time_error(text)
    if not (
        colon and body.isascii() and minutes.isdigit() and seconds.isdigit() and millis.isdigit()
    ):
        raise _move_time_error(text)
    try:
        total = (int(minutes) * 60 + int(seconds)) * 1000 + int(millis)
    except ValueError:  # more digits than int() converts
        raise _move_time_error(text) from None
    if seconds[0] > "5":
        raise ValueError(f"move time: seconds must be 00..59, got {text[:40]!r}")
    return (-total if negative else total), precise


def _move_time_error(text: str) -> ValueError:
    return ValueError(f"move time: expected '(m:ss)' or '(m:ss.mmm)', got {text[:40]!r}")


def format_move_time(ms: int, precise: bool) -> str:
    """Format ``ms`` as ``(m:ss.mmm)`` if ``precise``, else ``(m:ss)``.

    The ``(m:ss)`` form truncates towards zero and never shows ``-0:00``.
    """
    magnitude = -ms if ms < 0 else ms
    if precise:
        seconds, millis = divmod(magnitude, 1000)
        minutes, seconds = divmod(seconds, 60)
        return f"({'-' if ms < 0 else ''}{minutes}:{seconds:02d}.{millis:03d})"
    minutes, seconds = divmod(magnitude // 1000, 60)
    return f"({'-' if ms <= -1000 else ''}{minutes}:{seconds:02d})"


def _check_no_empty(fields: list[str], what: str) -> None:
    if "" in fields:
        raise ValueError(
            f"{what}: field {fields.index('') + 1} is empty (fields are separated by one blank)"
        )


def _parse_game_fields(f: Sequence[str], what: str) -> _GameFields:
    """Parse the 21 fields from side_to_move to pretty_move (``f`` holds exactly those)."""
    side = f[0]
    if side != "W" and side != "B":
        raise ValueError(f"{what}: side_to_move must be 'W' or 'B', got {side[:40]!r}")
    try:
        dpf, halfmove, game, relation, initial, inc, ws, bs, wt, bt, move_no = map(
            int, _GET_INTS(f)
        )
    except ValueError:
        raise _int_error(f, what) from None
    if not -1 <= dpf <= 7:
        raise ValueError(f"{what}: double_push_file must be -1..7, got {f[1][:40]!r}")
    wcs = _flag(f[2], "white_castle_short", what)
    wcl = _flag(f[3], "white_castle_long", what)
    bcs = _flag(f[4], "black_castle_short", what)
    bcl = _flag(f[5], "black_castle_long", what)
    try:
        move_ms, precise = parse_move_time(f[19])
    except ValueError as exc:
        raise ValueError(f"{what}: {exc}") from None
    return (
        side, dpf, wcs, wcl, bcs, bcl, halfmove, game, f[8], f[9], relation,
        initial, inc, ws, bs, wt, bt, move_no, f[18], move_ms, precise, f[20],
    )  # fmt: skip


def _int_error(f: Sequence[str], what: str) -> ValueError:
    name, value = next((n, f[i]) for i, n in _INT_FIELDS if not _is_int(f[i]))
    return ValueError(f"{what}: {name} must be an integer, got {value[:40]!r}")


def _is_int(text: str) -> bool:
    try:
        int(text)
    except ValueError:
        return False
    return True


def _flag(text: str, name: str, what: str) -> bool:
    value = _FLAGS.get(text)
    if value is None:
        raise ValueError(f"{what}: {name} must be 0 or 1, got {text[:40]!r}")
    return value


def _canonical_line() -> re.Pattern[str]:
    """A whole line exactly as :func:`format_style12` writes it, each field in a group of
    its own (one group per field costs less than splitting grouped fields again)."""
    number = r"(0|-?[1-9][0-9]*+)"
    rank = r"([-PNBRQKpnbrqk]{8})"
    return re.compile(
        "<12>" + f" {rank}" * 8 + r" ([WB]) (-1|[0-7])" + " ([01])" * 4 + f" {number}" * 2
        + r" ([^ ]++) ([^ ]++)" + f" {number}" * 8 + r" ([^ ]++)"
        r" \((-?)(0|[1-9][0-9]*+):([0-5][0-9])(?:\.([0-9]{3}))?\) ([^ ]++) ([01])"
        rf"(?: ([01])(?: {number}(?: (.*))?)?)?"
    )  # fmt: skip


class _Numbers(dict[str, int]):
    """``int(text)``, remembered for the short numbers a board line is full of (at most
    three characters: some 2000 texts in all, so the cache stays small)."""

    def __missing__(self, text: str) -> int:
        value = int(text)
        if len(text) <= 3:
            self[text] = value
        return value


_LINE: Final = _canonical_line()
_new: Final = tuple.__new__
_FLAGS_OR_NONE: Final = {"0": False, "1": True, None: None}
# numbers, and the seconds and milliseconds of a move's time, filled as they come
_SMALL: Final = _Numbers()


def parse_style12(line: str, *, exact: bool = False) -> Style12:
    """Parse a whole ``<12> ...`` line (without its line ending).

    Reads left to right (help file: "new fields may be added to the end"): 31 fields are
    required, a 32nd and 33rd become ``clock_ticking`` and ``lag_ms``, the rest ``extra``.
    Lines written as :func:`format_style12` writes them take a fast path; anything else is
    read again by the checking parser, which names what is wrong. With ``exact``, a line
    :func:`format_style12` would write otherwise (``05`` for ``5``, ``(00:06)``) is refused.
    """
    m = _LINE.fullmatch(line)
    if m is not None:
        (
            r8, r7, r6, r5, r4, r3, r2, r1, side, dpf, wcs, wcl, bcs, bcl, halfmove, game,
            white, black, relation, initial, inc, ws, bs, wt, bt, move, verbose, negative,
            minutes, seconds, millis, pretty, flip, ticking, lag, extra,
        ) = m.groups()  # fmt: skip
        n = _SMALL
        ms = (n[minutes] * 60 + n[seconds]) * 1000 + (n[millis] if millis else 0)
        if not (negative and ms == 0):  # format_move_time writes no (-0:00)
            f = _FLAGS_OR_NONE
            return _new(Style12, (
                (r8, r7, r6, r5, r4, r3, r2, r1), side, n[dpf], f[wcs], f[wcl], f[bcs], f[bcl],
                n[halfmove], n[game], white, black, n[relation], n[initial], n[inc], n[ws],
                n[bs], int(wt), int(bt), n[move], verbose, -ms if negative else ms,
                millis is not None, pretty, f[flip], f[ticking], None if lag is None else n[lag],
                () if extra is None else tuple(extra.split(" ")),
            ))  # fmt: skip
    record = _parse_style12_checked(line)
    if exact:
        check_exact(line, format_style12(record), "style 12")
    return record


def check_exact(text: str, written: str, what: str) -> None:
    """Raise ValueError, naming the first field that differs, unless ``text`` is what the
    formatter wrote (``written``) for the record read from it."""
    if text == written:
        return
    got, want = text.split(" "), written.split(" ")
    pairs = enumerate(zip(got, want, strict=False))
    k = next((k for k, (a, b) in pairs if a != b), min(len(got), len(want)))
    shown = got[k] if k < len(got) else ""
    wanted = want[k] if k < len(want) else ""
    raise ValueError(
        f"{what}: field {k + 1} is written {wanted[:40]!r}, not {shown[:40]!r}"
        " (only the canonical form re-encodes to the same bytes)"
    )


def _parse_style12_checked(line: str) -> Style12:
    f = line.split(" ")
    if f[0] != "<12>":
        raise ValueError(f"style 12: line must start with '<12> ', got {line[:40]!r}")
    n = len(f)
    if n < 31:
        raise ValueError(f"style 12: expected at least 31 fields, got {n}")
    _check_no_empty(f, "style 12")
    ranks = tuple(f[1:9])
    for number, rank in zip(range(8, 0, -1), ranks, strict=True):
        if len(rank) != 8 or rank.strip(_PIECES):
            raise ValueError(
                f"style 12: rank {number} must be 8 characters of {_PIECES!r}, got {rank[:40]!r}"
            )
    game = _parse_game_fields(f[9:30], "style 12")
    flip = _flag(f[30], "flip", "style 12")
    if n == 31:
        return Style12(ranks, *game, flip)
    ticking = _flag(f[31], "clock_ticking", "style 12")
    if n == 32:
        return Style12(ranks, *game, flip, ticking)
    try:
        lag = int(f[32])
    except ValueError:
        raise ValueError(f"style 12: lag_ms must be an integer, got {f[32][:40]!r}") from None
    return Style12(ranks, *game, flip, ticking, lag, tuple(f[33:]))


def format_style12(rec: Style12) -> str:
    """Format ``rec`` as a ``<12>`` line (no line ending); inverse of :func:`parse_style12`.

    Raises ``ValueError`` if a later optional field is set while an earlier one is None.
    """
    line = (
        f"<12> {' '.join(rec.ranks)} {rec.side_to_move} {rec.double_push_file} "
        f"{_BIT[rec.white_castle_short]} {_BIT[rec.white_castle_long]} "
        f"{_BIT[rec.black_castle_short]} {_BIT[rec.black_castle_long]} {rec.halfmove_clock} "
        f"{rec.game_number} {rec.white_name} {rec.black_name} {rec.relation} "
        f"{rec.initial_time} {rec.increment} {rec.white_strength} {rec.black_strength} "
        f"{rec.white_time} {rec.black_time} {rec.move_number} {rec.verbose_move} "
        f"{format_move_time(rec.move_time_ms, rec.move_time_precise)} {rec.pretty_move} "
        f"{_BIT[rec.flip]}"
    )
    if rec.clock_ticking is None:
        if rec.lag_ms is not None or rec.extra:
            raise ValueError("style 12: lag_ms and extra need clock_ticking to be set")
        return line
    if rec.lag_ms is None:
        if rec.extra:
            raise ValueError("style 12: extra needs lag_ms to be set")
        return f"{line} {_BIT[rec.clock_ticking]}"
    if rec.extra:
        return f"{line} {_BIT[rec.clock_ticking]} {rec.lag_ms} {' '.join(rec.extra)}"
    return f"{line} {_BIT[rec.clock_ticking]} {rec.lag_ms}"
