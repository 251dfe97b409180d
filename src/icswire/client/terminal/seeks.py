"""The seek list as the screen shows it: one line per seek of DG_SEEK (ICC) or ``<s>``
(FICS), by number."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any


def seek_number(seek: Any) -> int:
    """A seek's number: DG_SEEK's index, FICS's ``<s>`` number."""
    return int(getattr(seek, "index", getattr(seek, "number", 0)))


def seek_line(seek: Any) -> str:
    """``  12 Ben(C)          1500   5 0   r blitz W`` (r: rated, u: unrated; the color
    asked for, if one is) from DG_SEEK or ``<s>``."""
    name = str(getattr(seek, "playername", None) or getattr(seek, "name", "?"))
    kind = str(getattr(seek, "rating_type", None) or getattr(seek, "type", ""))
    color = {1: "W", 0: "B", "W": "W", "B": "B"}.get(seek.color, "")
    rating = seek.rating or "----"
    line = f"{seek_number(seek):>3} {name[:15]:<15} {rating:>4} {seek.time:>3} {seek.increment:<3}"
    return f"{line} {'r' if seek.rated else 'u'} {kind.lower()} {color}".rstrip()


def seek_lines(seeks: Iterable[Any]) -> list[str]:
    """A title line, then the seeks by number."""
    ordered = sorted(seeks, key=seek_number)
    if not ordered:
        return ["Seeks: none (`seek 5 0` offers a game)"]
    return [f"Seeks ({len(ordered)}; `play N` accepts):", *(seek_line(s) for s in ordered)]
