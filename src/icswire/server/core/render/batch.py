"""Domain events, and their bytes for each receiver.

A command changes the world and produces :class:`Message` objects for receivers. A
message knows its text form (level 0 and level 1) and its datagrams (level 2, only of the
kinds the receiver enabled); where the spec says a datagram replaces the text ("If this is
on, the normal form is not generated"), the text is left out for receivers who have it on.

:class:`Batch` gathers the messages of one command (or one server event) and renders, for
each receiver, one unit: a level 1 ``^Y[cn issuer[ tag]`` ... ``^Y]`` bracket, or level 0
text followed by the prompt. Receivers whose settings give the same bytes share them: a
shout to 5000 people is rendered once per distinct kind of receiver, not 5000 times. A
receiver with DG_UNACCENTED (78) on gets the unit's latin-1 letters as US ASCII ones. Text
is rendered with ``\r\n`` line ends, ICC's; a FICS-dialect receiver (one that turned
neither level 1 nor level 2 on) gets each as ``\n\r``, as lasker's ``net_send_string``
sends every line end.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from icswire.protocol.block import BLOCK_END, format_header
from icswire.protocol.datagrams import DG, encode_datagram
from icswire.protocol.encoder import encode_text, encode_unit_start
from icswire.protocol.level1 import Level1
from icswire.protocol.telnet import fics_newlines, unaccented
from icswire.server.core.events.base import Event
from icswire.server.core.render.wrap import wrap_line

if TYPE_CHECKING:
    from icswire.server.core.model.users import RemoteNode, User

NEWLINE = "\r\n"
#: DG_UNACCENTED (78): "not a DG at all, just a variable": its receivers get US ASCII.
UNACCENTED = int(DG.UNACCENTED)
#: The end of a top-level level 1 unit. ICC follows it with a newline, and ICC clients
#: (PyChess's ICC mode, Jin) read a line at a time: without it the last unit of a burst
#: waits for unrelated output (NOTES.md, "ICC framing").
UNIT_END = b"\x19]\n"


class Message:
    """Something one receiver is told. Subclasses give the text lines and datagrams."""

    #: Datagrams that, when the receiver has them on, replace the text form.
    replaced_by: frozenset[int] = frozenset()
    #: Every DG this message may render (its cache key depends only on these).
    datagram_kinds: frozenset[int] = frozenset()
    #: FICS begins this text on a fresh line even for the user whose command caused it
    #: (lasker's ``"\n{Game ..."``): after the prompt that user was sent last, not on
    #: the prompt's line (see :meth:`Batch._wrap`).
    starts_fresh: bool = False

    def text(self, receiver: User) -> Sequence[str]:
        return ()

    def datagrams(self, receiver: User) -> Iterable[Any]:
        return ()

    def key(self, receiver: User) -> Any:
        """What of the receiver's settings this message's bytes depend on."""
        return receiver.level2 & self.datagram_kinds

    def render(self, receiver: User) -> bytes:
        text = () if self.replaced_by & receiver.level2 else self.text(receiver)
        return render_parts(self.datagrams(receiver), text, receiver)

    def resolve(self, receiver: User) -> Message:
        """This message as plain data for ``receiver``, who is on another node of a
        cluster: what of it depends on who the receiver is is decided here, with the
        receiver's replicated settings (a board's relation and flip:
        :class:`~icswire.server.core.render.boards.FixedBoard`); the receiver's own node
        renders the bytes (framing, wrapping, encoding) as for any of its users. Plain
        data (:class:`Data`: an event, lines, datagrams) goes as it is."""
        raise TypeError(f"{type(self).__name__} cannot go to another node")


class Data(Message):
    """A message that is plain data already (its fields decide its bytes with the
    receiver's settings alone): it goes to a receiver on another node as it is."""

    def resolve(self, receiver: User) -> Message:
        return self


def render_parts(records: Iterable[Any], text: Sequence[str], receiver: User) -> bytes:
    """Datagrams, then text lines wrapped at the receiver's width (asked only if there is
    text)."""
    parts = [encode_datagram(record) for record in records]
    if text:
        width = receiver.wrap_width
        for line in text:
            for piece in wrap_line(line, width):
                parts.append(encode_text(piece + NEWLINE))
    return b"".join(parts)


@dataclass(frozen=True, eq=False)
class Lines(Data):
    """Plain text lines (command replies, notices)."""

    lines: tuple[str, ...]

    def text(self, receiver: User) -> Sequence[str]:
        return self.lines

    def key(self, receiver: User) -> Any:
        return ()


def lines(*text: str) -> Lines:
    return Lines(tuple(text))


@dataclass(frozen=True, eq=False)
class Raw(Data):
    """Bytes sent as they are, whatever the receiver's settings (a timeseal ping)."""

    data: bytes

    def render(self, receiver: User) -> bytes:
        return self.data

    def key(self, receiver: User) -> Any:
        return ()


@dataclass(frozen=True, eq=False)
class Datagram(Data):
    """One datagram, for the receivers who have its kind on."""

    record: Any

    def __post_init__(self) -> None:
        object.__setattr__(self, "datagram_kinds", frozenset({self.record.dg}))

    def datagrams(self, receiver: User) -> Iterable[Any]:
        return (self.record,) if self.record.dg in receiver.level2 else ()

    def key(self, receiver: User) -> Any:
        return self.record.dg in receiver.level2


class EventMessage(Data):
    """An event as its receivers see it: each event kind's subclass (render/table.py maps
    kinds to them) renders it for one receiver with that receiver's settings alone, so it
    goes to a receiver on another node as the event itself, rendered there."""

    def __init__(self, event: Event) -> None:
        self.event = event

    def __reduce__(self) -> tuple[Any, tuple[Event]]:
        """Only the event travels; its renderings stay here."""
        return message_of, (self.event,)


#: The message class of each event kind; filled by :mod:`icswire.server.core.render.table`.
RENDERERS: dict[type[Event], type[EventMessage]] = {}


def message_of(item: Message | Event) -> Message:
    """``item`` as a message: an event is wrapped in its kind's :class:`EventMessage`."""
    if isinstance(item, Event):
        return RENDERERS[type(item)](item)
    return item


class Batch:
    """The output of one command (or server event) to everybody it reaches.

    ``cn`` is the level 1 command number (icc-formats.txt Appendix 1), ``issuer`` the
    session that caused it (None: the server itself), ``tag`` the issuer's backquote word.
    ``block`` is (id, code) when the issuer is in FICS's block mode (help ``iv_block``):
    its output is then one block, ``\\x15id\\x16code\\x16 ... \\x17``, before its prompt.
    """

    def __init__(
        self,
        cn: int,
        issuer: User | None,
        tag: str | None = None,
        issuer_name: str = "",
        block: tuple[int, int] | None = None,
        made_by: str = "",
    ) -> None:
        self.cn = cn
        #: The issuer typed nothing: ``made_by`` (a TD's qmatch) made the command for him.
        #: His level 1 unit then names that player, not ``*`` (icc-formats.txt section 3:
        #: "the name of the player issuing that command, or * if it was you"), so that his
        #: client does not take it for the end of the output of a command of his own.
        self.made_by = made_by
        self.issuer = issuer
        self.tag = tag
        self.block = block
        self.issuer_name = issuer.name if issuer is not None else issuer_name or "$server$"
        #: Only this node's users are told (the others' nodes tell their own: a node died).
        self.local_only = False
        self._messages: dict[User, list[Message]] = {}

    def command_cn(self, cn: int, block_code: int | None = None) -> None:
        """The command turned out to be another (a tell to a channel, a bad command)."""
        self.cn = cn
        if block_code is not None and self.block is not None:
            self.block = (self.block[0], block_code)

    def add(self, receiver: User, message: Message | Event) -> None:
        self._messages.setdefault(receiver, []).append(message_of(message))

    def add_all(self, receivers: Iterable[User], *items: Message | Event) -> None:
        """``items`` (messages, or events rendered for each receiver), in this order, to
        each of ``receivers``."""
        messages = [message_of(item) for item in items]
        gathered = self._messages
        for receiver in receivers:
            queued = gathered.get(receiver)
            if queued is None:
                gathered[receiver] = list(messages)
            else:
                queued.extend(messages)

    def reply(self, *text: str) -> None:
        """Text lines to the issuer."""
        if self.issuer is not None:
            self.add(self.issuer, Lines(text))

    def flush(self) -> None:
        """Render and send everything gathered; receivers with equal keys share bytes."""
        shared: dict[Any, bytes] = {}
        elsewhere: dict[RemoteNode, list[tuple[User, bool, list[Message]]]] | None = None
        issuer = self.issuer
        for receiver, messages in self._messages.items():
            if receiver.closed:
                continue
            is_issuer = receiver is issuer
            if receiver.remote is not None:  # a user on another node of the cluster
                if self.local_only:
                    continue
                if elsewhere is None:
                    elsewhere = {}
                elsewhere.setdefault(receiver.remote, []).append((receiver, is_issuer, messages))
                continue
            plain = UNACCENTED in receiver.level2
            key = (
                receiver.wrap_key(is_issuer),
                plain,
                tuple(map(id, messages)),
                tuple([m.key(receiver) for m in messages]),
            )
            data = shared.get(key)
            if data is None:
                parts = [m.render(receiver) for m in messages]
                fresh = next(
                    (m.starts_fresh for m, part in zip(messages, parts, strict=True) if part), False
                )
                data = self._wrap(receiver, b"".join(parts), is_issuer, fresh)
                if plain:
                    data = unaccented(data)
                if not receiver.talks_icc:  # FICS ends its lines "\n\r" (the key says which)
                    data = fics_newlines(data)
                shared[key] = data
            if data:
                receiver.send_unit(data)
        self._messages.clear()
        if elsewhere is not None:
            for node, entries in elsewhere.items():
                node.deliver(self, entries)

    def _wrap(self, receiver: User, body: bytes, is_issuer: bool, fresh: bool = False) -> bytes:
        """``body`` as one unit for ``receiver``: level 1's brackets, or level 0's text and
        prompt. Level 0 output starts on a fresh line when it is not the issuer's (it
        comes after a prompt, at any time), and when it is but begins with a message that
        ``starts_fresh`` (``fresh``): the issuer's last bytes were its prompt, and a client
        that reads a line at a time would find ``fics% {Game ...`` on one line."""
        level1 = receiver.level1
        newline = NEWLINE.encode()
        if level1 & Level1.UNITS:
            if level1 & Level1.ISSUER_MARKS:
                who = "*" if is_issuer else ("$server$" if self.issuer is None else "%")
            else:
                who = "*" if is_issuer else self.issuer_name
            if is_issuer and self.made_by:
                who = "%" if level1 & Level1.ISSUER_MARKS else self.made_by
            tag = self.tag if is_issuer and self.tag and level1 & Level1.TAGS else None
            return encode_unit_start(self.cn, who, tag) + body + UNIT_END
        if is_issuer:  # the prompt follows every command, even one with no output
            if fresh and not body.startswith(newline):
                body = newline + body
            if self.block is not None:
                framed = format_header(*self.block) + body + bytes((BLOCK_END,))
                return framed + b"\n" + receiver.prompt_bytes()
            return body + receiver.prompt_bytes()
        if not body:
            return b""
        # output nobody asked for starts on a new line, below the prompt; a board brings
        # its own empty line (FICS's "\n<12> ...") and needs no other
        return (body if body.startswith(newline) else newline + body) + receiver.prompt_bytes()
