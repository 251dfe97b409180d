"""What time it is, ping and leaving: ``date``, ``ping``, ``quit``; and the pings the
server sends on its own.

DG_ACK_PING (75) is "sent to TD when the server gets a ping back on a ping that it sent on
its own (because the player was idle for 10+ seconds). Also sent to opponents"
(icc-formats.txt): a player of a game who has typed nothing for :data:`IDLE_PING` seconds
is pinged (once at a time, again after each such stretch) when an opponent, or the TD
who started the game in his event (``rmatch``/``qmatch ... | LABEL``), has DG_ACK_PING
on, and the answer goes to them, in a unit of its own (SCN_ACK_PING, ``$server$``).

DG_IDLE (74) is "sent to TDs for players in their tournaments when idle time goes about 30
seconds, then again if it goes over 60 seconds, then 120, etc (keeps doubling) ... Soon
I'll have it sent to the opponent in a game too. It is also sent when the player unidles":
here to that TD and to a game's opponents who have it on, at the same looks (every :data:`IDLE_PING`
seconds, so up to that late), the unidling at the first look after the player typed.
"""

from __future__ import annotations

import asyncio
import statistics
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from icswire.protocol import datagrams as dg
from icswire.protocol.datagrams import DG
from icswire.protocol.level1 import CommandNumber as CN
from icswire.server.core.dispatch.hub import CommandSet, Context
from icswire.server.core.model.names import name_key
from icswire.server.core.model.zones import SERVER, date_text
from icswire.server.core.net.session import Session
from icswire.server.core.render.batch import Batch, Datagram, lines

if TYPE_CHECKING:
    from icswire.server.core.dispatch.hub import Core
    from icswire.server.core.model.tables import Table
    from icswire.server.core.model.users import User

COMMANDS = CommandSet()
command = COMMANDS.command


class PingSamples(dict["User", list[int]]):
    """Each user's ping times so far (for ``ping``'s average)."""

    def add(self, user: User, lag: int) -> tuple[int, int]:
        """Keep ``lag`` (unless ``user`` has left: its samples are forgotten); the mean and
        the variance of its samples so far."""
        samples = [] if user.closed else self.setdefault(user, [])
        samples.append(lag)
        variance = int(statistics.pvariance(samples)) if len(samples) > 1 else 0
        return int(statistics.fmean(samples)), variance


@dataclass
class IdlePings:
    """The games whose idle players are pinged (their next look), who is being pinged,
    and the idle time last told of each player (DG_IDLE: 30, 60, 120... seconds)."""

    timers: dict[Table, asyncio.TimerHandle] = field(default_factory=dict)
    pinging: set[User] = field(default_factory=set)
    told_idle: dict[User, float] = field(default_factory=dict)


#: Seconds a player of a game types nothing before the server pings him (DG_ACK_PING).
IDLE_PING = 10.0
#: Seconds of idling DG_IDLE first tells of; then twice as many each time.
IDLE_TOLD = 30.0


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
    mean, variance = core.state(PingSamples).add(target, int(lag))
    batch.add(issuer, lines(f"Ping time for {target.name}: {int(lag)} ms (average {mean} ms)"))
    batch.add(issuer, Datagram(dg.AckPing(target.name, int(lag), mean, variance)))
    batch.flush()


@command("quit", CN.CN_QUIT, "quit")
async def quit_(ctx: Context, args: str) -> None:
    ctx.reply("Logging you out.", "Thank you for using icswire.")
    ctx.session.leaving = True


# -- the server's own pings ---------------------------------------------------------------


def _watch(core: Core, table: Table) -> None:
    """Look at ``table``'s players in :data:`IDLE_PING` seconds."""
    loop = asyncio.get_running_loop()
    handle = loop.call_later(IDLE_PING, _look, core, table)
    core.state(IdlePings).timers[table] = handle


def _look(core: Core, table: Table) -> None:
    """Ping the players of ``table`` who have been idle :data:`IDLE_PING` seconds."""
    pings = core.state(IdlePings)
    if core.stopping or pings.timers.pop(table, None) is None:
        return
    now = time.monotonic()
    seats = table.seats()
    for player in seats:
        watching = _watching(core, table, player)
        if isinstance(player, Session) and not player.closed:
            _tell_idle(pings, player, watching, now)
        if not isinstance(player, Session) or player.closed or player in pings.pinging:
            continue  # a replica's connection is on its own node
        told = any(DG.ACK_PING in s.level2 for s in watching)
        if told and now - player.last_input >= IDLE_PING:  # nobody to tell: no ping
            pings.pinging.add(player)
            core.spawn(_idle_ping(core, player, table))
    _watch(core, table)


def _watching(core: Core, table: Table, player: User) -> list[User]:
    """Who hears of ``player``'s idling and pings: his opponents, and the TD who started
    the game in his event ("sent to TDs for players in their tournaments"), if online."""
    found = [s for s in table.seats() if s is not player]
    director = core.world.online.get(name_key(table.director)) if table.director else None
    if director is not None and director.is_td and director not in found:
        found.append(director)
    return found


def _tell_idle(pings: IdlePings, player: Session, opponents: list[User], now: float) -> None:
    """DG_IDLE (74: name idle-time time-since-read) to the opponents who have it on, when
    ``player``'s idle time passes :data:`IDLE_TOLD` seconds, then twice that, and so on,
    and once it types again after that ("sent when the player unidles")."""
    idle = now - player.last_input
    told = pings.told_idle.get(player, 0.0)
    if idle >= max(IDLE_TOLD, 2 * told):
        mark = IDLE_TOLD
        while 2 * mark <= idle:
            mark *= 2
        pings.told_idle[player] = mark
    elif told and idle < told:  # it typed since it was told of
        del pings.told_idle[player]
    else:
        return
    listening = [s for s in opponents if DG.IDLE in s.level2]
    if listening:
        record = dg.Idle(player.name, int(idle), int(now - player.last_read))
        batch = Batch(CN.SCN_AUTOMATIC, None)
        batch.add_all(listening, Datagram(record))
        batch.flush()


async def _idle_ping(core: Core, player: Session, table: Table) -> None:
    """One ping of an idle player; its answer to the opponents (DG_ACK_PING)."""
    try:
        lag = await player.ping(PING_TIMEOUT)
    finally:
        core.state(IdlePings).pinging.discard(player)
    if lag is None or table not in core.state(IdlePings).timers:
        return  # no answer, or the game is over
    mean, variance = core.state(PingSamples).add(player, int(lag))
    batch = Batch(CN.SCN_ACK_PING, None)
    record = dg.AckPing(player.name, int(lag), mean, variance)
    batch.add_all(_watching(core, table, player), Datagram(record))
    batch.flush()


def _game_started(core: Core, table: Table) -> None:
    if not table.examined:
        _watch(core, table)


def _game_ended(core: Core, table: Table) -> None:
    pings = core.state(IdlePings)
    handle = pings.timers.pop(table, None)
    if handle is not None:
        handle.cancel()
    for player in table.seats():
        pings.told_idle.pop(player, None)


def install(core: Core) -> None:
    def forget_pings(session: User) -> None:
        core.state(PingSamples).pop(session, None)
        core.state(IdlePings).told_idle.pop(session, None)

    core.registry.add_commands(COMMANDS)
    core.registry.left.append(forget_pings)
    core.registry.game_started.append(lambda table, batch: _game_started(core, table))
    core.registry.game_ended.append(lambda table, batch: _game_ended(core, table))
