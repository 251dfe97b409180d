"""What the server allows a connection, an address and a user: the admission and abuse
limits in one place, so an operator (``icswire serve --limit NAME=VALUE``) and the tests
(small values, so nothing waits long) can change them.

- Connections: at most :attr:`Limits.max_connections` at once (by default as many as the
  file-descriptor limit leaves room for) and :attr:`Limits.max_per_address` from one
  address; a connection over a cap is told why and closed.
- Logging in: :attr:`Limits.login_timeout` seconds for the whole dialogue (FICS:
  ``**** LOGIN TIMEOUT ****``); :attr:`Limits.login_tries` wrong passwords per connection,
  then it is closed; per address, and per address and account together, a few failures
  are free, then each try waits longer (:class:`Backoff`), and a try during the wait is
  refused unchecked; an account that many addresses fail on is slowed (each try answered
  later), never locked, so that nobody can lock its owner out.
- Registering (``--open-registration``): a token bucket per address
  (:attr:`Limits.register_address`) and one for the server (:attr:`Limits.register_total`).
- What a user stores (FICS's caps, playerdb.h and lists.c): :attr:`Limits.max_aliases`,
  :attr:`Limits.max_list` names (or channels) on each personal list,
  :attr:`Limits.max_messages` in a mailbox.
- Idle users: logged out after :attr:`Limits.idle_timeout` seconds without a command,
  unless they play or examine a game (FICS: 60 minutes).
- Talking and offers: a token bucket per user and kind (:data:`RATE_KINDS`), and at most
  :attr:`Limits.seeks_per_address` seeks posted from one address.

A cap, a timeout or a wait of 0 is none (``login_tries=0``: as many tries as one likes;
``failure_delay=0``: failures never make anyone wait; ``idle_timeout=0``: nobody idles out).

Rates (``Limits.rates``) are FICS-like: FICS has a shout quota ("two shouts per quota_time
seconds"); here every kind of talk and offer has a bucket, generous enough for people and
the bots and clients they use (XBoard's zippy seeks after each game), far below a flood.
"""

from __future__ import annotations

import asyncio
import math
import resource
from dataclasses import dataclass, field, fields
from typing import Any

from icswire.server.core.model.quotas import Bucket, Rate

__all__ = [
    "FD_HEADROOM",
    "RATE_KINDS",
    "Backoff",
    "Bucket",
    "Limits",
    "Rate",
    "fd_connection_cap",
    "seconds_text",
]

#: What each kind of rate limit counts, in the words of its refusal.
RATE_KINDS = {
    "tell": "tells",
    "channel": "channel tells",
    "shout": "shouts",
    "seek": "seeks",
    "match": "match requests",
}
#: File descriptors kept free of connections when the cap comes from the process's limit:
#: the database (SQLite keeps three per connection), the listening socket, logs, the
#: event loop's own.
FD_HEADROOM = 64


#: Registrations from one address: 3 at once, then one every 10 minutes.
REGISTER_ADDRESS = Rate(3, 600.0)
#: Registrations on the server: 30 at once, then one a minute.
REGISTER_TOTAL = Rate(30, 60.0)


def _default_rates() -> dict[str, Rate]:
    return {
        "tell": Rate(10, 1.0),
        "channel": Rate(6, 2.0),
        # FICS's shout quota: "two shouts per quota_time seconds"
        "shout": Rate(3, 20.0),
        "seek": Rate(6, 3.0),
        "match": Rate(6, 3.0),
    }


@dataclass
class Limits:
    """The admission and abuse limits of one server (0: no cap, timeout or wait)."""

    #: Seconds a connection has to log in, from its first byte to the prompt.
    login_timeout: float = 60.0
    #: Seconds without a command before a user is logged out, unless playing or examining.
    idle_timeout: float = 3600.0
    #: Connections at once; None: the file-descriptor limit less :data:`FD_HEADROOM`.
    max_connections: int | None = None
    #: Connections at once from one address.
    max_per_address: int = 30
    #: Wrong passwords (or tries refused for waiting) on one connection before it closes.
    login_tries: int = 3
    #: Failed logins of an address, or of an account from one address, before each try
    #: from there has to wait.
    free_failures: int = 3
    #: The first wait (seconds); it doubles with each failure after that.
    failure_delay: float = 2.0
    #: The longest wait.
    max_failure_delay: float = 300.0
    #: Seconds after the last failure when an address or account starts afresh.
    forget_failures: float = 3600.0
    #: Failed logins of an account, from anywhere, before each try of it is answered later
    #: (slowed, not refused: its owner still gets in).
    account_failures: int = 10
    #: The longest an account's try is held back (the hold doubles as the wait does).
    max_account_delay: float = 10.0
    #: Registrations from one address: BURST/SECONDS or off (``--open-registration``).
    register_address: Rate | None = REGISTER_ADDRESS
    #: Registrations on the whole server.
    register_total: Rate | None = REGISTER_TOTAL
    #: Aliases per user (FICS: MAX_ALIASES - 1).
    max_aliases: int = 29
    #: Entries on each of a user's lists: notify, censor, gnotify, noplay, channel (FICS's
    #: MAX_GLOBAL_LIST_SIZE).
    max_list: int = 200
    #: Messages kept for one user (FICS: MAX_MESSAGES); a message to a full mailbox is
    #: refused and its sender told.
    max_messages: int = 40
    #: Seeks posted at once from one address (each player may have 3).
    seeks_per_address: int = 10
    #: Seconds accepting pauses when the process is out of file descriptors (unless a
    #: connection closes first).
    accept_pause: float = 1.0
    #: Token buckets per user, by kind (:data:`RATE_KINDS`); a kind left out is unlimited.
    rates: dict[str, Rate] = field(default_factory=_default_rates)

    def set(self, assignment: str) -> None:
        """``NAME=VALUE``: one limit changed (``max_per_address=100``, ``shout=5/10``,
        ``tell=off``, ``max_connections=auto``). ValueError says what is wrong."""
        name, equals, value = assignment.partition("=")
        name, value = name.strip().replace("-", "_"), value.strip()
        if not equals or not value:
            raise ValueError(f"a limit is NAME=VALUE, not {assignment!r}")
        if name in RATE_KINDS:
            rate = Rate.parse(value)
            if rate is None:
                self.rates.pop(name, None)
            else:
                self.rates[name] = rate
            return
        kinds = {f.name: str(f.type) for f in fields(self) if f.name != "rates"}
        if name not in kinds:
            known = ", ".join(sorted([*kinds, *RATE_KINDS]))
            raise ValueError(f"no limit named {name!r} (limits: {known})")
        parsed: Any
        if "Rate" in kinds[name]:
            setattr(self, name, Rate.parse(value))
            return
        try:
            if name == "max_connections" and value.lower() in ("auto", "none"):
                parsed = None
            elif "float" in kinds[name]:
                parsed = float(value)
            else:
                parsed = int(value)
        except ValueError:
            raise ValueError(f"{name} takes a number, not {value!r}") from None
        if parsed is not None and parsed < 0:
            raise ValueError(f"{name} cannot be negative")
        setattr(self, name, parsed)

    def connection_cap(self) -> int:
        """Connections allowed at once (0: no cap)."""
        if self.max_connections is None:
            return fd_connection_cap()
        return self.max_connections


