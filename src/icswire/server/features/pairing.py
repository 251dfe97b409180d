"""Pairing players: seeks, challenges and the resumption of adjourned games.

Seeks (``seek``, ``unseek``, ``sought``, ``play``)
  A seek is an open offer to anybody: ``seek TIME INC [rated|unrated] [white|black]
  [wild N] [MIN-MAX] [manual|auto] [formula]``. Without TIME the seeker's ``time`` and ``inc``
  variables give the time control (FICS's 2 12); INC defaults to 0; a seek is rated as the
  seeker's ``rated`` variable says (unrated for a guest), for either colour, wild 0, for
  ratings 0-9999 and automatic unless it says otherwise. Seeks are numbered 1..1999
  (DG_SEEK, 50); a player keeps at most :data:`MAX_SEEKS` of them, and seeking again with
  the same terms replaces the old ad (DG_SEEK_REMOVED reason 4). One address posts at most
  :attr:`~icswire.server.core.net.limits.Limits.seeks_per_address` (10) at once, so that many
  guests from one machine cannot fill the table for everybody else. A new automatic seek
  that matches an automatic seek already posted (same time, increment, rated, wild; colours
  that fit together; each player within the other's rating range) starts the game at once
  and is never posted.

  Those who fit a seek (rated needs a registered player, and a rating in the range) are
  told of it: DG_SEEK if they have it on (the seeker too), else the FICS text
  ``fred (++++) seeking 3 0 unrated blitz ("play 12" to respond)`` (not while playing);
  ``iset seekinfo 1`` adds FICS's ``<s>`` line and its removal ``<sr>``. DG_SEEK_REMOVED
  gives the reason: 1 the seeker left, 2 the seeker is playing (every seek of both players
  goes when a game starts), 3 ``unseek``, 4 replaced. A seek is shown (in every form, and
  in ``sought``; ``sought all`` shows them all) only to those whose ``formula`` it fits;
  with the formula flag (``f``) the seeker's formula must accept them too, and ``play``
  says so when it does not (``Match request does not fit formula for ...``).

Challenges (``match``, ``accept``, ``decline``, ``withdraw``, ``pending``)
  ``match NAME [TIME INC] [rated|unrated] [white|black] [wild N]``: the challenger's
  ``time`` and ``inc`` variables when no time is given (``match NAME 5`` is 5 0), rated as
  its ``rated`` variable says unless asked (unrated when either is a guest). A receiver
  with ``ropen 0`` ignores requests rated otherwise than its ``rated``; one whose
  ``formula`` the request fails ignores it, and the challenger is shown the formula and
  the value of each sub-formula it uses (FICS's ``com_match``). ``set open 0`` declines
  and withdraws the player's challenges. The receiver gets the line XBoard's zippy mode recognises,
  ``Challenge: A (----) B (----) unrated blitz 5 0.`` (a rating is ``----`` when its
  player has none), and the challenger ``Issuing: ...``; both get DG_MATCH (29), whose
  assessment (loss, draw, win: the Glicko-2 change of the DG's receiver, 0 0 0 for
  unrated games) is there only for those with DG_MATCH_ASSESSMENT (85) on. A player has at
  most one challenge to another; a new one replaces it. Challenging a player who already
  challenged you with the same terms accepts that challenge; with other terms it is a
  counteroffer that replaces theirs. A challenge goes (DG_MATCH_REMOVED, 30, with the
  reason, to both) when it is accepted, declined, withdrawn or replaced, when either player
  leaves, and when either starts a game.

  Colours: as requested; else the player whose last game here was played with Black gets
  White (the colour they had less recently), and a coin decides when that does not.

Adjourned games (``resume``, ``match NAME``)
  ``resume [NAME]`` or ``match NAME`` without terms offers to resume an adjourned game
  with an online opponent: a challenge marked adjourned (DG_MATCH's is-adjourned 1, the
  text ending ``(adjourned).``). It starts when the opponent accepts it or types
  ``resume`` too; the game goes on from its last stored move with its stored clocks.

Hooks: :func:`player_left` (a session is going) and :func:`send_lists` (DG_SEEK /
DG_MATCH just turned on: the sought list, the pending challenges).
"""

from __future__ import annotations

import asyncio
import random
import re
from collections.abc import Container, Iterable, Iterator
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING, Any

import chess

from icswire.boards.variants import (
    BUGHOUSE,
    CHESS,
    Dialect,
    UnsupportedVariantError,
    Variant,
    variant_from_spelling,
)
from icswire.protocol import datagrams as dg
from icswire.protocol import ivars
from icswire.protocol.datagrams import DG
from icswire.protocol.level1 import CommandNumber as CN
from icswire.server.core.dispatch.hub import CommandSet, Context
from icswire.server.core.dispatch.numbers import parse_number
from icswire.server.core.model.fitting import Proposal, explain, fits
from icswire.server.core.model.names import name_key
from icswire.server.core.model.offers import Offer, Offers
from icswire.server.core.model.partners import partner_of
from icswire.server.core.model.ratings import update
from icswire.server.core.model.tables import Table, Terms
from icswire.server.core.model.variables import SUBFORMULAS
from icswire.server.core.render.alerts import BELL, name_for
from icswire.server.core.render.batch import (
    Batch,
    Datagram,
    Message,
    PerReceiver,
    TextOrDatagram,
    lines,
)
from icswire.server.core.render.boards import BLACK, WHITE
from icswire.server.core.storage.records import GameRecord
from icswire.server.core.storage.store import StoreUnavailable

if TYPE_CHECKING:
    from icswire.server.core.dispatch.hub import Core
    from icswire.server.core.net.session import Session

__all__ = [
    "MAX_SEEKS",
    "Challenge",
    "Pairing",
    "Seek",
    "player_left",
    "send_lists",
]

#: Seek numbers run from 1 to this (DG_SEEK: "the maximum seeking index is currently 1999").
MAX_SEEK_INDEX = 1999
#: How many seeks one player may have posted at once (FICS's limit).
MAX_SEEKS = 3
MAX_MINUTES = 999
MAX_INCREMENT = 999
#: DG_SEEK_REMOVED reasons.
SEEKER_LEFT, SEEKER_PLAYING, SEEK_REMOVED, SEEK_REPLACED = 1, 2, 3, 4
GUESTS_UNRATED = "Unregistered players cannot play rated games."
_RANGE = re.compile(r"([0-9]{0,4})-([0-9]{0,4})")
COMMANDS = CommandSet()
command = COMMANDS.command
#: Words that name a wild, whose refusal says why rather than "Unknown option".
_WILDISH = re.compile(r"w(?:ild)?/?[0-9]+a?|wild/?fr|kriegspiel|shatranj")


# -- the state -------------------------------------------------------------------------------


