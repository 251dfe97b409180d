"""ICC's ``search``: the finished games found by their players and by ``key=value`` terms
(help ``search``), newest first, as text and as DG_GAMELIST_BEGIN (72) with command
``search`` (nhits: every game found; first 1, last: those shown) and a DG_GAMELIST_ITEM
(73) per game shown, its index the hit number. Level 1: CN_SEARCH, CN_SEARCH0 without
arguments (the issuer's own games).

>>> query = parse_search("fred result=1-0 wild=23 since=2026-01-01 eco=b9 limit=5", "Joe")
>>> query.player, query.result, query.wild, query.since, query.eco, query.limit
('fred', '1-0', 23, datetime.date(2026, 1, 1), 'B9', 5)
>>> parse_search("fred joe bob", "Joe")
'Usage: search [name [opponent]] [key=value ...] (see "help search")'
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date
from typing import TYPE_CHECKING, Any

from icswire.protocol import datagrams as dg
from icswire.protocol.level1 import CommandNumber as CN
from icswire.server.core.dispatch.hub import CommandSet, Context
from icswire.server.core.dispatch.numbers import parse_number
from icswire.server.core.model.names import name_error
from icswire.server.core.model.ratings import RATING_TYPES
from icswire.server.core.render.batch import Datagram
from icswire.server.core.render.gamelists import gamelist_item, white_side_row
from icswire.server.core.storage.search import RESULTS, GameQuery

if TYPE_CHECKING:
    from icswire.server.core.dispatch.hub import Core
    from icswire.server.core.model.users import User

COMMANDS = CommandSet()
command = COMMANDS.command


@dataclass
class LastSearches:
    """The ids of the games each user's last ``search`` showed, by hit number - 1
    (``loadgame N`` examines hit N)."""

    ids: dict[User, list[int]] = field(default_factory=dict)


def forget_search(core: Core, session: User) -> None:
    """``session`` is gone: its last search with it."""
    core.state(LastSearches).ids.pop(session, None)


USAGE = 'Usage: search [name [opponent]] [key=value ...] (see "help search")'
#: How many games one search shows at most, and when no ``limit=`` is given.
MOST_SHOWN, SHOWN = 100, 20
_ECO = re.compile(r"[A-E](?:[0-9]{1,2})?")
_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
_RESULT_WORDS = {"1/2": "1/2-1/2", "draw": "1/2-1/2", "=": "1/2-1/2"}


def _yes_no(text: str) -> bool | None:
    return {"1": True, "yes": True, "y": True, "0": False, "no": False, "n": False}.get(text)


def _color(text: str) -> str | None:
    return {"w": "white", "white": "white", "b": "black", "black": "black"}.get(text)


def _result(text: str) -> str | None:
    result = _RESULT_WORDS.get(text, text)
    return result if result in RESULTS else None


def _rating_type(text: str) -> str | None:
    return next((kind for kind in RATING_TYPES if kind.lower() == text), None)


def _day(text: str) -> date | None:
    if not _DATE.fullmatch(text):
        return None
    try:
        return date.fromisoformat(text)
    except ValueError:
        return None


def _eco(text: str) -> str | None:
    return text.upper() if _ECO.fullmatch(text.upper()) else None


def _limit(text: str) -> int | None:
    number = parse_number(text)
    return number if number is not None and 1 <= number <= MOST_SHOWN else None


#: key -> (GameQuery's field, reading of the value (None: refused), what a value must be).
TERMS: dict[str, tuple[str, Callable[[str], Any], str]] = {
    "color": ("color", _color, "w or b"),
    "result": ("result", _result, "1-0, 0-1, 1/2-1/2 (or draw), win or loss"),
    "rated": ("rated", _yes_no, "1 or 0"),
    "wild": ("wild", parse_number, "a wild number"),
    "type": ("rating_type", _rating_type, "a rating type (blitz, standard, bullet ...)"),
    "time": ("initial", parse_number, "minutes"),
    "inc": ("increment", parse_number, "seconds"),
    "since": ("since", _day, "a date YYYY-MM-DD"),
    "until": ("until", _day, "a date YYYY-MM-DD"),
    "eco": ("eco", _eco, "an ECO code or its start (B, B9, B90)"),
    "limit": ("limit", _limit, f"1 to {MOST_SHOWN}"),
}


def parse_search(args: str, issuer: str) -> GameQuery | str:
    """The query ``search args`` asks for (typed by ``issuer``), or why it is refused."""
    names: list[str] = []
    fields: dict[str, Any] = {"limit": SHOWN}
    terms = False  # a key=value seen: no name may follow
    for word in args.split():
        key, equals, text = word.partition("=")
        if not equals:
            if len(names) == 2 or terms:
                return USAGE
            refused = name_error(word)
            if refused is not None:
                return f'"{word}" is not a player\'s name. {refused}'
            names.append(word)
            continue
        terms = True
        term = TERMS.get(key.lower())
        if term is None:
            return f'Unknown search key "{key}". Keys: {", ".join(TERMS)}.'
        field, read, wanted = term
        value = read(text.lower())
        if value is None:
            return f'Bad value for {key.lower()}: "{text}" (it must be {wanted}).'
        fields[field] = value
    if not args.split():
        names = [issuer]
    if not names and (fields.get("color") or fields.get("result") in ("win", "loss")):
        return "color=, result=win and result=loss need a player's name."
    since, until = fields.get("since"), fields.get("until")
    if since is not None and until is not None and since > until:
        return "since= must not be after until=."
    player = names[0] if names else None
    opponent = names[1] if len(names) > 1 else None
    return GameQuery(player=player, opponent=opponent, **fields)


@command("search", CN.CN_SEARCH, "search [name [opponent]] [key=value ...]", bare_cn=CN.CN_SEARCH0)
async def search(ctx: Context, args: str) -> None:
    query = parse_search(args, ctx.session.name)
    if isinstance(query, str):
        ctx.reply(query)
        return
    total, records = await asyncio.to_thread(ctx.store.search_games, query)
    ids = [record.id for record in records if record.id is not None]
    ctx.core.state(LastSearches).ids[ctx.session] = ids
    begin = dg.GamelistBegin("search", args.strip(), total, 1, len(records), "")
    ctx.batch.add(ctx.session, Datagram(begin))
    if not records:
        ctx.reply("No games found.")
        return
    found = f"{total} game{'s' if total != 1 else ''} found"
    shown = f"{found}:" if total == len(records) else f"{found}; the newest {len(records)}:"
    rows = [shown]
    for index, record in enumerate(records, 1):
        rows.append(white_side_row(f"{index:2d}", record))
        ctx.batch.add(ctx.session, Datagram(gamelist_item(index, record)))
    ctx.reply(*rows)
