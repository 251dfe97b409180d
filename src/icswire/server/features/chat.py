"""Talking: ``tell`` (to a player, a channel, ``.`` the last one told, ``,`` the last
channel), ``xtell``, ``ltell`` (FICS's: to everybody online on one of one's lists),
``say``, ``qtell``, ``shout``, ``i``, ``sshout``, ``cshout``, ``inchannel``;
``lasttells`` (ICC's: the last personal tells one received and sent); ``away`` (ICC's:
a line shown to whoever tells one, until one types anything).

Who hears what follows the receiver's talk variables, FICS's way: ``tell`` and ``ctell``
(tells and channel tells of unregistered players), ``chanoff`` (no channel tells),
``shout``, ``sshout``, ``cshout``, ``silence`` (no shouts or channel tells while playing),
and the censor list: a censored sender's tell is refused with ``NAME is censoring you.``,
his channel tells and shouts simply do not reach. The one told learns more of the
receiver in ``(told NAME, who ...)`` (FICS's talkproc.c): playing, examining, the
``busy`` text and the idle time, or the ``away`` line (ICC: ``away on the phone`` makes
it ``(told Junk, who is on the phone)``).
"""

from __future__ import annotations

import asyncio
import math
import time
from collections import deque
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal

from icswire.protocol.level1 import CommandNumber as CN
from icswire.server.core.dispatch.commands import first_word
from icswire.server.core.dispatch.hub import CommandSet, Context
from icswire.server.core.dispatch.numbers import parse_number
from icswire.server.core.events.talk import (
    I_SHOUT,
    SAY,
    SHOUT,
    SSHOUT,
    TELL,
    ChannelTold,
    CShouted,
    Qtold,
    Shouted,
    Speaker,
    Told,
)
from icswire.server.core.model.channels import CHANNELS, NAMES
from icswire.server.core.model.lists import PERSONAL_LISTS, ListRefused, find_list
from icswire.server.core.model.names import name_key
from icswire.server.core.model.titles import ADMIN_LIST
from icswire.server.core.render.batch import Batch

if TYPE_CHECKING:
    from icswire.server.core.dispatch.hub import Core
    from icswire.server.core.model.tables import Table
    from icswire.server.core.model.users import User

COMMANDS = CommandSet()
command = COMMANDS.command
#: Seconds of idleness after which ``(told NAME, who has been idle ...)`` says so.
IDLE_NOTE = 180
#: The variable that turns each kind of shout on.
ShoutVariable = Literal["shout", "sshout", "cshout"]


#: How many personal tells (received and sent) ``lasttells`` keeps for each user.
LAST_TELLS = 10


@dataclass(frozen=True)
class KeptTell:
    """A personal tell as ``lasttells`` shows it: when, with whom, the line."""

    at: float  # time.monotonic()
    other: str  # the name key of the one who told or was told
    line: str


@dataclass
class Talk:
    """Whom each user told last (``tell .``), in which channel (``tell ,``), whom he
    played last (``say`` after the game), and his last personal tells (by name key: a
    registered user finds them again after a lost connection; a guest's go with him)."""

    last_told: dict[User, str] = field(default_factory=dict)
    last_channel: dict[User, int] = field(default_factory=dict)
    last_opponent: dict[User, str] = field(default_factory=dict)
    tells: dict[str, deque[KeptTell]] = field(default_factory=dict)

    def keep(self, key: str, other: str, line: str) -> None:
        kept = self.tells.setdefault(key, deque(maxlen=LAST_TELLS))
        kept.append(KeptTell(time.monotonic(), other, line))

    def forget(self, session: User) -> None:
        self.last_told.pop(session, None)
        self.last_channel.pop(session, None)
        self.last_opponent.pop(session, None)
        if not session.registered:
            self.tells.pop(name_key(session.name), None)


def hms(seconds: int) -> str:
    """FICS's ``hms_desc``: ``5 secs``, ``3 mins``, ``1 hr, 2 mins, 5 secs``."""

    def unit(n: int, word: str) -> str:
        return f"{n} {word}{'' if n == 1 else 's'}"

    days, rest = divmod(seconds, 86400)
    hours, rest = divmod(rest, 3600)
    minutes, secs = divmod(rest, 60)
    if not days and not hours:
        return unit(minutes, "min") if minutes else unit(secs, "sec")
    if not days:
        return f"{unit(hours, 'hr')}, {unit(minutes, 'min')}, {unit(secs, 'sec')}"
    return f"{unit(days, 'day')}, {unit(hours, 'hour')}, {unit(minutes, 'minute')}"


