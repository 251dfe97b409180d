"""Presence events for each receiver: arrivals, departures, state, open, availability,
shouts heard, ratings and partnerships.

An arrival reaches a receiver as what it asked for, in this order: DG_PLAYER_ARRIVED (1)
with a (rating, annotation) pair per rating DG it has on and the titles (9), open (10),
state (11) and uid (131) parts it has on; DG_PLAYER_ARRIVED_SIMPLE (55); FICS's ``[X has
connected.]`` (``set pin``) and ``<wa>`` (``iset pin``); to those with the user on their
notify list a bell and DG_NOTIFY_ARRIVED (64, the same parts) or DG_SOUND's SOUND_HELLO
(53) and ``Notification: X has arrived.``; to those on the user's notify list who set
``notifiedby``, a bell, SOUND_HELLO and FICS's "isn't on your notify list" line;
DG_SEES_SHOUTS (45); the channels shared, as DG_CHANNELS_SHARED (46) or else
DG_PEOPLE_IN_MY_CHANNEL (27). A departure likewise, with DG_PLAYER_LEFT (2) and
DG_NOTIFY_LEFT (65) or SOUND_GOODBYE. Who receives an event is the feature's decision;
each part goes only to the receivers whose settings ask for it.
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Hashable, Sequence
from typing import TYPE_CHECKING, Any

from icswire.protocol import datagrams as dg
from icswire.protocol import ivars
from icswire.protocol.codes import Sound
from icswire.protocol.datagrams import DG, RATING_DGS, DatagramRecord, Rating, encode_datagram
from icswire.server.core.events.presence import (
    Arrived,
    AvailabilityChanged,
    Departed,
    OpenChanged,
    PartnershipChanged,
    Player,
    RatingChanged,
    ShoutsChanged,
    StateChanged,
)
from icswire.server.core.model.names import name_key
from icswire.server.core.model.titles import flags
from icswire.server.core.render.alerts import BELL, name_for, sound
from icswire.server.core.render.batch import EventMessage, render_parts

if TYPE_CHECKING:
    from icswire.server.core.model.users import User

#: ICC's rating types, in DG_RATING_TYPE_KEY's order (DG 76) and their rating DGs.
RATING_TYPES: tuple[tuple[str, int], ...] = (
    ("Wild", DG.WILD),
    ("Blitz", DG.BLITZ),
    ("Standard", DG.STANDARD),
    ("Bullet", DG.BULLET),
    ("Bughouse", DG.BUGHOUSE),
    ("Losers", DG.LOSERS),
    ("Crazyhouse", DG.CRAZYHOUSE),
    ("5-minute", DG.FIVEMINUTE),
    ("1-minute", DG.ONEMINUTE),
    ("Correspondence", DG.CORRESPONDENCE_RATING),
    ("15-minute", DG.FIFTEENMINUTE),
    ("3-minute", DG.THREEMINUTE),
    ("45-minute", DG.FORTYFIVEMINUTE),
    ("Chess960", DG.CHESS960),
)
_RATING_DG: dict[str, int] = dict(RATING_TYPES)
_RATING_TYPE_OF: dict[int, str] = {number: label for label, number in RATING_TYPES}
#: The DGs that choose DG_PLAYER_ARRIVED's and DG_NOTIFY_ARRIVED's parts.
ARRIVAL_PARTS: frozenset[int] = frozenset({*RATING_DGS, DG.TITLES, DG.OPEN, DG.STATE, DG.UID})

#: The ratings of a ``<wa>`` line, in FICS's order (blitz, standard, lightning, wild,
#: bughouse, crazyhouse, suicide, losers, atomic): this server's rating type of each.
ARRIVAL_RATINGS: tuple[str, ...] = (
    "Blitz",
    "Standard",
    "Bullet",
    "Wild",
    "Bughouse",
    "Crazyhouse",
    "Suicide",
    "Losers",
    "Atomic",
)
#: The first ratings FICS's availinfo line shows (then Light and Bug).
_AVAILABLE_RATINGS = (("Blitz", "Blitz"), ("Std", "Standard"), ("Wild", "Wild"))


def rating_dg(rating_type: str) -> int | None:
    """The DG of ``rating_type`` (DG_BLITZ, 4, ...), None for a type ICC lacks."""
    return _RATING_DG.get(rating_type)


def rating_record(player: Player, number: int) -> DatagramRecord:
    """The rating DG ``number`` (DG_BULLET, 3 ... DG_CHESS960, 151) of ``player``: its
    rating and annotation in that type, ``0 0`` where it has none (as DG_PLAYER_ARRIVED's
    pair for that DG says)."""
    rating, note = player.rating(_RATING_TYPE_OF[number])
    return dg.record_as(number, dg.Bullet(player.name, rating, note))


#: DG_MY_RATING's (52) rating types, in its order: "bullet-rating blitz-rating
#: standard-rating wild-rating bughouse-rating" (not DG_RATING_TYPE_KEY's).
MY_RATING_TYPES: tuple[str, ...] = ("Bullet", "Blitz", "Standard", "Wild", "Bughouse")


def my_ratings(player: Player) -> tuple[dg.NewMyRating, dg.MyRating]:
    """``player``'s own ratings as DG_NEW_MY_RATING (87, DG_RATING_TYPE_KEY's order) and
    DG_MY_RATING (52, :data:`MY_RATING_TYPES`): "-1 if unregistered, 0 if registered but
    played no games"."""

    def of(rating_type: str) -> int:
        return player.rating(rating_type)[0] if player.registered else -1

    new = dg.NewMyRating(tuple(of(label) for label, _ in RATING_TYPES))
    bullet, blitz, standard, wild, bughouse = (of(label) for label in MY_RATING_TYPES)
    return new, dg.MyRating(bullet, blitz, standard, wild, bughouse)