def fd_connection_cap() -> int:
    """Connections the process's file-descriptor limit leaves room for."""
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY:
        return 0
    return max(soft - FD_HEADROOM, soft // 2)


@dataclass
class _Failures:
    count: int
    last: float


class Backoff:
    """Login tries by key (an address; an address and an account; an account), each
    counted when it is made, before its password is checked, so that tries made at once
    cannot all pass as free: a try that then succeeds is taken back (:meth:`succeeded`).

    After ``free`` counted tries a key waits :attr:`Limits.failure_delay` seconds after
    the last, twice as long after each further one, at most ``longest``; the count is
    forgotten :attr:`Limits.forget_failures` seconds after the last try."""

    #: Entries kept before forgotten ones are swept out.
    SWEEP_AT = 10_000

    def __init__(self) -> None:
        self._failures: dict[str, _Failures] = {}
        #: Tries of a key whose passwords are being checked, and an event set when one of
        #: them is decided.
        self._checking: dict[str, int] = {}
        self._decided: dict[str, asyncio.Event] = {}

    def checking(self, key: str) -> None:
        """A counted try of ``key`` is being checked."""
        self._checking[key] = self._checking.get(key, 0) + 1

    def decided(self, key: str) -> None:
        """A try of ``key`` that was being checked passed or failed."""
        left = self._checking.get(key, 0) - 1
        if left > 0:
            self._checking[key] = left
        else:
            self._checking.pop(key, None)
        event = self._decided.pop(key, None)
        if event is not None:
            event.set()

    def in_flight(self, key: str) -> bool:
        """Whether tries of ``key`` are being checked: a count that refuses a try may
        still fall when they turn out right."""
        return key in self._checking

    async def one_decided(self, key: str) -> None:
        """Wait until a try of ``key`` being checked passes or fails."""
        event = self._decided.get(key)
        if event is None:
            event = self._decided[key] = asyncio.Event()
        await event.wait()

    def _found(self, key: str, limits: Limits, now: float) -> _Failures | None:
        found = self._failures.get(key)
        if found is not None and now - found.last > limits.forget_failures > 0:
            del self._failures[key]
            return None
        return found

    def delay(self, key: str, limits: Limits, now: float, free: int, longest: float) -> float:
        """The whole delay ``key`` has earned (0.0: none), from its last try."""
        found = self._found(key, limits, now)
        over = (found.count if found else 0) - free
        if over < 0 or limits.failure_delay <= 0:
            return 0.0
        return min(limits.failure_delay * 2.0 ** min(over, 32), longest)

    def wait(self, key: str, limits: Limits, now: float) -> float:
        """Seconds before a try of ``key`` is heard (0.0: at once), with
        :attr:`Limits.free_failures` free and :attr:`Limits.max_failure_delay` the most."""
        delay = self.delay(key, limits, now, limits.free_failures, limits.max_failure_delay)
        found = self._failures.get(key)
        return max(0.0, found.last + delay - now) if found and delay else 0.0

    def failed(self, key: str, limits: Limits, now: float) -> None:
        """Count a try of ``key`` (as failed until :meth:`succeeded` says otherwise)."""
        found = self._found(key, limits, now)
        if found is None:
            found = self._failures[key] = _Failures(0, now)
        found.count += 1
        found.last = now
        if len(self._failures) > self.SWEEP_AT:
            self._sweep(limits, now)

    def succeeded(self, key: str) -> None:
        """A counted try of ``key`` turned out right: it is no failure."""
        found = self._failures.get(key)
        if found is not None:
            found.count -= 1
            if found.count <= 0:
                del self._failures[key]

    def forget(self, key: str) -> None:
        self._failures.pop(key, None)

    def _sweep(self, limits: Limits, now: float) -> None:
        horizon = max(limits.forget_failures, limits.max_failure_delay)
        for key, found in list(self._failures.items()):
            if now - found.last > horizon:
                del self._failures[key]


def seconds_text(seconds: float) -> str:
    """``1 second``, ``12 seconds``: a wait rounded up to whole seconds."""
    whole = max(1, math.ceil(seconds))
    return f"{whole} second{'' if whole == 1 else 's'}"
