"""What others see of a user's presence: arrivals and departures, state changes (playing,
examining, open, available for matches, hearing shouts), rating changes and bughouse
partnerships.

The events carry the user's facts as plain values (:class:`Player`); which parts each
receiver gets (DG_PLAYER_ARRIVED's ratings, open, state and uid parts, the notify forms,
``pin``'s texts) is render/presence.py's, from the receiver's own settings.
"""

from __future__ import annotations

from dataclasses import dataclass

from icswire.server.core.events.base import Event, kind
from icswire.server.core.model.titles import marks


@kind
@dataclass(frozen=True, slots=True)
class Player:
    """A user's facts others see: ``ratings`` are (rating type, rating, annotation) of every
    rating type it has one of (annotation 2 established, as DG_PLAYER_ARRIVED's), ``state``
    and ``game`` DG_STATE's (P playing, E examining, X none), ``uid`` DG_UID's (0 none),
    ``titles`` the titles field of DGs (``U`` a guest, ``C`` a computer)."""

    name: str
    registered: bool
    ratings: tuple[tuple[str, int, int], ...]
    open: bool
    state: str
    game: int
    uid: int
    titles: str = ""

    @property
    def display_name(self) -> str:
        if not self.registered:
            return f"{self.name}(U)"
        return self.name + marks(self.titles)

    def rating(self, rating_type: str) -> tuple[int, int]:
        """(rating, annotation) of ``rating_type``, (0, 0) for none."""
        for label, rating, note in self.ratings:
            if label == rating_type:
                return rating, note
        return 0, 0


@kind
@dataclass(frozen=True, slots=True)
class Arrived(Event):
    """``player`` logged in. ``shouts`` is DG_SEES_SHOUTS' bits (1 shout, 2 sshout),
    ``channels`` the channels it is in, ``notify`` the name keys on its notify list (for
    FICS's ``notifiedby``; none for a guest)."""

    player: Player
    shouts: int
    channels: tuple[int, ...]
    notify: tuple[str, ...]


@kind
@dataclass(frozen=True, slots=True)
class Departed(Event):
    """``name`` logged out; ``channels`` and ``notify`` as in :class:`Arrived`."""

    name: str
    channels: tuple[int, ...]
    notify: tuple[str, ...]


@kind
@dataclass(frozen=True, slots=True)
class StateChanged(Event):
    """``name`` started or stopped playing or examining (DG_STATE, 11): ``state`` P, E or
    X, ``game`` the game's number (0 none)."""

    name: str
    state: str
    game: int


@kind
@dataclass(frozen=True, slots=True)
class OpenChanged(Event):
    """``name`` set ``open`` (DG_OPEN, 10)."""

    name: str
    open: bool


@kind
@dataclass(frozen=True, slots=True)
class AvailabilityChanged(Event):
    """``player`` can be challenged now, or no longer (FICS's ``availinfo``)."""

    player: Player
    available: bool


@kind
@dataclass(frozen=True, slots=True)
class ShoutsChanged(Event):
    """``name`` set ``shout`` or ``sshout``: DG_SEES_SHOUTS (45)'s ``bits``."""

    name: str
    bits: int


@kind
@dataclass(frozen=True, slots=True)
class RatingChanged(Event):
    """``name``'s rating of ``rating_type`` is now ``rating`` (annotation ``note``), after a
    rated game: the rating type's DG (DG_BLITZ, 4, ...)."""

    name: str
    rating_type: str
    rating: int
    note: int


@kind
@dataclass(frozen=True, slots=True)
class PartnershipChanged(Event):
    """A bughouse partnership of ``one`` and ``other`` formed or ended (DG_PARTNERSHIP, 44)."""

    one: str
    other: str
    forming: bool
