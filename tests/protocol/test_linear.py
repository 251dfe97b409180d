"""The decoder scans each byte once: an unfinished frame fed a byte at a time costs no
more than ordinary traffic fed a byte at a time (it used to cost the square of its size:
100 kB of an unterminated datagram took minutes)."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from icswire.protocol.decoder import Decoder

SIZE = 1_000_000  # under the default max_size (1 MiB): every frame below stays unfinished
SESSION = (Path(__file__).resolve().parents[2] / "examples" / "session.bin").read_bytes()
DATAGRAMS = (0, 24, 25, 28, 31, 33, 34, 35, 36, 56)  # what session.bin's receiver had on
MARGIN = 10

#: One unfinished frame of each kind, SIZE bytes long.
UNFINISHED = {
    "datagram": b"\x19(31 fred {} " + b"a " * SIZE,
    "quoted string in a datagram": b"\x19(31 fred {} \x19{" + b"a" * SIZE,
    "level 1 header": b"\x19[101 " + b"a" * SIZE,
    "telnet subnegotiation": b"\xff\xfa\x18" + b"a" * SIZE,
    "text line": b"a" * SIZE,
    "text line with bells": b"a\x07" * (SIZE // 2),
    "style 12 line": b"<12> rnbqkbnr pppppppp " + b"-" * SIZE,
    "style 10 block": b'"10"\n|r b kbnr|   \n' + b"a" * SIZE,
}


def feed_bytewise(data: bytes, deadline: float) -> tuple[Decoder, float]:
    """Feed ``data[:SIZE]`` one byte at a time; fail once ``deadline`` seconds have passed."""
    decoder = Decoder(DATAGRAMS)
    feed = decoder.feed
    start = time.perf_counter()
    for k in range(SIZE):
        feed(data[k : k + 1])
        if k & 0x3FFF == 0 and time.perf_counter() - start > deadline:
            pytest.fail(f"{k:,} bytes took more than {deadline:.1f} s: scanning is not linear")
    return decoder, time.perf_counter() - start


@pytest.fixture(scope="module")
def ordinary_time() -> float:
    """Seconds to feed SIZE bytes of ordinary, complete frames (session.bin over and over:
    datagrams, units, style 12 and text lines) one byte at a time."""
    stream = SESSION * (SIZE // len(SESSION) + 1)
    return feed_bytewise(stream, float("inf"))[1]


@pytest.mark.parametrize("kind", UNFINISHED)
def test_an_unfinished_frame_fed_bytewise_costs_what_ordinary_traffic_does(
    kind: str, ordinary_time: float
) -> None:
    """1 MB of one unfinished frame, fed a byte at a time, must finish within MARGIN (10)
    times the time of 1 MB of ordinary frames fed a byte at a time.

    Both sides make the same million ``feed()`` calls, so Python's per-call overhead
    cancels out and the ratio measures scanning. Linear scanning gives a ratio near 1
    (measured: 0.8-1.5); rescanning the frame on every feed gives about SIZE / 2 byte
    comparisons per feed, hours in all, and fails at the deadline. A noisy neighbour on
    the machine would have to slow one side by 6x or more, for seconds on end, to make
    this fail; the old quadratic code fails it by orders of magnitude.
    """
    decoder, seconds = feed_bytewise(UNFINISHED[kind], MARGIN * ordinary_time)
    assert decoder.buffered >= SIZE - 300  # the frame is still waiting for its end
    assert seconds < MARGIN * ordinary_time


def feed_in_chunks(data: bytes, deadline: float) -> float:
    """Feed ``data`` 64 kB at a time; fail once ``deadline`` seconds have passed."""
    decoder = Decoder()
    start = time.perf_counter()
    for k in range(0, len(data), 1 << 16):
        decoder.feed(data[k : k + (1 << 16)])
        if time.perf_counter() - start > deadline:
            pytest.fail(f"{k:,} bytes took more than {deadline:.1f} s: decoding is not linear")
    decoder.close()
    return time.perf_counter() - start


def test_acknowledging_many_distinct_dgs_costs_what_acknowledging_one_does() -> None:
    """80,000 DG_SET2 acknowledgements (1.2 MB) of distinct DG numbers must decode within
    MARGIN times 80,000 acknowledgements of one DG number. Each used to copy the whole set
    of DGs on, so the distinct ones cost the square of their number (30 s and more here);
    both now cost the same per acknowledgement (measured ratio near 1)."""
    count = 80_000
    one = b"".join(b"\x19(124 %d 1\x19)" % (100_000 + k % 2) for k in range(count))
    distinct = b"".join(b"\x19(124 %d 1\x19)" % (100_000 + k) for k in range(count))
    assert len(one) == len(distinct)
    baseline = feed_in_chunks(one, float("inf"))
    assert feed_in_chunks(distinct, MARGIN * baseline) < MARGIN * baseline
