"""The challenges made to the bot, read from the client's state in either dialect: ICC's
DG_MATCH records and FICS's ``<pf>`` records of type ``match``, both kept in
:attr:`icswire.client.State.matches`, as :class:`Challenge` (the facts the rules judge,
:class:`~icswire.bot.rules.ChallengeFacts`, and the commands that answer it).

A FICS ``<pf>`` match record's terms read ``fred (1500) [white] alice (----) rated
crazyhouse 2 12`` (``(adjourned)`` at the end for an adjourned game); FICS's game types
``blitz``, ``lightning``, ``standard`` and ``untimed`` are chess, the others variants
(:func:`~icswire.boards.variants.variant_from_spelling`). Whether a FICS challenger is
registered comes from the players list (``(U)``, ``who``), or else from a ``++++``
rating (FICS's guests).
"""

from __future__ import annotations

import re
from collections.abc import Hashable
from dataclasses import dataclass
from typing import Any, Final

from icswire.boards.variants import (
    UnsupportedVariantError,
    variant_from_spelling,
    variant_from_wild,
)
from icswire.bot.rules import ChallengeFacts
from icswire.client.state import State

__all__ = ["Challenge", "challenges_to", "fics_variant", "parse_fics_terms"]

#: FICS's game types that are chess, the time control deciding the type.
CHESS_TYPES: Final = frozenset({"blitz", "lightning", "standard", "untimed", "bullet", "chess"})
_NAME: Final = r"([A-Za-z][A-Za-z0-9]*)"
_FICS_TERMS: Final = re.compile(
    rf"{_NAME} \((\S+)\)(?: \[(?:white|black)\])? {_NAME} \((\S+)\)"
    r" (rated|unrated) (\S+) (\d+) (\d+)( \(adjourned\))?"
)


@dataclass(frozen=True)
class Challenge:
    """One challenge to the bot: what the rules judge, and how to answer it.

    ``key`` tells it from any other (the same challenge read twice has the same key);
    ``adjourned`` marks an offer to resume an adjourned game."""

    key: Hashable
    facts: ChallengeFacts
    adjourned: bool
    accept_command: str
    decline_command: str


def challenges_to(state: State, dialect: str) -> list[Challenge]:
    """The challenges made to ``state.me`` now, in the order they came."""
    me = state.me.lower()
    found: list[Challenge] = []
    for (challenger, receiver), record in state.matches.items():
        if receiver.lower() != me or challenger.lower() == me:
            continue
        challenge = _from_fics(state, record) if dialect == "fics" else _from_icc(record)
        if challenge is not None:
            found.append(challenge)
    return found


def _from_icc(record: Any) -> Challenge:
    """A DG_MATCH record (ICC): ratings 0 are none; titles ``U`` is a guest."""
    titles = record.challenger_titles or ""
    try:
        variant: str | None = variant_from_wild(record.wild_number).name
    except UnsupportedVariantError:
        variant = None
    facts = ChallengeFacts(
        opponent=record.challenger,
        rating=record.challenger_rating or None,
        titles=titles,
        registered="U" not in titles.split(),
        rated=bool(record.rated),
        variant=variant,
        base=float(record.challenger_time),
        increment=int(record.challenger_increment),
    )
    name = record.challenger
    return Challenge(
        ("icc", record), facts, bool(record.adjourned), f"accept {name}", f"decline {name}"
    )


def _from_fics(state: State, record: Any) -> Challenge | None:
    """A ``<pf>`` match record (FICS); None when its terms cannot be read."""
    terms = parse_fics_terms(record.params)
    if terms is None:
        return None
    rating_text, rated, kind, base, increment, adjourned = terms
    name = record.name
    player = state.players.get(name)
    titles = player.titles if player is not None else ""
    guest = "U" in titles.split() or rating_text == "++++"
    facts = ChallengeFacts(
        opponent=name,
        rating=_rating(rating_text),
        titles=titles,
        registered=not guest,
        rated=rated,
        variant=fics_variant(kind),
        base=float(base),
        increment=increment,
    )
    number = record.number
    return Challenge(
        ("fics", number, record.params), facts, adjourned, f"accept {number}", f"decline {number}"
    )


def parse_fics_terms(params: str) -> tuple[str, bool, str, int, int, bool] | None:
    """A ``<pf>`` match record's terms: (the challenger's rating as written, rated, game
    type, base minutes, increment seconds, adjourned); None when they do not read so.

    >>> parse_fics_terms("fred (1500) [white] alice (----) rated crazyhouse 2 12")
    ('1500', True, 'crazyhouse', 2, 12, False)
    """
    m = _FICS_TERMS.match(params)
    if m is None:
        return None
    return m[2], m[5] == "rated", m[6], int(m[7]), int(m[8]), m[9] is not None


def fics_variant(kind: str) -> str | None:
    """The variant's name (:attr:`~icswire.boards.variants.Variant.name`) of a FICS game
    type, None for one not played here.

    >>> fics_variant("lightning"), fics_variant("wild/fr"), fics_variant("w26")
    ('chess', 'fr', 'giveaway')
    """
    if kind.lower() in CHESS_TYPES:
        return "chess"
    try:
        return variant_from_spelling(kind, "fics").name
    except UnsupportedVariantError:
        return None


def _rating(text: str) -> int | None:
    """``1500``, ``1500P`` or ``1500E`` -> 1500; ``----`` and ``++++`` -> None."""
    digits = text.rstrip("PE")
    return int(digits) if digits.isdigit() and int(digits) > 0 else None