@dataclass(eq=False)
class Seek:
    """One seek ad."""

    index: int
    seeker: Session
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

    challenger: Session
    receiver: Session
    terms: Terms
    color: bool | None  # the challenger's request; None either
    adjourned: GameRecord | None = None
    assessment: dict[Session, tuple[int, int, int]] = field(default_factory=dict)
    offer: Offer | None = None  # its number among the pending offers (iset pendinfo)

    def involves(self, session: Session) -> bool:
        return session is self.challenger or session is self.receiver

    def other(self, session: Session) -> Session:
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
    starting: set[Session] = field(default_factory=set)  # a game is being created for them
    last_color: dict[str, bool] = field(default_factory=dict)  # by name key
    #: Each player's last game here, by name key: the opponent's name and the terms
    #: (what ``rematch`` offers again, colours reversed).
    last_game: dict[str, tuple[str, Terms]] = field(default_factory=dict)
    offers: Offers = field(default_factory=Offers)  # the server's, given at install

    def seeks_of(self, session: Session) -> list[Seek]:
        return [s for s in self.seeks.values() if s.seeker is session]

    def seeks_from(self, host: str) -> list[Seek]:
        """The seeks posted from one address (Limits.seeks_per_address)."""
        return [s for s in self.seeks.values() if s.seeker.host == host]

    def free_index(self, elsewhere: Container[int] = ()) -> int | None:
        """The lowest index no seek has, here or (``elsewhere``) on another node."""
        for index in range(1, MAX_SEEK_INDEX + 1):
            if index not in self.seeks and index not in elsewhere:
                return index
        return None

    def challenges_of(self, session: Session) -> list[Challenge]:
        return [c for c in self.challenges if c.involves(session)]

    def offer(self, challenger: Session, receiver: Session) -> Challenge | None:
        for challenge in self.challenges:
            if challenge.challenger is challenger and challenge.receiver is receiver:
                return challenge
        return None


# -- what players are shown ----------------------------------------------------------------


def _rating(player: Session, kind: str) -> tuple[int, int]:
    """(rating, annotation) of ``player`` for ``kind``; (0, 0) for a guest or no games."""
    if not player.registered:
        return 0, 0
    return player.ratings.get(kind, (0, 0))


def _provshow(reader: Session | None) -> bool:
    """Does ``reader`` see provisional ratings marked (``set provshow``)?"""
    return reader is not None and bool(reader.variables["provshow"])


def _match_rating(player: Session, kind: str, provshow: bool = False) -> str:
    """A rating in match lines: ``----`` when there is none; a provisional one followed
    by ``P`` with ``provshow``."""
    rating, note = _rating(player, kind)
    if not rating:
        return "----"
    return f"{rating}P" if provshow and note == 1 else str(rating)


def _seek_rating(player: Session, kind: str, provshow: bool = False) -> str:
    """FICS's way in seek lines: ``++++`` a guest, ``----`` registered without games."""
    if not player.registered:
        return "++++"
    return _match_rating(player, kind, provshow)


def same_player(one: Session, other: Session) -> bool:
    """The same account (or guest name) on both sides: players are compared by name, not
    by session, so nobody is ever paired with himself."""
    return name_key(one.name) == name_key(other.name)


def _playing(state: Pairing, core: Core, session: Session) -> bool:
    return session in core.play.by_player or session in state.starting


def _bughouse_problem(core: Core, terms: Terms, me: Session, other: Session) -> str | None:
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
    if _playing(state, core, mine):
        return f"Your partner, {mine.name}, is playing a game."
    if _playing(state, core, theirs):
        return f"{other.name}'s partner, {theirs.name}, is playing a game."
    if terms.rated and not (mine.registered and theirs.registered):
        return "All four players must be registered for a rated bughouse game."
    return None


def _color_word(color: bool | None) -> str:
    return "" if color is None else (" [white]" if color == WHITE else " [black]")


def challenge_text(challenge: Challenge, reader: Session | None = None) -> str:
    """``A (----) B (----) unrated blitz 5 0.``: the body of Challenge/Issuing lines; the
    other player's name highlighted for ``reader`` (``set highlight``)."""
    c, r, t = challenge.challenger, challenge.receiver, challenge.terms
    kind = t.rating_type
    adjourned = " (adjourned)" if challenge.adjourned is not None else ""
    prov = _provshow(reader)
    c_name = name_for(reader, c.name) if reader is r else c.name
    r_name = name_for(reader, r.name) if reader is c else r.name
    return (
        f"{c_name} ({_match_rating(c, kind, prov)}){_color_word(challenge.color)}"
        f" {r_name} ({_match_rating(r, kind, prov)}) {t.words} {t.initial} {t.increment}"
        f"{adjourned}."
    )


def _match_record(challenge: Challenge, receiver: Session) -> dg.Match:
    """DG_MATCH (29) as ``receiver`` gets it (the assessment only with DG 85 on)."""
    c, r, t = challenge.challenger, challenge.receiver, challenge.terms
    color = -1 if challenge.color is None else int(challenge.color == WHITE)
    assess: tuple[int | None, int | None, int | None] = (None, None, None)
    if DG.MATCH_ASSESSMENT in receiver.level2:
        assess = challenge.assessment.get(receiver, (0, 0, 0))
    return dg.Match(
        c.name, *_rating(c, t.rating_type), c.titles,
        r.name, *_rating(r, t.rating_type), r.titles,
        t.wild, t.rating_type, t.rated, challenge.adjourned is not None,
        t.initial, t.increment, t.initial, t.increment, color,
        *assess, "",
    )  # fmt: skip


def _match_message(challenge: Challenge) -> PerReceiver:
    return PerReceiver(DG.MATCH, lambda receiver: _match_record(challenge, receiver))


def _seek_record(seek: Seek) -> dg.Seek:
    t = seek.terms
    rating, note = _rating(seek.seeker, t.rating_type)
    color = -1 if seek.color is None else int(seek.color == WHITE)
    return dg.Seek(
        seek.index, seek.seeker.name, seek.seeker.titles, rating, note, t.wild,
        t.rating_type, t.initial, t.increment, t.rated, color, seek.low, seek.high,
        not seek.manual, seek.formula, "",
    )  # fmt: skip


def _seek_words(seek: Seek) -> str:
    """``3 0 unrated blitz [white] 1200-1600 m f``: a seek's terms as FICS prints them."""
    t = seek.terms
    parts = [f"{t.initial} {t.increment} {t.words}{_color_word(seek.color)}"]
    if (seek.low, seek.high) != (0, 9999):
        parts.append(f"{seek.low}-{seek.high}")
    if seek.manual:
        parts.append("m")
    if seek.formula:
        parts.append("f")
    return " ".join(parts)


def _seek_announcement(seek: Seek, provshow: bool = False) -> str:
    player = seek.seeker
    rating = _seek_rating(player, seek.terms.rating_type, provshow)
    return f'{player.name} ({rating}) seeking {_seek_words(seek)} ("play {seek.index}" to respond)'


def _seekinfo_record(seek: Seek, own: bool = False) -> ivars.Seek:
    """FICS's ``<s>`` line (``iset seekinfo 1``; ``<sn>`` for the seeker's own seek with
    ``iset showownseek 1``): titles as two hex digits (1 unregistered), the rating with its
    provshow character (`` `` established, ``P`` provisional), FICS's type name."""
    t, player = seek.terms, seek.seeker
    rating, note = _rating(player, t.rating_type)
    color = "?" if seek.color is None else ("W" if seek.color == WHITE else "B")
    return ivars.Seek(
        seek.index, player.name, f"{0 if player.registered else 1:02x}", rating,
        " " if note == 2 else "P", t.initial, t.increment, t.rated, t.fics_type, color,
        seek.low, seek.high, not seek.manual, seek.formula, own=own,
    )  # fmt: skip


