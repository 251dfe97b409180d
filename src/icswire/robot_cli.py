"""What ``icswire bot`` and ``icswire td`` share on the command line: the ``--config``
option, and running the robot with its log on standard error and its connection's
failures said as click errors."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any, TypeVar

import click

__all__ = ["config_option", "run_robot"]

T = TypeVar("T")
F = TypeVar("F", bound=Callable[..., Any])


def config_option(example: str) -> Callable[[F], F]:
    """``--config FILE`` (its settings; ``example`` is the example file's name)."""
    return click.option(
        "--config",
        "config_file",
        type=click.Path(dir_okay=False, path_type=Path),
        default=None,
        help=f"a TOML file of settings ({example})",
    )


def run_robot(main: Coroutine[Any, Any, T], site: str, *, verbose: bool) -> T | None:
    """Log to standard error (``verbose``: debug lines too) and run ``main``; None when
    interrupted. A failed login or connection to ``site`` is a click error."""
    from icswire.client import LoginError

    logging.basicConfig(
        level=logging.DEBUG if verbose else logging.INFO,
        format="%(asctime)s %(name)s %(message)s",
    )
    try:
        return asyncio.run(main)
    except LoginError as exc:
        raise click.ClickException(f"login failed: {exc}") from None
    except OSError as exc:
        raise click.ClickException(f"cannot connect to {site}: {exc}") from None
    except KeyboardInterrupt:
        return None
