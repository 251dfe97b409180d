"""SMITH move syntax of DG_MOVE_SMITH (34), icc-formats.txt section 4.

The spec's form is ``<from square><to square>[<capture indicator>][<promoted to>]``: two
squares, then an optional capture indicator, one of ``pnbrqkEcC`` (the captured piece, ``E``
for en passant, ``c`` for short and ``C`` for long castling, where the squares are the
king's), then an optional promotion, one of ``NBRQ`` (``K`` is accepted for promote-to-king
variants). The spec's examples: ``e4g5p`` "is a N move from e4 to g5 capturing a pawn",
``f7f8Q`` "is a queening move", ``f7g8nQ`` "is a pawn move capturing a knight and queening".

"bughouse plunks are the same in all move formats, e.g. "Q@f7+"", and "Mystery kriegspiel
moves are either "?" or of the form "?xb1"". This module reads and writes the syntax only;
whether a move is legal is for a later layer.

>>> parse_smith("f7g8nQ")
SmithMove(from_square='f7', to_square='g8', capture='n', promotion='Q')
>>> format_smith(SmithDrop("Q", "f7", "+"))
'Q@f7+'
"""

import re
from typing import NamedTuple, TypeAlias

__all__ = [
    "Smith",
    "SmithDrop",
    "SmithHidden",
    "SmithMove",
    "format_smith",
    "parse_smith",
]


class SmithMove(NamedTuple):
    """A board move such as ``e4g5p``; capture and promotion are None when absent."""

    from_square: str
    to_square: str
    capture: str | None = None
    promotion: str | None = None


class SmithDrop(NamedTuple):
    """A bughouse or crazyhouse plunk such as ``Q@f7+``; suffix is "", "+" or "#"."""

    piece: str
    square: str
    suffix: str = ""


class SmithHidden(NamedTuple):
    """A kriegspiel move the receiver may not see: ``?``, or ``?xb1`` for a capture on b1."""

    capture_square: str | None = None


Smith: TypeAlias = SmithMove | SmithDrop | SmithHidden

_SQUARE = "[a-h][1-8]"
_MOVE = re.compile(f"({_SQUARE})({_SQUARE})([pnbrqkEcC]?)([NBRQK]?)")
_DROP = re.compile(f"([PNBRQ])@({_SQUARE})([+#]?)")
_HIDDEN = re.compile(rf"\?(?:x({_SQUARE}))?")


def parse_smith(text: str) -> Smith:
    """Parse one SMITH move, plunk or hidden kriegspiel move.

    >>> parse_smith("e4g5p")
    SmithMove(from_square='e4', to_square='g5', capture='p', promotion=None)
    >>> parse_smith("?xb1")
    SmithHidden(capture_square='b1')
    """
    if m := _MOVE.fullmatch(text):
        return SmithMove(m[1], m[2], m[3] or None, m[4] or None)
    if m := _DROP.fullmatch(text):
        return SmithDrop(m[1], m[2], m[3])
    if m := _HIDDEN.fullmatch(text):
        return SmithHidden(m[1])
    raise ValueError(f"not a SMITH move: {text!r}")


def format_smith(move: Smith) -> str:
    """Write a move in SMITH syntax; ValueError if its fields are not valid SMITH.

    >>> format_smith(SmithMove("f7", "f8", promotion="Q"))
    'f7f8Q'
    """
    if isinstance(move, SmithMove):
        text = f"{move.from_square}{move.to_square}{move.capture or ''}{move.promotion or ''}"
    elif isinstance(move, SmithDrop):
        text = f"{move.piece}@{move.square}{move.suffix}"
    elif move.capture_square is None:
        text = "?"
    else:
        text = f"?x{move.capture_square}"
    try:
        valid = parse_smith(text) == move
    except ValueError:
        valid = False
    if not valid:
        raise ValueError(f"not a valid SMITH move: {move!r}")
    return text
