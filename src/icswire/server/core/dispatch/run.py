"""The one dispatcher of a line: a move its issuer's game (or examined game) takes, else
the command its first word names, run into one unit of output.

:meth:`Server.execute <icswire.server.app.Server.execute>` (a line typed here) and
:meth:`Server.run_line <icswire.server.app.Server.run_line>` (a line another node of the
cluster forwarded) both run a line with :func:`dispatch`; they differ only in the unit
they open for the output (FICS's block, ICC's level 1 brackets and DG_COMMAND here; the
block code and output sent back to the home node there). Where a line runs in a cluster is
decided before, from the command's declared route (``cluster.routes``).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TYPE_CHECKING

from icswire.protocol.block import BlockCode
from icswire.protocol.level1 import CommandNumber as CN
from icswire.server.core.dispatch.commands import block_code, looks_like_move, unknown
from icswire.server.core.dispatch.hub import Command, Context, Core
from icswire.server.core.render.batch import Batch
from icswire.server.core.storage.store import StoreUnavailable
from icswire.server.core.storage.writes import NOT_ANSWERING

if TYPE_CHECKING:
    from icswire.server.core.model.users import User

log = logging.getLogger("icswire.server")

#: Opens the unit of a line's output: (level 1 command number, block code, (word,
#: arguments) of a command or None for a move) -> the batch to fill.
OpenUnit = Callable[[int, int, "tuple[str, str] | None"], Batch]


async def dispatch(core: Core, session: User, text: str, open_unit: OpenUnit) -> tuple[Batch, bool]:
    """Run ``text`` (stripped, aliases expanded) of ``session``: a move if it looks like
    one and a game takes it, else the command its first word names (or the answer to an
    unknown word). The batch ``open_unit`` opened, not flushed, and whether it was a move
    a game took."""
    registry = core.registry
    if looks_like_move(text):
        batch = open_unit(CN.SCN_MOVE, BlockCode.BLKCMD_GAME_MOVE, None)
        if registry.take_move(session, text, batch):
            return batch, True
    word, _, args = text.partition(" ")
    found = registry.find_command(word, admin=session.admin)
    cn, code = command_frame(found, args)
    batch = open_unit(cn, code, (word, args.strip()))
    await run_command(core, session, batch, found, word, args.strip())
    return batch, False


async def run_command(
    core: Core, session: User, batch: Batch, found: Command | list[str], word: str, args: str
) -> None:
    """Run the command ``found`` (or answer an unknown ``word``) into ``batch``."""
    if isinstance(found, Command):
        try:
            await found.handler(Context(core, session, batch, found.name), args)
        except StoreUnavailable as exc:
            log.warning("command %r %r of %s: %s", word, args, session.name, exc)
            batch.reply(NOT_ANSWERING)
        except Exception:
            log.exception("command %r %r of %s failed", word, args, session.name)
            batch.reply("Sorry, that command failed on the server.")
    else:
        batch.add(session, unknown(batch, word, found))
    core.world.listening.refresh(session)  # its settings may have changed
    core.world.touch(session)


def command_frame(found: Command | list[str], args: str = "") -> tuple[int, int]:
    """The level 1 command number and the block code of a command run with ``args`` (its
    "0" form without them: CN_FOLLOW0 ...), or of a word that is none (unknown or
    ambiguous: ``unknown`` may change both)."""
    if isinstance(found, Command):
        return found.cn_for(args), block_code(found.name)
    return CN.SCN_BAD, BlockCode.BLKCMD_NULL