def _seekinfo_line(seek: Seek, own: bool = False) -> str:
    return ivars.format_seek(_seekinfo_record(seek, own))


def _sees_own(session: Session) -> bool:
    own = session.ivariables["showownseek"] or session.variables["showownseek"]
    return bool(session.ivariables["seekinfo"] and own)


def _sought_row(seek: Seek, reader: Session) -> str:
    t = seek.terms
    rating = _seek_rating(seek.seeker, t.rating_type, _provshow(reader))
    color = {None: "", WHITE: "[white]", BLACK: "[black]"}[seek.color]
    flags = ("m" if seek.manual else "") + ("f" if seek.formula else "")
    return (
        f"{seek.index:3} {rating:>4} {seek.seeker.name:<17} {t.initial:3} {t.increment:3}"
        f" {'rated' if t.rated else 'unrated':<7} {t.rating_type.lower():<10} {color:<7}"
        f" {seek.low:4}-{seek.high:<4} {flags}"
    ).rstrip()


def _icc_sought_row(seek: Seek) -> str:
    """A line of ``sought`` for ICC sessions: as in ICC's other lists, no rating is shown
    for none, ICC's type names (``bullet``) and a wild game's number (``wild 22``)."""
    t = seek.terms
    rating = _rating(seek.seeker, t.rating_type)[0] if seek.seeker.registered else 0
    kind = f"wild {t.wild}" if t.wild else t.rating_type.lower()
    color = {None: "", WHITE: "[white]", BLACK: "[black]"}[seek.color]
    flags = ("m" if seek.manual else "") + ("f" if seek.formula else "")
    return (
        f"{seek.index:3} {rating or '':>4} {seek.seeker.name:<17} {t.initial:3} {t.increment:3}"
        f" {'rated' if t.rated else 'unrated':<7} {kind:<10} {color:<7}"
        f" {seek.low:4}-{seek.high:<4} {flags}"
    ).rstrip()


def _fits(seek: Seek, player: Session) -> bool:
    """May ``player`` answer ``seek``: rated needs registration, and the rating range."""
    if seek.terms.rated and not player.registered:
        return False
    return seek.low <= _rating(player, seek.terms.rating_type)[0] <= seek.high


def _visible(seek: Seek, viewer: Session) -> bool:
    """Is ``seek`` shown to ``viewer``: it fits the viewer's formula (help ``formula``),
    and, if it has the formula flag, the viewer fits the seeker's formula too."""
    color = None if seek.color is None else not seek.color
    if not fits(Proposal(viewer, seek.seeker, seek.terms, color)):
        return False
    return not seek.formula or fits(Proposal(seek.seeker, viewer, seek.terms, seek.color))


def _pairs_with(old: Seek, new: Seek) -> bool:
    """Do two automatic seeks of two players make a game?"""
    return (
        not same_player(old.seeker, new.seeker)
        and old.terms == new.terms
        and not old.manual
        and not new.manual
        and not (old.color is not None and old.color == new.color)
        and _fits(old, new.seeker)
        and _fits(new, old.seeker)
        and _visible(old, new.seeker)
        and _visible(new, old.seeker)
    )


# -- removing --------------------------------------------------------------------------------


def _remove_seek(core: Core, state: Pairing, seek: Seek, reason: int, batch: Batch) -> None:
    _remove_seeks(core, state, [seek], reason, batch)


def _remove_seeks(
    core: Core, state: Pairing, seeks: Iterable[Seek], reason: int, batch: Batch
) -> None:
    """Seeks are gone: DG_SEEK_REMOVED each, and one ``<sr> N...`` line to those with
    ``iset seekinfo`` or ``iset seekremove`` (FICS help ``iv_seekremove``)."""
    gone = [seek for seek in seeks if state.seeks.get(seek.index) is seek]
    if not gone:
        return
    for seek in gone:
        del state.seeks[seek.index]
        core.seek_claims.release(seek.index)
    numbers = tuple(seek.index for seek in gone)
    info = lines(ivars.format_seeks_removed(ivars.SeeksRemoved(numbers)))
    datagrams = [Datagram(dg.SeekRemoved(seek.index, reason)) for seek in gone]
    seeker = gone[0].seeker
    for other in core.world.online.values():
        if other is seeker and reason == SEEKER_LEFT:
            continue
        if DG.SEEK_REMOVED in other.level2:
            for datagram in datagrams:
                batch.add(other, datagram)
        told = other.ivariables["seekremove"] or (
            other.ivariables["seekinfo"] and (other is not seeker or _sees_own(other))
        )
        if told:
            batch.add(other, info)


def _remove_challenge(
    state: Pairing, challenge: Challenge, why: str, batch: Batch, to: Iterable[Session] = ()
) -> None:
    """Take a challenge away: DG_MATCH_REMOVED with ``why`` to both (or to ``to``), and
    ``<pr>`` for its offer number."""
    if challenge not in state.challenges:
        return
    state.challenges.remove(challenge)
    state.offers.close(challenge.offer, batch)
    record = dg.MatchRemoved(challenge.challenger.name, challenge.receiver.name, why)
    receivers = list(to) or [challenge.challenger, challenge.receiver]
    batch.add_all(receivers, Datagram(record))


def players_busy(core: Core, players: Iterable[Session], batch: Batch) -> None:
    """A game is starting for ``players``: their seeks go (reason 2) and so do the
    challenges to and from them."""
    state = core.state(Pairing)
    players = list(players)
    for player in players:
        _remove_seeks(core, state, state.seeks_of(player), SEEKER_PLAYING, batch)
    for player in players:
        for challenge in state.challenges_of(player):
            other = challenge.other(player)
            if other in players:
                why = f"{player.name} and {other.name} started a game."
            else:
                why = f"{player.name} started another game."
                batch.add(other, lines(f"Challenge {_between(challenge)} removed: {why}"))
            _remove_challenge(state, challenge, why, batch)


def _between(challenge: Challenge) -> str:
    return f"from {challenge.challenger.name} to {challenge.receiver.name}"


def player_left(core: Core, session: Session) -> None:
    """``session`` is leaving: its seeks (DG_SEEK_REMOVED reason 1) and challenges go.

    It runs while the session is still in the world (before ``world.depart``), also for
    a player who was in a game; not at shutdown.
    """
    if not session.logged_in or core.stopping:
        return
    state = core.state(Pairing)
    state.starting.discard(session)
    if not state.seeks_of(session) and not state.challenges_of(session):
        return
    batch = Batch(CN.SCN_LOGOUT, None, issuer_name=session.name)
    _remove_seeks(core, state, state.seeks_of(session), SEEKER_LEFT, batch)
    for challenge in state.challenges_of(session):
        other = challenge.other(session)
        if session is challenge.challenger:
            said = f"{session.name}, who was challenging you, has departed."
        else:
            said = f"{session.name}, whom you were challenging, has departed."
        batch.add(other, lines(said))
        _remove_challenge(state, challenge, f"{session.name} left.", batch, to=[other])
    batch.flush()


