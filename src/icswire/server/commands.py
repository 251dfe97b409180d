"""The command table and what each command does.

A line is read as FICS and ICC read it: an optional backquote tag (```tag`cmd``, echoed in
the level 1 header for level1 & 4), leading ``$`` stripped (XBoard's ``$`` form), the
user's aliases expanded (``@`` stands for the rest of the line), then the command word
matched exactly or as the unique prefix of one command. Each command runs to completion
before the next (icc-formats.txt section 1), inside one :class:`Batch`: its output to the
issuer and to everybody else is one unit each, labelled with Appendix 1's number.
"""

from __future__ import annotations

import asyncio
import statistics
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from icswire.protocol import datagrams as dg
from icswire.protocol.datagrams import DG
from icswire.protocol.level1 import CommandNumber as CN
from icswire.server.render import Batch, Datagram, Lines, TextOrDatagram, lines
from icswire.server.variables import IVARIABLES, NOTES, VARIABLES, Variable

if TYPE_CHECKING:
    from icswire.server.app import Server
    from icswire.server.session import Session

Handler = Callable[["Context", str], Awaitable[None]]
CHANNELS = range(0, 256)


@dataclass
class Context:
    """What a command handler works with."""

    server: Server
    session: Session
    batch: Batch
    command: str

    @property
    def world(self) -> Any:
        return self.server.world

    def reply(self, *text: str) -> None:
        self.batch.reply(*text)

    async def save(self, method: str, *args: Any) -> None:
        """Keep a registered user's change in the database (guests keep nothing)."""
        if self.session.registered:
            await asyncio.to_thread(getattr(self.server.store, method), self.session.name, *args)


@dataclass(frozen=True)
class Command:
    name: str
    cn: int
    handler: Handler
    usage: str


COMMANDS: dict[str, Command] = {}
#: Short forms FICS users type, besides unique prefixes.
ABBREVIATIONS = {
    "t": "tell",
    "f": "finger",
    "exit": "quit",
    "bye": "quit",
    "logout": "quit",
    "?": "help",
    "+ch": "+channel",
    "-ch": "-channel",
    "in": "inchannel",
}


def command(name: str, cn: int, usage: str) -> Callable[[Handler], Handler]:
    def register(handler: Handler) -> Handler:
        COMMANDS[name] = Command(name, cn, handler, usage)
        return handler

    return register


def find_command(word: str) -> Command | list[str]:
    """The command ``word`` names, or the (possibly empty) list of commands it could be."""
    word = ABBREVIATIONS.get(word.lower(), word.lower())
    if word in COMMANDS:
        return COMMANDS[word]
    matches = sorted(name for name in COMMANDS if name.startswith(word))
    return COMMANDS[matches[0]] if len(matches) == 1 else matches


def split_tag(line: str) -> tuple[str | None, str]:
    """```word`rest`` -> (word, rest): the tag of icc-formats.txt section 3 (at most 99
    characters, no blanks)."""
    if line.startswith("`"):
        end = line.find("`", 1)
        tag = line[1:end]
        if end > 1 and len(tag) <= 99 and not any(c.isspace() for c in tag):
            return tag, line[end + 1 :]
    return None, line


def expand_alias(aliases: dict[str, str], line: str) -> str:
    word, _, rest = line.partition(" ")
    expansion = aliases.get(word.lower())
    if expansion is None:
        return line
    return expansion.replace("@", rest) if "@" in expansion else f"{expansion} {rest}".strip()


def _word(args: str) -> tuple[str, str]:
    word, _, rest = args.strip().partition(" ")
    return word, rest.strip()


# -- information ------------------------------------------------------------------------


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
        account = await asyncio.to_thread(ctx.server.store.load, name)
        if account is None:
            ctx.reply(f'There is no player matching the name "{name}".')
            return
        notes = [(n, account.settings[n]) for n in NOTES if account.settings.get(n)]
        head = [f"Finger of {account.name}:", "", f"{account.name} is not logged in."]
    body = [f"{n}: {text}" for n, text in notes]
    ctx.reply(*head, *(["", *body] if body else []))


def _vars(table: Any, values: dict[str, Any], level1: int) -> list[str]:
    shown = []
    for variable in table.by_name.values():
        value = level1 if variable.name == "level1" else values[variable.name]
        if variable.name in NOTES:
            continue
        shown.append(f"{variable.name}={value}")
    return [" ".join(shown[i : i + 6]) for i in range(0, len(shown), 6)]


