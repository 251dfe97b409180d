"""Ratings: Glicko-2, the rating types of ICC and how a game's time control picks one.

The rating system is Mark Glickman's Glicko-2, step for step as in his paper "Example of the
Glicko-2 system" (system constant tau = 0.5, the volatility found by the paper's Illinois
iteration). The server rates each game as soon as it ends, as a rating period of one game.

>>> player = Glicko(1500, 200, 0.06)
>>> new = update(player, [(Glicko(1400, 30), 1), (Glicko(1550, 100), 0), (Glicko(1700, 300), 0)])
>>> f"{new.rating:.2f} {new.deviation:.2f} {new.volatility:.5f}"
'1464.05 151.52 0.06000'
>>> rating_type(0, 3, 0), rating_type(0, 2, 0), rating_type(23, 5, 0), rating_type("suicide", 2, 0)
('Blitz', 'Bullet', 'Crazyhouse', 'Suicide')
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from icswire.boards.variants import ICC_RATING_TYPES, VariantLike, variant_of

__all__ = [
    "CONVERGENCE",
    "DEFAULT_TAU",
    "FICS_ONLY_TYPES",
    "GLICKO2_SCALE",
    "MAX_DEVIATION",
    "PROVISIONAL_GAMES",
    "RATING_TYPES",
    "Assessment",
    "Glicko",
    "annotation",
    "assess",
    "expected_minutes",
    "rating_type",
    "update",
]

GLICKO2_SCALE = 173.7178
"""Glicko-2 works on ``(rating - 1500) / 173.7178`` and ``deviation / 173.7178``."""

DEFAULT_TAU = 0.5
"""The system constant: how much the volatility may change in one rating period."""

CONVERGENCE = 0.000001
"""The paper's epsilon: the volatility iteration stops when its bracket is this narrow."""

MAX_DEVIATION = 350.0
"""A new player's deviation, and the most a deviation grows to (as in Glicko-1)."""

PROVISIONAL_GAMES = 20
"""A rating is provisional (annotation 1) until this many games, as on ICC."""


@dataclass(frozen=True, slots=True)
class Glicko:
    """A Glicko-2 rating: what a new player starts with by default."""

    rating: float = 1500.0
    deviation: float = 350.0
    """The rating deviation (RD), on the rating's own scale."""
    volatility: float = 0.06


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _expected(mu: float, mu_j: float, g_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-g_j * (mu - mu_j)))


def _volatility(sigma: float, phi: float, v: float, delta: float, tau: float) -> float:
    """Step 5 of the paper: the new volatility, by the Illinois algorithm."""
    a = math.log(sigma * sigma)
    phi2 = phi * phi

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta * delta - phi2 - v - ex) / (2.0 * (phi2 + v + ex) ** 2) - (x - a) / (
            tau * tau
        )

    big_a = a
    if delta * delta > phi2 + v:
        big_b = math.log(delta * delta - phi2 - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > CONVERGENCE:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2.0)


def update(player: Glicko, results: Sequence[tuple[Glicko, float]], tau: float = 0.5) -> Glicko:
    """The rating of ``player`` after one rating period with these ``(opponent, score)``.

    Scores are 1 for a win, 0.5 for a draw and 0 for a loss. With no results the player did
    not compete: only the deviation widens, to ``sqrt(RD² + volatility²)`` on the Glicko-2
    scale. A deviation never grows beyond :data:`MAX_DEVIATION`.

    >>> round(update(Glicko(1500, 200, 0.06), []).deviation, 2)
    200.27
    """
    mu = (player.rating - 1500.0) / GLICKO2_SCALE
    phi = player.deviation / GLICKO2_SCALE
    sigma = player.volatility
    if not results:
        phi_star = math.sqrt(phi * phi + sigma * sigma)
        deviation = min(phi_star * GLICKO2_SCALE, MAX_DEVIATION)
        return Glicko(float(player.rating), deviation, sigma)
    inverse_v = 0.0
    total = 0.0  # the sum of g(phi_j) (s_j - E) of steps 4 and 7
    for opponent, score in results:
        if not 0.0 <= score <= 1.0:
            raise ValueError(f"a score is 0, 0.5 or 1, not {score!r}")
        mu_j = (opponent.rating - 1500.0) / GLICKO2_SCALE
        g_j = _g(opponent.deviation / GLICKO2_SCALE)
        e_j = _expected(mu, mu_j, g_j)
        inverse_v += g_j * g_j * e_j * (1.0 - e_j)
        total += g_j * (score - e_j)
    v = 1.0 / inverse_v
    delta = v * total
    new_sigma = _volatility(sigma, phi, v, delta, tau)
    phi_star = math.sqrt(phi * phi + new_sigma * new_sigma)
    new_phi = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    new_mu = mu + new_phi * new_phi * total
    return Glicko(
        GLICKO2_SCALE * new_mu + 1500.0,
        min(GLICKO2_SCALE * new_phi, MAX_DEVIATION),
        new_sigma,
    )