def send_lists(core: Core, session: Session, number: int, batch: Batch) -> None:
    """What turning on DG_SEEK (the sought list, as DG_SEEKs) or DG_MATCH (one DG_MATCH
    per pending challenge of ``session``) sends. Call it where ``set-2 N 1`` and the login
    settings send the other lists (``World.send_lists``)."""
    state = core.state(Pairing)
    if number == DG.SEEK:
        for index in sorted(state.seeks):
            seek = state.seeks[index]
            if seek.seeker is session or _visible(seek, session):
                batch.add(session, Datagram(_seek_record(seek)))
    elif number == DG.MATCH:
        for challenge in state.challenges_of(session):
            batch.add(session, _match_message(challenge))


# -- reading terms ---------------------------------------------------------------------------


@dataclass
class _Asked:
    """Terms as typed, before they are checked."""

    times: list[int] = field(default_factory=list)
    rated: bool | None = None  # None: the player's ``rated`` variable
    color: bool | None = None
    variant: Variant = CHESS
    low: int = 0
    high: int = 9999
    manual: bool = False
    formula: bool = False


def _parse(words: list[str], seek: bool, dialect: Dialect = "fics") -> _Asked | str:
    """The options of ``seek``/``match``; a message saying what is wrong otherwise.

    Variants in FICS's spellings (``crazyhouse``, ``suicide``, ``losers``, ``atomic``,
    ``bughouse``, ``wild fr``, ``wild 8a``, ``w5``) and ICC's (``w23``, ``wild 17``,
    ``giveaway``); ``dialect`` settles ``wild 0`` and ``atomic``
    (:func:`~icswire.boards.variants.variant_from_spelling`)."""
    asked = _Asked()
    tokens: Iterator[str] = iter(words)
    for token in tokens:
        word = token.lower()
        if (value := parse_number(word)) is not None:
            asked.times.append(value)
        elif word in ("r", "rated"):
            asked.rated = True
        elif word in ("u", "unrated"):
            asked.rated = False
        elif word in ("w", "white"):
            asked.color = WHITE
        elif word in ("b", "black"):
            asked.color = BLACK
        elif word == "wild":
            number = next(tokens, "").lower()
            if not number:
                return "Usage: wild <number>"
            named = _variant(f"wild {number}", dialect)
            if isinstance(named, str):
                return named
            asked.variant = named
        elif seek and (bounds := _RANGE.fullmatch(word)):
            asked.low = int(bounds[1] or 0)
            asked.high = int(bounds[2] or 9999)
        elif seek and word in ("m", "manual"):
            asked.manual = True
        elif seek and word in ("a", "auto"):
            asked.manual = False
        elif seek and word in ("f", "formula"):
            asked.formula = True
        elif isinstance(variant := _variant(word, dialect), Variant):
            asked.variant = variant
        elif _WILDISH.fullmatch(word):
            return variant
        else:
            return f'Unknown option "{token}".'
    if len(asked.times) > 2:
        return "Give the time control as TIME INC."
    return asked


def _variant(words: str, dialect: Dialect) -> Variant | str:
    """The variant ``words`` name, or why it is not played here."""
    try:
        return variant_from_spelling(words, dialect)
    except UnsupportedVariantError as exc:
        text = str(exc)
        return f"{text[:1].upper()}{text[1:]}."


def _dialect(session: Session) -> Dialect:
    return "icc" if session.talks_icc else "fics"


def _terms(asked: _Asked, player: Session, other: Session | None = None) -> Terms | str:
    """The game's terms, or why they cannot be played here. Without a time the player's
    ``time`` and ``inc`` variables give it (FICS: ``match NAME 5`` is 5 0); without
    ``rated`` or ``unrated`` its ``rated`` variable decides, unrated where a player is a
    guest."""
    times = asked.times or [int(player.variables["time"]), int(player.variables["inc"])]
    initial, increment = times[0], times[1] if len(times) > 1 else 0
    if not 1 <= initial <= MAX_MINUTES:
        return f"The time must be from 1 to {MAX_MINUTES} minutes."
    if increment > MAX_INCREMENT:
        return f"The increment must be from 0 to {MAX_INCREMENT} seconds."
    variant = asked.variant
    if asked.rated and not variant.rated:
        return f"{variant.title} games are never rated."
    if asked.low > asked.high:
        return "The rating range must go from low to high."
    rated = asked.rated
    if rated is None:  # the player's ``rated`` variable, where the game can be rated
        guests = not player.registered or (other is not None and not other.registered)
        rated = bool(player.variables["rated"]) and not guests and variant.rated
    return Terms.of(variant, rated, initial, increment)


# -- starting games --------------------------------------------------------------------------


def _colors(
    state: Pairing,
    first: Session,
    first_wants: bool | None,
    second: Session,
    second_wants: bool | None = None,
) -> tuple[Session, Session]:
    """(white, black): as either player asked, else whoever had White less recently."""
    if first_wants is None and second_wants is not None:
        first_wants = not second_wants
    if first_wants is not None:
        return (first, second) if first_wants == WHITE else (second, first)

    def white_claim(player: Session) -> int:  # 1: played Black last, 0: unknown, -1: White
        last = state.last_color.get(name_key(player.name))
        return 0 if last is None else (1 if last == BLACK else -1)

    claims = white_claim(first), white_claim(second)
    first_white = random.random() < 0.5 if claims[0] == claims[1] else claims[0] > claims[1]  # noqa: S311  (a fair coin, not a secret)
    return (first, second) if first_white else (second, first)


async def _start(
    core: Core,
    batch: Batch,
    white: Session,
    black: Session,
    terms: Terms,
    resumed: GameRecord | None = None,
) -> Table | None:
    """Clear both players' seeks and challenges, then start the game (None when it could
    not be stored: then it did not start, and the seeks and challenges stay gone)."""
    if same_player(white, black):
        raise ValueError(f"{white.name} cannot play himself")
    state = core.state(Pairing)
    if terms.game_variant is BUGHOUSE:
        return await _start_bughouse(core, batch, white, black, terms)
    players_busy(core, (white, black), batch)
    state.starting |= {white, black}
    start: chess.Board | None = None
    if resumed is not None and resumed.start_fen:
        start = resumed.game_variant.new_board(fen=resumed.start_fen)
    elif resumed is None:
        start = terms.game_variant.new_board(random.Random())  # noqa: S311  (a setup, not a secret)
    try:
        game = await core.play.start(white, black, terms, batch, start=start, resumed=resumed)
    except StoreUnavailable:  # the game could not be stored: it did not start, both were told
        return None
    finally:
        state.starting -= {white, black}
    state.last_color[name_key(white.name)] = WHITE
    state.last_color[name_key(black.name)] = BLACK
    state.last_game[name_key(white.name)] = (black.name, terms)
    state.last_game[name_key(black.name)] = (white.name, terms)
    for player in (white, black):  # left while the game was being made
        if not player.logged_in and core.play.by_player.get(player) is game:
            core.play.player_gone(player, batch)
    return game


