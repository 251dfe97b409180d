"""Token buckets: a user's quota of talk and offers per kind (a replica keeps its own, for
the lines of that user forwarded to this node). The rates are
:attr:`Limits.rates <icswire.server.core.net.limits.Limits.rates>`."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Rate:
    """At most ``burst`` at once, then one more every ``seconds``: a token bucket."""

    burst: int
    seconds: float

    def __str__(self) -> str:
        return f"{self.burst}/{self.seconds:g}"

    @classmethod
    def parse(cls, text: str) -> Rate | None:
        """``BURST/SECONDS`` (``5/2``), or None for ``off`` or ``0``."""
        if text.strip().lower() in ("off", "0"):
            return None
        burst, slash, seconds = text.partition("/")
        try:
            rate = cls(int(burst), float(seconds))
        except ValueError:
            rate = None
        if not slash or rate is None or rate.burst < 1 or not rate.seconds > 0:
            raise ValueError(f"a rate is BURST/SECONDS (like 5/2) or off, not {text!r}")
        return rate


@dataclass
class Bucket:
    """One user's tokens of one kind."""

    tokens: float
    stamp: float

    def take(self, rate: Rate, now: float) -> float:
        """Use one token: 0.0 if there was one, else the seconds until there is."""
        self.tokens = min(rate.burst, self.tokens + (now - self.stamp) / rate.seconds)
        self.stamp = now
        if self.tokens >= 1:
            self.tokens -= 1
            return 0.0
        return (1 - self.tokens) * rate.seconds

    def give_back(self, rate: Rate) -> None:
        """Return a token taken for something that did not happen."""
        self.tokens = min(rate.burst, self.tokens + 1)
