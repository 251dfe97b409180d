"""FICS timeseal 1: the client's lines sealed with its own timestamps (FICS help ``timeseal``).

A timeseal client sends every line as ``line \\x18 timestamp \\x19 padding``, padded to a
multiple of 12 bytes, each 12-byte group with bytes 0/11, 2/9 and 4/7 swapped, then every
byte ``((b | 0x80) ^ KEY[(i + offset) % 50]) - 32``, then the byte ``0x80 | offset`` and a
newline. The timestamp is the client's clock in milliseconds; the server charges a player's
clock by the difference of two timestamps, not of its own receive times. This is what
PyChess's ``pychess/ic/TimeSeal.py`` sends (random offset 0..49, 1..12 random letters and
digits of padding; openseal and zseal pad with ``1`` and use offset 0). Bytes are 7-bit
once sealed: ``| 0x80`` drops the high bit.

The first line is the hello, ``TIMESTAMP|user|system|``. The server sends ``[G]\\n\\r``
(:data:`PING`) now and then and the client answers each with the sealed line ``\\x029``
(:data:`PONG`).

Timeseal 2 (zseal, the helper eboard runs) seals lines the same way with key offset 0; its
hello begins ``TIMESEAL2|`` and it answers only the ping ``[G]\\0`` (:data:`PING2`).
Both clocks wrap every :data:`STAMP_MODULUS` ms (PyChess: ``time * 1000 % 1e7``; zseal:
``(seconds % 10000) * 1000 + ms``): :func:`elapsed` takes that into account.

Sans-I/O, both sides: :func:`seal` and :func:`encode_sealed` (client), :class:`TimesealDecoder`
(server: bytes in, :class:`Hello`, :class:`Pong`, :class:`SealedLine` or
:class:`~icswire.protocol.events.Error` out) and :class:`PingFilter` (client: takes the pings
out of the server's output).
"""

from __future__ import annotations

from typing import Final, NamedTuple

from icswire.protocol.events import Error

__all__ = [
    "KEY",
    "PING",
    "PING2",
    "PONG",
    "Hello",
    "PingFilter",
    "Pong",
    "SealedLine",
    "TimesealDecoder",
    "elapsed",
    "encode_sealed",
    "hello_text",
    "seal",
    "unseal",
]

KEY: Final = b"Timestamp (FICS) v1.0 - programmed by Henrik Gram."
PING: Final = b"[G]\n\r"
PING2: Final = b"[G]\x00"
PONG: Final = "\x029"
HELLO_TAG: Final = "TIMESTAMP"
HELLO_TAG2: Final = "TIMESEAL2"
#: Client timestamps count milliseconds modulo this (about 2 h 47 min).
STAMP_MODULUS: Final = 10_000_000
DEFAULT_MAX_SIZE = 1 << 16
#: How much of a bad line an Error event keeps.
ERROR_SAMPLE = 1024

_GROUP: Final = 12
# Where each byte of a 12-byte group goes: 0<->11, 2<->9, 4<->7 (its own inverse).
_SWAP: Final = (11, 1, 9, 3, 7, 5, 6, 4, 8, 2, 10, 0)
_SEALED_BYTES: Final = bytes(range(0x60, 0xE0))  # what (x | 0x80) ^ key - 32 can be
_PLUS_32: Final = bytes((b + 32) & 0xFF for b in range(256))
_MINUS_32: Final = bytes((b - 32) & 0xFF for b in range(256))
_LOW_7: Final = bytes(b & 0x7F for b in range(256))
_HIGH_BIT: Final = bytes(b | 0x80 for b in range(256))


class SealedLine(NamedTuple):
    """A line the client sent, its ``timestamp`` (ms, the client's clock) and how it was
    sealed: the ``padding`` and the ``key_offset`` (0..49)."""

    text: str
    timestamp: int
    padding: str
    key_offset: int


class Hello(NamedTuple):
    """The first line, ``TIMESTAMP|user|system|`` (``TIMESEAL2|...`` from zseal): the
    client's user and system names, and which timeseal it speaks (``tag``)."""

    user: str
    system: str
    timestamp: int
    padding: str
    key_offset: int
    tag: str = HELLO_TAG

    @property
    def version(self) -> int:
        """1 (``TIMESTAMP``) or 2 (``TIMESEAL2``): which ping the client answers."""
        return 2 if self.tag == HELLO_TAG2 else 1