@command("vars", CN.CN_VARS, "vars [name]")
async def show_vars(ctx: Context, args: str) -> None:
    player = ctx.world.find(args.strip()) if args.strip() else ctx.session
    if player is None:
        ctx.reply(f'No user named "{args.strip()}" is logged in.')
        return
    notes = [f"{n}: {player.variables[n]}" for n in NOTES if player.variables[n]]
    ctx.reply(
        f"Variable settings of {player.display_name}:",
        "",
        *_vars(VARIABLES, player.variables, player.level1),
        *notes,
    )


@command("ivars", CN.CN_VARS, "ivars [name]")
async def show_ivars(ctx: Context, args: str) -> None:
    player = ctx.world.find(args.strip()) if args.strip() else ctx.session
    if player is None:
        ctx.reply(f'No user named "{args.strip()}" is logged in.')
        return
    ctx.reply(
        f"Interface variable settings of {player.display_name}:",
        "",
        *_vars(IVARIABLES, player.ivariables, 0),
    )


@command("date", CN.CN_DATE, "date")
async def date(ctx: Context, args: str) -> None:
    now = datetime.now(UTC).strftime("%a %b %d, %H:%M %Z %Y")
    ctx.reply(f"Local time     - {now}", f"Server time    - {now}", f"GMT            - {now}")


@command("help", CN.CN_HELP, "help [command]")
async def help_(ctx: Context, args: str) -> None:
    topic = args.strip()
    if topic:
        found = find_command(topic)
        if isinstance(found, Command):
            ctx.reply(f"Usage: {found.usage}")
            return
        ctx.reply(f'No help available on "{topic}".')
        return
    names = sorted(COMMANDS)
    rows = [
        " ".join(f"{n:<12}" for n in names[i : i + 6]).rstrip() for i in range(0, len(names), 6)
    ]
    ctx.reply("Commands:", "", *rows, "", 'Type "help <command>" for its usage.')


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
    samples = ctx.server.ping_samples.setdefault(target, [])
    samples.append(int(lag))
    mean = int(statistics.fmean(samples))
    variance = int(statistics.pvariance(samples)) if len(samples) > 1 else 0
    ctx.reply(f"Ping time for {target.name}: {int(lag)} ms (average {mean} ms)")
    record = dg.AckPing(target.name, int(lag), mean, variance)
    ctx.batch.add(ctx.session, Datagram(record))


# -- settings ---------------------------------------------------------------------------


@command("set", CN.CN_SET, "set <variable> [value]")
async def set_(ctx: Context, args: str) -> None:
    name, value = _word(args)
    if not name:
        ctx.reply("Usage: set <variable> [value]")
        return
    try:
        variable = VARIABLES.find(name)
        parsed = variable.parse(value) if value or variable.kind == "str" else None
    except ValueError as exc:
        ctx.reply(str(exc))
        return
    if parsed is None:
        ctx.reply(f"Bad value given for variable {variable.name}.")
        return
    await apply_variable(ctx, variable, parsed)


async def apply_variable(ctx: Context, variable: Variable, value: Any) -> None:
    session, world = ctx.session, ctx.world
    if variable.name == "level1":
        session.level1 = value
    else:
        session.variables[variable.name] = value
    if variable.name in NOTES:
        ctx.reply(f"Note {variable.name} set: {value}" if value else f"Note {variable.name} unset.")
    elif variable.name == "prompt" and not value:
        session.variables["prompt"] = VARIABLES.defaults["prompt"]
        ctx.reply("Prompt set to the default.")
    else:
        ctx.reply(f"{variable.name} set to {value}.")
    ctx.batch.add(session, world.my_variable(session, variable.name))
    if variable.name == "open":
        world.open_changed(session, ctx.batch)
    elif variable.name in ("shout", "sshout"):
        world.shouts_changed(session, ctx.batch)
    stored = session.level1 if variable.name == "level1" else session.variables[variable.name]
    await ctx.save("save_setting", variable.name, str(stored) if stored != "" else None)


@command("style", CN.CN_STYLE, "style <10|12|13>")
async def style(ctx: Context, args: str) -> None:
    try:
        value = VARIABLES.by_name["style"].parse(args)
    except ValueError as exc:
        ctx.reply(str(exc))
        return
    await apply_variable(ctx, VARIABLES.by_name["style"], value)


