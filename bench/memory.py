"""How much memory does an idle logged-in user cost the server?

``python bench/memory.py [--sizes 1000,4000] [--concurrency 100]`` starts ``python -m
icswire serve`` in a separate process (as ``bench/fanout.py`` does), reads its resident set
size (VmRSS, /proc), logs in guests that then sit idle (level 0, the FICS default; each
reads what it is sent and does nothing), and reads the RSS again once the server is quiet
at each size. The figure: (RSS at N - RSS before the first login) / N, in KiB per user.

Two floors, each a minimal asyncio server in a child process that runs the same login
dialogue and then holds the connection, measured with the same clients in the same run:
the streams floor holds each with a StreamReader/StreamWriter and one task reading from
it, the protocol floor with an :class:`asyncio.Protocol` (no task), as icswire does.

A Python process's RSS only grows by whole pages and its allocator keeps freed memory, so
the figure is for many users at once (the larger the size, the truer the figure), read
after a pause in which the server has nothing to do (a full garbage collection is not
forced: what the server keeps is what counts).

Exit status: 0 whether or not the target (4 KiB per user) is met, 2 if the bench could not
run.
"""

from __future__ import annotations

import argparse
import asyncio
import signal
import sys
import tempfile
import time
from pathlib import Path

from harness import (
    FLOOR_SERVER,
    HOST,
    PROTOCOL_FLOOR_SERVER,
    SetupError,
    raise_fd_limit,
    start_floor,
    start_server,
    started_as,
)
from icswire.protocol.decoder import Decoder
from icswire.protocol.events import Text

LOGIN_TIMEOUT = 120.0
FD_SLACK = 200
TARGET_KIB = 4.0
QUIET = 2.0  # seconds the server is left alone before its RSS is read


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise SetupError(f"no VmRSS for process {pid}")


async def idle_user(port: int, holders: list[asyncio.StreamWriter]) -> None:
    reader, writer = await asyncio.open_connection(HOST, port)
    writer.write(b"guest\n\n")
    decoder = Decoder()
    deadline = time.monotonic() + LOGIN_TIMEOUT
    while time.monotonic() < deadline:
        data = await asyncio.wait_for(reader.read(65536), LOGIN_TIMEOUT)
        if not data:
            raise ConnectionError("the server closed the connection")
        if any(isinstance(e, Text) and started_as(e.text) for e in decoder.feed(data)):
            holders.append(writer)
            return
    raise TimeoutError("no session start")


async def measure(port: int, pid: int, sizes: list[int], concurrency: int) -> dict[int, float]:
    """KiB of RSS per user at each size."""
    await asyncio.sleep(QUIET)
    base = rss_kib(pid)
    holders: list[asyncio.StreamWriter] = []
    gate = asyncio.Semaphore(concurrency)

    async def one() -> None:
        async with gate:
            await idle_user(port, holders)

    per_user: dict[int, float] = {}
    for size in sizes:
        await asyncio.gather(*(one() for _ in range(size - len(holders))))
        await asyncio.sleep(QUIET)
        per_user[size] = (rss_kib(pid) - base) / size
    for writer in holders:
        writer.close()
    return per_user


def measure_floor(script: str, sizes: list[int], concurrency: int) -> dict[int, float]:
    process, port = start_floor(script)
    try:
        return asyncio.run(measure(port, process.pid, sizes, concurrency))
    finally:
        process.send_signal(signal.SIGTERM)
        process.wait(30)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--sizes", type=lambda t: sorted(int(x) for x in t.split(",")), default=[1000, 4000]
    )
    parser.add_argument("--concurrency", type=int, default=100)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="icswire-memory-") as tmp:
        try:
            raise_fd_limit(2 * args.sizes[-1] + FD_SLACK)
            server = start_server(Path(tmp), None)
            try:
                icswire = asyncio.run(
                    measure(server.port, server.process.pid, args.sizes, args.concurrency)
                )
            finally:
                server.stop()
            streams = measure_floor(FLOOR_SERVER, args.sizes, args.concurrency)
            protocol = measure_floor(PROTOCOL_FLOOR_SERVER, args.sizes, args.concurrency)
        except (SetupError, TimeoutError, ConnectionError, OSError) as exc:
            print(f"cannot run the benchmark: {type(exc).__name__}: {exc}", file=sys.stderr)
            return 2
    for size in args.sizes:
        print(
            f"{size:>6} idle users: {icswire[size]:.1f} KiB each "
            f"(streams floor {streams[size]:.1f} KiB, {icswire[size] / streams[size]:.1f}x; "
            f"protocol floor {protocol[size]:.1f} KiB, {icswire[size] / protocol[size]:.1f}x)"
        )
    last = icswire[args.sizes[-1]]
    verdict = "met" if last <= TARGET_KIB else "NOT met"
    print(f"at {args.sizes[-1]}: {last:.1f} KiB per idle user (target {TARGET_KIB}: {verdict})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
