"""A tournament as data: its players, its games and byes, its rounds; saved as JSON
(:meth:`Tournament.to_json`) so that the TD's state survives its own restart."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Final

__all__ = ["FORFEITS", "FORMATS", "RESULTS", "Entrant", "Pairing", "Tournament", "load", "save"]

#: The formats a TD runs.
FORMATS: Final = ("swiss", "roundrobin", "arena")
#: The results a game can end with; "+-"/"-+"/"--" are forfeits (the game never played;
#: "--": both lost it).
RESULTS: Final = ("1-0", "0-1", "1/2-1/2", "+-", "-+", "--")
FORFEITS: Final = ("+-", "-+", "--")


@dataclass
class Entrant:
    """A player of the tournament, in the order they joined (``rating`` seeds them)."""

    name: str
    rating: int = 0
    withdrawn: bool = False
    #: Arena: berserk asked for the next game.
    berserk: bool = False


@dataclass
class Pairing:
    """One game of a round (or of an arena): ``result`` None while it is played."""

    round: int
    white: str
    black: str
    result: str | None = None
    game: int = 0  # the server's game number, once it started
    berserk: list[str] = field(default_factory=list)  # arena: who berserked
    plies: int = 0

    def points(self, name: str) -> float:
        """What ``name`` scored in this game (0 while it is played)."""
        if self.result is None:
            return 0.0
        if self.result == "--":
            return 0.0
        if self.result == "1/2-1/2":
            return 0.5
        white_won = self.result in ("1-0", "+-")
        return 1.0 if (name == self.white) == white_won else 0.0

    def opponent(self, name: str) -> str:
        return self.black if name == self.white else self.white

    def has(self, name: str) -> bool:
        return name in (self.white, self.black)


@dataclass
class Tournament:
    """Everything a TD knows of its event; the JSON file is this, field for field."""

    name: str
    kind: str = "swiss"
    rounds: int = 5
    minutes: int = 5
    increment: int = 0
    rated: bool = False
    #: Arena: its length in minutes, and the time it ends (seconds since the epoch).
    duration: float = 10.0
    ends_at: float = 0.0
    started: bool = False
    finished: bool = False
    round: int = 0
    entrants: list[Entrant] = field(default_factory=list)
    games: list[Pairing] = field(default_factory=list)
    #: Round -> who had the bye (a full point, as FIDE's pairing-allocated bye).
    byes: dict[int, str] = field(default_factory=dict)

    def entrant(self, name: str) -> Entrant | None:
        key = name.lower()
        return next((e for e in self.entrants if e.name.lower() == key), None)

    def active(self) -> list[Entrant]:
        return [e for e in self.entrants if not e.withdrawn]

    def round_games(self, number: int) -> list[Pairing]:
        return [g for g in self.games if g.round == number]

    def playing(self) -> list[Pairing]:
        return [g for g in self.games if g.result is None]

    def game_of(self, name: str) -> Pairing | None:
        """The unfinished game of ``name``, if any."""
        return next((g for g in self.playing() if g.has(name)), None)

    def to_json(self) -> str:
        data = asdict(self)
        data["byes"] = {str(k): v for k, v in self.byes.items()}
        return json.dumps(data, indent=1)

    @classmethod
    def from_json(cls, text: str) -> Tournament:
        data: dict[str, Any] = json.loads(text)
        data["entrants"] = [Entrant(**e) for e in data.get("entrants", [])]
        data["games"] = [Pairing(**g) for g in data.get("games", [])]
        data["byes"] = {int(k): v for k, v in data.get("byes", {}).items()}
        return cls(**data)


def save(tournament: Tournament, path: str | Path) -> None:
    """Write the state atomically (a crash leaves the old file or the new one)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    spare = path.with_suffix(path.suffix + ".tmp")
    spare.write_text(tournament.to_json(), encoding="utf-8")
    spare.replace(path)


def load(path: str | Path) -> Tournament | None:
    """The saved state, None if there is none."""
    path = Path(path)
    if not path.exists():
        return None
    return Tournament.from_json(path.read_text(encoding="utf-8"))
