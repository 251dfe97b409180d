"""Stored games as lists show them: the end of a game (``Mat``, "Joe checkmated"), when
it ended, and DG_GAMELIST_ITEM (73) for ``history``, ``stored`` and ``liblist``."""

from __future__ import annotations

import re
from typing import Any

from icswire.protocol import datagrams as dg
from icswire.protocol.codes import UnknownResultError, describe_result
from icswire.server.core.ratings import RATING_TYPES
from icswire.server.core.records import GameRecord


def _rating_index(rating_type: str) -> int:
    try:
        return RATING_TYPES.index(rating_type)
    except ValueError:
        return 0


def result_of(record: GameRecord) -> tuple[str, str]:
    """The 3-letter code and the description (with the players' names) of a stored end."""
    if record.status is None or record.mode is None:
        return "*", "Game in progress"
    try:
        result = describe_result(record.status, record.mode, record.color or 0)
    except (UnknownResultError, ValueError):
        return "?", "Unknown result"
    return result.code, _named(result.text, record.white, record.black)


def _named(text: str, white: str, black: str) -> str:
    return re.sub(r"\b(White|Black)\b", lambda m: white if m[1] == "White" else black, text)


def when_ended(record: GameRecord) -> str:
    moment = record.ended or record.started
    return moment.strftime("%a %b %d, %H:%M UTC %Y")


def gamelist_item(index: int, record: GameRecord, here: bool | None = None) -> Any:
    """DG_GAMELIST_ITEM (73) of a stored game."""
    timed = bool(record.initial or record.increment)
    initial = str(record.initial) if timed else "-"
    increment = str(record.increment) if timed else "-"
    return dg.GamelistItem(
        index, record.id or 0, "?", record.started.strftime("%Y.%m.%d"),
        record.started.strftime("%H:%M:%S"), record.white,
        str(record.white_rating) if record.white_rating else "-", record.black,
        str(record.black_rating) if record.black_rating else "-", record.rated,
        _rating_index(record.rating_type), record.wild, initial, increment, initial, increment,
        record.eco or "?", record.status if record.status is not None else 2,
        record.color or 0, record.mode or 0, "", here,
    )  # fmt: skip