def ratstr(player: Player, rating_type: str) -> str:
    """FICS's ``ratstrii``: ``%4d``, ``----`` registered without one, ``++++`` a guest."""
    rating = player.rating(rating_type)[0] if player.registered else 0
    if rating:
        return f"{rating:4d}"
    return "----" if player.registered else "++++"


def arrival_line(player: Player) -> str:
    """``<wa>`` (FICS ``iset pin``, help ``new_features``): the name, the ``who`` status
    character (`` `` open, ``:`` not open), two hex digits of title flags (1 unregistered,
    2 computer) and the ratings, each with its provshow character (`` `` established,
    ``P`` not)."""
    ratings = []
    for label in ARRIVAL_RATINGS:
        rating, note = player.rating(label) if player.registered else (0, 0)
        ratings.append((rating, " " if note == 2 else "P"))
    status = " " if player.open else ":"
    titles = f"{flags(player.registered, player.titles):02X}"
    return ivars.format_player_arrived(
        ivars.PlayerArrived(player.name, status, titles, tuple(ratings))
    )


def arrived_record(player: Player, on: frozenset[int], kind: int) -> Any:
    """DG_PLAYER_ARRIVED / DG_NOTIFY_ARRIVED for a receiver with DGs ``on``: a (rating,
    annotation) pair per rating DG it has on, then titles, open, state and uid parts."""
    ratings = tuple(
        Rating(number, *player.rating(_RATING_TYPE_OF.get(number, "")))
        for number in RATING_DGS
        if number in on
    )
    record_class = dg.PlayerArrived if kind == DG.PLAYER_ARRIVED else dg.NotifyArrived
    return record_class(
        player.name,
        ratings,
        player.titles if DG.TITLES in on else None,
        player.open if DG.OPEN in on else None,
        player.state if DG.STATE in on else None,
        player.game if DG.STATE in on else None,
        player.uid if DG.UID in on else None,
    )


def _text(line: str, receiver: User) -> bytes:
    return render_parts((), (line,), receiver)


def _unlisted(name: str, receiver: User, verb: str, code: Sound) -> bytes:
    """FICS's ``notifiedby`` line, with the name highlighted as the receiver set, after
    its bell (DG_SOUND ``code``)."""
    line = f"Notification: {name_for(receiver, name)} has {verb} and isn't on your notify list."
    return BELL.render(receiver) + sound(receiver, code) + _text(line, receiver)


