"""Standings: points, the tie-breaks (Buchholz, Sonneborn-Berger; FIDE's handling of
byes as a game against oneself is not attempted: a bye counts its point only), the
arena's points (lichess: 2 a win, 1 a draw, doubled on a streak of two wins, +1 for a
berserked win), and the crosstable as text."""

from __future__ import annotations

from collections.abc import Container, Iterator
from dataclasses import dataclass

from icswire.td.model import FORFEITS, Pairing, Tournament

__all__ = ["Standing", "arena_points", "crosstable", "standings", "standings_text"]


@dataclass
class Standing:
    rank: int
    name: str
    points: float
    buchholz: float
    sonneborn: float
    games: int


def points_of(tournament: Tournament) -> dict[str, float]:
    """Each entrant's points (finished games and byes)."""
    points = {e.name: 0.0 for e in tournament.entrants}
    for game in tournament.games:
        for name in (game.white, game.black):
            if name in points:
                points[name] += game.points(name)
    for name in tournament.byes.values():
        if name in points:
            points[name] += 1.0
    return points


def _seats(tournament: Tournament, names: Container[str]) -> Iterator[tuple[Pairing, str]]:
    """Each finished game with each of its two players among ``names``, in pairing order."""
    for game in tournament.games:
        if game.result is None:
            continue
        for name in (game.white, game.black):
            if name in names:
                yield game, name


def arena_points(tournament: Tournament) -> dict[str, int]:
    """lichess's arena scoring, game by game in the order they were paired."""
    points = {e.name: 0 for e in tournament.entrants}
    streak = dict.fromkeys(points, 0)
    for game, name in _seats(tournament, points):
        scored = game.points(name)
        fire = streak[name] >= 2
        if scored == 1.0:
            gained = 4 if fire else 2
            if name in game.berserk and game.plies >= 7:
                gained += 1
            streak[name] += 1
        elif scored == 0.5:
            gained = 2 if fire else 1
            streak[name] = 0
        else:
            gained = 0
            streak[name] = 0
        points[name] += gained
    return points


def standings(tournament: Tournament) -> list[Standing]:
    """The table, best first: points (arena: its points), then Buchholz, then
    Sonneborn-Berger, then name."""
    points = points_of(tournament)
    main: dict[str, float] = (
        {k: float(v) for k, v in arena_points(tournament).items()}
        if tournament.kind == "arena"
        else points
    )
    buchholz = dict.fromkeys(points, 0.0)
    sonneborn = dict.fromkeys(points, 0.0)
    played = dict.fromkeys(points, 0)
    for game, name in _seats(tournament, points):
        other = game.opponent(name)
        played[name] += 1
        buchholz[name] += points.get(other, 0.0)
        sonneborn[name] += game.points(name) * points.get(other, 0.0)
    order = sorted(points, key=lambda n: (-main[n], -buchholz[n], -sonneborn[n], n.lower()))
    return [
        Standing(i + 1, n, main[n], buchholz[n], sonneborn[n], played[n])
        for i, n in enumerate(order)
    ]


def _num(value: float) -> str:
    return f"{value:g}" if value != int(value) else str(int(value))


def standings_text(tournament: Tournament) -> list[str]:
    """The standings as lines of text (the first a header)."""
    lines = [f"{'#':>3} {'Name':<17} {'Pts':>5} {'Buch':>5} {'SB':>6} {'Games':>5}"]
    for s in standings(tournament):
        withdrawn = tournament.entrant(s.name)
        mark = " (withdrawn)" if withdrawn is not None and withdrawn.withdrawn else ""
        lines.append(
            f"{s.rank:>3} {s.name:<17} {_num(s.points):>5} {_num(s.buchholz):>5}"
            f" {_num(s.sonneborn):>6} {s.games:>5}{mark}"
        )
    return lines


def crosstable(tournament: Tournament) -> list[str]:
    """One line per player, ranked: each round's result as ``+5w`` (won against number
    5 with White), ``=3b``, ``-2w``, ``+F``/``-F`` forfeits, ``BYE``, or ``..``."""
    table = standings(tournament)
    number = {s.name: s.rank for s in table}
    rounds = max([g.round for g in tournament.games] + list(tournament.byes) + [0])
    lines = []
    for s in table:
        cells = []
        for r in range(1, rounds + 1):
            cell = ".."
            if tournament.byes.get(r) == s.name:
                cell = "BYE"
            for game in tournament.round_games(r):
                if not game.has(s.name) or game.result is None:
                    continue
                scored = game.points(s.name)
                sign = "+" if scored == 1 else "=" if scored == 0.5 else "-"
                colour = "w" if game.white == s.name else "b"
                if game.result in FORFEITS:
                    cell = f"{sign}F"
                else:
                    cell = f"{sign}{number[game.opponent(s.name)]}{colour}"
            cells.append(f"{cell:>4}")
        lines.append(f"{s.rank:>3} {s.name:<17}{''.join(cells)} {_num(s.points):>5}")
    return lines
