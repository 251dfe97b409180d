"""Stored games and ratings, on SQLite and (when configured) PostgreSQL."""

from __future__ import annotations

import dataclasses
import subprocess
import sys
import textwrap
import threading
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta, timezone
from typing import NamedTuple

import pytest
from sqlalchemy import func, select, update

from icswire.server.core.model.ratings import RATING_TYPES, Glicko
from icswire.server.core.storage.records import GameRecord, RatingRecord
from icswire.server.core.storage.store import (
    ADJOURNED_BY_SHUTDOWN,
    MoveTexts,
    Progress,
    Store,
    UnknownGame,
    games,
    metadata,
    ratings,
)

FEN = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"


@pytest.fixture
def store(database_url: str) -> Iterator[Store]:
    with Store(database_url) as opened:
        yield opened


def a_game(white: str = "Fred", black: str = "GuestABCD", **changes: object) -> GameRecord:
    record = GameRecord(
        id=None,
        white=white,
        black=black,
        white_rating=1723,
        black_rating=0,
        wild=0,
        rating_type="Blitz",
        rated=False,
        initial=3,
        increment=2,
        start_fen=None,
        moves=(),
        clocks=(),
        times=(),
        status=None,
        mode=None,
        color=None,
        score="*",
        eco="?",
        white_clock=180_000,
        black_clock=180_000,
        started=datetime(2024, 5, 17, 21, 4, 5, 123456, tzinfo=UTC),
        ended=None,
    )
    return dataclasses.replace(record, **changes)  # type: ignore[arg-type]


def test_tables_are_in_the_shared_metadata() -> None:
    assert metadata.tables["games"] is games
    assert metadata.tables["ratings"] is ratings


# -- games -----------------------------------------------------------------------------------


def test_start_game_round_trip_with_every_field(store: Store) -> None:
    started = datetime(2024, 1, 2, 3, 4, 5, 678901, tzinfo=timezone(timedelta(hours=-5)))
    record = a_game(
        "Alice",
        "bob",
        white_rating=1850,
        black_rating=1402,
        wild=23,
        rating_type="Crazyhouse",
        rated=True,
        initial=5,
        increment=0,
        start_fen=FEN,
        moves=("e5", "Nf3", "P@e4"),
        clocks=(299_000, 298_500, -120),
        times=(1000, 1500, 0),
        eco="C40",
        white_clock=298_500,
        black_clock=-120,
        started=started,
    )
    game_id = store.start_game(record)
    assert isinstance(game_id, int)
    stored = store.game(game_id)
    assert stored == dataclasses.replace(record, id=game_id)
    assert stored is not None
    assert stored.started.tzinfo is not None and stored.started.utcoffset() == timedelta(0)
    assert stored.started == datetime(2024, 1, 2, 8, 4, 5, 678901, tzinfo=UTC)
    assert stored.rated is True and stored.start_fen == FEN


def test_start_game_with_empty_values(store: Store) -> None:
    record = a_game()
    game_id = store.start_game(record)
    stored = store.game(game_id)
    assert stored == dataclasses.replace(record, id=game_id)
    assert stored is not None
    assert stored.moves == () and stored.clocks == () and stored.times == ()
    assert stored.start_fen is None and stored.rated is False
    assert stored.status is None and stored.mode is None and stored.color is None
    assert stored.ended is None and stored.score == "*"


def test_start_game_stores_a_game_in_progress(store: Store) -> None:
    ended = datetime(2024, 5, 17, 22, 0, tzinfo=UTC)
    record = a_game(status=0, mode=1, color=0, score="1-0", ended=ended, id=99999)
    game_id = store.start_game(record)
    assert game_id != 99999
    stored = store.game(game_id)
    assert stored is not None
    assert (stored.status, stored.mode, stored.color, stored.score, stored.ended) == (
        None,
        None,
        None,
        "*",
        None,
    )


