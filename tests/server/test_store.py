"""Names and the account store, on SQLite and (when configured) PostgreSQL."""

from __future__ import annotations

import socket
import sqlite3
import threading
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from argon2 import PasswordHasher
from sqlalchemy import func, select, update

from icswire.protocol.codes import LoginFailed
from icswire.server.core.model.names import NAME_MAX, NAME_MIN, check_name, name_error, name_key
from icswire.server.core.storage.store import (
    Account,
    Store,
    StoreUnavailable,
    UnknownUser,
    UserExists,
    database_url,
    metadata,
    user_aliases,
    user_channels,
    user_notify,
    user_settings,
    users,
)


@pytest.fixture
def store(database_url: str) -> Iterator[Store]:
    with Store(database_url) as opened:
        yield opened


def stored_hash(store: Store, name: str) -> str:
    with store.engine.connect() as conn:
        value = conn.scalar(select(users.c.password_hash).where(users.c.name_key == name_key(name)))
    assert isinstance(value, str)
    return value


# -- names ----------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["ab", "Fred", "fred42", "A" * NAME_MAX, "Z9"])
def test_valid_names(name: str) -> None:
    assert check_name(name) is None
    assert name_error(name) is None


@pytest.mark.parametrize(
    ("name", "code"),
    [
        ("", LoginFailed.NAME_TOO_SHORT),
        ("a", LoginFailed.NAME_TOO_SHORT),
        ("a" * (NAME_MAX + 1), LoginFailed.NAME_TOO_LONG),
        ("1" * (NAME_MAX + 1), LoginFailed.NAME_TOO_LONG),
        ("4fred", LoginFailed.NAME_NOT_ALPHANUMERIC),
        ("fred_42", LoginFailed.NAME_NOT_ALPHANUMERIC),
        ("fr ed", LoginFailed.NAME_NOT_ALPHANUMERIC),
        ("fréd", LoginFailed.NAME_NOT_ALPHANUMERIC),
        ("fred²", LoginFailed.NAME_NOT_ALPHANUMERIC),
        ("fr\x19ed", LoginFailed.NAME_NOT_ALPHANUMERIC),
        ("fred{", LoginFailed.NAME_NOT_ALPHANUMERIC),
    ],
)
def test_invalid_names_have_their_login_failed_code(name: str, code: LoginFailed) -> None:
    assert check_name(name) == code
    reason = name_error(name)
    assert reason is not None and not reason.endswith("Try again.")


def test_name_limits_and_key() -> None:
    assert (NAME_MIN, NAME_MAX) == (2, 15)
    assert name_key("FrEd42") == "fred42" == name_key("fred42")


# -- accounts ------------------------------------------------------------------------------


def test_add_and_check_password(store: Store) -> None:
    store.add_user("Fred", "s3cret pass")
    assert store.check_password("Fred", "s3cret pass")
    assert store.check_password("fRED", "s3cret pass")
    assert not store.check_password("Fred", "s3cret Pass")
    assert not store.check_password("Fred", "")
    assert not store.check_password("Bob", "s3cret pass")
    assert store.list_users() == ["Fred"]


def test_the_password_is_kept_as_an_argon2id_hash(store: Store) -> None:
    store.add_user("Fred", "hunter2")
    stored = stored_hash(store, "fred")
    assert stored.startswith("$argon2id$")
    assert "hunter2" not in stored
    assert not PasswordHasher().check_needs_rehash(stored)
    with store.engine.connect() as conn:
        row = conn.execute(select(users.c.name, users.c.name_key, users.c.created)).one()
    assert (row.name, row.name_key) == ("Fred", "fred")
    assert row.created.tzinfo is not None and row.created.utcoffset() == timedelta(0)
    assert abs(datetime.now(UTC) - row.created) < timedelta(minutes=5)


def test_duplicate_names_are_refused_whatever_their_case(store: Store) -> None:
    store.add_user("Fred", "one")
    with pytest.raises(UserExists, match="Fred is already registered") as raised:
        store.add_user("fRED", "two")
    assert isinstance(raised.value, ValueError)
    assert store.list_users() == ["Fred"]
    assert store.check_password("fred", "one")


@pytest.mark.parametrize(
    ("name", "words"),
    [("x", "at least two"), ("a" * 16, "at most 15"), ("9lives", "begin with a letter")],
)
def test_add_user_refuses_invalid_names(store: Store, name: str, words: str) -> None:
    with pytest.raises(ValueError, match=words):
        store.add_user(name, "pw")
    assert store.list_users() == []


def test_empty_passwords_are_refused(store: Store) -> None:
    with pytest.raises(ValueError, match="password must not be empty"):
        store.add_user("Fred", "")
    assert store.list_users() == []
    store.add_user("Fred", "pw")
    with pytest.raises(ValueError, match="password must not be empty"):
        store.set_password("Fred", "")
    assert store.check_password("Fred", "pw")