async def _start_bughouse(
    core: Core, batch: Batch, white: Session, black: Session, terms: Terms
) -> Table | None:
    """Start a bughouse game: ``white`` vs. ``black`` on one board, ``black``'s partner
    (White) vs. ``white``'s partner (Black) on the other (lasker's matchproc.c gives the
    partners the other colours); the first board, or None when it did not start."""
    problem = _bughouse_problem(core, terms, white, black)
    if problem is not None:  # a partnership ended or a partner began a game meanwhile
        batch.add_all((white, black), lines(f"The bughouse game cannot start: {problem}"))
        return None
    state = core.state(Pairing)
    white_partner, black_partner = partner_of(core, white), partner_of(core, black)
    if white_partner is None:
        raise RuntimeError("white_partner is None")
    if black_partner is None:
        raise RuntimeError("black_partner is None")
    four = (white, black, black_partner, white_partner)
    players_busy(core, four, batch)
    state.starting |= set(four)
    try:
        first, second = await core.play.start_bughouse(
            (white, black), (black_partner, white_partner), terms, batch
        )
    except StoreUnavailable:
        return None
    finally:
        state.starting -= set(four)
    for player, other, color in zip(
        four, (black, white, white_partner, black_partner), (WHITE, BLACK) * 2, strict=True
    ):
        state.last_color[name_key(player.name)] = color
        state.last_game[name_key(player.name)] = (other.name, terms)
    for player, game in zip(four, (first, first, second, second), strict=True):
        if not player.logged_in and core.play.by_player.get(player) is game:
            core.play.player_gone(player, batch)
    return first


async def _assess(core: Core, challenge: Challenge) -> None:
    """Glicko-2 changes (loss, draw, win) for each player, for DG_MATCH's assessment."""
    players = (challenge.challenger, challenge.receiver)
    if not any(DG.MATCH_ASSESSMENT in p.level2 for p in players):
        return
    t = challenge.terms
    if not (t.rated and all(p.registered for p in players)):
        return
    changes = await _changes(core, players, t.rating_type)
    challenge.assessment.update(zip(players, changes, strict=True))


async def _changes(
    core: Core, players: tuple[Session, Session], kind: str
) -> list[tuple[int, int, int]]:
    """Each player's Glicko-2 change for a loss, a draw and a win against the other."""
    store = core.store
    records = [await asyncio.to_thread(store.rating, p.name, kind) for p in players]
    found = []
    for index in (0, 1):
        mine, theirs = records[index].glicko, records[1 - index].glicko
        loss, draw, win = (
            round(update(mine, [(theirs, s)]).rating - mine.rating) for s in (0, 0.5, 1)
        )
        found.append((loss, draw, win))
    return found


# -- seeks -----------------------------------------------------------------------------------


@command("seek", CN.CN_SEEKING, "seek TIME INC [rated|unrated] [white|black] [wild N] [MIN-MAX]")
async def seek_(ctx: Context, args: str) -> None:
    core, session = ctx.core, ctx.session
    state = core.state(Pairing)
    asked = _parse(args.split(), seek=True, dialect=_dialect(session))
    if isinstance(asked, str):
        ctx.reply(asked)
        return
    terms = _terms(asked, session)
    if isinstance(terms, str):
        ctx.reply(terms)
        return
    if terms.rated and not session.registered:
        ctx.reply(GUESTS_UNRATED)
        return
    if _playing(state, core, session):
        ctx.reply("You cannot seek while you are playing a game.")
        return
    mine = partner_of(core, session)
    if terms.game_variant is BUGHOUSE and (mine is None or _playing(state, core, mine)):
        ctx.reply("You need a partner who is not playing to seek bughouse.")
        return
    if ctx.too_fast("seek"):
        return
    new = Seek(0, session, terms, asked.color, asked.low, asked.high, asked.manual, asked.formula)
    replaced = [s for s in state.seeks_of(session) if s.same_ad(new)]
    if not replaced and len(state.seeks_of(session)) >= MAX_SEEKS:
        ctx.reply(f"You can only have {MAX_SEEKS} active seeks.")
        return
    for old in sorted(state.seeks.values(), key=lambda s: s.index):
        if (
            _pairs_with(old, new)
            and not _playing(state, core, old.seeker)
            and _bughouse_problem(core, terms, session, old.seeker) is None
        ):
            # FICS's words, which PyChess reads (then the Creating lines)
            ctx.reply(f"Your seek matches one already posted by {old.seeker.name}.")
            ctx.batch.add(
                old.seeker,
                lines(f"Your seek {old.index} matches one posted by {session.name}."),
            )
            white, black = _colors(state, old.seeker, old.color, session, new.color)
            await _start(core, ctx.batch, white, black, terms)
            return
    cap = core.limits.seeks_per_address
    if cap and len(state.seeks_from(session.host)) - len(replaced) >= cap:
        ctx.reply(f"Sorry, there are already {cap} seeks from your address; try again later.")
        return
    for old in replaced:
        _remove_seek(core, state, old, SEEK_REPLACED, ctx.batch)
    claims = core.seek_claims  # a failed claim counts the index as taken elsewhere
    while (index := state.free_index(claims.elsewhere)) is not None:
        if await claims.claim(index):
            break
    if index is None:
        ctx.reply("Sorry, there are too many seeks posted; try again later.")
        return
    new.index = index
    state.seeks[index] = new
    ctx.reply(
        f"Your seek has been {'updated' if replaced else 'posted'} with index {index}.",
    )
    seen = _announce_seek(core, new, ctx.batch)
    ctx.reply(f"({seen} player(s) saw the seek.)")


def _announce_seek(core: Core, seek: Seek, batch: Batch) -> int:
    """DG_SEEK or the text to those who fit the seek and set ``seek``; ``<s>`` to those
    with ``iset seekinfo`` (``<sn>`` to the seeker with ``iset showownseek``); how many
    saw it."""
    record = _seek_record(seek)
    told = TextOrDatagram((_seek_announcement(seek),), DG.SEEK, record)
    provisional = TextOrDatagram((_seek_announcement(seek, True),), DG.SEEK, record)
    own = Datagram(record)
    info = lines(_seekinfo_line(seek))
    seen = 0
    playing = core.play.by_player
    for other in core.world.online.values():
        mine = other is seek.seeker
        if mine:
            batch.add(other, own)
            if _sees_own(other):
                batch.add(other, lines(_seekinfo_line(seek, own=True)))
            continue
        if not _visible(seek, other):
            continue
        if _fits(seek, other) and (
            DG.SEEK in other.level2 or (other not in playing and other.variables["seek"])
        ):
            batch.add(other, provisional if other.variables["provshow"] else told)
            seen += 1
        if other.ivariables["seekinfo"]:
            batch.add(other, info)
    return seen


def seek_list(core: Core, session: Session) -> list[Message]:
    """``iset seekinfo 1``: ``<sc>``, then an ``<s>`` line for every seek (FICS help
    ``iv_seekinfo``; the seeker's own as ``<sn>`` with ``iset showownseek``)."""
    state = core.state(Pairing)
    shown: list[Message] = [lines(ivars.format_seeks_cleared(ivars.SeeksCleared()))]
    for index in sorted(state.seeks):
        seek = state.seeks[index]
        if seek.seeker is not session:
            if _visible(seek, session):
                shown.append(lines(_seekinfo_line(seek)))
        elif _sees_own(session):
            shown.append(lines(_seekinfo_line(seek, own=True)))
    return shown


