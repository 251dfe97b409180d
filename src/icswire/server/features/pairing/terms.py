"""Reading the terms ``seek`` and ``match`` are given: times, rated, colour, variant (in
FICS's and ICC's spellings), a seek's rating range and flags, checked into
:class:`~icswire.server.core.model.tables.Terms`.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from icswire.boards.variants import (
    CHESS,
    Dialect,
    UnsupportedVariantError,
    Variant,
    variant_from_spelling,
)
from icswire.server.core.dispatch.numbers import parse_number
from icswire.server.core.model.tables import Terms
from icswire.server.core.render.boards import BLACK, WHITE
from icswire.server.features.pairing.state import MAX_INCREMENT, MAX_MINUTES

if TYPE_CHECKING:
    from icswire.server.core.model.users import User


_RANGE = re.compile(r"([0-9]{0,4})-([0-9]{0,4})")


#: Words that name a wild, whose refusal says why rather than "Unknown option".
_WILDISH = re.compile(r"w(?:ild)?/?[0-9]+a?|wild/?fr|kriegspiel|shatranj")


@dataclass
class _Asked:
    """Terms as typed, before they are checked."""

    times: list[int] = field(default_factory=list)
    rated: bool | None = None  # None: the player's ``rated`` variable
    color: bool | None = None
    variant: Variant = CHESS
    low: int = 0
    high: int = 9999
    manual: bool = False
    formula: bool = False


def parse_options(words: list[str], seek: bool, dialect: Dialect = "fics") -> _Asked | str:
    """The options of ``seek``/``match``; a message saying what is wrong otherwise.

    Variants in FICS's spellings (``crazyhouse``, ``suicide``, ``losers``, ``atomic``,
    ``bughouse``, ``wild fr``, ``wild 8a``, ``w5``) and ICC's (``w23``, ``wild 17``,
    ``giveaway``); ``dialect`` settles ``wild 0`` and ``atomic``
    (:func:`~icswire.boards.variants.variant_from_spelling`)."""
    asked = _Asked()
    tokens: Iterator[str] = iter(words)
    for token in tokens:
        word = token.lower()
        if (value := parse_number(word)) is not None:
            asked.times.append(value)
        elif word in ("r", "rated"):
            asked.rated = True
        elif word in ("u", "unrated"):
            asked.rated = False
        elif word in ("w", "white"):
            asked.color = WHITE
        elif word in ("b", "black"):
            asked.color = BLACK
        elif word == "wild":
            number = next(tokens, "").lower()
            if not number:
                return "Usage: wild <number>"
            named = _variant(f"wild {number}", dialect)
            if isinstance(named, str):
                return named
            asked.variant = named
        elif seek and (bounds := _RANGE.fullmatch(word)):
            asked.low = int(bounds[1] or 0)
            asked.high = int(bounds[2] or 9999)
        elif seek and word in ("m", "manual"):
            asked.manual = True
        elif seek and word in ("a", "auto"):
            asked.manual = False
        elif seek and word in ("f", "formula"):
            asked.formula = True
        elif isinstance(variant := _variant(word, dialect), Variant):
            asked.variant = variant
        elif _WILDISH.fullmatch(word):
            return variant
        else:
            return f'Unknown option "{token}".'
    if len(asked.times) > (2 if seek else 4):
        return (
            "Give the time control as TIME INC."
            if seek
            else ("Give the time control as TIME INC, or with time odds WTIME WINC BTIME BINC.")
        )
    return asked


def _variant(words: str, dialect: Dialect) -> Variant | str:
    """The variant ``words`` name, or why it is not played here."""
    try:
        return variant_from_spelling(words, dialect)
    except UnsupportedVariantError as exc:
        text = str(exc)
        return f"{text[:1].upper()}{text[1:]}."


def dialect_of(session: User) -> Dialect:
    return "icc" if session.talks_icc else "fics"


def checked_terms(asked: _Asked, player: User, other: User | None = None) -> Terms | str:
    """The game's terms, or why they cannot be played here. Without a time the player's
    ``time`` and ``inc`` variables give it (FICS: ``match NAME 5`` is 5 0); a third and
    fourth number are Black's time and increment (lasker's ``match NAME 5 0 3 0``; a
    third alone keeps White's increment). ``0 0`` is an untimed game, ``0 2`` a game that
    starts with no minutes and lives on its increment. Without ``rated`` or ``unrated``
    its ``rated`` variable decides, unrated where a player is a guest; a game with time
    odds or untimed is never rated (lasker's TYPE_NONSTANDARD and TYPE_UNTIMED: see
    :func:`unrated_note`)."""
    times = asked.times or [player.variables["time"], player.variables["inc"]]
    initial, increment = times[0], times[1] if len(times) > 1 else 0
    black = times[2] if len(times) > 2 else initial, times[3] if len(times) > 3 else increment
    for minutes in (initial, black[0]):
        if not 0 <= minutes <= MAX_MINUTES:
            return f"The time must be from 0 to {MAX_MINUTES} minutes."
    for seconds in (increment, black[1]):
        if seconds > MAX_INCREMENT:
            return f"The increment must be from 0 to {MAX_INCREMENT} seconds."
    variant = asked.variant
    if asked.rated and not variant.rated:
        return f"{variant.title} games are never rated."
    if asked.low > asked.high:
        return "The rating range must go from low to high."
    rated = asked.rated
    if rated is None:  # the player's ``rated`` variable, where the game can be rated
        guests = not player.registered or (other is not None and not other.registered)
        rated = bool(player.variables["rated"]) and not guests and variant.rated
    terms = Terms.of(variant, rated, initial, increment, black=black)
    if rated and (terms.untimed or terms.odds):
        terms = Terms.of(variant, False, initial, increment, black=black)
    return terms


def unrated_note(asked: _Asked, player: User, terms: Terms) -> str | None:
    """What lasker's ``com_match`` tells a player whose rated game cannot be rated for
    its clocks: ``Game is non-standard - reverting to unrated`` (time odds) or ``Game is
    untimed - reverting to unrated``."""
    wanted = asked.rated if asked.rated is not None else bool(player.variables["rated"])
    if not wanted or not player.registered:
        return None
    if terms.untimed:
        return "Game is untimed - reverting to unrated"
    if terms.odds:
        return "Game is non-standard - reverting to unrated"
    return None