class _Coming(EventMessage):
    """What arrivals and departures share: who is told as a watcher (the user on its
    notify list) or as one the user notifies (``notifiedby``)."""

    name: str
    key_name: str
    notify: frozenset[str]
    channels: frozenset[int]
    #: The receiver's DGs the bytes depend on.
    key_kinds: frozenset[int]
    channel_dgs = frozenset({DG.CHANNELS_SHARED, DG.PEOPLE_IN_MY_CHANNEL})

    def watching(self, receiver: User) -> bool:
        return self.key_name in receiver.notify

    def notified(self, receiver: User) -> bool:
        """FICS's ``notifiedby``: on the user's notify list, ``notifiedby`` set, and not
        watching the user already."""
        return (
            bool(self.notify)
            and name_key(receiver.name) in self.notify
            and bool(receiver.variables["notifiedby"])
            and not self.watching(receiver)
        )

    def shared(self, receiver: User) -> list[int]:
        return sorted(receiver.channels & self.channels) if self.channels else []

    def key(self, receiver: User) -> Hashable:
        variables = receiver.variables
        watching = self.watching(receiver)
        notified = self.notified(receiver)
        return (
            receiver.level2 & self.key_kinds,
            bool(variables["pin"]),
            bool(receiver.ivariables["pin"]),
            watching,
            notified,
            variables["highlight"] if notified else 0,
            bool(variables["bell"]) if watching or notified else False,
            tuple(self.shared(receiver)) if receiver.level2 & self.channel_dgs else (),
        )


class ArrivedMessage(_Coming):
    event: Arrived

    def __init__(self, event: Arrived) -> None:
        super().__init__(event)
        self.player = event.player
        self.name = event.player.name
        self.key_name = name_key(self.name)
        self.key_kinds = self.datagram_kinds | ARRIVAL_PARTS
        self.notify = frozenset(event.notify)
        self.channels = frozenset(event.channels)

    def render(self, receiver: User) -> bytes:
        on = receiver.level2
        name = self.name
        parts = []
        if DG.PLAYER_ARRIVED in on:
            parts.append(encode_datagram(arrived_record(self.player, on, DG.PLAYER_ARRIVED)))
        if DG.PLAYER_ARRIVED_SIMPLE in on:
            parts.append(encode_datagram(dg.PlayerArrivedSimple(name)))
        if receiver.variables["pin"]:  # FICS's words (set pin 1)
            parts.append(_text(f"[{name} has connected.]", receiver))
        if receiver.ivariables["pin"]:
            parts.append(_text(arrival_line(self.player), receiver))
        if self.watching(receiver):
            parts.append(BELL.render(receiver))
            if DG.NOTIFY_ARRIVED in on:  # "implies a SOUND_HELLO that usually isn't sent"
                record = arrived_record(self.player, on, DG.NOTIFY_ARRIVED)
                parts.append(encode_datagram(record))
            else:
                parts.append(sound(receiver, Sound.HELLO))
                parts.append(_text(f"Notification: {name} has arrived.", receiver))
        elif self.notified(receiver):
            parts.append(_unlisted(name, receiver, "arrived", Sound.HELLO))
        if self.event.shouts and DG.SEES_SHOUTS in on:
            parts.append(encode_datagram(dg.SeesShouts(name, self.event.shouts)))
        shared = self.shared(receiver)
        if shared:
            if DG.CHANNELS_SHARED in on:  # it replaces the channel-by-channel form
                parts.append(encode_datagram(dg.ChannelsShared(name, tuple(shared))))
            elif DG.PEOPLE_IN_MY_CHANNEL in on:
                for channel in shared:
                    parts.append(encode_datagram(dg.PeopleInMyChannel(channel, name, True)))
        return b"".join(parts)


class DepartedMessage(_Coming):
    event: Departed

    def __init__(self, event: Departed) -> None:
        super().__init__(event)
        self.name = event.name
        self.key_name = name_key(self.name)
        self.key_kinds = self.datagram_kinds
        self.notify = frozenset(event.notify)
        self.channels = frozenset(event.channels)

    def render(self, receiver: User) -> bytes:
        on = receiver.level2
        name = self.name
        parts = []
        if DG.PLAYER_LEFT in on:
            parts.append(encode_datagram(dg.PlayerLeft(name)))
        if receiver.variables["pin"]:
            parts.append(_text(f"[{name} has disconnected.]", receiver))
        if receiver.ivariables["pin"]:
            line = ivars.format_player_departed(ivars.PlayerDeparted(name))
            parts.append(_text(line, receiver))
        if self.watching(receiver):
            parts.append(BELL.render(receiver))
            if DG.NOTIFY_LEFT in on:  # "please infer a SOUND_GOODBYE, because one is not sent"
                parts.append(encode_datagram(dg.NotifyLeft(name)))
            else:
                parts.append(sound(receiver, Sound.GOODBYE))
                parts.append(_text(f"Notification: {name} has departed.", receiver))
        elif self.notified(receiver):
            parts.append(_unlisted(name, receiver, "departed", Sound.GOODBYE))
        if DG.PEOPLE_IN_MY_CHANNEL in on:
            for channel in self.shared(receiver):
                parts.append(encode_datagram(dg.PeopleInMyChannel(channel, name, False)))
        return b"".join(parts)


