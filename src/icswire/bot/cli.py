"""``icswire bot HOST [PORT] --engine CMD``: run a bot until its owner tells it to quit or
it is interrupted (docs/bot.md).

The settings come from ``--config FILE`` (TOML, docs/bot.example.toml) or, without one,
from the defaults; the options given replace what the file says. The log (one line per
decision) goes to standard error.
"""

from __future__ import annotations

import shlex
import shutil
from pathlib import Path

import click

from icswire.bot.config import BotConfig, ConfigError, default_config, load_config
from icswire.robot_cli import config_option, run_robot

__all__ = ["bot"]


@click.command()
@click.argument("host")
@click.argument("port", type=int, required=False)
@click.option(
    "--engine",
    "engine",
    default=None,
    metavar="CMD",
    help="the engine's command line, e.g. /usr/games/stockfish (else the config's)",
)
@click.option(
    "--protocol",
    type=click.Choice(["uci", "xboard"]),
    default=None,
    help="how the engine talks [default: uci]",
)
@config_option("docs/bot.example.toml")
@click.option(
    "--dialect",
    type=click.Choice(["fics", "icc"]),
    default=None,
    help="how the server speaks [default: fics]",
)
@click.option("--user", default=None, help="the account [default: guest]")
@click.option("--password", default=None, help="the account's password")
@click.option("--owner", default=None, help="the account whose tells the bot obeys")
@click.option("--pgn-dir", default=None, help="save each finished game there as PGN")
@click.option("-v", "--verbose", is_flag=True, help="log each move too")
def bot(
    host: str,
    port: int | None,
    engine: str | None,
    protocol: str | None,
    config_file: Path | None,
    dialect: str | None,
    user: str | None,
    password: str | None,
    owner: str | None,
    pgn_dir: str | None,
    verbose: bool,
) -> None:
    """A computer account: plays HOST's players with a UCI or XBoard engine."""
    from icswire.bot.engine import EngineError
    from icswire.bot.session import run_bot

    config = _settings(
        config_file,
        engine,
        protocol,
        host=host,
        port=port,
        dialect=dialect,
        user=user,
        password=password,
        owner=owner,
        pgn_dir=pgn_dir,
    )
    try:
        run_robot(run_bot(config), f"{host}:{config.port}", verbose=verbose)
    except EngineError as exc:
        raise click.ClickException(f"engine: {exc}") from None


def _settings(
    config_file: Path | None, engine: str | None, protocol: str | None, **overrides: object
) -> BotConfig:
    """The settings: the file's (or the defaults), with the options given."""
    if engine is not None and (words := shlex.split(engine)):
        found = shutil.which(words[0]) or shutil.which(words[0], path="/usr/games")
        engine = shlex.join([found or words[0], *words[1:]])
    try:
        if config_file is not None:
            return load_config(config_file, command=engine, protocol=protocol, **overrides)
        if engine is None:
            raise click.UsageError("give the engine: --engine CMD (or --config FILE)")
        return default_config(engine, protocol or "uci", **overrides)
    except ConfigError as exc:
        raise click.ClickException(f"settings: {exc}") from None
