"""What users say to others, for each receiver: the level 2 form where the receiver has
its DG on (which, the spec says, inhibits the text form), FICS's text otherwise.

A personal tell reads ``NAME tells you: TEXT`` (``says`` for ``say``, ``NAME (your
partner) tells you`` for ``ptell``) or DG_PERSONAL_TELL (31) to the one told, and is
DG_PERSONAL_TELL_ECHO (62) to the teller; a qtell follows the receiver's face (FICS's
``:`` lines, ICC's ``>`` lines or DG_PERSONAL_QTELL / DG_CHANNEL_QTELL).
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Hashable, Sequence
from typing import TYPE_CHECKING, Any

from icswire.protocol import datagrams as dg
from icswire.protocol.datagrams import DG
from icswire.server.core.events.talk import (
    PTELL,
    SAY,
    SHOUT,
    SSHOUT,
    ChannelTold,
    CShouted,
    Kibitzed,
    MessageReceived,
    Qtold,
    Shouted,
    Told,
)
from icswire.server.core.model.titles import ADMIN, CHESS_TITLES, COMPUTER, UNREGISTERED
from icswire.server.core.render.batch import EventMessage, render_parts

if TYPE_CHECKING:
    from icswire.server.core.model.users import User


class _Said(EventMessage):
    """One text line, replaced by one datagram for receivers who have its kind on (each
    subclass's row of the table has that one DG)."""

    @abstractmethod
    def line(self) -> str: ...

    @abstractmethod
    def record(self) -> Any: ...

    def key(self, receiver: User) -> Hashable:
        return bool(receiver.level2 & self.datagram_kinds)

    def render(self, receiver: User) -> bytes:
        if receiver.level2 & self.datagram_kinds:
            return render_parts((self.record(),), (), receiver)
        return render_parts((), (self.line(),), receiver)


class ChannelTellMessage(_Said):
    """:class:`ChannelTold`: ``NAME(CHANNEL): TEXT`` or DG_CHANNEL_TELL (28)."""

    event: ChannelTold

    def line(self) -> str:
        event = self.event
        return f"{event.speaker.display}({event.channel}): {event.text}"

    def record(self) -> Any:
        event = self.event
        return dg.ChannelTell(
            event.channel, event.speaker.name, event.speaker.titles, event.text, 1
        )


class ShoutMessage(_Said):
    """:class:`Shouted`: ``NAME shouts: TEXT``, ``--> NAME TEXT`` (``i``), ``NAME sshouts:
    TEXT``, or DG_SHOUT (32) with the shout's type."""

    event: Shouted

    def line(self) -> str:
        event = self.event
        who = event.speaker.display
        if event.type == SHOUT:
            return f"{who} shouts: {event.text}"
        if event.type == SSHOUT:
            return f"{who} sshouts: {event.text}"
        return f"--> {who} {event.text}"

    def record(self) -> Any:
        event = self.event
        return dg.Shout(event.speaker.name, event.speaker.titles, event.type, event.text)


class CShoutMessage(EventMessage):
    """:class:`CShouted`: ``NAME c-shouts: TEXT`` for every receiver (no DG is one)."""

    event: CShouted

    def key(self, receiver: User) -> Hashable:
        return ()

    def text(self, receiver: User) -> Sequence[str]:
        return (f"{self.event.speaker.display} c-shouts: {self.event.text}",)


class KibitzMessage(_Said):
    """:class:`Kibitzed`: ``NAME(RATING)[GAME] kibitzes: TEXT`` (``whispers``; a titled
    speaker as :meth:`_who` says, ``alice(GM)``, ``Deep(2000)(C)``) or DG_KIBITZ (26)."""

    event: Kibitzed

    def line(self) -> str:
        event = self.event
        verb = "kibitzes" if event.kibitz else "whispers"
        return f"{self._who()}[{event.game}] {verb}: {event.text}"

    def _who(self) -> str:
        """lasker's kibitzer: a chess title instead of the rating (``alice(GM)``, the
        first of FM, IM, GM, WGM, WIM, WFM), else an administrator's ``(*)``, else the
        rating, a computer's ``(C)`` after it (``Deep(2000)(C)``)."""
        speaker, rating = self.event.speaker, self.event.rating
        words = speaker.titles.split()
        chess = [word for word in words if word in CHESS_TITLES]
        if chess:
            return f"{speaker.name}({chess[0]})"
        if ADMIN.mark in words:
            return f"{speaker.name}({ADMIN.mark})"
        if COMPUTER.mark in words:
            return f"{speaker.name}({rating})({COMPUTER.mark})"
        if UNREGISTERED.mark in words:
            return f"{speaker.display}({rating})"
        return f"{speaker.name}({rating})"

    def record(self) -> Any:
        event = self.event
        speaker = event.speaker
        return dg.Kibitz(event.game, speaker.name, speaker.titles, event.kibitz, event.text)


class TellMessage(EventMessage):
    """:class:`Told`: to the one told, the tell (DG_PERSONAL_TELL, 31, or its text); to the
    teller, DG_PERSONAL_TELL_ECHO (62) with the one told. A user telling himself is both."""

    event: Told

    def _roles(self, receiver: User) -> tuple[bool, bool]:
        """Whether ``receiver`` is told, and whether he is the teller."""
        name = receiver.name
        return name == self.event.to, name == self.event.speaker.name

    def key(self, receiver: User) -> Hashable:
        return receiver.level2 & self.datagram_kinds, self._roles(receiver)

    def render(self, receiver: User) -> bytes:
        event, on = self.event, receiver.level2
        told, teller = self._roles(receiver)
        records: list[Any] = []
        text: tuple[str, ...] = ()
        speaker = event.speaker
        if told and DG.PERSONAL_TELL in on:
            records.append(dg.PersonalTell(speaker.name, speaker.titles, event.text, event.type))
        elif told:
            text = (self._line(),)
        if teller and DG.PERSONAL_TELL_ECHO in on:
            records.append(dg.PersonalTellEcho(event.to, event.type, event.text))
        return render_parts(records, text, receiver)

    def _line(self) -> str:
        event = self.event
        if event.type == SAY:
            return f"{event.speaker.display} says: {event.text}"
        if event.type == PTELL:
            return f"{event.speaker.display} (your partner) tells you: {event.text}"
        return f"{event.speaker.display} tells you: {event.text}"


class QtellMessage(EventMessage):
    """:class:`Qtold`: to a FICS receiver each line after ``:``; to an ICC one
    DG_PERSONAL_QTELL (83) or DG_CHANNEL_QTELL (82), or each line after ``>``. ``\\n`` (a
    backslash and an n) breaks the line; the text forms drop the bell and bold marks
    ``\\b``, ``\\H``, ``\\h``, which the datagrams keep for the client (section 4, DG 82)."""

    event: Qtold

    def __init__(self, event: Qtold) -> None:
        super().__init__(event)
        self._parts: list[str] | None = None

    def _dg(self) -> int:
        return DG.PERSONAL_QTELL if self.event.channel is None else DG.CHANNEL_QTELL

    def key(self, receiver: User) -> Hashable:
        return receiver.talks_icc, self._dg() in receiver.level2

    def _lines(self, mark: str) -> tuple[str, ...]:
        if self._parts is None:
            plain = self.event.text
            for bell_or_bold in ("\\b", "\\H", "\\h"):
                plain = plain.replace(bell_or_bold, "")
            self._parts = plain.split("\\n")
        return tuple(mark + part for part in self._parts)

    def render(self, receiver: User) -> bytes:
        event = self.event
        if not receiver.talks_icc:
            return render_parts((), self._lines(":"), receiver)
        if self._dg() not in receiver.level2:
            return render_parts((), self._lines(">"), receiver)
        name, titles = event.speaker.name, event.speaker.titles
        if event.channel is None:
            record: Any = dg.PersonalQtell(name, titles, event.text)
        else:
            record = dg.ChannelQtell(event.channel, name, titles, event.text)
        return render_parts((record,), (), receiver)


class MessageShown(EventMessage):
    """:class:`MessageReceived`: ``The following message was received:`` and the message
    as ``messages`` lists it (FICS; no DG tells it)."""

    event: MessageReceived

    def key(self, receiver: User) -> Hashable:
        return ()

    def text(self, receiver: User) -> Sequence[str]:
        event = self.event
        return (
            "The following message was received:",
            f"{event.sender} at {event.sent}: {event.text}",
        )
