"""Bughouse/crazyhouse holdings lines ``<b1>`` (FICS help ``style12``, ICC help ``style12``).

``<b1> game 6 white [PNBBB] black [PNB]`` follows a style 12 board;
``<b1> game 52 white [NB] black [N] <- BN`` is sent alone when a piece is passed
(here a knight to Black).
"""

from __future__ import annotations

from typing import Final, NamedTuple

from icswire.protocol.style12 import check_exact

__all__ = ["Bughouse", "format_b1", "parse_b1"]

_HOLDABLE: Final = "PNBRQpnbrq"


class Bughouse(NamedTuple):
    """One ``<b1>`` line. Holdings are the piece letters as sent (``""`` for ``[]``)."""

    game_number: int
    white_holding: str
    black_holding: str
    passed_to: str | None = None
    passed_piece: str | None = None


def _holding(text: str, name: str) -> str:
    if len(text) < 2 or text[0] != "[" or text[-1] != "]" or text[1:-1].strip(_HOLDABLE):
        raise ValueError(
            f"<b1>: {name} must be '[' letters of {_HOLDABLE!r} ']', got {text[:40]!r}"
        )
    return text[1:-1]


def parse_b1(line: str, *, exact: bool = False) -> Bughouse:
    """Parse a whole ``<b1> ...`` line (without its line ending); with ``exact``, a line
    :func:`format_b1` would write otherwise (``game 06``) is refused."""
    record = _parse_b1(line)
    if exact:
        check_exact(line, format_b1(record), "<b1>")
    return record


def _parse_b1(line: str) -> Bughouse:
    f = line.split(" ")
    if f[0] != "<b1>":
        raise ValueError(f"<b1>: line must start with '<b1> ', got {line[:40]!r}")
    n = len(f)
    if n != 7 and n != 9:
        raise ValueError(f"<b1>: expected 7 fields, or 9 with '<- CP', got {n}: {line[:80]!r}")
    for index, word in ((1, "game"), (3, "white"), (5, "black")):
        if f[index] != word:
            raise ValueError(f"<b1>: field {index + 1} must be {word!r}, got {f[index][:40]!r}")
    try:
        game = int(f[2])
    except ValueError:
        raise ValueError(f"<b1>: game_number must be an integer, got {f[2][:40]!r}") from None
    white = _holding(f[4], "white_holding")
    black = _holding(f[6], "black_holding")
    if n == 7:
        return Bughouse(game, white, black)
    if f[7] != "<-":
        raise ValueError(f"<b1>: field 8 must be '<-', got {f[7][:40]!r}")
    passed = f[8]
    if len(passed) != 2 or passed[0] not in "WB" or passed[1] not in _HOLDABLE:
        raise ValueError(
            f"<b1>: passed piece must be W or B then one of {_HOLDABLE!r}, got {passed[:40]!r}"
        )
    return Bughouse(game, white, black, passed[0], passed[1])


def format_b1(rec: Bughouse) -> str:
    """Format ``rec`` as a ``<b1>`` line (no line ending); inverse of :func:`parse_b1`.

    Raises ``ValueError`` if only one of ``passed_to`` and ``passed_piece`` is set.
    """
    line = f"<b1> game {rec.game_number} white [{rec.white_holding}] black [{rec.black_holding}]"
    if rec.passed_to is None and rec.passed_piece is None:
        return line
    if rec.passed_to is None or rec.passed_piece is None:
        raise ValueError("<b1>: passed_to and passed_piece must both be set or both be None")
    return f"{line} <- {rec.passed_to}{rec.passed_piece}"
