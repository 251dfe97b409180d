"""What ``icswire serve --computer ENGINE[,ENGINE...]`` asks for: each ENGINE read into the
computer accounts it gives (:class:`Computer`), and the engines it names looked for.

ENGINE is

- a known engine's name (:data:`KNOWN`: ``stockfish``, UCI; ``sjeng``, XBoard), looked for
  in PATH, then in /usr/games (Debian puts engines there);
- or the path of an engine's program, spoken to in UCI (``uci:PATH`` says so too), or
  ``xboard:PATH`` for an XBoard engine;
- either followed by ``:easy``, ``:medium`` or ``:strong`` for that level only.

Each engine gives one account per level, named after it: ``StockfishEasy``,
``StockfishMedium`` and ``Stockfish`` (the strong one bears the bare name). A known engine's
levels are tuned to it (stockfish: UCI ``Skill Level`` and a depth or node limit; sjeng: a
search depth); an engine given by path gets levels any engine understands (node or depth
limits). Every level also minds the clock, as the bot does.
"""

from __future__ import annotations

import os
import re
import shutil
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

__all__ = [
    "GAMES_DIR",
    "KNOWN",
    "LEVELS",
    "Computer",
    "ComputerSpecError",
    "Engine",
    "Level",
    "find_program",
    "parse_computers",
]

#: The levels, weakest first.
LEVELS = ("easy", "medium", "strong")
#: Where Debian installs engines, which is not in every PATH.
GAMES_DIR = Path("/usr/games")
#: The longest an account's name may be (the server's names: 2-15 letters and digits).
NAME_MAX = 15


class ComputerSpecError(ValueError):
    """``--computer`` names no engine in a form this reads (the message says which)."""


@dataclass(frozen=True)
class Level:
    """How strong one account plays: its name's ending and its engine's limits
    (:class:`~icswire.bot.config.EngineConfig`'s ``skill``, ``nodes``, ``depth``,
    ``movetime``: the most seconds a move may take)."""

    name: str
    suffix: str
    skill: int | None = None
    nodes: int | None = None
    depth: int | None = None
    movetime: float | None = None


@dataclass(frozen=True)
class Engine:
    """An engine program: its accounts' name (``Stockfish``), the protocol it speaks, the
    variants it plays (:class:`~icswire.boards.variants.Variant` names) and those it also
    seeks (beyond chess), its levels, and the Debian package that installs it."""

    title: str
    protocol: Literal["uci", "xboard"]
    levels: Mapping[str, Level]
    variants: tuple[str, ...] = ("chess",)
    seek_variants: tuple[str, ...] = ()
    package: str | None = None


def _levels(*levels: Level) -> Mapping[str, Level]:
    return {level.name: level for level in levels}


#: The engines known by name.
KNOWN: Mapping[str, Engine] = {
    "stockfish": Engine(
        "Stockfish",
        "uci",
        _levels(
            Level("easy", "Easy", skill=0, depth=5),
            Level("medium", "Medium", skill=8, nodes=200_000),
            Level("strong", "", skill=20, movetime=2.0),
        ),
        package="stockfish",
    ),
    "sjeng": Engine(
        "Sjeng",
        "xboard",
        _levels(
            Level("easy", "Easy", depth=2),
            Level("medium", "Medium", depth=5),
            Level("strong", "", movetime=2.0),
        ),
        variants=("chess", "crazyhouse", "suicide", "losers"),
        seek_variants=("crazyhouse", "suicide"),
        package="sjeng",
    ),
}
#: The levels of an engine given by its path: limits every UCI or XBoard engine takes.
ANY_ENGINE_LEVELS = _levels(
    Level("easy", "Easy", depth=2),
    Level("medium", "Medium", nodes=100_000),
    Level("strong", "", movetime=2.0),
)


@dataclass(frozen=True)
class Computer:
    """One account the server runs: its name, the engine's command and what it plays."""

    name: str
    command: tuple[str, ...]
    engine: Engine
    level: Level


def find_program(name: str) -> str | None:
    """The path of the program ``name``: in PATH, else in /usr/games; None if neither."""
    found = shutil.which(name)
    if found is None:
        candidate = GAMES_DIR / name
        if candidate.is_file() and os.access(candidate, os.X_OK):
            found = str(candidate)
    return found


def parse_computers(
    text: str, find: Callable[[str], str | None] = find_program
) -> tuple[list[Computer], list[str]]:
    """The computers ``text`` (``--computer``'s value) asks for, and one line for each
    engine that is not installed. :class:`ComputerSpecError` when an item is malformed."""
    computers: list[Computer] = []
    missing: list[str] = []
    for item in (part.strip() for part in text.split(",")):
        if not item:
            raise ComputerSpecError(f"an empty engine in {text!r}")
        found = _read(item, find)
        if isinstance(found, str):
            missing.append(found)
            continue
        for computer in found:
            same = next((c for c in computers if c.name.lower() == computer.name.lower()), None)
            if same is None:
                computers.append(computer)
            elif same != computer:
                raise ComputerSpecError(
                    f"two engines would play as {computer.name}: {same.command[0]} and"
                    f" {computer.command[0]}"
                )
    return computers, missing


def _read(item: str, find: Callable[[str], str | None]) -> list[Computer] | str:
    """The computers of one ENGINE, or why there are none (not installed)."""
    body, levels = item, list(LEVELS)
    head, sep, tail = item.rpartition(":")
    if sep and tail.lower() in LEVELS:
        body, levels = head, [tail.lower()]
    elif sep and tail and "/" not in tail and head.lower() not in ("uci", "xboard"):
        raise ComputerSpecError(f"{item}: unknown level {tail!r} (one of {', '.join(LEVELS)})")
    protocol, sep, path = body.partition(":")
    if not sep:
        protocol, path = "", body
    elif protocol.lower() not in ("uci", "xboard") or not path:
        raise ComputerSpecError(f"{item}: an engine's name, PATH, uci:PATH or xboard:PATH")
    known = KNOWN.get(path.lower()) if not protocol and "/" not in path else None
    if known is not None:
        program = find(path.lower())
        if program is None:
            how = f"apt install {known.package}, or " if known.package else ""
            return (
                f"{path} is not installed (not in PATH nor {GAMES_DIR}): {how}give its"
                " program's path"
            )
        engine = known
    else:
        program = find(path) if "/" not in path else _executable(path)
        if program is None:
            return f"{path}: no such engine program (not a known engine, nor an executable)"
        engine = Engine(
            _title(program), "xboard" if protocol.lower() == "xboard" else "uci", ANY_ENGINE_LEVELS
        )
    return [
        Computer(engine.title + engine.levels[name].suffix, (program,), engine, engine.levels[name])
        for name in levels
    ]


def _executable(path: str) -> str | None:
    found = Path(path).expanduser()
    return str(found.resolve()) if found.is_file() and os.access(found, os.X_OK) else None


def _title(program: str) -> str:
    """An account's name from a program's: letters and digits, a letter first, short
    enough for every level's ending (``/opt/lc0/lc0`` -> ``Lc0``)."""
    name = re.sub(r"[^A-Za-z0-9]", "", Path(program).name).lstrip("0123456789")
    longest = NAME_MAX - max(len(level.suffix) for level in ANY_ENGINE_LEVELS.values())
    name = name[:longest] if len(name) > 1 else f"{name}Engine"
    return name[0].upper() + name[1:]
