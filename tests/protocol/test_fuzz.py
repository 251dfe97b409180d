"""Fuzzing the decoder with mutated real captures: about 10 MB per run.

Each example cuts slices out of real streams -- ``examples/session.bin``, a stream of
``bench/streams.py`` and lines quoted in the spec's NOTES.md -- splices them together,
and mutates the result: bytes flipped, bytes and protocol tokens inserted, ranges
deleted, copied elsewhere, the end cut off. Hypothesis draws the seed, the sources, the
rate of mutations and the receiver's settings (so its database replays a failure, and it
shrinks what it can); a ``random.Random`` of that seed makes the cuts and the mutations.
100 examples of 100 kB on average: about 20 s of CPU.

For every input: feed() and close() never raise; whole, in random chunks and (on a
window) a byte at a time give the same events; the decoder's buffers stay within
max_size and a small constant, also with a small max_size; each event encodes to exactly
its bytes, and the JSON objects of ``icswire decode`` give back the input byte for byte.
"""

from __future__ import annotations

import importlib.util
import io
import json
import random
from functools import cache
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from icswire.cli import decode_stream
from icswire.protocol.decoder import ERROR_SAMPLE, Decoder
from icswire.protocol.encoder import encode_event, encode_events
from icswire.protocol.events import Error, Event
from icswire.protocol.jsonl import object_bytes

ROOT = Path(__file__).resolve().parents[2]
#: What the receivers of the captures had on (bench/streams.py's DATAGRAMS and
#: SESSION_DATAGRAMS); some examples also have DGs on that change the forms.
DATAGRAMS = (0, 12, 15, 24, 25, 28, 31, 33, 34, 35, 36, 56, 96)
MORE_DATAGRAMS = (*DATAGRAMS, 1, 3, 4, 10, 11, 85, 113, 124)
EXAMPLES = 100
SIZE = 100_000  # bytes per example, on average: EXAMPLES * SIZE is about 10 MB
WINDOW = 2_000  # bytes fed one at a time per example
SMALL_MAX = 100  # a max_size that style 12 lines and long datagrams pass
#: Beyond max_size, what a decoder may hold: the sample of dropped bytes, a pending
#: carriage return or IAC and its command byte.
SLACK = ERROR_SAMPLE + 4

#: Lines quoted in the spec's NOTES.md (real servers' output) and frames it describes.
NOTES = (
    b"<12> rnbqkbnr pppppppp -------- -------- -------- -------- PPPPPPPP RNBQKBNR W -1 1 1 1"
    b" 1 0 55 mgatto Thegermain 1 4 0 39 39 240000 240000 1 none (0:00.000) none 0 0 0\n\r",
    b"<12> r-q-kbnr ppp--p-p ---p--p- ---Pp--- --P----- -QNBPP-- PP----PP R----RK- B -1 0 0 1"
    b" 1 1 182 milecker jamofr 0 3 0 33 33 118 148 11 o-o (0:04) O-O 0 1 0\r\n",
    b"<b1> game 6 white [PNBBB] black [PNB]\n",
    b"<b1> game 52 white [NB] black [N] <- BN\n",
    b'"10"\n|r b kbnr|   \n|ppp ppp |   \n|  nq    |   \n|   p   p|   \n|   P    |   \n'
    b"|  NQB  N|   \n|PPP PPPP|   \n|R   KB R|   \nB -1 1 1 1 1 3   \n"
    b"0 Darooha Quimbee 1 2 12 39 39 113 129 5 B/c1-e3 (0:22) Be3   \n",
    b"\x1552\x1611\x16You accept the match offer from ggbtami.\n\x17\nfics% ",
    b"{Game 5 (fred vs. joe) Creating unrated blitz match.}\n",
    b"Challenge: A (----) B (----) unrated blitz 1 1.\n",
    b"login: \xff\xfb\x01password: \xff\xfc\x01\n\r",
    b"\xff\xfa\x18\x01\xff\xf0[G]\n\r",
    b"\x19[101 fishbait tag7\nfishbait spoofs you\n\x19]\x19]",
    b"\x19(31 fred {GM} \x19{hi {there}\x19} 1\x19)\x19(25 5 * {e4 e2e4}{e5 e7e5}\x19)",
    b"\x19(142 1 wohl fishbait 0 0 0 1 0 0 1 | 1 2 3 4 5 6 7\x19)\x1a",
    b"\x07fred tells you: caf\xff\xffe\x07\n",
)
#: Tokens an insertion draws from: every byte the decoder treats specially, and more.
TOKENS = (
    b"\x19(", b"\x19)", b"\x19{", b"\x19}", b"\x19[", b"\x19]", b"\x19<", b"\x19>", b"\x19",
    b"\x1a", b"{", b"}", b"{}", b" ", b"  ", b"\n", b"\r", b"\r\n", b"\n\r", b"\x07", b"\xff",
    b"\xff\xff", b"\xff\xfa", b"\xff\xf0", b"\xff\xfb", b"\x1c", b"\t", b"0", b"-0", b"+",
    b"_", b"05", b"<12> ", b"<b1> ", b'"10"\n', b"fics% ", b"\x19(124 34 1\x19)",
)  # fmt: skip


