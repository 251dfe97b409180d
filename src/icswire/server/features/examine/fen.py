"""A stored game's final position in FEN: ``sfen`` (the game named as ``smoves`` names
one; ``fen`` of a game being played, examined or observed is the watching feature's).

It answers the FEN as one line of text and, to a client with it on, as DG_FEN (70) with
game number -1, as ``sposition`` numbers a stored game.
"""

from __future__ import annotations

from icswire.protocol import datagrams as dg
from icswire.protocol.level1 import CommandNumber as CN
from icswire.server.core.dispatch.hub import CommandSet, Context
from icswire.server.core.render.batch import Datagram
from icswire.server.features.examine.stored import final_position, find_record

COMMANDS = CommandSet()
command = COMMANDS.command


@command("sfen", CN.CN_SFEN, "sfen <name> [game number] | #id")
async def sfen(ctx: Context, args: str) -> None:
    """The final position of a stored game, in FEN."""
    record = await find_record(ctx, args)
    if record is None:
        return
    fen = final_position(record)[0].fen()
    ctx.batch.add(ctx.session, Datagram(dg.Fen(-1, fen)))
    ctx.reply(fen)
