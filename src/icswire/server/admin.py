"""``icswire user``: administer accounts from the shell.

``icswire user add NAME`` (asks for the password twice unless ``--password`` gives it),
``passwd NAME``, ``list`` (administrators marked ``(admin)``), ``remove NAME``, ``admin
NAME [on|off]`` (the administrator flag: shown without ``on`` or ``off``), ``td NAME
[--remove]`` (the server's list of tournament directors' programs, which may ``qtell``)
``computer NAME [--remove]`` (the server's list of computer accounts, shown
``NAME(C)``; ``icswire serve --computer`` puts its own there) and ``title NAME LIST
[--remove]`` (any list that gives a title: ``gm``, ``im``, ``fm``, ``wgm``, ``wim``,
``wfm``, ``computer`` or ``c``, ``td``, and ``admin``, the administrator flag). A change
counts from NAME's next login (in a session, ``+gm NAME`` counts at once). Each takes ``--data-dir``
and ``--database`` like ``icswire serve``, so both find the same accounts. Errors (an
invalid or taken name, an unknown user, a database that cannot be opened) are one line
on stderr and exit status 1.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TypeVar

import click
from sqlalchemy import make_url
from sqlalchemy.exc import ArgumentError, DBAPIError, SQLAlchemyError

from icswire.server.core.model.titles import ADMIN_LIST
from icswire.server.core.storage.store import (
    SERVER_LISTS,
    Store,
    StoreUnavailable,
    UnknownUser,
    database_url,
)

__all__ = ["DEFAULT_DATA_DIR", "user"]

DEFAULT_DATA_DIR = Path("icswire-data")

F = TypeVar("F", bound=Callable[..., object])


def _database_options(command: F) -> F:
    command = click.option(
        "--database",
        metavar="URL",
        default=None,
        help="Database URL, e.g. postgresql://user@host/db  [default: SQLite in the data dir]",
    )(command)
    command = click.option(
        "--data-dir",
        type=click.Path(file_okay=False, path_type=Path),
        default=DEFAULT_DATA_DIR,
        show_default=True,
        help="Folder of the SQLite database.",
    )(command)
    return command


def _password_option(command: F) -> F:
    return click.option(
        "--password",
        prompt=True,
        hide_input=True,
        confirmation_prompt=True,
        help="The password (asked for twice, hidden, when not given).",
    )(command)


def _shown(database: str) -> str:
    """The URL with any password hidden, for error messages."""
    try:
        return make_url(database).render_as_string(hide_password=True)
    except ArgumentError:
        return database


def _reason(exc: Exception) -> str:
    """The driver's own message when there is one, without SQLAlchemy's statement and link."""
    if isinstance(exc, StoreUnavailable) and isinstance(exc.__cause__, Exception):
        exc = exc.__cause__
    if isinstance(exc, DBAPIError) and exc.orig is not None:
        return str(exc.orig).strip()
    return str(exc)


@contextmanager
def _open_store(data_dir: Path, database: str | None) -> Iterator[Store]:
    url = database_url(data_dir, database)
    try:
        store = Store(url)
    except (ArgumentError, SQLAlchemyError, StoreUnavailable, OSError) as exc:
        shown = _shown(database) if database is not None else str(data_dir)
        raise click.ClickException(f"cannot open the database {shown}: {_reason(exc)}") from None
    try:
        yield store
    except (ValueError, UnknownUser) as exc:
        raise click.ClickException(str(exc)) from None
    except (SQLAlchemyError, StoreUnavailable) as exc:
        raise click.ClickException(f"database error: {_reason(exc)}") from None
    finally:
        store.close()


@click.group()
def user() -> None:
    """Add, list and remove registered accounts."""


@user.command()
@click.argument("name")
@_password_option
@_database_options
def add(name: str, password: str, data_dir: Path, database: str | None) -> None:
    """Register NAME (2-15 letters and digits, beginning with a letter)."""
    with _open_store(data_dir, database) as store:
        store.add_user(name, password)
    click.echo(f"Added user {name}.")


@user.command()
@click.argument("name")
@_password_option
@_database_options
def passwd(name: str, password: str, data_dir: Path, database: str | None) -> None:
    """Change the password of NAME."""
    with _open_store(data_dir, database) as store:
        store.set_password(name, password)
    click.echo(f"Changed the password of {name}.")


@user.command("list")
@_database_options
def list_(data_dir: Path, database: str | None) -> None:
    """Print every registered name, one a line; administrators marked (admin)."""
    with _open_store(data_dir, database) as store:
        names = store.list_users()
        staff = set(store.list_admins())
    for name in names:
        click.echo(f"{name} (admin)" if name in staff else name)


@user.command()
@click.argument("name")
@_database_options
def remove(name: str, data_dir: Path, database: str | None) -> None:
    """Delete the account of NAME with its settings and lists."""
    with _open_store(data_dir, database) as store:
        store.remove_user(name)
    click.echo(f"Removed user {name}.")


@user.command()
@click.argument("name")
@click.argument("flag", required=False, type=click.Choice(["on", "off"]))
@_database_options
def admin(name: str, flag: str | None, data_dir: Path, database: str | None) -> None:
    """Show, or turn on or off, the administrator flag of NAME."""
    with _open_store(data_dir, database) as store:
        if flag is not None:
            store.set_admin(name, flag == "on")
        account = store.load(name)
        if account is None:
            raise UnknownUser(name)
    state = "an administrator" if account.admin else "not an administrator"
    click.echo(f"{account.name} is {state}.")


@user.command()
@click.argument("name")
@click.option("--remove", is_flag=True, help="Take NAME off the list instead.")
@_database_options
def td(name: str, remove: bool, data_dir: Path, database: str | None) -> None:
    """Put the registered NAME on the server's td list (tournament directors' programs,
    which may qtell), or take it off with --remove."""
    _server_list("td", name, remove, data_dir, database)


@user.command()
@click.argument("name")
@click.option("--remove", is_flag=True, help="Take NAME off the list instead.")
@_database_options
def computer(name: str, remove: bool, data_dir: Path, database: str | None) -> None:
    """Put the registered NAME on the server's computer list (programs that play: shown
    NAME(C), the formula's "computer" is 1 for them), or take it off with --remove. It
    counts from NAME's next login."""
    _server_list("computer", name, remove, data_dir, database)


#: The lists ``title`` takes: the server's, the administrator flag, and ``c`` (computer).
TITLE_CHOICES = (*SERVER_LISTS, ADMIN_LIST, "c")


@user.command()
@click.argument("name")
@click.argument("which", metavar="LIST", type=click.Choice(TITLE_CHOICES, case_sensitive=False))
@click.option("--remove", is_flag=True, help="Take NAME off the list instead.")
@_database_options
def title(name: str, which: str, remove: bool, data_dir: Path, database: str | None) -> None:
    """Put the registered NAME on LIST, a list that gives a title (gm, im, fm, wgm, wim,
    wfm, computer or c, td; admin is the administrator flag), or take it off with
    --remove. It counts from NAME's next login."""
    which = "computer" if which.lower() == "c" else which.lower()
    _server_list(which, name, remove, data_dir, database)


def _server_list(which: str, name: str, remove: bool, data_dir: Path, database: str | None) -> None:
    with _open_store(data_dir, database) as store:
        if which == ADMIN_LIST:
            changed = store.set_admin(name, not remove)
        else:
            changed = store.set_on_server_list(which, name, not remove)
    done = "removed from" if remove else "added to"
    click.echo(f"{name} {done} the {which} list." if changed else f"{name}: nothing to change.")