def test_game_ids_are_distinct_and_unknown_ids_are_none(store: Store) -> None:
    first, second = store.start_game(a_game()), store.start_game(a_game())
    assert first != second
    assert store.game(max(first, second) + 1000) is None


def test_naive_start_time_is_refused(store: Store) -> None:
    with pytest.raises(Exception, match="naive"):
        store.start_game(a_game(started=datetime(2024, 1, 1, 12, 0)))


def test_save_progress(store: Store) -> None:
    game_id = store.start_game(a_game())
    store.save_progress(game_id, ["e4"], [181_000], [0], 181_000, 180_000)
    stored = store.game(game_id)
    assert stored is not None
    assert (stored.moves, stored.clocks, stored.times) == (("e4",), (181_000,), (0,))
    store.save_progress(
        game_id,
        ("e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6", "Qxf7#"),
        (181_000, 181_500, 175_000, 170_000, 174_000, 100, 170_000),
        (0, 1500, 8000, 13_500, 3000, 171_400, 6000),
        170_000,
        100,
    )
    stored = store.game(game_id)
    assert stored is not None
    assert stored.moves == ("e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6", "Qxf7#")
    assert stored.clocks == (181_000, 181_500, 175_000, 170_000, 174_000, 100, 170_000)
    assert stored.times == (0, 1500, 8000, 13_500, 3000, 171_400, 6000)
    assert (stored.white_clock, stored.black_clock) == (170_000, 100)
    assert stored.status is None and stored.ended is None


def test_save_progress_refuses_what_it_cannot_keep(store: Store) -> None:
    game_id = store.start_game(a_game())
    for bad in ("e4 e5", "", "e4\n"):
        with pytest.raises(ValueError, match="one word"):
            store.save_progress(game_id, ["d4", bad], [1, 2], [0, 0], 1, 2)
    with pytest.raises(ValueError, match="one word"):
        store.start_game(a_game(moves=("e4", "e 5")))
    with pytest.raises(UnknownGame):
        store.save_progress(game_id + 1000, ["e4"], [1], [0], 1, 0)
    stored = store.game(game_id)
    assert stored is not None and stored.moves == ()


def test_save_progress_many_saves_every_game_and_names_the_missing(store: Store) -> None:
    first, second = store.start_game(a_game()), store.start_game(a_game())
    missing = max(first, second) + 1000
    saves = [
        Progress(first, "e4", "179000", "1000", 179_000, 180_000),
        Progress(missing, "d4", "1", "0", 1, 0),
        Progress(second, "d4 d5", "178000 177000", "2000 3000", 178_000, 177_000),
    ]
    assert store.save_progress_many(saves) == [missing]
    assert store.save_progress_many([saves[0], saves[2]]) == []
    one, two = store.game(first), store.game(second)
    assert one is not None and two is not None
    assert (one.moves, one.clocks, one.times) == (("e4",), (179_000,), (1000,))
    assert (two.moves, two.white_clock, two.black_clock) == (("d4", "d5"), 178_000, 177_000)
    assert store.game(missing) is None


class _Played(NamedTuple):
    san: str
    clock_ms: int
    time_ms: int


def test_move_texts_follow_moves_played_taken_back_and_replaced() -> None:
    def joined(played: list[_Played]) -> tuple[str, str, str]:
        words = [" ".join(str(move[i]) for move in played) for i in range(3)]
        return words[0], words[1], words[2]

    texts, played = MoveTexts(), []
    for ply, san in enumerate(["e4", "e5", "Nf3", "Nc6", "Bb5"]):
        played.append(_Played(san, 180_000 - ply, ply * 10))
        texts.follow(played)
        assert (texts.moves, texts.clocks, texts.times) == joined(played)
    texts.follow(played)  # nothing new: nothing added
    assert texts.moves == "e4 e5 Nf3 Nc6 Bb5"
    del played[-2:]  # a takeback of two plies
    texts.follow(played)
    assert (texts.moves, texts.clocks, texts.times) == joined(played)
    played[-1] = _Played("Nc3", 1, 2)  # as many moves, the last another
    texts.follow(played)
    assert (texts.moves, texts.clocks, texts.times) == ("e4 e5 Nc3", "180000 179999 1", "0 10 2")
    played.clear()
    texts.follow(played)
    assert (texts.moves, texts.clocks, texts.times) == ("", "", "")
    with pytest.raises(ValueError, match="one word"):
        texts.follow([_Played("e 4", 1, 1)])


