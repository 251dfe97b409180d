"""Round robin by FIDE's Berger tables (C.05 Annex 1): with n players (a dummy added to
an odd field, whose opponent has the bye), n - 1 rounds; in round r, player n meets
p = ((r - 1) * n / 2 mod (n - 1)) + 1, player n having White in even rounds; on board k
player p + k - 1 (White) meets p - k + 1 (Black), both counted mod n - 1.
For n = 4: 1-4 2-3 / 4-3 1-2 / 2-4 3-1, as the table prints it."""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["berger_round", "rounds_of"]


def rounds_of(count: int) -> int:
    """How many rounds ``count`` players play."""
    return count - 1 if count % 2 == 0 else count


def berger_round(
    names: Sequence[str], round_number: int
) -> tuple[list[tuple[str, str]], str | None]:
    """Round ``round_number`` (1-based) of ``names`` (in their pairing numbers' order):
    (white, black) pairs and who has the bye (an odd field's dummy), or None."""
    players: list[str | None] = list(names)
    if len(players) % 2:
        players.append(None)
    n = len(players)
    if not 1 <= round_number <= n - 1:
        raise ValueError(f"a round robin of {len(names)} has rounds 1 to {n - 1}")
    m = n - 1
    p = ((round_number - 1) * (n // 2)) % m
    pairs: list[tuple[str | None, str | None]] = []
    last = players[-1]
    pairs.append((last, players[p]) if round_number % 2 == 0 else (players[p], last))
    for k in range(2, n // 2 + 1):
        pairs.append((players[(p + k - 1) % m], players[(p - k + 1) % m]))
    boards: list[tuple[str, str]] = []
    bye = None
    for white, black in pairs:
        if white is None or black is None:
            bye = white or black
        else:
            boards.append((white, black))
    return boards, bye
