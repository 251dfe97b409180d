"""What others see of seeks and challenges: a seek posted or removed, a challenge made
or removed."""

from __future__ import annotations

from dataclasses import dataclass

from icswire.server.core.events.base import Event, kind


@kind
@dataclass(frozen=True, slots=True)
class SeekAd:
    """A posted seek as DG_SEEK (50), its FICS ad and FICS's ``<s>`` line show it.

    ``rating`` and ``note`` are the seeker's rating of the seek's kind and its annotation
    (0 none, 1 provisional, 2 established; 0 0 for a guest); ``color`` -1 either, 1 white,
    0 black. ``words`` is the ad's terms (``3 0 unrated blitz [white] m``), ``fics_type``
    FICS's type name (``blitz``, ``wild/fr``), ``registered`` whether the seeker is."""

    index: int
    name: str
    titles: str
    registered: bool
    rating: int
    note: int
    wild: int
    rating_type: str
    fics_type: str
    initial: int
    increment: int
    rated: bool
    color: int
    low: int
    high: int
    automatic: bool
    formula: bool
    words: str


@kind
@dataclass(frozen=True, slots=True)
class SeekPosted(Event):
    """A seek is posted: DG_SEEK (50), or the FICS ad for those without it (the seeker
    gets the DG only)."""

    seek: SeekAd


@kind
@dataclass(frozen=True, slots=True)
class SeekListed(Event):
    """A seek in FICS's ``<s>`` form (``iset seekinfo 1``), ``<sn>`` for the seeker's own
    (``iset showownseek 1``)."""

    seek: SeekAd


@kind
@dataclass(frozen=True, slots=True)
class SeeksRemoved(Event):
    """Seeks of ``seeker`` went, for ``reason`` (1 the seeker left, 2 the seeker is
    playing, 3 ``unseek``, 4 replaced): DG_SEEK_REMOVED (51) each, and FICS's ``<sr>``
    line to those with ``iset seekremove`` or ``iset seekinfo``."""

    seeker: str
    indexes: tuple[int, ...]
    reason: int


@kind
@dataclass(frozen=True, slots=True)
class ChallengeMade(Event):
    """A challenge (a match offer) from ``challenger`` to ``receiver``: DG_MATCH (29),
    whose assessment (the Glicko-2 change of loss, draw, win of the DG's receiver) goes
    only to those with DG_MATCH_ASSESSMENT (85); ``new`` when it was just made (the
    challenged is then told in words too), not when DG_MATCH is turned on.

    Ratings are (rating, annotation) of the game's kind, (0, 0) for a guest; ``color``
    -1 either, 1 the challenger wants white, 0 black."""

    challenger: str
    challenger_titles: str
    challenger_rating: tuple[int, int]
    challenger_assessment: tuple[int, int, int]
    receiver: str
    receiver_titles: str
    receiver_rating: tuple[int, int]
    receiver_assessment: tuple[int, int, int]
    wild: int
    rating_type: str
    rated: bool
    words: str
    initial: int
    increment: int
    color: int
    adjourned: bool
    new: bool
    #: Black's time and increment (time odds: ``match NAME 5 0 3 0``; else White's).
    black_initial: int = 0
    black_increment: int = 0


@kind
@dataclass(frozen=True, slots=True)
class ChallengeRemoved(Event):
    """A challenge went (accepted, declined, withdrawn, replaced, a player left or
    started a game): DG_MATCH_REMOVED (30) with ``why``."""

    challenger: str
    receiver: str
    why: str


@kind
@dataclass(frozen=True, slots=True)
class OfferPending(Event):
    """Offer ``number`` of FICS's kind ``offer`` (``match``, ``draw``...) from ``sender``
    to ``receiver`` is pending: FICS's ``<pf>`` to the receiver, ``<pt>`` to the sender
    (``iset pendinfo 1``)."""

    number: int
    sender: str
    receiver: str
    offer: str
    params: str


@kind
@dataclass(frozen=True, slots=True)
class OffersGone(Event):
    """Offers ``numbers`` are gone: FICS's ``<pr>`` (``iset pendinfo 1``)."""

    numbers: tuple[int, ...]