class _Watched(EventMessage):
    """A change DG_PLAYER_ARRIVED's listeners hear as one DG (``heard``) and those with
    the user on their notify list as another (``notified``)."""

    heard: int
    notified: int

    def __init__(self, event: Any) -> None:
        super().__init__(event)
        self.key_name = name_key(event.name)

    def parts(self, receiver: User) -> tuple[bool, bool]:
        on = receiver.level2
        heard = DG.PLAYER_ARRIVED in on and self.heard in on
        notified = self.notified in on and self.key_name in receiver.notify
        return heard, notified

    def key(self, receiver: User) -> Hashable:
        return self.parts(receiver)

    def render(self, receiver: User) -> bytes:
        heard, notified = self.parts(receiver)
        records = self.records()
        return (encode_datagram(records[0]) if heard else b"") + (
            encode_datagram(records[1]) if notified else b""
        )

    @abstractmethod
    def records(self) -> tuple[Any, Any]: ...


class StateMessage(_Watched):
    """DG_STATE (11) to DG_PLAYER_ARRIVED's listeners, DG_NOTIFY_STATE (67) to watchers."""

    event: StateChanged
    heard = DG.STATE
    notified = DG.NOTIFY_STATE

    def records(self) -> tuple[Any, Any]:
        event = self.event
        return (
            dg.State(event.name, event.state, event.game),
            dg.NotifyState(event.name, event.state, event.game),
        )


class OpenMessage(_Watched):
    """DG_OPEN (10) to DG_PLAYER_ARRIVED's listeners, DG_NOTIFY_OPEN (66) to watchers."""

    event: OpenChanged
    heard = DG.OPEN
    notified = DG.NOTIFY_OPEN

    def records(self) -> tuple[Any, Any]:
        event = self.event
        return dg.Open(event.name, event.open), dg.NotifyOpen(event.name, event.open)


class AvailabilityMessage(EventMessage):
    """FICS's ``announce_avail`` / ``announce_notavail`` lines."""

    event: AvailabilityChanged

    def text(self, receiver: User) -> Sequence[str]:
        player = self.event.player
        if not self.event.available:
            return (f"{player.display_name} is no longer available for matches.",)
        first = ", ".join(f"{word} ({ratstr(player, kind)})" for word, kind in _AVAILABLE_RATINGS)
        return (
            f"{player.display_name} {first}, Light({ratstr(player, 'Bullet')}),"
            f" Bug({ratstr(player, 'Bughouse')})",
            "  is now available for matches.",
        )

    def key(self, receiver: User) -> Hashable:
        return ()


class _OneDatagram(EventMessage):
    """An event that is one DG, for the receivers who have it on."""

    @abstractmethod
    def record(self) -> Any: ...

    def key(self, receiver: User) -> Hashable:
        return bool(receiver.level2 & self.datagram_kinds)

    def render(self, receiver: User) -> bytes:
        record = self.record()
        return encode_datagram(record) if record.dg in receiver.level2 else b""


class ShoutsMessage(_OneDatagram):
    event: ShoutsChanged

    def record(self) -> Any:
        return dg.SeesShouts(self.event.name, self.event.bits)


class RatingMessage(EventMessage):
    """The rating type's DG (DG_BLITZ, 4, ...): ``name rating annotation``; nothing for a
    rating type ICC lacks."""

    event: RatingChanged

    def key(self, receiver: User) -> Hashable:
        return rating_dg(self.event.rating_type) in receiver.level2

    def render(self, receiver: User) -> bytes:
        event = self.event
        number = rating_dg(event.rating_type)
        if number is None or number not in receiver.level2:
            return b""
        record: Any = dg.RECORDS[number]
        return encode_datagram(record(event.name, event.rating, event.note))


class PartnershipMessage(_OneDatagram):
    event: PartnershipChanged

    def record(self) -> Any:
        event = self.event
        return dg.Partnership(event.one, event.other, event.forming)
