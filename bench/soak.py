"""A soak test: thousands of clients of every kind against one server, for minutes.

``python bench/soak.py [--clients 2000] [--minutes 10] [--seed 1] [--think-min 0.2]
[--think-max 2.0] [--chat-interval 20] [--hostile-interval 8] [--warmup S] [--settle 2]
[--rss-ratio 1.5] [--concurrency 50] [--registered 0.1] [--keep-data DIR]`` starts
``python -m icswire serve`` in a separate process (bench/harness.py; SQLite in a temporary
data directory, a few registered accounts made there first), then runs every client in
this process (asyncio), each connection with its own
:class:`~icswire.protocol.decoder.Decoder` decoding everything it is sent. Clients are
spread over many loopback source addresses (``127.0.0.10``-``127.0.0.254``; the probe on
``127.0.0.9``, hostile clients on ``127.0.0.2``-``127.0.0.5`` only), so per-address
connection caps see a realistic spread. A refused connection or login is retried a few
times, counted and reported, never a crash.

The population (``--clients`` N, the probe extra):

- **players** (20%, in pairs; ``--registered`` of the pairs have accounts): level 2 with
  DG_MY_GAME_STARTED 15, DG_MY_GAME_RESULT 16, DG_SEND_MOVES 24 (algebraic 33 and smith 34
  parts) and DG_MOVE_LIST 25, ``style 13``. One of a pair sends ``match`` (``5 0``, or
  ``1 0`` in "flag" games), the other ``accept``\\s; both play random legal moves
  (python-chess) after a think time drawn from ``--think-min``..``--think-max``, offer and
  accept draws now and then, claim the 50-move rule and repetitions, resign at a random
  ply; in flag games one of them stops moving (the other sends ``flag``) until the server
  ends the game on time. In some games a player drops its connection (or types ``quit``)
  mid-game and comes back a few seconds later: the server adjourns a game of two
  registered players (the pair then ``match``\\es again to resume it: DG_MOVE_LIST must
  bring back every move), aborts one before move 2, forfeits the others; what happened is
  recorded. Then the pair starts a new game.
- **observers** (45%): level 0, style 12, ``iset ms 1``; ``observe`` a random running
  game, sometimes ``refresh`` or ``unobserve``, observe another when it ends.
- **chatters** (25%): a third each at level 0, ``level1=5``, and level 2 with DG_KIBITZ 26,
  DG_CHANNEL_TELL 28, DG_PERSONAL_TELL 31, DG_SHOUT 32 (so every kind of receiver gets
  every kind of message); each joins one or two of channels 50-59 and, about every
  ``--chat-interval`` seconds, sends a personal tell (to a chatter or an observer), a
  channel tell, a shout or (the kibitzers among them, who observe a game with style 13) a
  kibitz. Every message is ``~S<id>:<crc32> <text>``: a unique id and a checksum of its
  text.
- **hostile** (the rest, ~10%), each doing, about every ``--hostile-interval`` seconds:
  random bytes (control-Y, control-Z, 0xFF, telnet IAC sequences) before or after logging
  in; an endless line (up to 200 KB without a newline); slowloris (a byte every few
  seconds); connect-and-drop churn (close or reset); wrong passwords for registered
  names; tells and shouts full of control characters, braces, ``^Y(`` datagram and
  ``<12>`` board look-alikes trying to forge datagrams and lines (``~H<id>:`` ...); tell
  floods (tagged ``level1=5`` commands, so each reply is known: a rate-limit reply
  counts as fine); oversized commands (up to 4000 bytes).
- **the probe**: one normal user (shouts off) sending ``date`` every 0.5 s and timing the
  reply, in a process of its own: the bench's event loop, busy with 2000 clients, would
  delay the replies it reads (its lag is reported too).

The run: ramp-up (every normal client logs in, ``--concurrency`` at a time), the phase
(``--minutes``, hostile clients join at its start), then the wind-down: hostile clients
stop, chatters and observers stop acting, each player resigns at its next turn; once
every game has ended the bench waits ``--settle`` seconds (messages in flight arrive, the
server's queued saves are written) and stops the server with SIGTERM, then checks the
store.

Checked, for every normal client (players, observers, chatters, the probe):

- its decoder never reports an ``Error``, it never gets a control-Z (output dropped), a
  datagram it did not turn on, a board of a game it does not watch, nor a line carrying
  a message id in any other form than the message's own (a forged or misplaced text);
- **messages**: each arrives exactly as sent (the receiver checks the crc; the bench
  also compares the whole text, hostile ones with the text the server must make of their
  bytes: telnet commands and control characters out, 1024 characters at most), in order
  from each sender, at the right receiver; a tell the server confirmed (``(told X)``)
  arrives exactly once; a channel tell reaches as many members as the server said; a
  shout sent during the phase reaches every observer and chatter that was connected the
  whole phase, exactly once; every chat command gets a reply;
- **no lost or reordered moves**: each player gets DG_SEND_MOVES for every ply in order
  (each move legal in its own copy of the game, its own moves echoed as sent, no
  ``Illegal move`` for a move it found legal); an observer's boards go k, k+1, ... from
  the ply it started observing at (a ``refresh`` may repeat the last), each the position
  of that ply, and reach the game's last ply when it saw the game end;
- **every finished game stored**: after the server is stopped (SIGTERM), the store
  (``Store.game``) has each game a player saw end, with the same moves (SAN), score and
  result (DG_MY_GAME_RESULT's result code from the stored status, mode and colour);
  adjourned games as adjourned; a player who dropped out saw a prefix of those moves; a
  disconnection ends a game as the server's rule says (adjourned for two registered
  players, aborted before move 2, forfeited otherwise);
- **RSS bounded**: the server's VmRSS (/proc) is sampled every 2 s. "Warm" RSS is the
  median of the samples within 10 s of ``--warmup`` seconds into the phase (default: a
  quarter of the phase, at most 60 s), "end" RSS the median of the phase's last 20 s,
  before anybody leaves: both with the whole population connected and at work. The check
  fails if end > ``--rss-ratio`` (1.5) x warm: memory that keeps growing under a steady
  load (a leak per game, move, message or connection) shows as end RSS well above warm
  RSS, while caches and pools that fill up during warm-up do not, nor do transient spikes
  (each argon2 password check holds 64 MiB for a moment: medians, not single samples).
  Max RSS, a timeline and the growth rate after warm-up are reported as well;
- **normal clients stay connected** (the server never cuts one off);
- **the server's log** has no traceback (a command or a save that failed).

Reported: p50/p99/max of the probe's ``date`` round trip in the phase (and in the
ramp-up), moves/s, tells/s and deliveries/s, counts of each client kind, hostile actions
done and their outcome (refused, rate-limited), refusals seen by normal clients, the
server's CPU seconds and the bench's own (and its event loop's lag, which inflates every
latency it measures).

Choices (who does what, when, which move, which game, which bytes) come from per-client
random generators seeded by ``--seed``; timing (what is running when a choice is made) is
not deterministic, so two runs with one seed are alike, not identical.

Exit status: 0 if every check passed, 1 if one failed, 2 if the bench could not run (no
server, nobody could log in).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import math
import multiprocessing
import os
import random
import re
import sys
import tempfile
import time
import zlib
from array import array
from collections import Counter, deque
from collections.abc import Coroutine
from dataclasses import dataclass, field
from itertools import pairwise
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

import chess

from icswire.protocol.codes import UnknownResultError, describe_result
from icswire.protocol.datagrams import DatagramRecord, UnknownDatagram
from icswire.protocol.decoder import Decoder
from icswire.protocol.events import (
    BughouseLine,
    Error,
    Overflow,
    Prompt,
    Style10Block,
    Style12Line,
    Telnet,
    Text,
    UnitEnd,
    UnitStart,
)
from icswire.server.core.storage.store import Store, database_url

DG_MY_GAME_STARTED = 15
DG_MY_GAME_RESULT = 16
DG_SEND_MOVES = 24
DG_MOVE_LIST = 25
DG_KIBITZ = 26
DG_CHANNEL_TELL = 28
DG_PERSONAL_TELL = 31
DG_SHOUT = 32
PLAYER_DGS = frozenset({DG_MY_GAME_STARTED, DG_MY_GAME_RESULT, DG_SEND_MOVES, DG_MOVE_LIST, 33, 34})
CHATTER_DGS = frozenset({DG_KIBITZ, DG_CHANNEL_TELL, DG_PERSONAL_TELL, DG_SHOUT})
MESSAGE_DGS = {DG_PERSONAL_TELL: "tell", DG_CHANNEL_TELL: "channel", DG_SHOUT: "shout"}
MESSAGE_DGS[DG_KIBITZ] = "kibitz"
CHANNELS = tuple(range(50, 60))
LOGIN_PROMPT = "login: "
NORMAL_TC = "5 0"
FLAG_TC = "1 0"
PROBE_ADDRESS = "127.0.0.9"
NORMAL_ADDRESSES = tuple(f"127.0.0.{n}" for n in range(10, 255))
HOSTILE_ADDRESSES = tuple(f"127.0.0.{n}" for n in range(2, 6))
LOGIN_TIMEOUT = 30.0
LOGIN_TRIES = 4
REPLY_TIMEOUT = 30.0
PROBE_EVERY = 0.5
PROBE_TIMEOUT = 30.0
RSS_EVERY = 2.0
SAMPLES = 5  # examples kept per failed check
MAX_LINE = 1024  # the server keeps this many characters of a line (core/session.py)
FD_SLACK = 300
WONT_TIMING_MARK = b"\xff\xfc\x06"
VICTIMS = ("Victim1", "Victim2", "Victim3")

from harness import (  # noqa: E402
    HOST,
    ServerProcess,
    SetupError,
    raise_fd_limit,
    start_server,
    started_as,
)


def level2(numbers: frozenset[int]) -> str:
    return "level2settings=" + "".join(
        "1" if n in numbers else "0" for n in range(max(numbers) + 1)
    )


# -- what the server makes of a line (the oracle for hostile messages) ---------------------

_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def server_line(raw: bytes) -> str:
    """The text the server reads from the bytes of one line (without its newline): telnet
    commands out (IAC IAC is a 0xFF byte), tabs as blanks, control characters out, the
    first :data:`MAX_LINE` characters. Written from the server's documented rules, not
    from its code: the bench's own oracle."""
    out = bytearray()
    i, n = 0, len(raw)
    while i < n:
        byte = raw[i]
        if byte != 0xFF:
            out.append(byte)
            i += 1
            continue
        command = raw[i + 1] if i + 1 < n else None
        if command == 0xFF:
            out.append(0xFF)
            i += 2
        elif command is not None and 251 <= command <= 254:
            i += 3
        else:
            i += 2
    return _CONTROL.sub("", out.decode("latin-1").replace("\t", " "))[:MAX_LINE]


def command_args(line: str) -> str:
    """The arguments of a command line: a backquote tag, blanks and a leading ``$`` off."""
    line = line.strip()
    if line.startswith("`"):
        end = line.find("`", 1)
        tag = line[1:end]
        if end > 1 and len(tag) <= 99 and not any(c.isspace() for c in tag):
            line = line[end + 1 :]
    line = line.strip().lstrip("$").strip()
    return line.partition(" ")[2].strip()


def said_in(kind: str, raw: bytes) -> str:
    """The message a ``tell NAME text`` or ``shout text`` line carries, as received."""
    args = command_args(server_line(raw))
    if kind == "tell":
        return args.partition(" ")[2].strip()
    return args


# -- payloads ------------------------------------------------------------------------------

PAYLOAD = re.compile(r"~([SH])(\d+):")
CHECKED = re.compile(r"~S\d+:([0-9a-f]{8}) (.*)", re.S)
MARKER = re.compile(r"~[SH]\d+:")
WORDS = (
    "e4", "castle", "{braces}", "zugzwang", "déjà", "vu", "1-0", "(told", "fics%", "blitz",
    "rook", "ça", "va", "<12>", "}{", "GM", "Guest", "draw?", "resign", "observe", "ñ",
)  # fmt: skip


