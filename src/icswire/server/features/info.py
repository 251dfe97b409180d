"""What time it is, ping and leaving: ``date``, ``ping``, ``quit``."""

from __future__ import annotations

import statistics
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from icswire.protocol import datagrams as dg
from icswire.protocol.level1 import CommandNumber as CN
from icswire.server.core.dispatch.hub import CommandSet, Context
from icswire.server.core.model.zones import SERVER, date_text
from icswire.server.core.net.session import Session
from icswire.server.core.render.batch import Batch, Datagram, lines

if TYPE_CHECKING:
    from icswire.server.core.dispatch.hub import Core
    from icswire.server.core.model.users import User

COMMANDS = CommandSet()
command = COMMANDS.command


class PingSamples(dict["User", list[int]]):
    """Each user's ping times so far (for ``ping``'s average)."""


@command("date", CN.CN_DATE, "date")
async def date(ctx: Context, args: str) -> None:
    """FICS's ``date``: the time in the user's ``set tzone``, the server's and GMT."""
    now = datetime.now(UTC)
    ctx.reply(
        f"Local time     - {date_text(now, ctx.session.variables['tzone'])}",
        f"Server time    - {date_text(now, SERVER)}",
        f"GMT            - {now.strftime('%a %b %d, %H:%M GMT %Y')}",
    )


#: Seconds a ping waits for its answer before saying it got none.
PING_TIMEOUT = 10.0


@command("ping", CN.CN_PING, "ping [name]")
async def ping(ctx: Context, args: str) -> None:
    """Measures the round trip to a user (a telnet timing mark, or timeseal's ``[G]`` for a
    timeseal client) without waiting for it: the command ends at once, so a client that
    never answers telnet blocks nobody, not even itself; the time comes later as its own
    unit (SCN_ACK_PING), or "did not answer" after :data:`PING_TIMEOUT` seconds."""
    target = ctx.world.find(args.strip()) if args.strip() else ctx.session
    if target is None:
        ctx.reply(f'No user named "{args.strip()}" is logged in.')
        return
    if not isinstance(target, Session):  # a replica: its connection is on its own node
        ctx.reply(f"{target.name} is connected to another node.")
        return
    ctx.core.spawn(_answer_ping(ctx.core, ctx.session, target))


async def _answer_ping(core: Core, issuer: User, target: Session) -> None:
    lag = await target.ping(PING_TIMEOUT)
    batch = Batch(CN.SCN_ACK_PING, None)
    if lag is None:
        batch.add(issuer, lines(f"{target.name} did not answer the ping."))
        batch.flush()
        return
    # a user who left meanwhile has had its samples forgotten: none are kept again
    samples = [] if target.closed else core.state(PingSamples).setdefault(target, [])
    samples.append(int(lag))
    mean = int(statistics.fmean(samples))
    variance = int(statistics.pvariance(samples)) if len(samples) > 1 else 0
    batch.add(issuer, lines(f"Ping time for {target.name}: {int(lag)} ms (average {mean} ms)"))
    batch.add(issuer, Datagram(dg.AckPing(target.name, int(lag), mean, variance)))
    batch.flush()


@command("quit", CN.CN_QUIT, "quit")
async def quit_(ctx: Context, args: str) -> None:
    ctx.reply("Logging you out.", "Thank you for using icswire.")
    ctx.session.leaving = True


def install(core: Core) -> None:
    def forget_pings(session: User) -> None:
        core.state(PingSamples).pop(session, None)

    core.registry.add_commands(COMMANDS)
    core.registry.left.append(forget_pings)
