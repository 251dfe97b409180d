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

Against mass registration: a token bucket per address
(:attr:`~icswire.server.core.net.limits.Limits.register_address`, 3 at once then one per
10 minutes) and one for the server (``register_total``, 30 at once then one a minute),
taken before the password is hashed and given back when no account was made. A name that
would pass for an account's (``Bi1l`` for ``Bill``:
:func:`~icswire.server.core.model.names.name_skeleton`) is refused, here and for accounts
the administrators make. The buckets are this node's.
"""

from __future__ import annotations

import asyncio
import time
from typing import TYPE_CHECKING

from icswire.protocol import datagrams as dg
from icswire.protocol.level1 import CommandNumber as CN
from icswire.server.core.dispatch.hub import CommandSet, Context
from icswire.server.core.model.names import is_reserved, name_error, name_key
from icswire.server.core.model.quotas import Bucket, Rate
from icswire.server.core.net.limits import seconds_text
from icswire.server.core.render.batch import Datagram
from icswire.server.core.storage.store import LooksLike, UserExists

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
    taken = _take(ctx.core, session.host)
    if isinstance(taken, str):
        ctx.reply(taken)
        return
    made = False
    try:
        await ctx.core.password_work(ctx.store.add_user, name, secret)
        made = True
    except UserExists as exc:
        ctx.reply(f'"{exc.name}" is registered already; please choose another name.')
        return
    except LooksLike as exc:
        ctx.reply(f'"{name}" looks too much like "{exc.existing}"; please choose another name.')
        return
    finally:
        if not made:
            for bucket, rate in taken:
                bucket.give_back(rate)
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


class Registrations:
    """This node's registration buckets: one per address, one for the server."""

    #: Addresses kept before those whose buckets are full again are swept out.
    SWEEP_AT = 10_000

    def __init__(self) -> None:
        self.by_address: dict[str, Bucket] = {}
        self.total: Bucket | None = None

    def address(self, host: str, rate: Rate, now: float) -> Bucket:
        found = self.by_address.get(host)
        if found is None:
            if len(self.by_address) >= self.SWEEP_AT:
                self._sweep(rate, now)
            found = self.by_address[host] = Bucket(rate.burst, now)
        return found

    def _sweep(self, rate: Rate, now: float) -> None:
        for host, bucket in list(self.by_address.items()):
            if bucket.tokens + (now - bucket.stamp) / rate.seconds >= rate.burst:
                del self.by_address[host]


def _take(core: Core, host: str) -> list[tuple[Bucket, Rate]] | str:
    """A registration's tokens, from the address's bucket and the server's (each to give
    back when no account is made), or why there are none now. No await: registrations
    made at once take them one by one."""
    limits, now = core.limits, time.monotonic()
    state = core.state(Registrations)
    address, total = limits.register_address, limits.register_total
    buckets: list[tuple[Rate, Bucket, str]] = []
    if address is not None:
        buckets.append((address, state.address(host, address, now), "from your address"))
    if total is not None:
        state.total = state.total or Bucket(total.burst, now)
        buckets.append((total, state.total, "on this server"))
    taken: list[tuple[Bucket, Rate]] = []
    for rate, bucket, whence in buckets:
        wait = bucket.take(rate, now)
        if wait > 0:
            for took, its_rate in taken:
                took.give_back(its_rate)
            return f"Too many registrations {whence}; try again in {seconds_text(wait)}."
        taken.append((bucket, rate))
    return taken


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
