"""Seeks and challenges for each receiver.

A seek reaches those who may answer it as DG_SEEK (50) or, without it, FICS's ad ``fred
(++++) seeking 3 0 unrated blitz ("play 12" to respond)`` (a provisional rating marked
``P`` for those with ``set provshow``); the seeker gets the DG only. FICS's ``<s>`` line
(``iset seekinfo``) is ``<sn>`` for the seeker's own seek. Removed seeks are
DG_SEEK_REMOVED (51) each and one ``<sr>`` line (``iset seekremove``, or ``iset seekinfo``
but not for one's own seeks without ``showownseek``). A challenge is DG_MATCH (29) to both
players (the assessment, loss draw win, only with DG_MATCH_ASSESSMENT, 85, on), and the
``Challenge:`` lines with a bell to the challenged; its removal DG_MATCH_REMOVED (30).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import TYPE_CHECKING, Any

from icswire.protocol import datagrams as dg
from icswire.protocol import ivars
from icswire.protocol.codes import Sound
from icswire.protocol.datagrams import DG
from icswire.server.core.events.pairing import (
    ChallengeMade,
    ChallengeRemoved,
    OfferPending,
    OffersGone,
    SeekAd,
    SeekListed,
    SeekPosted,
    SeeksRemoved,
)
from icswire.server.core.model.titles import flags
from icswire.server.core.render.alerts import BELL, name_for, sound
from icswire.server.core.render.batch import EventMessage, render_parts

if TYPE_CHECKING:
    from icswire.server.core.model.users import User


def provshow(reader: User | None) -> bool:
    """Does ``reader`` see provisional ratings marked (``set provshow``)?"""
    return reader is not None and bool(reader.variables["provshow"])


def rating_shown(rating: tuple[int, int], provisional: bool = False) -> str:
    """A rating in match lines: ``----`` when there is none; a provisional one followed
    by ``P`` for ``provisional`` (provshow) readers."""
    value, note = rating
    if not value:
        return "----"
    return f"{value}P" if provisional and note == 1 else str(value)


def sees_own(session: User) -> bool:
    """Does ``session`` see its own seeks in ``<s>`` form (``<sn>``, ``<sr>``)?"""
    own = session.ivariables["showownseek"] or session.variables["showownseek"]
    return bool(session.ivariables["seekinfo"] and own)


# -- seeks -----------------------------------------------------------------------------------


def seek_record(ad: SeekAd) -> dg.Seek:
    return dg.Seek(
        ad.index, ad.name, ad.titles, ad.rating, ad.note, ad.wild, ad.rating_type,
        ad.initial, ad.increment, ad.rated, ad.color, ad.low, ad.high, ad.automatic,
        ad.formula, "",
    )  # fmt: skip


def seek_rating(ad: SeekAd, provisional: bool = False) -> str:
    """FICS's way in seek lines: ``++++`` a guest, ``----`` registered without games."""
    if not ad.registered:
        return "++++"
    return rating_shown((ad.rating, ad.note), provisional)


def seek_announcement(ad: SeekAd, provisional: bool = False) -> str:
    rating = seek_rating(ad, provisional)
    return f'{ad.name} ({rating}) seeking {ad.words} ("play {ad.index}" to respond)'


def seekinfo_line(ad: SeekAd, own: bool = False) -> str:
    """FICS's ``<s>`` line (``<sn>`` with ``own``): titles as two hex digits (1
    unregistered, 2 computer), the rating with its provshow character (`` `` established,
    ``P`` provisional), FICS's type name."""
    color = {-1: "?", 1: "W", 0: "B"}[ad.color]
    return ivars.format_seek(
        ivars.Seek(
            ad.index, ad.name, f"{flags(ad.registered, ad.titles):02x}", ad.rating,
            " " if ad.note == 2 else "P", ad.initial, ad.increment, ad.rated, ad.fics_type,
            color, ad.low, ad.high, ad.automatic, ad.formula, own=own,
        )
    )  # fmt: skip


