"""Does a cluster scale? The games and fan-out benches on clusters of 1, 2 (and more)
nodes, in one run, reported as N-node / 1-node ratios; above all, the CPU that all nodes
together spend a move (issue 21: within 1.15x of one node at 2 nodes, 1.3x at 4, below
saturation: ``--think`` paces the players so no node is busy all the time).

``python bench/cluster.py [--nodes 1,2] [--games 100] [--observers 10] [--plies 40]
[--think MS] [--listeners 5000] [--runs 3] [--rounds 1] [--nats nats://127.0.0.1:4222]
[--database URL]`` starts
``icswire serve --cluster ... --cluster-name NAME --node nI --database URL`` processes on
free 127.0.0.1 ports: the 1-node case is a cluster too (same options, same NATS traffic to
the registry), so only the node count differs. Every case has a fresh cluster: a new
``--cluster-name`` (its key-value buckets deleted afterwards) and a database whose icswire
tables were dropped. The database (PostgreSQL, shared by the nodes) is ``test``
on 127.0.0.1 unless told; NATS must have JetStream on.

- games (``bench/games.py``'s clients and measures, at bot speed): game i's challenger on
  node i, its opponent on node i + 1 (the game lives with the one who accepts: the games
  are spread over the nodes, and with two nodes every pair spans both), observer j on node
  j (every game has observers on every node). Reported: moves/s, p50/p99 of the delay from
  a move to its last observer's board, the CPU of each node in the playing phase.
- fan-out (``bench/fanout.py``'s clients): ``--listeners`` level 2 listeners logged in, in
  turn on each node, the shouter on the first; reported: the time to log them all in, the
  time until the shouter's node counts them all (an untimed shout repeated until its
  ``(shouted to N players)`` says so: the other node's arrivals reach it through NATS), then
  ``--runs`` shouts, each timed from the write to the last listener's decoded record (median
  and worst over the runs), and each node's CPU for the logins and per shout.

After the table, the floor (``bench/transport_floor.py``, paced as the one-node case's moves
were): the CPU of the cheapest message between two processes on this machine, and the
least ratio it allows at each node count: a move crosses at least
:func:`messages_a_move` messages between nodes, each costing at least that floor.

``--listeners 0`` leaves the fan-out cases out. ``--profile DIR`` runs each node of the
games cases under cProfile (the playing phase only, each node's main-thread CPU clock
unless ``--profile-clock wall``) into ``DIR/{N}nodes-n{I}.prof``. ``--rounds R`` repeats
the comparison R times, each round in the other order (1 then 2 nodes, then 2 then 1), and
reports each ratio's range over the rounds: the machine is shared and two nodes on two
cores compete with the bench's own process.

Exit status: 0 when every case ran (a benchmark reports), 1 if a case had a correctness
failure (a board or shout that never came, a wrong count), 2 if the bench could not run
(no NATS or PostgreSQL, a node that never listened, a login or setup step that timed out).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import statistics
import sys
import tempfile
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path

import nats
from sqlalchemy import create_engine

import fanout
import games
import transport_floor
from harness import HOST, ServerProcess, SetupError, raise_fd_limit
from icswire.server.core.storage import store

NATS_URL = "nats://127.0.0.1:4222"
DATABASE_URL = "postgresql+psycopg://postgres@127.0.0.1:5432/test"
BUCKETS = ("users", "games", "seeks")
JOIN_SETTLE = 1.0  # seconds after the last node listens: every node has heard every other
SETTLE_TIMEOUT = 60.0  # seconds the cluster may take to count every listener
SETTLE_PAUSE = 0.2
FD_SLACK = 200


# -- the cluster ----------------------------------------------------------------------------


class Cluster:
    """``nodes`` ``icswire serve`` nodes of a cluster of a new name, on an emptied database."""

    def __init__(self, args: argparse.Namespace, nodes: int, tmp: Path) -> None:
        self.args = args
        self.name = f"bench{uuid.uuid4().hex[:10]}"
        self.count = nodes
        self.tmp = tmp
        self.servers: list[ServerProcess] = []

    async def start(self) -> None:
        """Empty the database, then start the nodes one after the other (a node listens once
        it has heard the others' heartbeats for a while)."""
        await asyncio.to_thread(drop_tables, self.args.database)
        try:
            for index in range(self.count):
                data_dir = self.tmp / f"{self.name}-n{index}"
                data_dir.mkdir()
                extra = (
                    *("--cluster", self.args.nats, "--cluster-name", self.name),
                    *("--node", f"n{index}", "--database", self.args.database),
                )
                profile = None
                if self.args.profile is not None:
                    profile = self.args.profile / f"{self.count}nodes-n{index}.prof"
                    profile.unlink(missing_ok=True)
                server = ServerProcess(data_dir, profile, self.args.profile_clock, extra=extra)
                self.servers.append(server)
                await asyncio.to_thread(server.wait_listening)
        except BaseException:
            await self.stop()
            raise
        await asyncio.sleep(JOIN_SETTLE)

    async def stop(self) -> list[tuple[float, int | None]]:
        """Stop the nodes together (SIGTERM), delete the cluster's buckets: each node's
        shutdown time and exit status."""
        stopped = await asyncio.gather(*(asyncio.to_thread(s.stop) for s in self.servers))
        await delete_buckets(self.args.nats, self.name)
        return list(stopped)

    def cpu(self) -> list[float]:
        return [s.cpu_seconds() for s in self.servers]

    def tracebacks(self) -> list[int]:
        """How many tracebacks each node logged."""
        return [s.log_path.read_text("utf-8", "replace").count("Traceback") for s in self.servers]


def drop_tables(url: str) -> None:
    try:
        engine = create_engine(store.database_url(Path("."), url))
        try:
            store.metadata.drop_all(engine)
        finally:
            engine.dispose()
    except Exception as exc:  # no PostgreSQL, no such database
        raise SetupError(f"cannot empty the database {url}: {exc}") from None


async def delete_buckets(url: str, name: str) -> None:
    connection = await nats.connect(url)
    try:
        js = connection.jetstream()
        for bucket in BUCKETS:
            with contextlib.suppress(Exception):  # never made
                await js.delete_key_value(f"{name}_{bucket}")
    finally:
        await connection.close()


async def check_nats(url: str) -> None:
    try:
        connection = await nats.connect(url, connect_timeout=5, max_reconnect_attempts=0)
    except Exception as exc:
        raise SetupError(f"no NATS server at {url}: {exc}") from None
    try:
        await connection.jetstream().account_info()
    except Exception as exc:
        raise SetupError(f"the NATS server at {url} has no JetStream: {exc}") from None
    finally:
        await connection.close()


def minus(after: list[float], before: list[float]) -> list[float]:
    return [a - b for a, b in zip(after, before, strict=True)]


# -- the two benches on a cluster -------------------------------------------------------------


@dataclass
class GamesCase:
    nodes: int
    plies: int = 0
    moves_per_s: float = float("nan")
    p50: float = float("nan")
    p99: float = float("nan")
    cpus: list[float] = field(default_factory=list)  # each node's, in the playing phase
    failures: list[str] = field(default_factory=list)


async def games_case(args: argparse.Namespace, cluster: Cluster) -> GamesCase:
    found = GamesCase(cluster.count)
    cast, seats, watchers = games.cast(args)
    clients: list[games.Client] = [*seats, *watchers]
    try:
        async with asyncio.timeout(args.hard_timeout):
            phase = await games.run(
                args, cluster.servers, cast, seats, watchers, split=args.pairs == "split"
            )
    except TimeoutError:
        raise SetupError(f"the games took more than {args.hard_timeout:g} s") from None
    finally:
        await asyncio.gather(*(c.close() for c in clients))
    plies = sum(len(g.sent) for g in cast)
    delays = games.move_delays(cast, args.observers)
    found.plies = plies
    found.moves_per_s = plies / phase.wall
    if delays:
        found.p50 = games.percentile(delays, 50)
        found.p99 = games.percentile(delays, 99)
    found.cpus = phase.server_cpus
    found.failures = games.failures(args, cast, seats, phase)
    print(
        f"  {plies} plies in {phase.wall:.2f} s = {found.moves_per_s:.0f} moves/s; move -> "
        f"last observer p50 {games.ms(found.p50)}, p99 {games.ms(found.p99)}; "
        f"node cpu {cpus_text(found.cpus)}",
        flush=True,
    )
    return found


@dataclass
class FanoutCase:
    nodes: int
    login: float = float("nan")  # seconds to log the listeners in
    settled: float = float("nan")  # seconds more until the shouter's node counted them all
    login_cpus: list[float] = field(default_factory=list)
    runs: list[fanout.Run] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)

    @property
    def last(self) -> float:
        """The median over the runs of the shout's time to its last listener."""
        return statistics.median(r.last for r in self.runs) if self.runs else float("nan")


