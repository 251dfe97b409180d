"""ICC's commands for robots, each answered with one fixed line a program can match:
``isregname NAME`` (whether a name is a registered account's) and ``getpx NAME`` (a
player online: titles and every rating, for tournament directors' programs).

icc-formats.txt gives these commands' numbers only (CN_ISREGNAME 255, CN_GETPX 245), not
their text, so the lines are this server's own:

- ``isregname``: ``Alice is a registered name.`` (the name as registered) or ``bob is
  not a registered name.`` (as typed).
- ``getpx``: FICS's ``getpi`` line (``*getpi NAME WILD BLITZ STANDARD LIGHTNING*``)
  extended, hence the name: ``*getpx NAME TITLES R1 R2 ...*``, TITLES the titles field of
  datagrams with ``,`` for its spaces (``-`` for none, ``U`` for a guest), then the rating
  (0 for none) of each rating type in DG_RATING_TYPE_KEY's order (wild, blitz, standard,
  bullet, bughouse, losers, crazyhouse, 5-minute, 1-minute, correspondence, 15-minute,
  3-minute, 45-minute, chess960, then FICS's suicide and atomic); ``*getpx NAME -1*``
  when nobody of that name is online. Like ``getpi``, only the ``td`` list's programs
  (and administrators) may use it.
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

COMMANDS = CommandSet()
command = COMMANDS.command


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
    session = ctx.session
    if not session.admin:
        directors = await asyncio.to_thread(ctx.store.server_list, "td")
        if not session.registered or name_key(session.name) not in map(name_key, directors):
            ctx.reply("Only TD programs are allowed to use this command.")
            return
    words = args.split()
    if len(words) != 1:
        ctx.reply("Usage: getpx <name>")
        return
    player = ctx.world.online.get(name_key(words[0]))
    ctx.reply(getpx_line(player) if player is not None else f"*getpx {words[0]} -1*")


def install(core: Core) -> None:
    core.registry.add_commands(COMMANDS)