def normal_payload(ident: int, rng: random.Random) -> str:
    body = " ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 12)))
    return f"~S{ident}:{zlib.crc32(body.encode('latin-1')):08x} {body}"


FORMS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("tell", re.compile(r"(?P<sender>\w+)(?:\(U\))? tells you: (?P<said>.*)", re.S)),
    ("channel", re.compile(r"(?P<sender>\w+)(?:\(U\))?\((?P<where>\d+)\): (?P<said>.*)", re.S)),
    ("shout", re.compile(r"(?P<sender>\w+)(?:\(U\))? shouts: (?P<said>.*)", re.S)),
    (
        "kibitz",
        re.compile(
            r"(?P<sender>\w+)(?:\(U\))?\([^)]*\)\[(?P<where>\d+)\] kibitzes: (?P<said>.*)", re.S
        ),
    ),
)

# Hostile bytes: datagram, unit and board look-alikes, control characters, telnet.
EVIL = (
    b"\x19(31 Evil {} {forged tell} 1\x19)",
    b"\x19(32 Evil {} 0 \x19{forged shout\x19}\x19)",
    b"\x19(24 1 e4 e2e4\x19)",
    b"\x19[101 Evil\r",
    b"\x19]",
    b"\x19<",
    b"\x19>",
    b"\x1a",
    b"{",
    b"}",
    b"}{",
    b"{}",
    b"\x19{",
    b"\x19}",
    b"<12> rnbqkbnr pppppppp -------- -------- -------- -------- PPPPPPPP RNBQKBNR W -1 1 1 1 "
    b"1 0 1 Evil Twin 0 5 0 39 39 300 300 1 none (0:00) none 0 0 0",
    b"{Game 1 (Evil vs. Twin) Twin resigns} 1-0",
    b"\x07\x07",
    b"\x00",
    b"\x1b[2J",
    b"\x7f",
    b"\x08\x08",
    b"\xff\xff",
    b"\xff\xfd\x06",
    b"\xff\xfb\x01",
    b"\xff\xfa\x18\x01\xff\xf0",
    b"\xff\xf1",
    b"fics% ",
    b"login: ",
    b"password: ",
    b"\t",
    b"`x`",
    b"$",
    b"\\",
    b"\r",
    b"\xe9\xe8\xa0\x85\xfe",
    b"GuestEVIL(U) tells you: hi",
    b"(told Evil)",
    b" ",
)
GARBAGE = (b"\x19", b"\x1a", b"\xff", b"\xff\xff", b"\xff\xfd\x06", b"\xff\xfa", b"\n", b"\r\n")


# -- the run's state ---------------------------------------------------------------------


class Refused(Exception):
    """A connection or login the server refused (or never answered)."""


@dataclass(eq=False, slots=True)
class Sent:
    """A message sent by a client, and what became of it."""

    ident: int
    kind: str  # tell, channel, shout, kibitz
    sender: str
    target: str | int | None  # a name, a channel, a game number
    text: str  # exactly what receivers must get
    hostile: bool
    at: float
    confirmed: int | None = None  # receivers the server counted (1 for a tell)
    declined: str = ""  # the server's reply when it did not send it
    received: int = 0


@dataclass(eq=False)
class BenchGame:
    """A game as its players saw it."""

    game_id: int
    number: int
    white: str
    black: str
    tc: str
    registered: bool
    initial: list[str] | None = None  # DG_MOVE_LIST's moves (a resumed game's)
    moves: dict[str, list[str]] = field(default_factory=dict)  # player -> SAN seen
    results: dict[str, tuple[str, str, str]] = field(default_factory=dict)  # code score text
    finals: dict[str, list[str]] = field(default_factory=dict)  # moves when the result came
    left: tuple[str, int, str] | None = None  # who dropped out, at which ply, how
    started: float = field(default_factory=time.perf_counter)
    ended: float = math.inf  # when the first player had the result
    resumed_from: BenchGame | None = None
    _fingerprints: list[int] | None = None

    def outcome(self) -> tuple[tuple[str, str, str], list[str]] | None:
        for name, result in self.results.items():
            return result, self.finals[name]
        return None

    def fingerprints(self) -> list[int]:
        """Each ply's position (index 0: the start) as an observer's board shows it."""
        if self._fingerprints is None:
            found = self.outcome()
            moves = found[1] if found else max(self.moves.values(), key=len, default=[])
            board = chess.Board()
            prints = [position_print(board)]
            for san in moves:
                board.push_san(san)
                prints.append(position_print(board))
            self._fingerprints = prints
        return self._fingerprints


_EMPTY_RUNS = str.maketrans({str(n): "-" * n for n in range(1, 9)})


def position_print(board: chess.Board) -> int:
    ranks = board.board_fen().translate(_EMPTY_RUNS)
    side = "W" if board.turn == chess.WHITE else "B"
    return zlib.crc32(f"{ranks} {side} {board.halfmove_clock}".encode())


def board_print(ranks: tuple[str, ...], side: str, halfmove: int) -> int:
    return zlib.crc32(f"{'/'.join(ranks)} {side} {halfmove}".encode())


@dataclass(eq=False, slots=True)
class Observation:
    """One observer watching one game, from the board it started at."""

    observer: str
    number: int
    white: str
    black: str
    first: int  # the ply of the first board
    last: int
    prints: array[int] = field(default_factory=lambda: array("I"))
    refreshes: int = 0  # refreshes asked for, their board not seen yet
    ended: str = ""  # the score, if it saw the game end
    broken: bool = False
    at: float = field(default_factory=time.perf_counter)  # when its first board came


class Soak:
    """Everything the clients share: settings, counters, failures, the messages and
    games they saw."""

    def __init__(self, args: argparse.Namespace, port: int) -> None:
        self.args = args
        self.port = port
        self.t0 = time.perf_counter()
        self.phase_start = math.inf
        self.deadline = math.inf
        self.stopping = False  # the phase is over: behaviours wind down
        self.stopped = asyncio.Event()
        self.shutting_down = False  # the server is being stopped
        self.counts: Counter[str] = Counter()
        self.failures: Counter[str] = Counter()
        self.samples: dict[str, list[str]] = {}
        self.notes: dict[str, list[str]] = {}
        self.sent: dict[int, Sent] = {}
        self._ident = 0
        self.games: dict[int, BenchGame] = {}
        self.live: dict[int, BenchGame] = {}  # by number, games running
        self.by_key: dict[tuple[int, str, str], list[BenchGame]] = {}
        self.observations: list[Observation] = []
        self.stable: list[Conn] = []  # chatters and observers: they never leave
        self.probe_ramp: list[float] = []
        self.probe_phase: list[float] = []
        self.loop_lags: list[float] = []
        self.rss: list[tuple[float, int]] = []  # (seconds since t0, kB)
        self.hostile_actions: Counter[str] = Counter()
        self.hostile_outcomes: Counter[str] = Counter()
        self.population: dict[str, int] = {}

    def now(self) -> float:
        return time.perf_counter() - self.t0

    def fail(self, check: str, detail: str) -> None:
        self.failures[check] += 1
        kept = self.samples.setdefault(check, [])
        if len(kept) < SAMPLES:
            kept.append(f"[{self.now():.1f}s] {detail}")

    def note(self, what: str, detail: str) -> None:
        """Something worth showing that is not a failure (refusals, declines)."""
        self.counts[what] += 1
        kept = self.notes.setdefault(what, [])
        if len(kept) < SAMPLES:
            kept.append(f"[{self.now():.1f}s] {detail}")

    async def pause(self, seconds: float) -> None:
        """Sleep, or less when the phase ends."""
        if not self.stopping:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.stopped.wait(), seconds)

    def stop(self) -> None:
        self.stopping = True
        self.stopped.set()

    def new_id(self) -> int:
        self._ident += 1
        return self._ident

    def register(self, sent: Sent) -> Sent:
        self.sent[sent.ident] = sent
        return sent

    def in_phase(self) -> bool:
        now = time.perf_counter()
        return self.phase_start <= now < self.deadline

    def targets(self, besides: Conn | None = None) -> list[Conn]:
        return [c for c in self.stable if c.connected and c is not besides]


# -- normal clients --------------------------------------------------------------------------


TOLD = re.compile(r"\(told (\w+)(?:, who [^()]*(?:\([^()]*\))?)?\)")
TOLD_CHANNEL = re.compile(r"\(told (\d+) players in channel (\d+)\)")
SHOUTED = re.compile(r"\(shouted to (\d+) players\)")
KIBITZED = re.compile(r"\(kibitzed to (\d+) players?\)")
GAME_END = re.compile(r"\{Game (\d+) \((\w+) vs\. (\w+)\) ([^}]*)\} (\S+)")


