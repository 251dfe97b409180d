"""Swiss pairings in the manner of FIDE's Dutch system (C.04.3), as one maximum-weight
matching (:func:`networkx.max_weight_matching`, Edmonds' blossom algorithm).

No maintained Python package implements FIDE's Dutch rules (the reference, bbpPairings
and JaVaFo, are C++ and Java programs), so this module states them as the weights of a
graph of who may meet whom, which a well-kept library then solves exactly:

- absolute criteria (C1-C3): two players who met never meet again; the bye goes to a
  player who has not had one (a ``BYE`` vertex joined to those only); the matching has
  the most edges, so everyone is paired whenever a pairing exists;
- no two players with the same absolute colour preference (colour difference beyond +-1,
  or the same colour twice running) meet, if it can be helped (C3);
- then, in this order of weight: the fewest and smallest score differences between
  opponents (floaters: a player floats to the nearest score group); the bye to the
  lowest-scored, lowest-ranked; colour preferences granted; within a score group the
  top half meets the bottom half in order (S1 against S2: rank r against r + half the
  group).

Colours then follow C.04.3's allocation: the stronger preference is granted; equal ones
alternate from the last round the two players had different colours; else the higher
ranked gets their preference; in round 1 the top seed's colour is drawn, then boards
alternate.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Final

import networkx as nx

__all__ = ["BYE", "PairingError", "Record", "Round", "pair_round", "records"]

#: The vertex that stands for the bye.
BYE: Final = "\0bye"

_SCORE: Final = 10**9  # weight of a score difference (half points squared)
_ABSOLUTE: Final = 10**13  # two absolute colour preferences clashing (above score: C3)
_BYE_SCORE: Final = 10**5  # the bye's weight per half point of its receiver
_STRONG: Final = 10**4  # two strong preferences clashing
_RANK: Final = 10  # per place away from the S1-S2 partner
_BASE: Final = 10**15  # every edge's weight less its cost (all weights positive)


class PairingError(Exception):
    """No pairing is possible (everyone has met everyone, or no bye is left)."""


@dataclass
class Record:
    """What the pairing rules need of one player."""

    name: str
    rating: int = 0
    score: float = 0.0
    colours: list[str] = field(default_factory=list)  # "w"/"b" of games played, in order
    opponents: set[str] = field(default_factory=set)
    had_bye: bool = False

    @property
    def difference(self) -> int:
        return self.colours.count("w") - self.colours.count("b")

    def preference(self) -> tuple[int, str | None]:
        """(strength, colour): 3 absolute, 2 strong, 1 mild, 0 none (C.04.1 / A.6)."""
        if not self.colours:
            return 0, None
        diff = self.difference
        last = self.colours[-1]
        other = "b" if last == "w" else "w"
        if diff > 1 or diff < -1:
            return 3, "b" if diff > 0 else "w"
        if len(self.colours) >= 2 and self.colours[-1] == self.colours[-2]:
            return 3, other
        if diff:
            return 2, "b" if diff > 0 else "w"
        return 1, other


@dataclass
class Round:
    """A round's pairings: (white, black) by board, and who has the bye (or None)."""

    boards: list[tuple[str, str]]
    bye: str | None = None