def test_finish_game(store: Store) -> None:
    game_id = store.start_game(a_game())
    store.save_progress(game_id, ["f3", "e5", "g4", "Qh4#"], [1, 2, 3, 4], [5, 6, 7, 8], 3, 4)
    before = datetime.now(UTC)
    store.finish_game(game_id, 0, 1, 1, "0-1", "A00", 2900, 4100)
    after = datetime.now(UTC)
    stored = store.game(game_id)
    assert stored is not None
    assert (stored.status, stored.mode, stored.color) == (0, 1, 1)
    assert (stored.score, stored.eco) == ("0-1", "A00")
    assert (stored.white_clock, stored.black_clock) == (2900, 4100)
    assert stored.moves == ("f3", "e5", "g4", "Qh4#")
    assert stored.clocks == (1, 2, 3, 4) and stored.times == (5, 6, 7, 8)
    assert stored.ended is not None and stored.ended.utcoffset() == timedelta(0)
    assert before - timedelta(seconds=1) <= stored.ended <= after + timedelta(seconds=1)
    with pytest.raises(UnknownGame):
        store.finish_game(game_id + 1000, 1, 0, None, "1/2-1/2", "?", 0, 0)


def test_finish_game_aborted_without_color(store: Store) -> None:
    game_id = store.start_game(a_game())
    store.finish_game(game_id, 3, 0, None, "aborted", "?", 180_000, 180_000)
    stored = store.game(game_id)
    assert stored is not None
    assert (stored.status, stored.mode, stored.color, stored.score) == (3, 0, None, "aborted")


def finish(store: Store, white: str, black: str, status: int = 0) -> int:
    game_id = store.start_game(a_game(white, black))
    score = {0: "1-0", 1: "1/2-1/2", 2: "*", 3: "aborted"}[status]
    store.finish_game(game_id, status, 0, 0, score, "?", 1000, 2000)
    return game_id


def test_history_is_finished_games_newest_last(store: Store) -> None:
    started = [store.start_game(a_game("Fred" if i % 2 else "Other", "fred" if i % 2 == 0 else "Y"))
               for i in range(12)]  # fmt: skip
    # Finish them in an order unlike their ids: history goes by when they ended.
    order = [5, 0, 11, 3, 8, 1, 10, 2, 7, 4, 9, 6]
    for n, index in enumerate(order):
        store.finish_game(started[index], (0, 1, 3)[n % 3], 0, 1, "1-0", "?", 0, 0)
    # Not history: a game in progress, an adjourned game and other players' games.
    store.start_game(a_game("Fred", "Zed"))
    finish(store, "Zed", "FRED", status=2)
    zed = finish(store, "Zed", "Other")
    # aborted games (every third) are not history either, as on FICS
    expected = [started[index] for n, index in enumerate(order) if n % 3 != 2]
    more = [finish(store, "Fred", "Y") for _ in range(3)]
    expected += more
    assert [g.id for g in store.history("FRED")] == expected[-10:]
    assert [g.id for g in store.history("fred", limit=3)] == expected[-3:]
    assert [g.id for g in store.history("Fred", limit=50)] == expected
    assert all(g.status in (0, 1) for g in store.history("fred", limit=50))
    assert [g.id for g in store.history("zed")] == [zed]
    assert store.history("Nobody") == []


def test_history_returns_the_whole_records(store: Store) -> None:
    game_id = finish(store, "Fred", "Bob", status=1)
    [record] = store.history("bob")
    assert record == store.game(game_id)
    assert record.white == "Fred" and record.black == "Bob" and record.score == "1/2-1/2"


