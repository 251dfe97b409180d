"""Glicko-2 against Glickman's worked example, rating types and provisional status."""

from __future__ import annotations

import dataclasses
import doctest

import pytest

from icswire.server.core.model import ratings
from icswire.server.core.model.ratings import (
    GLICKO2_SCALE,
    MAX_DEVIATION,
    RATING_TYPES,
    Glicko,
    annotation,
    expected_minutes,
    rating_type,
    update,
)
from icswire.server.core.storage import records
from icswire.server.core.storage.records import RatingRecord

# Glickman, "Example of the Glicko-2 system": a 1500/200/0.06 player beats a 1400/30, loses
# to a 1550/100 and to a 1700/300.
PLAYER = Glicko(1500, 200, 0.06)
RESULTS = [(Glicko(1400, 30), 1.0), (Glicko(1550, 100), 0.0), (Glicko(1700, 300), 0.0)]


def test_glickman_worked_example() -> None:
    new = update(PLAYER, RESULTS)
    # The paper's figures, to its precision (it rounds its intermediate values: 1464.06 is
    # 173.7178 * -0.2069 + 1500; unrounded the rating is 1464.0507).
    assert new.rating == pytest.approx(1464.06, abs=0.01)
    assert new.deviation == pytest.approx(151.52, abs=0.005)
    assert new.volatility == pytest.approx(0.05999, abs=0.00001)
    # ... and on the Glicko-2 scale: mu' = -0.2069, phi' = 0.8722.
    assert (new.rating - 1500) / GLICKO2_SCALE == pytest.approx(-0.2069, abs=0.00005)
    assert new.deviation / GLICKO2_SCALE == pytest.approx(0.8722, abs=0.00005)
    assert new.volatility < PLAYER.volatility  # the results were about as expected


def test_order_of_results_does_not_matter() -> None:
    forward = update(PLAYER, RESULTS)
    backward = update(PLAYER, list(reversed(RESULTS)))
    assert forward.rating == pytest.approx(backward.rating, abs=1e-9)
    assert forward.deviation == pytest.approx(backward.deviation, abs=1e-9)
    assert forward.volatility == pytest.approx(backward.volatility, abs=1e-12)


def test_a_player_who_did_not_compete_only_widens() -> None:
    new = update(PLAYER, [])
    assert new.rating == PLAYER.rating and new.volatility == PLAYER.volatility
    # phi* = sqrt(phi² + sigma²) on the Glicko-2 scale
    phi = PLAYER.deviation / GLICKO2_SCALE
    assert new.deviation == pytest.approx((phi**2 + 0.06**2) ** 0.5 * GLICKO2_SCALE)
    assert new.deviation == pytest.approx(200.27, abs=0.005)
    # ... but never beyond a new player's deviation.
    assert update(Glicko(), []) == Glicko()
    assert update(Glicko(1800, 349.99, 0.06), []).deviation == MAX_DEVIATION


def test_winner_goes_up_loser_goes_down_by_as_much() -> None:
    a, b = Glicko(), Glicko()
    a_won, b_lost = update(a, [(b, 1)]), update(b, [(a, 0)])
    assert a_won.rating > 1500 > b_lost.rating
    assert a_won.rating - 1500 == pytest.approx(1500 - b_lost.rating)
    assert a_won.deviation == pytest.approx(b_lost.deviation) and a_won.deviation < 350
    # A new player's first win against an equal new player: about +162.
    assert a_won.rating == pytest.approx(1662.31, abs=0.01)


def test_established_ratings_move_less_and_upsets_move_more() -> None:
    strong, weak = Glicko(1900, 60, 0.06), Glicko(1500, 60, 0.06)
    expected = update(strong, [(weak, 1)]).rating - strong.rating
    upset = update(weak, [(strong, 1)]).rating - weak.rating
    assert 0 < expected < 5 < upset
    new_player = update(Glicko(1500, 350, 0.06), [(Glicko(1500, 60, 0.06), 1)])
    settled = update(Glicko(1500, 60, 0.06), [(Glicko(1500, 60, 0.06), 1)])
    assert new_player.rating - 1500 > 10 * (settled.rating - 1500) > 0


def test_draws() -> None:
    equal = Glicko(1600, 80, 0.06)
    drawn = update(equal, [(equal, 0.5)])
    assert drawn.rating == pytest.approx(1600, abs=1e-9)
    assert drawn.deviation < equal.deviation
    stronger = Glicko(1800, 80, 0.06)
    assert update(equal, [(stronger, 0.5)]).rating > 1600
    assert update(stronger, [(equal, 0.5)]).rating < 1800