def closed(core: Core, session: Session, batch: Batch) -> None:
    """``set open 0``: FICS declines the challenges to the player and withdraws its own."""
    state = core.state(Pairing)
    for challenge in state.challenges_of(session):
        if challenge.adjourned is not None:
            continue
        other = challenge.other(session)
        mine = challenge.challenger is session
        verb = "withdraws" if mine else "declines"
        batch.add(other, lines(f"{session.name} {verb} the match offer."))
        why = f"{session.name} {'withdrew' if mine else 'declined'} the challenge."
        _remove_challenge(state, challenge, why, batch)


def variable_set(core: Core, session: Session, name: str, value: Any, batch: Batch) -> None:
    """``iset seekinfo 1`` brings the seeks, ``iset pendinfo 1`` the pending offers."""
    if not value:
        return
    if name == "seekinfo":
        for message in seek_list(core, session):
            batch.add(session, message)
    elif name == "pendinfo":
        core.state(Pairing).offers.send_all(session, batch)


@command("unseek", CN.CN_UNSEEKING, "unseek [number]")
async def unseek(ctx: Context, args: str) -> None:
    state = ctx.core.state(Pairing)
    mine = state.seeks_of(ctx.session)
    word = args.strip()
    if word:
        index = parse_number(word)
        if index is None or index not in {s.index for s in mine}:
            ctx.reply(f"You have no seek number {word}.")
            return
        seek = state.seeks[index]
        _remove_seeks(ctx.core, state, [seek], SEEK_REMOVED, ctx.batch)
        ctx.reply(f"Your seek {seek.index} has been removed.")
        return
    if not mine:
        ctx.reply("You have no active seeks.")
        return
    # FICS: the <sr> line, then the text PyChess reads after it
    _remove_seeks(ctx.core, state, mine, SEEK_REMOVED, ctx.batch)
    ctx.reply("Your seeks have been removed.")


@command("sought", CN.CN_SOUGHT, "sought [all]")
async def sought(ctx: Context, args: str) -> None:
    state = ctx.core.state(Pairing)
    everything = args.strip().lower() == "all"
    shown = [
        state.seeks[i]
        for i in sorted(state.seeks)
        if everything
        or state.seeks[i].seeker is ctx.session
        or (_fits(state.seeks[i], ctx.session) and _visible(state.seeks[i], ctx.session))
    ]
    if ctx.session.talks_icc:
        count = f"{len(shown)} ad{'' if len(shown) == 1 else 's'} displayed."
        ctx.reply(*(_icc_sought_row(s) for s in shown), count)
        return
    ctx.reply(*(_sought_row(s, ctx.session) for s in shown), f"{len(shown)} ad(s) displayed.")


@command("play", CN.CN_PLAY, "play <number|name>")
async def play(ctx: Context, args: str) -> None:
    core, session = ctx.core, ctx.session
    state = core.state(Pairing)
    word = args.strip()
    if not word:
        ctx.reply("Usage: play <number|name>")
        return
    index = parse_number(word)
    if index is not None:
        seek = state.seeks.get(index)
    else:
        seeker = ctx.world.find(word)
        found = state.seeks_of(seeker) if seeker is not None else []
        seek = min(found, key=lambda s: s.index) if found else None
    if seek is None:
        ctx.reply("That seek is not available.")
        return
    if same_player(seek.seeker, session):
        ctx.reply("You cannot respond to your own seek.")
        return
    if _playing(state, core, session):
        ctx.reply("You are playing a game.")
        return
    if seek.terms.rated and not session.registered:
        ctx.reply(GUESTS_UNRATED)
        return
    if not _fits(seek, session):
        ctx.reply("You do not fit the rating range of that seek.")
        return
    problem = _bughouse_problem(core, seek.terms, session, seek.seeker)
    if problem is not None:
        ctx.reply(problem)
        return
    proposal = Proposal(seek.seeker, session, seek.terms, seek.color)
    if seek.formula and not fits(proposal):
        seeker = seek.seeker
        ctx.reply(
            f"Match request does not fit formula for {seeker.name}:",
            f"{seeker.name}'s formula: {seeker.variables['formula']}",
            *explain(proposal),
        )
        return
    if seek.manual:
        ctx.reply("Issuing match request since the seek was set to manual.")
        wants = None if seek.color is None else not seek.color
        await _challenge(ctx, seek.seeker, seek.terms, wants)
        return
    ctx.reply(f"You accept the seek of {seek.seeker.name}.")
    ctx.batch.add(seek.seeker, lines(f"{session.name} accepts your seek {seek.index}."))
    white, black = _colors(state, seek.seeker, seek.color, session)
    await _start(core, ctx.batch, white, black, seek.terms)


# -- challenges ------------------------------------------------------------------------------


@command("match", CN.CN_MATCH, "match NAME [TIME INC] [rated|unrated] [white|black] [wild N]")
async def match(ctx: Context, args: str) -> None:
    session = ctx.session
    words = args.split()
    if not words:
        ctx.reply("Usage: match NAME [TIME INC] [rated|unrated] [white|black] [wild N]")
        return
    receiver = _opponent(ctx, words[0])
    if receiver is None:
        return
    if len(words) == 1:
        record = await _adjourned_with(ctx, receiver)
        if record is not None:
            await _offer_resume(ctx, receiver, record)
            return
    asked = _parse(words[1:], seek=False, dialect=_dialect(ctx.session))
    if isinstance(asked, str):
        ctx.reply(asked)
        return
    terms = _terms(asked, session, receiver)
    if isinstance(terms, str):
        ctx.reply(terms)
        return
    if terms.rated and not session.registered:
        ctx.reply(GUESTS_UNRATED)
        return
    if terms.rated and not receiver.registered:
        ctx.reply(f"{receiver.name} is unregistered and cannot play rated games.")
        return
    problem = _bughouse_problem(ctx.core, terms, session, receiver)
    if problem is not None:
        ctx.reply(problem)
        return
    if not await _receiver_takes(ctx, receiver, terms, asked.color):
        return
    await _challenge(ctx, receiver, terms, asked.color)


async def _receiver_takes(
    ctx: Context, receiver: Session, terms: Terms, color: bool | None
) -> bool:
    """FICS's ``com_match`` checks of the receiver's ``ropen`` and ``formula``; False
    after telling both why the request is ignored."""
    session, batch = ctx.session, ctx.batch
    theirs = ctx.core.state(Pairing).offer(receiver, session)
    wanted = bool(receiver.variables["rated"])
    if theirs is None and not receiver.variables["ropen"] and terms.rated != wanted:
        ctx.reply(f"{receiver.name} only wants to play {'rated' if wanted else 'unrated'} games.")
        ignoring = name_for(receiver, "Ignoring")
        said = f"{ignoring} {'rated' if terms.rated else 'unrated'} match request from"
        batch.add(receiver, lines(f"{said} {session.name}."))
        return False
    mine = None if color is None else not color
    offer = Proposal(
        receiver, session, terms, mine, await _assessment(ctx.core, receiver, session, terms)
    )
    if fits(offer):
        return True
    ctx.reply(
        f"Match request does not fit formula for {receiver.name}:",
        f"{receiver.name}'s formula: {receiver.variables['formula']}",
        *explain(offer),
    )
    kind = terms.rating_type
    batch.add(receiver, BELL)
    batch.add(
        receiver,
        lines(
            f"{name_for(receiver, 'Ignoring')} (formula): {session.name}"
            f" ({_match_rating(session, kind)}) {receiver.name} ({_match_rating(receiver, kind)})"
            f" {terms.words} {terms.initial} {terms.increment}."
        ),
    )
    return False


