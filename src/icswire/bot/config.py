"""A bot's settings: one TOML file (stdlib ``tomllib``) read into frozen dataclasses.

Tables: ``[server]`` (host, port, dialect, user, password), ``[engine]``, ``[challenges]``,
``[[seeks]]``, ``[draw]``, ``[resign]``, ``[offers]`` and ``[bot]`` (owner, greeting,
farewell, kibitz, pgn_dir, reconnect); ``docs/bot.example.toml`` shows every key. An
unknown table or key, a value of the wrong type or out of range raises
:class:`ConfigError`, whose message names the key (``engine.skill: ...``).

Paths in a file (``engine.cwd``, ``engine.book``, ``engine.tablebases``, ``bot.pgn_dir``,
and an engine command with a ``/`` in its first word) are taken from the file's directory
when relative, and ``~`` is the home directory. The engine command is a list of words or
one string split as a shell would (``"stockfish --threads 2"``).
"""

from __future__ import annotations

import dataclasses
import shlex
import tomllib
import types
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, Union, get_args, get_origin, get_type_hints

from icswire.boards.variants import VARIANTS

__all__ = [
    "BotConfig",
    "ChallengeRules",
    "ConfigError",
    "DrawRules",
    "EngineConfig",
    "OfferRules",
    "ResignRules",
    "Seek",
    "config_from_toml",
    "default_config",
    "load_config",
]

VARIANT_NAMES = tuple(variant.name for variant in VARIANTS)
"""The names ``challenges.variants`` and ``seeks.variant`` take."""


class ConfigError(ValueError):
    """A bot's settings are wrong; the message names the key and what is wrong."""


@dataclass(frozen=True)
class EngineConfig:
    """The chess engine: how to start it and how long it may think."""

    command: tuple[str, ...]
    protocol: Literal["uci", "xboard"] = "uci"
    options: Mapping[str, str | int | bool] = field(default_factory=dict, hash=False)
    skill: int | None = None
    nodes: int | None = None
    depth: int | None = None
    movetime: float | None = None
    ponder: bool = False
    cwd: str | None = None
    book: str | None = None
    book_depth: int = 20
    tablebases: tuple[str, ...] = ()


@dataclass(frozen=True)
class ChallengeRules:
    """Which challenges the bot accepts (bases in minutes, increments in seconds)."""

    accept: bool = True
    variants: tuple[str, ...] = ("chess",)
    min_base: float = 0
    max_base: float = 180
    min_increment: int = 0
    max_increment: int = 180
    rated: bool = True
    unrated: bool = True
    min_rating: int = 0
    max_rating: int = 9999
    guests: bool = True
    titles_refused: tuple[str, ...] = ()
    max_games: int = 1


@dataclass(frozen=True)
class Seek:
    """A seek the bot keeps posted while it has room for a game."""

    base: int
    increment: int
    rated: bool = True
    variant: str = "chess"
    color: Literal["white", "black", ""] = ""
    formula: bool = False


@dataclass(frozen=True)
class DrawRules:
    """When the bot offers a draw and when it accepts one (evaluations in centipawns)."""

    offer: bool = True
    offer_after: int = 40
    offer_within: int = 20
    offer_for: int = 6
    accept: bool = True
    accept_after: int = 20
    accept_below: int = 0


@dataclass(frozen=True)
class ResignRules:
    """Resign once its evaluation stayed at or below ``below`` for ``moves`` own moves."""

    enabled: bool = True
    below: int = -900
    moves: int = 4


@dataclass(frozen=True)
class OfferRules:
    """How the bot answers its opponent's takeback, abort and adjourn requests."""

    takebacks: int = 0
    abort: bool = True
    adjourn: bool = True


@dataclass(frozen=True, kw_only=True)
class BotConfig:
    """Everything one bot needs: server, account, engine and the rules it plays by."""

    host: str = "127.0.0.1"
    port: int = 5000
    dialect: Literal["fics", "icc"] = "fics"
    user: str = "guest"
    password: str | None = None
    engine: EngineConfig
    challenges: ChallengeRules = ChallengeRules()
    seeks: tuple[Seek, ...] = ()
    draw: DrawRules = DrawRules()
    resign: ResignRules = ResignRules()
    offers: OfferRules = OfferRules()
    owner: str | None = None
    greeting: str = ""
    farewell: str = ""
    kibitz: bool = False
    pgn_dir: str | None = None
    reconnect: bool = True


# -- checks of single values -------------------------------------------------------------

