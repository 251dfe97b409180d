"""The command line's start-up: a command imports only what it uses, and the commands of
the server extra say what to install when its packages are missing.

Each test runs Python in a subprocess (a fresh ``sys.modules``); a meta-path finder there
plays a machine where ``pip install icswire`` left out the extras' packages.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

SESSION = Path(__file__).resolve().parent.parent / "examples" / "session.bin"

#: Run in the child: block the packages named in argv[1] (comma separated), run the CLI
#: with the rest of argv, then print which of the heavy modules got imported.
CHILD = """\
import json, sys
from importlib.abc import MetaPathFinder

BLOCKED = set(filter(None, sys.argv[1].split(",")))


class Missing(MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.partition(".")[0] in BLOCKED:
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None


sys.meta_path.insert(0, Missing())
import icswire.cli

try:
    icswire.cli.main(sys.argv[2:], prog_name="icswire")
except SystemExit as exit:
    status = exit.code or 0
heavy = ("sqlalchemy", "argon2", "psycopg", "icswire.server", "tqdm", "prompt_toolkit", "chess.pgn")
sys.stderr.write(json.dumps([m for m in heavy if m in sys.modules]) + "\\n")
sys.exit(status)
"""


def run_cli(*args: str, blocked: tuple[str, ...] = ()) -> tuple[int, str, str, list[str]]:
    """(exit status, stdout, stderr without the last line, the heavy modules imported)."""
    result = subprocess.run(
        [sys.executable, "-c", CHILD, ",".join(blocked), *args],
        input="",
        capture_output=True,
        text=True,
        check=False,
    )
    *lines, imported = result.stderr.splitlines()
    return result.returncode, result.stdout, "\n".join(lines), json.loads(imported)


@pytest.mark.parametrize("command", ["decode", "pgn"])
def test_decode_and_pgn_import_neither_the_server_nor_its_database_stack(command: str) -> None:
    status, out, _, imported = run_cli(command, str(SESSION))
    assert status == 0
    assert out  # the events, or the games
    # no sqlalchemy, argon2, server; no tqdm for a small file; no chess.pgn (and its asyncio)
    assert imported == []


@pytest.mark.parametrize("command", ["decode", "pgn", "encode"])
def test_the_codec_commands_work_without_the_server_extra(command: str) -> None:
    args = [command, "-"] if command == "encode" else [command, str(SESSION)]
    status, _, err, _ = run_cli(*args, blocked=("sqlalchemy", "argon2", "psycopg"))
    assert status == 0, err


def test_the_bot_command_needs_no_server_extra() -> None:
    """A bot is a client: ``icswire bot`` runs where only ``pip install icswire`` did,
    and its help loads none of the heavy modules (the server, its database stack)."""
    status, out, err, imported = run_cli(
        "bot", "--help", blocked=("sqlalchemy", "argon2", "psycopg")
    )
    assert status == 0, err
    assert "--engine" in out
    assert imported == []


@pytest.mark.parametrize(
    ("args", "command"),
    [
        (("serve", "--port", "0"), "serve"),
        (("user", "list"), "user"),
        (("user", "add", "somebody", "--password", "x"), "user"),
    ],
)
def test_server_commands_without_the_server_extra_say_what_to_install(
    args: tuple[str, ...], command: str, tmp_path: Path
) -> None:
    status, out, err, _ = run_cli(
        *args, "--data-dir", str(tmp_path), blocked=("sqlalchemy", "argon2")
    )
    assert status == 1
    assert out == ""
    assert err == f"Error: icswire {command} needs the server extra: pip install 'icswire[server]'"
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("command", ["serve", "user"])
def test_a_postgresql_url_without_the_postgresql_extra_says_what_to_install(
    command: str, tmp_path: Path
) -> None:
    args = ("serve", "--port", "0") if command == "serve" else ("user", "list")
    url = "postgresql://nobody@127.0.0.1:1/nothing"
    status, _, err, _ = run_cli(
        *args, "--data-dir", str(tmp_path), "--database", url, blocked=("psycopg",)
    )
    assert status == 1
    assert err == (
        f"Error: icswire {command} needs the postgresql extra: pip install 'icswire[postgresql]'"
    )


def test_help_lists_every_command_without_the_server_extra() -> None:
    status, out, _, _ = run_cli("--help", blocked=("sqlalchemy", "argon2"))
    assert status == 0
    listed = [line.split()[0] for line in out.split("Commands:")[1].splitlines() if line.strip()]
    assert listed == ["bot", "connect", "decode", "encode", "pgn", "serve", "td", "user"]
    assert "needs the server extra" in out.split("user", 1)[1]
