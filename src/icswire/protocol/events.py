"""What the decoder finds in a stream, as small immutable records.

Every byte of a stream belongs to exactly one event, and :func:`icswire.protocol.encoder.
encode_event` gives each event's bytes back, so a stream re-encodes byte for byte.
Datagrams are their catalog records themselves (:mod:`icswire.protocol.datagrams`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple

from icswire.protocol.bughouse import Bughouse
from icswire.protocol.datagrams import DatagramRecord, UnknownDatagram
from icswire.protocol.style12 import Style12

if TYPE_CHECKING:  # loaded when a stream has such lines (the decoder imports them then)
    from icswire.protocol.ivars import IvarRecord
    from icswire.protocol.style10 import Style10


class Text(NamedTuple):
    """A line of text. ``end`` is its line ending (``\\n``, ``\\r\\n`` or FICS's ``\\n\\r``),
    or ``""`` when something else (a datagram, a unit bracket, a telnet command) cut the line.
    Bells (``^G``) are taken out of ``text``; ``bells`` says where they stood."""

    text: str
    end: str = "\n"
    bells: tuple[int, ...] = ()


class Prompt(NamedTuple):
    """A prompt at the start of a line, such as ``fics% `` or ``login: ``."""

    text: str


class UnitStart(NamedTuple):
    """``^Y[<command> <issuer>[ <tag>]`` and its newline: a level 1 unit opens.
    ``depth`` is 1 for a top-level unit, 2 inside it, and so on (icc-formats.txt section 3)."""

    command: int
    issuer: str
    tag: str | None
    depth: int
    end: str = "\n"


class UnitEnd(NamedTuple):
    """``^Y]`` closing the unit opened at ``depth``."""

    depth: int


class SessionEnd(NamedTuple):
    """The extra ``^Y]`` a level 1 user gets at disconnect, after all other output."""


class CommandStart(NamedTuple):
    """``^Y<``: the server starts on the user's command (level1 & 2)."""


class CommandEnd(NamedTuple):
    """``^Y>``: the server finished the user's command (level1 & 2)."""


class Overflow(NamedTuple):
    """``^Z``: the rest of a command's output was discarded (Appendix 3's output buffer)."""


class Telnet(NamedTuple):
    """A telnet command (IAC ...), e.g. the echo switches around a password prompt."""

    data: bytes


class Error(NamedTuple):
    """Bytes that could not be read: what was wrong, where they start in the stream, and
    the bytes themselves; of more than the decoder's ``max_size`` (a frame too long, the
    bytes dropped after it) only the first ``len(data)`` of ``length`` are kept. The
    decoder goes on after them."""

    message: str
    offset: int
    data: bytes
    length: int


class Style12Line(NamedTuple):
    """A ``<12>`` board line and its line ending."""

    record: Style12
    end: str = "\n"


class BughouseLine(NamedTuple):
    """A ``<b1>`` holdings line and its line ending."""

    record: Bughouse
    end: str = "\n"


class Style10Block(NamedTuple):
    """A style 10 board block (its line endings are in the record)."""

    record: Style10


class IvarLine(NamedTuple):
    """A line FICS sends for an interface variable (``<s>``, ``<pf>``, ``<g1>``, ...; see
    :mod:`icswire.protocol.ivars`) and its line ending."""

    record: IvarRecord
    end: str = "\n"


class BlockStart(NamedTuple):
    """FICS block mode: ``BLOCK_START id BLOCK_SEPARATOR code BLOCK_SEPARATOR`` opens the
    output of the client's command ``id`` (:mod:`icswire.protocol.block`); the events up to
    the matching :class:`BlockEnd` are that output."""

    id: int
    code: int


class BlockEnd(NamedTuple):
    """``BLOCK_END``: the block ``id`` ends (the innermost open one; None if none was open)."""

    id: int | None


class PoseStart(NamedTuple):
    """``BLOCK_POSE_START``: what follows is a command someone else ran for the user."""


class PoseEnd(NamedTuple):
    """``BLOCK_POSE_END`` (byte 0x19, in block mode only)."""


Event = (
    Text
    | Prompt
    | UnitStart
    | UnitEnd
    | SessionEnd
    | CommandStart
    | CommandEnd
    | Overflow
    | Telnet
    | Error
    | Style12Line
    | BughouseLine
    | Style10Block
    | IvarLine
    | BlockStart
    | BlockEnd
    | PoseStart
    | PoseEnd
    | DatagramRecord
    | UnknownDatagram
)

#: The ``"event"`` name of each kind of event in JSON Lines (``icswire decode``).
EVENT_NAMES: dict[type, str] = {
    Text: "text",
    Prompt: "prompt",
    UnitStart: "unit_start",
    UnitEnd: "unit_end",
    SessionEnd: "session_end",
    CommandStart: "command_start",
    CommandEnd: "command_end",
    Overflow: "overflow",
    Telnet: "telnet",
    Error: "error",
    Style12Line: "style12",
    BughouseLine: "b1",
    Style10Block: "style10",
    BlockStart: "block_start",
    BlockEnd: "block_end",
    PoseStart: "pose_start",
    PoseEnd: "pose_end",
}


def event_name(event: Event) -> str:
    """``"datagram"`` for datagrams, the record's name in
    :data:`~icswire.protocol.ivars.IVAR_NAMES` for interface variable lines, else the name
    in :data:`EVENT_NAMES`."""
    if isinstance(event, DatagramRecord | UnknownDatagram):
        return "datagram"
    if isinstance(event, IvarLine):
        from icswire.protocol.ivars import IVAR_NAMES

        return IVAR_NAMES[type(event.record)]
    return EVENT_NAMES[type(event)]


def __getattr__(name: str) -> Any:
    """:data:`~icswire.protocol.ivars.IVAR_NAMES`, imported on first use."""
    if name == "IVAR_NAMES":
        from icswire.protocol.ivars import IVAR_NAMES

        return IVAR_NAMES
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
