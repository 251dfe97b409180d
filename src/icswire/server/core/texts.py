"""Pieces of FICS's text layouts that several features print: ratings, clocks and the
``[ bu  3   0]`` game-type column of ``games``, ``history`` and ``stored``."""

from __future__ import annotations

#: The letter ``games`` and ``history`` show for each rating type.
TYPE_LETTER = {
    "Blitz": "b",
    "Standard": "s",
    "Bullet": "l",
    "Wild": "w",
    "Chess960": "w",
    "Crazyhouse": "z",
    "Bughouse": "B",
    "Losers": "L",
}


def rating_text(rating: int, registered: bool = True) -> str:
    """A rating as FICS lists it: ``----`` registered without one, ``++++`` a guest."""
    if rating:
        return str(rating)
    return "----" if registered else "++++"


def clock_text(ms: int) -> str:
    """``m:ss`` or ``h:mm:ss``, negative after a flag fall."""
    sign, ms = ("-", -ms) if ms < 0 else ("", ms)
    seconds = ms // 1000
    hours, rest = divmod(seconds, 3600)
    minutes, seconds = divmod(rest, 60)
    return (
        f"{sign}{hours}:{minutes:02d}:{seconds:02d}" if hours else f"{sign}{minutes}:{seconds:02d}"
    )


def kind_text(rating_type: str, rated: bool, initial: int, increment: int) -> str:
    """``[ bu  3   0]``: private flag, type letter, rated letter, the time control."""
    letter = TYPE_LETTER.get(rating_type, "n") if initial or increment else "u"
    return f"[ {letter}{'r' if rated else 'u'}{initial:3d} {increment:3d}]"
