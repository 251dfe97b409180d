"""One sample of every domain event kind (and value type), for the tests that must cover
them all: the render table's and the cluster wire format's round trip. A new event kind
without a sample here fails those tests."""

from __future__ import annotations

from icswire.server.core.events import games, presence

_POSITION = games.GamePosition(
    7, "Alice", "Bob", "chess", "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
    3, 0, 178_500, 180_000, 1_500, True, 1, ("e4", "e4", "e2e4"),
    (("e4", "P/e2-e4", 1_500),), ("Carol",),
)  # fmt: skip
_HOUSE = games.GamePosition(
    8, "Dana", "Eve", "crazyhouse",
    "rnbqkb1r/pppppppp/5n2/8/4P3/8/PPPP1PPP/RNBQKBNR[p] w KQkq - 1 2",
    2, 12, 120_000, 119_000, 900, True, 2, None, (), (),
)  # fmt: skip
_ALICE = presence.Player("Alice", True, (("Blitz", 1510, 2), ("Wild", 1400, 1)), True, "P", 7, 12)
_GUEST = presence.Player("GuestABCD", False, (), False, "X", 0, 0)

SAMPLES: list[object] = [
    _POSITION,
    games.MovePlayed(_POSITION, "e4", "e2e4", 1_500, 178_500, 0, 1_500),
    games.MovePlayed(_HOUSE, "Nf6", "g8f6", 900, 119_000, 0),
    games.BoardShown(_POSITION),
    games.TakenBack(_POSITION, 2),
    games.ClocksChanged(_HOUSE),
    games.PiecePassed(8, "P", "", "W", "P"),
    _ALICE,
    presence.Arrived(_ALICE, 3, (1, 50), ("bob", "carol")),
    presence.Arrived(_GUEST, 0, (), ()),
    presence.Departed("Alice", (1, 50), ("bob",)),
    presence.StateChanged("Alice", "P", 7),
    presence.OpenChanged("Alice", False),
    presence.AvailabilityChanged(_ALICE, True),
    presence.AvailabilityChanged(_GUEST, False),
    presence.ShoutsChanged("Alice", 1),
    presence.RatingChanged("Alice", "Blitz", 1525, 2),
    presence.RatingChanged("Alice", "Suicide", 1525, 2),
    presence.PartnershipChanged("Alice", "Bob", True),
]