async def settle(shouter: fanout.Client, expected: int, case: int) -> int | None:
    """Shout (untimed) until the shouter's node counts ``expected`` listeners; the last
    count if it never does within SETTLE_TIMEOUT."""
    assert shouter.writer is not None
    deadline = time.monotonic() + SETTLE_TIMEOUT
    count = None
    attempt = 0
    while time.monotonic() < deadline:
        shout = fanout.Shout(f"settle-{case}-{attempt}-{os.getpid()}", expected)
        shouter.shout = shout
        shouter.writer.write(f"shout {shout.marker}\n".encode())
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(shout.replied.wait(), max(0.0, deadline - time.monotonic()))
        shouter.shout = None
        count = shout.reply_count
        if count == expected:
            return count
        attempt += 1
        await asyncio.sleep(SETTLE_PAUSE)
    return count


async def fanout_case(args: argparse.Namespace, cluster: Cluster, case: int) -> FanoutCase:
    found = FanoutCase(cluster.count)
    servers = cluster.servers
    pool: list[fanout.Client] = []
    shouter = fanout.Client(set())
    try:
        await shouter.login(servers[0].port, ())
        before = cluster.cpu()
        ports = [s.port for s in servers]
        found.login = await fanout.grow(pool, args.listeners, ports, args.concurrency)
        found.login_cpus = minus(cluster.cpu(), before)
        started = time.perf_counter()
        count = await settle(shouter, len(pool), case)
        found.settled = time.perf_counter() - started
        if count != len(pool):
            found.failures.append(
                f"after {SETTLE_TIMEOUT:g} s the shouter's node counted {count} listeners, "
                f"not {len(pool)}"
            )
            return found
        await asyncio.sleep(0.5)  # let the settling shouts' output drain
        for run in range(args.runs):
            marker = f"cluster-{case}-{cluster.count}-{run}-{os.getpid()}"
            outcome = await fanout.shout_once(shouter, pool, marker, servers, args.timeout)
            if isinstance(outcome, str):
                found.failures.append(outcome)
                break
            found.runs.append(outcome)
            await asyncio.sleep(0.3)
    finally:
        await asyncio.gather(*(c.close() for c in (shouter, *pool)))
    if found.runs:
        per_shout = [
            statistics.median(r.server_cpus[i] for r in found.runs) for i in range(cluster.count)
        ]
        print(
            f"  {len(pool)} listeners logged in in {found.login:.2f} s (node cpu "
            f"{cpus_text(found.login_cpus)}), counted by the shouter's node "
            f"{found.settled:.2f} s later; shout -> last listener "
            f"{', '.join(games.ms(r.last) for r in found.runs)}; node cpu a shout "
            f"{cpus_text(per_shout)}",
            flush=True,
        )
    return found