def test_set_password(store: Store) -> None:
    store.add_user("Fred", "old")
    store.set_password("FRED", "new")
    assert store.check_password("fred", "new")
    assert not store.check_password("fred", "old")
    with pytest.raises(UnknownUser, match="no such user: Bob"):
        store.set_password("Bob", "x")


def test_remove_user_takes_everything_saved_for_it(store: Store) -> None:
    store.add_user("Fred", "pw")
    store.save_setting("Fred", "style", "12")
    store.add_channel("Fred", 50)
    store.add_notify("Fred", "Bob")
    store.save_alias("Fred", "hi", "tell $1 hello")
    store.remove_user("fred")
    assert store.list_users() == []
    assert store.load("Fred") is None
    assert not store.check_password("Fred", "pw")
    with store.engine.connect() as conn:
        for table in (user_settings, user_channels, user_notify, user_aliases):
            assert conn.scalar(select(func.count()).select_from(table)) == 0, table.name
    with pytest.raises(UnknownUser):
        store.remove_user("Fred")
    store.add_user("fred", "pw2")  # the name is free again, with nothing left over
    account = store.load("Fred")
    assert account == Account(account.uid if account else 0, "fred", {}, (), (), {})


def test_list_users_sorted_case_insensitively_case_kept(store: Store) -> None:
    for name in ("carol", "Alice", "bob"):
        store.add_user(name, "pw")
    assert store.list_users() == ["Alice", "bob", "carol"]


def test_an_outdated_hash_is_replaced_at_the_next_good_login(store: Store) -> None:
    store.add_user("Fred", "pw")
    weak = PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1).hash("pw")
    with store.engine.begin() as conn:
        conn.execute(update(users).values(password_hash=weak))
    assert not store.check_password("Fred", "wrong")
    assert stored_hash(store, "Fred") == weak
    assert store.check_password("Fred", "pw")
    renewed = stored_hash(store, "Fred")
    assert renewed != weak and renewed.startswith("$argon2id$")
    assert not PasswordHasher().check_needs_rehash(renewed)
    assert store.check_password("Fred", "pw")


def test_a_damaged_hash_fails_the_login_without_an_error(store: Store) -> None:
    store.add_user("Fred", "pw")
    with store.engine.begin() as conn:
        conn.execute(update(users).values(password_hash="not a hash"))
    assert not store.check_password("Fred", "pw")


# -- what sessions save ---------------------------------------------------------------------


def test_settings_lists_and_aliases_survive_a_restart(database_url: str) -> None:
    with Store(database_url) as store:
        store.add_user("Fred", "pw")
        store.save_setting("Fred", "style", "12")
        store.save_setting("fred", "prompt", "aics% ")
        store.save_setting("Fred", "1", "a note with {braces} and ünïcode")
        store.save_setting("Fred", "interface", "temporary")
        store.save_setting("Fred", "style", "13")  # overwrite
        store.save_setting("Fred", "interface", None)  # forget
        store.save_setting("Fred", "shout", None)  # forgetting what was never set is fine
        assert store.add_channel("Fred", 250)
        assert store.add_channel("Fred", 1)
        assert store.add_channel("Fred", 50)
        assert not store.add_channel("FRED", 50)
        assert store.remove_channel("Fred", 250)
        assert not store.remove_channel("Fred", 250)
        assert store.add_notify("Fred", "Bob")
        assert store.add_notify("Fred", "alice")
        assert store.add_notify("Fred", "Zed")
        assert not store.add_notify("Fred", "BOB")
        assert store.remove_notify("Fred", "zED")
        assert not store.remove_notify("Fred", "Zed")
        store.save_alias("Fred", "hi", "tell $1 hello")
        store.save_alias("Fred", "hi", "tell $1 hi there")
        store.save_alias("Fred", "bye", "quit")
        store.save_alias("Fred", "bye", None)
        store.save_alias("Fred", "@", "say @")
        store.add_user("Bob", "pw")  # someone else's settings stay their own
        store.save_setting("Bob", "style", "10")
    with Store(database_url) as store:
        fred = store.load("fred")
        assert fred is not None and fred.uid > 0
        assert fred == Account(
            uid=fred.uid,
            name="Fred",
            settings={"style": "13", "prompt": "aics% ", "1": "a note with {braces} and ünïcode"},
            channels=(1, 50),
            notify=("alice", "Bob"),
            aliases={"hi": "tell $1 hi there", "@": "say @"},
        )
        bob = store.load("Bob")
        assert bob is not None and bob.uid != fred.uid
        assert bob == Account(bob.uid, "Bob", {"style": "10"}, (), (), {})
        assert store.load("nobody") is None
        assert store.check_password("Fred", "pw")