Check = Callable[[Any], str | None]
"""A check of a converted value: None when good, else what is wrong."""


def _at_least(low: float) -> Check:
    return lambda value: None if value is None or value >= low else f"must be at least {low}"


def _between(low: int, high: int) -> Check:
    return lambda value: (
        None if value is None or low <= value <= high else f"must be from {low} to {high}"
    )


def _positive(value: float | None) -> str | None:
    return None if value is None or value > 0 else "must be more than 0"


def _not_empty(value: str | Sequence[str]) -> str | None:
    return None if value else "must not be empty"


def _one_of_variants(value: str) -> str | None:
    if value in VARIANT_NAMES:
        return None
    return f"is not a variant: {value!r} (one of {', '.join(VARIANT_NAMES)})"


def _variants(value: tuple[str, ...]) -> str | None:
    for index, name in enumerate(value):
        if (problem := _one_of_variants(name)) is not None:
            return f"[{index}] {problem}"
    return None


def _words(value: tuple[str, ...]) -> str | None:
    return None if value and all(value) else "must name the program (no empty words)"


CHECKS: dict[tuple[type, str], Check] = {
    (BotConfig, "port"): _between(1, 65535),
    (BotConfig, "user"): _not_empty,
    (EngineConfig, "command"): _words,
    (EngineConfig, "skill"): _between(0, 20),
    (EngineConfig, "nodes"): _at_least(1),
    (EngineConfig, "depth"): _at_least(1),
    (EngineConfig, "movetime"): _positive,
    (EngineConfig, "book_depth"): _at_least(0),
    (ChallengeRules, "variants"): _variants,
    (ChallengeRules, "min_base"): _at_least(0),
    (ChallengeRules, "max_base"): _at_least(0),
    (ChallengeRules, "min_increment"): _at_least(0),
    (ChallengeRules, "max_increment"): _at_least(0),
    (ChallengeRules, "min_rating"): _at_least(0),
    (ChallengeRules, "max_rating"): _at_least(0),
    (ChallengeRules, "max_games"): _at_least(1),
    (Seek, "base"): _at_least(0),
    (Seek, "increment"): _at_least(0),
    (Seek, "variant"): _one_of_variants,
    (DrawRules, "offer_after"): _at_least(0),
    (DrawRules, "offer_within"): _at_least(0),
    (DrawRules, "offer_for"): _at_least(1),
    (DrawRules, "accept_after"): _at_least(0),
    (ResignRules, "moves"): _at_least(1),
    (OfferRules, "takebacks"): _at_least(0),
}
"""Range and value checks beyond the field's type, by (class, field)."""

ORDERED: dict[type, tuple[tuple[str, str], ...]] = {
    ChallengeRules: (
        ("min_base", "max_base"),
        ("min_increment", "max_increment"),
        ("min_rating", "max_rating"),
    ),
}
"""Pairs of fields whose first may not exceed the second."""

PATH_FIELDS = {(EngineConfig, "cwd"), (EngineConfig, "book"), (BotConfig, "pgn_dir")}


# -- conversion by type hint -------------------------------------------------------------


def _type_name(hint: Any) -> str:
    origin = get_origin(hint)
    if origin is Literal:
        return " or ".join(repr(arg) for arg in get_args(hint))
    if origin in (Union, types.UnionType):
        return " or ".join(_type_name(arg) for arg in get_args(hint) if arg is not type(None))
    if origin is tuple:
        return f"a list of {_type_name(get_args(hint)[0])}s"
    if origin is Mapping:
        return "a table"
    return {str: "a string", int: "an integer", float: "a number", bool: "true or false"}[hint]


def _convert(key: str, value: Any, hint: Any) -> Any:
    """``value`` as ``hint`` says (TOML's types), or ConfigError naming ``key``."""
    origin = get_origin(hint)
    if origin in (Union, types.UnionType):
        arms = [arg for arg in get_args(hint) if arg is not type(None)]
        if value is None and len(arms) < len(get_args(hint)):
            return None
        for arm in arms:
            try:
                return _convert(key, value, arm)
            except ConfigError:
                continue
        raise _wrong_type(key, value, hint)
    if origin is Literal:
        if value in get_args(hint) and isinstance(value, str):
            return value
        raise ConfigError(f"{key}: must be {_type_name(hint)}, not {value!r}")
    if origin is tuple:
        if not isinstance(value, list | tuple):
            raise _wrong_type(key, value, hint)
        item = get_args(hint)[0]
        return tuple(_convert(f"{key}[{i}]", element, item) for i, element in enumerate(value))
    if origin is Mapping:
        if not isinstance(value, Mapping):
            raise _wrong_type(key, value, hint)
        key_hint, value_hint = get_args(hint)
        return {
            _convert(key, name, key_hint): _convert(f"{key}.{name}", element, value_hint)
            for name, element in value.items()
        }
    if hint is float and isinstance(value, int | float) and not isinstance(value, bool):
        return float(value)
    if hint is int and isinstance(value, int) and not isinstance(value, bool):
        return value
    if hint in (str, bool) and isinstance(value, hint):
        return value
    raise _wrong_type(key, value, hint)


