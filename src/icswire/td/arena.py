"""Arena pairing (lichess's rules): while the clock runs, the players waiting for a game
are paired as soon as there are two, nearest in the standings first, never against the
opponent they just played when another is waiting; the one who had White last gets
Black. No game starts after the end; the games in progress finish and count."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

__all__ = ["arena_pairs"]


def arena_pairs(
    waiting: Sequence[str],
    points: Mapping[str, float],
    last_opponent: Mapping[str, str],
    last_white: Mapping[str, bool],
) -> list[tuple[str, str]]:
    """(white, black) pairs of the players ``waiting`` (one may be left over)."""
    left = sorted(waiting, key=lambda n: (-points.get(n, 0.0), n.lower()))
    pairs: list[tuple[str, str]] = []
    while len(left) >= 2:
        first = left.pop(0)
        choice = next(
            (i for i, other in enumerate(left) if last_opponent.get(first) != other), None
        )
        if choice is None:  # only the last opponent waits: a rematch rather than none
            choice = 0
        second = left.pop(choice)
        if last_white.get(first, False) and not last_white.get(second, False):
            pairs.append((second, first))
        else:
            pairs.append((first, second))
    return pairs
