"""FICS's wrapping of long text lines at the receiver's ``width`` (``set width``; ``iset
nowrap 1`` turns it off): a line longer than the width is broken after its last blank
within it, and goes on on a new line that starts with ``\\`` and three blanks (the
continuation FICS clients join again), from its next word. (FICS's ``vpprintf`` hands
``net_send_string`` the width plus one: a line of exactly ``width`` characters fits.)

Lines that start with ``<`` are interface lines (``<12>``, ``<s>``, ``<g1>``...), sent
whole as FICS sends them.

>>> wrap_line("one two three four five", 12)
['one two ', '\\\\   three ', '\\\\   four ', '\\\\   five']
"""

from __future__ import annotations

__all__ = ["CONTINUATION", "wrap_line"]

CONTINUATION = "\\   "


def wrap_line(line: str, width: int) -> list[str]:
    """``line`` as a receiver of ``width`` columns gets it (FICS's ``net_send_string``)."""
    if width <= 0 or len(line) <= width or line.startswith("<"):
        return [line]
    limit = width + 1
    pieces: list[str] = []
    rest, column = line, 0
    while len(rest) >= limit - column:
        room = limit - column - 1
        cut = rest.rfind(" ", 0, room) + 1 if room > 0 else 0
        if cut == 0:
            cut = max(room, 1)
        pieces.append(("" if column == 0 else CONTINUATION) + rest[:cut])
        rest, column = rest[cut:].lstrip(" "), len(CONTINUATION)
    if rest or not pieces:
        pieces.append(("" if column == 0 else CONTINUATION) + rest)
    return pieces
