"""The state of pairing: the seeks and challenges of one server (:class:`Pairing`), the
limits on them, and who may be paired now (:func:`is_playing`, :func:`bughouse_problem`).
"""

from __future__ import annotations

from collections.abc import Container
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from icswire.boards.variants import BUGHOUSE
from icswire.server.core.model.names import name_key
from icswire.server.core.model.offers import Offer, Offers
from icswire.server.core.model.partners import partner_of
from icswire.server.core.model.tables import Terms
from icswire.server.core.storage.records import GameRecord

if TYPE_CHECKING:
    from icswire.server.core.dispatch.hub import Core
    from icswire.server.core.model.users import User


#: Seek numbers run from 1 to this (DG_SEEK: "the maximum seeking index is currently 1999").
MAX_SEEK_INDEX = 1999


#: How many seeks one player may have posted at once (FICS's limit).
MAX_SEEKS = 3
#: How many a computer may (the server's computer list): each common time control, rated
#: for registered players and unrated for guests, in chess and a variant or two.
MAX_COMPUTER_SEEKS = 12


def seek_cap(player: User) -> int:
    """How many seeks ``player`` may have posted at once."""
    return MAX_COMPUTER_SEEKS if player.is_computer else MAX_SEEKS


MAX_MINUTES = 999


MAX_INCREMENT = 999


#: DG_SEEK_REMOVED reasons.
SEEKER_LEFT, SEEKER_PLAYING, SEEK_REMOVED, SEEK_REPLACED = 1, 2, 3, 4


GUESTS_UNRATED = "Unregistered players cannot play rated games."


@dataclass(eq=False)
class Seek:
    """One seek ad."""

    index: int
    seeker: User
    terms: Terms
    color: bool | None  # what the seeker asks to play; None either
    low: int
    high: int
    manual: bool
    formula: bool

    def same_ad(self, other: Seek) -> bool:
        return (self.terms, self.color, self.low, self.high, self.manual, self.formula) == (
            other.terms,
            other.color,
            other.low,
            other.high,
            other.manual,
            other.formula,
        )


@dataclass(eq=False)
class Challenge:
    """A match offer from ``challenger`` to ``receiver`` (or a request to resume)."""

    challenger: User
    receiver: User
    terms: Terms
    color: bool | None  # the challenger's request; None either
    adjourned: GameRecord | None = None
    assessment: dict[User, tuple[int, int, int]] = field(default_factory=dict)
    offer: Offer | None = None  # its number among the pending offers (iset pendinfo)

    def involves(self, session: User) -> bool:
        return session is self.challenger or session is self.receiver

    def other(self, session: User) -> User:
        return self.receiver if session is self.challenger else self.challenger

    def same_offer(self, other: Challenge) -> bool:
        mine = self.adjourned.id if self.adjourned else None
        theirs = other.adjourned.id if other.adjourned else None
        return (self.terms, self.color, mine) == (other.terms, other.color, theirs)


@dataclass(eq=False)
class Pairing:
    """The seeks and challenges of one server."""

    seeks: dict[int, Seek] = field(default_factory=dict)
    challenges: list[Challenge] = field(default_factory=list)
    starting: set[User] = field(default_factory=set)  # a game is being created for them
    last_color: dict[str, bool] = field(default_factory=dict)  # by name key
    #: Each player's last game here, by name key: the opponent's name and the terms
    #: (what ``rematch`` offers again, colours reversed).
    last_game: dict[str, tuple[str, Terms]] = field(default_factory=dict)
    offers: Offers = field(default_factory=Offers)  # the server's, given at install

    def seeks_of(self, session: User) -> list[Seek]:
        return [s for s in self.seeks.values() if s.seeker is session]

    def seeks_from(self, host: str) -> list[Seek]:
        """The seeks posted from one address (Limits.seeks_per_address), but computers':
        the server's own connect from its address, and are capped each on their own."""
        return [
            s for s in self.seeks.values() if s.seeker.host == host and not s.seeker.is_computer
        ]

    def free_index(self, elsewhere: Container[int] = ()) -> int | None:
        """The lowest index no seek has, here or (``elsewhere``) on another node."""
        for index in range(1, MAX_SEEK_INDEX + 1):
            if index not in self.seeks and index not in elsewhere:
                return index
        return None

    def challenges_of(self, session: User) -> list[Challenge]:
        return [c for c in self.challenges if c.involves(session)]

    def offer(self, challenger: User, receiver: User) -> Challenge | None:
        for challenge in self.challenges:
            if challenge.challenger is challenger and challenge.receiver is receiver:
                return challenge
        return None


def same_player(one: User, other: User) -> bool:
    """The same account (or guest name) on both sides: players are compared by name, not
    by session, so nobody is ever paired with himself."""
    return name_key(one.name) == name_key(other.name)


def is_playing(state: Pairing, core: Core, session: User) -> bool:
    return session in core.play.by_player or session in state.starting


def bughouse_problem(core: Core, terms: Terms, me: User, other: User) -> str | None:
    """Why ``me`` cannot play bughouse against ``other`` now (FICS help ``bughouse``:
    two partnerships, four players free), told to ``me``; None when they can, or when
    ``terms`` are not bughouse."""
    if terms.game_variant is not BUGHOUSE:
        return None
    mine, theirs = partner_of(core, me), partner_of(core, other)
    if mine is None:
        return "You have no partner for bughouse."
    if mine is other:
        return "You cannot play bughouse against your own partner."
    if theirs is None:
        return f"{other.name} has no partner for bughouse."
    state = core.state(Pairing)
    if is_playing(state, core, mine):
        return f"Your partner, {mine.name}, is playing a game."
    if is_playing(state, core, theirs):
        return f"{other.name}'s partner, {theirs.name}, is playing a game."
    if terms.rated and not (mine.registered and theirs.registered):
        return "All four players must be registered for a rated bughouse game."
    return None
