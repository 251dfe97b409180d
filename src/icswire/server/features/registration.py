"""A user's own account: ``password`` (FICS's texts) and ``register``.

FICS has no registration in the server. Here ``register`` makes an account only when the
operator opened it (``icswire serve --open-registration``, :attr:`Core.open_registration
<icswire.server.core.dispatch.hub.Core.open_registration>`); otherwise it says how accounts are made
on this server (``icswire user add`` by its operator). With registration open:

- ``register PASSWORD`` registers the name you are using (an unregistered name such as
  ``Fred``, not a generated guest name like ``GuestQBRT``): the account exists at once, you are a
  registered user from now on, and you log in with the password next time;
- ``register NAME PASSWORD`` registers another name that nobody uses (a guest who came in
  as ``GuestQBRT`` chooses a name this way); you log in as NAME next time.

Passwords typed in commands are one word. Account changes are made at once (not queued):
the user is told whether it worked, and "The database is not answering" when it did not.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

from icswire.protocol import datagrams as dg
from icswire.protocol.level1 import CommandNumber as CN
from icswire.server.core.dispatch.hub import CommandSet, Context
from icswire.server.core.model.names import is_reserved, name_error, name_key
from icswire.server.core.render.batch import Datagram
from icswire.server.core.storage.store import UserExists

if TYPE_CHECKING:
    from icswire.server.core.dispatch.hub import Core

COMMANDS = CommandSet()
command = COMMANDS.command

CLOSED = (
    "This server does not register players itself: its operator makes accounts",
    '(with "icswire user add NAME"). Ask the people who run it for one.',
    "Meanwhile you may play unrated games under any free name.",
)


@command("password", CN.CN_PASSWORD, "password <oldpassword> <newpassword>")
async def password(ctx: Context, args: str) -> None:
    """FICS's ``password``: only for registered players, the old password first. A change
    sends DG_PASSWORD (114: new-password handle) to a user who has it on."""
    session = ctx.session
    if not session.registered:
        ctx.reply("Setting a password is only for registered players.")
        return
    words = args.split()
    if len(words) != 2:
        ctx.reply("Usage: password <oldpassword> <newpassword>")
        return
    old, new = words
    if not await ctx.core.password_work(ctx.store.check_password, session.name, old):
        ctx.reply("Incorrect password, password not changed!")
        return
    await ctx.core.password_work(ctx.store.set_password, session.name, new)
    ctx.batch.add(session, Datagram(dg.Password(new, session.name)))
    ctx.reply(f'Password changed to "{new}".')


@command("register", CN.CN_REGISTER, "register [name] <password>")
async def register(ctx: Context, args: str) -> None:
    session = ctx.session
    if not ctx.core.open_registration:
        ctx.reply(*CLOSED)
        return
    words = args.split()
    if len(words) not in (1, 2):
        ctx.reply("Usage: register [name] <password>")
        return
    name = words[0] if len(words) == 2 else session.name
    secret = words[-1]
    mine = name_key(name) == name_key(session.name)
    if mine and session.registered:
        ctx.reply(f"{session.name} is registered already.")
        return
    refusal = _refusal(ctx, name, mine)
    if refusal is not None:
        ctx.reply(refusal)
        return
    try:
        await ctx.core.password_work(ctx.store.add_user, name, secret)
    except UserExists as exc:
        ctx.reply(f'"{exc.name}" is registered already; please choose another name.')
        return
    if not mine:
        ctx.reply(
            f'Registered "{name}". Log in as {name} with your password to use it.',
        )
        return
    account = await asyncio.to_thread(ctx.store.load, name)
    session.registered = True
    if account is not None:
        ctx.world.uids[name_key(name)] = account.uid
    ctx.reply(
        f'You are now registered as "{session.name}".',
        "Log in with this name and your password next time.",
    )


def _refusal(ctx: Context, name: str, mine: bool) -> str | None:
    """Why ``name`` cannot be registered by this user now, or None."""
    if is_reserved(name) or name_key(name) in ctx.core.registry.words():
        if mine:
            return (
                f'"{name}" cannot be registered; choose a name with "register <name> <password>".'
            )
        return f'"{name}" is a reserved name; please choose another.'
    reason = name_error(name)
    if reason is not None:
        return reason
    if not mine and name_key(name) in ctx.world.online:
        return f'"{name}" is being used by somebody logged in now; please choose another.'
    return None


def install(core: Core) -> None:
    core.registry.add_commands(COMMANDS)
