"""Whether a game offered to a user fits that user's formula (``set formula``, help
``formula``), evaluated with the offer's values: FICS's ``GameMatchesFormula``.

The formula's owner is "my" side (``myrating``), the one who offers is "you"
(``rating``, ``registered``, ``timeseal``, ``computer``: 1 when the other is on the
server's ``computer`` list); the terms give the rest. ``abuser`` is 0: this server keeps
no such list.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from icswire.server.core.model.formula import Facts, FormulaError, clauses, evaluate, parse
from icswire.server.core.model.variables import SUBFORMULAS

if TYPE_CHECKING:
    from icswire.server.core.model.tables import Terms
    from icswire.server.core.model.users import User

__all__ = ["Proposal", "explain", "fits", "lines_of"]

#: FICS's kinds of chess by time control, by this server's rating type.
_RATED_TYPES = {"Blitz": "blitz", "Standard": "standard", "Bullet": "lightning"}
#: The variants' FICS rating kinds the formula has a name for.
_KINDS = ("wild", "crazyhouse", "bughouse", "losers", "suicide", "atomic")


@dataclass(frozen=True)
class Proposal:
    """A game offered to ``owner`` by ``other``: its terms, the colour ``owner`` would
    play (None if not asked), and the owner's Glicko-2 change for a loss, draw and win."""

    owner: User
    other: User
    terms: Terms
    color: bool | None = None
    assess: tuple[int, int, int] = (0, 0, 0)


def _rating(player: User, kind: str) -> int:
    return player.ratings.get(kind, (0, 0))[0] if player.registered else 0


def facts(offer: Proposal) -> Facts:
    """The values of the formula's variables for ``offer``."""
    me, you, t = offer.owner, offer.other, offer.terms
    kind = t.rating_type
    mine, yours = _rating(me, kind), _rating(you, kind)
    variant_kind = t.game_variant.fics_rating  # None for chess: blitz, standard ...
    chess_kind = _RATED_TYPES.get(kind) if variant_kind is None else None
    if t.untimed or t.odds:  # lasker's TYPE_UNTIMED and TYPE_NONSTANDARD: neither kind
        chess_kind = None
    loss, draw, win = offer.assess if t.rated else (0, 0, 0)
    values = {
        "rating": yours,
        "myrating": mine,
        "ratingdiff": yours - mine,
        "time": t.initial,
        "inc": t.increment,
        "rated": int(t.rated),
        "unrated": int(not t.rated),
        "blitz": int(chess_kind == "blitz"),
        "standard": int(chess_kind == "standard"),
        "lightning": int(chess_kind == "lightning"),
        "untimed": int(t.untimed),
        "nonstandard": int(t.odds and not t.untimed),
        **{name: int(variant_kind == name) for name in _KINDS},
        "white": int(offer.color is True),
        "black": int(offer.color is False),
        "color": int(offer.color is not None),
        "nocolor": int(offer.color is None),
        "registered": int(you.registered),
        "timeseal": int(bool(you.timeseal)),
        "private": int(bool(me.variables["private"] or you.variables["private"])),
        "computer": int(you.is_computer),
        "abuser": 0,
        "assessloss": loss,
        "assessdraw": draw,
        "assesswin": win,
    }
    return Facts(values, t.initial, t.increment)


def lines_of(player: User) -> dict[int, str]:
    """``player``'s sub-formulas by number."""
    return {int(name[1:]): player.variables[name] for name in SUBFORMULAS}


def fits(offer: Proposal) -> bool:
    """Whether ``offer`` fits its owner's formula (any offer does when none is set; one
    that cannot be read any more fits none, as in FICS)."""
    text = offer.owner.variables["formula"].strip()
    if not text:
        return True
    try:
        tree = parse(text)
    except FormulaError:
        return False
    return bool(evaluate(tree, facts(offer), lines_of(offer.owner)))


def explain(offer: Proposal) -> list[str]:
    """FICS's ``ShowClauses``: ``fN=value: text`` for each sub-formula the formula uses."""
    owner = offer.owner
    lines = lines_of(owner)
    try:
        tree = parse(owner.variables["formula"])
    except FormulaError:
        return []
    found = facts(offer)
    shown = []
    for index in clauses(tree, lines):
        text = lines.get(index, "")
        value = 1
        if text.strip():
            try:
                value = evaluate(parse(text, index - 1), found, lines)
            except FormulaError:
                value = 0
        shown.append(f"f{index}={value}: {text}")
    return ["", *shown] if shown else []