# -- the report ---------------------------------------------------------------------------------


def cpus_text(cpus: list[float]) -> str:
    return " + ".join(f"{c:.2f}" for c in cpus) + " s"


def span(values: list[float], digits: int = 2) -> str:
    """``a`` or ``lo .. hi`` (NaNs left out)."""
    values = [v for v in values if v == v]
    if not values:
        return "-"
    lo, hi = min(values), max(values)
    return f"{lo:.{digits}f}" if lo == hi else f"{lo:.{digits}f} .. {hi:.{digits}f}"


@dataclass
class Row:
    """A figure of both cases: its value per round and node count, its ratio per round."""

    label: str
    unit: str
    scale: float
    values: dict[int, list[float]] = field(default_factory=dict)

    def add(self, nodes: int, value: float) -> None:
        self.values.setdefault(nodes, []).append(value * self.scale)

    def text(self, counts: list[int]) -> str:
        """The values at each node count, then each count's ratio to the first's."""
        base = self.values.get(counts[0], [])
        cells = [f"{span(self.values.get(n, []), 1):>15}" for n in counts]
        for n in counts[1:]:
            ratios = [b / a for a, b in zip(base, self.values.get(n, []), strict=False) if a]
            cells.append(f"{span(ratios):>12}")
        return f"{self.label:<34} {' '.join(cells)}  {self.unit}"