@cache
def captures() -> tuple[bytes, ...]:
    """The streams examples are cut from."""
    spec = importlib.util.spec_from_file_location("bench_streams", ROOT / "bench" / "streams.py")
    assert spec is not None and spec.loader is not None
    streams: Any = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(streams)
    session = (ROOT / "examples" / "session.bin").read_bytes()
    return session, streams.make_stream(2 * SIZE, 7), b"".join(NOTES)


@st.composite
def mutated_captures(draw: st.DrawFn) -> bytes:
    """Slices of the captures, spliced and mutated."""
    rng = random.Random(draw(st.integers(0, 2**32)))
    sources = captures()
    size = rng.randint(SIZE // 2, SIZE * 3 // 2)
    parts = []
    while sum(map(len, parts)) < size:
        source = sources[draw(st.integers(0, len(sources) - 1))]
        start = rng.randrange(len(source))
        parts.append(source[start : start + rng.randint(1, 20_000)])
    data = bytearray(b"".join(parts)[:size])
    rate = draw(st.sampled_from([0, 0.0005, 0.005, 0.05]))  # mutations per byte
    for _ in range(int(len(data) * rate) + draw(st.integers(0, 8))):
        at = rng.randrange(len(data) + 1)
        kind = rng.randrange(6)
        if kind == 0:  # flip a bit
            if at < len(data):
                data[at] ^= 1 << rng.randrange(8)
        elif kind == 1:  # insert a token
            data[at:at] = rng.choice(TOKENS)
        elif kind == 2:  # insert random bytes
            data[at:at] = rng.randbytes(rng.randint(1, 8))
        elif kind == 3:  # delete a range
            del data[at : at + rng.randint(1, 64)]
        elif kind == 4:  # copy a range elsewhere
            start = rng.randrange(len(data) + 1)
            data[at:at] = data[start : start + rng.randint(1, 200)]
        else:  # set a byte
            if at < len(data):
                data[at] = rng.randrange(256)
    if draw(st.booleans()):  # cut the end, likely inside a frame
        del data[len(data) - rng.randint(0, 200) :]
    return bytes(data)


def with_raw(events: list[Event]) -> list[tuple[Event, Any]]:
    """Events and their ``raw`` bytes (not part of a record's value)."""
    return [(event, getattr(event, "raw", None)) for event in events]


def decode_in_chunks(
    data: bytes, cuts: list[int], datagrams: tuple[int, ...], max_size: int
) -> list[Event]:
    """Feed ``data`` cut at ``cuts``; check the buffers after every feed."""
    decoder = Decoder(datagrams, max_size=max_size)
    events: list[Event] = []
    start = 0
    for cut in [*cuts, len(data)]:
        events += decoder.feed(data[start:cut])
        start = cut
        assert decoder.buffered <= max_size + SLACK
    return events + decoder.close()


def check_bytes(data: bytes, events: list[Event], ends: list[int]) -> None:
    """Each event encodes to exactly its bytes; an error over max_size keeps a prefix."""
    assert len(ends) == len(events) and (not ends or ends[-1] == len(data))
    start = 0
    for event, end in zip(events, ends, strict=True):
        assert start <= end
        wire = data[start:end]
        if isinstance(event, Error) and event.length > len(event.data):
            assert event.length == len(wire) and wire.startswith(event.data)
        else:
            assert encode_event(event) == wire, (event, wire)
        start = end


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    mutated_captures(),
    st.sampled_from([DATAGRAMS, DATAGRAMS, DATAGRAMS, MORE_DATAGRAMS]),
    st.randoms(use_true_random=False),
)
def test_mutated_captures(data: bytes, datagrams: tuple[int, ...], rng: random.Random) -> None:
    decoder = Decoder(datagrams)
    decoder.ends = ends = []
    whole = decoder.feed(data) + decoder.close()
    check_bytes(data, whole, ends)
    if not any(isinstance(e, Error) and e.length > len(e.data) for e in whole):
        assert encode_events(whole) == data

    chunks = decode_stream(io.BytesIO(data), "-", list(datagrams))  # as icswire decode does
    objects = [json.loads(json.dumps(obj)) for chunk in chunks for obj in chunk]
    assert b"".join(map(object_bytes, objects)) == data

    cuts = sorted(rng.sample(range(len(data) + 1), min(len(data) + 1, rng.randint(1, 300))))
    assert with_raw(decode_in_chunks(data, cuts, datagrams, decoder.max_size)) == with_raw(whole)

    small = Decoder(datagrams, max_size=SMALL_MAX)
    small.ends = small_ends = []
    small_whole = small.feed(data) + small.close()
    check_bytes(data, small_whole, small_ends)
    assert with_raw(decode_in_chunks(data, cuts, datagrams, SMALL_MAX)) == with_raw(small_whole)

    start = rng.randrange(len(data) + 1)
    window = data[start : start + WINDOW]
    bytewise = decode_in_chunks(window, list(range(1, len(window))), datagrams, decoder.max_size)
    assert with_raw(bytewise) == with_raw(decode_in_chunks(window, [], datagrams, decoder.max_size))