class Conn(asyncio.Protocol):
    """A normal client: one connection at a time (a player may reconnect), a decoder per
    connection, and the checks every normal client makes on everything it is sent."""

    kind = "client"

    def __init__(
        self,
        soak: Soak,
        index: int,
        address: str,
        datagrams: frozenset[int],
        setup: tuple[str, ...],
    ) -> None:
        self.soak = soak
        self.index = index
        self.address = address
        self.datagrams = datagrams
        self.setup = setup
        self.rng = random.Random(f"{soak.args.seed}/{self.kind}/{index}")
        self.decoder = Decoder(datagrams)
        self.account: tuple[str, str] | None = None
        self.name = ""
        self.transport: asyncio.Transport | None = None
        self.started: asyncio.Future[str] | None = None
        self.lost: asyncio.Future[None] | None = None
        self.connected = False
        self.leaving = False  # we close the connection on purpose
        self.whole = False  # connected from the phase's start, never lost
        self.prompts = 0
        self.last_text = ""
        self.last_from: dict[str, int] = {}
        self.shouts = array("I")  # the shouts it got (each must reach every whole client)
        self.events = 0

    @property
    def label(self) -> str:
        return f"{self.kind} {self.name or '#' + str(self.index)}"

    # -- connecting --------------------------------------------------------------------

    async def log_in(self) -> bool:
        """Connect and log in, retrying a refusal a few times; False if it never worked."""
        for attempt in range(LOGIN_TRIES):
            try:
                await self.connect()
                return True
            except Refused as exc:
                self.soak.note(f"{self.kind} logins refused", f"{self.label}: {exc}")
                if self.soak.shutting_down:
                    return False
                await asyncio.sleep(2**attempt)
        self.soak.note("normal clients that never logged in", self.label)
        return False

    async def connect(self) -> None:
        loop = asyncio.get_running_loop()
        self.decoder = Decoder(self.datagrams)
        for line in self.setup:
            self.decoder.note_command(line)
        self.started = started = loop.create_future()
        started.add_done_callback(_retrieve)
        self.lost = loop.create_future()
        self.leaving, self.prompts, self.last_text = False, 0, ""
        try:
            await asyncio.wait_for(
                loop.create_connection(
                    lambda: self, HOST, self.soak.port, local_addr=(self.address, 0)
                ),
                LOGIN_TIMEOUT,
            )
        except (OSError, TimeoutError) as exc:
            raise Refused(f"connect: {type(exc).__name__}: {exc}") from None
        login = (f"{self.account[0]} {self.account[1]}",) if self.account else ("guest", "")
        self.write_lines((*self.setup, *login))
        try:
            self.name = await asyncio.wait_for(asyncio.shield(started), LOGIN_TIMEOUT)
        except TimeoutError:
            self.abort()
            raise Refused(f"no session in {LOGIN_TIMEOUT:g} s ({self.last_text!r})") from None
        self.connected = True
        self.after_login()

    def after_login(self) -> None:
        pass

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport

    def connection_lost(self, exc: Exception | None) -> None:
        was = self.connected
        self.connected = False
        if self.started is not None and not self.started.done():
            self.started.set_exception(Refused(f"closed ({self.last_text!r})"))
        if self.lost is not None and not self.lost.done():
            self.lost.set_result(None)
        if was and not self.leaving and not self.soak.shutting_down:
            self.soak.fail(
                "normal clients cut off by the server", f"{self.label} ({exc or 'closed'})"
            )
        if was:
            self.whole = False
        self.on_lost()

    def on_lost(self) -> None:
        pass

    def write_lines(self, lines: tuple[str, ...]) -> None:
        if self.transport is not None and not self.transport.is_closing():
            self.transport.write("".join(f"{line}\n" for line in lines).encode("latin-1"))

    def send(self, line: str) -> None:
        self.write_lines((line,))

    def abort(self) -> None:
        self.leaving = True
        if self.transport is not None:
            self.transport.abort()

    async def close(self) -> None:
        """Close and wait until the connection is gone."""
        self.leaving = True
        if self.transport is None or self.lost is None:
            return
        self.transport.close()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(asyncio.shield(self.lost), 5)
        if not self.lost.done():
            self.transport.abort()

    def eof_received(self) -> bool | None:
        self.screen_all(self.decoder.close())
        return None

    # -- reading ---------------------------------------------------------------------------

    def data_received(self, data: bytes) -> None:
        self.screen_all(self.decoder.feed(data))

    def screen_all(self, events: list[Any]) -> None:
        self.events += len(events)
        now = time.perf_counter()
        for event in events:
            self.screen(event, now)

    def screen(self, event: Any, now: float) -> None:
        kind = type(event)
        if kind is Text:
            text = event.text
            started = self.started
            if started is not None and not started.done():
                self._before_session(text)
            elif "~" not in text or not self.message_text(text):
                self.on_text(text, now)
        elif kind is Style12Line:
            self.on_board(event.record, now)
        elif kind is Prompt:
            if event.text == LOGIN_PROMPT:
                self.prompts += 1
                if self.prompts > 1 + len(self.setup) and self.started and not self.started.done():
                    self.started.set_exception(Refused(f"login failed: {self.last_text!r}"))
        elif kind is Error:
            self.soak.fail(
                "decoder errors in normal streams",
                f"{self.label}: {event.message} at {event.offset}: {event.data[:80]!r}",
            )
        elif kind is Overflow:
            self.soak.fail("output dropped (control-Z) to normal clients", self.label)
        elif kind is UnknownDatagram or isinstance(event, DatagramRecord):
            number = event.dg
            if kind is UnknownDatagram or number not in self.decoder.datagrams:
                self.soak.fail("forged datagrams (not turned on)", f"{self.label}: {event!r}"[:200])
            elif number in MESSAGE_DGS:
                self.message_datagram(number, event)
            else:
                self.on_datagram(event, now)
        elif kind is Telnet:
            if event.data == b"\xff\xfd\x06" and self.transport is not None:
                self.transport.write(WONT_TIMING_MARK)
        elif kind is Style10Block or kind is BughouseLine:
            self.soak.fail("stray boards", f"{self.label}: {event!r}"[:200])

    def _before_session(self, text: str) -> None:
        if (name := started_as(text)) is not None:
            assert self.started is not None
            self.started.set_result(name.removesuffix("(U)"))
        elif text:
            self.last_text = text

    # -- messages ----------------------------------------------------------------------

    def message_text(self, text: str) -> bool:
        """A line that may carry a message: check it; False if it is none of ours."""
        for kind, pattern in FORMS:
            found = pattern.fullmatch(text)
            if found is not None and MARKER.match(found["said"]):
                where = found.groupdict().get("where")
                self.receive(kind, found["sender"], int(where) if where else None, found["said"])
                return True
        if MARKER.search(text):
            self.soak.fail("forged or misplaced texts", f"{self.label} got {text[:160]!r}")
            return True
        return False

    def message_datagram(self, number: int, record: Any) -> None:
        text: str = record.text
        if not MARKER.match(text):
            if MARKER.search(text):
                self.soak.fail("forged or misplaced texts", f"{self.label} got {record!r}"[:200])
            return
        where = record.channel if number == DG_CHANNEL_TELL else None
        if number == DG_KIBITZ:
            where = record.gamenumber
        self.receive(MESSAGE_DGS[number], record.playername, where, text)

    def receive(self, kind: str, sender: str, where: int | None, said: str) -> None:
        soak = self.soak
        found = PAYLOAD.match(said)
        sent = soak.sent.get(int(found[2])) if found else None
        if found is None or sent is None:
            soak.fail("forged or misplaced texts", f"{self.label} got a {kind}: {said[:160]!r}")
            return
        problems = []
        if sent.kind != kind:
            problems.append(f"a {sent.kind} came as a {kind}")
        if sent.sender != sender:
            problems.append(f"from {sender}, sent by {sent.sender}")
        if kind == "tell" and sent.target != self.name:
            problems.append(f"for {sent.target}")
        if kind in ("channel", "kibitz") and sent.target != where:
            problems.append(f"for {kind} {sent.target}, came in {where}")
        if problems:
            soak.fail(
                "misdelivered messages", f"{self.label}: {said[:60]!r}: {'; '.join(problems)}"
            )
        if found[1] == "S":
            checked = CHECKED.fullmatch(said)
            body = checked[2] if checked else ""
            if checked is None or int(checked[1], 16) != zlib.crc32(body.encode("latin-1")):
                soak.fail("corrupted messages (bad checksum)", f"{self.label}: {said[:160]!r}")
        if said != sent.text:
            soak.fail(
                "corrupted messages",
                f"{self.label}: {kind} {sent.ident}: sent {sent.text[:120]!r}, got {said[:120]!r}",
            )
        last = self.last_from.get(sender, 0)
        if sent.ident <= last:
            soak.fail(
                "duplicated or reordered messages",
                f"{self.label}: {kind} {sent.ident} from {sender} after {last}",
            )
        else:
            self.last_from[sender] = sent.ident
        sent.received += 1
        if kind == "shout":
            self.shouts.append(sent.ident)
        soak.counts["messages received"] += 1

    # -- for the kinds of client -----------------------------------------------------------

    def on_text(self, text: str, now: float) -> None:
        pass

    def on_board(self, record: Any, now: float) -> None:
        self.soak.fail("stray boards", f"{self.label}: a board of game {record.game_number}")

    def on_datagram(self, record: Any, now: float) -> None:
        pass


def _retrieve(future: asyncio.Future[Any]) -> None:
    if not future.cancelled():
        future.exception()


# -- players -----------------------------------------------------------------------------


@dataclass
class Plan:
    """How the next game of a pair goes."""

    tc: str
    resign_at: int
    leaver: Player | None = None
    leave_at: int = 0
    leave_how: str = ""
    staller: Player | None = None
    stall_at: int = 0


class Player(Conn):
    kind = "player"

    def __init__(self, soak: Soak, index: int, address: str) -> None:
        super().__init__(soak, index, address, PLAYER_DGS, (level2(PLAYER_DGS),))
        self.partner: Player | None = None
        self.plan = Plan(NORMAL_TC, 0)
        self.game: BenchGame | None = None
        self.color = chess.WHITE
        self.board = chess.Board()
        self.seen: list[str] = []
        self.pending: deque[str] = deque()  # moves sent, not yet echoed or refused
        self.draw_offered = False  # by the opponent, standing
        self.claimed_at = -1  # the ply of our last draw claim / acceptance
        self.turn_timer: asyncio.TimerHandle | None = None
        self.flag_timer: asyncio.TimerHandle | None = None
        self.challenged: asyncio.Future[str] | None = None
        self.in_game: asyncio.Future[BenchGame] | None = None
        self.over = asyncio.Event()
        self.dropped_out = False

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        super().connection_made(transport)
        self.dropped_out = False

    def after_login(self) -> None:
        self.send("style 13")
        self.send("iset nowrap 1")  # as interfaces do: FICS wraps text at width 79

    # -- events --------------------------------------------------------------------------

    def on_datagram(self, record: Any, now: float) -> None:
        number = record.dg
        if number == DG_SEND_MOVES:
            self._moved(record)
        elif number == DG_MY_GAME_STARTED:
            self._started(record)
        elif number == DG_MOVE_LIST:
            self._move_list(record)
        elif number == DG_MY_GAME_RESULT:
            self._result(record)

    def _started(self, record: Any) -> None:
        soak = self.soak
        game = soak.games.get(record.game_id)
        if game is None:
            game = BenchGame(
                record.game_id,
                record.gamenumber,
                record.whitename,
                record.blackname,
                self.plan.tc,
                self.account is not None,
            )
            soak.games[game.game_id] = game
            soak.live[game.number] = game
            soak.by_key.setdefault((game.number, game.white, game.black), []).append(game)
            soak.counts["games started"] += 1
        self.game = game
        self.color = chess.WHITE if record.whitename == self.name else chess.BLACK
        self.board = chess.Board()
        self.seen = game.moves.setdefault(self.name, [])
        self.draw_offered = False
        self.claimed_at = -1

    def _move_list(self, record: Any) -> None:
        game = self.game
        if game is None or record.gamenumber != game.number:
            self.soak.fail("stray moves", f"{self.label}: DG_MOVE_LIST of game {record.gamenumber}")
            return
        moves = []
        for info in record.moves:
            try:
                move = self.board.parse_san(info.algebraic)
            except ValueError:
                self.soak.fail(
                    "lost or reordered moves", f"{self.label}: move list {record!r}"[:200]
                )
                return
            self.board.push(move)
            moves.append(info.algebraic)
        self.seen[:] = moves
        if game.initial is None:
            game.initial = list(moves)
        elif game.initial != moves:
            self.soak.fail(
                "lost or reordered moves",
                f"game {game.game_id}: the players' move lists differ: {game.initial} {moves}",
            )
        if self.in_game is not None and not self.in_game.done():
            self.in_game.set_result(game)  # DG_MOVE_LIST follows DG_MY_GAME_STARTED
        self._schedule_turn()

    def _moved(self, record: Any) -> None:
        soak, game, board = self.soak, self.game, self.board
        if game is None or record.gamenumber != game.number:
            soak.fail("stray moves", f"{self.label}: DG_SEND_MOVES {record!r}"[:200])
            return
        ply = len(board.move_stack) + 1
        smith: str = record.smith
        promotion = smith[-1].lower() if smith[-1] in "QRBN" else ""
        try:
            move = chess.Move.from_uci(smith[:4] + promotion)
        except ValueError:
            move = chess.Move.null()
        if not board.is_legal(move):
            soak.fail(
                "lost or reordered moves",
                f"{self.label} game {game.game_id} ply {ply}: {smith} ({record.algebraic}) is "
                f"not legal after {' '.join(self.seen[-6:])}",
            )
            return
        san = board.san(move)
        if san != record.algebraic:
            soak.fail(
                "lost or reordered moves",
                f"{self.label} game {game.game_id} ply {ply}: {smith} is {san}, not "
                f"{record.algebraic}",
            )
        if board.turn == self.color:
            sent = self.pending.popleft() if self.pending else None
            if sent != move.uci():
                soak.fail(
                    "lost or reordered moves",
                    f"{self.label} game {game.game_id} ply {ply}: sent {sent}, echoed {smith}",
                )
            soak.counts["plies"] += 1
            if soak.in_phase():
                soak.counts["plies in the phase"] += 1
            if self.plan.staller is self.partner and self.plan.staller is not None:
                self._arm_flag()
        board.push(move)
        self.seen.append(san)
        self._schedule_turn()

    def _result(self, record: Any) -> None:
        game = self.game
        if game is None or record.gamenumber != game.number:
            self.soak.fail("stray moves", f"{self.label}: DG_MY_GAME_RESULT {record!r}"[:200])
            return
        game.ended = min(game.ended, time.perf_counter())
        game.results[self.name] = (record.result_code, record.score, record.description)
        game.finals[self.name] = list(self.seen)
        if self.soak.live.get(game.number) is game:
            del self.soak.live[game.number]
        self._end_game()

    def _end_game(self) -> None:
        self.game = None
        for timer in (self.turn_timer, self.flag_timer):
            if timer is not None:
                timer.cancel()
        self.turn_timer = self.flag_timer = None
        self.over.set()

    def on_lost(self) -> None:
        if self.game is not None:
            self._end_game()
        self.over.set()

    def on_text(self, text: str, now: float) -> None:
        if text.startswith("Challenge: "):
            challenger = text.removeprefix("Challenge: ").split(" ")[0]
            if (
                self.challenged is not None
                and not self.challenged.done()
                and self.partner is not None
                and challenger == self.partner.name
            ):
                self.challenged.set_result(challenger)
        elif text.endswith(" offers you a draw."):
            self.draw_offered = True
        elif text.startswith("Illegal move (") or text == "It is not your move.":
            move = self.pending.popleft() if self.pending else None
            self.soak.fail(
                "illegal move replies", f"{self.label}: {text} ({move}, after {self.seen[-4:]})"
            )
        elif text == "You lost on time.":
            if self.pending:
                self.pending.popleft()
            self.soak.counts["moves too late (lost on time)"] += 1
        elif (
            text.endswith(": Command not found.")
            and self.pending
            and text.split(":")[0] == self.pending[0]
        ):
            self.pending.popleft()
            self.soak.counts["moves after the game had ended"] += 1

    def on_board(self, record: Any, now: float) -> None:
        self.soak.fail("stray boards", f"{self.label} (style 13): game {record.game_number}")

    # -- moving ------------------------------------------------------------------------

    def _schedule_turn(self, delay: float | None = None) -> None:
        if self.game is None or self.board.turn != self.color:
            return
        if self.turn_timer is not None:
            self.turn_timer.cancel()
        args = self.soak.args
        pause = self.rng.uniform(args.think_min, args.think_max) if delay is None else delay
        self.turn_timer = asyncio.get_running_loop().call_later(pause, self.take_turn)

    def take_turn(self) -> None:
        """Move, or resign, claim or accept a draw, drop out, stall."""
        self.turn_timer = None
        game, board, plan, rng = self.game, self.board, self.plan, self.rng
        if game is None or board.turn != self.color or not self.connected:
            return
        ply = len(board.move_stack)
        send = self.send
        if self.soak.stopping:
            send("resign")
            return
        if plan.leaver is self and ply >= plan.leave_at:
            self._drop_out(game, ply)
            return
        if plan.staller is self and ply >= plan.stall_at:
            self.soak.counts["stalls (waiting to lose on time)"] += 1
            return  # the server ends the game when the clock runs out
        moves = list(board.legal_moves)
        if not moves or board.is_insufficient_material():
            return  # the server ends the game by itself
        if self.claimed_at != ply:
            if board.can_claim_fifty_moves() or board.can_claim_threefold_repetition():
                self.claimed_at = ply
                send("draw")
                self.soak.counts["draw claims"] += 1
                self._schedule_turn(3.0)  # should the claim fail, move after all
                return
            if self.draw_offered:
                self.draw_offered = False
                if rng.random() < 0.5:
                    self.claimed_at = ply
                    send("draw")
                    self.soak.counts["draws accepted"] += 1
                    self._schedule_turn(3.0)
                    return
        if ply >= plan.resign_at:
            send("resign")
            return
        if ply >= 20 and rng.random() < 0.01:
            send("draw")
            self.soak.counts["draws offered"] += 1
        move = rng.choice(moves)
        self.pending.append(move.uci())
        self.draw_offered = False
        send(move.uci())

    def _arm_flag(self) -> None:
        """In a flag game, while the opponent stalls, try ``flag`` every 10 s."""
        if self.flag_timer is not None:
            self.flag_timer.cancel()
        self.flag_timer = asyncio.get_running_loop().call_later(10.0, self._flag)

    def _flag(self) -> None:
        self.flag_timer = None
        if self.game is not None and self.board.turn != self.color and self.connected:
            self.send("flag")
            self.soak.counts["flag commands"] += 1
            self._arm_flag()

    def _drop_out(self, game: BenchGame, ply: int) -> None:
        how = self.plan.leave_how
        game.left = (self.name, ply, how)
        self.dropped_out = True
        self.soak.counts[f"players dropping out ({how})"] += 1
        if how == "quit":
            self.leaving = True
            self.send("quit")
        else:
            self.abort()