def report(
    game_cases: list[GamesCase], fanout_cases: list[FanoutCase], args: argparse.Namespace
) -> None:
    rows = {
        "moves": Row("games: moves/s", "moves/s", 1),
        "p50": Row("  move -> last observer, p50", "ms", 1000),
        "p99": Row("  move -> last observer, p99", "ms", 1000),
        "gcpu": Row("  server cpu, all nodes", "s", 1),
        "gcpu/move": Row("  server cpu a move, all nodes", "ms", 1000),
        "login": Row(f"fan-out: {args.listeners} listeners logged in", "s", 1),
        "settled": Row("  then counted by the shouter's node", "s", 1),
        "lcpu": Row("  login cpu, all nodes", "s", 1),
        "last": Row("  shout -> last listener (median)", "ms", 1000),
        "worst": Row("  shout -> last listener (worst)", "ms", 1000),
        "scpu": Row("  server cpu a shout, all nodes", "ms", 1000),
    }
    for g in game_cases:
        rows["moves"].add(g.nodes, g.moves_per_s)
        rows["p50"].add(g.nodes, g.p50)
        rows["p99"].add(g.nodes, g.p99)
        rows["gcpu"].add(g.nodes, sum(g.cpus))
        if g.plies:
            rows["gcpu/move"].add(g.nodes, sum(g.cpus) / g.plies)
    for f in fanout_cases:
        rows["login"].add(f.nodes, f.login)
        rows["settled"].add(f.nodes, f.settled)
        rows["lcpu"].add(f.nodes, sum(f.login_cpus))
        if f.runs:
            rows["last"].add(f.nodes, f.last)
            rows["worst"].add(f.nodes, max(r.last for r in f.runs))
            rows["scpu"].add(f.nodes, statistics.median(r.server_cpu for r in f.runs))
    counts = args.nodes
    pace = f"{args.think:g} ms thinking" if args.think else "bot speed"
    print()
    print(
        f"{args.games} games x {args.observers} observers, {args.plies} plies, {pace}; "
        f"pairs {args.pairs}; {args.listeners} listeners, {args.runs} shouts; "
        f"{args.rounds} round(s); "
        f"{os.cpu_count()} cores"
    )
    heads = [f"{n} node(s)" for n in counts] + [f"{n} / {counts[0]}" for n in counts[1:]]
    widths = [15] * len(counts) + [12] * (len(counts) - 1)
    print(f"{'':<34} " + " ".join(f"{h:>{w}}" for h, w in zip(heads, widths, strict=True)))
    for row in rows.values():
        if row.values:
            print(row.text(counts))
    print("(a range is the lowest .. highest over the rounds; a ratio is taken within a round)")


def messages_a_move(nodes: int, split: bool) -> float:
    """The messages between nodes a move costs at least in this workload: its board to
    each other node (every node has observers of every game) and, with the players split,
    the forwarded move of the half of the moves whose mover is not on the game's node."""
    return nodes - 1 + (0.5 if split and nodes > 1 else 0.0)


async def report_floor(game_cases: list[GamesCase], args: argparse.Namespace) -> None:
    """What the cheapest message between processes implies for the ratios above
    (bench/transport_floor.py), paced as the one-node case's moves were."""
    ones = [g for g in game_cases if g.nodes == 1 and g.plies]
    if not ones or len(args.nodes) < 2:
        return
    rate = statistics.median(g.moves_per_s for g in ones)
    base = statistics.median(sum(g.cpus) / g.plies for g in ones)
    count = int(min(1000, max(200, rate * 8)))
    floor = await transport_floor.measure(rate, count, args.nats)
    print(f"floor at {rate:.0f} messages/s: {transport_floor.describe(floor)}")
    for n in args.nodes[1:]:
        messages = messages_a_move(n, args.pairs == "split")
        least = transport_floor.floor_ratio(base, messages, floor)
        print(
            f"  {n} nodes: a move crosses {messages:g} messages; "
            f"{n} / 1 is at least {least:.2f} (1 + {messages:g} x floor / 1-node cpu a move)"
        )


# -- running it -----------------------------------------------------------------------------------


async def case(
    args: argparse.Namespace, tmp: Path, nodes: int, bench: str, index: int
) -> GamesCase | FanoutCase:
    cluster = Cluster(args, nodes, tmp)
    print(f"{bench}, {nodes} node(s), cluster {cluster.name}:", flush=True)
    await cluster.start()
    found: GamesCase | FanoutCase
    try:
        if bench == "games":
            found = await games_case(args, cluster)
        else:
            found = await fanout_case(args, cluster, index)
    finally:
        stopped = await cluster.stop()
    shutdowns = ", ".join(
        f"{seconds:.2f} s ({'killed' if status is None else f'status {status}'})"
        for seconds, status in stopped
    )
    tracebacks = cluster.tracebacks()
    print(f"  shutdown {shutdowns}; tracebacks logged {tracebacks}", flush=True)
    if any(tracebacks):
        for server, count in zip(cluster.servers, tracebacks, strict=True):
            if count:
                print(f"  the log of {server.log_path.parent.name} ends:\n{server.log_tail(30)}")
    for failure in found.failures:
        print(f"  FAIL: {failure}", flush=True)
    return found