def pair_round(players: Sequence[Record], round_number: int, *, first_white: bool = True) -> Round:
    """Pair ``players`` (those still playing) for round ``round_number`` (1 for the first).

    :class:`PairingError` when no pairing keeps the absolute criteria."""
    ranked = sorted(players, key=lambda p: (-p.score, -p.rating, p.name.lower()))
    if not ranked:
        return Round([])
    rank = {p.name: i for i, p in enumerate(ranked)}
    groups: dict[float, list[str]] = {}
    for p in ranked:
        groups.setdefault(p.score, []).append(p.name)
    place = {name: (i, len(g)) for g in groups.values() for i, name in enumerate(g)}
    graph = nx.Graph()
    graph.add_nodes_from(p.name for p in ranked)
    bottom = min(p.score for p in ranked)
    for i, a in enumerate(ranked):
        for b in ranked[i + 1 :]:
            if b.name in a.opponents:
                continue
            graph.add_edge(a.name, b.name, weight=_weight(a, b, place))
    if len(ranked) % 2:
        graph.add_node(BYE)
        for p in ranked:
            if not p.had_bye:
                halves = int((p.score - bottom) * 2)
                cost = _BYE_SCORE * halves + _RANK * (len(ranked) - rank[p.name])
                graph.add_edge(p.name, BYE, weight=_BASE - cost)
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    if 2 * len(matching) != graph.number_of_nodes():
        raise PairingError("no pairing keeps every player from meeting an opponent again")
    by_name = {p.name: p for p in ranked}
    bye = None
    pairs: list[tuple[Record, Record]] = []
    for u, v in matching:
        if BYE in (u, v):
            bye = v if u == BYE else u
            continue
        a, b = sorted((by_name[u], by_name[v]), key=lambda p: rank[p.name])
        pairs.append((a, b))
    pairs.sort(key=lambda pair: (-max(pair[0].score, pair[1].score), rank[pair[0].name]))
    boards = [
        _colours(a, b, board, round_number, first_white) for board, (a, b) in enumerate(pairs)
    ]
    return Round(boards, bye)


def _weight(a: Record, b: Record, place: dict[str, tuple[int, int]]) -> int:
    """Higher is better: see the module's docstring for the order of the criteria."""
    halves = int(abs(a.score - b.score) * 2)
    cost = _SCORE * halves * halves
    (sa, ca), (sb, cb) = a.preference(), b.preference()
    if ca is not None and ca == cb:
        if sa == 3 and sb == 3:
            cost += _ABSOLUTE
        elif min(sa, sb) >= 2:
            cost += _STRONG
        else:
            cost += _STRONG // 10
    if halves == 0:
        ia, size = place[a.name]
        ib, _ = place[b.name]
        half = size // 2
        cost += _RANK * abs(abs(ia - ib) - half)
    return _BASE - cost


def _colours(
    a: Record, b: Record, board: int, round_number: int, first_white: bool
) -> tuple[str, str]:
    """(white, black) for ``a`` (the higher ranked) and ``b`` (C.04.3 E)."""
    (sa, ca), (sb, cb) = a.preference(), b.preference()
    if ca is None and cb is None:
        white_first = (board % 2 == 0) == first_white
        return (a.name, b.name) if white_first else (b.name, a.name)
    if ca is not None and cb is not None and ca == cb:
        if sa != sb:  # the stronger preference wins
            winner, colour = (a, ca) if sa > sb else (b, cb)
        else:  # alternate from the last round they differed
            for x, y in zip(reversed(a.colours), reversed(b.colours), strict=False):
                if x != y:
                    winner, colour = a, ("b" if x == "w" else "w")
                    break
            else:
                winner, colour = a, ca
        loser = b if winner is a else a
        return (winner.name, loser.name) if colour == "w" else (loser.name, winner.name)
    if ca is not None and (cb is None or cb != ca):
        return (a.name, b.name) if ca == "w" else (b.name, a.name)
    return (b.name, a.name) if cb == "w" else (a.name, b.name)


def records(
    names: Sequence[tuple[str, int]],
    games: Sequence[tuple[str, str, float, float, bool]],
    byes: Sequence[str],
) -> dict[str, Record]:
    """The records of ``names`` ((name, rating)) from the finished games so far
    ((white, black, white's points, black's, whether it was played: a forfeit counts its points
    and the meeting, not the colours) and the byes (a point each)."""
    out = {name: Record(name, rating) for name, rating in names}
    for white, black, points, black_points, played in games:
        for me, other, colour in ((white, black, "w"), (black, white, "b")):
            record = out.get(me)
            if record is None:
                continue
            record.opponents.add(other)
            if played:
                record.colours.append(colour)
        if white in out:
            out[white].score += points
        if black in out:
            out[black].score += black_points
    for name in byes:
        if name in out:
            out[name].had_bye = True
            out[name].score += 1
    return out