class Pair:
    """Two players who play each other, game after game."""

    def __init__(self, soak: Soak, index: int, one: Player, two: Player) -> None:
        self.soak = soak
        self.index = index
        self.players = (one, two)
        one.partner, two.partner = two, one
        self.rng = random.Random(f"{soak.args.seed}/pair/{index}")
        self.registered = one.account is not None

    def new_plan(self) -> Plan:
        rng, one, two = self.rng, *self.players
        roll = rng.random()
        plan = Plan(NORMAL_TC, rng.randint(30, 160))
        if roll < 0.07:
            plan.tc = FLAG_TC
            plan.staller = rng.choice((one, two))
            plan.stall_at = rng.randint(4, 30)
        elif roll < 0.17:
            plan.leaver = rng.choice((one, two))
            plan.leave_at = rng.choice((0, 1, rng.randint(2, 40)))
            plan.leave_how = rng.choice(("drop", "quit"))
        return plan

    async def run(self) -> None:
        soak, rng = self.soak, self.rng
        resume: BenchGame | None = None
        while not soak.stopping:
            for player in self.players:
                if not player.connected and not await player.log_in():
                    return
            plan = self.new_plan()
            one, two = self.players
            challenger, receiver = (one, two) if rng.random() < 0.5 else (two, one)
            game = await self.start(challenger, receiver, plan, resume)
            if game is None:
                await soak.pause(rng.uniform(1, 3))
                continue
            if resume is not None:
                self.check_resumed(game, resume)
                resume = None
            await self.play_out(game, plan)
            leaver = plan.leaver
            if leaver is not None and leaver.dropped_out:
                await soak.pause(rng.uniform(1, 5))
                if not await leaver.log_in():
                    return
                found = game.outcome()
                if found is not None and found[0][1] == "*" and self.registered:
                    resume = game
            await soak.pause(rng.uniform(0.5, 3))

    async def start(
        self, challenger: Player, receiver: Player, plan: Plan, resume: BenchGame | None
    ) -> BenchGame | None:
        loop = asyncio.get_running_loop()
        for player in self.players:
            player.plan = plan
            player.over.clear()
            player.in_game = loop.create_future()
            player.pending.clear()
        receiver.challenged = loop.create_future()
        if resume is not None:
            challenger.send(f"match {receiver.name}")
        else:
            challenger.send(f"match {receiver.name} {plan.tc} u")
        try:
            await asyncio.wait_for(asyncio.shield(receiver.challenged), REPLY_TIMEOUT)
            receiver.send(f"accept {challenger.name}")
            games = [asyncio.shield(p.in_game) for p in self.players if p.in_game]
            started = await asyncio.wait_for(asyncio.gather(*games), REPLY_TIMEOUT)
        except TimeoutError:
            late = next((p.game for p in self.players if p.game is not None), None)
            if late is not None:  # it started after all
                return late
            self.soak.note(
                "matches that did not start",
                f"pair {self.index}: {challenger.label} -> {receiver.label}",
            )
            receiver.send(f"decline {challenger.name}")
            return None
        game: BenchGame = started[0]
        if started[0] is not started[1]:
            self.soak.fail("lost or reordered moves", f"pair {self.index} got two games")
        return game

    def check_resumed(self, game: BenchGame, old: BenchGame) -> None:
        game.resumed_from = old
        self.soak.counts["adjourned games resumed"] += 1
        found = old.outcome()
        moves = found[1] if found else []
        if game.initial != moves:
            self.soak.fail(
                "adjourned games not resumed with their moves",
                f"game {old.game_id} ({len(moves)} plies) came back as {game.game_id} with "
                f"{len(game.initial or [])} plies",
            )

    async def play_out(self, game: BenchGame, plan: Plan) -> None:
        """Until both players are out of the game (a result, or gone)."""
        minutes = int(plan.tc.split()[0])
        limit = time.perf_counter() + 2 * 60 * minutes + 120
        one, two = self.players
        while not (one.over.is_set() and two.over.is_set()):
            waits = [asyncio.ensure_future(p.over.wait()) for p in self.players]
            await asyncio.wait(waits, timeout=1.0, return_when=asyncio.ALL_COMPLETED)
            for wait in waits:
                wait.cancel()
            now = time.perf_counter()
            if now > limit or (self.soak.stopping and now > self.soak.deadline + 60):
                self.soak.fail(
                    "games that never ended",
                    f"game {game.game_id} ({game.white}-{game.black}): "
                    f"{len(max(game.moves.values(), key=len, default=[]))} plies",
                )
                return


# -- observers ---------------------------------------------------------------------------


OBSERVE_REFUSED = (
    "There is no such game.",
    "You are already observing",
    "No user named",
    "You are playing",
)


class Observer(Conn):
    kind = "observer"

    def __init__(self, soak: Soak, index: int, address: str) -> None:
        super().__init__(soak, index, address, frozenset(), ())
        self.watching: Observation | None = None
        self.wanted = 0
        self.answer: asyncio.Future[None] | None = None
        self.changed = asyncio.Event()

    async def live(self) -> None:
        soak, rng = self.soak, self.rng
        self.send("set style 12")  # style 1 (text diagrams) is the server's default
        self.send("iset ms 1")
        self.send("iset nowrap 1")
        loop = asyncio.get_running_loop()
        while not soak.stopping:
            if self.watching is None:
                numbers = sorted(soak.live)
                if not numbers:
                    await soak.pause(1.0)
                    continue
                self.wanted = rng.choice(numbers)
                self.answer = loop.create_future()
                self.send(f"observe {self.wanted}")
                try:
                    await asyncio.wait_for(asyncio.shield(self.answer), REPLY_TIMEOUT)
                except TimeoutError:
                    soak.fail("commands without a reply", f"{self.label}: observe {self.wanted}")
                self.wanted = 0
                if self.watching is None:
                    await soak.pause(rng.uniform(0.5, 2))
                    continue
            self.changed.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.changed.wait(), rng.uniform(3, 20))
            watching = self.watching
            if watching is None or soak.stopping:
                await soak.pause(rng.uniform(0.5, 3))
                continue
            roll = rng.random()
            if roll < 0.15:
                watching.refreshes += 1
                self.send("refresh")
                soak.counts["observer refreshes"] += 1
            elif roll < 0.2:
                self.send(f"unobserve {watching.number}")
                soak.counts["observer unobserves"] += 1

    def _answered(self) -> None:
        if self.answer is not None and not self.answer.done():
            self.answer.set_result(None)

    def on_board(self, record: Any, now: float) -> None:
        soak = self.soak
        ply = 2 * (record.move_number - 1) + (record.side_to_move == "B")
        fingerprint = board_print(record.ranks, record.side_to_move, record.halfmove_clock)
        watching = self.watching
        if watching is None:
            if record.game_number == self.wanted and self.answer and not self.answer.done():
                watching = Observation(
                    self.name,
                    record.game_number,
                    record.white_name,
                    record.black_name,
                    ply,
                    ply,
                )
                watching.prints.append(fingerprint)
                self.watching = watching
                soak.observations.append(watching)
                soak.counts["observations"] += 1
                self._answered()
            else:
                soak.fail("stray boards", f"{self.label}: game {record.game_number}, not watching")
            return
        if record.game_number != watching.number:
            soak.fail(
                "stray boards",
                f"{self.label}: game {record.game_number} while watching {watching.number}",
            )
            return
        soak.counts["observer boards"] += 1
        if ply == watching.last + 1 and not watching.broken:
            watching.last = ply
            watching.prints.append(fingerprint)
        elif ply == watching.last and watching.refreshes:
            watching.refreshes -= 1
            if fingerprint != watching.prints[-1]:
                soak.fail("corrupted boards", f"{self.label}: refresh of {watching.number} differs")
        elif ply == watching.last and fingerprint == watching.prints[-1]:
            pass  # the last position again: FICS's final board before a time forfeit's result
        elif not watching.broken:  # the boards it has are checked, those after a gap not
            watching.broken = True
            soak.fail(
                "lost or reordered moves",
                f"{self.label} game {watching.number} ({watching.white}-{watching.black}): "
                f"board of ply {ply} after ply {watching.last}",
            )

    def on_text(self, text: str, now: float) -> None:
        watching = self.watching
        if text.startswith("{Game "):
            found = GAME_END.match(text)
            if found is not None and watching is not None and int(found[1]) == watching.number:
                watching.ended = found[5]
                self.watching = None
                self.changed.set()
        elif text.startswith("Removing game "):
            if watching is not None:
                self.watching = None
                self.changed.set()
        elif text.startswith(OBSERVE_REFUSED):
            self._answered()