def _note(ctx: Context, receiver: User) -> str:
    """What ``(told NAME...)`` adds about the receiver (FICS's ``tell``)."""
    tables = ctx.core.tables
    table = tables.seated(receiver)
    if table is not None and table.examined:
        return ", who is examining a game"
    if table is not None and table is not tables.seated(ctx.session):
        return ", who is playing"
    away = receiver.away_line()
    if away:
        return f", who is {away}"
    idle = int(time.monotonic() - receiver.last_input)
    busy = receiver.variables["busy"]
    if busy:
        return f", who {busy} (idle: {hms(idle)})"
    if idle >= IDLE_NOTE:
        return f", who has been idle {hms(idle)}"
    return ""


def _silenced(ctx: Context, receiver: User) -> bool:
    """``set silence 1``: no shouts or channel tells while playing."""
    return bool(receiver.variables["silence"]) and receiver in ctx.core.play.by_player


def personal_tell(ctx: Context, receiver: User, text: str, kind: int = TELL) -> bool:
    """Tell ``receiver`` (``kind`` SAY or TELL), unless he censors the sender, does not
    hear unregistered players or the sender goes too fast; True when told."""
    session = ctx.session
    if receiver.censors(session):
        ctx.reply(f"{receiver.name} is censoring you.")
        return False
    if not session.registered and not receiver.variables["tell"]:
        if session.talks_icc:  # ICC's words (icc-formats.txt section 3)
            ctx.reply(
                f"Not sent -- {receiver.name} does not get messages from unregistered players."
            )
        else:
            ctx.reply(f'Player "{receiver.name}" isn\'t listening to unregistered tells.')
        return False
    if ctx.too_fast("tell"):
        return False
    told = Told(Speaker.of(session), receiver.name, kind, text)
    ctx.batch.add(receiver, told)
    ctx.reply(f"(told {receiver.name}{_note(ctx, receiver)})")
    if receiver is not session:  # one telling himself has his echo with the tell
        ctx.batch.add(session, told)
    _keep(ctx, receiver, text, kind)
    return True


def _keep(ctx: Context, receiver: User, text: str, kind: int) -> None:
    """Keep a tell for ``lasttells``: the receiver's, and the sender's (unless the same)."""
    talk, session = ctx.core.state(Talk), ctx.session
    mine, theirs = name_key(session.name), name_key(receiver.name)
    verb = "says" if kind == SAY else "tells you"
    talk.keep(theirs, mine, f"{session.display_name} {verb}: {text}")
    if theirs != mine:
        said = "said to" if kind == SAY else "told"
        talk.keep(mine, theirs, f"You {said} {receiver.display_name}: {text}")


@command("lasttells", CN.CN_LASTTELLS, "lasttells [name]")
async def lasttells(ctx: Context, args: str) -> None:
    """The last :data:`LAST_TELLS` personal tells (tell, xtell, say) one received and
    sent, oldest first, each with its age; with a name, those with that player only."""
    name = args.strip()
    kept = list(ctx.core.state(Talk).tells.get(name_key(ctx.session.name), ()))
    if name:
        kept = [t for t in kept if t.other == name_key(name)]
    with_whom = f" with {name}" if name else ""
    if not kept:
        ctx.reply(f"You have no tells{with_whom} to show.")
        return
    now = time.monotonic()
    tells = "tell" if len(kept) == 1 else f"{len(kept)} tells"
    ctx.reply(
        f"Your last {tells}{with_whom}, the most recent last:",
        *(f"  [{hms(int(now - t.at))} ago] {t.line}" for t in kept),
    )


@command("tell", CN.CN_TELL, "tell <name|channel|.|,> <message>")
async def tell(ctx: Context, args: str) -> None:
    target, text = first_word(args)
    if not target or not text:
        ctx.reply("Usage: tell <name|channel|.|,> <message>")
        return
    talk = ctx.core.state(Talk)
    session = ctx.session
    if target == ",":
        last = talk.last_channel.get(session)
        if last is None:
            ctx.reply("No previous channel.")
            return
        await channel_tell(ctx, last, text)
        return
    channel = parse_number(target)
    if channel is not None:
        await channel_tell(ctx, channel, text)
        return
    if target == ".":
        if session not in talk.last_told:
            ctx.reply("No previous tell.")
            return
        target = talk.last_told[session]
        receiver = ctx.world.online.get(target)
    else:
        receiver = ctx.world.find(target)
    if receiver is None:
        ctx.reply(f'No user named "{target}" is logged in.')
        return
    if personal_tell(ctx, receiver, text):
        talk.last_told[session] = name_key(receiver.name)


