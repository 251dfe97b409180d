"""What robots and tournament director programs read, each answered with fixed lines a
program can match.

lasker-2.2.3's ``getpi`` and ``getgi`` (``com_getpi``, ``com_getgi``, the lines mamer
parses). Only a TD (the server's td list, or an administrator) may use them; anybody else
is told "Only TD programs are allowed to use this command." As in lasker, a name that is
not a registered player logged in under exactly that name gets no answer at all.

- ``getpi NAME``: ``*getpi NAME WILD BLITZ STANDARD LIGHTNING*``, the four ratings (0
  where the player has none);
- ``getgi NAME``: ``*getgi NAME WHITE BLACK GAME INITIAL INCREMENT RATED PRIVATE*`` (the
  game number, minutes, seconds, 1 or 0) for a player in a played game, else ``NAME is
  not playing a game.``

ICC's ``isregname NAME`` (whether a name is a registered account's) and ``getpx NAME`` (a
player online: titles and every rating). icc-formats.txt gives these commands' numbers
only (CN_ISREGNAME 255, CN_GETPX 245), not their text, so the lines are this server's own:

- ``isregname``: ``Alice is a registered name.`` (the name as registered) or ``bob is
  not a registered name.`` (as typed).
- ``getpx``: ``getpi``'s line extended, hence the name: ``*getpx NAME TITLES R1 R2 ...*``,
  TITLES the titles field of datagrams with ``,`` for its spaces (``-`` for none, ``U``
  for a guest), then the rating (0 for none) of each rating type in DG_RATING_TYPE_KEY's
  order (wild, blitz, standard, bullet, bughouse, losers, crazyhouse, 5-minute, 1-minute,
  correspondence, 15-minute, 3-minute, 45-minute, chess960, then FICS's suicide and
  atomic); ``*getpx NAME -1*`` when nobody of that name is online. Like ``getpi``, only
  TD programs (and administrators) may use it.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

from icswire.protocol.level1 import CommandNumber as CN
from icswire.server.core.dispatch.hub import CommandSet, Context
from icswire.server.core.model.names import check_name, name_key
from icswire.server.core.model.ratings import RATING_TYPES

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


@command("isregname", CN.CN_ISREGNAME, "isregname <name>")
async def isregname(ctx: Context, args: str) -> None:
    words = args.split()
    if len(words) != 1:
        ctx.reply("Usage: isregname <name>")
        return
    word = words[0]
    found = None
    if check_name(word) is None:
        found = await asyncio.to_thread(ctx.store.registered_name, word)
    if found is None:
        ctx.reply(f"{word} is not a registered name.")
    else:
        ctx.reply(f"{found} is a registered name.")


def getpx_line(player: User) -> str:
    """``*getpx NAME TITLES R1 R2 ...*`` of a player online (see the module)."""
    titles = player.titles.replace(" ", ",") or "-"
    ratings = " ".join(str(player.ratings.get(kind, (0, 0))[0]) for kind in RATING_TYPES)
    return f"*getpx {player.name} {titles} {ratings}*"


@command("getpx", CN.CN_GETPX, "getpx <name>")
async def getpx(ctx: Context, args: str) -> None:
    if not ctx.session.is_td:
        ctx.reply(ONLY_TD)
        return
    words = args.split()
    if len(words) != 1:
        ctx.reply("Usage: getpx <name>")
        return
    player = ctx.world.online.get(name_key(words[0]))
    ctx.reply(getpx_line(player) if player is not None else f"*getpx {words[0]} -1*")


def install(core: Core) -> None:
    core.registry.add_commands(COMMANDS)
