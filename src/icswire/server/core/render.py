"""Domain events, and their bytes for each receiver.

A command changes the world and produces :class:`Message` objects for receivers. A
message knows its text form (level 0 and level 1) and its datagrams (level 2, only of the
kinds the receiver enabled); where the spec says a datagram replaces the text ("If this is
on, the normal form is not generated"), the text is left out for receivers who have it on.

:class:`Batch` gathers the messages of one command (or one server event) and renders, for
each receiver, one unit: a level 1 ``^Y[cn issuer[ tag]`` ... ``^Y]`` bracket, or level 0
text followed by the prompt. Receivers whose settings give the same bytes share them: a
shout to 5000 people is rendered once per distinct kind of receiver, not 5000 times.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from icswire.protocol.block import BLOCK_END, format_header
from icswire.protocol.datagrams import encode_datagram
from icswire.protocol.encoder import encode_text, encode_unit_start
from icswire.server.core.wrap import wrap_line

if TYPE_CHECKING:
    from icswire.server.core.session import Session

NEWLINE = "\r\n"
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

    def text(self, receiver: Session) -> Sequence[str]:
        return ()

    def datagrams(self, receiver: Session) -> Iterable[Any]:
        return ()

    def key(self, receiver: Session) -> Any:
        """What of the receiver's settings this message's bytes depend on."""
        return receiver.level2 & self.datagram_kinds

    def render(self, receiver: Session) -> bytes:
        parts = [encode_datagram(record) for record in self.datagrams(receiver)]
        if not (self.replaced_by & receiver.level2):
            width = receiver.wrap_width
            for line in self.text(receiver):
                for piece in wrap_line(line, width):
                    parts.append(encode_text(piece + NEWLINE))
        return b"".join(parts)


@dataclass(frozen=True, eq=False)
class Lines(Message):
    """Plain text lines (command replies, notices)."""

    lines: tuple[str, ...]

    def text(self, receiver: Session) -> Sequence[str]:
        return self.lines

    def key(self, receiver: Session) -> Any:
        return ()


def lines(*text: str) -> Lines:
    return Lines(tuple(text))


@dataclass(frozen=True, eq=False)
class Raw(Message):
    """Bytes sent as they are, whatever the receiver's settings (a timeseal ping)."""

    data: bytes

    def render(self, receiver: Session) -> bytes:
        return self.data

    def key(self, receiver: Session) -> Any:
        return ()


@dataclass(frozen=True, eq=False)
class Datagram(Message):
    """One datagram, for the receivers who have its kind on."""

    record: Any

    def __post_init__(self) -> None:
        object.__setattr__(self, "datagram_kinds", frozenset({self.record.dg}))

    def datagrams(self, receiver: Session) -> Iterable[Any]:
        return (self.record,) if self.record.dg in receiver.level2 else ()

    def key(self, receiver: Session) -> Any:
        return self.record.dg in receiver.level2


@dataclass(frozen=True, eq=False)
class PerReceiver(Message):
    """A datagram whose form depends on the receiver (DG_PLAYER_ARRIVED's parts follow
    the receiver's rating, open, state and uid settings): ``build`` makes it for one."""

    dg: int
    build: Callable[[Session], Any]

    def __post_init__(self) -> None:
        object.__setattr__(self, "datagram_kinds", frozenset({self.dg}))

    def datagrams(self, receiver: Session) -> Iterable[Any]:
        return (self.build(receiver),) if self.dg in receiver.level2 else ()

    def key(self, receiver: Session) -> Any:
        return receiver.level2 if self.dg in receiver.level2 else False


@dataclass(frozen=True, eq=False)
class TextOrDatagram(Message):
    """The usual case: a text form, replaced by a datagram for receivers who have it on."""

    lines: tuple[str, ...]
    dg: int
    record: Any

    def __post_init__(self) -> None:
        kinds = frozenset({self.dg})
        object.__setattr__(self, "replaced_by", kinds)
        object.__setattr__(self, "datagram_kinds", kinds)

    def text(self, receiver: Session) -> Sequence[str]:
        return self.lines

    def datagrams(self, receiver: Session) -> Iterable[Any]:
        return (self.record,) if self.dg in receiver.level2 else ()


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
        issuer: Session | None,
        tag: str | None = None,
        issuer_name: str = "",
        block: tuple[int, int] | None = None,
    ) -> None:
        self.cn = cn
        self.issuer = issuer
        self.tag = tag
        self.block = block
        self.issuer_name = issuer.name if issuer is not None else issuer_name or "$server$"
        self._messages: dict[Session, list[Message]] = {}

    def command_cn(self, cn: int, block_code: int | None = None) -> None:
        """The command turned out to be another (a tell to a channel, a bad command)."""
        self.cn = cn
        if block_code is not None and self.block is not None:
            self.block = (self.block[0], block_code)

    def add(self, receiver: Session, message: Message) -> None:
        self._messages.setdefault(receiver, []).append(message)

    def add_all(self, receivers: Iterable[Session], message: Message) -> None:
        for receiver in receivers:
            self.add(receiver, message)

    def reply(self, *text: str) -> None:
        """Text lines to the issuer."""
        if self.issuer is not None:
            self.add(self.issuer, Lines(text))

    def flush(self) -> None:
        """Render and send everything gathered; receivers with equal keys share bytes."""
        shared: dict[Any, bytes] = {}
        for receiver, messages in self._messages.items():
            if receiver.closed:
                continue
            is_issuer = receiver is self.issuer
            key = (
                receiver.wrap_key(is_issuer),
                tuple(id(m) for m in messages),
                tuple(m.key(receiver) for m in messages),
            )
            data = shared.get(key)
            if data is None:
                body = b"".join(m.render(receiver) for m in messages)
                data = shared[key] = self._wrap(receiver, body, is_issuer)
            if data:
                receiver.send_unit(data)
        self._messages.clear()

    def _wrap(self, receiver: Session, body: bytes, is_issuer: bool) -> bytes:
        level1 = receiver.level1
        if level1 & 1:
            if level1 & 8:
                who = "*" if is_issuer else ("$server$" if self.issuer is None else "%")
            else:
                who = "*" if is_issuer else self.issuer_name
            tag = self.tag if is_issuer and self.tag and level1 & 4 else None
            return encode_unit_start(self.cn, who, tag) + body + UNIT_END
        if is_issuer:  # the prompt follows every command, even one with no output
            if self.block is not None:
                framed = format_header(*self.block) + body + bytes((BLOCK_END,))
                return framed + b"\n" + receiver.prompt_bytes()
            return body + receiver.prompt_bytes()
        if not body:
            return b""
        # output nobody asked for starts on a new line, below the prompt; a board brings
        # its own empty line (FICS's "\n<12> ...") and needs no other
        newline = NEWLINE.encode()
        return (body if body.startswith(newline) else newline + body) + receiver.prompt_bytes()