@command("xtell", CN.CN_TELL, "xtell <name> <message>")
async def xtell(ctx: Context, args: str) -> None:
    """FICS's ``xtell``: a tell that leaves ``tell .`` as it was (for robots' replies)."""
    target, text = first_word(args)
    if not target or not text:
        ctx.reply("Usage: xtell <name> <message>")
        return
    receiver = ctx.world.find(target)
    if receiver is None:
        ctx.reply(f'No user named "{target}" is logged in.')
        return
    personal_tell(ctx, receiver, text)


@command("ltell", CN.CN_TELL, "ltell <list> <message>")
async def ltell(ctx: Context, args: str) -> None:
    """FICS's ``ltell``: tell each player on the list who is online (talkproc.c: those
    offline are passed over in silence); ``tell .`` stays as it was."""
    word, text = first_word(args)
    if not word or not text:
        ctx.reply("Usage: ltell <list> <message>")
        return
    found = find_list(word, ctx.session.admin, change=False)
    if isinstance(found, ListRefused):
        if "insufficient rights" in found.text:
            ctx.reply(found.text)
        ctx.reply("Can't find that list")
        return
    for receiver in _online_on(ctx, found):
        personal_tell(ctx, receiver, text)


def _online_on(ctx: Context, which: str) -> list[User]:
    """The players online on the list ``which`` of the issuer (his own lists) or the
    server's (the titles and ``admin``), in the list's order."""
    session, online = ctx.session, ctx.world.online
    if which == "notify":
        names: list[str] = list(session.notify)
    elif which in PERSONAL_LISTS:
        names = list(session.listed(which))  # channel: numbers, nobody's name
    elif which == ADMIN_LIST:
        return sorted((u for u in online.values() if u.admin), key=lambda u: name_key(u.name))
    else:
        members = (u for u in online.values() if which in u.title_lists)
        return sorted(members, key=lambda u: name_key(u.name))
    return [online[key] for key in names if key in online]


@command("away", CN.CN_AWAY, "away [message]")
async def away(ctx: Context, args: str) -> None:
    """ICC's ``away``: whoever tells you sees ``(told NAME, who is MESSAGE)`` until you
    type anything; ``away`` alone clears it."""
    text, session = args.strip(), ctx.session
    if not text:
        session.away, session.away_set = "", math.inf
        ctx.reply("Away message cleared.")
        return
    session.away, session.away_set = text, session.last_input
    ctx.reply(
        f"Away message set: players who tell you see (told {session.name}, who is {text})",
        "until you type anything.",
    )


@command("say", CN.CN_SAY, "say <message>")
async def say(ctx: Context, args: str) -> None:
    """Tell the opponent of one's game, or of the last one (FICS's ``say``)."""
    text = args.strip()
    if not text:
        ctx.reply("Usage: say <message>")
        return
    session = ctx.session
    table = ctx.core.play.by_player.get(session)
    opponents = [s for s in table.seats() if s is not session] if table is not None else []
    if opponents:
        personal_tell(ctx, opponents[0], text, SAY)
        return
    last = ctx.core.state(Talk).last_opponent.get(session)
    if last is None:
        ctx.reply("No one to say anything to, try tell.")
        return
    receiver = ctx.world.online.get(name_key(last))
    if receiver is None:
        ctx.reply(f'No user named "{last}" is logged in.')
        return
    personal_tell(ctx, receiver, text, SAY)


