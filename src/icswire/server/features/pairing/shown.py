"""What players are shown of seeks and challenges: ratings (``----``, ``++++``, ``P``),
the body of Challenge/Issuing lines, DG_MATCH (29) with its assessment, DG_SEEK (50), the
seek ad, ``<s>`` lines (``iset seekinfo``) and ``sought`` rows; who sees a seek (formula,
rating range) and which seeks make a game together; and what turning on DG_SEEK or
DG_MATCH sends (:func:`send_lists`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from icswire.protocol import datagrams as dg
from icswire.protocol import ivars
from icswire.protocol.datagrams import DG
from icswire.server.core.model.fitting import Proposal, fits
from icswire.server.core.render.alerts import name_for
from icswire.server.core.render.batch import Batch, Datagram, PerReceiver
from icswire.server.core.render.boards import BLACK, WHITE
from icswire.server.features.pairing.state import Challenge, Pairing, Seek, same_player

if TYPE_CHECKING:
    from icswire.server.core.dispatch.hub import Core
    from icswire.server.core.model.users import User


def _rating(player: User, kind: str) -> tuple[int, int]:
    """(rating, annotation) of ``player`` for ``kind``; (0, 0) for a guest or no games."""
    if not player.registered:
        return 0, 0
    return player.ratings.get(kind, (0, 0))


def _provshow(reader: User | None) -> bool:
    """Does ``reader`` see provisional ratings marked (``set provshow``)?"""
    return reader is not None and bool(reader.variables["provshow"])


def match_rating(player: User, kind: str, provshow: bool = False) -> str:
    """A rating in match lines: ``----`` when there is none; a provisional one followed
    by ``P`` with ``provshow``."""
    rating, note = _rating(player, kind)
    if not rating:
        return "----"
    return f"{rating}P" if provshow and note == 1 else str(rating)


def _seek_rating(player: User, kind: str, provshow: bool = False) -> str:
    """FICS's way in seek lines: ``++++`` a guest, ``----`` registered without games."""
    if not player.registered:
        return "++++"
    return match_rating(player, kind, provshow)


def _color_word(color: bool | None) -> str:
    return "" if color is None else (" [white]" if color == WHITE else " [black]")


def challenge_text(challenge: Challenge, reader: User | None = None) -> str:
    """``A (----) B (----) unrated blitz 5 0.``: the body of Challenge/Issuing lines; the
    other player's name highlighted for ``reader`` (``set highlight``)."""
    c, r, t = challenge.challenger, challenge.receiver, challenge.terms
    kind = t.rating_type
    adjourned = " (adjourned)" if challenge.adjourned is not None else ""
    prov = _provshow(reader)
    c_name = name_for(reader, c.name) if reader is r else c.name
    r_name = name_for(reader, r.name) if reader is c else r.name
    return (
        f"{c_name} ({match_rating(c, kind, prov)}){_color_word(challenge.color)}"
        f" {r_name} ({match_rating(r, kind, prov)}) {t.words} {t.initial} {t.increment}"
        f"{adjourned}."
    )


def _match_record(challenge: Challenge, receiver: User) -> dg.Match:
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


def match_message(challenge: Challenge) -> PerReceiver:
    return PerReceiver(DG.MATCH, lambda receiver: _match_record(challenge, receiver))


def seek_record(seek: Seek) -> dg.Seek:
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


def seek_announcement(seek: Seek, provshow: bool = False) -> str:
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


def seekinfo_line(seek: Seek, own: bool = False) -> str:
    return ivars.format_seek(_seekinfo_record(seek, own))


def sees_own(session: User) -> bool:
    own = session.ivariables["showownseek"] or session.variables["showownseek"]
    return bool(session.ivariables["seekinfo"] and own)


def sought_row(seek: Seek, reader: User) -> str:
    t = seek.terms
    rating = _seek_rating(seek.seeker, t.rating_type, _provshow(reader))
    color = {None: "", WHITE: "[white]", BLACK: "[black]"}[seek.color]
    flags = ("m" if seek.manual else "") + ("f" if seek.formula else "")
    return (
        f"{seek.index:3} {rating:>4} {seek.seeker.name:<17} {t.initial:3} {t.increment:3}"
        f" {'rated' if t.rated else 'unrated':<7} {t.rating_type.lower():<10} {color:<7}"
        f" {seek.low:4}-{seek.high:<4} {flags}"
    ).rstrip()


def icc_sought_row(seek: Seek) -> str:
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


def may_answer(seek: Seek, player: User) -> bool:
    """May ``player`` answer ``seek``: rated needs registration, and the rating range."""
    if seek.terms.rated and not player.registered:
        return False
    return seek.low <= _rating(player, seek.terms.rating_type)[0] <= seek.high


def visible(seek: Seek, viewer: User) -> bool:
    """Is ``seek`` shown to ``viewer``: it fits the viewer's formula (help ``formula``),
    and, if it has the formula flag, the viewer fits the seeker's formula too."""
    color = None if seek.color is None else not seek.color
    if not fits(Proposal(viewer, seek.seeker, seek.terms, color)):
        return False
    return not seek.formula or fits(Proposal(seek.seeker, viewer, seek.terms, seek.color))


def pairs_with(old: Seek, new: Seek) -> bool:
    """Do two automatic seeks of two players make a game?"""
    return (
        not same_player(old.seeker, new.seeker)
        and old.terms == new.terms
        and not old.manual
        and not new.manual
        and not (old.color is not None and old.color == new.color)
        and may_answer(old, new.seeker)
        and may_answer(new, old.seeker)
        and visible(old, new.seeker)
        and visible(new, old.seeker)
    )


def send_lists(core: Core, session: User, number: int, batch: Batch) -> None:
    """What turning on DG_SEEK (the sought list, as DG_SEEKs) or DG_MATCH (one DG_MATCH
    per pending challenge of ``session``) sends. Call it where ``set-2 N 1`` and the login
    settings send the other lists (``World.send_lists``)."""
    state = core.state(Pairing)
    if number == DG.SEEK:
        for index in sorted(state.seeks):
            seek = state.seeks[index]
            if seek.seeker is session or visible(seek, session):
                batch.add(session, Datagram(seek_record(seek)))
    elif number == DG.MATCH:
        for challenge in state.challenges_of(session):
            batch.add(session, match_message(challenge))
