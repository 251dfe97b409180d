"""What the server allows a connection, an address and a user: the admission and abuse
limits in one place, so an operator (``icswire serve --limit NAME=VALUE``) and the tests
(small values, so nothing waits long) can change them.

- Connections: at most :attr:`Limits.max_connections` at once (by default as many as the
  file-descriptor limit leaves room for) and :attr:`Limits.max_per_address` from one
  address; a connection over a cap is told why and closed.
- Logging in: :attr:`Limits.login_timeout` seconds for the whole dialogue (FICS:
  ``**** LOGIN TIMEOUT ****``); :attr:`Limits.login_tries` wrong passwords per connection,
  then it is closed; per address and per account a few failures are free, then each try
  waits longer (:class:`Backoff`), and a try during the wait is refused unchecked.
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
    #: Failed logins of an address or an account before each try has to wait.
    free_failures: int = 3
    #: The first wait (seconds); it doubles with each failure after that.
    failure_delay: float = 2.0
    #: The longest wait.
    max_failure_delay: float = 300.0
    #: Seconds after the last failure when an address or account starts afresh.
    forget_failures: float = 3600.0
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
        kinds = {f.name: f.type for f in fields(self) if f.name != "rates"}
        if name not in kinds:
            known = ", ".join(sorted([*kinds, *RATE_KINDS]))
            raise ValueError(f"no limit named {name!r} (limits: {known})")
        parsed: Any
        try:
            if name == "max_connections" and value.lower() in ("auto", "none"):
                parsed = None
            elif "float" in str(kinds[name]):
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
    """Failed logins by key (an address, an account): :attr:`Limits.free_failures` are
    free, then each try waits :attr:`Limits.failure_delay` seconds after the last failure,
    twice as long after each further one, at most :attr:`Limits.max_failure_delay`; the
    count is forgotten :attr:`Limits.forget_failures` seconds after the last failure."""

    #: Entries kept before forgotten ones are swept out.
    SWEEP_AT = 10_000

    def __init__(self) -> None:
        self._failures: dict[str, _Failures] = {}

    def wait(self, key: str, limits: Limits, now: float) -> float:
        """Seconds before a try of ``key`` is heard (0.0: at once)."""
        found = self._failures.get(key)
        if found is None:
            return 0.0
        if now - found.last > limits.forget_failures > 0:
            del self._failures[key]
            return 0.0
        over = found.count - limits.free_failures
        if over <= 0 or limits.failure_delay <= 0:
            return 0.0
        delay = min(limits.failure_delay * 2.0 ** min(over - 1, 32), limits.max_failure_delay)
        return max(0.0, found.last + delay - now)

    def failed(self, key: str, limits: Limits, now: float) -> None:
        found = self._failures.get(key)
        if found is None or now - found.last > limits.forget_failures > 0:
            found = self._failures[key] = _Failures(0, now)
        found.count += 1
        found.last = now
        if len(self._failures) > self.SWEEP_AT:
            self._sweep(limits, now)

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
