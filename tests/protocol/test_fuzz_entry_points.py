"""Every way into the decoders, fed arbitrary bytes cut at arbitrary places.

``test_fuzz`` mutates real captures for a decoder with the captures' datagrams on, and the
other files fuzz what they test (random bytes for a level 2 decoder, block mode, timeseal's
lines, the line parsers on random text). Here the rest: the stream decoder with no DG and
with every DG on (the forms change with the DGs on), block mode turned on and off by the
commands a client notes mid-stream, the telnet command filter, the client's ping filter, a
datagram body on its own, and each line parser (exactly as the decoder calls it, and
loosely) after its own tag. For a stream: ``feed`` and ``close`` never raise, and where
the cuts fall changes nothing. For a line or a body: a ValueError at most.

Bounded (a few hundred small examples each, no deadline): a few seconds in ``make test``.
"""

from __future__ import annotations

import contextlib
import itertools
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from icswire.protocol.bughouse import parse_b1
from icswire.protocol.datagrams import RECORDS, decode_datagram
from icswire.protocol.decoder import Decoder
from icswire.protocol.events import Event
from icswire.protocol.ivars import parse_ivar
from icswire.protocol.style10 import parse_style10
from icswire.protocol.style12 import parse_style12
from icswire.protocol.telnet import CommandFilter
from icswire.protocol.timeseal import PING, PingFilter

from .test_fuzz import TOKENS

EVERY_DG = tuple(sorted(RECORDS))
#: Commands a client notes that change how the decoder reads what follows.
NOTED = ("iset block 1", "iset block 0", "set-2 24 1", "level1=5", "set style 12", "")

#: Bytes with the protocol's special ones and tokens among them, so that frames, lines and
#: telnet commands begin and break off.
streams = st.lists(
    st.binary(max_size=24)
    | st.sampled_from(TOKENS)
    | st.sampled_from([PING, b"\x15", b"\x16", b"\x17", b"\x18", b"\x1552\x1611\x16"]),
    max_size=24,
).map(b"".join)
cuts = st.lists(st.integers(0, 700), max_size=8).map(sorted)


def chunks(data: bytes, at: list[int]) -> list[bytes]:
    """``data`` cut at ``at`` (empty pieces too: a read may bring nothing new)."""
    bounds = [0, *(min(cut, len(data)) for cut in at), len(data)]
    return [data[start:stop] for start, stop in itertools.pairwise(bounds)]


def decode(
    data: bytes, at: list[int], make: Callable[[], Decoder], noted: tuple[str, ...] = ()
) -> list[Event]:
    """Events of ``data`` fed in pieces; before each piece, a command the client noted."""
    decoder = make()
    events: list[Event] = []
    for index, piece in enumerate(chunks(data, at)):
        if noted:
            decoder.note_command(noted[index % len(noted)])
        events += decoder.feed(piece)
    return events + decoder.close()


@settings(max_examples=200, deadline=None)
@given(streams, cuts, st.sampled_from([(), EVERY_DG]), st.booleans())
def test_the_stream_decoder_reads_any_bytes_however_they_come(
    data: bytes, at: list[int], datagrams: tuple[int, ...], block_mode: bool
) -> None:
    def make() -> Decoder:
        return Decoder(datagrams, block_mode=block_mode, max_size=96)

    assert decode(data, at, make) == decode(data, [], make)


@settings(max_examples=150, deadline=None)
@given(streams, cuts, st.lists(st.sampled_from(NOTED), min_size=1, max_size=4).map(tuple))
def test_commands_noted_between_reads_never_make_feed_raise(
    data: bytes, at: list[int], noted: tuple[str, ...]
) -> None:
    """Block mode and the DGs on change as the client sends commands, between any two
    reads (what follows is then read the new way: the events may differ, never raise)."""
    decode(data, at, lambda: Decoder(EVERY_DG[:40], max_size=96), noted)


@settings(max_examples=200, deadline=None)
@given(streams, cuts)
def test_the_telnet_filter_takes_any_bytes_however_they_come(data: bytes, at: list[int]) -> None:
    def run(pieces: list[bytes]) -> tuple[bytes, list[tuple[int, int]]]:
        filter_ = CommandFilter()
        out, commands = bytearray(), []
        for piece in pieces:
            kept, seen = filter_.feed(piece)
            out += kept
            commands += seen
        return bytes(out), commands

    assert run(chunks(data, at)) == run([data])


@settings(max_examples=200, deadline=None)
@given(streams, cuts)
def test_the_ping_filter_takes_any_bytes_however_they_come(data: bytes, at: list[int]) -> None:
    def run(pieces: list[bytes]) -> tuple[bytes, int]:
        filter_ = PingFilter()
        out, count = b"", 0
        for piece in pieces:
            kept, found = filter_.feed(piece)
            out, count = out + kept, count + found
        return out + filter_.close(), count

    assert run(chunks(data, at)) == run([data])


#: A datagram body: a DG number, then anything.
bodies = st.tuples(
    st.sampled_from(EVERY_DG).map(str) | st.text(max_size=4),
    st.text(st.characters(max_codepoint=0x17F), max_size=60),
).map(" ".join)


@settings(max_examples=300, deadline=None)
@given(bodies, st.sampled_from([(), EVERY_DG]))
def test_a_datagram_body_decodes_or_says_why(body: str, enabled: tuple[int, ...]) -> None:
    with contextlib.suppress(ValueError):
        decode_datagram(body, enabled)


LINE_PARSERS: dict[str, tuple[str, Callable[[str], Any]]] = {
    "style12": ("<12> ", parse_style12),
    "style12 exact": ("<12> ", lambda line: parse_style12(line, exact=True)),
    "b1": ("<b1> ", parse_b1),
    "b1 exact": ("<b1> ", lambda line: parse_b1(line, exact=True)),
    **{
        f"ivar {tag}": (f"<{tag}> ", parse_ivar)
        for tag in ("s", "sn", "sr", "sc", "pf", "pt", "pr", "g1", "d1", "wa", "wd")
    },
}


@pytest.mark.parametrize("name", sorted(LINE_PARSERS))
@settings(max_examples=60, deadline=None)
@given(text=st.text(st.characters(max_codepoint=0x17F), max_size=120))
def test_a_line_parser_reads_any_text_after_its_tag_or_says_why(name: str, text: str) -> None:
    tag, parse = LINE_PARSERS[name]
    with contextlib.suppress(ValueError):
        parse(tag + text)


@settings(max_examples=100, deadline=None)
@given(
    st.sampled_from(['"10"', "<10>"]),
    st.lists(st.text(st.characters(max_codepoint=0x17F), max_size=40), max_size=13),
    st.booleans(),
)
def test_a_style10_block_reads_any_lines_after_its_header_or_says_why(
    header: str, lines: list[str], exact: bool
) -> None:
    with contextlib.suppress(ValueError):
        parse_style10([header + "\n", *(line + "\n" for line in lines)], exact=exact)
