"""``set automail 1``: a finished game mailed to each of its players who asked for it,
as lasker's game_ended runs ``mailmoves`` for them (FICS help ``automail``): PGN with
``set pgn 1``, else the movelist ``moves`` shows (lasker's FICS format), under lasker's
subject "FICS game report WHITE vs BLACK", to the address ``asetemail`` set. The player
is told "Moves mailed." or lasker's "Moves NOT mailed, ..." as ``mailmoves`` answers.

A server without an SMTP relay (``icswire serve --smtp-relay``) mails nothing, and a guest
has no address: for them automail stays a setting.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from icswire.boards.pgn import pgn_text
from icswire.protocol.level1 import CommandNumber as CN
from icswire.server.core.dispatch.mailing import MAILED, NOT_MAILED, mail_to_player
from icswire.server.core.render.batch import Batch, lines
from icswire.server.core.render.movelist import movelist_lines
from icswire.server.core.render.pgngames import table_game

if TYPE_CHECKING:
    from icswire.server.core.dispatch.hub import Core
    from icswire.server.core.model.tables import Table
    from icswire.server.core.model.users import User

__all__ = ["install"]


def game_text(table: Table, pgn: bool) -> str:
    """The mailed game: PGN, or the movelist of ``moves`` (the result's line included)."""
    if pgn:
        return pgn_text(table_game(table))
    return "\n".join(movelist_lines(table.movelist(), precise=False, startpos=True)) + "\n"


def game_ended(core: Core, table: Table) -> None:
    """Mail the game to each player with automail on (registered, on this node)."""
    if core.mailer is None or table.examined:
        return
    white, black = table.player_names()
    subject = f"FICS game report {white} vs {black}"
    for player in table.seats():
        if player.registered and player.remote is None and player.variables["automail"]:
            body = game_text(table, bool(player.variables["pgn"]))
            core.spawn(_mail(core, player, subject, body))


async def _mail(core: Core, player: User, subject: str, body: str) -> None:
    sent = await mail_to_player(core, player.name, subject, body)
    if player in core.world.online.values():
        batch = Batch(CN.SCN_AUTOMATIC, None)
        batch.add(player, lines(MAILED if sent else NOT_MAILED))
        batch.flush()


def install(core: Core) -> None:
    core.registry.game_ended.append(lambda table, batch: game_ended(core, table))