def _wrong_type(key: str, value: Any, hint: Any) -> ConfigError:
    return ConfigError(f"{key}: must be {_type_name(hint)}, not {value!r}")


def _build(cls: type[Any], prefix: str, table: Mapping[str, Any], base: Path | None) -> Any:
    """An instance of the dataclass ``cls`` from a TOML table (keys named ``prefix.key``)."""
    if not isinstance(table, Mapping):
        raise ConfigError(f"{prefix}: must be a table, not {table!r}")
    hints = get_type_hints(cls)
    known = {f.name: f for f in dataclasses.fields(cls)}
    values: dict[str, Any] = {}
    for name, value in table.items():
        key = f"{prefix}.{name}" if prefix else name
        if name not in known:
            raise ConfigError(f"{key}: unknown key (known: {', '.join(known)})")
        values[name] = _value(cls, name, key, value, hints[name], base)
    for name, spec in known.items():
        no_default = spec.default is dataclasses.MISSING
        if no_default and spec.default_factory is dataclasses.MISSING and name not in values:
            raise ConfigError(f"{prefix}.{name}: missing (it has no default)")
    _check_order(cls, prefix, values)
    return cls(**values)


def _value(cls: type, name: str, key: str, value: Any, hint: Any, base: Path | None) -> Any:
    """One field's value, converted, checked and with its paths resolved."""
    if cls is EngineConfig and name == "command" and isinstance(value, str):
        value = shlex.split(value)
    converted = _convert(key, value, hint)
    check = CHECKS.get((cls, name))
    if check is not None and (problem := check(converted)) is not None:
        if problem.startswith("["):
            raise ConfigError(f"{key}{problem}")
        raise ConfigError(f"{key}: {problem}, not {value!r}")
    if base is not None and converted is not None:
        if (cls, name) in PATH_FIELDS:
            converted = _resolve(base, converted)
        elif cls is EngineConfig and name == "tablebases":
            converted = tuple(_resolve(base, path) for path in converted)
        elif cls is EngineConfig and name == "command" and "/" in converted[0]:
            converted = (_resolve(base, converted[0]), *converted[1:])
    return converted


def _resolve(base: Path, path: str) -> str:
    return str(base / Path(path).expanduser())


def _check_order(cls: type, prefix: str, values: Mapping[str, Any]) -> None:
    defaults = {f.name: f.default for f in dataclasses.fields(cls)}
    for low, high in ORDERED.get(cls, ()):
        low_value = values.get(low, defaults[low])
        high_value = values.get(high, defaults[high])
        if low_value > high_value:
            raise ConfigError(
                f"{prefix}.{low}: {low_value} is more than {prefix}.{high} ({high_value})"
            )


# -- the file ----------------------------------------------------------------------------

TOP_LEVEL = {
    "server": ("host", "port", "dialect", "user", "password"),
    "bot": ("owner", "greeting", "farewell", "kibitz", "pgn_dir", "reconnect"),
}
"""The tables whose keys are :class:`BotConfig`'s own fields."""

RULE_TABLES: dict[str, type] = {
    "challenges": ChallengeRules,
    "draw": DrawRules,
    "resign": ResignRules,
    "offers": OfferRules,
}
TABLES = ("server", "engine", "challenges", "seeks", "draw", "resign", "offers", "bot")

ENGINE_OVERRIDES = ("command", "protocol")
"""Overrides that go to the engine's table rather than :class:`BotConfig`."""


def load_config(path: str | Path, **overrides: Any) -> BotConfig:
    """The bot's settings from the TOML file at ``path``.

    ``overrides`` (from the command line) replace what the file says: any of
    :class:`BotConfig`'s own fields (``host``, ``port``, ``dialect``, ``user``,
    ``password``, ``owner``...) and the engine's ``command`` and ``protocol``. An override
    whose value is None is not given and changes nothing.
    """
    path = Path(path)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ConfigError(f"cannot read {path}: {exc.strerror or exc}") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path} is not TOML: {exc}") from None
    return config_from_toml(data, path.resolve().parent, **overrides)