@dataclass(frozen=True, slots=True)
class Assessment:
    """What one game against an opponent would do to a rating (``assess``, DG_MATCH's
    assessment, the formula's assessloss, assessdraw and assesswin): the change, rounded,
    for a loss, a draw and a win, and the deviation after the game (a draw's: the three
    differ only in the volatility's last decimals)."""

    loss: int
    draw: int
    win: int
    deviation: float


def assess(mine: Glicko, theirs: Glicko) -> Assessment:
    """The :class:`Assessment` of a game of ``mine`` against ``theirs``.

    >>> found = assess(Glicko(1500, 350), Glicko(1500, 350))
    >>> found.loss, found.draw, found.win, round(found.deviation, 1)
    (-162, 0, 162, 290.3)
    """
    after = {score: update(mine, [(theirs, score)]) for score in (0.0, 0.5, 1.0)}
    loss, draw, win = (round(after[s].rating - mine.rating) for s in (0.0, 0.5, 1.0))
    return Assessment(loss, draw, win, after[0.5].deviation)


def annotation(g: Glicko, games: int) -> int:
    """The provisional-status of the rating DGs: 0 no games, 1 provisional, 2 established.

    A rating is provisional for its first :data:`PROVISIONAL_GAMES` (20) games, ICC's rule;
    the deviation does not matter.

    >>> annotation(Glicko(), 0), annotation(Glicko(), 19), annotation(Glicko(), 20)
    (0, 1, 2)
    """
    if games <= 0:
        return 0
    return 1 if games < PROVISIONAL_GAMES else 2


FICS_ONLY_TYPES: tuple[str, ...] = ("Suicide", "Atomic")
"""FICS's own categories for the variants only FICS plays (FICS rates suicide and atomic
apart); ICC has no rating DG or number for them."""

RATING_TYPES: tuple[str, ...] = ICC_RATING_TYPES + FICS_ONLY_TYPES
"""ICC's rating types (the index is DG_RATING_TYPE_KEY's and DG_GAMELIST_ITEM's number),
then :data:`FICS_ONLY_TYPES`."""


def expected_minutes(initial_minutes: int, increment_seconds: int) -> float:
    """How long a player's clock is expected to last: ``initial + increment * 2 / 3``.

    FICS's rule, which counts 40 moves: each increment of ``inc`` seconds adds ``40 * inc``
    seconds, two thirds of ``inc`` minutes.
    """
    return initial_minutes + increment_seconds * 2 / 3


def rating_type(variant: VariantLike, initial_minutes: int, increment_seconds: int) -> str:
    """The rating type (a name in :data:`RATING_TYPES`) of a game of ``variant`` (a
    registry variant, its ICC wild number or its name).

    A variant is rated under its ICC type (wild 22 Chess960, 23 Crazyhouse, 24 Bughouse,
    losers and giveaway Losers, the rest Wild), except FICS's own suicide and atomic, which
    have FICS's categories (:data:`FICS_ONLY_TYPES`); ordinary chess is Bullet below 3
    expected minutes, Blitz below 15 and Standard from 15 (:func:`expected_minutes`).

    >>> rating_type(0, 2, 12), rating_type(0, 15, 0), rating_type(5, 3, 0)
    ('Blitz', 'Standard', 'Wild')
    """
    found = variant_of(variant)
    if found.wild is None and found.fics_rating is not None:
        fics = found.fics_rating.capitalize()
        if fics in FICS_ONLY_TYPES:
            return fics
    if found.icc_rating is not None:
        return found.icc_rating
    minutes = expected_minutes(initial_minutes, increment_seconds)
    if minutes < 3:
        return "Bullet"
    if minutes < 15:
        return "Blitz"
    return "Standard"
