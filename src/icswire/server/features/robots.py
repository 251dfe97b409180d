"""What tournament director programs read: ``getpi`` and ``getgi`` (lasker-2.2.3's
``com_getpi`` and ``com_getgi``, the lines mamer parses).

Only a TD (the server's td list, or an administrator) may use them; anybody else is told
"Only TD programs are allowed to use this command." As in lasker, a name that is not a
registered player logged in under exactly that name gets no answer at all.

- ``getpi NAME``: ``*getpi NAME WILD BLITZ STANDARD LIGHTNING*``, the four ratings (0
  where the player has none);
- ``getgi NAME``: ``*getgi NAME WHITE BLACK GAME INITIAL INCREMENT RATED PRIVATE*`` (the
  game number, minutes, seconds, 1 or 0) for a player in a played game, else ``NAME is
  not playing a game.``
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from icswire.protocol.level1 import CommandNumber as CN
from icswire.server.core.dispatch.hub import CommandSet, Context
from icswire.server.core.model.names import name_key

if TYPE_CHECKING:
    from icswire.server.core.dispatch.hub import Core
    from icswire.server.core.model.users import User

__all__ = ["install"]

COMMANDS = CommandSet()
command = COMMANDS.command

ONLY_TD = "Only TD programs are allowed to use this command."
#: lasker's ``getpi`` order of the ratings: wild, blitz, standard, lightning.
GETPI_TYPES = ("Wild", "Blitz", "Standard", "Lightning")


def _asked(ctx: Context, args: str, usage: str) -> User | None:
    """The registered player online under exactly the name ``args`` for a TD; None (and,
    as lasker does, nothing said of a player it does not find) otherwise."""
    if not ctx.session.is_td:
        ctx.reply(ONLY_TD)
        return None
    words = args.split()
    if len(words) != 1:
        ctx.reply(f"Usage: {usage}")
        return None
    player = ctx.world.online.get(name_key(words[0]))
    if player is None or not player.registered:
        return None
    return player


@command("getpi", CN.CN_GETPI, "getpi <name>")
async def getpi(ctx: Context, args: str) -> None:
    player = _asked(ctx, args, "getpi <name>")
    if player is None:
        return
    ratings = " ".join(str(player.ratings.get(kind, (0, 0))[0]) for kind in GETPI_TYPES)
    ctx.reply(f"*getpi {player.name} {ratings}*")


@command("getgi", CN.CN_GETPI, "getgi <name>")
async def getgi(ctx: Context, args: str) -> None:
    player = _asked(ctx, args, "getgi <name>")
    if player is None:
        return
    game = ctx.core.play.by_player.get(player)
    if game is None:
        ctx.reply(f"{player.name} is not playing a game.")
        return
    record = game.game_record()
    white, black = game.player_names()
    ctx.reply(
        f"*getgi {player.name} {white} {black} {game.number} {record.white_initial}"
        f" {record.white_increment} {int(record.rated)} {int(game.private)}*"
    )


def install(core: Core) -> None:
    """``getpi`` and ``getgi`` on ``core``."""
    core.registry.add_commands(COMMANDS)
