"""Who is here and what time it is: ``who``, ``finger``, ``date``, ``help``, ``ping``,
``quit``."""

from __future__ import annotations

import asyncio
import statistics
import time
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from icswire.protocol import datagrams as dg
from icswire.protocol.level1 import CommandNumber as CN
from icswire.server.core.hub import Command, CommandSet, Context
from icswire.server.core.render import Datagram
from icswire.server.core.variables import NOTES
from icswire.server.core.zones import SERVER, date_text

if TYPE_CHECKING:
    from icswire.server.core.hub import Core
    from icswire.server.core.session import Session

COMMANDS = CommandSet()
command = COMMANDS.command


class PingSamples(dict["Session", list[int]]):
    """Each user's ping times so far (for ``ping``'s average)."""


@command("who", CN.CN_WHO, "who")
async def who(ctx: Context, args: str) -> None:
    players = sorted(ctx.world.online.values(), key=lambda s: s.name.lower())
    rows = [f"{'----' if s.registered else '++++'} {s.display_name}" for s in players]
    ctx.reply(*rows, "", f"{len(rows)} players displayed (of {len(rows)}).")


@command("finger", CN.CN_FINGER, "finger [name]")
async def finger(ctx: Context, args: str) -> None:
    name = args.strip() or ctx.session.name
    player = ctx.world.find(name)
    if player is not None:
        minutes = int((time.monotonic() - player.connected_at) // 60)
        idle = int(time.monotonic() - player.last_input)
        notes = [(n, player.variables[n]) for n in NOTES if player.variables[n]]
        head = [
            f"Finger of {player.display_name}:",
            "",
            f"On for: {minutes} mins   Idle: {idle} secs",
        ]
    else:
        await ctx.core.writes.settled(name)  # notes the player set are stored
        account = await asyncio.to_thread(ctx.store.load, name)
        if account is None:
            ctx.reply(f'There is no player matching the name "{name}".')
            return
        notes = [(n, account.settings[n]) for n in NOTES if account.settings.get(n)]
        head = [f"Finger of {account.name}:", "", f"{account.name} is not logged in."]
    body = [f"{n}: {text}" for n, text in notes]
    ctx.reply(*head, *(["", *body] if body else []))


@command("date", CN.CN_DATE, "date")
async def date(ctx: Context, args: str) -> None:
    """FICS's ``date``: the time in the user's ``set tzone``, the server's and GMT."""
    now = datetime.now(UTC)
    ctx.reply(
        f"Local time     - {date_text(now, ctx.session.variables['tzone'])}",
        f"Server time    - {date_text(now, SERVER)}",
        f"GMT            - {now.strftime('%a %b %d, %H:%M GMT %Y')}",
    )


@command("help", CN.CN_HELP, "help [command]")
async def help_(ctx: Context, args: str) -> None:
    topic = args.strip()
    if topic:
        found = ctx.core.registry.find_command(topic)
        if isinstance(found, Command):
            ctx.reply(f"Usage: {found.usage}")
            return
        ctx.reply(f'No help available on "{topic}".')
        return
    names = sorted(ctx.core.registry.commands)
    rows = [
        " ".join(f"{n:<12}" for n in names[i : i + 6]).rstrip() for i in range(0, len(names), 6)
    ]
    ctx.page("Commands:", "", *rows, "", 'Type "help <command>" for its usage.')


@command("ping", CN.CN_PING, "ping [name]")
async def ping(ctx: Context, args: str) -> None:
    target = ctx.world.find(args.strip()) if args.strip() else ctx.session
    if target is None:
        ctx.reply(f'No user named "{args.strip()}" is logged in.')
        return
    lag = await target.ping()
    if lag is None:
        ctx.reply(f"{target.name} did not answer the ping.")
        return
    samples = ctx.core.state(PingSamples).setdefault(target, [])
    samples.append(int(lag))
    mean = int(statistics.fmean(samples))
    variance = int(statistics.pvariance(samples)) if len(samples) > 1 else 0
    ctx.reply(f"Ping time for {target.name}: {int(lag)} ms (average {mean} ms)")
    record = dg.AckPing(target.name, int(lag), mean, variance)
    ctx.batch.add(ctx.session, Datagram(record))


@command("quit", CN.CN_QUIT, "quit")
async def quit_(ctx: Context, args: str) -> None:
    ctx.reply("Logging you out.", "Thank you for using icswire.")
    ctx.session.leaving = True


def install(core: Core) -> None:
    def forget_pings(session: Session) -> None:
        core.state(PingSamples).pop(session, None)

    core.registry.add_commands(COMMANDS)
    core.registry.left.append(forget_pings)
