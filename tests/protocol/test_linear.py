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