async def channel_tell(ctx: Context, channel: int, text: str) -> None:
    session = ctx.session
    if channel not in CHANNELS:
        ctx.reply(f"The channel must be a number from {CHANNELS.start} to {CHANNELS.stop - 1}.")
        return
    members = ctx.world.channels.get(channel, set())
    if session not in members:
        ctx.reply(f"You are not in channel {channel}.")
        return
    if ctx.too_fast("channel"):
        return
    ctx.core.state(Talk).last_channel[session] = channel
    listeners = [
        m
        for m in members
        if m is not session
        and not m.censors(session)
        and not m.variables["chanoff"]
        and (session.registered or m.variables["ctell"])
        and not _silenced(ctx, m)
    ]
    ctx.batch.add_all(listeners, ChannelTold(channel, Speaker.of(session), text))
    ctx.batch.command_cn(CN.CN_CHANNELTELL)
    named = "" if session.talks_icc or channel not in NAMES else f' "{NAMES[channel]}"'
    ctx.reply(f"(told {len(listeners)} players in channel {channel}{named})")


def _listeners(ctx: Context, variable: ShoutVariable) -> list[User]:
    """Who hears a shout of the kind ``variable`` turns on."""
    session = ctx.session
    return [
        s
        for s in ctx.world.others(session)
        if s.variables[variable] and not s.censors(session) and not _silenced(ctx, s)
    ]


def _guest_refused(ctx: Context) -> bool:
    """Only registered players shout (lasker's com_shout, com_it, com_cshout; ICC too,
    in the words the server gives guests elsewhere, as llogons does)."""
    if ctx.session.registered:
        return False
    if ctx.session.talks_icc:
        ctx.reply("Sorry, guest users may not use this command")
        return True
    name = "it" if ctx.command == "i" else ctx.command
    ctx.reply(f"Only registered players can use the {name} command.")
    return True


async def _shout(ctx: Context, text: str, kind: int, variable: ShoutVariable) -> None:
    session = ctx.session
    if _guest_refused(ctx):
        return
    if not text:
        ctx.reply(f"Usage: {ctx.command} <message>")
        return
    if ctx.too_fast("shout"):
        return
    listeners = _listeners(ctx, variable)
    ctx.batch.add_all(listeners, Shouted(Speaker.of(session), kind, text))
    ctx.reply(f"({'s-shouted' if kind == SSHOUT else 'shouted'} to {len(listeners)} players)")


@command("shout", CN.CN_SHOUT, "shout <message>", bare_cn=CN.CN_SHOUT0)
async def shout(ctx: Context, args: str) -> None:
    await _shout(ctx, args.strip(), SHOUT, "shout")


@command("i", CN.CN_I, "i <action>")
async def i_(ctx: Context, args: str) -> None:
    await _shout(ctx, args.strip(), I_SHOUT, "shout")


@command("sshout", CN.CN_SSHOUT, "sshout <message>")
async def sshout(ctx: Context, args: str) -> None:
    await _shout(ctx, args.strip(), SSHOUT, "sshout")


@command("cshout", CN.CN_SHOUT, "cshout <message>")
async def cshout(ctx: Context, args: str) -> None:
    """FICS's c-shout (chess talk), heard by those with ``cshout`` on; ICC has no such
    shout, so it is text for every receiver, DG_SHOUT or not."""
    text, session = args.strip(), ctx.session
    if _guest_refused(ctx):
        return
    if not text:
        ctx.reply("Usage: cshout <message>")
        return
    if ctx.too_fast("shout"):
        return
    listeners = _listeners(ctx, "cshout")
    ctx.batch.add_all(listeners, CShouted(Speaker.of(session), text))
    ctx.reply(f"(c-shouted to {len(listeners)} players)")


@command("inchannel", CN.CN_INCHANNEL, "inchannel [number|name]")
async def inchannel(ctx: Context, args: str) -> None:
    if not ctx.session.talks_icc:
        _fics_inchannel(ctx, args.strip())
        return
    word = args.strip()
    if word and parse_number(word) is None:  # a player's name
        player = ctx.world.find(word)
        if player is None:
            ctx.reply(f'No user named "{word}" is logged in.')
        elif not player.channels:
            ctx.reply(f"{player.name} is in no channels.")
        else:
            numbers = " ".join(f"{c:<5}" for c in sorted(player.channels)).rstrip()
            ctx.reply(f"{player.name} is in the following channels:", numbers)
        return
    if word:
        channel = parse_number(word)
        if channel is None or channel not in CHANNELS:
            ctx.reply(f"The channel must be a number from {CHANNELS.start} to {CHANNELS.stop - 1}.")
            return
        wanted = [channel]
    else:
        wanted = sorted(c for c, m in ctx.world.channels.items() if m)
    rows = []
    for channel in wanted:
        members = sorted(s.display_name for s in ctx.world.channels.get(channel, ()))
        rows.append(f"Channel {channel}: {' '.join(members)} ({len(members)} players)")
    ctx.reply(*(rows or ["Nobody is in any channel."]))


