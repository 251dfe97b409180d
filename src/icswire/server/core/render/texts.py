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
    "Suicide": "S",
    "Atomic": "x",
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


#: The type column of ICC's ``games`` (a wild game shows its wild number instead).
ICC_TYPE_LETTER = {"Blitz": "b", "Standard": "s", "Bullet": "B", "Wild": "w"}


def icc_games_row(
    number: int,
    white: tuple[str, int],
    black: tuple[str, int],
    kind: str,
    side: str,
    move_number: int,
) -> str:
    """A line of ICC's ``games``: number, (rating, name) of each player (no rating shown
    for none), the kind column (``bu  5  12`` or ``Ex: scratch``), who moves and the move
    number, as ICC clients read it (PyChess's ICCHelperManager, Jin)."""
    (white_name, white_rating), (black_name, black_rating) = white, black
    wr = str(white_rating) if white_rating else ""
    br = str(black_rating) if black_rating else ""
    return (
        f"{number:4d} {wr:>4} {white_name:<20} {br:>4} {black_name:<20} {kind:<16} "
        f"{side}:{move_number:3d}"
    )


def icc_kind_text(rating_type: str, wild: int, rated: bool, initial: int, increment: int) -> str:
    """ICC's ``bu  5  12``: the type (the wild number for a wild), rated letter, time."""
    kind = str(wild) if wild else ICC_TYPE_LETTER.get(rating_type, "w")
    return f"{kind + ('r' if rated else 'u'):>3}{initial:3d} {increment:3d}"


def kind_text(
    rating_type: str,
    rated: bool,
    initial: int,
    increment: int,
    private: bool = False,
    odds: bool = False,
) -> str:
    """``[ bu  3   0]``: private flag (``p``), type letter, rated letter, the time control
    (White's); ``u`` untimed, ``n`` with time odds (lasker's TYPE_NONSTANDARD)."""
    letter = TYPE_LETTER.get(rating_type, "n") if initial or increment else "u"
    if odds and letter != "u":
        letter = "n"
    flag = "p" if private else " "
    return f"[{flag}{letter}{'r' if rated else 'u'}{initial:3d} {increment:3d}]"


def games_clock_text(ms: int) -> str:
    """A clock in FICS's ``games``: rounded to the second, never below ``0:00``
    (lasker's ``tenth_str`` of the time left, clamped at 0)."""
    return clock_text((max(ms, 0) + 500) // 1000 * 1000)


#: The type letter of ICC's ``history`` (ICC's help history; a wild shows its number).
ICC_HISTORY_LETTER = {
    "Blitz": "b",
    "Bullet": "B",
    "Standard": "s",
    "Bughouse": "d",
    "Crazyhouse": "z",
    "Losers": "L",
    "5-minute": "f",
    "45-minute": "J",
    "3-minute": "M",
    "1-minute": "o",
    "Chess960": "K",
}


def icc_history_kind(rating_type: str, wild: int, rated: bool, initial: int, increment: int) -> str:
    """ICC's ``[ bu  2  12]``: the type letter (or wild number), rated letter, time."""
    kind = str(wild) if wild and rating_type == "Wild" else ICC_HISTORY_LETTER.get(rating_type, "w")
    return f"[{kind + ('r' if rated else 'u'):>3}{initial:3d} {increment:3d}]"
