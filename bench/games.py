"""How long does a move take to reach the last observer's board, with G games at bot speed?

``python bench/games.py [--games 200] [--observers 10] [--plies 40] [--think MS]
[--timeout 300] [--hard-timeout 900] [--profile FILE [--profile-clock wall|cpu]]`` starts
``python -m icswire serve`` in a separate process (its own core, as ``bench/fanout.py``
does) on a free 127.0.0.1 port, then, in this process, logs in 2 x G guest players and
G x O guest observers, every one with its own :class:`~icswire.protocol.decoder.Decoder`
decoding everything it is sent.

Players (level 2: DG_MY_GAME_STARTED 15, DG_MY_GAME_RESULT 16, DG_SEND_MOVES 24 with its
algebraic 33 and smith 34 parts; ``style 13``, no boards): one of each pair sends
``match <other> 5 0``, the other ``accept``\\s it; the colours are read from
DG_MY_GAME_STARTED. Observers (level 0, style 12 boards with ``iset ms 1``) then ``observe``
their game. Only then does the playing phase begin: every White makes a random legal move
(python-chess), and each player answers its opponent's DG_SEND_MOVES at once with a random
legal move of its own (bot speed), until ``--plies`` plies are played, when the side to
move resigns (or the game ends by itself: mate, stalemate, no mating material).

Measured: for each move, t0 is taken just before the player writes it (all clients live in
this process: one clock); each observer's time is when it has decoded the style 12 board
of that ply (found from the board's move number and side to move). A move's delay is that
of its LAST observer. Reported: moves/s (plies / wall time of the playing phase, from the
first move to the last observer's last board), p50/p99/max of the per-move delay, the
time from a move to the opponent's DG_SEND_MOVES, and the CPU seconds the server process
and this process used in the playing phase. Target (issue 5): no delay above 100 ms at 200
games: the verdict is given on the max, and on the p99 as well.

Games are paired one at a time (``--pair-concurrency``): ``Games.start`` picks a game's
number before it awaits the store and registers the game after, so two games started
together get the same number (the bench checks that every number is distinct).
``--think MS`` makes each player wait before answering, a random 0.5 to 1.5 times MS, and
spreads the first moves over MS (0, the default, is bot speed: every game always has a
move in flight, and the mean delay is games / moves per second).
The CPU used by other processes during the playing phase is reported too: on a shared
machine the figures are only worth something when it is near zero.

``--profile FILE`` runs the server under cProfile, switched on (SIGUSR1) just before the
first move and off (SIGUSR2) after the last board: a profile of the playing phase only,
with cProfile's wall clock or (``--profile-clock cpu``) the main thread's CPU time.

Exit status: 0 whether or not the target is met (a benchmark reports), 1 if a board or a
game result never came within ``--timeout`` (a correctness failure), 2 if the bench could
not run (no server, a login, match or observe that timed out).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import math
import os
import pstats
import random
import signal
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Awaitable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import chess

from icswire.protocol.decoder import Decoder
from icswire.protocol.events import Style12Line, Text

DG_MY_GAME_STARTED = 15
DG_MY_GAME_RESULT = 16
DG_SEND_MOVES = 24
DG_MOVE_ALGEBRAIC = 33
DG_MOVE_SMITH = 34
PLAYER_DGS = frozenset(
    {DG_MY_GAME_STARTED, DG_MY_GAME_RESULT, DG_SEND_MOVES, DG_MOVE_ALGEBRAIC, DG_MOVE_SMITH}
)
PLAYER_LEVEL2 = "level2settings=" + "".join(
    "1" if n in PLAYER_DGS else "0" for n in range(max(PLAYER_DGS) + 1)
)
CHALLENGE = "Challenge: "
ILLEGAL = "Illegal move"
NO_SUCH_GAME = "There is no such game."
OBSERVE_RETRY = 0.1  # seconds before observing again a game the node has not heard of
TIME_CONTROL = "5 0"
TARGET_GAMES = 200
TARGET_SECONDS = 0.100
MAX_GAMES = 1000
STEP_TIMEOUT = 60.0
FD_SLACK = 200
AFTER_MAX = 60.0  # seconds to wait for the server to go idle after the phase
AFTER_STEP = 0.5
AFTER_IDLE = 0.1  # of a core: idle

from harness import (  # noqa: E402
    HOST,
    ServerProcess,
    SetupError,
    raise_fd_limit,
    start_server,
    started_as,
)

# -- games as the bench sees them ---------------------------------------------------------


@dataclass(eq=False)
class BenchGame:
    """One game: its players, and for each ply when it was written and when its
    observers had its board."""

    index: int
    observers: int
    number: int = 0
    white: Player | None = None
    black: Player | None = None
    sent: list[float] = field(default_factory=list)  # ply k (1-based) at k - 1
    answered: list[float] = field(default_factory=list)  # opponent's DG_SEND_MOVES
    boards: list[int] = field(default_factory=list)  # observers that have decoded ply k
    last: list[float] = field(default_factory=list)  # when the last of them did
    ended: int = 0  # players that have DG_MY_GAME_RESULT
    result: str = ""
    stray: int = 0  # boards of plies never sent, or seen twice by one observer
    finished: float = 0.0  # when the result and every board were in
    done: asyncio.Event = field(default_factory=asyncio.Event)

    def moved(self) -> None:
        self.sent.append(time.perf_counter())
        self.boards.append(0)
        self.last.append(0.0)

    def complete(self) -> bool:
        return self.ended == 2 and all(n == self.observers for n in self.boards)

    def check(self) -> None:
        if not self.done.is_set() and self.complete():
            self.finished = time.perf_counter()
            self.done.set()


class Client(asyncio.Protocol):
    """A connection with its own decoder, fed straight from the transport (a protocol, not
    a stream reader and a task: the bench's own cost per board is part of every delay)."""

    def __init__(self, datagrams: frozenset[int]) -> None:
        self.decoder = Decoder(datagrams)
        self.name = ""
        self.started: asyncio.Future[str] | None = None
        self.transport: asyncio.Transport | None = None
        self.lost: asyncio.Future[None] | None = None

    async def login(self, port: int, setup: tuple[str, ...]) -> None:
        loop = asyncio.get_running_loop()
        self.started = loop.create_future()
        self.lost = loop.create_future()
        for line in setup:
            self.decoder.note_command(line)
        await loop.create_connection(lambda: self, HOST, port)
        self.send_lines((*setup, "guest", ""))
        self.name = await asyncio.wait_for(asyncio.shield(self.started), STEP_TIMEOUT)

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport

    def send(self, line: str) -> None:
        assert self.transport is not None
        self.transport.write(f"{line}\n".encode("latin-1"))

    def send_lines(self, lines: tuple[str, ...]) -> None:
        assert self.transport is not None
        self.transport.write("".join(f"{line}\n" for line in lines).encode("latin-1"))

    def data_received(self, data: bytes) -> None:
        events = self.decoder.feed(data)
        now = time.perf_counter()
        for event in events:
            self.on_event(event, now)

    def connection_lost(self, exc: Exception | None) -> None:
        if self.started is not None and not self.started.done():
            self.started.set_exception(ConnectionError("the server closed the connection"))
        if self.lost is not None and not self.lost.done():
            self.lost.set_result(None)

    def on_event(self, event: Any, now: float) -> None:
        started = self.started
        if started is None or started.done() or type(event) is not Text:
            return
        if (name := started_as(event.text)) is not None:
            started.set_result(name.removesuffix("(U)"))

    async def close(self) -> None:
        if self.transport is None or self.lost is None:
            return
        self.transport.close()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(asyncio.shield(self.lost), 2)
        if not self.lost.done():
            self.transport.abort()


class Player(Client):
    """Plays random legal moves as soon as it is its turn, once ``playing`` is set."""

    def __init__(self, game: BenchGame, plies: int, think: float, rng: random.Random) -> None:
        super().__init__(PLAYER_DGS)
        self.game = game
        self.plies = plies
        self.think = think
        self.rng = rng
        self.color: bool | None = None
        self.board = chess.Board()
        self.received = 0  # DG_SEND_MOVES records of the game
        self.playing = False
        self.challenged: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.in_game: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.errors: list[str] = []

    def on_event(self, event: Any, now: float) -> None:
        kind = getattr(event, "dg", None)
        if kind == DG_SEND_MOVES:
            self._move_arrived(event, now)
        elif kind == DG_MY_GAME_STARTED:
            game = self.game
            game.number = event.gamenumber
            self.color = chess.WHITE if event.whitename == self.name else chess.BLACK
            if self.color == chess.WHITE:
                game.white = self
            else:
                game.black = self
            if not self.in_game.done():
                self.in_game.set_result(None)
        elif kind == DG_MY_GAME_RESULT:
            self.game.ended += 1
            self.game.result = f"{event.result_code} {event.score}"
            self.game.check()
        elif type(event) is Text:
            if event.text.startswith(CHALLENGE) and not self.challenged.done():
                self.challenged.set_result(None)
            elif event.text.startswith(ILLEGAL):
                self.errors.append(f"{self.name}: {event.text}")
            else:
                super().on_event(event, now)

    def _move_arrived(self, event: Any, now: float) -> None:
        self.received += 1
        ply = self.received
        if ply > len(self.board.move_stack):  # the opponent's move
            smith: str = event.smith  # SMITH: e2e4, e4d5p, e1g1c, e7e8Q, d7c8nQ
            promotion = smith[-1].lower() if smith[-1] in "QRBN" else ""
            move = chess.Move.from_uci(smith[:4] + promotion)
            if not self.board.is_legal(move):
                self.errors.append(f"ply {ply}: {smith} ({event.algebraic}) is not legal here")
                return
            self.board.push(move)
            game = self.game
            if ply <= len(game.sent) and len(game.answered) == ply - 1:
                game.answered.append(now)
            if self.think:
                pause = self.think * self.rng.uniform(0.5, 1.5)
                asyncio.get_running_loop().call_later(pause, self.take_turn)
            else:
                self.take_turn()

    def take_turn(self) -> None:
        """Move, resign, or wait for the server to end the game."""
        board = self.board
        if not self.playing or board.turn != self.color:
            return
        moves = list(board.legal_moves)
        if not moves or board.is_insufficient_material():
            return  # mate, stalemate, no mating material: the server ends the game itself
        if len(board.move_stack) >= self.plies:
            self.send("resign")
            return
        move = self.rng.choice(moves)
        board.push(move)
        self.game.moved()
        self.send(move.uci())


class Observer(Client):
    """Watches one game in style 12 and notes when it has decoded each ply's board."""

    def __init__(self, game: BenchGame) -> None:
        super().__init__(frozenset())
        self.game = game
        self.first_board: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.refused: asyncio.Future[None] | None = None  # the observe in progress refused
        self.seen = 0  # the last ply whose board this observer decoded

    def on_event(self, event: Any, now: float) -> None:
        if type(event) is Style12Line:
            record = event.record
            game = self.game
            if record.game_number != game.number:
                game.stray += 1
                return
            ply = 2 * (record.move_number - 1) + (record.side_to_move == "B")
            if ply == 0 or not self.first_board.done():
                if not self.first_board.done():
                    self.first_board.set_result(None)
                return
            if ply > len(game.sent) or ply <= self.seen:
                game.stray += 1
                return
            self.seen = ply
            index = ply - 1
            game.boards[index] += 1
            game.last[index] = now
            if game.boards[index] == game.observers and index + 1 == len(game.sent):
                game.check()
        elif type(event) is Text:
            if event.text == NO_SUCH_GAME and self.refused is not None:
                if not self.refused.done():
                    self.refused.set_result(None)
            else:
                super().on_event(event, now)


# -- the phases -----------------------------------------------------------------------------


async def bounded(concurrency: int, jobs: list[Any]) -> None:
    """Await the coroutines of ``jobs``, ``concurrency`` at a time; cancel them all on error."""
    gate = asyncio.Semaphore(concurrency)

    async def one(job: Any) -> None:
        async with gate:
            await job

    tasks = [asyncio.create_task(one(job)) for job in jobs]
    try:
        await asyncio.gather(*tasks)
    except BaseException:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        raise


async def log_in(
    clients: list[Client], setup: list[tuple[str, ...]], ports: list[int], n: int
) -> None:
    """Log ``clients[i]`` in on ``ports[i]`` with ``setup[i]``, ``n`` at a time."""
    jobs = [c.login(p, s) for c, s, p in zip(clients, setup, ports, strict=True)]
    await bounded(n, jobs)


async def pair(one: Player, other: Player) -> None:
    """``match other 5 0`` / ``accept one``; both then have DG_MY_GAME_STARTED."""
    one.send(f"match {other.name} {TIME_CONTROL}")
    await asyncio.wait_for(asyncio.shield(other.challenged), STEP_TIMEOUT)
    other.send(f"accept {one.name}")
    await asyncio.wait_for(asyncio.gather(one.in_game, other.in_game), STEP_TIMEOUT)


async def observe(observer: Observer) -> None:
    """``observe N`` until the first board comes: in a cluster the observer's node may not
    have heard of a game just started on another node (it says there is no such game)."""
    loop = asyncio.get_running_loop()
    async with asyncio.timeout(STEP_TIMEOUT):
        while not observer.first_board.done():
            refused = observer.refused = loop.create_future()
            observer.send(f"observe {observer.game.number}")
            await asyncio.wait((observer.first_board, refused), return_when="FIRST_COMPLETED")
            if not observer.first_board.done():
                await asyncio.sleep(OBSERVE_RETRY)
    observer.refused = None


def machine_busy_seconds() -> float:
    """CPU seconds all the machine's cores have spent busy since boot (/proc/stat)."""
    try:
        first = Path("/proc/stat").read_text().splitlines()[0].split()
    except OSError:
        return float("nan")
    jiffies = [int(x) for x in first[1:9]]  # user nice system idle iowait irq softirq steal
    return (sum(jiffies) - jiffies[3] - jiffies[4]) / os.sysconf("SC_CLK_TCK")


def percentile(sorted_values: list[float], q: float) -> float:
    """The nearest-rank ``q`` percentile (0 < q <= 100) of a sorted list."""
    rank = max(1, math.ceil(q / 100 * len(sorted_values)))
    return sorted_values[rank - 1]


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms"


async def wait_for_file(path: Path, seconds: float = 20.0) -> None:
    deadline = time.monotonic() + seconds
    while not path.exists() and time.monotonic() < deadline:
        await asyncio.sleep(0.05)


def print_profile(path: Path, clock: str, top: int = 30) -> None:
    stats = pstats.Stats(str(path))
    for order in ("tottime", "cumulative"):
        print(f"\nserver profile (the playing phase, {clock} clock), top {top} by {order}:")
        stats.sort_stats(order).print_stats(top)
    print("\nserver profile, icswire's own functions (src/icswire/), top by tottime:")
    stats.sort_stats("tottime").print_stats(r"icswire", top)


class GcPauses:
    """How long each of the bench's garbage collections took."""

    def __init__(self) -> None:
        self.times: list[float] = []
        self._start = 0.0

    def callback(self, stage: str, info: dict[str, int]) -> None:
        if stage == "start":
            self._start = time.perf_counter()
        else:
            self.times.append(time.perf_counter() - self._start)


@dataclass
class Phase:
    """The playing phase, measured."""

    started: float
    wall: float
    server_cpus: list[float]  # each server process's
    server_loop_cpus: list[float]  # of server_cpus, their main threads'
    bench_cpu: float
    machine_cpu: float  # every process on the machine
    complete: bool
    gc_pauses: list[float] = field(default_factory=list)  # the bench's, in the phase
    after: float = 0.0  # how long the server stayed busy after the phase
    after_cpu: float = 0.0  # its CPU then
    after_loop_cpu: float = 0.0

    @property
    def server_cpu(self) -> float:
        return sum(self.server_cpus)

    @property
    def server_loop_cpu(self) -> float:
        return sum(self.server_loop_cpus)


def servers_cpu(servers: Sequence[ServerProcess]) -> tuple[list[float], list[float]]:
    """Each server's CPU seconds so far, and those of its main thread."""
    return [s.cpu_seconds() for s in servers], [s.main_thread_cpu_seconds() for s in servers]


def minus(after: list[float], before: list[float]) -> list[float]:
    return [a - b for a, b in zip(after, before, strict=True)]


async def play(
    games: list[BenchGame], servers: Sequence[ServerProcess], args: argparse.Namespace
) -> Phase:
    players = [p for g in games for p in (g.white, g.black) if p is not None]
    if args.profile is not None:
        for server in servers:
            server.signal(signal.SIGUSR1)
    await asyncio.sleep(0.5)  # let the setup's output settle (and the profiler start)
    gc.collect()
    gc.freeze()  # the 2400 clients and their decoders: no full collection walks them again
    pauses = GcPauses()
    gc.callbacks.append(pauses.callback)
    server_cpus, server_loop_cpus = servers_cpu(servers)
    bench_cpu = time.process_time()
    machine_cpu = machine_busy_seconds()
    started = time.perf_counter()
    for player in players:
        player.playing = True
    loop = asyncio.get_running_loop()
    for player in players:  # the Whites move: at once, or spread over one thinking time
        if args.think:
            loop.call_later(random.uniform(0, args.think / 1000), player.take_turn)
        else:
            player.take_turn()
    waits = [asyncio.create_task(g.done.wait()) for g in games]
    _, pending = await asyncio.wait(waits, timeout=args.timeout)
    for task in pending:
        task.cancel()
    gc.callbacks.remove(pauses.callback)
    complete = not pending
    ended = max(g.finished for g in games) if complete else time.perf_counter()
    cpus, loop_cpus = servers_cpu(servers)
    phase = Phase(
        started=started,
        wall=ended - started,
        server_cpus=minus(cpus, server_cpus),
        server_loop_cpus=minus(loop_cpus, server_loop_cpus),
        bench_cpu=time.process_time() - bench_cpu,
        machine_cpu=machine_busy_seconds() - machine_cpu,
        complete=complete,
        gc_pauses=pauses.times,
    )
    if args.profile is not None:
        for server in servers:
            server.signal(signal.SIGUSR2)
        for server in servers:
            if server.profile is not None:
                await wait_for_file(server.profile)
    else:  # work the servers left for later (the store's saves run in a thread)
        server_cpus, server_loop_cpus = servers_cpu(servers)
        quiet_since = time.perf_counter()
        last = sum(server_cpus)
        while time.perf_counter() - ended < AFTER_MAX:
            await asyncio.sleep(AFTER_STEP)
            now = sum(s.cpu_seconds() for s in servers)
            if now - last < AFTER_IDLE * AFTER_STEP:
                break
            last, quiet_since = now, time.perf_counter()
        cpus, loop_cpus = servers_cpu(servers)
        phase.after = quiet_since - ended
        phase.after_cpu = sum(minus(cpus, server_cpus))
        phase.after_loop_cpu = sum(minus(loop_cpus, server_loop_cpus))
    return phase


def cast(args: argparse.Namespace) -> tuple[list[BenchGame], list[Player], list[Observer]]:
    """The games, their players (two a game, in order) and observers (``--observers`` a
    game, in order); in a running event loop."""
    rng = random.Random(args.seed)
    games = [BenchGame(i, args.observers) for i in range(args.games)]
    seats = [Player(g, args.plies, args.think / 1000, rng) for g in games for _ in range(2)]
    watchers = [Observer(g) for g in games for _ in range(args.observers)]
    return games, seats, watchers


async def bench(args: argparse.Namespace, server: ServerProcess) -> int:
    games, seats, watchers = cast(args)
    clients: list[Client] = [*seats, *watchers]
    try:
        async with asyncio.timeout(args.hard_timeout):
            phase = await run(args, [server], games, seats, watchers)
    except TimeoutError:
        raise SetupError(f"the bench took more than {args.hard_timeout:g} s") from None
    finally:
        shutdown, status = await asyncio.to_thread(server.stop)
        await asyncio.gather(*(c.close() for c in clients))
    return report(args, games, seats, phase, shutdown, status)


async def step(name: str, work: Awaitable[None]) -> None:
    """A setup step; one of its clients waiting STEP_TIMEOUT in vain is a SetupError."""
    try:
        await work
    except TimeoutError:
        raise SetupError(f"{name}: a client had no answer in {STEP_TIMEOUT:g} s") from None


async def run(
    args: argparse.Namespace,
    servers: Sequence[ServerProcess],
    games: list[BenchGame],
    seats: list[Player],
    watchers: list[Observer],
    split: bool = True,
) -> Phase:
    """Log in, pair, observe, play. With several servers (the nodes of a cluster) the
    clients are spread over them in turn: game i's challenger on server i, its opponent
    on server i + 1 (the game lives with the one who accepts; both on server i unless
    ``split``), observer j on server j."""
    clients: list[Client] = [*seats, *watchers]
    n = len(servers)
    ports = [servers[(i // 2 + (i % 2 if split else 0)) % n].port for i in range(len(seats))]
    ports += [servers[j % n].port for j in range(len(watchers))]
    t = time.perf_counter()
    setups: list[tuple[str, ...]] = [(PLAYER_LEVEL2,)] * len(seats) + [()] * len(watchers)
    await step("logging in", log_in(clients, setups, ports, args.concurrency))
    print(f"{len(clients)} guests logged in in {time.perf_counter() - t:.2f} s", flush=True)
    for player in seats:
        player.send("style 13")
    for observer in watchers:
        observer.send("style 12")  # FICS's default is style 1
        observer.send("iset ms 1")
    t = time.perf_counter()
    pairs = [pair(seats[2 * i], seats[2 * i + 1]) for i in range(len(games))]
    await step("match / accept", bounded(args.pair_concurrency, pairs))
    print(f"{len(games)} games started in {time.perf_counter() - t:.2f} s", flush=True)
    numbers = Counter(g.number for g in games)
    shared = {n: c for n, c in numbers.items() if c > 1}
    if shared:
        raise SetupError(
            f"games started together were given the same number (number: games): {shared}"
        )
    t = time.perf_counter()
    await step("observe", bounded(args.concurrency, [observe(o) for o in watchers]))
    print(f"{len(watchers)} observers watching in {time.perf_counter() - t:.2f} s", flush=True)
    return await play(games, servers, args)


def report(
    args: argparse.Namespace,
    games: list[BenchGame],
    seats: list[Player],
    phase: Phase,
    shutdown: float,
    status: int | None,
) -> int:
    plies = sum(len(g.sent) for g in games)
    delays = move_delays(games, args.observers)
    replies = sorted(g.answered[i] - g.sent[i] for g in games for i in range(len(g.answered)))
    results = Counter(g.result.split(" ")[0] or "none" for g in games)

    print()
    pace = f"{args.think:g} ms thinking" if args.think else "bot speed"
    print(
        f"{args.games} games x {args.observers} observers, {args.plies} plies at most, "
        f"{pace}, {len(seats) + args.games * args.observers} connections"
    )
    print(f"results: {', '.join(f'{k} {v}' for k, v in sorted(results.items()))}")
    print(f"playing phase: {plies} plies in {phase.wall:.2f} s = {plies / phase.wall:.0f} moves/s")
    others = phase.machine_cpu - phase.server_cpu - phase.bench_cpu
    print(
        f"cpu in the playing phase: server {phase.server_cpu:.2f} s "
        f"({phase.server_cpu / phase.wall:.0%} of a core, "
        f"{phase.server_cpu / plies * 1000:.2f} ms a move; its event loop thread "
        f"{phase.server_loop_cpu:.2f} s, other threads "
        f"{phase.server_cpu - phase.server_loop_cpu:.2f} s), bench {phase.bench_cpu:.2f} s "
        f"({phase.bench_cpu / phase.wall:.0%} of a core, "
        f"{phase.bench_cpu / plies * 1000:.2f} ms a move), other processes {others:.2f} s "
        f"({others / phase.wall:.0%} of a core) on {os.cpu_count()} cores"
    )
    if phase.gc_pauses:
        print(
            f"bench garbage collections in the phase: {len(phase.gc_pauses)}, "
            f"{ms(sum(phase.gc_pauses))} in all, the longest {ms(max(phase.gc_pauses))}"
        )
    if args.profile is None:
        print(
            f"after the phase the server stayed busy {phase.after:.1f} s more, using "
            f"{phase.after_cpu:.2f} s of cpu (event loop thread {phase.after_loop_cpu:.2f} s, "
            f"other threads {phase.after_cpu - phase.after_loop_cpu:.2f} s): work left behind"
        )
    if others / phase.wall > 0.1:
        print("WARNING: other processes were busy during the playing phase: figures are low")
    if delays:
        print(
            f"move -> last observer's board ({len(delays)} moves): "
            f"p50 {ms(percentile(delays, 50))}, p90 {ms(percentile(delays, 90))}, "
            f"p99 {ms(percentile(delays, 99))}, max {ms(delays[-1])}, "
            f"mean {ms(sum(delays) / len(delays))}"
        )
        if not args.think:
            print(
                f"  (at bot speed every game always has a move in flight: by Little's law "
                f"the mean delay is about games / moves/s = {ms(args.games * phase.wall / plies)})"
            )
    slowest = sorted(
        ((g.last[i] - g.sent[i], g, i) for g in games for i in range(len(g.sent)) if g.boards[i]),
        key=lambda item: item[0],
        reverse=True,
    )
    over = sum(1 for d in delays if d > TARGET_SECONDS)
    if slowest:
        print(
            f"  {over} moves ({over / len(delays):.1%}) over {ms(TARGET_SECONDS)}; the worst: "
            + ", ".join(
                f"{ms(d)} (game {g.number} ply {i + 1}, {g.sent[i] - phase.started:.2f} s in)"
                for d, g, i in slowest[:5]
            )
        )
    if replies:
        print(
            f"move -> opponent's DG_SEND_MOVES ({len(replies)} moves): "
            f"p50 {ms(percentile(replies, 50))}, p99 {ms(percentile(replies, 99))}, "
            f"max {ms(replies[-1])}"
        )
    print(
        f"server shutdown (SIGTERM): {shutdown:.2f} s, "
        f"exit status {status if status is not None else 'none (killed)'}"
    )
    if delays and args.games >= TARGET_GAMES:
        worst, p99 = delays[-1], percentile(delays, 99)
        print(
            f"target (no delay above {ms(TARGET_SECONDS)} at {TARGET_GAMES} games): "
            f"{'met' if worst <= TARGET_SECONDS else 'NOT met'} on the max ({ms(worst)}); "
            f"p99 {ms(p99)} {'within' if p99 <= TARGET_SECONDS else 'above'} it"
        )
    else:
        print(f"target ({TARGET_GAMES} games): not measured at {args.games} games")
    if args.profile is not None and args.profile.exists():
        print_profile(args.profile, args.profile_clock)
    failed = failures(args, games, seats, phase)
    if failed:
        print("FAIL: " + "; ".join(failed))
        return 1
    return 0


def move_delays(games: list[BenchGame], observers: int) -> list[float]:
    """Each move's delay to its last observer, sorted (moves every observer had)."""
    return sorted(
        g.last[i] - g.sent[i] for g in games for i in range(len(g.sent)) if g.boards[i] == observers
    )


def failures(
    args: argparse.Namespace, games: list[BenchGame], seats: list[Player], phase: Phase
) -> list[str]:
    """What went wrong in the playing phase (correctness failures)."""
    found = []
    missing = sum(1 for g in games for n in g.boards if n < args.observers)
    unended = sum(1 for g in games if g.ended < 2)
    stray = sum(g.stray for g in games)
    errors = [e for p in seats for e in p.errors]
    if not phase.complete:
        found.append(f"not finished in {args.timeout:g} s")
    if missing:
        found.append(f"{missing} moves never reached all their observers")
    if unended:
        found.append(f"{unended} games without a result for both players")
    if stray:
        found.append(f"{stray} unexpected boards")
    if errors:
        found.append(f"{len(errors)} moves the players could not read: {errors[:3]}")
    return found


def games_count(text: str) -> int:
    value = int(text)
    if not 1 <= value <= MAX_GAMES:
        raise argparse.ArgumentTypeError(f"from 1 to {MAX_GAMES} games")
    return value


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=games_count, default=TARGET_GAMES, metavar="G")
    parser.add_argument("--observers", type=int, default=10, metavar="O", help="per game")
    parser.add_argument("--plies", type=int, default=40, help="then the side to move resigns")
    parser.add_argument(
        "--think", type=float, default=0.0, metavar="MS", help="a player's pause before moving"
    )
    parser.add_argument("--concurrency", type=int, default=200, help="logins etc. at a time")
    parser.add_argument(
        "--pair-concurrency",
        type=int,
        default=1,
        help="matches at a time (1: Games.start numbers games concurrent starts alike)",
    )
    parser.add_argument("--timeout", type=float, default=300.0, help="seconds the games may take")
    parser.add_argument(
        "--hard-timeout", type=float, default=900.0, help="seconds the whole bench may take"
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--profile", type=Path, default=None, metavar="FILE")
    parser.add_argument(
        "--profile-clock",
        choices=("wall", "cpu"),
        default="wall",
        help="cProfile's clock: wall (a quiet machine) or the server thread's CPU time",
    )
    args = parser.parse_args(argv)
    if args.profile is not None:
        args.profile = args.profile.resolve()
        args.profile.unlink(missing_ok=True)

    with tempfile.TemporaryDirectory(prefix="icswire-games-") as tmp:
        try:
            connections = args.games * (2 + args.observers)
            limit = raise_fd_limit(connections + FD_SLACK)
            server = start_server(Path(tmp), args.profile, args.profile_clock)
            print(
                f"server pid {server.process.pid} on {HOST}:{server.port}, "
                f"RLIMIT_NOFILE {limit}, {args.games} games, {args.observers} observers each"
            )
            return asyncio.run(bench(args, server))
        except (SetupError, TimeoutError, ConnectionError, OSError) as exc:
            print(f"cannot run the benchmark: {type(exc).__name__}: {exc}", file=sys.stderr)
            return 2


if __name__ == "__main__":
    sys.exit(main())
