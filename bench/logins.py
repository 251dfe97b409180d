"""Does a login cost the same with 4000 users online as with 100?

``python bench/logins.py [--sizes 1000,2000,4000] [--concurrency 50] [--listeners 20]``
starts ``python -m icswire serve`` in a separate process (as ``bench/fanout.py`` does)
and, in this process, first logs in ``--listeners`` users who hear every arrival
(DG_PLAYER_ARRIVED and DG_PLAYER_LEFT on, ``iset pin 1``, one of them on channel 1 with
every guest), then logs in plain guests (level 0, the FICS default; each joins channel 1
on the way) until each size is online in turn. Every client decodes everything it is sent.

Measured for each size: the wall time and the server's CPU time of the logins that brought
the server from the previous size to it, each divided by their number. Reported at each
size and as the ratio of the last size's CPU per login to the first's: a login that
visits every user online grows with them, one that visits only those who listen does not
(target: under 1.5). The receivers of an arrival are the same few listeners at every
size, so what a login costs the server should be flat. (Whole spans, not short steps:
Python's full garbage collections come each time the heap has grown by a quarter and scan
all of it, so their cost per login is the same at every size only over such spans.)

The floor is a minimal asyncio server in a child process that speaks the same login
dialogue (banner, ``login:``, the guest's name, the session greeting, a prompt) and
nothing else, timed with the same clients in the same run: the wall time per login of the
largest step, icswire's against the floor's.

Exit status: 0 whether or not the target is met, 2 if the bench could not run.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import functools
import signal
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from harness import (
    HOST,
    ServerProcess,
    SetupError,
    process_cpu_seconds,
    raise_fd_limit,
    start_floor,
    start_server,
    started_as,
)
from icswire.protocol.decoder import Decoder
from icswire.protocol.events import Text

LOGIN_TIMEOUT = 120.0
FD_SLACK = 200
TARGET_RATIO = 1.5
#: DG_PLAYER_ARRIVED (2) and DG_PLAYER_LEFT (3) on.
LISTENER_LEVEL2 = "level2settings=0011"


class Client:
    """A connection with its own decoder and a task reading everything it is sent."""

    def __init__(self) -> None:
        self.decoder = Decoder({2, 3})
        self.started: asyncio.Future[str] | None = None
        self.writer: asyncio.StreamWriter | None = None
        self.task: asyncio.Task[None] | None = None

    async def login(self, port: int, setup: tuple[str, ...], after: tuple[str, ...]) -> None:
        reader, self.writer = await asyncio.open_connection(HOST, port)
        self.started = asyncio.get_running_loop().create_future()
        self.task = asyncio.create_task(self._read(reader))
        for line in setup:
            self.decoder.note_command(line)
        self.writer.write("".join(f"{line}\n" for line in (*setup, "guest", "")).encode())
        await self.writer.drain()
        await asyncio.wait_for(asyncio.shield(self.started), LOGIN_TIMEOUT)
        if after:
            self.writer.write("".join(f"{line}\n" for line in after).encode())

    async def _read(self, reader: asyncio.StreamReader) -> None:
        try:
            while data := await reader.read(65536):
                for event in self.decoder.feed(data):
                    if (
                        isinstance(event, Text)
                        and started_as(event.text) is not None
                        and self.started is not None
                        and not self.started.done()
                    ):
                        self.started.set_result(event.text)
        except (ConnectionError, OSError):
            pass
        if self.started is not None and not self.started.done():
            self.started.set_exception(ConnectionError("the server closed the connection"))

    async def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task


@dataclass
class Step:
    size: int  # online when the step ended
    logins: int
    wall: float
    cpu: float

    @property
    def wall_per_login(self) -> float:
        return self.wall / self.logins

    @property
    def cpu_per_login(self) -> float:
        return self.cpu / self.logins


async def log_in(
    pool: list[Client], count: int, port: int, concurrency: int, after: tuple[str, ...]
) -> None:
    gate = asyncio.Semaphore(concurrency)

    async def one() -> Client:
        async with gate:
            client = Client()
            await client.login(port, (), after)
            return client

    pool += await asyncio.gather(*(one() for _ in range(count)))


async def grow(
    port: int, sizes: list[int], concurrency: int, cpu: Callable[[], float]
) -> tuple[list[Step], list[Client]]:
    pool: list[Client] = []
    steps: list[Step] = []
    for size in sizes:
        count = size - len(pool)
        cpu_before, started = cpu(), time.perf_counter()
        await log_in(pool, count, port, concurrency, ("+channel 1",))
        steps.append(Step(len(pool), count, time.perf_counter() - started, cpu() - cpu_before))
    return steps, pool


async def close_all(pool: list[Client]) -> None:
    await asyncio.gather(*(client.close() for client in pool))


async def bench_icswire(args: argparse.Namespace, server: ServerProcess) -> list[Step]:
    listeners: list[Client] = []
    for index in range(args.listeners):
        client = Client()
        after = ("iset pin 1", "+channel 1") if index == 0 else ("iset pin 1",)
        await client.login(server.port, (LISTENER_LEVEL2,), after)
        listeners.append(client)
    steps, pool = await grow(server.port, args.sizes, args.concurrency, server.cpu_seconds)
    await close_all(pool + listeners)
    return steps


async def bench_floor(args: argparse.Namespace, port: int, pid: int) -> list[Step]:
    steps, pool = await grow(
        port, args.sizes, args.concurrency, functools.partial(process_cpu_seconds, pid)
    )
    await close_all(pool)
    return steps


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.2f} ms"


def report(steps: list[Step], floor: list[Step]) -> None:
    first, last = steps[0], steps[-1]
    for step, floor_step in zip(steps, floor, strict=True):
        print(
            f"{step.size:>6} online: server CPU {ms(step.cpu_per_login)} per login, wall"
            f" {ms(step.wall_per_login)} (floor {ms(floor_step.wall_per_login)}, "
            f"{step.wall_per_login / floor_step.wall_per_login:.1f}x)"
        )
    ratio = last.cpu_per_login / first.cpu_per_login
    verdict = "met" if ratio < TARGET_RATIO else "NOT met"
    print(
        f"CPU per login at {last.size} / at {first.size}: {ratio:.2f} "
        f"(target under {TARGET_RATIO}: {verdict})"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--sizes", type=lambda t: sorted(int(x) for x in t.split(",")), default=[1000, 2000, 4000]
    )
    parser.add_argument("--concurrency", type=int, default=50, help="logins at a time")
    parser.add_argument("--listeners", type=int, default=20)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="icswire-logins-") as tmp:
        try:
            raise_fd_limit(2 * (args.sizes[-1] + args.listeners) + FD_SLACK)
            server = start_server(Path(tmp), None)
            try:
                steps = asyncio.run(bench_icswire(args, server))
            finally:
                server.stop()
            floor_process, floor_port = start_floor()
            try:
                floor = asyncio.run(bench_floor(args, floor_port, floor_process.pid))
            finally:
                floor_process.send_signal(signal.SIGTERM)
                floor_process.wait(30)
        except (SetupError, TimeoutError, ConnectionError, OSError) as exc:
            print(f"cannot run the benchmark: {type(exc).__name__}: {exc}", file=sys.stderr)
            return 2
    report(steps, floor)
    return 0


if __name__ == "__main__":
    sys.exit(main())