# -- chatters ----------------------------------------------------------------------------

CHATTER_QUIET = re.compile(
    r"$|\[\d+\] (added to|is already on) your channel list\.|Game \d+: |You are now observing"
    r"|Removing game|There is no such game|You are already observing|\{Game \d+ |Style \d+ set"
    r"|You are not observing|--> |nowrap set\."
)


class Chatter(Conn):
    kind = "chatter"

    def __init__(self, soak: Soak, index: int, address: str) -> None:
        form = index % 3
        datagrams = CHATTER_DGS if form == 2 else frozenset()
        setup = ((), ("level1=5",), (level2(CHATTER_DGS),))[form]
        super().__init__(soak, index, address, datagrams, setup)
        self.form = ("level 0", "level 1", "level 2")[form]
        rng = self.rng
        self.channels = rng.sample(CHANNELS, rng.randint(1, 2))
        self.kibitzer = rng.random() < 0.4
        self.watching = 0
        self.pending: deque[Sent] = deque()

    async def live(self) -> None:
        soak, rng, args = self.soak, self.rng, self.soak.args
        self.send("iset nowrap 1")  # a message and its checksum stay on one line
        for channel in self.channels:
            self.send(f"+channel {channel}")
        if self.kibitzer:
            self.send("style 13")
        await soak.pause(rng.uniform(2, 2 + args.chat_interval))
        while not soak.stopping:
            if self.kibitzer and not self.watching and soak.live:
                self.send(f"observe {rng.choice(sorted(soak.live))}")
            roll = rng.random()
            if roll < 0.5:
                self.tell()
            elif roll < 0.8:
                self.channel_tell()
            elif roll < 0.83:
                self.shout()
            elif self.watching:
                self.kibitz()
            else:
                self.tell()
            await soak.pause(rng.expovariate(1 / args.chat_interval))

    def _send(self, kind: str, target: str | int | None, command: str) -> None:
        soak = self.soak
        ident = soak.new_id()
        text = normal_payload(ident, self.rng)
        sent = Sent(ident, kind, self.name, target, text, False, time.perf_counter())
        self.pending.append(soak.register(sent))
        self.send(f"{command} {text}")
        soak.counts[f"{kind}s sent"] += 1
        if soak.in_phase():
            soak.counts["chat messages in the phase"] += 1
            soak.counts[f"{kind}s in the phase"] += 1

    def tell(self) -> None:
        targets = self.soak.targets(self)
        if targets:
            target = self.rng.choice(targets).name
            self._send("tell", target, f"tell {target}")

    def channel_tell(self) -> None:
        channel = self.rng.choice(self.channels)
        self._send("channel", channel, f"tell {channel}")

    def shout(self) -> None:
        self._send("shout", None, "shout")

    def kibitz(self) -> None:
        self._send("kibitz", self.watching, "kibitz")

    def _confirm(self, kind: str, count: int, target: str | int | None = None) -> None:
        for sent in self.pending:
            if sent.kind == kind and (target is None or sent.target == target):
                self.pending.remove(sent)
                sent.confirmed = count
                return
        self.soak.fail("replies to nothing", f"{self.label}: a reply for a {kind} never sent")

    def on_text(self, text: str, now: float) -> None:
        if text.startswith("("):
            if found := TOLD.fullmatch(text):
                self._confirm("tell", 1, found[1])
                return
            if found := TOLD_CHANNEL.fullmatch(text):
                self._confirm("channel", int(found[1]), int(found[2]))
                return
            if found := SHOUTED.fullmatch(text):
                self._confirm("shout", int(found[1]))
                return
            if found := KIBITZED.fullmatch(text):
                self._confirm("kibitz", int(found[1]))
                return
        if text.startswith("You are now observing game "):
            self.watching = int(text.split()[-1].rstrip("."))
            return
        if text.startswith(("{Game ", "Removing game ")) and self.watching:
            number = text.split()[1 if text.startswith("{") else 2]
            if number.isdigit() and int(number) == self.watching:
                self.watching = 0
            return
        if CHATTER_QUIET.match(text) or self.soak.shutting_down:
            return
        if any(form.fullmatch(text) for _, form in FORMS):  # another's talk (a hostile
            # client's, in no payload's form) answers none of my commands
            self.soak.note("other lines to chatters", f"{self.label}: {text[:100]!r}")
            return
        if self.pending:  # any other line answers the oldest command (a refusal, a limit)
            sent = self.pending.popleft()
            sent.declined = text
            self.soak.note("chat messages declined", f"{self.label}: {sent.kind}: {text!r}")
        else:
            self.soak.note("other lines to chatters", f"{self.label}: {text[:100]!r}")


# -- the probe -----------------------------------------------------------------------------


class Probe(Conn):
    """A normal user typing ``date`` every half second, with shouts off (it hears nothing
    but its replies). It runs in a process of its own (:func:`probe_process`): its round
    trips are the server's, not delayed by this bench's busy event loop."""

    kind = "probe"

    def __init__(self, soak: Soak, stop: Connection) -> None:
        super().__init__(soak, 0, PROBE_ADDRESS, frozenset(), ())
        self.stop = stop
        self.reply: asyncio.Future[float] | None = None
        self.samples: list[tuple[float, float]] = []  # (wall clock time sent, seconds)

    def after_login(self) -> None:
        self.send("set shout 0")

    async def live(self) -> None:
        soak = self.soak
        loop = asyncio.get_running_loop()
        while self.connected and not self.stop.poll():
            self.reply = reply = loop.create_future()
            wall, sent = time.time(), time.perf_counter()
            self.send("date")
            try:
                answered = await asyncio.wait_for(asyncio.shield(reply), PROBE_TIMEOUT)
            except TimeoutError:
                soak.fail("date never answered", f"no reply in {PROBE_TIMEOUT:g} s")
                continue
            self.samples.append((wall, answered - sent))
            await asyncio.sleep(max(0.0, PROBE_EVERY - (time.perf_counter() - sent)))

    def on_text(self, text: str, now: float) -> None:
        if text.startswith("GMT ") and self.reply is not None and not self.reply.done():
            self.reply.set_result(now)

    def receive(self, kind: str, sender: str, where: int | None, said: str) -> None:
        """A message that came before ``set shout 0``: the other process has the registry
        of what was sent, the probe can check its checksum only."""
        checked = CHECKED.fullmatch(said)
        if said.startswith("~S") and (
            checked is None or int(checked[1], 16) != zlib.crc32(checked[2].encode("latin-1"))
        ):
            self.soak.fail("corrupted messages (bad checksum)", f"{self.label}: {said[:160]!r}")


def probe_process(port: int, seed: int, pipe: Connection) -> None:
    """The probe's process: logs in, says so on ``pipe`` (``ready`` or ``error``), probes
    until told to stop, then sends its samples and the failures its checks found."""

    async def probe() -> dict[str, Any]:
        soak = Soak(argparse.Namespace(seed=seed), port)
        client = Probe(soak, pipe)
        if not await client.log_in():
            said = [note for notes in soak.notes.values() for note in notes]
            return {"error": "; ".join(said) or "refused"}
        pipe.send({"ready": client.name})
        await client.live()
        await client.close()
        return {"samples": client.samples, "failures": soak.failures, "found": soak.samples}

    pipe.send(asyncio.run(probe()))
    pipe.close()


async def probe_result(pipe: Connection, seconds: float) -> dict[str, Any]:
    """The next message of the probe's process (a dict), or an error after ``seconds``."""
    if not await asyncio.to_thread(pipe.poll, seconds):
        return {"error": f"no word from the probe's process in {seconds:g} s"}
    found: dict[str, Any] = pipe.recv()
    return found


# -- hostile clients ---------------------------------------------------------------------