def test_tau_limits_how_fast_volatility_changes() -> None:
    surprise = [(Glicko(2300, 50), 1.0)] * 5
    calm = update(Glicko(1500, 80, 0.06), surprise, tau=0.3)
    wild = update(Glicko(1500, 80, 0.06), surprise, tau=1.2)
    assert 0.06 < calm.volatility < wild.volatility


@pytest.mark.parametrize("score", [-0.5, 1.5, 2])
def test_scores_outside_zero_to_one_are_refused(score: float) -> None:
    with pytest.raises(ValueError, match="score"):
        update(PLAYER, [(Glicko(), score)])


def test_glicko_defaults_and_immutability() -> None:
    assert Glicko() == Glicko(1500.0, 350.0, 0.06)
    with pytest.raises(dataclasses.FrozenInstanceError):
        Glicko().rating = 1600  # type: ignore[misc]


@pytest.mark.parametrize(
    ("deviation", "games", "expected"),
    [
        (350.0, 0, 0),
        (30.0, 0, 0),
        (350.0, 1, 1),
        (50.0, 19, 1),
        (350.0, 20, 2),
        (45.0, 500, 2),
    ],
)
def test_annotation_is_provisional_for_twenty_games(
    deviation: float, games: int, expected: int
) -> None:
    assert annotation(Glicko(1500, deviation, 0.06), games) == expected


def test_rating_types_in_iccs_order_then_ficss_own() -> None:
    assert len(RATING_TYPES) == 16 == len(set(RATING_TYPES))
    assert RATING_TYPES[:5] == ("Wild", "Blitz", "Standard", "Bullet", "Bughouse")
    assert RATING_TYPES.index("Crazyhouse") == 6
    assert RATING_TYPES.index("Correspondence") == 9
    assert RATING_TYPES[13] == "Chess960"
    assert RATING_TYPES[14:] == ("Suicide", "Atomic")


@pytest.mark.parametrize(
    ("wild", "initial", "increment", "expected"),
    [
        (0, 1, 0, "Bullet"),
        (0, 2, 1, "Bullet"),  # 2.67 expected minutes
        (0, 0, 4, "Bullet"),  # 2.67
        (0, 2, 2, "Blitz"),  # 3.33
        (0, 3, 0, "Blitz"),  # exactly 3
        (0, 0, 0, "Bullet"),
        (0, 5, 0, "Blitz"),
        (0, 14, 1, "Blitz"),  # 14.67
        (0, 12, 5, "Standard"),  # 15.33
        (0, 15, 0, "Standard"),  # exactly 15
        (0, 0, 30, "Standard"),  # 20
        (0, 90, 30, "Standard"),
        (22, 1, 0, "Chess960"),
        (23, 3, 0, "Crazyhouse"),
        (24, 2, 0, "Bughouse"),
        (1, 120, 0, "Wild"),
        (17, 5, 0, "Losers"),  # ICC: losers and giveaway share a rating
        (26, 5, 0, "Losers"),
        (25, 1, 0, "Wild"),
        (27, 1, 0, "Wild"),  # ICC's atomic is a wild
        ("losers", 3, 0, "Losers"),
        ("suicide", 3, 0, "Suicide"),  # FICS's own categories
        ("atomic", 3, 0, "Atomic"),
        ("wild/8a", 3, 0, "Wild"),
        ("fr", 3, 0, "Chess960"),
    ],
)
def test_rating_type(wild: int | str, initial: int, increment: int, expected: str) -> None:
    assert rating_type(wild, initial, increment) == expected
    assert expected in RATING_TYPES


def test_expected_minutes() -> None:
    assert expected_minutes(2, 12) == 10
    assert expected_minutes(0, 3) == 2


def test_rating_record_played_counts_the_game() -> None:
    start = RatingRecord("Fred", "Blitz", Glicko(), 3, 1, 1, 1)
    won = start.played(Glicko(), 1)
    assert (won.games, won.wins, won.losses, won.draws) == (4, 2, 1, 1)
    assert won.glicko == update(Glicko(), [(Glicko(), 1)])
    assert (won.name, won.rating_type) == ("Fred", "Blitz")
    lost = start.played(Glicko(1700, 50), 0)
    assert (lost.games, lost.wins, lost.losses, lost.draws) == (4, 1, 2, 1)
    assert lost.glicko.rating < 1500
    drawn = start.played(Glicko(1700, 50), 0.5)
    assert (drawn.games, drawn.wins, drawn.losses, drawn.draws) == (4, 1, 1, 2)
    assert drawn.glicko.rating > 1500
    assert start.games == 3  # unchanged


def test_doctests() -> None:
    for module in (ratings, records):
        result = doctest.testmod(module)
        assert result.failed == 0 and result.attempted > 0
