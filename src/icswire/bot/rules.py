"""The bot's decisions that need no I/O: which challenges it accepts (and the sentence it
tells the challenger it declines), when it offers, accepts or refuses a draw, when it
resigns, and whether it grants a takeback.

Evaluations are centipawns from the bot's side (``Choice.score``); a move whose score is
unknown (a book move, an engine that gave none) breaks every run of moves the draw and
resign rules count.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from icswire.bot.config import ChallengeRules, DrawRules, OfferRules, ResignRules

__all__ = [
    "DRAW_OFFER_EVERY",
    "ChallengeFacts",
    "GameJudge",
    "answers_takeback",
    "judge_challenge",
]

DRAW_OFFER_EVERY: Final = 10
"""The bot offers a draw at most once in this many of its own moves."""

TITLE_WORDS: Final = {"C": "computers", "U": "unregistered players"}
"""How the refusal names players of a title (else "players titled X")."""

_TITLE: Final = re.compile(r"[^()\s,]+")


@dataclass(frozen=True)
class ChallengeFacts:
    """A challenge as the session read it (base in minutes, increment in seconds).

    ``rating`` is the challenger's in the game's rating type (None: none known, taken as
    0), ``titles`` as the server shows them (``"(C)(TD)"``, ``"GM"``), ``variant`` a
    ``Variant.name`` or None for a variant the session cannot name."""

    opponent: str
    rating: int | None
    titles: str
    registered: bool
    rated: bool
    variant: str | None
    base: float
    increment: int


def judge_challenge(
    rules: ChallengeRules, facts: ChallengeFacts, games_now: int, engine_plays: bool
) -> str | None:
    """None to accept the challenge, else the reason it is declined, a sentence to tell
    the challenger. ``games_now``: the games the bot plays now; ``engine_plays``: whether
    its engine plays the challenge's variant."""
    if not rules.accept:
        return "I do not accept challenges; answer one of my seeks instead."
    if games_now >= rules.max_games:
        return f"I am already playing {_count(games_now, 'game')}."
    if not facts.registered and not rules.guests:
        return "I do not play guests."
    for title in _TITLE.findall(facts.titles):
        if title.upper() in {refused.upper() for refused in rules.titles_refused}:
            return f"I do not play {TITLE_WORDS.get(title.upper(), f'players titled {title}')}."
    if facts.variant is None or facts.variant not in rules.variants:
        return f"I play only {_listed(rules.variants)}."
    if not engine_plays:
        return f"My engine cannot play {facts.variant}."
    if facts.rated and not rules.rated:
        return "I play only unrated games."
    if not facts.rated and not rules.unrated:
        return "I play only rated games."
    if not rules.min_base <= facts.base <= rules.max_base:
        return f"I play games of {_range(rules.min_base, rules.max_base, 'minute')}."
    if not rules.min_increment <= facts.increment <= rules.max_increment:
        span = _range(rules.min_increment, rules.max_increment, "second")
        return f"I play increments of {span}."
    rating = facts.rating if facts.rating is not None else 0
    if not rules.min_rating <= rating <= rules.max_rating:
        if facts.rating is None:
            return f"I play only players rated {rules.min_rating} or more."
        return f"I play players rated {rules.min_rating} to {rules.max_rating}."
    return None


def _number(value: float) -> str:
    return f"{value:g}"


def _count(number: float, unit: str) -> str:
    return f"{_number(number)} {unit}{'' if number == 1 else 's'}"


def _range(low: float, high: float, unit: str) -> str:
    if low == high:
        return f"exactly {_count(low, unit)}"
    if low == 0:
        return f"at most {_count(high, unit)}"
    return f"{_number(low)} to {_count(high, unit)}"


def _listed(names: Sequence[str]) -> str:
    if not names:
        return "nothing"
    if len(names) == 1:
        return names[0]
    return f"{', '.join(names[:-1])} and {names[-1]}"


class GameJudge:
    """One game's draw and resign decisions by evaluation: :meth:`record` after each of
    the bot's own moves, then ask."""

    def __init__(self, draw: DrawRules, resign: ResignRules) -> None:
        self.draw = draw
        self.resign = resign
        self.full_moves = 0
        self.scores: list[int | None] = []
        self._last_offer: int | None = None

    def record(self, full_moves: int, score: int | None) -> None:
        """The bot moved: ``full_moves`` full moves are played in the game now, and its
        evaluation (centipawns, its own view) is ``score``."""
        self.full_moves = full_moves
        self.scores.append(score)

    def _last(self, count: int) -> list[int] | None:
        """The last ``count`` scores, or None if there are fewer or one is unknown."""
        if len(self.scores) < count:
            return None
        last = self.scores[len(self.scores) - count :]
        known = [score for score in last if score is not None]
        return known if len(known) == count else None

    def should_offer_draw(self) -> bool:
        """Whether to offer a draw now; a True answer counts as the offer, so the next
        comes at least :data:`DRAW_OFFER_EVERY` of its own moves later."""
        rules = self.draw
        if not rules.offer or self.full_moves < rules.offer_after:
            return False
        if self._last_offer is not None and len(self.scores) - self._last_offer < DRAW_OFFER_EVERY:
            return False
        last = self._last(rules.offer_for)
        if last is None or any(abs(score) > rules.offer_within for score in last):
            return False
        self._last_offer = len(self.scores)
        return True

    def accepts_draw(self) -> bool:
        """Whether to accept the opponent's draw offer: late enough, and its last
        evaluation at most ``accept_below``."""
        rules = self.draw
        if not rules.accept or self.full_moves < rules.accept_after:
            return False
        last = self._last(1)
        return last is not None and last[0] <= rules.accept_below

    def should_resign(self) -> bool:
        """Whether to resign: its last ``moves`` evaluations all at most ``below``."""
        if not self.resign.enabled:
            return False
        last = self._last(self.resign.moves)
        return last is not None and all(score <= self.resign.below for score in last)


def answers_takeback(rules: OfferRules, granted: int) -> bool:
    """Whether to grant a takeback, ``granted`` having been granted in this game."""
    return granted < rules.takebacks