class HostileConn:
    """One hostile connection: it reads and decodes (loosely) what it is sent, to know its
    name and the replies to its tagged commands."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader = reader
        self.writer = writer
        self.decoder = Decoder(())
        self.name = ""
        loop = asyncio.get_running_loop()
        self.started: asyncio.Future[str] = loop.create_future()
        self.started.add_done_callback(_retrieve)
        self.closed = loop.create_future()
        self.waiters: dict[str, asyncio.Future[list[str]]] = {}
        self.texts: list[tuple[str, asyncio.Future[str]]] = []
        self._unit: tuple[str, list[str]] | None = None
        self.task = asyncio.create_task(self._read())

    async def _read(self) -> None:
        try:
            while data := await self.reader.read(65536):
                for event in self.decoder.feed(data):
                    self._event(event)
        except (ConnectionError, OSError):
            pass
        finally:
            if not self.started.done():
                self.started.set_exception(Refused("closed before the session"))
            waiting: list[asyncio.Future[Any]] = [*self.waiters.values()]
            waiting += [future for _, future in self.texts]
            for waiter in waiting:
                if not waiter.done():
                    waiter.set_exception(ConnectionError("closed"))
                    waiter.add_done_callback(_retrieve)
            if not self.closed.done():
                self.closed.set_result(None)

    def _event(self, event: Any) -> None:
        kind = type(event)
        if kind is Text:
            text = event.text
            if (name := started_as(text)) is not None and not self.started.done():
                self.name = name.removesuffix("(U)")
                self.started.set_result(self.name)
            if self._unit is not None:
                self._unit[1].append(text)
            for fragment, seen in self.texts:
                if fragment in text and not seen.done():
                    seen.set_result(text)
        elif kind is UnitStart:
            if event.depth == 1 and event.issuer == "*" and event.tag:
                self._unit = (event.tag, [])
        elif kind is UnitEnd and event.depth == 1 and self._unit is not None:
            tag, lines = self._unit
            self._unit = None
            replied = self.waiters.get(tag)
            if replied is not None and not replied.done():
                replied.set_result(lines)

    def write(self, data: bytes) -> None:
        if not self.writer.is_closing():
            self.writer.write(data)

    async def reply(self, tag: str, timeout: float = REPLY_TIMEOUT) -> list[str]:
        waiter = self.waiters.get(tag)
        if waiter is None:
            waiter = self.waiters[tag] = asyncio.get_running_loop().create_future()
        try:
            return await asyncio.wait_for(waiter, timeout)
        finally:
            self.waiters.pop(tag, None)

    def expect(self, tag: str) -> None:
        """Wait for the reply of ``tag`` (call before writing the command)."""
        self.waiters[tag] = asyncio.get_running_loop().create_future()

    async def text(self, fragment: str, timeout: float = REPLY_TIMEOUT) -> str:
        waiter: asyncio.Future[str] = asyncio.get_running_loop().create_future()
        self.texts.append((fragment, waiter))
        try:
            return await asyncio.wait_for(waiter, timeout)
        finally:
            self.texts.remove((fragment, waiter))

    async def close(self, reset: bool = False) -> None:
        if reset:
            self.writer.transport.abort()
        else:
            self.writer.close()
        with contextlib.suppress(TimeoutError, ConnectionError, OSError):
            await asyncio.wait_for(asyncio.shield(self.closed), 5)
        self.writer.transport.abort()
        self.task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self.task


ACTIONS = {
    "garbage": 3,
    "endless": 1,
    "slowloris": 1,
    "churn": 2,
    "password": 1,
    "forge": 5,
    "flood": 1,
    "oversized": 2,
}


class Hostile:
    """A client that misbehaves in every way it can think of, one action at a time."""

    kind = "hostile"

    def __init__(self, soak: Soak, index: int, address: str) -> None:
        self.soak = soak
        self.index = index
        self.address = address
        self.rng = random.Random(f"{soak.args.seed}/hostile/{index}")
        self.conns: set[HostileConn] = set()

    async def live(self) -> None:
        soak, rng = self.soak, self.rng
        names, weights = list(ACTIONS), list(ACTIONS.values())
        await soak.pause(rng.uniform(0, soak.args.hostile_interval))
        while not soak.stopping:
            action = rng.choices(names, weights)[0]
            try:
                await asyncio.wait_for(getattr(self, action)(), 120)
                soak.hostile_outcomes[f"{action}: done"] += 1
            except Refused as exc:
                soak.hostile_outcomes[f"{action}: refused"] += 1
                soak.note("hostile connections refused", f"{action}: {exc}")
            except (ConnectionError, OSError, TimeoutError) as exc:
                soak.hostile_outcomes[f"{action}: cut off ({type(exc).__name__})"] += 1
            finally:
                for conn in list(self.conns):
                    await conn.close(reset=True)
                self.conns.clear()
            soak.hostile_actions[action] += 1
            await soak.pause(rng.uniform(0.2, 2 * soak.args.hostile_interval))

    async def open(self) -> HostileConn:
        try:
            reader, writer = await asyncio.wait_for(
                asyncio.open_connection(HOST, self.soak.port, local_addr=(self.address, 0)),
                LOGIN_TIMEOUT,
            )
        except (OSError, TimeoutError) as exc:
            raise Refused(f"connect: {type(exc).__name__}: {exc}") from None
        conn = HostileConn(reader, writer)
        self.conns.add(conn)
        return conn

    async def login(self) -> HostileConn:
        conn = await self.open()
        conn.write(b"level1=5\nguest\n\n")
        try:
            await asyncio.wait_for(asyncio.shield(conn.started), LOGIN_TIMEOUT)
        except TimeoutError:
            raise Refused("no session") from None
        return conn

    async def done_with(self, conn: HostileConn) -> None:
        self.conns.discard(conn)
        await conn.close(reset=self.rng.random() < 0.3)

    def _evil(self, low: int, high: int) -> bytes:
        return b"".join(self.rng.choice(EVIL) for _ in range(self.rng.randint(low, high)))

    def _tell(self, conn: HostileConn, kind: str, target: str, payload: bytes) -> tuple[Sent, str]:
        soak = self.soak
        ident = soak.new_id()
        tag = f"h{ident}"
        head = f"`{tag}`tell {target} " if kind == "tell" else f"`{tag}`shout "
        raw = head.encode() + f"~H{ident}: ".encode() + payload
        sent = Sent(
            ident,
            kind,
            conn.name,
            target if kind == "tell" else None,
            said_in(kind, raw),
            True,
            time.perf_counter(),
        )
        soak.register(sent)
        conn.expect(tag)
        conn.write(raw + b"\n")
        soak.counts[f"hostile {kind}s"] += 1
        return sent, tag

    def _judge(self, sent: Sent, lines: list[str]) -> None:
        wanted = TOLD if sent.kind == "tell" else SHOUTED
        for line in lines:
            found = wanted.fullmatch(line)
            if found is not None:
                sent.confirmed = 1 if sent.kind == "tell" else int(found[1])
                return
        sent.declined = " / ".join(lines)[:160]
        self.soak.note(
            "hostile messages refused or rate-limited", f"{sent.kind}: {sent.declined!r}"
        )

    # -- the actions -------------------------------------------------------------------

    async def garbage(self) -> None:
        rng = self.rng
        conn = await self.login() if rng.random() < 0.5 else await self.open()
        for _ in range(rng.randint(1, 5)):
            data = bytearray(rng.randbytes(rng.randint(50, 2000)))
            for _ in range(rng.randint(0, 20)):
                at = rng.randrange(len(data) + 1)
                data[at:at] = rng.choice(GARBAGE)
            conn.write(bytes(data))
            self.soak.counts["hostile bytes"] += len(data)
            await asyncio.sleep(rng.uniform(0.05, 0.5))
        await asyncio.sleep(0.5)
        await self.done_with(conn)

    async def endless(self) -> None:
        rng = self.rng
        conn = await self.login()
        size = rng.randint(16_000, 200_000)
        chunk = (b"xendless" + bytes(rng.choice(b"abc{}()\x19\x1a") for _ in range(56))) * 128
        sent = 0
        while sent < size:
            conn.write(chunk)
            sent += len(chunk)
            await asyncio.sleep(0.01)
        conn.write(b"\n`e1`date\n")
        conn.expect("e1")
        self.soak.counts["hostile bytes"] += sent
        lines = await conn.reply("e1")
        if not any(line.startswith("GMT") for line in lines):
            self.soak.note("hostile: no date after an endless line", repr(lines)[:160])
        await self.done_with(conn)

    async def slowloris(self) -> None:
        rng = self.rng
        conn = await self.open()
        data = b"guest\n\ndate\ntell nobody hello\n"
        until = time.perf_counter() + rng.uniform(10, 40)
        for byte in data:
            if self.soak.stopping or time.perf_counter() > until:
                break
            conn.write(bytes([byte]))
            self.soak.counts["hostile bytes"] += 1
            await asyncio.sleep(rng.uniform(1.5, 5))
        await self.done_with(conn)

    async def churn(self) -> None:
        rng = self.rng
        for _ in range(rng.randint(3, 15)):
            if self.soak.stopping:
                break
            conn = await self.open()
            if rng.random() < 0.5:
                await asyncio.sleep(rng.uniform(0, 0.2))
            self.conns.discard(conn)
            await conn.close(reset=rng.random() < 0.5)
            self.soak.counts["hostile churned connections"] += 1

    async def password(self) -> None:
        rng = self.rng
        conn = await self.open()
        for _ in range(rng.randint(1, 3)):
            victim = rng.choice(VICTIMS)
            conn.write(f"{victim} wrong{rng.randrange(10**6)}\n".encode())
            await conn.text("Invalid password")
            self.soak.counts["hostile wrong passwords"] += 1
        await self.done_with(conn)

    async def forge(self) -> None:
        soak, rng = self.soak, self.rng
        conn = await self.login()
        for _ in range(rng.randint(2, 6)):
            targets = soak.targets()
            if soak.stopping or not targets:
                break
            kind = "shout" if rng.random() < 0.03 else "tell"
            sent, tag = self._tell(conn, kind, rng.choice(targets).name, self._evil(1, 8))
            self._judge(sent, await conn.reply(tag))
            await asyncio.sleep(rng.uniform(0.1, 1.0))
        await self.done_with(conn)

    async def flood(self) -> None:
        soak, rng = self.soak, self.rng
        conn = await self.login()
        targets = soak.targets()
        if not targets:
            return
        target = rng.choice(targets).name
        tells = [
            self._tell(conn, "tell", target, f"flood {k}".encode())
            for k in range(rng.randint(20, 100))
        ]
        soak.counts["hostile floods"] += 1
        for sent, tag in tells:
            self._judge(sent, await conn.reply(tag))
        await self.done_with(conn)

    async def oversized(self) -> None:
        soak, rng = self.soak, self.rng
        conn = await self.login()
        targets = soak.targets()
        if not targets:
            return
        size = rng.randint(1100, 3900)
        filler = bytes(
            rng.choice(b"abcdefghij0123456789 {}()<>\x19\x1a\x07\t") for _ in range(size)
        )
        sent, tag = self._tell(conn, "tell", rng.choice(targets).name, filler)
        self._judge(sent, await conn.reply(tag))
        conn.write(b"x" * rng.randint(2000, 4000) + b"\n`o1`date\n")
        conn.expect("o1")
        await conn.reply("o1")
        soak.counts["hostile oversized commands"] += 2
        await self.done_with(conn)


# -- the run -----------------------------------------------------------------------------


def read_rss_kb(pid: int) -> int | None:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        return None
    return None


async def sample_rss(soak: Soak, pid: int) -> None:
    while True:
        kb = read_rss_kb(pid)
        if kb is not None:
            soak.rss.append((soak.now(), kb))
        await asyncio.sleep(RSS_EVERY)


async def watch_loop_lag(soak: Soak) -> None:
    while True:
        before = time.perf_counter()
        await asyncio.sleep(0.1)
        if soak.in_phase():
            soak.loop_lags.append(time.perf_counter() - before - 0.1)


def spread(total: int) -> dict[str, int]:
    players = 2 * round(total * 0.2 / 2)
    observers = round(total * 0.45)
    chatters = round(total * 0.25)
    hostile = max(0, total - players - observers - chatters)
    return {"players": players, "observers": observers, "chatters": chatters, "hostile": hostile}


def make_accounts(data_dir: Path, pairs: int, registered: float) -> list[tuple[str, str]]:
    """Accounts of the registered pairs (two each) and of the wrong-password victims."""
    count = min(pairs, max(1 if pairs >= 2 else 0, round(pairs * registered)))
    accounts = [(f"Soak{i}{side}", f"pw{i}{side}") for i in range(count) for side in "ab"]
    store = Store(database_url(data_dir, None))
    try:
        for name, password in accounts:
            store.add_user(name, password)
        for name in VICTIMS:
            store.add_user(name, f"secret-{name}")
    finally:
        store.close()
    return accounts


async def bounded(concurrency: int, jobs: list[Coroutine[Any, Any, Any]]) -> list[Any]:
    gate = asyncio.Semaphore(concurrency)

    async def one(job: Coroutine[Any, Any, Any]) -> Any:
        async with gate:
            return await job

    return await asyncio.gather(*(one(job) for job in jobs))


async def run(
    args: argparse.Namespace, server: ServerProcess, accounts: list[tuple[str, str]]
) -> Soak:
    soak = Soak(args, server.port)
    counts = spread(args.clients)
    soak.population = {**counts, "probe": 1}
    print(
        f"population: {counts['players']} players ({len(accounts)} registered), "
        f"{counts['observers']} observers, {counts['chatters']} chatters, "
        f"{counts['hostile']} hostile, 1 probe",
        flush=True,
    )
    address = iter(NORMAL_ADDRESSES * (args.clients // len(NORMAL_ADDRESSES) + 1))
    players = [Player(soak, i, next(address)) for i in range(counts["players"])]
    for player, account in zip(players, accounts, strict=False):
        player.account = account
    pairs = [Pair(soak, i, players[2 * i], players[2 * i + 1]) for i in range(len(players) // 2)]
    observers = [Observer(soak, i, next(address)) for i in range(counts["observers"])]
    chatters = [Chatter(soak, i, next(address)) for i in range(counts["chatters"])]
    hostile = [
        Hostile(soak, i, HOSTILE_ADDRESSES[i % len(HOSTILE_ADDRESSES)])
        for i in range(counts["hostile"])
    ]
    normal: list[Conn] = [*players, *observers, *chatters]
    background = [
        asyncio.create_task(sample_rss(soak, server.process.pid)),
        asyncio.create_task(watch_loop_lag(soak)),
    ]
    tasks: list[asyncio.Task[Any]] = []

    def spawn(name: str, work: Any) -> None:
        async def guarded() -> None:
            try:
                await work
            except Exception as exc:  # a bench bug must show, not hang the run
                soak.fail("bench errors", f"{name}: {type(exc).__name__}: {exc}")
                raise

        tasks.append(asyncio.create_task(guarded()))

    # -- ramp-up: everybody normal logs in, then starts living -----------------------------
    started = time.perf_counter()
    context = multiprocessing.get_context("spawn")
    probe_pipe, child_pipe = context.Pipe()
    prober = context.Process(
        target=probe_process, args=(server.port, args.seed, child_pipe), daemon=True
    )
    prober.start()
    ready = await probe_result(probe_pipe, LOGIN_TIMEOUT * LOGIN_TRIES + 30)
    if "ready" not in ready:
        raise SetupError(f"the probe could not log in: {ready.get('error')}")

    async def enter(client: Conn) -> bool:
        if not await client.log_in():
            return False
        if isinstance(client, Observer | Chatter):
            soak.stable.append(client)
            spawn(client.label, client.live())
        return True

    logged = await bounded(args.concurrency, [enter(c) for c in normal])
    for pair in pairs:
        spawn(f"pair {pair.index}", pair.run())
    ramp = time.perf_counter() - started
    print(
        f"{sum(logged)} of {len(normal)} normal clients and the probe logged in in {ramp:.1f} s",
        flush=True,
    )
    if not any(logged) and normal:
        raise SetupError("no normal client could log in")
    gc.collect()
    gc.freeze()

    # -- the phase -------------------------------------------------------------------------
    soak.phase_start = time.perf_counter()
    soak.deadline = soak.phase_start + args.minutes * 60
    phase_wall = time.time()
    for client in soak.stable:
        client.whole = client.connected
    hostile_tasks = [asyncio.create_task(one.live()) for one in hostile]
    server_cpu = server.cpu_seconds()
    bench_cpu = time.process_time()
    report_every = max(30.0, args.minutes * 6)
    next_report = soak.phase_start + report_every
    next_freeze = soak.phase_start + 30.0
    while time.perf_counter() < soak.deadline:
        await asyncio.sleep(min(1.0, soak.deadline - time.perf_counter()))
        if time.perf_counter() >= next_freeze:  # what piled up (messages, games) is kept:
            next_freeze += 30.0  # full collections need not walk it again and again
            gc.freeze()
        if time.perf_counter() >= next_report:
            next_report += report_every
            rss = soak.rss[-1][1] / 1024 if soak.rss else float("nan")
            print(
                f"  {time.perf_counter() - soak.phase_start:5.0f} s: {len(soak.live)} games, "
                f"{soak.counts['plies in the phase']} plies, "
                f"{soak.counts['chat messages in the phase']} chat messages, "
                f"{sum(soak.hostile_actions.values())} hostile actions, RSS {rss:.0f} MB, "
                f"{sum(soak.failures.values())} failures",
                flush=True,
            )
    soak.stop()
    deadline_wall = time.time()
    probe_pipe.send("stop")
    for observer in observers:
        observer.changed.set()
    for task in hostile_tasks:
        task.cancel()
    kb = read_rss_kb(server.process.pid)
    if kb is not None:
        soak.rss.append((soak.now(), kb))
    soak.counts["rss end index"] = len(soak.rss) - 1
    soak.counts["server cpu ms in the phase"] = int((server.cpu_seconds() - server_cpu) * 1000)
    soak.counts["bench cpu ms in the phase"] = int((time.process_time() - bench_cpu) * 1000)
    soak.counts["phase ms"] = int((time.perf_counter() - soak.phase_start) * 1000)

    # -- winding down: games end, messages settle ------------------------------------------
    print("winding down: games end, messages settle", flush=True)
    for player in players:
        if player.game is not None and player.board.turn == player.color:
            player._schedule_turn(0.0)
    await asyncio.gather(*hostile_tasks, return_exceptions=True)
    _, pending = await asyncio.wait(tasks, timeout=120)
    for task in pending:
        soak.fail("bench errors", f"a client task did not end: {task.get_name()}")
        task.cancel()
    await asyncio.sleep(args.settle)
    found = await probe_result(probe_pipe, 60)
    prober.join(10)
    if "error" in found:
        soak.fail("date never answered", f"the probe: {found['error']}")
    for wall, seconds in found.get("samples", []):
        if wall < phase_wall:
            soak.probe_ramp.append(seconds)
        elif wall < deadline_wall:
            soak.probe_phase.append(seconds)
    for check, count in found.get("failures", {}).items():
        soak.failures[check] += count
        soak.samples.setdefault(check, []).extend(found["found"].get(check, [])[:SAMPLES])
    for task in background:
        task.cancel()
    soak.counts["whole clients"] = sum(1 for c in soak.stable if c.whole)
    soak.counts["connected at the end"] = sum(1 for c in normal if c.connected)
    if found.get("samples"):
        soak.counts["connected at the end"] += 1  # the probe
    check_messages(soak)
    return soak


def check_messages(soak: Soak) -> None:
    whole = [c for c in soak.stable if c.whole]
    names = {c.name for c in whole}
    shouts: Counter[int] = Counter()
    for client in whole:
        shouts.update(client.shouts)
    for sent in soak.sent.values():
        if sent.confirmed is None:
            if sent.hostile:
                soak.counts["hostile messages not sent"] += 1
            elif not sent.declined:
                soak.fail(
                    "chat commands without a reply", f"{sent.kind} {sent.ident} of {sent.sender}"
                )
            continue
        soak.counts["messages confirmed"] += 1
        if sent.kind == "tell":
            if sent.received != 1:
                check = (
                    "lost messages" if sent.received == 0 else "duplicated or reordered messages"
                )
                soak.fail(
                    check,
                    f"tell {sent.ident} {sent.sender} -> {sent.target}: {sent.received} copies",
                )
        elif sent.kind == "channel":
            if sent.received != sent.confirmed:
                soak.fail(
                    "lost messages",
                    f"channel tell {sent.ident} of {sent.sender} in {sent.target}: told "
                    f"{sent.confirmed}, {sent.received} got it",
                )
        elif sent.received > sent.confirmed:
            soak.fail(
                "duplicated or reordered messages",
                f"{sent.kind} {sent.ident}: counted {sent.confirmed}, {sent.received} got it",
            )
        if sent.kind == "shout" and soak.phase_start <= sent.at < soak.deadline:
            expected = len(whole) - (sent.sender in names)
            if shouts[sent.ident] != expected:
                soak.fail(
                    "lost messages",
                    f"shout {sent.ident} of {sent.sender}: {shouts[sent.ident]} of the "
                    f"{expected} clients connected all along got it",
                )


def check_log(soak: Soak, path: Path) -> None:
    """The server logs an exception (a command that failed, a save that failed) with its
    traceback: there must be none."""
    lines = path.read_text("utf-8", "replace").splitlines()
    for at, line in enumerate(lines):
        if line.startswith("Traceback"):
            said = lines[at - 1] if at else ""
            error = next((x for x in lines[at + 1 :] if x and not x.startswith(" ")), "")
            soak.fail("server errors in its log", f"{said[:100]} / {error[:120]}")
    soak.counts["server log lines"] = len(lines)


def check_numbers(soak: Soak) -> None:
    """Two games with one number must not run at once (two seconds of slack: the players of
    the game that ended and those of the next one read their sockets in any order)."""
    by_number: dict[int, list[BenchGame]] = {}
    for game in soak.games.values():
        by_number.setdefault(game.number, []).append(game)
    for games in by_number.values():
        games.sort(key=lambda game: game.started)
        for before, after in pairwise(games):
            if after.started < before.ended - 2.0:
                soak.fail(
                    "two running games with one number",
                    f"game {after.number}: {before.white}-{before.black} (id {before.game_id}) "
                    f"and {after.white}-{after.black} (id {after.game_id})",
                )


def observed_game(soak: Soak, seen: Observation) -> BenchGame | None:
    """The game an observation was of. A pair keeps its names and may get the same number
    again (the lowest free one), so the number and names may fit several games: the one
    running when the first board came (two seconds of slack, as the players read their
    sockets in any order), whose position at that ply is the board's, is it."""
    games = soak.by_key.get((seen.number, seen.white, seen.black), [])
    slack = 2.0
    running = [g for g in games if g.started - slack <= seen.at <= g.ended + slack]
    if len(running) > 1:
        fitting = [
            g
            for g in running
            if seen.first < len(g.fingerprints()) and g.fingerprints()[seen.first] == seen.prints[0]
        ]
        running = fitting or running
    if len(running) > 1:
        running = [g for g in running if g.started <= seen.at <= g.ended] or running
    return running[0] if len(running) == 1 else None


