"""The two clocks of a game as the screen shows them: set by each DG_MSEC (a value and
whether it runs), run down from the moment it came while it runs, frozen where they stood
when the game ended (not where the last DG_MSEC left them)."""

from __future__ import annotations

from dataclasses import dataclass, field


def format_clock(ms: int | None) -> str:
    """``4:59`` / ``-0:03``; ``-:--`` when there is no clock yet."""
    if ms is None:
        return "-:--"
    sign = "-" if ms < 0 else ""
    seconds = abs(ms) // 1000
    hours, rest = divmod(seconds, 3600)
    minutes, seconds = divmod(rest, 60)
    if hours:
        return f"{sign}{hours}:{minutes:02d}:{seconds:02d}"
    return f"{sign}{minutes}:{seconds:02d}"


@dataclass
class Clock:
    """One side's clock: ``ms`` at the moment ``since`` (monotonic seconds)."""

    ms: int
    running: bool
    since: float

    def at(self, now: float) -> int:
        return self.ms - round((now - self.since) * 1000) if self.running else self.ms


@dataclass
class GameClocks:
    """White's and Black's clocks ("W", "B"); :meth:`stop` freezes both for good."""

    clocks: dict[str, Clock] = field(default_factory=dict)
    stopped: bool = False

    def set(self, color: str, ms: int, running: bool, now: float) -> None:
        if not self.stopped:
            self.clocks[color] = Clock(ms, running, now)

    def stop(self, now: float) -> None:
        """The game ended: each clock keeps the value it has now."""
        if self.stopped:
            return
        for color, clock in self.clocks.items():
            self.clocks[color] = Clock(clock.at(now), False, now)
        self.stopped = True

    def ms(self, color: str, now: float) -> int | None:
        clock = self.clocks.get(color)
        return None if clock is None else clock.at(now)

    def running(self, color: str) -> bool:
        clock = self.clocks.get(color)
        return clock is not None and clock.running