class Pong(NamedTuple):
    """The client's answer (``\\x029``) to a ``[G]`` ping, with its timestamp."""

    timestamp: int
    padding: str
    key_offset: int


TimesealEvent = SealedLine | Hello | Pong | Error


def _swap(data: bytes) -> bytes:
    return bytes(data[start + j] for start in range(0, len(data), _GROUP) for j in _SWAP)


def _key_stream(offset: int, length: int) -> bytes:
    return (KEY * ((offset + length) // len(KEY) + 1))[offset : offset + length]


def _xor(a: bytes, b: bytes) -> bytes:
    return (int.from_bytes(a, "big") ^ int.from_bytes(b, "big")).to_bytes(len(a), "big")


def seal(text: str, timestamp: int, *, key_offset: int = 0, padding: str | None = None) -> bytes:
    """The bytes a timeseal client sends for ``text``, newline included.

    ``padding`` defaults to the ``1``s up to the next multiple of 12 (openseal's choice);
    PyChess sends 1 to 12 random letters and digits and a random ``key_offset``. Raises
    ValueError for what cannot be sealed: text with bytes over 127 or ``\\x18``, a negative
    timestamp, a key offset outside 0..49, padding of the wrong length.
    """
    if not text.isascii() or "\x18" in text:
        raise ValueError(f"timeseal: text must be 7-bit without \\x18, got {text[:40]!r}")
    if timestamp < 0 or not 0 <= key_offset < len(KEY):
        raise ValueError(f"timeseal: bad timestamp {timestamp} or key offset {key_offset}")
    plain = f"{text}\x18{timestamp}\x19"
    if padding is None:
        padding = "1" * (-len(plain) % _GROUP)
    if not padding.isascii() or (len(plain) + len(padding)) % _GROUP:
        raise ValueError(f"timeseal: padding {padding!r} does not fill a 12-byte group")
    swapped = _swap((plain + padding).encode("ascii")).translate(_HIGH_BIT)
    body = _xor(swapped, _key_stream(key_offset, len(swapped))).translate(_MINUS_32)
    return body + bytes((0x80 | key_offset, 0x0A))


def hello_text(user: str, system: str, tag: str = HELLO_TAG) -> str:
    """The hello's text, ``TIMESTAMP|user|system|``, to :func:`seal` as the first line."""
    return f"{tag}|{user}|{system}|"


def elapsed(earlier: int, later: int) -> int:
    """Milliseconds from client timestamp ``earlier`` to ``later``, across the wrap."""
    return (later - earlier) % STAMP_MODULUS


def encode_sealed(event: SealedLine | Hello | Pong) -> bytes:
    """The bytes of a decoded event; inverse of :class:`TimesealDecoder`."""
    if isinstance(event, Hello):
        text = hello_text(event.user, event.system, event.tag)
    elif isinstance(event, Pong):
        text = PONG
    else:
        text = event.text
    return seal(text, event.timestamp, key_offset=event.key_offset, padding=event.padding)


def unseal(line: bytes) -> SealedLine:
    """Unseal one line (without its newline); ValueError if it is not a sealed line."""
    n = len(line)
    if n % _GROUP != 1 or n == 1:
        raise ValueError(f"timeseal: a sealed line is 12k+1 bytes long, got {n}")
    offset = line[-1] - 0x80
    if not 0 <= offset < len(KEY):
        raise ValueError(f"timeseal: bad key offset byte 0x{line[-1]:02x}")
    body = line[:-1]
    if body.translate(None, _SEALED_BYTES):
        raise ValueError("timeseal: a sealed byte must be in 0x60..0xdf")
    plain = _swap(_xor(body.translate(_PLUS_32), _key_stream(offset, n - 1)).translate(_LOW_7))
    text, mark, rest = plain.partition(b"\x18")
    stamp, end, padding = rest.partition(b"\x19")
    if not (mark and end and stamp.isdigit() and (stamp == b"0" or stamp[:1] != b"0")):
        raise ValueError("timeseal: no \\x18 timestamp \\x19 (ms as '%d' writes them) in the line")
    return SealedLine(text.decode("ascii"), int(stamp), padding.decode("ascii"), offset)


def _classify(sealed: SealedLine, first: bool) -> SealedLine | Hello | Pong:
    text, timestamp, padding, offset = sealed
    if text == PONG:
        return Pong(timestamp, padding, offset)
    parts = text.split("|")
    if first and len(parts) >= 4 and parts[0] in (HELLO_TAG, HELLO_TAG2) and parts[-1] == "":
        return Hello(parts[1], "|".join(parts[2:-1]), timestamp, padding, offset, parts[0])
    return sealed


class TimesealDecoder:
    """The server's side: feed the client's bytes, get one event per line (newline included
    in its bytes): the :class:`Hello` (first line only), :class:`Pong`, :class:`SealedLine`,
    or an :class:`~icswire.protocol.events.Error` for a line that is not sealed (decoding
    goes on at the next line). No line may pass ``max_size`` bytes."""

    def __init__(self, *, max_size: int = DEFAULT_MAX_SIZE) -> None:
        self.max_size = max_size
        self._buf = bytearray()
        self._base = 0  # stream offset of _buf[0]
        self._first = True
        self._dropped = 0  # bytes of a too long line dropped so far
        self._sample = b""

    @property
    def buffered(self) -> int:
        """How many bytes the decoder holds while waiting for the end of a line (of one too
        long, the start it keeps for the error)."""
        return len(self._buf) + len(self._sample)

    def feed(self, data: bytes) -> list[TimesealEvent]:
        """Decode a chunk; return the events of the lines it completed."""
        buf = self._buf
        buf += data
        events: list[TimesealEvent] = []
        pos = 0
        while (end := buf.find(b"\n", pos)) >= 0:
            events.append(self._line(bytes(buf[pos : end + 1]), self._base + pos))
            pos = end + 1
        del buf[:pos]
        self._base += pos
        if self._dropped or len(buf) > self.max_size:
            if not self._dropped:
                self._sample = bytes(buf[: self._sample_size])
            self._dropped += len(buf)
            self._base += len(buf)
            buf.clear()
        return events

    def close(self) -> list[TimesealEvent]:
        """The stream ended: an unfinished line is an error."""
        if not (self._buf or self._dropped):
            return []
        return [self._line(bytes(self._buf), self._base, "the stream ended inside a line")]

    @property
    def _sample_size(self) -> int:
        """How much of a too long line its Error keeps: what the limit let in."""
        return min(self.max_size + 1, ERROR_SAMPLE)

    def _line(self, data: bytes, start: int, problem: str = "") -> TimesealEvent:
        if self._dropped or len(data) - 1 > self.max_size:
            sample = self._sample if self._dropped else data[: self._sample_size]
            start -= self._dropped
            length = self._dropped + len(data)
            self._dropped = 0
            self._sample = b""
            return Error("timeseal: line too long", start, sample, length)
        first, self._first = self._first, False
        if problem:
            return Error(problem, start, data[:ERROR_SAMPLE], len(data))
        try:
            return _classify(unseal(data[:-1]), first)
        except ValueError as exc:
            return Error(str(exc), start, data[:ERROR_SAMPLE], len(data))


class PingFilter:
    """The client's side: takes the server's ``[G]\\n\\r`` pings out of its output, wherever
    they fall (as PyChess does); answer each with ``seal(PONG, now)``."""

    def __init__(self) -> None:
        self._held = b""  # the end of the last chunk, if it may start a ping

    def feed(self, data: bytes) -> tuple[bytes, int]:
        """The chunk without pings (some bytes may be held back until the next chunk) and
        how many pings it completed."""
        data = self._held + data
        count = data.count(PING)
        # Only bytes after the last ping may begin the next one: a ping taken out must not
        # join the bytes around it into another.
        after_last = data.rfind(PING) + len(PING) if count else 0
        held = 0
        for size in range(min(len(PING) - 1, len(data) - after_last), 0, -1):
            if data.endswith(PING[:size]):
                held = size
                break
        self._held = data[len(data) - held :] if held else b""
        kept = data[: len(data) - held]
        return (kept.replace(PING, b"") if count else kept), count

    def close(self) -> bytes:
        """The stream ended: the bytes held back."""
        held, self._held = self._held, b""
        return held
