"""How fast is the decoder, against a floor measured in the same run?

``python bench/decode.py [--mb 4] [--runs 5] [--profile]`` makes a ~4 MB stream with
``streams.make_stream`` and times, best of ``--runs``, over the same 64 KiB chunks:

- **decoder**: ``Decoder(DATAGRAMS).feed()`` on every chunk, then ``close()``, each
  chunk's events dropped once counted, as a client hands them on (keeping all ~100,000
  alive adds the garbage collector's scans of them: some 20% more here);
- **floor**: the least work that still finds every frame: ``bytes.find`` for ``^Y(`` and
  ``^Y)``, ``split`` on newlines, each datagram body and text line decoded as latin-1 and
  split on blanks; no records, no types, the tail of a chunk carried to the next.

Both must find the same frames (datagrams + complete lines), and the decoder's events
must re-encode to the stream byte for byte, else the exit status is 1. The figure to
watch is the ratio decoder / floor (target: within 3x). ``--profile`` adds the decoder's
top functions under cProfile.
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import pstats
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from icswire.protocol.datagrams import DatagramRecord, UnknownDatagram
from icswire.protocol.decoder import Decoder
from icswire.protocol.encoder import encode_events
from icswire.protocol.events import (
    BughouseLine,
    Error,
    Event,
    Style12Line,
    Text,
    UnitStart,
)
from streams import DATAGRAMS, make_stream

CHUNK = 1 << 16
DG_OPEN = b"\x19("
DG_CLOSE = b"\x19)"


def decode_all(chunks: list[bytes]) -> list[Event]:
    """The full decoder over the chunks, keeping every event (for the checks)."""
    decoder = Decoder(DATAGRAMS)
    events: list[Event] = []
    for chunk in chunks:
        events += decoder.feed(chunk)
    events += decoder.close()
    return events


def decode(chunks: list[bytes]) -> int:
    """The full decoder over the chunks, as a client runs it: each chunk's events are
    handed on (here: counted) and dropped, not kept for the whole stream."""
    decoder = Decoder(DATAGRAMS)
    count = 0
    for chunk in chunks:
        count += len(decoder.feed(chunk))
    return count + len(decoder.close())


def floor(chunks: list[bytes]) -> tuple[int, int]:
    """Find the frames and split their fields, nothing more: (frames, fields)."""
    frames = 0
    fields = 0
    tail = b""
    for chunk in chunks:
        buf = tail + chunk if tail else chunk
        pos = 0
        while True:
            i = buf.find(DG_OPEN, pos)
            stop = len(buf) if i < 0 else i
            nl = buf.rfind(b"\n", pos, stop)
            if nl >= 0:  # the complete text lines before the next datagram
                for line in buf[pos:nl].split(b"\n"):
                    fields += len(line.decode("latin-1").split())
                    frames += 1
                pos = nl + 1
            if i < 0:
                break
            j = buf.find(DG_CLOSE, i + 2)
            if j < 0:
                break
            if pos < i:  # a prompt or a line cut by the datagram
                fields += len(buf[pos:i].decode("latin-1").split())
            fields += len(buf[i + 2 : j].decode("latin-1").split())
            frames += 1
            pos = j + 2
        tail = buf[pos:]
    if tail:
        fields += len(tail.decode("latin-1").split())
    return frames, fields


def count_frames(events: list[Event]) -> int:
    """What the floor counts: datagrams, and lines that end in a newline (a level 1
    header line counts as one; prompts, unit ends and cut lines do not)."""
    n = 0
    for event in events:
        if isinstance(event, Text):
            n += event.end != ""
        elif isinstance(
            event, DatagramRecord | UnknownDatagram | Style12Line | BughouseLine | UnitStart
        ):
            n += 1
    return n


def best_times(
    fns: tuple[Callable[[list[bytes]], object], ...], chunks: list[bytes], runs: int
) -> list[float]:
    """Best time of each function, the runs interleaved so that both see the same machine
    (these machines are noisy: a slow spell then hits both sides, not one)."""
    best = [float("inf")] * len(fns)
    for _ in range(runs):
        for k, fn in enumerate(fns):
            gc.collect()
            start = time.perf_counter()
            fn(chunks)
            best[k] = min(best[k], time.perf_counter() - start)
    return best


def profile(chunks: list[bytes], top: int = 15) -> None:
    profiler = cProfile.Profile()
    profiler.runcall(decode, chunks)
    stats = pstats.Stats(profiler, stream=sys.stdout)
    stats.sort_stats("tottime").print_stats(top)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mb", type=float, default=4.0, help="stream size in MB (default 4)")
    parser.add_argument("--runs", type=int, default=5, help="best of this many (default 5)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--profile", action="store_true", help="also profile the decoder")
    args = parser.parse_args(argv)

    stream = make_stream(int(args.mb * 1_000_000), args.seed)
    chunks = [stream[i : i + CHUNK] for i in range(0, len(stream), CHUNK)]

    events = decode_all(chunks)
    errors = [e for e in events if isinstance(e, Error)]
    round_trip = encode_events(events) == stream
    frames = count_frames(events)
    floor_frames, _ = floor(chunks)

    t_decoder, t_floor = best_times((decode, floor), chunks, args.runs)
    mb = len(stream) / 1e6
    ratio = t_decoder / t_floor

    print(
        f"stream: {len(stream):,} bytes in {len(chunks)} chunks of {CHUNK // 1024} KiB, "
        f"seed {args.seed}, best of {args.runs}"
    )
    print(f"{'':8} {'events':>8} {'frames':>8} {'time ms':>8} {'events/s':>11} {'MB/s':>7}")
    for name, count, n_frames, seconds in (
        ("decoder", len(events), frames, t_decoder),
        ("floor", floor_frames, floor_frames, t_floor),
    ):
        print(
            f"{name:8} {count:8,} {n_frames:8,} {seconds * 1e3:8.1f} "
            f"{count / seconds:11,.0f} {mb / seconds:7.1f}"
        )
    print(f"ratio decoder/floor: {ratio:.2f}x (target <= 3x)")

    ok = True
    if not round_trip:
        print("FAIL: encode_events(events) != stream")
        ok = False
    if frames != floor_frames:
        print(f"FAIL: the decoder found {frames:,} frames, the floor {floor_frames:,}")
        ok = False
    if errors:
        print(f"FAIL: {len(errors)} error events, the first: {errors[0]!r}")
        ok = False
    if ok:
        print("round trip: ok (events re-encode to the stream byte for byte)")
    if args.profile:
        profile(chunks)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