def check_observations(soak: Soak) -> None:
    for seen in soak.observations:
        game = observed_game(soak, seen)
        if game is None:
            soak.counts["observations of unknown or ambiguous games"] += 1
            continue
        prints = game.fingerprints()
        for offset, fingerprint in enumerate(seen.prints):
            ply = seen.first + offset
            if ply >= len(prints):
                soak.fail(
                    "lost or reordered moves",
                    f"observer {seen.observer}: a board of ply {ply} of game {game.game_id}, "
                    f"which has {len(prints) - 1} plies",
                )
                break
            if prints[ply] != fingerprint:
                soak.fail(
                    "corrupted boards",
                    f"observer {seen.observer}: game {game.game_id} ply {ply} is another position",
                )
                break
        if seen.ended and not seen.broken and seen.last != len(prints) - 1:
            soak.fail(
                "lost or reordered moves",
                f"observer {seen.observer} saw game {game.game_id} end at ply {seen.last}, "
                f"it has {len(prints) - 1} plies",
            )


def expected_status(game: BenchGame) -> int | None:
    """What a disconnection should do to ``game``: 2 adjourned, 3 aborted, 0 forfeited."""
    if game.left is None:
        return None
    if game.registered:
        return 2
    return 3 if game.left[1] < 2 else 0


def check_store(soak: Soak, data_dir: Path) -> None:
    store = Store(database_url(data_dir, None))
    try:
        for game in soak.games.values():
            found = game.outcome()
            label = f"game {game.game_id} ({game.white}-{game.black})"
            if found is None:
                soak.fail("games that never ended", f"{label}: no player saw a result")
                continue
            (code, score, description), moves = found
            for name, result in game.results.items():
                if result != found[0] or game.finals[name] != moves:
                    soak.fail("lost or reordered moves", f"{label}: its players saw it differently")
            for name, seen in game.moves.items():
                if name not in game.results and seen != moves[: len(seen)]:
                    soak.fail(
                        "lost or reordered moves", f"{label}: {name}'s moves are not a prefix"
                    )
            record = store.game(game.game_id)
            if record is None:
                soak.fail("finished games not stored", label)
                continue
            soak.counts["games checked in the store"] += 1
            if record.status is None or record.mode is None or record.color is None:
                soak.fail("finished games not stored", f"{label}: stored without its result")
                continue
            try:
                stored_code = describe_result(record.status, record.mode, record.color).code
            except (UnknownResultError, ValueError) as exc:
                stored_code = f"? ({exc})"
            if list(record.moves) != moves:
                diverge = next(
                    (
                        i
                        for i, (a, b) in enumerate(zip(record.moves, moves, strict=False))
                        if a != b
                    ),
                    min(len(record.moves), len(moves)),
                )
                soak.fail(
                    "finished games stored wrong",
                    f"{label}: {len(record.moves)} plies stored, {len(moves)} seen, "
                    f"first difference at ply {diverge + 1}",
                )
            if record.score != score or stored_code != code:
                soak.fail(
                    "finished games stored wrong",
                    f"{label}: seen {code} {score} ({description}), stored {stored_code} "
                    f"{record.score} (status {record.status} mode {record.mode})",
                )
            status = record.status
            soak.counts[f"stored results: {score}"] += 1
            wanted = expected_status(game)
            if game.left is not None:
                what = description.replace(game.left[0], "X")
                soak.counts[f"after a disconnection: {what}"] += 1
                if wanted != status:
                    soak.fail(
                        "disconnections ended games against the rule",
                        f"{label}: {game.left[0]} left at ply {game.left[1]} "
                        f"({'registered' if game.registered else 'guests'}): {description}",
                    )
    finally:
        store.close()


