"""Administrators' commands: accounts (``addplayer``, ``remplayer``, ``asetpasswd``,
``asetemail``, ``asetadmin``), the ban list (``+ban``, ``-ban``, ``=ban``) and ``nuke``.

An administrator is a registered account with the admin flag (``icswire user admin NAME
on`` from the shell, or ``asetadmin`` here; :attr:`User.admin
<icswire.server.core.model.users.User.admin>`). As on FICS, these commands do not exist for
anybody else: a user without the flag gets "Command not found." and no prefix of theirs
matches one
(:meth:`Registry.find_command <icswire.server.core.dispatch.hub.Registry.find_command>`).

A banned name cannot log in (DG_LOGIN_FAILED code 12); the ban does not disconnect who is
online under that name now: ``nuke`` does that. Account changes are made at once, not
queued: the administrator is told whether they worked.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import TYPE_CHECKING

from icswire.protocol.level1 import CommandNumber as CN
from icswire.server.core.dispatch.commands import first_word
from icswire.server.core.dispatch.hub import CommandSet, Context, Handler
from icswire.server.core.model.names import name_error, name_key
from icswire.server.core.net.mail import EMAIL_SETTING, valid_address
from icswire.server.core.net.session import Session
from icswire.server.core.render.batch import lines
from icswire.server.core.storage.store import LooksLike, UnknownUser, UserExists

if TYPE_CHECKING:
    from icswire.server.core.dispatch.hub import Core

COMMANDS = CommandSet()


def command(name: str, cn: int, usage: str) -> Callable[[Handler], Handler]:
    """An administrators' command."""
    return COMMANDS.command(name, cn, usage, admin=True)


@command("addplayer", CN.SCN_MISCELLANEOUS, "addplayer <name> <password>")
async def addplayer(ctx: Context, args: str) -> None:
    words = args.split()
    if len(words) != 2:
        ctx.reply("Usage: addplayer <name> <password>")
        return
    name, secret = words
    reason = name_error(name)
    if reason is not None:
        ctx.reply(reason)
        return
    try:
        await ctx.core.password_work(ctx.store.add_user, name, secret)
    except UserExists as exc:
        ctx.reply(f'A player named "{exc.name}" is already registered.')
        return
    except LooksLike as exc:
        ctx.reply(f'"{name}" looks too much like the registered "{exc.existing}".')
        return
    ctx.reply(f'Added "{name}" with password "{secret}".')


@command("remplayer", CN.SCN_MISCELLANEOUS, "remplayer <name>")
async def remplayer(ctx: Context, args: str) -> None:
    name = args.strip()
    if not name or " " in name:
        ctx.reply("Usage: remplayer <name>")
        return
    online = ctx.world.online.get(name_key(name))
    if online is not None and online.registered:
        ctx.reply(f"{online.name} is logged in; nuke them first.")
        return
    await ctx.core.writes.settled(name)  # nothing of theirs is still waiting to be stored
    try:
        await asyncio.to_thread(ctx.store.remove_user, name)
    except UnknownUser:
        ctx.reply(f'There is no player matching the name "{name}".')
        return
    ctx.reply(f'Removed the account of "{name}".')


@command("asetpasswd", CN.SCN_MISCELLANEOUS, "asetpasswd <name> <password>")
async def asetpasswd(ctx: Context, args: str) -> None:
    words = args.split()
    if len(words) != 2:
        ctx.reply("Usage: asetpasswd <name> <password>")
        return
    name, secret = words
    try:
        await ctx.core.password_work(ctx.store.set_password, name, secret)
    except UnknownUser:
        ctx.reply(f'There is no player matching the name "{name}".')
        return
    ctx.reply(f'Password of {name} changed to "{secret}".')
    online = ctx.world.online.get(name_key(name))
    if online is not None and online.registered and online is not ctx.session:
        ctx.batch.add(online, lines(f"{ctx.session.name} has changed your password."))


@command("asetemail", CN.SCN_MISCELLANEOUS, "asetemail <name> [address]")
async def asetemail(ctx: Context, args: str) -> None:
    """The address a player's mail goes to (``mailmoves`` ...), or none (lasker's
    com_asetemail)."""
    words = args.split()
    if not 1 <= len(words) <= 2:
        ctx.reply("Usage: asetemail <name> [address]")
        return
    name, address = words[0], (words[1] if len(words) == 2 else None)
    if address is not None and not valid_address(address):
        ctx.reply(f'"{address[:60]}" is not a mail address.')
        return
    try:
        await asyncio.to_thread(ctx.store.save_setting, name, EMAIL_SETTING, address)
    except UnknownUser:
        ctx.reply(f'There is no player matching the name "{name}".')
        return
    online = ctx.world.online.get(name_key(name))
    shown = online.name if online is not None and online.registered else name
    if address is None:
        ctx.reply(f"Email address for {shown} removed")
        told = f"{ctx.session.name} has removed your email address."
    else:
        ctx.reply(f'Email address of {shown} changed to "{address}".')
        told = f"{ctx.session.name} has changed your email address."
    if online is not None and online.registered and online is not ctx.session:
        ctx.batch.add(online, lines("", told, ""))


@command("asetadmin", CN.SCN_MISCELLANEOUS, "asetadmin <name> 0|1")
async def asetadmin(ctx: Context, args: str) -> None:
    name, flag = first_word(args)
    if not name or flag not in ("0", "1"):
        ctx.reply("Usage: asetadmin <name> 0|1")
        return
    on = flag == "1"
    try:
        changed = await asyncio.to_thread(ctx.store.set_admin, name, on)
    except UnknownUser:
        ctx.reply(f'There is no player matching the name "{name}".')
        return
    what = "an administrator" if on else "not an administrator"
    if not changed:
        ctx.reply(f"{name} is {what} already.")
        return
    ctx.reply(f"{name} is {what} now.")
    online = ctx.world.online.get(name_key(name))
    if online is not None and online.registered:
        online.admin = on
        ctx.world.titles_changed(online, ctx.batch)  # the administrator's "*"
        if online is not ctx.session:
            ctx.batch.add(online, lines(f"{ctx.session.name} has made you {what}."))


@command("nuke", CN.SCN_MISCELLANEOUS, "nuke <name>")
async def nuke(ctx: Context, args: str) -> None:
    name = args.strip()
    if not name:
        ctx.reply("Usage: nuke <name>")
        return
    target = ctx.world.online.get(name_key(name))
    if target is None:
        ctx.reply(f'No user named "{name}" is logged in.')
        return
    if target is ctx.session:
        ctx.reply("You cannot nuke yourself; use quit.")
        return
    if not isinstance(target, Session):  # a replica: its connection is on its own node
        ctx.reply(f"{target.name} is connected to another node.")
        return
    target.send_raw(f"\r\n**** You have been kicked out by {ctx.session.name}! ****\r\n".encode())
    target.hang_up()
    ctx.reply(f"Nuked: {target.name}")


def install(core: Core) -> None:
    core.registry.add_commands(COMMANDS)
