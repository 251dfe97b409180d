"""``pstat [player1 [player2]]``: one player's record against another.

icc-formats.txt (DG_PSTAT, 142): with one name "the other is defaulted to the giver of the
command", and "If the player receiving the DG is either player then they are always p1",
else p1 is the first name. The command sends DG_PSTAT with initiated 1 and one rating
record per rating type the two played in (p1's wins, losses and draws as White, then as
Black, then the rating type's number), none when they never met; a name nobody has gets
the error text and no DG ("commands that generate a DG dont do so on error"). Without a
name, the opponent of the game one plays. The text is lasker's (a FICS server's
``com_pstat``): ``Record for A vs. B:`` with rated and unrated wins, losses and draws.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

from icswire.protocol import datagrams as dg
from icswire.protocol.level1 import CommandNumber as CN
from icswire.server.core.dispatch.hub import CommandSet, Context, Route
from icswire.server.core.model.names import name_key
from icswire.server.core.model.ratings import RATING_TYPES
from icswire.server.core.render.batch import Datagram
from icswire.server.core.storage.records import GameRecord, record_against, result_for

if TYPE_CHECKING:
    from icswire.server.core.dispatch.hub import Core

__all__ = ["install"]

COMMANDS = CommandSet()
command = COMMANDS.command
USAGE = "pstat [player1 [player2]]"
#: DG_PSTAT's "initiated": 1 - by a command.
BY_COMMAND = 1


async def _named(ctx: Context, word: str) -> str | None:
    """The player ``word`` names: one logged in (a unique prefix does), else an account."""
    online = ctx.world.find(word)
    if online is not None:
        return online.name
    return await asyncio.to_thread(ctx.store.registered_name, word)


async def _players(ctx: Context, words: list[str]) -> tuple[str, str] | None:
    """(p1, p2) of ``pstat``'s arguments, or None after saying why there are none."""
    session = ctx.session
    if not words:
        table = ctx.core.tables.seated(session)
        if table is None or table.examined:
            ctx.reply("You are not playing a game.")
            return None
        others = [s.name for s in table.seats() if s is not session]
        return session.name, others[0] if others else session.name
    names = []
    for word in words:
        name = await _named(ctx, word)
        if name is None:
            ctx.reply(f'No user named "{word[:20]}" is logged in.')
            return None
        names.append(name)
    if len(names) == 1:
        names.insert(0, session.name)
    elif name_key(names[1]) == name_key(session.name):
        names.reverse()  # the receiver of the DG is p1
    return names[0], names[1]


def _records(p1: str, p2: str, past: list[GameRecord]) -> tuple[dg.PstatRecord, ...]:
    """DG_PSTAT's rating records: one per rating type the two played in, in the order
    (and with the numbers) of DG_RATING_TYPE_KEY."""
    played = {record.rating_type for record in past}
    return tuple(
        dg.PstatRecord(*record_against(p1, p2, kind, past), number)
        for number, kind in enumerate(RATING_TYPES)
        if kind in played
    )


def _text(p1: str, p2: str, past: list[GameRecord]) -> list[str]:
    """lasker's ``com_pstat`` table: p1's rated and unrated wins, losses and draws."""
    rows = [f"Record for {p1} vs. {p2}:", "                            wins     losses     draws"]
    for rated, label in ((True, "rated"), (False, "unrated")):
        results = [result_for(r, p1) for r in past if r.rated == rated]
        won, lost, drawn = (results.count(k) for k in ("won", "lost", "drawn"))
        rows.append(f"{label:>21}       {won:4d}       {lost:4d}      {drawn:4d}")
    return rows


@command("pstat", CN.CN_PSTAT, USAGE, route=Route.IN_GAME)  # alone: the game's node
async def pstat(ctx: Context, args: str) -> None:
    words = args.split()
    if len(words) > 2:
        ctx.reply(f"Usage: {USAGE}")
        return
    players = await _players(ctx, words)
    if players is None:
        return
    p1, p2 = players
    if name_key(p1) == name_key(p2):
        ctx.reply("You have not played against yourself ;-)")
        return
    for name in players:  # a game just ended may be on its way to the database
        await ctx.core.writes.settled(name)
    past = await asyncio.to_thread(ctx.store.between, p1, p2)
    record = dg.Pstat(BY_COMMAND, None, p1, p2, _records(p1, p2, past))
    ctx.batch.add(ctx.session, Datagram(record))
    ctx.reply(*_text(p1, p2, past))


def install(core: Core) -> None:
    core.registry.add_commands(COMMANDS)