@command("iset", CN.CN_SET, "iset <variable> <0|1>")
async def iset(ctx: Context, args: str) -> None:
    name, value = _word(args)
    session = ctx.session
    try:
        variable = IVARIABLES.find(name)
        parsed = variable.parse(value)
    except ValueError as exc:
        ctx.reply(str(exc))
        return
    if session.ivariables["lock"] and variable.name != "lock":
        ctx.reply("Cannot alter: Interface setting locked.")
        return
    session.ivariables[variable.name] = parsed
    ctx.reply(f"{variable.name} {'set' if parsed else 'unset'}.")
    ctx.batch.add(session, ctx.world.my_variable(session, variable.name))


@command("set-2", CN.CN_SET2, "set-2 <datagram> <0|1>")
async def set2(ctx: Context, args: str) -> None:
    number, value = _word(args)
    if not number.isdigit() or value not in ("0", "1") or int(number) > 255:
        ctx.reply("Usage: set-2 <datagram number> <0|1>")
        return
    dg_number, on = int(number), value == "1"
    session = ctx.session
    session.level2 = session.level2 | {dg_number} if on else session.level2 - {dg_number}
    ctx.batch.add(session, Datagram(dg.Set2(dg_number, on)))
    if on:
        ctx.world.send_lists(ctx.batch, session, dg_number)
        from icswire.server import pairing, watching

        watching.send_lists(ctx.server, ctx.batch, session, dg_number)
        pairing.send_lists(ctx.server, session, dg_number, ctx.batch)
        ctx.server.games.send_lists(session, dg_number, ctx.batch)


@command("alias", CN.SCN_MISCELLANEOUS, "alias [word [expansion]]")
async def alias(ctx: Context, args: str) -> None:
    word, expansion = _word(args)
    aliases = ctx.session.aliases
    if not word:
        ctx.reply("Aliases:", *(f"{w} -> {e}" for w, e in sorted(aliases.items())))
    elif not expansion:
        ctx.reply(
            f"{word} -> {aliases[word]}"
            if word in aliases
            else f"You have no alias named '{word}'."
        )
    else:
        aliases[word.lower()] = expansion
        ctx.reply(f"Alias '{word}' set.")
        await ctx.save("save_alias", word.lower(), expansion)


@command("unalias", CN.SCN_MISCELLANEOUS, "unalias <word>")
async def unalias(ctx: Context, args: str) -> None:
    word = args.strip().lower()
    if ctx.session.aliases.pop(word, None) is None:
        ctx.reply(f"You have no alias named '{word}'.")
        return
    ctx.reply(f"Alias '{word}' removed.")
    await ctx.save("save_alias", word, None)


# -- talking ----------------------------------------------------------------------------


@command("tell", CN.CN_TELL, "tell <name|channel> <message>")
async def tell(ctx: Context, args: str) -> None:
    target, text = _word(args)
    if not target or not text:
        ctx.reply("Usage: tell <name|channel> <message>")
        return
    if target.isdigit():
        await channel_tell(ctx, int(target), text)
        return
    session, receiver = ctx.session, ctx.world.find(target)
    if receiver is None:
        ctx.reply(f'No user named "{target}" is logged in.')
        return
    if not session.registered and not receiver.variables["tell"]:
        ctx.reply(f"Not sent -- {receiver.name} does not get messages from unregistered players.")
        return
    record = dg.PersonalTell(session.name, session.titles, text, 1)
    told = f"{session.display_name} tells you: {text}"
    ctx.batch.add(receiver, TextOrDatagram((told,), DG.PERSONAL_TELL, record))
    ctx.reply(f"(told {receiver.name})")
    echo = dg.PersonalTellEcho(receiver.name, 1, text)
    ctx.batch.add(session, Datagram(echo))


async def channel_tell(ctx: Context, channel: int, text: str) -> None:
    session = ctx.session
    members = ctx.world.channels.get(channel, set())
    if session not in members:
        ctx.reply(f"You are not in channel {channel}.")
        return
    record = dg.ChannelTell(channel, session.name, session.titles, text, 1)
    said = TextOrDatagram((f"{session.display_name}({channel}): {text}",), DG.CHANNEL_TELL, record)
    listeners = [m for m in members if m is not session]
    ctx.batch.add_all(listeners, said)
    ctx.batch.command_cn(CN.CN_CHANNELTELL)
    ctx.reply(f"(told {len(listeners)} players in channel {channel})")


