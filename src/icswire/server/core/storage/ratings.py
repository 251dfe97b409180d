"""The ratings part of the Store: each registered user's Glicko-2 rating per rating type,
the best established one (``finger``), the ranking (``best``, ``rank``), and :func:`rate_game`,
which rates a finished game in the transaction that records its end."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Connection, Row, insert, select, update
from sqlalchemy.exc import IntegrityError

from icswire.server.core.model.names import name_key
from icswire.server.core.model.ratings import PROVISIONAL_GAMES, RATING_TYPES, Glicko
from icswire.server.core.storage.database import Database
from icswire.server.core.storage.records import RatingChange, RatingRecord
from icswire.server.core.storage.schema import best_ratings, ratings, users

__all__ = ["Ratings", "rate_game"]

_RATING_VALUES = (
    ratings.c.rating,
    ratings.c.deviation,
    ratings.c.volatility,
    ratings.c.games,
    ratings.c.wins,
    ratings.c.losses,
    ratings.c.draws,
)


class Ratings(Database):
    """Ratings by name and rating type; a name without one has a new player's rating."""

    def rating(self, name: str, rating_type: str) -> RatingRecord:
        """The ``rating_type`` rating of ``name``; a new player's rating (Glicko(), no games)
        when it has none or is not registered. ValueError for an unknown rating type.
        """
        _check_rating_type(rating_type)
        with self._begin() as conn:
            row = conn.execute(
                select(users.c.name, *_RATING_VALUES)
                .select_from(users)
                .outerjoin(
                    ratings,
                    (ratings.c.user_id == users.c.id) & (ratings.c.rating_type == rating_type),
                )
                .where(users.c.name_key == name_key(name))
            ).one_or_none()
        if row is None:
            return _new_rating(name, rating_type)
        if row.rating is None:
            return _new_rating(str(row.name), rating_type)
        return _rating_record(str(row.name), rating_type, row)

    def ratings(self, name: str) -> dict[str, RatingRecord]:
        """Every rating of ``name`` by rating type, in :data:`RATING_TYPES` order (defaults
        for the types it has not played, or for every type when it is not registered)."""
        with self._begin() as conn:
            account = conn.execute(
                select(users.c.id, users.c.name).where(users.c.name_key == name_key(name))
            ).one_or_none()
            rows = (
                []
                if account is None
                else conn.execute(
                    select(ratings.c.rating_type, *_RATING_VALUES).where(
                        ratings.c.user_id == account.id
                    )
                ).all()
            )
        shown = name if account is None else str(account.name)
        stored = {str(row.rating_type): _rating_record(shown, row.rating_type, row) for row in rows}
        return {kind: stored.get(kind) or _new_rating(shown, kind) for kind in RATING_TYPES}

    def save_rating(self, record: RatingRecord) -> None:
        """Save one rating of a registered user; nothing happens for an unknown name."""
        _check_rating_type(record.rating_type)
        for attempt in range(2):
            try:
                with self._begin() as conn:
                    uid = conn.scalar(
                        select(users.c.id).where(users.c.name_key == name_key(record.name))
                    )
                    if uid is None:
                        return
                    _write_rating(conn, int(uid), record)
                return
            except IntegrityError:  # inserted by another thread meanwhile: update it now
                if attempt:
                    raise

    def best_ratings(self, name: str) -> dict[str, tuple[int, datetime]]:
        """The best established rating of ``name`` per rating type, with when it was made."""
        with self._begin() as conn:
            rows = conn.execute(
                select(best_ratings.c.rating_type, best_ratings.c.best, best_ratings.c.achieved)
                .select_from(best_ratings.join(users, users.c.id == best_ratings.c.user_id))
                .where(users.c.name_key == name_key(name))
            ).all()
        return {str(row.rating_type): (int(row.best), row.achieved) for row in rows}

    def ranking(self, rating_type: str) -> list[tuple[str, int, int]]:
        """Every registered player with a ``rating_type`` rating: (name, rating, games),
        best first (ties by name), as ``best`` and ``rank`` list them."""
        _check_rating_type(rating_type)
        with self._begin() as conn:
            rows = conn.execute(
                select(users.c.name, users.c.name_key, ratings.c.rating, ratings.c.games)
                .select_from(ratings.join(users, users.c.id == ratings.c.user_id))
                .where(ratings.c.rating_type == rating_type, ratings.c.games > 0)
            ).all()
        ranked = sorted(rows, key=lambda row: (-round(row.rating), str(row.name_key)))
        return [(str(row.name), round(row.rating), int(row.games)) for row in ranked]