async def _assessment(
    core: Core, owner: Session, other: Session, terms: Terms
) -> tuple[int, int, int]:
    """``owner``'s Glicko-2 change for a loss, draw and win of a rated game with
    ``other`` (the formula's assessloss, assessdraw, assesswin), read only when its
    formula names them."""
    texts = [str(owner.variables[n]) for n in ("formula", *SUBFORMULAS)]
    if not (terms.rated and owner.registered and other.registered):
        return (0, 0, 0)
    if not any("assess" in text.lower() for text in texts):
        return (0, 0, 0)
    return (await _changes(core, (owner, other), terms.rating_type))[0]


def _opponent(ctx: Context, name: str) -> Session | None:
    """The online player ``name`` one may challenge, or None (after saying why)."""
    core, session = ctx.core, ctx.session
    state = core.state(Pairing)
    receiver: Session | None = ctx.world.find(name)
    if receiver is None:
        ctx.reply(f'No user named "{name}" is logged in.')
        return None
    if same_player(receiver, session):
        ctx.reply("You can't match yourself.")
        return None
    if _playing(state, core, session):
        ctx.reply("You are playing a game.")
        return None
    if _playing(state, core, receiver):
        ctx.reply(f"{receiver.name} is playing a game.")
        return None
    if not receiver.variables["open"]:
        ctx.reply(f"{receiver.name} is not open to match requests.")
        return None
    if name_key(session.name) in receiver.listed("noplay"):  # FICS's matchproc.c
        ctx.reply(f"You are on {receiver.name}'s noplay list.")
        return None
    if receiver.censors(session):
        ctx.reply(f"{receiver.name} is censoring you.")
        return None
    return receiver


async def _challenge(
    ctx: Context,
    receiver: Session,
    terms: Terms,
    color: bool | None,
    adjourned: GameRecord | None = None,
) -> None:
    """Issue a challenge, or accept or replace the one between the two players."""
    core, session, batch = ctx.core, ctx.session, ctx.batch
    state = core.state(Pairing)
    new = Challenge(session, receiver, terms, color, adjourned)
    theirs = state.offer(receiver, session)
    if theirs is not None:
        fits = theirs.terms == terms and (
            color is None or theirs.color is None or theirs.color != color
        )
        same_game = (theirs.adjourned.id if theirs.adjourned else None) == (
            adjourned.id if adjourned else None
        )
        if fits and same_game:
            await _accept(ctx, theirs, color)
            return
    if ctx.too_fast("match"):
        return
    if theirs is not None:
        batch.add(
            receiver, lines(f"{session.name} declines your offer and proposes a counteroffer.")
        )
        ctx.reply(f"Declining the offer from {receiver.name} and proposing a counteroffer.")
        _remove_challenge(state, theirs, f"{session.name} proposed different terms.", batch)
    mine = state.offer(session, receiver)
    if mine is not None:
        if mine.same_offer(new):
            ctx.reply(f"You are already offering an identical match to {receiver.name}.")
            return
        ctx.reply(f"Updating offer already made to {receiver.name}.")
        _remove_challenge(state, mine, f"{session.name} updated the challenge.", batch)
    await _assess(core, new)
    if (
        state.offer(session, receiver) is not None
        or state.offer(receiver, session) is not None
        or _playing(state, core, session)
        or _playing(state, core, receiver)
    ):
        ctx.reply("The challenge was not issued: things changed meanwhile.")
        return
    state.challenges.append(new)
    text = challenge_text(new)
    terms_text = text.removesuffix(".")
    new.offer = offer = state.offers.open(
        "match", session, receiver, batch, terms_text, words=f"a challenge: {terms_text}", owner=new
    )
    offer.accept = partial(_accept_challenge, new)
    offer.decline = partial(_refuse_challenge, new, False)
    offer.withdraw = partial(_refuse_challenge, new, True)
    batch.add(receiver, BELL)
    batch.add(
        receiver,
        lines(
            f"Challenge: {challenge_text(new, receiver)}",
            'You can "accept" or "decline", or propose different parameters.',
        ),
    )
    message = _match_message(new)
    batch.add(receiver, message)
    ctx.reply(f"Issuing: {challenge_text(new, session)}")
    batch.add(session, message)


#: The kinds of offers ``accept``, ``decline`` and ``withdraw`` take as a word (FICS's
#: pending.c; ``accept t draw`` is PyChess's form).
OFFER_KINDS = frozenset(
    ("match", "draw", "abort", "adjourn", "takeback", "pause", "unpause", "switch", "partner")
)
#: FICS's words when there is no offer to act on.
_NONE = {
    "accept": "You have no pending offers to accept.",
    "decline": "You have no pending offers from other players.",
    "withdraw": "You have no pending offers to other players.",
}


def _chosen(ctx: Context, args: str, verb: str) -> list[Offer]:
    """The pending offers ``args`` names, to me (``accept``, ``decline``) or from me
    (``withdraw``): by the number ``<pf>`` and ``pending`` show, by kind (``draw``, ``t
    draw``), by the other player's name (a unique prefix), ``all`` of them (not for
    ``accept``), or the only one when ``args`` is empty. Empty after saying why."""
    offers = ctx.core.state(Offers)
    to_me = verb != "withdraw"
    mine = offers.to(ctx.session) if to_me else offers.sent_by(ctx.session)
    words = args.split()
    if words[:1] == ["t"] and len(words) > 1:
        words = words[1:]
    word = words[0].lower() if words else ""
    if not mine:
        ctx.reply(_NONE[verb])
        return []
    if not word:
        if len(mine) == 1:
            return mine
        if verb == "accept":
            first = "You have more than one offer to accept."
        else:
            first = "You have more than one pending offer."
        ctx.reply(first, f'Use "pending" to see them and "{verb} n" to choose which one.')
        return []
    number = parse_number(word)
    if number is not None:
        found = [o for o in mine if o.number == number]
        if not found:
            ctx.reply('Out of range. Use "pending" to see the list of offers.')
        return found
    if word == "all" and verb != "accept":
        return mine
    if word in OFFER_KINDS:
        found = [o for o in mine if o.kind == word]
        if not found:
            ctx.reply(f"There are no {word} offers to {verb}.")
        return found
    key = name_key(word)

    def other(offer: Offer) -> str:
        return name_key((offer.sender if to_me else offer.receiver).name)

    found = [o for o in mine if other(o) == key] or [o for o in mine if other(o).startswith(key)]
    if found and len({other(o) for o in found}) == 1:
        return found
    ctx.reply(f"There are no offers pending {'from' if to_me else 'to'} {words[0]}.")
    return []


