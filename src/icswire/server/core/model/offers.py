"""Pending offers, numbered in one series across the features that make them.

FICS numbers every offer a player has pending (match offers from pairing; draw, abort,
adjourn, takeback, pause, unpause and switch requests from play) and shows them to
interfaces that set
``iset pendinfo 1`` (FICS help ``iv_pendinfo``): ``<pf> N w=FROM t=KIND p=PARAMS`` to the
receiver, ``<pt> N w=TO t=KIND p=PARAMS`` to the sender, ``<pr> N`` to both when the offer
is accepted, declined, withdrawn or otherwise gone. ``accept N``, ``decline N`` and
``withdraw N`` name an offer by that number, whichever feature made it: the feature gives
each offer what its accepting, declining and withdrawing do.

The feature that makes an offer opens it here (:meth:`Offers.open`) and closes it
(:meth:`Offers.close`); the lines go into the batch of the moment. ``pending`` lists them
all (:meth:`Offers.listing`), in FICS's words.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from icswire.server.core.events.pairing import OfferPending, OffersGone

if TYPE_CHECKING:
    from icswire.server.core.dispatch.hub import Context
    from icswire.server.core.model.users import User
    from icswire.server.core.render.batch import Batch

OfferAction = Callable[["Context"], Awaitable[None]]
NO_PARAMS = "#"


@dataclass(eq=False)
class Offer:
    """One pending offer. ``kind`` is FICS's word (``match``, ``draw``, ``abort``,
    ``adjourn``, ``takeback``, ``pause``, ``unpause``, ``switch``, ``partner``...),
    ``params`` what ``p=`` shows (``#`` when there are none), ``words`` what ``pending``
    says after "offering" (``a draw``, ``to switch sides``). ``accept`` and ``decline``
    run for the receiver, ``withdraw`` for the sender."""

    number: int
    kind: str
    sender: User
    receiver: User
    params: str = NO_PARAMS
    words: str = ""
    accept: OfferAction | None = None
    decline: OfferAction | None = None
    withdraw: OfferAction | None = None
    owner: Any = None  # what the feature that made it keeps for it


def _words(offer: Offer) -> str:
    """What ``pending`` says of ``offer`` after "offering"."""
    return offer.words or f"a {offer.kind} offer"


def _spaced(rows: list[str], apart: bool) -> list[str]:
    """``rows``, with an empty line between two of them if ``apart``."""
    if not apart:
        return rows
    return [line for index, row in enumerate(rows) for line in ([""] if index else []) + [row]]


def pending(offer: Offer) -> OfferPending:
    """``offer`` as its two players see it pending (``<pf>``, ``<pt>``)."""
    return OfferPending(
        offer.number, offer.sender.name, offer.receiver.name, offer.kind, offer.params
    )


class Offers:
    """Every pending offer of a server, by number (the lowest free one)."""

    def __init__(self) -> None:
        self.by_number: dict[int, Offer] = {}

    def open(
        self,
        kind: str,
        sender: User,
        receiver: User,
        batch: Batch,
        params: str = NO_PARAMS,
        **what: Any,
    ) -> Offer:
        """A new offer; ``<pf>`` to the receiver and ``<pt>`` to the sender."""
        number = 1
        while number in self.by_number:
            number += 1
        offer = Offer(number, kind, sender, receiver, params or NO_PARAMS, **what)
        self.by_number[number] = offer
        batch.add_all((receiver, sender), pending(offer))
        return offer

    def close(self, offer: Offer | None, batch: Batch) -> None:
        """The offer is gone: ``<pr>`` to both."""
        if offer is None or self.by_number.get(offer.number) is not offer:
            return
        del self.by_number[offer.number]
        batch.add_all((offer.receiver, offer.sender), OffersGone((offer.number,)))

    def to(self, session: User) -> list[Offer]:
        """The offers ``session`` may accept or decline, by number."""
        return [o for _, o in sorted(self.by_number.items()) if o.receiver is session]

    def sent_by(self, session: User) -> list[Offer]:
        """The offers ``session`` may withdraw, by number."""
        return [o for _, o in sorted(self.by_number.items()) if o.sender is session]

    def listing(self, session: User) -> list[str]:
        """What ``pending`` shows ``session``: the offers it made, then those made to it,
        numbered as ``<pf>``/``<pt>`` number them (freechess.org's layout, which clients
        parse: an empty line between two offers; not in an ICC session)."""
        out: list[str] = []
        sent, received = self.sent_by(session), self.to(session)
        apart = not session.talks_icc
        if sent:
            out += ["Offers to other players:", ""]
            mine = [f"{o.number:4d}: You are offering {o.receiver.name} {_words(o)}." for o in sent]
            out += _spaced(mine, apart)
            out += ["", 'If you wish to withdraw any of these offers type "withdraw number".']
        else:
            out.append("There are no offers pending to other players.")
        out.append("")
        if received:
            out += ["Offers from other players:", ""]
            theirs = [f"{o.number:4d}: {o.sender.name} is offering {_words(o)}." for o in received]
            out += _spaced(theirs, apart)
            out += [
                "",
                'If you wish to accept any of these offers type "accept number".',
                'If you wish to decline any of these offers type "decline number".',
            ]
        else:
            out.append("There are no offers pending from other players.")
        return out

    def involving(self, session: User) -> Iterator[Offer]:
        for offer in list(self.by_number.values()):
            if session is offer.sender or session is offer.receiver:
                yield offer

    def send_all(self, session: User, batch: Batch) -> None:
        """Every offer to and from ``session`` (``iset pendinfo 1`` was just set)."""
        for _, offer in sorted(self.by_number.items()):
            if offer.receiver is session or offer.sender is session:
                batch.add(session, pending(offer))
