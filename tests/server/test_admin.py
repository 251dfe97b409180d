"""``icswire user add | passwd | list | remove`` through click's test runner."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from icswire.server.admin import user
from icswire.server.core.storage.store import Store


def run(database_url: str, *args: str, stdin: str | None = None) -> Result:
    return CliRunner().invoke(user, [*args, "--database", database_url], input=stdin)


def test_add_list_passwd_remove(database_url: str) -> None:
    result = run(database_url, "add", "Fred", "--password", "pw1")
    assert result.exit_code == 0, result.output
    assert "Added user Fred." in result.output
    assert run(database_url, "add", "alice", "--password", "pw2").exit_code == 0
    result = run(database_url, "list")
    assert result.exit_code == 0 and result.output == "alice\nFred\n"

    result = run(database_url, "passwd", "fred", "--password", "new")
    assert result.exit_code == 0, result.output
    assert "Changed the password of fred." in result.output
    with Store(database_url) as store:
        assert store.check_password("Fred", "new")
        assert not store.check_password("Fred", "pw1")

    result = run(database_url, "remove", "FRED")
    assert result.exit_code == 0, result.output
    assert "Removed user FRED." in result.output
    assert run(database_url, "list").output == "alice\n"


def test_add_asks_for_the_password_twice_hidden(database_url: str) -> None:
    # A mismatch is asked again; the password never shows in the output.
    result = run(database_url, "add", "Fred", stdin="first\nother\nright\nright\n")
    assert result.exit_code == 0, result.output
    assert "do not match" in result.output
    assert "right" not in result.output and "first" not in result.output
    with Store(database_url) as store:
        assert store.check_password("Fred", "right")
        assert not store.check_password("Fred", "first")


def test_errors_exit_1_with_a_clear_message(database_url: str) -> None:
    assert run(database_url, "add", "Fred", "--password", "pw").exit_code == 0
    cases = [
        (("add", "fRED", "--password", "x"), "Fred is already registered"),
        (("add", "x", "--password", "x"), "at least two characters"),
        (("add", "abcdefghijklmnop", "--password", "x"), "at most 15 characters"),
        (("add", "2fred", "--password", "x"), "must begin with a letter"),
        (("add", "Bob", "--password", ""), "password must not be empty"),
        (("passwd", "Bob", "--password", "x"), "no such user: Bob"),
        (("remove", "Bob"), "no such user: Bob"),
    ]
    for args, message in cases:
        result = run(database_url, *args)
        assert result.exit_code == 1, (args, result.output)
        assert result.output.startswith("Error: ") and message in result.output, (args, result)
    assert run(database_url, "list").output == "Fred\n"


def test_list_of_an_empty_database_prints_nothing(database_url: str) -> None:
    result = run(database_url, "list")
    assert result.exit_code == 0 and result.output == ""


def test_data_dir_default_and_option(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    runner = CliRunner()
    result = runner.invoke(user, ["add", "Fred", "--password", "pw"])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "icswire-data" / "icswire.sqlite3").is_file()
    result = runner.invoke(user, ["add", "Bob", "--password", "pw", "--data-dir", "other"])
    assert result.exit_code == 0, result.output
    assert runner.invoke(user, ["list"]).output == "Fred\n"
    assert runner.invoke(user, ["list", "--data-dir", "other"]).output == "Bob\n"
    with Store.for_data_dir(tmp_path / "other") as store:
        assert store.check_password("bob", "pw")


def test_a_database_that_cannot_be_opened(tmp_path: Path) -> None:
    result = CliRunner().invoke(user, ["list", "--database", "nosuchdb://x/y"])
    assert result.exit_code == 1
    assert "Error: cannot open the database nosuchdb://x/y" in result.output
    result = CliRunner().invoke(
        user, ["list", "--database", "postgresql://nobody:hush@127.0.0.1:1/none"]
    )
    assert result.exit_code == 1
    assert "Error: cannot open the database postgresql://nobody:***@127.0.0.1:1/none" in (
        result.output
    )
    assert "hush" not in result.output


def test_admin_flag_set_shown_and_listed(database_url: str) -> None:
    assert run(database_url, "add", "Fred", "--password", "pw").exit_code == 0
    assert run(database_url, "add", "alice", "--password", "pw").exit_code == 0
    assert run(database_url, "admin", "fred").output == "Fred is not an administrator.\n"
    result = run(database_url, "admin", "fred", "on")
    assert result.exit_code == 0 and result.output == "Fred is an administrator.\n"
    assert run(database_url, "admin", "FRED", "on").output == "Fred is an administrator.\n"
    assert run(database_url, "list").output == "alice\nFred (admin)\n"
    with Store(database_url) as store:
        account = store.load("fred")
        assert account is not None and account.admin
    result = run(database_url, "admin", "Fred", "off")
    assert result.output == "Fred is not an administrator.\n"
    assert run(database_url, "list").output == "alice\nFred\n"
    result = run(database_url, "admin", "Bob", "on")
    assert result.exit_code == 1 and "no such user: Bob" in result.output
    assert run(database_url, "admin", "Fred", "maybe").exit_code == 2


def test_td_puts_a_registered_user_on_the_servers_td_list(database_url: str) -> None:
    assert run(database_url, "add", "Tomato", "--password", "pw").exit_code == 0
    result = run(database_url, "td", "tomato")
    assert result.exit_code == 0 and result.output == "tomato added to the td list.\n"
    assert run(database_url, "td", "Tomato").output == "Tomato: nothing to change.\n"
    with Store(database_url) as store:
        assert store.server_list("td") == ["Tomato"]
    result = run(database_url, "td", "Tomato", "--remove")
    assert result.output == "Tomato removed from the td list.\n"
    result = run(database_url, "td", "Nobody1")
    assert result.exit_code == 1 and "no such user: Nobody1" in result.output