def test_adjourned_listing(store: Store) -> None:
    first = finish(store, "Fred", "Bob", status=2)
    second = finish(store, "Carol", "fred", status=2)
    finish(store, "Fred", "Bob")  # finished
    store.start_game(a_game("Fred", "Dan"))  # in progress
    third = finish(store, "Carol", "Bob", status=2)  # without Fred
    assert [g.id for g in store.adjourned("FRED")] == [first, second]
    assert [g.id for g in store.adjourned("bob")] == [first, third]
    assert store.adjourned("Dan") == []
    record = store.adjourned("fred")[0]
    assert (record.status, record.score, record.white, record.black) == (2, "*", "Fred", "Bob")

    store.resume_done(first)
    assert [g.id for g in store.adjourned("fred")] == [second]
    assert [g.id for g in store.adjourned("bob")] == [third]
    kept = store.game(first)
    assert kept is not None and kept.status == 2  # the row is kept, only no longer listed
    store.resume_done(first)  # twice: nothing more happens
    store.resume_done(first + 1000)  # unknown: nothing
    assert [g.id for g in store.adjourned("fred")] == [second]


def test_resume_done_ignores_games_not_adjourned(store: Store) -> None:
    playing = store.start_game(a_game())
    store.resume_done(playing)
    store.finish_game(playing, 2, 0, 1, "*", "?", 0, 0)
    assert [g.id for g in store.adjourned("Fred")] == [playing]


CRASH = """
import os, signal, sys
from datetime import UTC, datetime
from icswire.server.core.storage.records import GameRecord
from icswire.server.core.storage.store import Store

store = Store(sys.argv[1])
ids = []
for white, black in (("Fred", "Bob"), ("Carol", "Dan")):
    ids.append(store.start_game(GameRecord(
        None, white, black, 1500, 1500, 0, "Blitz", True, 3, 0, None, (), (), (), None, None,
        None, "*", "?", 180000, 180000, datetime.now(UTC), None)))
store.save_progress(ids[0], ["e4"], [179000], [1000], 179000, 180000)
store.save_progress(ids[0], ["e4", "c5"], [179000, 178000], [1000, 2000], 179000, 178000)
print(*ids, flush=True)
os.kill(os.getpid(), signal.SIGKILL)
"""


def test_interrupted_games_become_adjourned_after_a_crash(database_url: str) -> None:
    with Store(database_url) as store:
        done = finish(store, "Fred", "Eve")
        adjourned = finish(store, "Eve", "Fred", status=2)
    before = datetime.now(UTC)
    child = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(CRASH), database_url],
        capture_output=True,
        text=True,
        timeout=120,
    )
    after = datetime.now(UTC)
    assert child.returncode == -9, child.stderr
    first, second = (int(word) for word in child.stdout.split())

    with Store(database_url) as store:
        in_progress = store.game(first)
        assert in_progress is not None and in_progress.status is None
        assert store.interrupted_to_adjourned() == 2
        assert store.interrupted_to_adjourned() == 0
        record = store.game(first)
        assert record is not None
        assert (record.status, record.mode, record.color, record.score) == (
            2,
            ADJOURNED_BY_SHUTDOWN,
            0,
            "*",
        )
        assert ADJOURNED_BY_SHUTDOWN == 2
        assert record.moves == ("e4", "c5")
        assert record.clocks == (179_000, 178_000) and record.times == (1000, 2000)
        assert (record.white_clock, record.black_clock) == (179_000, 178_000)
        assert record.rated is True
        # ended: when the game was last saved, before the crash
        assert record.ended is not None
        assert before - timedelta(seconds=1) <= record.ended <= after + timedelta(seconds=1)
        untouched = store.game(second)
        assert untouched is not None and untouched.status == 2 and untouched.moves == ()
        assert [g.id for g in store.adjourned("fred")] == [adjourned, first]
        assert [g.id for g in store.adjourned("DAN")] == [second]
        finished = store.game(done)
        assert finished is not None and (finished.status, finished.score) == (0, "1-0")
        assert [g.id for g in store.history("fred")] == [done]