async def _shout(ctx: Context, text: str, kind: int, variable: str) -> None:
    session = ctx.session
    if not text:
        ctx.reply(f"Usage: {ctx.command} <message>")
        return
    form = {0: f"{session.display_name} shouts: {text}", 1: f"--> {session.display_name} {text}"}
    line = form.get(kind, f"{session.display_name} sshouts: {text}")
    message = TextOrDatagram((line,), DG.SHOUT, dg.Shout(session.name, session.titles, kind, text))
    listeners = [s for s in ctx.world.others(session) if s.variables[variable]]
    ctx.batch.add_all(listeners, message)
    ctx.reply(f"({'s-shouted' if kind == 2 else 'shouted'} to {len(listeners)} players)")


@command("shout", CN.CN_SHOUT, "shout <message>")
async def shout(ctx: Context, args: str) -> None:
    await _shout(ctx, args.strip(), 0, "shout")


@command("i", CN.CN_I, "i <action>")
async def i_(ctx: Context, args: str) -> None:
    await _shout(ctx, args.strip(), 1, "shout")


@command("sshout", CN.CN_SSHOUT, "sshout <message>")
async def sshout(ctx: Context, args: str) -> None:
    await _shout(ctx, args.strip(), 2, "sshout")


# -- channels and notify lists ---------------------------------------------------------


def _channel(ctx: Context, text: str) -> int | None:
    if text.strip().isdigit() and int(text) in CHANNELS:
        return int(text)
    ctx.reply(f"The channel must be a number from {CHANNELS.start} to {CHANNELS.stop - 1}.")
    return None


@command("+channel", CN.CN_PLUS, "+channel <number>")
async def add_channel(ctx: Context, args: str) -> None:
    channel = _channel(ctx, args)
    if channel is None:
        return
    if channel in ctx.session.channels:
        ctx.reply(f"[{channel}] is already on your channel list.")
        return
    ctx.world.join(ctx.session, channel, ctx.batch)
    ctx.reply(f"[{channel}] added to your channel list.")
    await ctx.save("add_channel", channel)


@command("-channel", CN.CN_MINUS, "-channel <number>")
async def remove_channel(ctx: Context, args: str) -> None:
    channel = _channel(ctx, args)
    if channel is None:
        return
    if channel not in ctx.session.channels:
        ctx.reply(f"[{channel}] is not on your channel list.")
        return
    ctx.world.leave(ctx.session, channel, ctx.batch)
    ctx.reply(f"[{channel}] removed from your channel list.")
    await ctx.save("remove_channel", channel)


@command("inchannel", CN.CN_INCHANNEL, "inchannel [number]")
async def inchannel(ctx: Context, args: str) -> None:
    wanted = (
        [int(args)]
        if args.strip().isdigit()
        else sorted(c for c, m in ctx.world.channels.items() if m)
    )
    rows = []
    for channel in wanted:
        members = sorted(s.display_name for s in ctx.world.channels.get(channel, ()))
        rows.append(f"Channel {channel}: {' '.join(members)} ({len(members)} players)")
    ctx.reply(*(rows or ["Nobody is in any channel."]))


@command("+notify", CN.CN_PLUS, "+notify <name>")
async def add_notify(ctx: Context, args: str) -> None:
    from icswire.server.names import check_name, name_key

    name = args.strip()
    if check_name(name) is not None:
        ctx.reply(f'"{name}" is not a valid handle.')
        return
    session = ctx.session
    if name_key(name) in session.notify:
        ctx.reply(f"[{name}] is already on your notify list.")
        return
    session.notify.add(name_key(name))
    ctx.reply(f"[{name}] added to your notify list.")
    ctx.batch.add(session, Datagram(dg.MyNotifyList(name, True)))
    await ctx.save("add_notify", name)


@command("-notify", CN.CN_MINUS, "-notify <name>")
async def remove_notify(ctx: Context, args: str) -> None:
    from icswire.server.names import name_key

    name = args.strip()
    session = ctx.session
    if name_key(name) not in session.notify:
        ctx.reply(f"[{name}] is not on your notify list.")
        return
    session.notify.discard(name_key(name))
    ctx.reply(f"[{name}] removed from your notify list.")
    ctx.batch.add(session, Datagram(dg.MyNotifyList(name, False)))
    await ctx.save("remove_notify", name)


@command("quit", CN.CN_QUIT, "quit")
async def quit_(ctx: Context, args: str) -> None:
    ctx.reply("Logging you out.", "Thank you for using icswire.")
    ctx.session.leaving = True


def unknown(batch: Batch, word: str, matches: list[str]) -> Lines:
    batch.command_cn(CN.SCN_BAD)
    if matches:
        return lines(f'Ambiguous command "{word}". Matches: {" ".join(matches)}')
    return lines(f"{word}: Command not found.")
