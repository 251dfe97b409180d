"""Who came and went: ``logons [NAME]`` (a registered player's last logins and logouts)
and ``llogons`` (the server's last ones, guests' too), as lasker-2.2.3 keeps and shows
them (comproc.c ``plogins``): ``Sat Nov 28, 10:05 UTC 2026: Alice             login``,
each line with `` from HOST`` for an administrator.

Every login and logout is kept through the write queue in the store's ``logons`` table
(:mod:`~icswire.server.core.storage.logons`, capped as FICS caps its files: 8 per player,
30 for the server); the nodes of a cluster sharing a database share the record.
"""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from icswire.protocol.level1 import CommandNumber as CN
from icswire.server.core.dispatch.hub import CommandSet, Context
from icswire.server.core.model.names import check_name
from icswire.server.core.storage import jobs

if TYPE_CHECKING:
    from icswire.server.core.dispatch.hub import Core
    from icswire.server.core.model.users import User
    from icswire.server.core.render.batch import Batch
    from icswire.server.core.storage.logons import Logon

COMMANDS = CommandSet()
command = COMMANDS.command
NONE = "Sorry, no login information available."


def strltime(moment: datetime) -> str:
    """FICS's ``strltime`` (``%a %b %e, %H:%M %Z %Y``), in UTC."""
    moment = moment.astimezone(UTC)
    return f"{moment:%a %b} {moment.day:2d}, {moment:%H:%M} UTC {moment:%Y}"


def logon_line(logon: Logon, admin: bool) -> str:
    """One line of ``logons``/``llogons``: FICS's ``%s: %-17s %-6s`` (`` from HOST`` for
    an administrator)."""
    line = f"{strltime(logon.at)}: {logon.name:<17} {'login' if logon.login else 'logout':<6}"
    return f"{line} from {logon.host or '?'}" if admin else line


def _show(ctx: Context, found: list[Logon]) -> None:
    if not found:
        ctx.reply(NONE)
        return
    ctx.page(*(logon_line(logon, ctx.session.admin) for logon in found))


@command("logons", CN.CN_LOGONS, "logons [name]")
async def logons(ctx: Context, args: str) -> None:
    word = args.strip()
    name = ctx.session.name
    if word:
        online = ctx.world.find(word)
        found = online.name if online is not None else None
        if found is None and check_name(word) is None:
            found = await asyncio.to_thread(ctx.store.registered_name, word)
        if found is None:
            ctx.reply(f"There is no player matching the name {word}.")
            return
        name = found
    await ctx.core.writes.barrier()  # the logins and logouts on their way are listed
    _show(ctx, await asyncio.to_thread(ctx.store.logons, name))


@command("llogons", CN.CN_LLOGONS, "llogons")
async def llogons(ctx: Context, args: str) -> None:
    if not ctx.session.registered:
        ctx.reply("Sorry, guest users may not use this command")
        return
    await ctx.core.writes.barrier()
    _show(ctx, await asyncio.to_thread(ctx.store.llogons))


def _keep(core: Core, session: User, login: bool) -> None:
    now = datetime.now(UTC)
    write = jobs.logon(session.name, session.registered, login, now, session.host)
    core.writes.put_write(write)  # nobody is told of its waiting: not something he did


def install(core: Core) -> None:
    """The commands, and a login and a logout kept for each user who logged in."""

    def arrived(session: User, batch: Batch) -> None:
        _keep(core, session, True)

    def left(session: User) -> None:
        # a user of another node of a cluster leaves every node: his own keeps it
        if session.logged_in and session.remote is None and not core.stopping:
            _keep(core, session, False)

    core.registry.add_commands(COMMANDS)
    core.registry.arrived.append(arrived)
    core.registry.left.append(left)
