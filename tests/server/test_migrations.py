"""An older database is brought up to the schema (storage/migrations.py): missing tables
are created, and the columns added since are added as schema.py defines them."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime

import pytest
from sqlalchemy import inspect, text

from icswire.server.core.storage.migrations import ADDED_COLUMNS
from icswire.server.core.storage.records import GameRecord
from icswire.server.core.storage.store import LooksLike, Store


def a_game(variant: str | None) -> GameRecord:
    return GameRecord(
        id=None,
        white="Fred",
        black="GuestABCD",
        white_rating=1723,
        black_rating=0,
        wild=0,
        variant=variant,
        rating_type="Blitz",
        rated=False,
        initial=3,
        increment=2,
        start_fen=None,
        moves=("e4",),
        clocks=(180_000,),
        times=(0,),
        status=None,
        mode=None,
        color=None,
        score="*",
        eco="?",
        white_clock=180_000,
        black_clock=180_000,
        started=datetime(2024, 5, 17, 21, 4, 5, tzinfo=UTC),
        ended=None,
    )


def test_added_columns_can_be_added_to_rows_already_there() -> None:
    assert ADDED_COLUMNS
    assert all(column.nullable for column in ADDED_COLUMNS)


def test_a_database_made_before_the_variant_column_gets_it(database_url: str) -> None:
    with Store(database_url) as made:
        old = made.start_game(a_game(None))
        with made.engine.begin() as conn:
            conn.execute(text("ALTER TABLE games DROP COLUMN variant"))
            conn.execute(text("DROP TABLE journal_games"))
            assert "variant" not in {c["name"] for c in inspect(conn).get_columns("games")}
    with Store(database_url) as opened:
        column = {c["name"]: c for c in inspect(opened.engine).get_columns("games")}["variant"]
        assert str(column["type"]) == "VARCHAR(32)"
        assert column["nullable"]
        assert inspect(opened.engine).has_table("journal_games")
        found = opened.game(old)
        assert found is not None
        assert found.variant is None
        assert found.moves == ("e4",)
        new = opened.start_game(a_game("crazyhouse"))
        assert (game := opened.game(new)) is not None
        assert game.variant == "crazyhouse"


def test_an_up_to_date_database_is_left_as_it_is(database_url: str) -> None:
    with Store(database_url) as made:
        game_id = made.start_game(a_game("crazyhouse"))
    with Store(database_url) as opened:
        assert (game := opened.game(game_id)) is not None
        assert game.variant == "crazyhouse"


def test_a_database_made_before_the_private_column_gets_it(database_url: str) -> None:
    with Store(database_url) as made:
        old = made.start_game(a_game(None))
        with made.engine.begin() as conn:
            conn.execute(text("ALTER TABLE games DROP COLUMN private"))
    with Store(database_url) as opened:
        column = {c["name"]: c for c in inspect(opened.engine).get_columns("games")}["private"]
        assert column["nullable"]
        assert (found := opened.game(old)) is not None and not found.private
        new = opened.start_game(replace(a_game(None), private=True))
        assert (game := opened.game(new)) is not None and game.private


def test_a_database_made_before_the_skeleton_column_gets_it_filled(database_url: str) -> None:
    with Store(database_url) as made:
        made.add_user("Bill", "pw")
        made.add_user("Tomo", "pw")
        with made.engine.begin() as conn:
            conn.execute(text("DROP INDEX ix_users_skeleton"))
            conn.execute(text("ALTER TABLE users DROP COLUMN skeleton"))
            assert "skeleton" not in {c["name"] for c in inspect(conn).get_columns("users")}
    with Store(database_url) as opened:
        column = {c["name"]: c for c in inspect(opened.engine).get_columns("users")}["skeleton"]
        assert column["nullable"]
        indexes = {
            i["name"]: i["column_names"] for i in inspect(opened.engine).get_indexes("users")
        }
        assert indexes["ix_users_skeleton"] == ["skeleton"]
        with opened.engine.begin() as conn:
            filled = conn.execute(text("SELECT name, skeleton FROM users ORDER BY name")).all()
        assert [tuple(row) for row in filled] == [("Bill", "blll"), ("Tomo", "tomo")]
        with pytest.raises(LooksLike):
            opened.add_user("Bi1l", "pw")
        with pytest.raises(LooksLike):
            opened.add_user("Tom0", "pw")
        opened.add_user("Bilbo", "pw")