# -- the report --------------------------------------------------------------------------


def percentile(sorted_values: list[float], q: float) -> float:
    rank = max(1, math.ceil(q / 100 * len(sorted_values)))
    return sorted_values[rank - 1]


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms"


def latency_line(values: list[float]) -> str:
    if not values:
        return "no samples"
    values = sorted(values)
    return (
        f"{len(values)} samples: p50 {ms(percentile(values, 50))}, "
        f"p99 {ms(percentile(values, 99))}, max {ms(values[-1])}"
    )


def rss_verdict(soak: Soak) -> tuple[list[str], bool]:
    """The RSS lines and whether the check passes. Warm and end RSS are medians of the
    samples around the warm-up time and over the phase's last seconds: a transient spike
    (an argon2 password check takes 64 MiB for a moment) moves neither."""
    args = soak.args
    samples = soak.rss[: soak.counts["rss end index"] + 1]
    if not samples:
        return ["server RSS: no samples"], False
    phase_at = soak.phase_start - soak.t0
    warm_at = phase_at + args.warmup
    end_at = samples[-1][0]
    half = min(10.0, args.warmup / 2)
    tail = min(20.0, (end_at - phase_at) / 4)
    warm = median([kb for t, kb in samples if warm_at - half <= t <= warm_at + half])
    end = median([kb for t, kb in samples if t >= end_at - tail])
    peak_at, peak = max(samples, key=lambda sample: sample[1])
    ratio = end / warm if warm else math.inf
    slope = (end - warm) / 1024 / max(end_at - warm_at, 1.0) * 60
    steps = 10
    timeline = [
        min(
            samples,
            key=lambda sample: abs(sample[0] - (phase_at + k * (end_at - phase_at) / steps)),
        )
        for k in range(steps + 1)
    ]
    lines = [
        f"server RSS: warm {warm / 1024:.0f} MB (median of {args.warmup - half:.0f}-"
        f"{args.warmup + half:.0f} s into the phase), end {end / 1024:.0f} MB (median of its last "
        f"{tail:.0f} s), end/warm {ratio:.2f} (limit {args.rss_ratio:g}), "
        f"{slope:+.2f} MB/min after warm-up; max {peak / 1024:.0f} MB "
        f"({peak_at - phase_at:.0f} s into the phase)",
        "  RSS over the phase (s: MB): "
        + ", ".join(f"{t - phase_at:.0f}: {kb / 1024:.0f}" for t, kb in timeline),
    ]
    return lines, ratio <= args.rss_ratio


def median(values: list[int]) -> float:
    if not values:
        return math.nan
    values = sorted(values)
    middle = len(values) // 2
    return float(values[middle]) if len(values) % 2 else (values[middle - 1] + values[middle]) / 2


def report(soak: Soak, shutdown: float, status: int | None, server_cpu: float) -> int:
    args, counts = soak.args, soak.counts
    phase = counts["phase ms"] / 1000 or 1.0
    print()
    print(
        f"phase: {phase:.1f} s with every client kind at work (seed {args.seed}): "
        + ", ".join(f"{v} {k}" for k, v in soak.population.items())
    )
    results = sorted((k, v) for k, v in counts.items() if k.startswith("stored results: "))
    print(
        f"games: {counts['games started']} started, {counts['games checked in the store']} "
        f"checked in the store ({', '.join(f'{k[16:]} {v}' for k, v in results) or 'none'}); "
        f"{counts['adjourned games resumed']} adjourned games resumed"
    )
    print(
        f"moves: {counts['plies']} plies, {counts['plies in the phase'] / phase:.1f} moves/s in "
        f"the phase; {counts['observer boards']} boards to observers in "
        f"{counts['observations']} observations "
        f"({counts['observations of unknown or ambiguous games']} of games not identified)"
    )
    gone = sorted((k, v) for k, v in counts.items() if k.startswith("after a disconnection: "))
    if gone:
        print("disconnections mid-game: " + "; ".join(f"{k[23:]}: {v}" for k, v in gone))
    sent = ", ".join(f"{counts[k + 's sent']} {k}s" for k in ("tell", "channel", "shout", "kibitz"))
    print(
        f"chat: {sent}; {counts['tells in the phase'] / phase:.1f} tells/s, "
        f"{counts['chat messages in the phase'] / phase:.1f} messages/s of all kinds; "
        f"{counts['messages received']} deliveries checked "
        f"({counts['messages received'] / phase:.0f}/s); "
        f"{counts['chat messages declined']} declined"
    )
    print(
        "players: "
        + ", ".join(
            f"{k} {counts[k]}"
            for k in (
                "draw claims",
                "draws offered",
                "draws accepted",
                "flag commands",
                "players dropping out (drop)",
                "players dropping out (quit)",
                "moves after the game had ended",
                "moves too late (lost on time)",
            )
        )
    )
    print(
        "hostile actions: "
        + ", ".join(f"{k} {v}" for k, v in sorted(soak.hostile_actions.items()))
        + f"; {counts['hostile bytes']} bytes of junk, {counts['hostile tells']} tells, "
        f"{counts['hostile shouts']} shouts ({counts['hostile messages not sent']} refused or "
        f"rate-limited), {counts['hostile floods']} floods, {counts['hostile wrong passwords']} "
        f"wrong passwords, {counts['hostile churned connections']} churned connections"
    )
    outcomes = [(k, v) for k, v in sorted(soak.hostile_outcomes.items()) if "done" not in k]
    if outcomes:
        print("  hostile actions cut short: " + ", ".join(f"{k} {v}" for k, v in outcomes))
    refusals = [(k, v) for k, v in sorted(counts.items()) if "refused" in k or "never" in k]
    print(
        "refusals: "
        + (", ".join(f"{k} {v}" for k, v in refusals if v) or "none")
        + f"; normal clients connected at the end: {counts['connected at the end']}"
    )
    for what, kept in sorted(soak.notes.items()):
        for sample in kept[:3]:
            print(f"  {what}: {sample}")
    print(f"probe date (phase): {latency_line(soak.probe_phase)}")
    print(f"probe date (ramp-up): {latency_line(soak.probe_ramp)}")
    print(f"bench event loop lag (phase): {latency_line(soak.loop_lags)}")
    rss_lines, rss_ok = rss_verdict(soak)
    print(*rss_lines, sep="\n")
    server_phase = counts["server cpu ms in the phase"] / 1000
    bench_phase = counts["bench cpu ms in the phase"] / 1000
    print(
        f"cpu: server {server_cpu:.1f} s in all, {server_phase:.1f} s in the phase "
        f"({server_phase / phase:.0%} of a core); bench {bench_phase:.1f} s in the phase "
        f"({bench_phase / phase:.0%} of a core), on {os.cpu_count()} cores; "
        f"load average now {os.getloadavg()[0]:.2f}"
    )
    print(
        f"server shutdown (SIGTERM): {shutdown:.2f} s, "
        f"exit status {status if status is not None else 'none (killed)'}"
    )
    if not rss_ok:
        soak.fail("RSS not bounded", rss_lines[0])
    if status != 0:
        soak.fail("server exit", f"status {status}")
    checks = (
        "decoder errors in normal streams",
        "output dropped (control-Z) to normal clients",
        "forged datagrams (not turned on)",
        "forged or misplaced texts",
        "stray boards",
        "stray moves",
        "corrupted messages",
        "corrupted messages (bad checksum)",
        "misdelivered messages",
        "duplicated or reordered messages",
        "lost messages",
        "chat commands without a reply",
        "lost or reordered moves",
        "illegal move replies",
        "corrupted boards",
        "games that never ended",
        "two running games with one number",
        "finished games not stored",
        "finished games stored wrong",
        "adjourned games not resumed with their moves",
        "disconnections ended games against the rule",
        "normal clients cut off by the server",
        "server errors in its log",
        "RSS not bounded",
    )
    print("\nchecks:")
    for check in (*checks, *sorted(set(soak.failures) - set(checks))):
        failed = soak.failures[check]
        print(f"  [{'FAIL' if failed else 'ok'}] {check}" + (f": {failed}" if failed else ""))
        for sample in soak.samples.get(check, []):
            print(f"         {sample}")
    probe = sorted(soak.probe_phase)
    if probe:
        print(
            f"\nsummary: date p99 {ms(percentile(probe, 99))} (p50 {ms(percentile(probe, 50))}, "
            f"max {ms(probe[-1])}), {counts['plies in the phase'] / phase:.1f} moves/s, "
            f"{counts['tells in the phase'] / phase:.1f} tells/s, server CPU "
            f"{server_phase:.1f} s in {phase:.0f} s; {sum(soak.failures.values())} failures"
        )
    if soak.failures:
        print(f"FAIL: {len(soak.failures)} checks failed")
        return 1
    print("all checks passed")
    return 0


async def soak_main(args: argparse.Namespace, server: ServerProcess, data_dir: Path) -> int:
    accounts: list[tuple[str, str]] = args.accounts
    soak: Soak | None = None
    try:
        soak = await run(args, server, accounts)
    finally:
        if soak is not None:
            soak.shutting_down = True
        server_cpu = server.cpu_seconds()
        shutdown, status = await asyncio.to_thread(server.stop)
    await asyncio.sleep(0.5)  # the clients read the server's goodbye and their EOF
    check_log(soak, server.log_path)
    check_numbers(soak)
    check_observations(soak)
    check_store(soak, data_dir)
    return report(soak, shutdown, status, server_cpu)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=2000, help="besides the probe")
    parser.add_argument("--minutes", type=float, default=10.0, help="of the phase")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--think-min", type=float, default=0.2, metavar="S")
    parser.add_argument("--think-max", type=float, default=2.0, metavar="S")
    parser.add_argument(
        "--chat-interval", type=float, default=20.0, metavar="S", help="a chatter's mean pause"
    )
    parser.add_argument(
        "--hostile-interval", type=float, default=8.0, metavar="S", help="between actions"
    )
    parser.add_argument(
        "--warmup", type=float, default=None, metavar="S", help="seconds into the phase"
    )
    parser.add_argument("--settle", type=float, default=2.0, metavar="S")
    parser.add_argument("--rss-ratio", type=float, default=1.5)
    parser.add_argument("--concurrency", type=int, default=50, help="logins at a time")
    parser.add_argument("--registered", type=float, default=0.1, help="share of player pairs")
    parser.add_argument("--keep-data", type=Path, default=None, metavar="DIR")
    args = parser.parse_args(argv)
    if args.clients < 10 or args.minutes <= 0 or args.think_min > args.think_max:
        parser.error("--clients 10 or more, --minutes above 0, --think-min <= --think-max")
    if args.warmup is None:
        args.warmup = min(60.0, args.minutes * 60 / 4)

    with contextlib.ExitStack() as stack:
        if args.keep_data is not None:
            data_dir = args.keep_data.resolve()
            data_dir.mkdir(parents=True, exist_ok=False)
        else:
            data_dir = Path(
                stack.enter_context(tempfile.TemporaryDirectory(prefix="icswire-soak-"))
            )
        try:
            limit = raise_fd_limit(2 * args.clients + FD_SLACK)
            pairs = spread(args.clients)["players"] // 2
            args.accounts = make_accounts(data_dir, pairs, args.registered)
            server = start_server(data_dir, None)
            print(
                f"server pid {server.process.pid} on {HOST}:{server.port}, RLIMIT_NOFILE {limit}, "
                f"{args.clients} clients + the probe, {args.minutes:g} minutes, seed {args.seed}",
                flush=True,
            )
            return asyncio.run(soak_main(args, server, data_dir))
        except (SetupError, ConnectionError, OSError) as exc:
            print(f"cannot run the soak: {type(exc).__name__}: {exc}", file=sys.stderr)
            return 2


if __name__ == "__main__":
    sys.exit(main())