def test_interrupted_to_adjourned_uses_the_last_save_time(store: Store) -> None:
    game_id = store.start_game(a_game())
    saved = datetime(2024, 6, 1, 12, 30, 15, 250000, tzinfo=UTC)
    with store.engine.begin() as conn:
        conn.execute(update(games).where(games.c.id == game_id).values(updated=saved))
    assert store.interrupted_to_adjourned() == 1
    record = store.game(game_id)
    assert record is not None and record.ended == saved


# -- ratings ---------------------------------------------------------------------------------


def rating_rows(store: Store) -> int:
    with store.engine.connect() as conn:
        return int(conn.scalar(select(func.count()).select_from(ratings)) or 0)


def test_rating_defaults(store: Store) -> None:
    store.add_user("Fred", "secret")
    for name in ("fred", "GuestXYZW", "Nobody"):
        record = store.rating(name, "Blitz")
        assert (record.glicko, record.games, record.wins, record.losses, record.draws) == (
            Glicko(),
            0,
            0,
            0,
            0,
        )
        assert record.rating_type == "Blitz"
    assert store.rating("fred", "Bullet").name == "Fred"  # as registered
    assert store.rating("GuestXYZW", "Bullet").name == "GuestXYZW"
    with pytest.raises(ValueError, match="rating type"):
        store.rating("fred", "blitz")


def test_save_and_load_ratings(store: Store) -> None:
    store.add_user("Fred", "secret")
    store.add_user("Bob", "secret")
    blitz = RatingRecord(
        "FRED", "Blitz", Glicko(1464.0506705393013, 151.51652, 0.0599959), 3, 1, 2, 0
    )
    store.save_rating(blitz)
    loaded = store.rating("fred", "Blitz")
    assert loaded == dataclasses.replace(blitz, name="Fred")
    assert store.rating("Fred", "Standard").glicko == Glicko()  # other types untouched
    assert store.rating("Bob", "Blitz").glicko == Glicko()  # other users untouched

    better = RatingRecord("fred", "Blitz", Glicko(1612.5, 90.25, 0.0601), 4, 2, 2, 0)
    store.save_rating(better)
    assert store.rating("FRED", "Blitz") == dataclasses.replace(better, name="Fred")
    store.save_rating(RatingRecord("Bob", "Chess960", Glicko(1400, 300, 0.06), 1, 0, 0, 1))
    assert rating_rows(store) == 2

    every = store.ratings("fred")
    assert tuple(every) == RATING_TYPES
    assert every["Blitz"] == dataclasses.replace(better, name="Fred")
    assert every["Standard"] == RatingRecord("Fred", "Standard", Glicko(), 0, 0, 0, 0)
    assert store.ratings("bob")["Chess960"].draws == 1
    assert store.ratings("Nobody")["Bullet"] == RatingRecord(
        "Nobody", "Bullet", Glicko(), 0, 0, 0, 0
    )
    with pytest.raises(ValueError, match="rating type"):
        store.save_rating(dataclasses.replace(better, rating_type="Lightning"))


def test_save_rating_is_a_no_op_for_unknown_names(store: Store) -> None:
    store.save_rating(RatingRecord("GuestABCD", "Blitz", Glicko(1700, 100, 0.06), 5, 5, 0, 0))
    assert rating_rows(store) == 0
    assert store.rating("GuestABCD", "Blitz").glicko == Glicko()


def test_ratings_go_with_the_account(store: Store) -> None:
    store.add_user("Fred", "secret")
    store.save_rating(RatingRecord("Fred", "Blitz", Glicko(1700, 100, 0.06), 5, 5, 0, 0))
    store.remove_user("fred")
    assert rating_rows(store) == 0
    store.add_user("Fred", "again")
    assert store.rating("Fred", "Blitz").games == 0


