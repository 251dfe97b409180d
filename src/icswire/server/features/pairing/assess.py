"""``assess``: what a rated game between two players would do to their ratings.

``assess`` alone is one's own game (played, or examined when it was rated), ``assess N``
game N, ``assess NAME`` oneself against NAME, ``assess P1 P2 [TYPE]`` two players, who
may be logged in or not (lasker's ``com_assess``). Without a game or a type it shows
ordinary chess's three rating types. Each type shows, for a loss, a draw and a win of the
first player, both players' Glicko-2 changes (:func:`~icswire.server.core.model.ratings.assess`)
and their deviations after the game. No DG: DG_MATCH_ASSESSMENT (85) only adds the same
numbers to DG_MATCH.

FICS sessions read lasker's table (a column per player); ICC sessions a line per player.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

from icswire.protocol.level1 import CommandNumber as CN
from icswire.server.core.dispatch.hub import CommandSet, Context, Route
from icswire.server.core.dispatch.numbers import parse_number
from icswire.server.core.model.names import name_key
from icswire.server.core.model.ratings import RATING_TYPES, Assessment, assess
from icswire.server.core.storage.records import RatingRecord

if TYPE_CHECKING:
    from icswire.server.core.model.tables import Table

COMMANDS = CommandSet()
command = COMMANDS.command

USAGE = "assess [game number|name [name [type]]]"
#: The rating types shown where neither a game nor the command names one.
ORDINARY = ("Bullet", "Blitz", "Standard")


@command("assess", CN.CN_ASSESS, USAGE, route=Route.OF_A_GAME | Route.IN_GAME)
async def assess_(ctx: Context, args: str) -> None:
    words = args.split()
    if len(words) > 3:
        ctx.reply(f"Usage: {USAGE}")
        return
    if not words:
        table = ctx.core.tables.seated(ctx.session)
        if table is None:
            ctx.reply("You are not playing or examining a game.")
            return
        if table.examined and not _rated(table):
            ctx.reply("You are not involved in a rated game.")
            return
        await _assess_game(ctx, table)
        return
    number = parse_number(words[0])
    if number is not None:
        if len(words) > 1:
            ctx.reply("Assess <game number> cannot use other parameters.")
            return
        table = ctx.core.tables.find(number)
        if table is None:
            ctx.reply(f"There is no game {number}.")
            return
        await _assess_game(ctx, table)
        return
    kinds: tuple[str, ...] = ORDINARY
    if len(words) == 3:
        kind = _rating_type(words[2])
        if kind is None:
            ctx.reply(f"There is no game type {words[2]}.")
            return
        kinds = (kind,)
    names = [ctx.session.name, words[0]] if len(words) == 1 else words[:2]
    await _assess(ctx, names, kinds)


def _rated(table: Table) -> bool:
    return bool(table.game_record().rated)


def _rating_type(word: str) -> str | None:
    """The rating type ``word`` names (any case; FICS's ``lightning`` is Bullet)."""
    wanted = "bullet" if word.lower() == "lightning" else word.lower()
    return next((kind for kind in RATING_TYPES if kind.lower() == wanted), None)


async def _assess_game(ctx: Context, table: Table) -> None:
    await _assess(ctx, list(table.player_names()), (table.rating_type,))


async def _assess(ctx: Context, names: list[str], kinds: tuple[str, ...]) -> None:
    """Assess the players named (online, or registered and not) in each of ``kinds``."""
    found = []
    for name in names:
        player = await _registered_name(ctx, name)
        if player is None:
            ctx.reply(f'No user named "{name}" was found.')
            return
        found.append(player)
    one, two = found
    if name_key(one[0]) == name_key(two[0]):
        ctx.reply("You can't assess the same players.")
        return
    if not (one[1] and two[1]):
        ctx.reply("You can only assess games between registered players.")
        return
    shown: list[str] = []
    for kind in kinds:
        store = ctx.store
        mine = await asyncio.to_thread(store.rating, one[0], kind)
        theirs = await asyncio.to_thread(store.rating, two[0], kind)
        changes = assess(mine.glicko, theirs.glicko), assess(theirs.glicko, mine.glicko)
        if ctx.session.talks_icc:
            shown += icc_lines(kind, (mine, theirs), changes)
        else:
            shown += ["", *fics_lines(kind, (mine, theirs), changes)]
    ctx.reply(*shown)


async def _registered_name(ctx: Context, name: str) -> tuple[str, bool] | None:
    """The name of the player ``name`` is (logged in: its beginning is enough) and
    whether he is registered; None when there is none (lasker's ``FindPlayer``)."""
    online = ctx.world.find(name)
    if online is not None:
        return online.name, online.registered
    account = await asyncio.to_thread(ctx.store.load, name)
    return None if account is None else (account.name, True)


def _shown_rating(record: RatingRecord) -> str:
    return str(round(record.glicko.rating)) if record.games else "----"


def fics_lines(
    kind: str, records: tuple[RatingRecord, RatingRecord], changes: tuple[Assessment, Assessment]
) -> list[str]:
    """lasker's ``ShowAssess`` for one rating type: a column per player, a row for the
    first player's win, draw and loss (the second's change beside it)."""
    mine, theirs = changes
    ratings = [f"({_shown_rating(r):>4} RD {r.glicko.deviation:5.1f})" for r in records]
    return [
        " " * 7 + kind.center(35).rstrip(),
        " " * 7 + records[0].name.center(17) + " " + records[1].name.center(17).rstrip(),
        f"{'':7} {ratings[0]}   {ratings[1]}",
        f"{'Win:':>7}{mine.win:9d} {theirs.loss:17d}",
        f"{'Draw:':>7}{mine.draw:9d} {theirs.draw:17d}",
        f"{'Loss:':>7}{mine.loss:9d} {theirs.win:17d}",
        f"{'New RD:':>7}{mine.deviation:10.1f} {theirs.deviation:17.1f}",
    ]


def icc_lines(
    kind: str, records: tuple[RatingRecord, RatingRecord], changes: tuple[Assessment, Assessment]
) -> list[str]:
    """A line per player: ``Alpha: win +16, draw +0, loss -16 (RD 350.0 -> 290.3)``."""
    first, second = records
    head = (
        f"{kind}: {first.name} ({_shown_rating(first)}) vs. {second.name} ({_shown_rating(second)})"
    )
    width = max(len(first.name), len(second.name)) + 1
    rows = [
        f"  {(r.name + ':'):<{width}} win {c.win:+d}, draw {c.draw:+d}, loss {c.loss:+d}"
        f" (RD {r.glicko.deviation:.1f} -> {c.deviation:.1f})"
        for r, c in zip(records, changes, strict=True)
    ]
    return [head, *rows]