async def _accept(ctx: Context, challenge: Challenge, wants: bool | None = None) -> None:
    """Start the game of ``challenge``, to the issuer; ``wants`` is the colour the issuer
    asked for when it accepts by challenging back."""
    core, session, batch = ctx.core, ctx.session, ctx.batch
    state = core.state(Pairing)
    challenger = challenge.challenger
    if _playing(state, core, session):
        ctx.reply("You are playing a game.")
        return
    if _playing(state, core, challenger):
        ctx.reply(f"{challenger.name} is playing a game.")
        return
    problem = _bughouse_problem(core, challenge.terms, session, challenger)
    if problem is not None:
        ctx.reply(problem)
        return
    ctx.reply(f"You accept the match offer from {challenger.name}.")
    batch.add(challenger, lines(f"{session.name} accepts the match offer."))
    _remove_challenge(state, challenge, f"{session.name} accepted the challenge.", batch)
    record = challenge.adjourned
    if record is not None:
        white, black = _resume_colors(record, challenger, session)
    else:
        white, black = _colors(state, session, wants, challenger, challenge.color)
    await _start(core, batch, white, black, challenge.terms, resumed=record)


async def _accept_challenge(challenge: Challenge, ctx: Context) -> None:
    await _accept(ctx, challenge)


async def _refuse_challenge(challenge: Challenge, withdrawn: bool, ctx: Context) -> None:
    """``decline`` of a challenge to me, ``withdraw`` of mine (FICS's words, which
    PyChess reads)."""
    name, state = ctx.session.name, ctx.core.state(Pairing)
    if withdrawn:
        ctx.reply(f"You withdraw the match offer to {challenge.receiver.name}.")
        ctx.batch.add(challenge.receiver, lines(f"{name} withdraws the match offer."))
        _remove_challenge(state, challenge, f"{name} withdrew the challenge.", ctx.batch)
    else:
        ctx.reply(f"You decline the match offer from {challenge.challenger.name}.")
        ctx.batch.add(challenge.challenger, lines(f"{name} declines the match offer."))
        _remove_challenge(state, challenge, f"{name} declined the challenge.", ctx.batch)


@command("accept", CN.CN_ACCEPT, "accept [n|name|kind|t kind]")
async def accept(ctx: Context, args: str) -> None:
    chosen = _chosen(ctx, args, "accept")
    if chosen and chosen[0].accept is not None:
        await chosen[0].accept(ctx)


@command("decline", CN.CN_DECLINE, "decline [n|name|kind|t kind|all]")
async def decline(ctx: Context, args: str) -> None:
    for offer in _chosen(ctx, args, "decline"):
        if offer.decline is not None:
            await offer.decline(ctx)


@command("withdraw", CN.CN_DECLINE, "withdraw [n|name|kind|t kind|all]")
async def withdraw(ctx: Context, args: str) -> None:
    for offer in _chosen(ctx, args, "withdraw"):
        if offer.withdraw is not None:
            await offer.withdraw(ctx)


@command("pending", CN.CN_PENDING, "pending")
async def pending(ctx: Context, args: str) -> None:
    ctx.reply(*ctx.core.state(Offers).listing(ctx.session))


@command("rematch", CN.CN_REMATCH, "rematch")
async def rematch(ctx: Context, args: str) -> None:
    """A match offer to the last opponent with the last game's terms, each player taking
    the other colour (FICS help ``rematch``)."""
    state = ctx.core.state(Pairing)
    key = name_key(ctx.session.name)
    last = state.last_game.get(key)
    if last is None:
        ctx.reply("You have no previous opponent to play again.")
        return
    name, terms = last
    if name_key(name) not in ctx.world.online:
        ctx.reply(f"Your last opponent, {name}, is not logged in.")
        return
    receiver = _opponent(ctx, name)
    if receiver is None:
        return
    color = state.last_color.get(key)
    await _challenge(ctx, receiver, terms, None if color is None else not color)


# -- adjourned games -------------------------------------------------------------------------


async def _adjourned(ctx: Context) -> list[GameRecord]:
    """The adjourned games of the issuer (after the queued saves are written)."""
    if not ctx.session.registered:
        return []
    await ctx.core.play.flush()
    found: list[GameRecord] = await asyncio.to_thread(ctx.store.adjourned, ctx.session.name)
    return found


def _opponent_name(record: GameRecord, session: Session) -> str:
    return record.black if name_key(record.white) == name_key(session.name) else record.white


async def _adjourned_with(ctx: Context, other: Session) -> GameRecord | None:
    if not other.registered:
        return None
    for record in await _adjourned(ctx):
        if name_key(_opponent_name(record, ctx.session)) == name_key(other.name):
            return record
    return None


def _resume_colors(record: GameRecord, one: Session, two: Session) -> tuple[Session, Session]:
    return (one, two) if name_key(record.white) == name_key(one.name) else (two, one)


def _record_terms(record: GameRecord) -> Terms:
    variant, kind = record.game_variant, record.rating_type
    return Terms.of(variant, record.rated, record.initial, record.increment, kind)


async def _offer_resume(ctx: Context, other: Session, record: GameRecord) -> None:
    """Ask ``other`` to resume ``record`` (or start it, if they asked already)."""
    state = ctx.core.state(Pairing)
    theirs = state.offer(other, ctx.session)
    if theirs is not None and theirs.adjourned is not None and theirs.adjourned.id == record.id:
        await _accept(ctx, theirs)
        return
    color = WHITE if name_key(record.white) == name_key(ctx.session.name) else BLACK
    await _challenge(ctx, other, _record_terms(record), color, adjourned=record)


@command("resume", CN.CN_RESUME, "resume [name]")
async def resume(ctx: Context, args: str) -> None:
    session = ctx.session
    name = args.strip()
    if not session.registered:
        ctx.reply("Only registered players have adjourned games.")
        return
    records = await _adjourned(ctx)
    if not records:
        ctx.reply("You have no adjourned games.")
        return
    if name:
        other = _opponent(ctx, name)
        if other is None:
            return
        record = next(
            (r for r in records if name_key(_opponent_name(r, session)) == name_key(other.name)),
            None,
        )
        if record is None or not other.registered:
            ctx.reply(f"You have no adjourned game with {other.name}.")
            return
        await _offer_resume(ctx, other, record)
        return
    state = ctx.core.state(Pairing)
    for challenge in state.challenges:
        if challenge.receiver is session and challenge.adjourned is not None:
            await _accept(ctx, challenge)
            return
    for record in records:
        other = ctx.world.find(_opponent_name(record, session))
        if other is not None and other.registered and not same_player(other, session):
            if _opponent(ctx, other.name) is None:
                return
            await _offer_resume(ctx, other, record)
            return
    ctx.reply("None of your adjourned opponents is logged in.")


def install(core: Core) -> None:
    """Pairing on ``core``: its commands and hooks."""
    core.state(Pairing).offers = core.state(Offers)
    registry = core.registry
    registry.add_commands(COMMANDS)
    registry.variable_set.append(
        lambda session, name, value, batch, interface: (
            variable_set(core, session, name, value, batch)
            if interface
            else closed(core, session, batch)
            if name == "open" and not value
            else None
        )
    )
    registry.dg_on.append(lambda session, number, batch: send_lists(core, session, number, batch))
    registry.left.append(lambda session: player_left(core, session))