def test_concurrent_first_saves_of_one_rating(store: Store) -> None:
    store.add_user("Fred", "secret")
    errors: list[BaseException] = []
    barrier = threading.Barrier(8)

    def save(n: int) -> None:
        try:
            barrier.wait()
            store.save_rating(
                RatingRecord("Fred", "Blitz", Glicko(1500 + n, 100, 0.06), n, n, 0, 0)
            )
        except BaseException as error:  # pragma: no cover - reported below
            errors.append(error)

    threads = [threading.Thread(target=save, args=(n,)) for n in range(1, 9)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert rating_rows(store) == 1
    record = store.rating("Fred", "Blitz")
    assert record.glicko.rating == 1500 + record.games


# -- an end is written once, with its moves and ratings ----------------------------------------


def test_finish_game_with_the_final_moves_and_the_ratings_in_one_transaction(
    store: Store,
) -> None:
    store.add_user("Fred", "secret")
    store.add_user("Bob", "secret")
    game_id = store.start_game(a_game("Fred", "Bob", rated=True))
    final = a_game(moves=("f3", "e5", "g4", "Qh4#"), clocks=(1, 2, 3, 4), times=(5, 6, 7, 8))
    white, black = store.finish_game(
        game_id, 0, 1, 1, "0-1", "?", 2900, 4100, final=final, rate=True
    )
    stored = store.game(game_id)
    assert stored is not None
    assert stored.moves == ("f3", "e5", "g4", "Qh4#") and stored.clocks == (1, 2, 3, 4)
    assert (stored.status, stored.score) == (0, "0-1")
    assert (white.before.games, white.after.games, white.after.losses) == (0, 1, 1)
    assert (black.before.name, black.after.wins) == ("Bob", 1)
    assert black.after.glicko.rating > 1500 > white.after.glicko.rating
    assert store.rating("bob", "Blitz") == black.after
    assert store.rating("fred", "Blitz") == white.after

    # The same end once more (the database lost its answer after it committed): nothing
    # changes, nothing is rated twice.
    assert store.finish_game(game_id, 0, 1, 1, "0-1", "?", 0, 0, final=final, rate=True) == ()
    assert store.rating("bob", "Blitz").games == 1
    again = store.game(game_id)
    assert again is not None and (again.white_clock, again.black_clock) == (2900, 4100)


def test_finish_game_rates_only_wins_and_draws_between_registered_players(store: Store) -> None:
    store.add_user("Fred", "secret")
    store.add_user("Bob", "secret")
    drawn = store.start_game(a_game("Fred", "Bob", rated=True))
    white, black = store.finish_game(drawn, 1, 0, 1, "1/2-1/2", "?", 1, 1, rate=True)
    assert (white.after.draws, black.after.draws) == (1, 1)
    adjourned = store.start_game(a_game("Fred", "Bob", rated=True))
    assert store.finish_game(adjourned, 2, 0, 1, "*", "?", 1, 1, rate=True) == ()
    with_guest = store.start_game(a_game("Fred", "GuestABCD", rated=True))
    assert store.finish_game(with_guest, 0, 1, 0, "1-0", "?", 1, 1, rate=True) == ()
    unrated = store.start_game(a_game("Fred", "Bob"))
    assert store.finish_game(unrated, 0, 1, 0, "1-0", "?", 1, 1) == ()
    assert store.rating("fred", "Blitz").games == 1


def test_start_game_resuming_marks_the_adjourned_game_in_the_same_transaction(
    store: Store,
) -> None:
    adjourned = finish(store, "Fred", "Bob", status=2)
    resumed = store.start_game(a_game("Fred", "Bob"), resumes=adjourned)
    assert store.adjourned("fred") == []
    kept = store.game(adjourned)
    assert kept is not None and kept.status == 2
    playing = store.game(resumed)
    assert playing is not None and playing.status is None
