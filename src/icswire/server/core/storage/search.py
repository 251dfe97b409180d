"""The search part of the Store: finished games found by their players, colours, result,
kind, time control, date and opening (ICC's ``search``), newest first and counted.

>>> from icswire.server.core.storage.store import Store
>>> store = Store("sqlite://")
>>> store.search_games(GameQuery(player="nobody"))
(0, [])
>>> store.close()
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from typing import Any, Literal

from sqlalchemy import ColumnElement, and_, func, or_, select

from icswire.protocol.codes import ResultStatus
from icswire.server.core.model.names import name_key
from icswire.server.core.storage.database import Database
from icswire.server.core.storage.games import game_record
from icswire.server.core.storage.records import GameRecord
from icswire.server.core.storage.schema import games

__all__ = ["RESULTS", "GameQuery", "Search"]

Result = Literal["1-0", "0-1", "1/2-1/2", "win", "loss"]

#: The results a query may ask for: the score, or ``win`` / ``loss`` of its player.
RESULTS: tuple[Result, ...] = ("1-0", "0-1", "1/2-1/2", "win", "loss")

#: White lost (``color`` 1) or Black lost (``color`` 0): DG_GAMELIST_ITEM's color of a win.
_WHITE_LOST, _BLACK_LOST = 1, 0


@dataclass(frozen=True, slots=True)
class GameQuery:
    """What finished games (won or drawn) to find; None is "any". ``color``, ``win`` and
    ``loss`` are the player's, and need one."""

    player: str | None = None
    opponent: str | None = None
    color: Literal["white", "black"] | None = None
    result: Result | None = None
    rated: bool | None = None
    wild: int | None = None
    rating_type: str | None = None
    """A name of :data:`~icswire.server.core.model.ratings.RATING_TYPES`, as spelled there."""
    initial: int | None = None
    increment: int | None = None
    since: date | None = None
    """Games started on this day (UTC) or later."""
    until: date | None = None
    """Games started on this day (UTC) or earlier."""
    eco: str | None = None
    """The start of the ECO code (``B``, ``B9``, ``B90``); a game whose ECO is unknown
    (``?``) never matches one."""
    limit: int = 20

    def __post_init__(self) -> None:
        if self.player is None and (
            self.opponent is not None or self.color is not None or self.result in ("win", "loss")
        ):
            raise ValueError("opponent, color, win and loss need a player")
        if self.limit < 1:
            raise ValueError(f"limit must be positive, not {self.limit}")


class Search(Database):
    """ICC's ``search`` over the stored games."""

    def search_games(self, query: GameQuery) -> tuple[int, list[GameRecord]]:
        """How many finished games match ``query``, and the newest ``query.limit`` of them,
        newest first (by start, then id)."""
        where = _conditions(query)
        counted = select(func.count()).select_from(games).where(*where)
        found = (
            select(games)
            .where(*where)
            .order_by(games.c.started.desc(), games.c.id.desc())
            .limit(query.limit)
        )
        with self._begin() as conn:
            total = int(conn.scalar(counted) or 0)
            rows = conn.execute(found).all() if total else []
        return total, [game_record(row) for row in rows]


def _conditions(query: GameQuery) -> list[ColumnElement[bool]]:
    where: list[ColumnElement[bool]] = [games.c.status.in_((ResultStatus.WIN, ResultStatus.DRAW))]
    white, black = games.c.white_key, games.c.black_key
    if query.player is not None:
        me = name_key(query.player)
        plays_white: ColumnElement[bool] = white == me
        plays_black: ColumnElement[bool] = black == me
        if query.opponent is not None:
            them = name_key(query.opponent)
            plays_white = and_(plays_white, black == them)
            plays_black = and_(plays_black, white == them)
        if query.result == "win":
            plays_white = and_(plays_white, games.c.color == _BLACK_LOST)
            plays_black = and_(plays_black, games.c.color == _WHITE_LOST)
        elif query.result == "loss":
            plays_white = and_(plays_white, games.c.color == _WHITE_LOST)
            plays_black = and_(plays_black, games.c.color == _BLACK_LOST)
        sides = {"white": [plays_white], "black": [plays_black]}
        where.append(or_(*sides.get(query.color or "", [plays_white, plays_black])))
    where.extend(_result(query.result))
    exact: dict[str, Any] = {
        "rated": query.rated,
        "wild": query.wild,
        "rating_type": query.rating_type,
        "initial": query.initial,
        "increment": query.increment,
    }
    where.extend(games.c[column] == value for column, value in exact.items() if value is not None)
    if query.since is not None:
        where.append(games.c.started >= _midnight(query.since))
    if query.until is not None:
        where.append(games.c.started < _midnight(query.until + timedelta(days=1)))
    if query.eco is not None:
        where.append(games.c.eco.startswith(query.eco, autoescape=True))
    return where


def _result(result: Result | None) -> list[ColumnElement[bool]]:
    """The conditions of a result that is a score (``win`` and ``loss`` are the player's)."""
    if result == "1/2-1/2":
        return [games.c.status == ResultStatus.DRAW]
    if result in ("1-0", "0-1"):
        lost = _BLACK_LOST if result == "1-0" else _WHITE_LOST
        return [games.c.status == ResultStatus.WIN, games.c.color == lost]
    if result in ("win", "loss"):
        return [games.c.status == ResultStatus.WIN]
    return []


def _midnight(day: date) -> datetime:
    return datetime.combine(day, time(0), tzinfo=UTC)