class SeekMessage(EventMessage):
    """DG_SEEK, or the ad (the seeker: the DG only)."""

    event: SeekPosted

    def key(self, receiver: User) -> Hashable:
        on = DG.SEEK in receiver.level2
        if on or receiver.name == self.event.seek.name:
            return on
        return "text", provshow(receiver)

    def render(self, receiver: User) -> bytes:
        ad = self.event.seek
        if DG.SEEK in receiver.level2:
            return render_parts((seek_record(ad),), (), receiver)
        if receiver.name == ad.name:
            return b""
        return render_parts((), (seek_announcement(ad, provshow(receiver)),), receiver)


class SeekLineMessage(EventMessage):
    """FICS's ``<s>`` line, ``<sn>`` to the seeker."""

    event: SeekListed

    def key(self, receiver: User) -> Hashable:
        return receiver.name == self.event.seek.name

    def text(self, receiver: User) -> Sequence[str]:
        ad = self.event.seek
        return (seekinfo_line(ad, own=receiver.name == ad.name),)


def told_removed(receiver: User, seeker: str) -> bool:
    """Is ``receiver`` told of removed seeks of ``seeker`` with ``<sr>``?"""
    return bool(
        receiver.ivariables["seekremove"]
        or (receiver.ivariables["seekinfo"] and (receiver.name != seeker or sees_own(receiver)))
    )


class SeeksRemovedMessage(EventMessage):
    """DG_SEEK_REMOVED for each seek, then ``<sr>``."""

    event: SeeksRemoved

    def key(self, receiver: User) -> Hashable:
        return DG.SEEK_REMOVED in receiver.level2, told_removed(receiver, self.event.seeker)

    def datagrams(self, receiver: User) -> Sequence[Any]:
        if DG.SEEK_REMOVED not in receiver.level2:
            return ()
        reason = self.event.reason
        return [dg.SeekRemoved(index, reason) for index in self.event.indexes]

    def text(self, receiver: User) -> Sequence[str]:
        if not told_removed(receiver, self.event.seeker):
            return ()
        return (ivars.format_seeks_removed(ivars.SeeksRemoved(self.event.indexes)),)


# -- challenges ------------------------------------------------------------------------------


def _color_word(color: int) -> str:
    return {-1: "", 1: " [white]", 0: " [black]"}[color]


def challenge_text(event: ChallengeMade, reader: User | None = None) -> str:
    """``A (----) B (----) unrated blitz 5 0.``: the body of Challenge/Issuing lines; the
    other player's name highlighted for ``reader`` (``set highlight``)."""
    c, r = event.challenger, event.receiver
    prov = provshow(reader)
    name = "" if reader is None else reader.name
    c_name = name_for(reader, c) if reader is not None and name == r else c
    r_name = name_for(reader, r) if reader is not None and name == c else r
    adjourned = " (adjourned)" if event.adjourned else ""
    white = event.initial, event.increment
    black = event.black_initial, event.black_increment
    if white == (0, 0) or black == (0, 0):  # untimed: no time (lasker's game_time_str)
        clock = ""
    elif white != black:
        clock = f" {white[0]} {white[1]} : {black[0]} {black[1]}"
    else:
        clock = f" {white[0]} {white[1]}"
    return (
        f"{c_name} ({rating_shown(event.challenger_rating, prov)}){_color_word(event.color)}"
        f" {r_name} ({rating_shown(event.receiver_rating, prov)}) {event.words}"
        f"{clock}{adjourned}."
    )


def computer_notice(name: str, titles: str) -> tuple[str, ...]:
    """FICS's ``--** NAME is a computer **--`` under a challenge that involves one."""
    return (f"--** {name} is a computer **--",) if "C" in titles.split() else ()