def rate_game(
    conn: Connection, white: str, black: str, rating_type: str, white_score: float
) -> tuple[RatingChange, ...]:
    """Both players' ratings after one game (White scored ``white_score``), saved; none
    unless both are registered. The players' rows are locked first (PostgreSQL), so two
    updates of one rating never both read the value before the other."""
    keys = [name_key(white), name_key(black)]
    accounts = {
        str(row.name_key): row
        for row in conn.execute(
            select(users.c.id, users.c.name, users.c.name_key)
            .where(users.c.name_key.in_(keys))
            .order_by(users.c.id)
            .with_for_update()
        )
    }
    if not all(key in accounts for key in keys):
        return ()
    before = []
    for key in keys:
        account = accounts[key]
        row = conn.execute(
            select(*_RATING_VALUES).where(
                ratings.c.user_id == account.id, ratings.c.rating_type == rating_type
            )
        ).one_or_none()
        shown = str(account.name)
        if row is None:
            before.append(_new_rating(shown, rating_type))
        else:
            before.append(_rating_record(shown, rating_type, row))
    scores = (white_score, 1.0 - white_score)
    changes = []
    for index, key in enumerate(keys):
        mine, theirs = before[index], before[1 - index]
        after = mine.played(theirs.glicko, scores[index])
        _write_rating(conn, int(accounts[key].id), after)
        changes.append(RatingChange(mine, after))
    return tuple(changes)


def _write_rating(conn: Connection, uid: int, record: RatingRecord) -> None:
    values = {
        "rating": record.glicko.rating,
        "deviation": record.glicko.deviation,
        "volatility": record.glicko.volatility,
        "games": record.games,
        "wins": record.wins,
        "losses": record.losses,
        "draws": record.draws,
    }
    where = (ratings.c.user_id == uid, ratings.c.rating_type == record.rating_type)
    result = conn.execute(update(ratings).where(*where).values(values))
    if result.rowcount == 0:
        conn.execute(insert(ratings).values(user_id=uid, rating_type=record.rating_type, **values))
    if record.games >= PROVISIONAL_GAMES:
        _write_best(conn, uid, record.rating_type, round(record.glicko.rating))


def _write_best(conn: Connection, uid: int, rating_type: str, rating: int) -> None:
    """Keep ``rating`` as the best of an established rating when it beats the best so
    far (FICS shows the best only once a rating is established)."""
    where = (best_ratings.c.user_id == uid, best_ratings.c.rating_type == rating_type)
    best = conn.scalar(select(best_ratings.c.best).where(*where))
    now = datetime.now(UTC)
    if best is None:
        conn.execute(
            insert(best_ratings).values(
                user_id=uid, rating_type=rating_type, best=rating, achieved=now
            )
        )
    elif rating > int(best):
        conn.execute(update(best_ratings).where(*where).values(best=rating, achieved=now))


def _check_rating_type(rating_type: str) -> None:
    if rating_type not in RATING_TYPES:
        raise ValueError(f"unknown rating type {rating_type!r}; one of {RATING_TYPES}")


def _new_rating(name: str, rating_type: str) -> RatingRecord:
    return RatingRecord(name, rating_type, Glicko(), 0, 0, 0, 0)


def _rating_record(name: str, rating_type: str, row: Row[*tuple[Any, ...]]) -> RatingRecord:
    return RatingRecord(
        name=name,
        rating_type=str(rating_type),
        glicko=Glicko(float(row.rating), float(row.deviation), float(row.volatility)),
        games=int(row.games),
        wins=int(row.wins),
        losses=int(row.losses),
        draws=int(row.draws),
    )
