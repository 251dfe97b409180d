"""Stored games as lists show them: the end of a game (``Mat``, "Joe checkmated"), when
it ended, DG_GAMELIST_ITEM (73) and ICC's line from White's side for ``history``,
``stored``, ``liblist`` and ``search``, and the
games of journals (FICS help ``journal``: slots A-Z, private with ``jprivate``)."""

from __future__ import annotations

import asyncio
import re
from typing import TYPE_CHECKING

from icswire.protocol import datagrams as dg
from icswire.protocol.codes import ResultStatus, UnknownResultError, describe_result
from icswire.server.core.model.names import name_key
from icswire.server.core.model.ratings import RATING_TYPES
from icswire.server.core.model.zones import date_text
from icswire.server.core.render.texts import icc_history_kind, rating_text
from icswire.server.core.storage.records import GameRecord

if TYPE_CHECKING:
    from icswire.server.core.dispatch.hub import Core
    from icswire.server.core.model.users import User

#: How many finished games ``history`` shows (ICC numbers them 1..HISTORY_SIZE, oldest
#: first; FICS with its counter, :data:`FICS_HISTORY_WRAP`).
HISTORY_SIZE = 10
#: FICS numbers each player's finished games with a counter from 0 to 99 that wraps
#: (lasker's ``write_g_out``: ``count = (count + 1) % 100``).
FICS_HISTORY_WRAP = 100


async def numbered_history(
    core: Core, viewer: User, name: str
) -> tuple[list[GameRecord], list[int]]:
    """``name``'s last history games, oldest first, and the number each goes by: FICS's
    counter (how many games ``name`` had finished before it, modulo 100) or, for an ICC
    ``viewer``, 1 to 10. ``history`` shows them, ``smoves NAME N`` and ``jsave`` take
    them (lasker's ``FindHistory``)."""
    store = core.store
    records = await asyncio.to_thread(store.history, name, HISTORY_SIZE)
    if viewer.talks_icc or not records:
        return records, list(range(1, len(records) + 1))
    first = await asyncio.to_thread(store.finished_count, name) - len(records)
    return records, [(first + i) % FICS_HISTORY_WRAP for i in range(len(records))]


def fics_eco(record: GameRecord) -> str:
    """The ECO column of FICS's lists: the code the game was classified with, else
    lasker's ``getECO`` placeholders (``***``: no moves; ``---``: a wild, or not
    classified)."""
    if record.eco and record.eco != "?":
        return record.eco
    return "***" if not record.moves else "---"


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


def when_ended(record: GameRecord, tzone: str) -> str:
    """When a game ended (began, if it has not), in the reader's ``set tzone``."""
    return date_text(record.ended or record.started, tzone)


def gamelist_item(
    index: int, record: GameRecord, here: bool | None = None, note: str = ""
) -> dg.GamelistItem:
    """DG_GAMELIST_ITEM (73) of a stored game; ``note`` "the libannotate string that
    sometimes accompanies a library game"."""
    timed = bool(record.initial or record.increment)
    initial = str(record.initial) if timed else "-"
    increment = str(record.increment) if timed else "-"
    return dg.GamelistItem(
        index, record.id or 0, "?", record.started.strftime("%Y.%m.%d"),
        record.started.strftime("%H:%M:%S"), record.white,
        str(record.white_rating) if record.white_rating else "-", record.black,
        str(record.black_rating) if record.black_rating else "-", record.rated,
        _rating_index(record.rating_type), record.wild, initial, increment, initial, increment,
        record.eco or "?", record.status if record.status is not None else ResultStatus.ADJOURNED,
        record.color or 0, record.mode or 0, note, here,
    )  # fmt: skip


def white_side_row(label: str, record: GameRecord) -> str:
    """A line of ICC's ``liblist`` (and of ``search``): history's columns from White's
    side, after ``label`` (the slot, or the hit number)."""
    kind = icc_history_kind(
        record.rating_type, record.wild, record.rated, record.initial, record.increment
    )
    code, _ = result_of(record)
    moment = (record.ended or record.started).strftime("%b %d %y %H:%M")
    return (
        f"{label}: {record.score:<7} {rating_text(record.white_rating):>4} "
        f"{record.white:<12} {rating_text(record.black_rating):>4} {record.black:<12} "
        f"{kind} {record.eco or '?':>3} {code:<3} {moment}"
    )


# -- journals --------------------------------------------------------------------------------

#: The slots of a journal (FICS: 26, shown as capitals).
JOURNAL_SLOTS = "abcdefghijklmnopqrstuvwxyz"
NOT_REGISTERED = "Only registered players may keep a journal."


def journal_slot(text: str) -> str | None:
    """``A`` or ``a`` (or ``%a``, as ``examine`` and ``smoves`` name one): the slot."""
    letter = text.removeprefix("%").lower()
    return letter if len(letter) == 1 and letter in JOURNAL_SLOTS else None


async def journal_owner(core: Core, viewer: User, name: str) -> tuple[str, str | None]:
    """The registered name of the journal ``name`` (a player online or not) and, when
    ``viewer`` may not read it, why not: not registered, or private (``jprivate``) and
    someone else's."""
    online = core.world.find(name)
    if online is not None:
        if not online.registered:
            return online.name, NOT_REGISTERED
        private = bool(online.variables.get("jprivate"))
        owner = online.name
    else:
        account = await asyncio.to_thread(core.store.load, name)
        if account is None:
            return name, f'There is no player matching the name "{name}".'
        owner = account.name
        private = account.settings.get("jprivate", "0") not in ("", "0")
    if private and name_key(owner) != name_key(viewer.name):
        return owner, "Sorry, this journal is private."
    return owner, None


async def journal_record(
    core: Core, viewer: User, name: str, slot: str
) -> tuple[str, GameRecord | None, str]:
    """The game in journal slot ``slot`` of ``name``: (owner, game, why not)."""
    owner, refused = await journal_owner(core, viewer, name)
    if refused is not None:
        return owner, None, refused
    await core.writes.settled(owner)  # his jsave and jkill so far are stored
    entries = dict(await asyncio.to_thread(core.store.journal, owner))
    if slot not in entries:
        return owner, None, f"Journal entry {slot.upper()} not available for {owner}."
    return owner, entries[slot], ""