def match_record(event: ChallengeMade, receiver: User) -> dg.Match:
    """DG_MATCH (29) as ``receiver`` gets it (the assessment only with DG 85 on)."""
    assess: tuple[int | None, int | None, int | None] = (None, None, None)
    if DG.MATCH_ASSESSMENT in receiver.level2:
        if receiver.name == event.receiver:
            assess = event.receiver_assessment
        elif receiver.name == event.challenger:
            assess = event.challenger_assessment
        else:
            assess = (0, 0, 0)
    # the challenger's time control, then the receiver's: White's first, unless the
    # challenger asked for Black (with time odds the challenger is White otherwise)
    white = event.initial, event.increment
    black = event.black_initial, event.black_increment
    mine, theirs = (black, white) if event.color == 0 else (white, black)
    return dg.Match(
        event.challenger, *event.challenger_rating, event.challenger_titles,
        event.receiver, *event.receiver_rating, event.receiver_titles,
        event.wild, event.rating_type, event.rated, event.adjourned,
        *mine, *theirs, event.color, *assess, "",
    )  # fmt: skip


class ChallengeMessage(EventMessage):
    """A bell (DG_SOUND's SOUND_CHALLENGE) and the ``Challenge:`` lines to the challenged
    when the challenge is new; then DG_MATCH."""

    event: ChallengeMade

    def _told(self, receiver: User) -> bool:
        return self.event.new and receiver.name == self.event.receiver

    def key(self, receiver: User) -> Hashable:
        told = self._told(receiver)
        return (
            receiver.name,
            receiver.level2 & self.datagram_kinds,
            told and BELL.key(receiver),
            told and (provshow(receiver), receiver.variables["highlight"]),
        )

    def render(self, receiver: User) -> bytes:
        data = b""
        if self._told(receiver):
            said = (
                f"Challenge: {challenge_text(self.event, receiver)}",
                *computer_notice(self.event.challenger, self.event.challenger_titles),
                'You can "accept" or "decline", or propose different parameters.',
            )
            data = BELL.render(receiver) + sound(receiver, Sound.CHALLENGE)
            data += render_parts((), said, receiver)
        if DG.MATCH in receiver.level2:
            data += render_parts((match_record(self.event, receiver),), (), receiver)
        return data


class ChallengeRemovedMessage(EventMessage):
    """DG_MATCH_REMOVED (30)."""

    event: ChallengeRemoved

    def key(self, receiver: User) -> Hashable:
        return DG.MATCH_REMOVED in receiver.level2

    def datagrams(self, receiver: User) -> Sequence[Any]:
        if DG.MATCH_REMOVED not in receiver.level2:
            return ()
        e = self.event
        return (dg.MatchRemoved(e.challenger, e.receiver, e.why),)


# -- pending offers (iset pendinfo) ----------------------------------------------------------


class OfferPendingMessage(EventMessage):
    """``<pf>`` to the offer's receiver, ``<pt>`` to its sender, with ``pendinfo``."""

    event: OfferPending

    def key(self, receiver: User) -> Hashable:
        return bool(receiver.ivariables["pendinfo"]) and receiver.name == self.event.receiver

    def text(self, receiver: User) -> Sequence[str]:
        if not receiver.ivariables["pendinfo"]:
            return ()
        e = self.event
        if receiver.name == e.receiver:
            return (ivars.format_pending(ivars.PendingFrom(e.number, e.sender, e.offer, e.params)),)
        return (ivars.format_pending(ivars.PendingTo(e.number, e.receiver, e.offer, e.params)),)


class OffersGoneMessage(EventMessage):
    """``<pr>``, with ``pendinfo``."""

    event: OffersGone

    def key(self, receiver: User) -> Hashable:
        return bool(receiver.ivariables["pendinfo"])

    def text(self, receiver: User) -> Sequence[str]:
        if not receiver.ivariables["pendinfo"]:
            return ()
        return (ivars.format_pending_removed(ivars.PendingRemoved(self.event.numbers)),)
