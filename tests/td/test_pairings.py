"""Pairing rules over many random tournaments: Swiss (no repeats, one bye at most each,
colour rules), Berger tables, arena pairs; standings recomputed from the games."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from icswire.td import director
from icswire.td.arena import arena_pairs
from icswire.td.model import FORFEITS, Tournament
from icswire.td.roundrobin import berger_round, rounds_of
from icswire.td.scores import crosstable, points_of, standings
from icswire.td.swiss import Record, pair_round


def _play(t: Tournament, rng: random.Random) -> None:
    for game in t.playing():
        game.result = rng.choice(["1-0", "0-1", "1/2-1/2", "1-0", "0-1", "+-", "--"])


@settings(max_examples=60, deadline=None)
@given(
    count=st.integers(min_value=2, max_value=16),
    seed=st.integers(min_value=0, max_value=10**6),
    withdraw_some=st.booleans(),
)
def test_random_swiss_tournaments_keep_the_absolute_rules(
    count: int, seed: int, withdraw_some: bool
) -> None:
    rng = random.Random(seed)
    t = Tournament("Test", kind="swiss", rounds=min(count - 1, 1 + count // 2, 7))
    for i in range(count):
        director.join(t, f"p{i}", rng.randint(1000, 2500))
    director.start(t)
    while True:
        director.next_round(t)
        if t.finished:
            break
        if withdraw_some and t.round == 2 and len(t.active()) > 3:
            director.withdraw(t, t.active()[-1].name)
        _play(t, rng)
    met = set()
    for game in t.games:
        pair = frozenset((game.white, game.black))
        assert pair not in met, f"{pair} met twice"
        met.add(pair)
    byes = list(t.byes.values())
    assert len(byes) == len(set(byes)), "a second bye"
    for r in range(1, t.round + 1):
        seen = [n for g in t.round_games(r) for n in (g.white, g.black)] + (
            [t.byes[r]] if r in t.byes else []
        )
        assert len(seen) == len(set(seen)), "a player twice in one round"
    for e in t.entrants:
        colours = [
            "w" if g.white == e.name else "b"
            for g in t.games
            if g.has(e.name) and g.result not in FORFEITS
        ]
        assert abs(colours.count("w") - colours.count("b")) <= 2


def test_colours_alternate_and_balance_when_possible() -> None:
    rng = random.Random(7)
    t = Tournament("Test", kind="swiss", rounds=5)
    for i in range(12):
        director.join(t, f"p{i}", 2000 - i)
    director.start(t)
    while director.next_round(t):
        for game in t.playing():
            game.result = rng.choice(["1-0", "0-1", "1/2-1/2"])
    for e in t.entrants:
        colours = "".join("w" if g.white == e.name else "b" for g in t.games if g.has(e.name))
        assert "www" not in colours and "bbb" not in colours, (e.name, colours)
        assert abs(colours.count("w") - colours.count("b")) <= 1, (e.name, colours)


def test_round_one_is_top_half_against_bottom_half() -> None:
    players = [Record(f"p{i}", 2000 - i) for i in range(8)]
    boards = pair_round(players, 1).boards
    assert [frozenset(b) for b in boards] == [frozenset((f"p{i}", f"p{i + 4}")) for i in range(4)]
    assert boards[0] == ("p0", "p4") and boards[1] == ("p5", "p1")


def test_the_bye_goes_to_the_lowest_and_only_once() -> None:
    players = [Record(f"p{i}", 2000 - i) for i in range(5)]
    assert pair_round(players, 1).bye == "p4"
    players[4].had_bye = True
    assert pair_round(players, 1).bye == "p3"


@given(count=st.integers(min_value=2, max_value=15))
def test_berger_tables_pair_everyone_once(count: int) -> None:
    names = [f"p{i}" for i in range(count)]
    met: set[frozenset[str]] = set()
    whites = dict.fromkeys(names, 0)
    for r in range(1, rounds_of(count) + 1):
        boards, bye = berger_round(names, r)
        assert (bye is not None) == (count % 2 == 1)
        for white, black in boards:
            met.add(frozenset((white, black)))
            whites[white] += 1
    assert len(met) == count * (count - 1) // 2
    assert all(abs(2 * w - (count - 1)) <= 2 for w in whites.values())


def test_berger_table_of_four_is_fides() -> None:
    names = ["1", "2", "3", "4"]
    assert [berger_round(names, r)[0] for r in (1, 2, 3)] == [
        [("1", "4"), ("2", "3")],
        [("4", "3"), ("1", "2")],
        [("2", "4"), ("3", "1")],
    ]


def test_arena_pairs_neighbours_and_avoids_the_last_opponent() -> None:
    points = {"a": 6, "b": 4, "c": 4, "d": 0}
    pairs = arena_pairs(["a", "b", "c", "d"], points, {"a": "b", "b": "a"}, {})
    assert {frozenset(p) for p in pairs} == {frozenset("ac"), frozenset("bd")}


def test_standings_equal_a_recomputation_and_rank_by_tie_breaks() -> None:
    t = Tournament("Test", kind="roundrobin")
    for name in ("a", "b", "c", "d"):
        director.join(t, name)
    director.start(t)
    results = iter(["1-0", "1/2-1/2", "0-1", "1-0", "1-0", "1/2-1/2"])
    while director.next_round(t):
        for game in t.playing():
            game.result = next(results)
    points = points_of(t)
    assert sum(points.values()) == 6
    table = standings(t)
    assert [s.points for s in table] == sorted(points.values(), reverse=True)
    for s in table:
        assert s.buchholz == sum(points[g.opponent(s.name)] for g in t.games if g.has(s.name))
    again = Tournament.from_json(t.to_json())
    assert standings(again) == table
    assert len(crosstable(t)) == 4


def test_arena_scoring_streaks_and_berserk() -> None:
    t = Tournament("A", kind="arena", duration=10)
    for name in ("a", "b"):
        director.join(t, name)
    director.start(t, now=0.0)
    for _ in range(3):
        (game,) = director.new_games(t, ["a", "b"], now=1.0)
        director.record_result(t, game, "1-0" if game.white == "a" else "0-1", plies=20)
    assert standings(t)[0].points == 2 + 2 + 4
    assert director.new_games(t, ["a", "b"], now=10 * 60.0) == []


def test_a_swiss_with_no_pairing_left_ends_before_its_last_round() -> None:
    """Six players given four rounds: after three, the games not yet played can leave no
    pairing that repeats none (here they do); the tournament ends there, not in a crash."""
    rng = random.Random(32)
    t = Tournament("Test", kind="swiss", rounds=4)
    for i in range(6):
        director.join(t, f"p{i}", rng.randint(1000, 2500))
    director.start(t)
    while not t.finished:
        if director.next_round(t):
            _play(t, rng)
    assert t.round == 3
    assert len({frozenset((g.white, g.black)) for g in t.games}) == len(t.games)
