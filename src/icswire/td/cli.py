"""``icswire td [HOST] [PORT]``: run a tournament to its end (docs/td.md).

The settings come from ``--config FILE`` (TOML, docs/td.example.toml) or the defaults;
the options given replace what the file says. The log goes to standard error; the
standings, crosstable and PGN files to ``--out-dir``.
"""

from __future__ import annotations

from pathlib import Path

import click

from icswire.robot_cli import config_option, run_robot
from icswire.td.config import ConfigError, TdConfig, load_config

__all__ = ["td"]


@click.command()
@click.argument("host", required=False)
@click.argument("port", type=int, required=False)
@config_option("docs/td.example.toml")
@click.option("--dialect", type=click.Choice(["fics", "icc"]), default=None)
@click.option("--user", default=None, help="the TD account [default: TD]")
@click.option("--password", default=None, help="the account's password")
@click.option("--name", default=None, help="the event's name (its games' event label)")
@click.option("--kind", type=click.Choice(["swiss", "roundrobin", "arena"]), default=None)
@click.option("--rounds", type=int, default=None, help="Swiss rounds [default: 5]")
@click.option("--time", "minutes", type=int, default=None, help="minutes per player")
@click.option("--inc", "increment", type=int, default=None, help="increment in seconds")
@click.option("--rated/--unrated", default=None)
@click.option("--duration", type=float, default=None, help="arena minutes [default: 10]")
@click.option("--channel", type=int, default=None, help="announce in this channel")
@click.option("--start-after", type=float, default=None, help="seconds of entries")
@click.option("--min-players", type=int, default=None)
@click.option("--manager", "managers", multiple=True, help="may tell the TD 'start'")
@click.option("--state-file", default=None, help="the JSON state [default: td-state.json]")
@click.option("--out-dir", default=None, help="PGN and results [default: td-out]")
@click.option("-v", "--verbose", is_flag=True)
def td(
    host: str | None,
    port: int | None,
    config_file: Path | None,
    verbose: bool,
    managers: tuple[str, ...],
    **options: object,
) -> None:
    """A tournament director: runs a Swiss, round robin or arena on HOST."""
    from icswire.td.scores import standings_text
    from icswire.td.session import run_td

    try:
        config: TdConfig = load_config(
            config_file, host=host, port=port, managers=managers or None, **options
        )
    except ConfigError as exc:
        raise click.ClickException(f"settings: {exc}") from None
    tournament = run_robot(run_td(config), f"{config.host}:{config.port}", verbose=verbose)
    if tournament is None:
        return
    for line in standings_text(tournament):
        click.echo(line)
