"""Style 10 board blocks (ICC help ``style10``; FICS framing per spec NOTES.md).

ICC form, 11 lines: a ``"10"`` header, eight board lines ``|r b kbnr|`` (rank 8 first,
white at the bottom, a blank for an empty square), a 7-field state line and a 14-field
game line. FICS form, 12 lines: the same block after a ``<10>`` header and before a
``>10<`` footer. Trailing blanks and line endings are kept so blocks round-trip exactly.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, NamedTuple

from .style12 import _BIT, _check_no_empty, _parse_game_fields, check_exact, format_move_time

__all__ = ["STYLE10_BLOCK_LINES", "Style10", "format_style10", "parse_style10"]

STYLE10_BLOCK_LINES: Final[dict[str, int]] = {'"10"': 11, "<10>": 12}
"""Header line (trailing whitespace stripped) -> lines in the block, header and footer included."""

_FOOTER: Final = {'"10"': None, "<10>": ">10<"}
_CANONICAL_ENDS: Final = {header: ("\n",) * n for header, n in STYLE10_BLOCK_LINES.items()}
_SQUARES: Final = " PNBRQKpnbrqk"


class Style10(NamedTuple):
    """One style 10 block. ``line_ends`` holds, per line, its trailing blanks and its line
    ending; ``()`` means every line ends in a bare ``"\\n"``."""

    header: str
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
    extra: tuple[str, ...] = ()
    line_ends: tuple[str, ...] = ()


def _split_line(line: str, number: int) -> tuple[str, str]:
    """Split one line into its text and its trailing blanks plus line ending."""
    if line.endswith(("\r\n", "\n\r")):
        body, ending = line[:-2], line[-2:]
    elif line.endswith("\n"):
        body, ending = line[:-1], "\n"
    else:
        raise ValueError(f"style 10: line {number} has no line ending: {line[:40]!r}")
    text = body.rstrip(" \t")
    if "\n" in text or "\r" in text:
        raise ValueError(f"style 10: line {number} holds a line break inside: {line[:40]!r}")
    return text, body[len(text) :] + ending


def parse_style10(lines: Sequence[str], *, exact: bool = False) -> Style10:
    """Parse one block; each element of ``lines`` is a line with its line ending.

    ``format_style10(parse_style10(lines)) == "".join(lines)`` when the numbers are
    written canonically (``5``, not ``05``); with ``exact`` other blocks are refused.
    """
    record = _parse_style10(lines)
    if exact:
        check_exact("".join(lines), format_style10(record), "style 10")
    return record


def _parse_style10(lines: Sequence[str]) -> Style10:
    if not lines:
        raise ValueError("style 10: no lines")
    header, first_end = _split_line(lines[0], 1)
    expected = STYLE10_BLOCK_LINES.get(header)
    if expected is None:
        raise ValueError(f"style 10: header must be '\"10\"' or '<10>', got {header[:40]!r}")
    if len(lines) != expected:
        raise ValueError(f"style 10: a {header} block has {expected} lines, got {len(lines)}")
    texts = [header]
    ends = [first_end]
    for number in range(2, expected + 1):
        text, end = _split_line(lines[number - 1], number)
        texts.append(text)
        ends.append(end)
    footer = _FOOTER[header]
    if footer is not None and texts[11] != footer:
        raise ValueError(f"style 10: line 12 must be {footer!r}, got {texts[11][:40]!r}")
    ranks = tuple(text[1:9] for text in texts[1:9])
    for number, (text, rank) in enumerate(zip(texts[1:9], ranks, strict=True), start=2):
        if len(text) != 10 or text[0] != "|" or text[9] != "|" or rank.strip(_SQUARES):
            raise ValueError(
                f"style 10: line {number} must be '|' 8 squares of {_SQUARES!r} '|',"
                f" got {text[:40]!r}"
            )
    state = texts[9].split(" ")
    if len(state) != 7:
        raise ValueError(f"style 10: line 10 must have 7 fields, got {len(state)}")
    _check_no_empty(state, "style 10 line 10")
    game = texts[10].split(" ")
    if len(game) < 14:
        raise ValueError(f"style 10: line 11 must have at least 14 fields, got {len(game)}")
    _check_no_empty(game, "style 10 line 11")
    fields = state + game
    return Style10(
        header,
        ranks,
        *_parse_game_fields(fields[:21], "style 10"),
        tuple(game[14:]),
        () if all(end == "\n" for end in ends) else tuple(ends),
    )


def format_style10(rec: Style10) -> str:
    """Format ``rec`` as a whole block, line endings included; inverse of :func:`parse_style10`.

    Raises ``ValueError`` for an unknown header or a ``line_ends`` of the wrong length.
    """
    canonical = _CANONICAL_ENDS.get(rec.header)
    if canonical is None:
        raise ValueError(f"style 10: header must be '\"10\"' or '<10>', got {rec.header!r}")
    ends = rec.line_ends or canonical
    if len(ends) != len(canonical):
        raise ValueError(
            f"style 10: a {rec.header} block needs {len(canonical)} line_ends, got {len(ends)}"
        )
    lines = [
        rec.header,
        *[f"|{rank}|" for rank in rec.ranks],
        f"{rec.side_to_move} {rec.double_push_file} {_BIT[rec.white_castle_short]} "
        f"{_BIT[rec.white_castle_long]} {_BIT[rec.black_castle_short]} "
        f"{_BIT[rec.black_castle_long]} {rec.halfmove_clock}",
        f"{rec.game_number} {rec.white_name} {rec.black_name} {rec.relation} "
        f"{rec.initial_time} {rec.increment} {rec.white_strength} {rec.black_strength} "
        f"{rec.white_time} {rec.black_time} {rec.move_number} {rec.verbose_move} "
        f"{format_move_time(rec.move_time_ms, rec.move_time_precise)} {rec.pretty_move}"
        + "".join(f" {field}" for field in rec.extra),
    ]
    footer = _FOOTER[rec.header]
    if footer is not None:
        lines.append(footer)
    return "".join(text + end for text, end in zip(lines, ends, strict=True))
