"""The TD's settings: a TOML file (docs/td.example.toml) of two tables, ``[server]``
(where and as whom) and ``[tournament]`` (what it runs), each key replaceable by a
command-line option."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

from icswire.td.model import FORMATS

__all__ = ["ConfigError", "TdConfig", "load_config"]


class ConfigError(Exception):
    """The settings cannot be used: the message says why."""


@dataclass(frozen=True)
class TdConfig:
    host: str = "127.0.0.1"
    port: int = 5000
    dialect: str = "icc"
    user: str = "TD"
    password: str | None = None
    #: The event: its name (the event label of its games), its format and terms.
    name: str = "icswire Swiss"
    kind: str = "swiss"
    rounds: int = 5
    minutes: int = 5
    increment: int = 0
    rated: bool = False
    duration: float = 10.0  # arena minutes
    #: Where it announces (0: nowhere) and its event's index for ``qaddevent`` (a TD may
    #: use 40-999, icc-formats.txt).
    channel: int = 0
    event_index: int = 40
    #: Entries close and round 1 starts this many seconds after the TD logs in, once
    #: ``min_players`` joined (or when a manager tells it ``start``).
    start_after: float = 60.0
    min_players: int = 2
    managers: tuple[str, ...] = ()
    #: Seconds a paired player has to start the game before forfeiting it.
    forfeit_after: float = 120.0
    #: Seconds between a round's end and the next round's pairings.
    round_delay: float = 5.0
    #: The state file (JSON) and the folder of results (PGN of each game, results.txt).
    state_file: str = "td-state.json"
    out_dir: str = "td-out"

    def __post_init__(self) -> None:
        if self.kind not in FORMATS:
            raise ConfigError(f"kind: {self.kind!r} is not one of {', '.join(FORMATS)}")
        if self.dialect not in ("icc", "fics"):
            raise ConfigError(f"dialect: {self.dialect!r} is not icc or fics")
        if self.rounds < 1 or self.minutes < 0 or self.increment < 0 or self.duration <= 0:
            raise ConfigError("rounds and duration must be positive, times not negative")


_NAMES = {f.name for f in fields(TdConfig)}


def load_config(path: str | Path | None, **overrides: Any) -> TdConfig:
    """The settings from the TOML file at ``path`` (None: the defaults) with
    ``overrides`` (None values change nothing)."""
    values: dict[str, Any] = {}
    if path is not None:
        try:
            data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
        except OSError as exc:
            raise ConfigError(f"cannot read {path}: {exc.strerror or exc}") from None
        except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
            raise ConfigError(f"{path} is not TOML: {exc}") from None
        for table, section in data.items():
            if table not in ("server", "tournament") or not isinstance(section, dict):
                raise ConfigError(f"[{table}]: unknown table (known: server, tournament)")
            for key, value in section.items():
                if key not in _NAMES:
                    raise ConfigError(f"[{table}] {key}: unknown setting")
                values[key] = tuple(value) if key == "managers" else value
    values.update({k: v for k, v in overrides.items() if v is not None})
    try:
        return TdConfig(**values)
    except TypeError as exc:
        raise ConfigError(str(exc)) from None