def config_from_toml(
    data: Mapping[str, Any], base: Path | None = None, **overrides: Any
) -> BotConfig:
    """The settings from parsed TOML (``base``: where relative paths start, None to keep
    them as written); ``overrides`` as :func:`load_config` takes them."""
    for table in data:
        if table not in TABLES:
            raise ConfigError(f"[{table}]: unknown table (known: {', '.join(TABLES)})")
    values: dict[str, Any] = {}
    for table, names in TOP_LEVEL.items():
        section = data.get(table, {})
        if not isinstance(section, Mapping):
            raise ConfigError(f"{table}: must be a table, not {section!r}")
        for name in section:
            if name not in names:
                raise ConfigError(f"{table}.{name}: unknown key (known: {', '.join(names)})")
        hints = get_type_hints(BotConfig)
        for name, value in section.items():
            values[name] = _value(BotConfig, name, f"{table}.{name}", value, hints[name], base)
    for table, cls in RULE_TABLES.items():
        values[table] = _build(cls, table, data.get(table, {}), base)
    seeks = data.get("seeks", [])
    if not isinstance(seeks, list):
        raise ConfigError(f"seeks: must be an array of tables ([[seeks]]), not {seeks!r}")
    values["seeks"] = tuple(_build(Seek, f"seeks[{i}]", seek, base) for i, seek in enumerate(seeks))
    engine_table = data.get("engine", {})
    if not isinstance(engine_table, Mapping):
        raise ConfigError(f"engine: must be a table, not {engine_table!r}")
    engine = dict(engine_table)
    if overrides.get("protocol") is not None:
        engine["protocol"] = overrides["protocol"]
    if overrides.get("command") is not None:
        engine["command"] = _from_here(overrides["command"])
    if "command" not in engine:
        raise ConfigError("engine.command: missing (the program to run, e.g. ['stockfish'])")
    values["engine"] = _build(EngineConfig, "engine", engine, base)
    others = {k: v for k, v in overrides.items() if k not in ENGINE_OVERRIDES}
    return _replace(BotConfig(**values), others)


def _from_here(command: Any) -> Any:
    """A command given outside the file: a relative program path is the working
    directory's, not the file's."""
    words = shlex.split(command) if isinstance(command, str) else command
    if not isinstance(words, list | tuple) or not words or not isinstance(words[0], str):
        return words  # checked, and refused, as the file's command is
    if "/" in words[0]:
        return [str(Path.cwd() / Path(words[0]).expanduser()), *words[1:]]
    return words


def default_config(
    engine_command: Sequence[str], protocol: str = "uci", **overrides: Any
) -> BotConfig:
    """Settings with every default but the engine's: ``engine_command`` (argv) spoken to
    in ``protocol``; ``overrides`` replace :class:`BotConfig`'s fields as
    :func:`load_config`'s do (rule tables as instances: ``challenges=ChallengeRules(...)``)."""
    if isinstance(engine_command, str):
        engine_command = shlex.split(engine_command)
    engine = _build(
        EngineConfig, "engine", {"command": list(engine_command), "protocol": protocol}, None
    )
    return _replace(BotConfig(engine=engine), overrides)


def _replace(config: BotConfig, overrides: Mapping[str, Any]) -> BotConfig:
    """``config`` with ``overrides`` (None values skipped), each checked as the file's are."""
    hints = get_type_hints(BotConfig)
    changes: dict[str, Any] = {}
    for name, value in overrides.items():
        if value is None:
            continue
        if name not in hints:
            raise ConfigError(f"{name}: unknown setting (known: {', '.join(hints)})")
        if name in ("engine", "seeks", *RULE_TABLES):
            changes[name] = _dataclass_value(name, value)
        else:
            changes[name] = _value(BotConfig, name, name, value, hints[name], None)
    return dataclasses.replace(config, **changes)


def _dataclass_value(name: str, value: Any) -> Any:
    expected = {"engine": EngineConfig, **RULE_TABLES}.get(name)
    if expected is not None:
        if not isinstance(value, expected):
            raise ConfigError(f"{name}: must be a {expected.__name__}, not {value!r}")
        return value
    seeks = tuple(value) if isinstance(value, list | tuple) else None
    if seeks is None or not all(isinstance(seek, Seek) for seek in seeks):
        raise ConfigError(f"seeks: must be a sequence of Seek, not {value!r}")
    return seeks
