"""Seeks and challenges as others see them: their events (:func:`seek_ad`,
:func:`challenge_made`; render/pairing.py gives DG_SEEK, DG_MATCH and their text forms),
ratings (``----``, ``++++``, ``P``), the body of Challenge/Issuing lines and ``sought``
rows; who sees a seek (formula, rating range) and which seeks make a game together; and
what turning on DG_SEEK or DG_MATCH sends (:func:`send_lists`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from icswire.protocol.datagrams import DG
from icswire.server.core.events.pairing import ChallengeMade, SeekAd
from icswire.server.core.model.fitting import Proposal, fits
from icswire.server.core.render.batch import Batch, Datagram
from icswire.server.core.render.boards import BLACK, WHITE
from icswire.server.core.render.pairing import challenge_text as shown_challenge
from icswire.server.core.render.pairing import provshow, rating_shown, seek_record
from icswire.server.features.pairing.state import Challenge, Pairing, Seek, same_player

if TYPE_CHECKING:
    from icswire.server.core.dispatch.hub import Core
    from icswire.server.core.model.tables import Terms
    from icswire.server.core.model.users import User


def _rating(player: User, kind: str) -> tuple[int, int]:
    """(rating, annotation) of ``player`` for ``kind``; (0, 0) for a guest or no games."""
    if not player.registered:
        return 0, 0
    return player.ratings.get(kind, (0, 0))


def _game_rating(player: User, terms: Terms) -> tuple[int, int]:
    """The rating a challenge shows: none in an untimed or time-odds game (lasker's
    GetRating has none for TYPE_UNTIMED and TYPE_NONSTANDARD)."""
    if terms.fics_type in ("untimed", "non-standard"):
        return 0, 0
    return _rating(player, terms.rating_type)


def match_rating(player: User, kind: str, provshow: bool = False) -> str:
    """A rating in match lines: ``----`` when there is none; a provisional one followed
    by ``P`` with ``provshow``."""
    return rating_shown(_rating(player, kind), provshow)


def _seek_rating(player: User, kind: str, provshow: bool = False) -> str:
    """FICS's way in seek lines: ``++++`` a guest, ``----`` registered without games."""
    if not player.registered:
        return "++++"
    return match_rating(player, kind, provshow)


def _color_word(color: bool | None) -> str:
    return "" if color is None else (" [white]" if color == WHITE else " [black]")


def _color_code(color: bool | None) -> int:
    """DG_MATCH's and DG_SEEK's colour: -1 either, 1 white, 0 black."""
    return -1 if color is None else int(color == WHITE)


def challenge_made(challenge: Challenge, new: bool = False) -> ChallengeMade:
    """``challenge`` as the event both players see (``new``: just made)."""
    c, r, t = challenge.challenger, challenge.receiver, challenge.terms
    return ChallengeMade(
        c.name, c.titles, _game_rating(c, t), challenge.assessment.get(c, (0, 0, 0)),
        r.name, r.titles, _game_rating(r, t), challenge.assessment.get(r, (0, 0, 0)),
        t.wild, t.rating_type, t.rated, t.words, t.initial, t.increment,
        _color_code(challenge.color), challenge.adjourned is not None, new, *t.time_of(False),
    )  # fmt: skip


def challenge_text(challenge: Challenge, reader: User | None = None) -> str:
    """``A (----) B (----) unrated blitz 5 0.``: the body of Challenge/Issuing lines; the
    other player's name highlighted for ``reader`` (``set highlight``)."""
    return shown_challenge(challenge_made(challenge), reader)


def seek_ad(seek: Seek) -> SeekAd:
    """``seek`` as others see it posted."""
    t, player = seek.terms, seek.seeker
    rating, note = _rating(player, t.rating_type)
    return SeekAd(
        seek.index, player.name, player.titles, player.registered, rating, note, t.wild,
        t.rating_type, t.fics_type, t.initial, t.increment, t.rated,
        _color_code(seek.color), seek.low, seek.high, not seek.manual, seek.formula,
        _seek_words(seek),
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


def _titled(player: User) -> str:
    """The name with its titles' marks (``Stockfish(C)``), as FICS's ``sought`` shows it."""
    return player.name + player.title_marks


def sought_row(seek: Seek, reader: User) -> str:
    t = seek.terms
    rating = _seek_rating(seek.seeker, t.rating_type, provshow(reader))
    color = {None: "", WHITE: "[white]", BLACK: "[black]"}[seek.color]
    flags = ("m" if seek.manual else "") + ("f" if seek.formula else "")
    return (
        f"{seek.index:3} {rating:>4} {_titled(seek.seeker):<17} {t.initial:3}"
        f" {t.increment:3} {'rated' if t.rated else 'unrated':<7} {t.rating_type.lower():<10}"
        f" {color:<7}"
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
        f"{seek.index:3} {rating or '':>4} {_titled(seek.seeker):<17} {t.initial:3}"
        f" {t.increment:3}"
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
                batch.add(session, Datagram(seek_record(seek_ad(seek))))
    elif number == DG.MATCH:
        for challenge in state.challenges_of(session):
            batch.add(session, challenge_made(challenge))
