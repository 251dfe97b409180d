"""How long does one shout take to reach N level 2 listeners over loopback?

``python bench/fanout.py [--sizes 100,1000,5000] [--runs 3] [--concurrency 200]
[--profile FILE]`` starts ``python -m icswire serve`` in a separate process (its own core:
server and listeners do not share an event loop) on a free 127.0.0.1 port, then, in this
process, logs in N guest listeners with DG_SHOUT (32) on, each reading with its own
``Decoder({32})``, and one shouter. For each size, ``--runs`` times, the shouter sends
``shout <marker>`` (a new marker each run); t0 is taken just before that line is written.
Reported, best and worst over the runs: the time from t0 until the shouter has its own
``(shouted to N players)``, until half the listeners have decoded the Shout record
(median) and until the last one has (the figure to watch). Target: 5000 listeners in under
a second. Also shown: the CPU seconds the server process and this process spent per run.

The pool grows: the listeners of one size stay logged in and the next size adds to them
(logging everybody out between sizes would time the server's departures, not the shout).
Each listener decodes everything it is sent, from the login banner on.

``--profile FILE`` runs the server under cProfile, switched on (SIGUSR1) just before the
first shout of the largest size and off (SIGUSR2) after its last run, and prints the
server's top functions: a profile of the shouts only, not of the logins.

Exit status: 0 whether or not the target is met (a benchmark reports), 1 if some listener
never decoded a shout within ``--timeout`` seconds or the shouter's count was wrong (a
correctness failure), 2 if the bench could not run (no server, a login that timed out).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import pstats
import signal
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from icswire.protocol.decoder import Decoder
from icswire.protocol.events import Text

DG_SHOUT = 32
LEVEL2 = "level2settings=" + "0" * DG_SHOUT + "1"
SHOUTED = "(shouted to "
TARGET_N = 5000
TARGET_SECONDS = 1.0
MAX_LISTENERS = 10_000
MAX_RUNS = 20
LOGIN_TIMEOUT = 60.0
FD_SLACK = 200

from harness import (  # noqa: E402
    HOST,
    ServerProcess,
    SetupError,
    raise_fd_limit,
    start_server,
    started_as,
)

# -- the clients ------------------------------------------------------------------------


@dataclass
class Shout:
    """One run: the marker, t0, and who has decoded it when."""

    marker: str
    expected: int
    t0: float = 0.0
    times: list[float] = field(default_factory=list)
    reply_at: float | None = None
    reply_count: int | None = None
    done: asyncio.Event = field(default_factory=asyncio.Event)
    replied: asyncio.Event = field(default_factory=asyncio.Event)


class Client:
    """A connection with its own decoder and a task reading everything it is sent."""

    def __init__(self, datagrams: set[int]) -> None:
        self.decoder = Decoder(datagrams)
        self.name = ""
        self.started: asyncio.Future[str] | None = None
        self.writer: asyncio.StreamWriter | None = None
        self.task: asyncio.Task[None] | None = None
        self.shout: Shout | None = None  # the run in progress

    async def login(self, port: int, setup: tuple[str, ...]) -> None:
        reader, self.writer = await asyncio.open_connection(HOST, port)
        self.started = asyncio.get_running_loop().create_future()
        self.task = asyncio.create_task(self._read(reader))
        for line in setup:
            self.decoder.note_command(line)
        self.writer.write("".join(f"{line}\n" for line in (*setup, "guest", "")).encode())
        await self.writer.drain()
        self.name = await asyncio.wait_for(asyncio.shield(self.started), LOGIN_TIMEOUT)

    async def _read(self, reader: asyncio.StreamReader) -> None:
        feed = self.decoder.feed
        try:
            while data := await reader.read(65536):
                for event in feed(data):
                    self.on_event(event)
        except (ConnectionError, OSError):
            pass
        if self.started is not None and not self.started.done():
            self.started.set_exception(ConnectionError("the server closed the connection"))

    def on_event(self, event: object) -> None:
        if isinstance(event, Text) and (name := started_as(event.text)) is not None:
            if self.started is not None and not self.started.done():
                self.started.set_result(name)
            return
        shout = self.shout
        if shout is None:
            return
        if getattr(event, "dg", None) == DG_SHOUT:
            if event.text == shout.marker:  # type: ignore[attr-defined]
                shout.times.append(time.perf_counter())
                if len(shout.times) == shout.expected:
                    shout.done.set()
        elif isinstance(event, Text) and event.text.startswith(SHOUTED):
            shout.reply_at = time.perf_counter()
            with contextlib.suppress(ValueError):
                shout.reply_count = int(event.text.removeprefix(SHOUTED).split()[0])
            shout.replied.set()

    async def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
            with contextlib.suppress(ConnectionError, OSError):
                await asyncio.wait_for(self.writer.wait_closed(), 2)
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task


async def grow(pool: list[Client], size: int, ports: Sequence[int], concurrency: int) -> float:
    """Log in listeners until the pool has ``size``, ``concurrency`` at a time; the k-th
    listener of the pool on ``ports[k % len(ports)]`` (the nodes of a cluster in turn)."""
    started = time.perf_counter()
    gate = asyncio.Semaphore(concurrency)

    async def one(port: int) -> Client:
        async with gate:
            client = Client({DG_SHOUT})
            await client.login(port, (LEVEL2,))
            return client

    new = [asyncio.create_task(one(ports[k % len(ports)])) for k in range(len(pool), size)]
    try:
        pool += await asyncio.gather(*new)
    except BaseException:
        for task in new:
            task.cancel()
        done = await asyncio.gather(*new, return_exceptions=True)
        pool += [c for c in done if isinstance(c, Client)]
        raise
    return time.perf_counter() - started


@dataclass
class Run:
    reply: float
    median: float
    last: float
    server_cpus: list[float]  # each server process's
    bench_cpu: float

    @property
    def server_cpu(self) -> float:
        return sum(self.server_cpus)


async def shout_once(
    shouter: Client,
    pool: list[Client],
    marker: str,
    servers: Sequence[ServerProcess],
    timeout: float,
) -> Run | str:
    """One shout; a Run, or what went wrong (a correctness failure)."""
    shout = Shout(marker, expected=len(pool))
    for client in (shouter, *pool):
        client.shout = shout
    assert shouter.writer is not None
    line = f"shout {marker}\n".encode()
    server_cpus, bench_cpu = [s.cpu_seconds() for s in servers], time.process_time()
    shout.t0 = time.perf_counter()
    shouter.writer.write(line)
    try:
        await asyncio.wait_for(asyncio.gather(shout.done.wait(), shout.replied.wait()), timeout)
    except TimeoutError:
        for client in (shouter, *pool):
            client.shout = None
        deadline = shout.t0 + timeout
        got = sum(t <= deadline for t in shout.times)
        replied = shout.reply_at is not None and shout.reply_at <= deadline
        return (
            f"{marker}: after {timeout:g} s, {got} of {len(pool)} listeners had the shout; "
            f"the shouter's reply {'came' if replied else 'never came'}"
        )
    server_cpus = [s.cpu_seconds() - cpu for s, cpu in zip(servers, server_cpus, strict=True)]
    bench_cpu = time.process_time() - bench_cpu
    for client in (shouter, *pool):
        client.shout = None
    if shout.reply_count != len(pool):
        return f"{marker}: the shouter was told {shout.reply_count} players, not {len(pool)}"
    assert shout.reply_at is not None
    delays = [t - shout.t0 for t in shout.times]
    return Run(
        reply=shout.reply_at - shout.t0,
        median=statistics.median(delays),
        last=max(delays),
        server_cpus=server_cpus,
        bench_cpu=bench_cpu,
    )


# -- the report -------------------------------------------------------------------------


def ms(seconds: float) -> str:
    return f"{seconds * 1000:8.1f}"


async def wait_for_file(path: Path, seconds: float = 10.0) -> None:
    deadline = time.monotonic() + seconds
    while not path.exists() and time.monotonic() < deadline:
        await asyncio.sleep(0.05)


def print_profile(path: Path, top: int = 25) -> None:
    stats = pstats.Stats(str(path))
    stats.strip_dirs()
    for order in ("tottime", "cumulative"):
        print(f"\nserver profile (the shouts of the largest size), top {top} by {order}:")
        stats.sort_stats(order).print_stats(top)


async def bench(args: argparse.Namespace, server: ServerProcess) -> int:
    pool: list[Client] = []
    shouter = Client(set())
    failures: list[str] = []
    results: dict[int, list[Run]] = {}
    logins: dict[int, float] = {}
    try:
        await shouter.login(server.port, ())
        for size in args.sizes:
            before = len(pool)
            logins[size] = await grow(pool, size, [server.port], args.concurrency)
            print(
                f"{size:>5} listeners: {size - before} more logged in in {logins[size]:.2f} s",
                flush=True,
            )
            await asyncio.sleep(0.5)  # let the arrivals' output settle
            profiling = args.profile is not None and size == args.sizes[-1]
            if profiling:
                server.signal(signal.SIGUSR1)
                await asyncio.sleep(0.5)
            runs = results[size] = []
            for run in range(args.runs):
                marker = f"fanout-{size}-{run}-{os.getpid()}"
                outcome = await shout_once(shouter, pool, marker, [server], args.timeout)
                if isinstance(outcome, str):
                    failures.append(outcome)
                    print(f"FAIL: {outcome}", flush=True)
                    break
                runs.append(outcome)
                print(
                    f"{size:>5} listeners, run {run + 1}: reply {ms(outcome.reply)} ms, "
                    f"median {ms(outcome.median)} ms, last {ms(outcome.last)} ms",
                    flush=True,
                )
                await asyncio.sleep(0.3)
            if profiling:
                server.signal(signal.SIGUSR2)
                await wait_for_file(args.profile)
            if failures:
                break
    finally:
        shutdown, status = await asyncio.to_thread(server.stop)
        await asyncio.gather(*(c.close() for c in (shouter, *pool)))

    print()
    print(
        f"{'N':>5} {'runs':>4}  {'reply ms':>17}  {'median ms':>17}  {'last ms':>17}  "
        f"{'server cpu ms':>13}  {'bench cpu ms':>12}"
    )
    print(f"{'':>5} {'':>4}  {'best / worst':>17}  {'best / worst':>17}  {'best / worst':>17}")
    for size, runs in results.items():
        if not runs:
            continue

        def span(values: list[float]) -> str:
            return f"{ms(min(values))} /{ms(max(values))}"

        print(
            f"{size:>5} {len(runs):>4}  {span([r.reply for r in runs])}  "
            f"{span([r.median for r in runs])}  {span([r.last for r in runs])}  "
            f"{ms(statistics.median(r.server_cpu for r in runs)):>13}  "
            f"{ms(statistics.median(r.bench_cpu for r in runs)):>12}"
        )
    print("(cpu: median over the runs of the CPU time each process used from t0 to the last)")
    print(f"logins: {', '.join(f'{n} in {t:.2f} s' for n, t in logins.items())} (pool grows)")
    print(
        f"server shutdown (SIGTERM, {len(pool)} listeners connected): {shutdown:.2f} s, "
        f"exit status {status if status is not None else 'none (killed)'}"
    )
    target = results.get(TARGET_N)
    if target:
        worst = max(r.last for r in target)
        best = min(r.last for r in target)
        met = "met" if worst < TARGET_SECONDS else ("met in some runs" if best < 1 else "NOT met")
        print(
            f"target ({TARGET_N} listeners < {TARGET_SECONDS:.0f} s): {met} "
            f"(last listener {best:.3f} s best, {worst:.3f} s worst)"
        )
    else:
        print(f"target ({TARGET_N} listeners < {TARGET_SECONDS:.0f} s): not measured")
    if args.profile is not None and args.profile.exists():
        print_profile(args.profile)
    if failures:
        print(f"FAIL: {len(failures)} shout(s) did not reach every listener")
        return 1
    return 0


def parse_sizes(text: str) -> list[int]:
    sizes = sorted({int(item) for item in text.split(",") if item.strip()})
    if not sizes or sizes[0] < 1 or sizes[-1] > MAX_LISTENERS:
        raise argparse.ArgumentTypeError(f"sizes must be 1..{MAX_LISTENERS}")
    return sizes


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=parse_sizes, default=[100, 1000, 5000], metavar="N,N")
    parser.add_argument("--runs", type=int, default=3, choices=range(1, MAX_RUNS + 1))
    parser.add_argument("--concurrency", type=int, default=200, help="logins at a time")
    parser.add_argument("--timeout", type=float, default=30.0, help="seconds a shout may take")
    parser.add_argument("--profile", type=Path, default=None, metavar="FILE")
    args = parser.parse_args(argv)
    if args.profile is not None:
        args.profile = args.profile.resolve()
        args.profile.unlink(missing_ok=True)

    with tempfile.TemporaryDirectory(prefix="icswire-fanout-") as tmp:
        try:
            limit = raise_fd_limit(args.sizes[-1] + FD_SLACK)
            server = start_server(Path(tmp), args.profile)
            print(
                f"server pid {server.process.pid} on {HOST}:{server.port}, "
                f"RLIMIT_NOFILE {limit}, sizes {args.sizes}, {args.runs} runs each"
            )
            return asyncio.run(bench(args, server))
        except (SetupError, TimeoutError, ConnectionError, OSError) as exc:
            print(f"cannot run the benchmark: {type(exc).__name__}: {exc}", file=sys.stderr)
            return 2


if __name__ == "__main__":
    sys.exit(main())
