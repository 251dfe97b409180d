"""What the server is: ``limits``, ``whenshut``, ``servers`` and ``boards``.

``limits`` is lasker's ``com_limits`` (comproc.c) with this server's real values: the
caps an operator sets with ``icswire serve --limit NAME=VALUE``
(:class:`~icswire.server.core.net.limits.Limits`: players, aliases, list sizes,
messages, seeks, the shout quota) and the fixed ones (channels, journal slots, the games a
rating needs to be established). A cap of 0 is none. ``whenshut`` is lasker's: this
server has no shutdown counting down (it stops when its process is told to, adjourning
the games), so it always answers that none is in progress. ``servers`` is FICS's answer
for a server that knows no other (a cluster's nodes are one server to its users).
``boards`` lists the categories and boards of the wild setups ``match NAME wild N``
plays, as lasker's ``com_boards`` lists its board files (``wild/5`` is board ``5`` of
category ``wild``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from icswire.boards.variants import VARIANTS
from icswire.protocol.level1 import CommandNumber as CN
from icswire.server.core.dispatch.hub import CommandSet, Context
from icswire.server.core.model.channels import CHANNELS
from icswire.server.core.model.ratings import PROVISIONAL_GAMES
from icswire.server.core.render.gamelists import JOURNAL_SLOTS

if TYPE_CHECKING:
    from icswire.server.core.dispatch.hub import Core
    from icswire.server.core.net.limits import Limits

__all__ = ["install"]

COMMANDS = CommandSet()
command = COMMANDS.command


def _cap(value: int) -> str:
    return str(value) if value else "no limit"


def limits_lines(limits: Limits) -> list[str]:
    """lasker's ``com_limits``, line by line, with this server's values."""
    shout = limits.rates.get("shout")
    quota = (
        f"  Shout quota gives {shout.burst} shouts at once, then one per {shout.seconds:g} seconds."
        if shout is not None
        else "  Shouts have no quota."
    )
    return [
        "",
        "Current hardcoded limits:",
        f"  Max number of players: {_cap(limits.connection_cap())}",
        f"  Max number of channels and max capacity: {len(CHANNELS)}",
        f"  Max number of channels one can be in: {_cap(limits.max_list)}",
        f"  Max number of people on the notify list: {_cap(limits.max_list)}",
        f"  Max number of aliases: {_cap(limits.max_aliases)}",
        f"  Max number of people on the censor list: {_cap(limits.max_list)}",
        f"  Max number of messages one can receive: {_cap(limits.max_messages)}",
        f"  Max number of seeks posted from one address: {_cap(limits.seeks_per_address)}",
        f"  Min number of games to be active: {PROVISIONAL_GAMES}",
        f"  Size of journal (entries): {len(JOURNAL_SLOTS)}",
        "",
        "Admin settable limits:",
        quota,
        f"  Idle logout after {_cap(int(limits.idle_timeout))} seconds"
        " (not while playing or examining).",
    ]


@command("limits", CN.CN_LIMITS, "limits")
async def limits(ctx: Context, args: str) -> None:
    ctx.reply(*limits_lines(ctx.core.limits))


@command("whenshut", CN.SCN_MISCELLANEOUS, "whenshut")
async def whenshut(ctx: Context, args: str) -> None:
    ctx.reply("No shutdown currently in progress")


@command("servers", CN.SCN_MISCELLANEOUS, "servers")
async def servers(ctx: Context, args: str) -> None:
    ctx.reply("There are no other servers known to this server.")


def board_categories() -> dict[str, list[str]]:
    """The wild setups as lasker's board files: category -> its boards."""
    found: dict[str, list[str]] = {}
    for variant in VARIANTS:
        if variant.fics_type is not None and "/" in variant.fics_type:
            category, _, board = variant.fics_type.partition("/")
            found.setdefault(category, []).append(board)
    return {category: sorted(boards) for category, boards in sorted(found.items())}


@command("boards", CN.SCN_MISCELLANEOUS, "boards [category]")
async def boards(ctx: Context, args: str) -> None:
    """lasker's ``com_boards``: the categories, or the boards of one."""
    category = args.split()[0] if args.split() else ""
    categories = board_categories()
    if not category:
        ctx.reply("Categories Available:", *categories)
        return
    found = categories.get(category.lower())
    if found is None:
        ctx.reply(f"Boards Available For Category {category}:")
        ctx.reply(f'No such category {category}, try "boards".')
        return
    ctx.reply(f"Boards Available For Category {category}:", *found)


def install(core: Core) -> None:
    core.registry.add_commands(COMMANDS)
