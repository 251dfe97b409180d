"""The incremental decoder: feed it bytes as they arrive, get events out in order.

Sans-I/O, like h11: :class:`Decoder` never reads a socket. ``feed(chunk)`` returns the
events completed by that chunk; feeding a stream one byte at a time gives exactly the
events it gives all at once, because the decoder only ever decides on complete frames:

- text lines (ending ``\\n``, ``\\r\\n`` or FICS's ``\\n\\r``), with prompts such as
  ``fics% `` split off the start of a line, bells taken out and telnet commands apart;
- ``<12>`` and ``<b1>`` lines (also when a frame or the end of the stream cuts them) and
  style 10 blocks, as records;
- level 1 (icc-formats.txt section 3): ``^Y[cn issuer[ tag]`` unit starts, ``^Y]`` unit
  ends (and the extra one at disconnect), ``^Y<``/``^Y>`` command brackets, ``^Z`` overflow;
- level 2 (section 4): ``^Y(...^Y)`` datagrams, decoded by the DG catalog in the form the
  receiver's settings give them (DG_SET2 acknowledgements update those settings);
- FICS interface variable lines (``<s>``, ``<sr>``, ``<pf>``, ``<g1>``, ``<wa>`` ...) as
  records (:mod:`icswire.protocol.ivars`);
- in FICS block mode (``block_mode``, :mod:`icswire.protocol.block`), block headers and the
  block end and pose bytes; byte 0x19 is then FICS's ``BLOCK_POSE_END``, not control-Y, and
  a block's output comes as the usual events between its start and end.

Telnet (:mod:`icswire.protocol.telnet`): IAC IAC is a data byte 255, in text, headers and
datagrams alike; any other IAC command between frames is a :class:`Telnet` event.

Each byte is scanned once, however the stream is cut: a frame still waiting for its end
keeps where the search for that end left off (``_hint``), and pending text is kept as it
came, so a long unfinished frame fed a byte at a time costs time in proportion to its
length, not to its square.

Every event re-encodes to its bytes (:func:`~icswire.protocol.encoder.encode_event`): a
datagram in another form than the encoder's keeps its wire bytes as ``raw``; a board line
or level 1 header in another form than the encoder's is an error.

Malformed bytes become an :class:`~icswire.protocol.events.Error` with the bytes and their
offset, and decoding goes on after them. No frame may grow past ``max_size`` bytes (1 MiB
by default): past that the decoder reports an error, drops the frame and resynchronises
at the next control-Y or control-Z (or the next newline, for an endless text line).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable
from typing import Any

from icswire.protocol.bughouse import parse_b1
from icswire.protocol.datagrams import (
    DG,
    RECORDS,
    DatagramRecord,
    Record,
    bare_form,
    canonical_pattern,
    canonical_reader,
    decode_fields,
    decoder_for,
    encode_datagram,
)
from icswire.protocol.datagrams import Decoder as DatagramDecoder
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
from icswire.protocol.level2 import split_fields
from icswire.protocol.style12 import parse_style12
from icswire.protocol.telnet import IAC, OPTION_COMMANDS, SB, escape, unescape

DEFAULT_PROMPTS: tuple[str, ...] = ("fics% ", "aics% ", "login: ", "password: ")
DEFAULT_MAX_SIZE = 1 << 20
#: How much of more than ``max_size`` bytes (a frame too long, bytes dropped while
#: resynchronising) an Error event keeps; other errors keep all their bytes.
ERROR_SAMPLE = 1024
#: Longest ``^Y[`` header line: a command number, a name and a tag of at most 99 characters.
HEADER_MAX = 256
#: How far the lane looks for the newline of a line with memchr (farther, with the pattern
#: of the bytes the scanner stops at: a frame may come first).
LINE_LOOKAHEAD = 1024
#: How many datagrams of one DG the decoder reads the general way (split, decode, encode
#: again to compare) before it compiles the one-pass reader of that DG's canonical form.
GENERAL_READS = 32

_SPECIAL = re.compile(rb"[\n\r\x19\x1a\xff]")


def _is_number(word: str) -> bool:
    """ASCII digits only (``str.isdigit`` also takes ``²``, which ``int`` refuses)."""
    return word.isascii() and word.isdigit()


_exact_style12 = functools.partial(parse_style12, exact=True)
_exact_b1 = functools.partial(parse_b1, exact=True)
_SPECIAL_BLOCK_MODE = re.compile(rb"[\n\r\x15-\x1a\xff]")
#: How many open FICS blocks the decoder remembers (FICS nests two: a pose and its block).
MAX_OPEN_BLOCKS = 8
_CONTROL = re.compile(rb"[\x19\x1a]")
# A whole datagram: no control-Y inside but those quoting strings, no control-Z.
_WHOLE_DATAGRAM = re.compile(rb"\x19\([^\x19\x1a]*(?:\x19[{}][^\x19\x1a]*)*\x19\)")
# A whole datagram of bare fields one space apart, as the encoder writes them: no quotes,
# no other blank, no 0xFF, and no field int() reads that str() writes otherwise (a field
# begins with neither 0 nor + nor -0, unless it is 0, and holds no _). A bare form
# (datagrams.bare_form) re-encodes such a datagram to the same bytes: it needs no check.
_NOT_IN_FIELD = rb"\t-\r\x1c-\x20{}\x19\x1a\x85\xa0\xff_"
_PLAIN_FIELD = rb"(?:0|-?[^" + _NOT_IN_FIELD + rb"0+\-][^" + _NOT_IN_FIELD + rb"]*+)"
_PLAIN_RUN = re.compile(rb"(?:\x19\(" + _PLAIN_FIELD + rb"(?: " + _PLAIN_FIELD + rb")*+\x19\))++")
_BETWEEN = "\x19)\x19("  # between two datagrams of a run
# A level 1 header line as encode_unit_start writes it (after the ^Y[).
_HEADER_CHAR = r"[^ \r\n\x19\x1a\xff]"  # or IAC IAC, a 0xFF as the wire carries it
_HEADER_WORD = rf"((?:{_HEADER_CHAR}|\xff\xff){_HEADER_CHAR}*+(?:\xff\xff{_HEADER_CHAR}*+)*+)"
_HEADER = re.compile(f"(0|[1-9][0-9]*+) {_HEADER_WORD}(?: {_HEADER_WORD})?(\r?\n)")
_NEWLINE = re.compile(rb"\n")
_RESYNC = re.compile(rb"\x19[()<>\[\]]|\x1a")  # where a frame can begin (or a datagram end)
_SET2 = int(DG.SET2)
_new = tuple.__new__


class Decoder:
    """Decode a server-to-client stream.

    ``datagrams`` are the DG numbers the receiver has on (they decide the form of
    DG_SEND_MOVES, DG_PLAYER_ARRIVED, DG_MATCH ...); change them with
    :meth:`set_datagram` or let :meth:`note_command` follow what the client sends.
    ``block_mode`` says the stream is a FICS session in block mode (``iset block 1``; also
    :meth:`set_block_mode` and :meth:`note_command`): bytes 0x15 to 0x19 are then FICS's
    block bytes, and no ICC frame is read.

    >>> d = Decoder(datagrams=[24, 33])
    >>> d.feed(b"fics% \\x19(24 7 e4\\x19)")
    [Prompt(text='fics% '), SendMoves(gamenumber=7, algebraic='e4', smith=None, ...)]
    """

    def __init__(
        self,
        datagrams: Iterable[int] = (),
        *,
        max_size: int = DEFAULT_MAX_SIZE,
        prompts: Iterable[str] = DEFAULT_PROMPTS,
        block_mode: bool = False,
    ) -> None:
        self.max_size = max_size
        self._prompts = tuple(escape(p) for p in prompts if p)
        self._prompt_starts = frozenset(p[0] for p in self._prompts)
        # the prompts the scanner can take straight from the buffer: those without a byte
        # it stops at (the others are found in the pending text, as a cut line is)
        self._plain_prompts = tuple(
            (p, _new(Prompt, (unescape(p.decode("latin-1")),)))
            for p in self._prompts
            if _SPECIAL_BLOCK_MODE.search(p) is None
        )
        self._enabled = set(datagrams)
        # documented DGs, by number text: how to read them, and how they are written
        self._readers: dict[str, tuple[DatagramDecoder, re.Pattern[str] | None]] = {}
        self._bare: dict[str, DatagramDecoder] = {}  # those of bare forms, by number text
        # documented DGs, by number text: their canonical bodies read in one pass
        self._canonical: dict[str, Callable[[str], Record | None]] = {}
        # documented DGs, by number text: how many were read the general way, until
        # GENERAL_READS (then _canonical or _readers has what reads them faster)
        self._general: dict[str, int] = {}
        self._buf = bytearray()
        self._base = 0  # stream offset of _buf[0]
        self._mark = 0  # stream offset where the next event's bytes begin
        self._line = bytearray()  # the pending text, as wire bytes (bells, IAC IAC and all)
        self._depth = 0
        self._block: list[str] | None = None  # style 10 lines collected so far
        self._block_need = 0
        self._block_size = 0
        self._block_end = 0
        self._skip: re.Pattern[bytes] | None = None
        self._skipped = bytearray()
        self._skip_count = 0
        # (stream offset of an unfinished datagram or telnet subnegotiation, where to
        # resume looking for its end): each of its bytes is searched once, however fed
        self._hint = (-1, 0)
        self._block_mode = block_mode
        self._special = _SPECIAL_BLOCK_MODE if block_mode else _SPECIAL
        self._open_blocks: list[int] = []  # ids of the FICS blocks started and not ended
        self._events: list[Event] = []
        #: Set to a list to have the stream offset just past each event's bytes appended
        #: to it (each event's bytes begin where the previous event's end).
        self.ends: list[int] | None = None

    # -- settings --------------------------------------------------------------------

    @property
    def datagrams(self) -> frozenset[int]:
        """The DG numbers the receiver has on, as the decoder knows them."""
        return frozenset(self._enabled)

    def set_datagrams(self, datagrams: Iterable[int]) -> None:
        self._enabled = set(datagrams)
        self._readers = {}
        self._bare = {}
        self._canonical = {}
        self._general = {}

    def set_datagram(self, dg: int, on: bool) -> None:
        """One DG on or off; its cost does not grow with how many are on (a stream may
        acknowledge any number of set-2s)."""
        if on:
            self._enabled.add(dg)
        else:
            self._enabled.discard(dg)
        self._readers = {}
        self._bare = {}
        self._canonical = {}
        self._general = {}

    @property
    def block_mode(self) -> bool:
        """Whether the stream is in FICS block mode (``iset block 1``)."""
        return self._block_mode

    def set_block_mode(self, on: bool) -> None:
        self._block_mode = on
        self._special = _SPECIAL_BLOCK_MODE if on else _SPECIAL

    def note_command(self, line: str) -> None:
        """Follow a line the client sends: ``set-2 N 0|1`` and ``level2settings=0101...``
        (with or without a leading ``$`` or backquote tag) change the settings, and
        ``iset block 0|1`` (in block mode after the command's number) the block mode."""
        text = line.strip()
        if text.startswith("`"):
            text = text[text.find("`", 1) + 1 :] if text.count("`") > 1 else text
        text = text.lstrip("$")
        if text.startswith("level2settings="):
            bits = text.partition("=")[2].strip()
            self.set_datagrams(n for n, bit in enumerate(bits) if bit == "1")
            return
        words = text.split()
        if len(words) >= 3 and words[0] == "set-2" and _is_number(words[1]):
            self.set_datagram(int(words[1]), words[2] != "0")
        if self._block_mode and words and _is_number(words[0]):
            del words[0]
        if len(words) >= 3 and words[0] == "iset" and words[1] == "block":
            self.set_block_mode(words[2] != "0")

    # -- feeding ---------------------------------------------------------------------

    @property
    def offset(self) -> int:
        """How many bytes of the stream have been fed."""
        return self._base + len(self._buf)

    @property
    def buffered(self) -> int:
        """How many bytes the decoder holds while waiting for the rest of a frame."""
        return len(self._buf) + len(self._line) + self._block_size + len(self._skipped)

    def feed(self, data: bytes) -> list[Event]:
        """Decode a chunk; return the events it completed, in stream order."""
        events: list[Event] = []
        self._events = events
        self._buf += data
        self._run()
        return events

    def close(self) -> list[Event]:
        """The stream ended: return what the last bytes make (an unfinished line as text,
        an unfinished frame as an error)."""
        events: list[Event] = []
        self._events = events
        buf = self._buf
        if self._skip is not None:  # only an unpaired control-Y can be left
            self._skip_count += len(buf)
            self._skipped += buf
            self._skipped_bytes(len(buf))
        elif buf == b"\n":
            self._finish_line("\n", self._base + 1)
        elif buf == b"\r":
            self._line += buf
        elif buf:
            self._flush(self._base)
            self._emit_error("the stream ended inside a frame", self._base, bytes(buf))
        self._base += len(buf)
        buf.clear()
        self._flush(self._base)
        return events

    # -- the scanner -----------------------------------------------------------------

    def _emit(self, event: Any, end: int) -> None:
        self._events.append(event)
        if self.ends is not None:
            self.ends.append(end)
        self._mark = end

    def _emit_error(self, message: str, offset: int, data: bytes, end: int | None = None) -> None:
        """An Error for bytes of at most ``max_size``: it keeps them all."""
        self._emit(Error(message, offset, data, len(data)), end or offset + len(data))

    def _run(self) -> None:
        buf = self._buf
        n = len(buf)
        base = self._base
        pos = 0
        line = self._line
        search = self._special.search
        datagrams = not self._block_mode
        while pos < n:
            if self._skip is not None:
                end = self._skip_to(pos)
                if self._skip is not None and end == pos:
                    break  # an unpaired control-Y at the end: wait for the next byte
                pos = end
                continue
            if not line and self._block is None:
                pos = self._lane(pos)
                if pos == n:
                    break
            # the general way, one step: text that waits for its end, control bytes
            m = search(buf, pos)
            i = n if m is None else m.start()
            if i > pos:
                line += buf[pos:i]
                pos = i
                if self._prompts and line.startswith(self._prompts):
                    self._split_prompts()
                if len(line) + self._block_size > self.max_size:
                    self._line_too_long()
                    continue
                if m is None:
                    break
            c = buf[i]
            end = -1  # where scanning goes on; -1: the frame at i needs more bytes
            if c == 0x0A:  # \n, maybe followed by \r (FICS)
                if i + 1 < n:
                    end = i + 2 if buf[i + 1] == 0x0D else i + 1
                    self._finish_line("\n\r" if end == i + 2 else "\n", base + end)
            elif c == 0x0D:  # \r\n, or a lone \r kept in the text
                if i + 1 < n:
                    if buf[i + 1] == 0x0A:
                        end = i + 2
                        self._finish_line("\r\n", base + end)
                    else:
                        self._grow_line(b"\r")
                        end = i + 1
            elif not datagrams and 0x15 <= c <= 0x19:
                self._flush(base + i)
                end = self._block_byte(i)
            elif c == 0x19:
                self._flush(base + i)  # every control-Y frame ends pending text
                if i + 1 < n:
                    end = self._control_y(i, buf[i + 1])
            elif c == 0x1A:
                self._flush(base + i)
                self._emit(Overflow(), base + i + 1)
                end = i + 1
            else:  # telnet IAC
                end = self._telnet(i)
            if end >= 0:
                pos = end
            elif n - i > self.max_size:
                pos = self._frame_too_long(i)
            else:
                break
        del buf[:pos]
        self._base = base + pos

    def _lane(self, i: int) -> int:
        """The hot path, taken while no text is pending: from ``i`` on, the frames a busy
        stream is made of, each decoded at once (runs of datagrams, level 1 unit starts and
        ends, plain prompts, whole lines). Returns where it stops: at the end of the buffer,
        or at anything else (a frame cut by the end of the buffer, an error, a telnet
        command, a line that ends otherwise), which the general step of :meth:`_run` takes.
        It gives the events that the general step gives for the same bytes."""
        buf = self._buf
        n = len(buf) - 1  # a frame here is two bytes or more; a line's end needs the next byte
        base = self._base
        events = self._events
        ends = self.ends
        search = self._special.search
        datagrams = not self._block_mode
        prompt_starts = self._prompt_starts
        limit = self.max_size
        hint = self._hint[0] - base  # a datagram whose end _datagram is still looking for
        header_room = 2 + min(HEADER_MAX, limit - 2)  # as _unit_start looks for a newline
        bare = self._bare
        while i < n:
            first = buf[i]
            if first == 0x19 and datagrams:
                kind = buf[i + 1]
                if kind == 0x28 and i != hint:  # ( a datagram, most often a run of them
                    m = _PLAIN_RUN.match(buf, i)
                    if m is not None:  # a run of plain datagrams: one decode, one split
                        j = m.end()
                        bodies = buf[i + 2 : j - 2].decode("latin-1").split(_BETWEEN)
                        long = j - i >= limit + 2  # then each one's length is checked
                        done = len(events)
                        for body in bodies:
                            values = body.split(" ")
                            decode = bare.get(values[0])  # never DG_SET2's: it changes forms
                            if decode is None or (long and len(body) + 4 >= limit + 2):
                                break  # read below in any form, or left to _datagram
                            try:
                                events.append(decode(values, values))
                            except (ValueError, IndexError, KeyError):
                                break
                        done = len(events) - done
                        if ends is not None:
                            for body in bodies[:done]:
                                i += len(body) + 4
                                ends.append(base + i)
                        elif done == len(bodies):
                            i = j
                        else:
                            i += sum(map(len, bodies[:done])) + 4 * done
                        if done == len(bodies):
                            continue
                    # one datagram in any form (quoted strings, other blanks, a DG seen first)
                    m = _WHOLE_DATAGRAM.match(buf, i)
                    if m is None:
                        break
                    j = m.end()
                    if j - i >= limit + 2:  # the closing ^Y) must start within max_size bytes
                        break
                    try:
                        record = self._take_datagram(m[0])
                    except (ValueError, IndexError, KeyError):
                        break
                    bare = self._bare  # a DG_SET2 makes a new one
                    events.append(record)
                    i = j
                    if ends is not None:
                        ends.append(base + i)
                    continue
                if kind == 0x5D and self._depth:  # ] the innermost unit ends
                    events.append(_new(UnitEnd, (self._depth,)))
                    self._depth -= 1
                    i += 2
                    if ends is not None:
                        ends.append(base + i)
                    continue
                if kind == 0x5B:  # [ a unit starts: its header line, when whole and canonical
                    j = buf.find(b"\n", i + 2, i + header_room)
                    if j < 0:
                        break
                    header = buf[i + 2 : j + 1].decode("latin-1")
                    unit = _HEADER.fullmatch(header)
                    if unit is None or "\xff" in header:
                        break  # an error, or IAC IAC to undo: the general step
                    command, issuer, tag, end = unit.groups()
                    self._depth += 1
                    events.append(_new(UnitStart, (int(command), issuer, tag, self._depth, end)))
                    i = j + 1
                    if ends is not None:
                        ends.append(base + i)
                    continue
                break
            if first in prompt_starts:
                taken = False
                for prompt, event in self._plain_prompts:
                    if buf.startswith(prompt, i):
                        i += len(prompt)
                        events.append(event)
                        if ends is not None:
                            ends.append(base + i)
                        taken = True
                        break
                if taken:
                    continue
                if buf.startswith(self._prompts, i):
                    break  # a prompt cut by the end of the buffer, or not plain
            # a whole line of text, read straight from buf: its newline found at memory
            # speed when it is near (outside block mode), the text then checked for the
            # other bytes the scanner stops at (a lone \r it would keep in the text)
            j = buf.find(b"\n", i, i + LINE_LOOKAHEAD) if datagrams else -1
            if j >= 0:
                if j >= n:
                    break
                if j > i and buf[j - 1] == 0x0D:
                    j -= 1
                    end, ending = j + 2, "\r\n"
                elif buf[j + 1] == 0x0D:
                    end, ending = j + 2, "\n\r"
                else:
                    end, ending = j + 1, "\n"
                if j - i > limit:
                    break
                text = buf[i:j].decode("latin-1")
                if "\x19" in text or "\x1a" in text or "\xff" in text:
                    break
            else:
                m = search(buf, i)
                if m is None:
                    break
                j = m.start()
                if j >= n or j - i > limit:
                    break
                c = buf[j]
                if c == 0x0A:
                    if buf[j + 1] == 0x0D:
                        end, ending = j + 2, "\n\r"
                    else:
                        end, ending = j + 1, "\n"
                elif c == 0x0D and buf[j + 1] == 0x0A:
                    end, ending = j + 2, "\r\n"
                else:
                    break
                text = buf[i:j].decode("latin-1")
            if first == 0x3C and text.startswith("<12> ") and "\x07" not in text:
                # parsed once: a board, or an error with the line's bytes (from _mark)
                self._mark = base + i
                self._parsed_line(_exact_style12, Style12Line, text, ending, base + end)
                i = end
                continue
            if first != 0x3C and first != 0x22 and "\x07" not in text:  # not < nor "
                events.append(_new(Text, (text, ending, ())))
                if ends is not None:
                    ends.append(base + end)
                i = end
                continue
            self._mark = base + i
            self._line_done(text, ending, base + end)
            if self._block is not None:
                return end  # a style 10 block begins where _mark is: its lines wait for it
            i = end
        self._mark = base + i
        return i

    def _control_y(self, i: int, kind: int) -> int:
        """Handle a frame starting with control-Y at ``i`` (pending text is already out);
        return where scanning goes on, or -1 to wait for more bytes."""
        buf = self._buf
        base = self._base
        if kind == 0x28:  # ( datagram
            return self._datagram(i)
        if kind == 0x5B:  # [ unit header
            return self._unit_start(i)
        if kind == 0x5D:  # ] unit end
            self._unit_end(base + i + 2)
        elif kind == 0x3C:  # <
            self._emit(CommandStart(), base + i + 2)
        elif kind == 0x3E:  # >
            self._emit(CommandEnd(), base + i + 2)
        else:
            self._emit_error("control-Y outside a frame", base + i, bytes(buf[i : i + 2]))
        return i + 2

    def _unit_end(self, end: int) -> None:
        """``^Y]``: the innermost unit ends; with none open, the session does."""
        if self._depth:
            self._emit(_new(UnitEnd, (self._depth,)), end)
            self._depth -= 1
        else:
            self._emit(SessionEnd(), end)

    def _block_byte(self, i: int) -> int:
        """Handle a FICS block mode byte at ``i`` (pending text is already out); return
        where scanning goes on, or -1 to wait for the rest of a block header."""
        from icswire.protocol.block import (  # loaded for streams in block mode only
            BLOCK_END,
            BLOCK_POSE_START,
            BLOCK_SEPARATOR,
            BLOCK_START,
            HeaderError,
            read_header,
        )

        buf = self._buf
        base = self._base
        c = buf[i]
        if c == BLOCK_START:
            try:
                header = read_header(buf, i)
            except HeaderError as exc:
                self._emit_error(str(exc), base + i, bytes(buf[i : i + exc.length]))
                return i + exc.length
            if header is None:
                return -1
            block_id, code, end = header
            self._open_blocks.append(block_id)
            del self._open_blocks[:-MAX_OPEN_BLOCKS]
            self._emit(BlockStart(block_id, code), base + end)
            return end
        if c == BLOCK_END:
            self._emit(
                BlockEnd(self._open_blocks.pop() if self._open_blocks else None), base + i + 1
            )
        elif c == BLOCK_SEPARATOR:
            self._emit_error(
                "block separator outside a block header", base + i, bytes(buf[i : i + 1])
            )
        else:
            self._emit(PoseStart() if c == BLOCK_POSE_START else PoseEnd(), base + i + 1)
        return i + 1

    def _datagram(self, i: int) -> int:
        buf = self._buf
        base = self._base
        n = len(buf)
        k = self._hint[1] - base if self._hint[0] == base + i else i + 2
        while True:
            m = _CONTROL.search(buf, k)
            if m is None:
                self._hint = (base + i, base + n)
                return -1
            j = m.start()
            if j - i >= self.max_size:  # no end within max_size bytes, however fed
                return self._frame_too_long(i)
            if buf[j] == 0x1A:
                break
            if j + 1 >= n:
                self._hint = (base + i, base + j)
                return -1
            after = buf[j + 1]
            if after == 0x29:  # ^Y) closes the datagram
                self._datagram_body(bytes(buf[i : j + 2]), base + i, base + j + 2)
                return j + 2
            if after != 0x7B and after != 0x7D:  # ^Y{ and ^Y} quote strings inside
                break
            k = j + 2
        self._emit_error("unterminated datagram", base + i, bytes(buf[i:j]))
        return j

    def _datagram_body(self, wire: bytes, start: int, end: int) -> None:
        try:
            record = self._take_datagram(wire)
        except (ValueError, IndexError, KeyError) as exc:
            message = str(exc)
            try:
                decode_fields(*split_fields(unescape(wire[2:-2].decode("latin-1"))), self._enabled)
            except ValueError as explained:
                message = str(explained)
            self._emit_error(f"bad datagram: {message}", start, wire)
            return
        self._emit(record, end)

    def _take_datagram(self, wire: bytes) -> Record:
        """Decode a whole ``^Y(...^Y)`` written in any form (ValueError, IndexError or
        KeyError if it cannot be read) and follow it if it is a DG_SET2. A record whose
        canonical encoding is other bytes keeps these as ``raw``."""
        body = wire[2:-2].decode("latin-1")
        read = self._canonical.get(body.partition(" ")[0])
        if read is not None and "\xff" not in body:
            found = read(body)
            if found is not None:
                if found.dg == _SET2:
                    self._follow_set2(found)
                return found
        values, tokens = split_fields(unescape(body) if "\xff" in body else body)
        key = values[0]
        reader = self._readers.get(key)
        if reader is None:
            dg = int(key)
            reader = (decoder_for(dg, self._enabled), None)
            if dg in RECORDS and key == str(dg):  # the cache stays as small as the catalog
                self._readers[key] = reader
                if bare_form(dg) and dg != _SET2:
                    self._bare[key] = reader[0]
                self._general[key] = 0
        decode, written = reader
        record = decode(values, tokens)
        if key in self._general:
            self._general[key] += 1
            if self._general[key] == GENERAL_READS:
                self._compile_canonical(key)
        # the pattern tells most datagrams at once (not with a 0xFF, which the wire doubles);
        # encoding the record again tells any
        canonical = (
            written is not None and "\xff" not in body and written.fullmatch(body) is not None
        )
        if not canonical and encode_datagram(record) != wire:
            record.raw = wire
        if record.dg == _SET2:
            self._follow_set2(record)
        return record

    def _compile_canonical(self, key: str) -> None:
        """DG ``key`` came often enough: compile what reads its canonical bodies in one
        pass, or else the pattern that tells them (regular expressions that take longer
        to compile than a few datagrams take to read and re-encode)."""
        dg = int(key)
        one_pass = canonical_reader(dg, self._enabled)
        if one_pass is not None:
            # a body the one-pass reader refuses is not canonical: no pattern needed then
            self._canonical[key] = one_pass
        else:
            self._readers[key] = (self._readers[key][0], canonical_pattern(dg, self._enabled))

    def _follow_set2(self, record: Any) -> None:
        """DG_SET2 (dg-code on/off) acknowledges a set-2: later datagrams take that form."""
        if isinstance(record, DatagramRecord):
            self.set_datagram(int(record[0]), bool(record[1]))

    def _unit_start(self, i: int) -> int:
        buf = self._buf
        base = self._base
        # its newline must come within HEADER_MAX bytes, and within max_size: else waiting
        # for it could end in a frame too long, or not, depending on how the bytes came
        stop = i + 2 + min(HEADER_MAX, self.max_size - 2)
        j = buf.find(b"\n", i + 2, stop)
        if j < 0:
            if len(buf) < stop:
                return -1
            self._emit_error("level 1 header without end of line", base + i, bytes(buf[i : i + 2]))
            return i + 2
        header = buf[i + 2 : j + 1].decode("latin-1")
        m = _HEADER.fullmatch(header)
        if m is None:
            self._emit_error("bad level 1 header", base + i, bytes(buf[i : j + 1]))
            return j + 1
        command, issuer, tag, end = m.groups()
        if "\xff" in header:
            issuer = unescape(issuer)
            tag = tag and unescape(tag)
        self._depth += 1
        self._emit(_new(UnitStart, (int(command), issuer, tag, self._depth, end)), base + j + 1)
        return j + 1

    def _telnet(self, i: int) -> int:
        buf = self._buf
        n = len(buf)
        if i + 1 >= n:
            return -1
        command = buf[i + 1]
        if command == IAC:  # IAC IAC: a data byte 255, kept as it came until the line ends
            self._grow_line(b"\xff\xff")
            return i + 2
        if command == SB:
            self._flush(self._base + i)  # pending text and a subnegotiation never pile up
            start = self._hint[1] - self._base if self._hint[0] == self._base + i else i + 2
            j = buf.find(b"\xff\xf0", start)
            if j < 0:  # IAC SE not yet in: search again from the last byte, which may be IAC
                self._hint = (self._base + i, self._base + max(n - 1, i + 2))
                return -1
            if j - i >= self.max_size:
                return self._frame_too_long(i)
            end = j + 2
        elif command in OPTION_COMMANDS:
            end = i + 3
            if end > n:
                return -1
        else:
            end = i + 2
        self._flush(self._base + i)
        self._emit(Telnet(bytes(buf[i:end])), self._base + end)
        return end

    # -- lines -----------------------------------------------------------------------

    def _split_prompts(self) -> None:
        line = self._line
        matched = True
        while matched:
            matched = False
            for prompt in self._prompts:  # at each place, the first prompt that fits
                if line.startswith(prompt):
                    if self._block is not None:
                        self._abort_block()
                    del line[: len(prompt)]
                    text = unescape(prompt.decode("latin-1"))
                    self._emit(_new(Prompt, (text,)), self._mark + len(prompt))
                    matched = True
                    break

    def _finish_line(self, end: str, stop: int) -> None:
        """The pending line ended at stream offset ``stop`` (just past its line ending)."""
        text = unescape(self._line.decode("latin-1"))  # the only line that may hold IAC IAC
        self._line.clear()
        self._line_done(text, end, stop)

    def _line_done(self, text: str, end: str, stop: int) -> None:
        """A whole line (``end`` is ``""`` when a frame or the end of the stream cut it):
        a board line, part of a style 10 block, or text. A line with bells is text."""
        if "\x07" in text:
            self._bell_line(text, end, stop)
            return
        if self._block is not None and self._add_block_line(text, end, stop):
            return
        first = text[:1]
        if first == "<":
            if text.startswith("<12> "):
                return self._parsed_line(_exact_style12, Style12Line, text, end, stop)
            if text.startswith("<b1> "):
                return self._parsed_line(_exact_b1, BughouseLine, text, end, stop)
            from icswire.protocol.ivars import ivar_parser  # FICS interface variable lines

            parse = ivar_parser(text)
            if parse is not None:
                return self._parsed_line(parse, IvarLine, text, end, stop)
        if end and (first == "<" or first == '"'):
            from icswire.protocol.style10 import STYLE10_BLOCK_LINES  # a style 10 header?

            need = STYLE10_BLOCK_LINES.get(text.rstrip())
            if need is not None:
                self._block = [text + end]
                self._block_size = len(text)
                self._block_need = need
                self._block_end = stop
                return None
        self._events.append(_new(Text, (text, end, ())))
        if self.ends is not None:
            self.ends.append(stop)
        self._mark = stop
        return None

    def _parsed_line(
        self, parse: Callable[[str], Any], event: type, text: str, end: str, stop: int
    ) -> None:
        """A board or interface line read by ``parse``, which accepts only what encodes
        back to the same text (else the line is an error with all its bytes)."""
        try:
            record = parse(text)
        except ValueError as exc:
            self._emit_error(str(exc), self._mark, escape(text + end), stop)
            return
        self._events.append(_new(event, (record, end)))
        if self.ends is not None:
            self.ends.append(stop)
        self._mark = stop

    def _bell_line(self, text: str, end: str, stop: int) -> None:
        """Text with bells (``^G``): taken out of the text, their places kept."""
        if self._block is not None:
            self._abort_block()
        parts = text.split("\x07")
        bells = []
        at = 0
        for part in parts[:-1]:
            at += len(part)
            bells.append(at)
        self._emit(_new(Text, ("".join(parts), end, tuple(bells))), stop)

    def _add_block_line(self, text: str, end: str, stop: int) -> bool:
        """Take a line into the style 10 block; False if it cannot belong to it."""
        block = self._block
        if block is None:
            raise RuntimeError("block is None")
        if 1 <= len(block) <= 8 and not text.startswith("|"):
            self._abort_block()
            return False
        block.append(text + end)
        self._block_size += len(text)
        self._block_end = stop
        if len(block) == self._block_need:
            self._block = None
            self._block_size = 0
            from icswire.protocol.style10 import parse_style10

            try:
                record = parse_style10(block, exact=True)
            except ValueError as exc:
                data = escape("".join(block))
                self._emit_error(f"bad style 10 block: {exc}", self._mark, data, stop)
            else:
                self._emit(Style10Block(record), stop)
        return True

    def _abort_block(self) -> None:
        block = self._block
        if block is None:
            raise RuntimeError("block is None")
        self._block = None
        self._block_size = 0
        data = escape("".join(block))
        self._emit_error("unfinished style 10 block", self._mark, data, self._block_end)

    def _flush(self, at: int) -> None:
        """Something other than text starts at stream offset ``at``: what text is pending
        goes out first (an unfinished line with no line ending)."""
        if self._block is not None:
            self._abort_block()
        if self._line:
            self._finish_line("", at)

    # -- limits ----------------------------------------------------------------------

    def _grow_line(self, data: bytes) -> None:
        self._line += data
        if len(self._line) + self._block_size > self.max_size:
            self._line_too_long()

    def _line_too_long(self) -> None:
        """The pending text passed ``max_size``: report its first ``max_size + 1`` bytes,
        drop the rest of the line up to its line ending."""
        if self._block is not None:
            self._abort_block()
            if len(self._line) <= self.max_size:
                return
        line = self._line
        cut = self.max_size + 1
        sample = bytes(line[: min(cut, ERROR_SAMPLE)])
        self._emit(Error("text line too long", self._mark, sample, cut), self._mark + cut)
        self._skip = _NEWLINE
        self._skipped += line[cut : cut + ERROR_SAMPLE]
        self._skip_count = len(line) - cut
        line.clear()

    def _frame_too_long(self, i: int) -> int:
        """The frame at ``i`` has no end within ``max_size`` bytes: report those bytes and
        resynchronise at the next frame boundary. Returns where the dropping starts."""
        buf = self._buf
        start = self._base + i
        self._flush(start)
        data = bytes(buf[i : i + min(self.max_size, ERROR_SAMPLE)])
        self._emit(Error("frame too long", start, data, self.max_size), start + self.max_size)
        self._skip = _RESYNC if buf[i] == 0x19 else _NEWLINE
        return i + self.max_size

    def _skip_to(self, pos: int) -> int:
        """Resynchronising: drop bytes up to the next frame boundary (a datagram's own
        ``^Y)`` is dropped with it) or, for text, the next newline."""
        if self._skip is None:
            raise RuntimeError("self._skip is None")
        buf = self._buf
        m = self._skip.search(buf, pos)
        if m is None:
            stop = len(buf) - 1 if buf.endswith(b"\x19") else len(buf)
        else:
            stop = m.end() if m.group() == b"\x19)" else m.start()
        self._skip_count += stop - pos
        room = ERROR_SAMPLE - len(self._skipped)
        if room > 0:
            self._skipped += buf[pos : min(stop, pos + room)]
        if m is not None:
            self._skipped_bytes(stop)
        return stop

    def _skipped_bytes(self, stop: int) -> None:
        if self._skip_count:
            sample = bytes(self._skipped[:ERROR_SAMPLE])
            error = Error(
                "bytes dropped while resynchronising", self._mark, sample, self._skip_count
            )
            self._emit(error, self._base + stop)
        self._skip = None
        self._skipped.clear()
        self._skip_count = 0