def test_savers_need_a_registered_user(store: Store) -> None:
    with pytest.raises(UnknownUser):
        store.save_setting("ghost", "style", "12")
    with pytest.raises(UnknownUser):
        store.add_channel("ghost", 1)
    with pytest.raises(UnknownUser):
        store.remove_channel("ghost", 1)
    with pytest.raises(UnknownUser):
        store.add_notify("ghost", "Bob")
    with pytest.raises(UnknownUser):
        store.remove_notify("ghost", "Bob")
    with pytest.raises(UnknownUser):
        store.save_alias("ghost", "hi", "tell")


def test_notify_names_must_be_valid(store: Store) -> None:
    store.add_user("Fred", "pw")
    with pytest.raises(ValueError, match="begin with a letter"):
        store.add_notify("Fred", "b{b")
    account = store.load("Fred")
    assert account is not None and account.notify == ()


def test_one_store_from_many_threads(store: Store) -> None:
    store.add_user("Fred", "pw")
    errors: list[BaseException] = []

    def work(n: int) -> None:
        try:
            for i in range(5):
                store.add_channel("Fred", n * 10 + i)
                store.save_setting("Fred", f"v{n}", str(i))
                store.load("Fred")
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(n,)) for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    account = store.load("Fred")
    assert account is not None
    assert account.channels == tuple(sorted(n * 10 + i for n in range(8) for i in range(5)))
    assert account.settings == {f"v{n}": "4" for n in range(8)}


def test_an_in_memory_store_is_one_database_for_every_thread() -> None:
    with Store("sqlite://") as store:
        store.add_user("Fred", "pw")
        seen: list[Account | None] = []
        thread = threading.Thread(target=lambda: seen.append(store.load("Fred")))
        thread.start()
        thread.join()
        assert seen == [store.load("Fred")]
        assert seen[0] is not None and seen[0].name == "Fred"


# -- when the database does not answer ------------------------------------------------------


def test_a_locked_sqlite_database_is_unavailable_and_answers_again_once_released(
    tmp_path: Path,
) -> None:
    with Store(database_url(tmp_path, None), busy_timeout=0.1) as store:
        store.add_user("Fred", "pw")
        locker = sqlite3.connect(tmp_path / "icswire.sqlite3", isolation_level=None)
        locker.execute("BEGIN EXCLUSIVE")
        try:
            with pytest.raises(StoreUnavailable, match="database is locked"):
                store.save_setting("Fred", "style", "12")
            with pytest.raises(StoreUnavailable):
                store.load("Fred")
        finally:
            locker.execute("COMMIT")
            locker.close()
        store.save_setting("Fred", "style", "12")
        account = store.load("Fred")
        assert account is not None and account.settings == {"style": "12"}


def test_a_database_nobody_listens_for_is_unavailable() -> None:
    with socket.socket() as probe:  # a port nothing listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    with pytest.raises(StoreUnavailable):
        Store(f"postgresql://nobody@127.0.0.1:{port}/none")


def test_errors_of_the_call_itself_are_not_unavailability(store: Store) -> None:
    store.add_user("Fred", "pw")
    with pytest.raises(UserExists):
        store.add_user("fred", "pw")
    with pytest.raises(UnknownUser):
        store.save_setting("Nobody", "style", "12")


# -- where the database is -----------------------------------------------------------------


def test_database_url(tmp_path: Path) -> None:
    file_url = f"sqlite:///{tmp_path / 'icswire.sqlite3'}"
    assert database_url(tmp_path, None) == file_url
    assert database_url(tmp_path, "sqlite") == file_url
    assert database_url(Path("rel"), None) == f"sqlite:///{Path.cwd() / 'rel/icswire.sqlite3'}"
    assert database_url(tmp_path, "postgresql://u@h:5432/db") == "postgresql+psycopg://u@h:5432/db"
    assert database_url(tmp_path, "postgres://u@h/db") == "postgresql+psycopg://u@h/db"
    assert database_url(tmp_path, "postgresql+psycopg://u@h/db") == "postgresql+psycopg://u@h/db"
    assert database_url(tmp_path, "sqlite:////x/y.db") == "sqlite:////x/y.db"


def test_for_data_dir_creates_the_folder_and_keeps_accounts(tmp_path: Path) -> None:
    data_dir = tmp_path / "a" / "b"
    with Store.for_data_dir(data_dir) as store:
        store.add_user("Fred", "pw")
    assert (data_dir / "icswire.sqlite3").is_file()
    with Store.for_data_dir(data_dir) as store:
        assert store.list_users() == ["Fred"]


def test_the_schema_is_these_tables() -> None:
    assert set(metadata.tables) == {
        "server_lists",
        "users",
        "user_settings",
        "user_channels",
        "user_notify",
        "user_lists",
        "user_messages",
        "user_aliases",
        "games",
        "ratings",
        "admins",
        "bans",
        "news",
        "listed_events",
        "best_ratings",
        "user_presence",
        "journal_games",
        "nodes",
        "logons",
    }
