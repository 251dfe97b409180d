"""A game's position in FEN: ``fen`` of a game being played, examined or observed, and
``sfen`` of a stored game (named as ``smoves`` names one).

Each answers the FEN as one line of text and, to a client with it on, as DG_FEN (70): the
game's number, or -1 for a stored game as ``sposition`` numbers it.
"""

from __future__ import annotations

from icswire.protocol import datagrams as dg
from icswire.protocol.level1 import CommandNumber as CN
from icswire.server.core.dispatch.hub import CommandSet, Context, Route
from icswire.server.core.model.tables import Table
from icswire.server.core.render.batch import Datagram
from icswire.server.features.examine.stored import final_position, find_record
from icswire.server.features.watching import current_game, find_named, may_watch

COMMANDS = CommandSet()
command = COMMANDS.command


def named_table(ctx: Context, args: str) -> Table | None:
    """The game ``args`` names (a number, or a player who plays or examines one), else
    the one the issuer plays, examines or observes; None and the reason told when there
    is none or it is somebody else's private game."""
    words = args.split()
    if not words:
        found = current_game(ctx.core, ctx.session)
        if found is None:
            ctx.reply("You are neither playing, observing nor examining a game.")
        return found
    found = find_named(ctx, args)
    if found is None:
        return None
    if not may_watch(ctx.session, found):
        ctx.reply(f"Sorry, game {found.number} is a private game.")
        return None
    return found


def _tell_fen(ctx: Context, number: int, fen: str) -> None:
    ctx.batch.add(ctx.session, Datagram(dg.Fen(number, fen)))
    ctx.reply(fen)


@command("fen", CN.CN_FEN, "fen [game number|name]", route=Route.OF_A_GAME | Route.IN_GAME)
async def fen(ctx: Context, args: str) -> None:
    """The position of a game being played, examined or observed, in FEN."""
    table = named_table(ctx, args)
    if table is not None:
        _tell_fen(ctx, table.number, table.board.fen())


@command("sfen", CN.CN_SFEN, "sfen <name> [game number] | #id")
async def sfen(ctx: Context, args: str) -> None:
    """The final position of a stored game, in FEN."""
    record = await find_record(ctx, args)
    if record is None:
        return
    _tell_fen(ctx, -1, final_position(record)[0].fen())