def _fics_inchannel(ctx: Context, word: str) -> None:
    """lasker's ``com_inchannel``: a player's channels after ``NAME is in the following
    channels:`` (or ``No channels found``); a channel's members on one line, then how
    many (``Channel N is empty.``); without an argument, each channel that has members
    (help inchannel)."""
    if word and parse_number(word) is None:  # a player's name
        player = ctx.world.find(word)
        if player is None:
            ctx.reply(f'No user named "{word}" is logged in.')
        elif not player.channels:
            ctx.reply(
                f"{player.name} is in the following channels: No channels found for {player.name}."
            )
        else:
            numbers = " ".join(f"{c:<5}" for c in sorted(player.channels)).rstrip()
            ctx.reply(f"{player.name} is in the following channels:", numbers)
        return
    if not word:
        wanted = sorted(c for c, m in ctx.world.channels.items() if m)
        ctx.reply(*(f"Channel {c}: {_members(ctx, c)}" for c in wanted))
        return
    channel = parse_number(word)
    if channel is None or channel not in CHANNELS:
        ctx.reply(f"No such channel; the largest channel number is {CHANNELS.stop - 1}.")
        return
    count = len(ctx.world.channels.get(channel, ()))
    if not count:
        ctx.reply(f"Channel {channel} is empty.")
        return
    people = "person is" if count == 1 else "people are"
    ctx.reply(
        f"Channel {channel}: {_members(ctx, channel)}", f"{count} {people} in channel {channel}."
    )


def _members(ctx: Context, channel: int) -> str:
    """The names in ``channel``, an administrator's marked ``(*)`` in channels 0 and 1
    (lasker's, which has ``adminlight`` decide; icswire marks administrators always)."""
    members = sorted(ctx.world.channels.get(channel, ()), key=lambda s: s.name.lower())
    return " ".join(f"{m.name}(*)" if m.admin and channel < 2 else m.name for m in members)


# -- qtell -------------------------------------------------------------------------------------


@command("qtell", CN.CN_QTELL, "qtell <name|channel> <text>")
async def qtell(ctx: Context, args: str) -> None:
    """FICS's tell for tournament directors' programs (the server's ``td`` list, set with
    ``icswire user td NAME``): no name or ``(told ...)``, a ``*qtell TARGET 0*`` receipt
    (1 when nobody was there to tell)."""
    target, text = first_word(args)
    if not target or not text:
        ctx.reply("Usage: qtell <name|channel> <text>")
        return
    session = ctx.session
    directors = await asyncio.to_thread(ctx.store.server_list, "td")
    if not session.registered or name_key(session.name) not in map(name_key, directors):
        ctx.reply("Only TD programs are allowed to use this command.")
        return
    channel = parse_number(target)
    if channel is None:
        receiver = ctx.world.online.get(name_key(target))
        if receiver is None:
            ctx.reply(f"*qtell {target} 1*")
            return
        if ctx.too_fast("tell"):
            return
        receivers, target = [receiver], receiver.name
    else:
        if channel == 0 or channel not in CHANNELS:
            ctx.reply(f"*qtell {target} 1*")
            return
        if ctx.too_fast("channel"):
            return
        ctx.batch.command_cn(CN.CN_CHANNELQTELL)  # a qtell to a channel (section 3)
        members = ctx.world.channels.get(channel, set())
        receivers = [m for m in members if m is not session and not m.censors(session)]
        target = str(channel)
    ctx.batch.add_all(receivers, Qtold(Speaker.of(session), channel, text))
    ctx.reply(f"*qtell {target} 0*")


def game_started(core: Core, table: Table, batch: Batch) -> None:
    """Each player of a new game will ``say`` to the other after it too."""
    seats = table.seats()
    if table.examined or len(seats) != 2:
        return
    last = core.state(Talk).last_opponent
    white, black = seats
    last[white], last[black] = black.name, white.name


def install(core: Core) -> None:
    core.registry.add_commands(COMMANDS)
    core.registry.game_started.append(lambda table, batch: game_started(core, table, batch))
    core.registry.left.append(core.state(Talk).forget)
