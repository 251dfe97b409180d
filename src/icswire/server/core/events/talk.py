"""What users say to others: tells (``tell``, ``xtell``, ``say``, ``ptell``), channel tells,
shouts (``shout``, ``i``, ``sshout``) and c-shouts, kibitzes and whispers, TD programs'
qtells, and a stored message shown at once to its receiver online.

Who hears each is the feature's decision (censor lists, talk variables, a game's
audience); these events carry only what was said and by whom.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from icswire.server.core.events.base import Event, kind

#: DG_PERSONAL_TELL's (31) and DG_PERSONAL_TELL_ECHO's (62) types of tell.
SAY, TELL, PTELL = 0, 1, 2
#: DG_SHOUT's (32) types of shout.
SHOUT, I_SHOUT, SSHOUT = 0, 1, 2


@kind
@dataclass(frozen=True, slots=True)
class Speaker:
    """Who talks: the name, the titles field of datagrams (``U`` for a guest) and the
    name as text shows it (``Name(U)`` for a guest)."""

    name: str
    titles: str
    display: str

    @classmethod
    def of(cls, session: Any) -> Speaker:
        """The speaker a session is now."""
        return cls(session.name, session.titles, session.display_name)


@kind
@dataclass(frozen=True, slots=True)
class Told(Event):
    """A personal tell of ``type`` (SAY, TELL, PTELL: DG_PERSONAL_TELL's) from
    ``speaker`` to the user named ``to``: he reads it (DG_PERSONAL_TELL, 31, or its
    text), the teller gets DG_PERSONAL_TELL_ECHO (62)."""

    speaker: Speaker
    to: str
    type: int
    text: str


@kind
@dataclass(frozen=True, slots=True)
class ChannelTold(Event):
    """A tell to ``channel`` (DG_CHANNEL_TELL, 28, of type 1)."""

    channel: int
    speaker: Speaker
    text: str


@kind
@dataclass(frozen=True, slots=True)
class Shouted(Event):
    """A shout of ``type`` SHOUT, I_SHOUT (``i``, an emote) or SSHOUT (DG_SHOUT, 32)."""

    speaker: Speaker
    type: int
    text: str


@kind
@dataclass(frozen=True, slots=True)
class CShouted(Event):
    """FICS's c-shout (chess talk): ICC has none, so no DG_SHOUT type either."""

    speaker: Speaker
    text: str


@kind
@dataclass(frozen=True, slots=True)
class Kibitzed(Event):
    """A kibitz (to game ``game``'s players and observers) or whisper (to its observers)
    (DG_KIBITZ, 26). ``rating`` is the speaker's rating in the game's type as text shows
    it (``----`` none, ``++++`` a guest)."""

    game: int
    speaker: Speaker
    rating: str
    kibitz: bool
    text: str


@kind
@dataclass(frozen=True, slots=True)
class Qtold(Event):
    """A TD program's qtell to one user (``channel`` None, DG_PERSONAL_QTELL, 83) or to a
    channel (DG_CHANNEL_QTELL, 82). ``text`` keeps the marks ``\\n``, ``\\b``, ``\\H``,
    ``\\h`` (section 4, DG 82)."""

    speaker: Speaker
    channel: int | None
    text: str


@kind
@dataclass(frozen=True, slots=True)
class MessageReceived(Event):
    """A stored message (``message NAME text``) shown at once to its receiver online;
    ``sent`` is the time as FICS writes it (``Tue Nov 24, 01:05 UTC 2026``)."""

    sender: str
    sent: str
    text: str