async def bench(args: argparse.Namespace, tmp: Path) -> int:
    await check_nats(args.nats)
    game_cases: list[GamesCase] = []
    fanout_cases: list[FanoutCase] = []
    index = 0
    for round_ in range(args.rounds):
        order = args.nodes if round_ % 2 == 0 else args.nodes[::-1]
        for nodes in order:
            found = await case(args, tmp, nodes, "games", index)
            assert isinstance(found, GamesCase)
            game_cases.append(found)
            index += 1
        for nodes in order if args.listeners else ():
            found = await case(args, tmp, nodes, "fan-out", index)
            assert isinstance(found, FanoutCase)
            fanout_cases.append(found)
            index += 1
    report(game_cases, fanout_cases, args)
    await report_floor(game_cases, args)
    failed = sum(bool(c.failures) for c in game_cases) + sum(bool(c.failures) for c in fanout_cases)
    if failed:
        print(f"FAIL: {failed} case(s) had correctness failures (above)")
        return 1
    return 0


def node_counts(text: str) -> list[int]:
    counts = [int(word) for word in text.split(",")]
    if not counts or min(counts) < 1 or len(set(counts)) != len(counts):
        raise argparse.ArgumentTypeError("distinct node counts, e.g. 1,2,4")
    return counts


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--nodes", type=node_counts, default=[1, 2], metavar="1,2,4", help="node counts"
    )
    parser.add_argument("--games", type=games.games_count, default=100, metavar="G")
    parser.add_argument("--observers", type=int, default=10, metavar="O", help="per game")
    parser.add_argument("--plies", type=int, default=40, help="then the side to move resigns")
    parser.add_argument(
        "--think", type=float, default=0.0, metavar="MS", help="a player's pause before moving"
    )
    parser.add_argument(
        "--listeners",
        type=int,
        default=fanout.TARGET_N,
        metavar="N",
        help="fan-out listeners (0: no fan-out cases)",
    )
    parser.add_argument("--runs", type=int, default=3, help="timed shouts a fan-out case")
    parser.add_argument("--rounds", type=int, default=1, help="1-node / 2-node comparisons")
    parser.add_argument("--concurrency", type=int, default=200, help="logins etc. at a time")
    parser.add_argument("--pair-concurrency", type=int, default=1, help="matches at a time")
    parser.add_argument("--timeout", type=float, default=300.0, help="seconds games may take")
    parser.add_argument(
        "--hard-timeout", type=float, default=900.0, help="seconds a games case may take"
    )
    parser.add_argument(
        "--pairs",
        choices=("split", "together"),
        default="split",
        help="a game's two players on two nodes (split) or on one (together: no forwarded"
        " moves, only the boards of the observers on the other node cross NATS)",
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--profile",
        type=Path,
        default=None,
        metavar="DIR",
        help="profile each node's playing phase into DIR/{N}nodes-n{I}.prof",
    )
    parser.add_argument("--profile-clock", choices=("wall", "cpu"), default="cpu")
    parser.add_argument("--nats", default=NATS_URL, metavar="URL")
    parser.add_argument("--database", default=DATABASE_URL, metavar="URL", help="PostgreSQL")
    args = parser.parse_args(argv)
    if not 0 <= args.listeners <= fanout.MAX_LISTENERS:
        parser.error(f"--listeners: from 0 to {fanout.MAX_LISTENERS}")
    if args.profile is not None:
        args.profile = args.profile.resolve()
        args.profile.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="icswire-cluster-") as tmp:
        try:
            connections = max(args.games * (2 + args.observers), args.listeners + 1)
            limit = raise_fd_limit(connections + FD_SLACK)
            print(
                f"nodes on {HOST}, NATS {args.nats}, database {args.database}, "
                f"RLIMIT_NOFILE {limit}"
            )
            return asyncio.run(bench(args, Path(tmp)))
        except (SetupError, TimeoutError, ConnectionError, OSError) as exc:
            print(f"cannot run the benchmark: {type(exc).__name__}: {exc}", file=sys.stderr)
            return 2


if __name__ == "__main__":
    sys.exit(main())
