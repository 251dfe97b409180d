"""The bytes of every event: what the decoder reads, the encoder writes.

``encode_events(Decoder().feed(stream))`` gives back ``stream`` for every stream whose
frames are in canonical form (single blanks between fields, strings quoted the way the
catalog quotes them). Servers use the same functions to produce what they send, so every
0xFF byte they mean as data is doubled on the wire (:mod:`icswire.protocol.telnet`).
"""

from __future__ import annotations

from collections.abc import Iterable

from icswire.protocol.block import format_header
from icswire.protocol.bughouse import format_b1
from icswire.protocol.datagrams import DatagramRecord, UnknownDatagram, encode_datagram
from icswire.protocol.events import (
    BlockEnd,
    BlockStart,
    BughouseLine,
    CommandEnd,
    CommandStart,
    Error,
    Event,
    IvarLine,
    Overflow,
    PoseEnd,
    PoseStart,
    Prompt,
    SessionEnd,
    Style10Block,
    Style12Line,
    Telnet,
    Text,
    UnitEnd,
    UnitStart,
)
from icswire.protocol.ivars import format_ivar
from icswire.protocol.style10 import format_style10
from icswire.protocol.style12 import format_style12
from icswire.protocol.telnet import escape

UNIT_END = b"\x19]"
COMMAND_START = b"\x19<"
COMMAND_END = b"\x19>"
OVERFLOW = b"\x1a"
#: FICS block mode's single-byte events (:mod:`icswire.protocol.block`).
BLOCK_BYTES: dict[type, bytes] = {BlockEnd: b"\x17", PoseStart: b"\x18", PoseEnd: b"\x19"}


def encode_text(text: str) -> bytes:
    """Text as wire bytes (latin-1, one byte per character; a 255 byte is doubled,
    as telnet requires)."""
    return escape(text)


def encode_unit_start(command: int, issuer: str, tag: str | None = None, end: str = "\n") -> bytes:
    """``^Y[<command> <issuer>[ <tag>]`` and a newline (icc-formats.txt section 3)."""
    header = f"\x19[{command} {issuer}" if tag is None else f"\x19[{command} {issuer} {tag}"
    return escape(header + end)


def encode_event(event: Event) -> bytes:
    """The wire bytes of one event."""
    if isinstance(event, DatagramRecord | UnknownDatagram):
        return encode_datagram(event)
    if isinstance(event, Text):
        text = event.text
        for at in reversed(event.bells):
            text = text[:at] + "\x07" + text[at:]
        return escape(text + event.end)
    if isinstance(event, Style12Line):
        return escape(format_style12(event.record) + event.end)
    if isinstance(event, BughouseLine):
        return escape(format_b1(event.record) + event.end)
    if isinstance(event, Style10Block):
        return escape(format_style10(event.record))
    if isinstance(event, Prompt):
        return escape(event.text)
    if isinstance(event, UnitStart):
        return encode_unit_start(event.command, event.issuer, event.tag, event.end)
    if isinstance(event, UnitEnd | SessionEnd):
        return UNIT_END
    if isinstance(event, CommandStart):
        return COMMAND_START
    if isinstance(event, CommandEnd):
        return COMMAND_END
    if isinstance(event, Overflow):
        return OVERFLOW
    if isinstance(event, Telnet | Error):
        return event.data
    if isinstance(event, IvarLine):
        return encode_text(format_ivar(event.record) + event.end)
    if isinstance(event, BlockStart):
        return format_header(event.id, event.code)
    if isinstance(event, BlockEnd | PoseStart | PoseEnd):
        return BLOCK_BYTES[type(event)]
    raise TypeError(f"not an event: {event!r}")


def encode_events(events: Iterable[Event]) -> bytes:
    """The wire bytes of a sequence of events, concatenated."""
    return b"".join(map(encode_event, events))
