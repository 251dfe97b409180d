"""Talking: ``tell`` (to a player or a channel), ``shout``, ``i``, ``sshout``; channels
(``+channel``, ``-channel``, ``inchannel``) and the notify list (``+notify``,
``-notify``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from icswire.protocol import datagrams as dg
from icswire.protocol.datagrams import DG
from icswire.protocol.level1 import CommandNumber as CN
from icswire.server.core.channels import CHANNELS
from icswire.server.core.commands import first_word
from icswire.server.core.hub import CommandSet, Context
from icswire.server.core.names import check_name, name_key
from icswire.server.core.numbers import parse_number
from icswire.server.core.render import Datagram, TextOrDatagram

if TYPE_CHECKING:
    from icswire.server.core.hub import Core

COMMANDS = CommandSet()
command = COMMANDS.command


@command("tell", CN.CN_TELL, "tell <name|channel> <message>")
async def tell(ctx: Context, args: str) -> None:
    target, text = first_word(args)
    if not target or not text:
        ctx.reply("Usage: tell <name|channel> <message>")
        return
    channel = parse_number(target)
    if channel is not None:
        await channel_tell(ctx, channel, text)
        return
    session, receiver = ctx.session, ctx.world.find(target)
    if receiver is None:
        ctx.reply(f'No user named "{target}" is logged in.')
        return
    if not session.registered and not receiver.variables["tell"]:
        ctx.reply(f"Not sent -- {receiver.name} does not get messages from unregistered players.")
        return
    if ctx.too_fast("tell"):
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
    if ctx.too_fast("channel"):
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
    if ctx.too_fast("shout"):
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


def _channel(ctx: Context, text: str) -> int | None:
    channel = parse_number(text.strip())
    if channel is not None and channel in CHANNELS:
        return channel
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
    ctx.save("add_channel", channel)


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
    ctx.save("remove_channel", channel)


@command("inchannel", CN.CN_INCHANNEL, "inchannel [number|name]")
async def inchannel(ctx: Context, args: str) -> None:
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
    if args.strip():
        channel = _channel(ctx, args)
        if channel is None:
            return
        wanted = [channel]
    else:
        wanted = sorted(c for c, m in ctx.world.channels.items() if m)
    rows = []
    for channel in wanted:
        members = sorted(s.display_name for s in ctx.world.channels.get(channel, ()))
        rows.append(f"Channel {channel}: {' '.join(members)} ({len(members)} players)")
    ctx.reply(*(rows or ["Nobody is in any channel."]))


@command("+notify", CN.CN_PLUS, "+notify <name>")
async def add_notify(ctx: Context, args: str) -> None:
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
    ctx.save("add_notify", name)


@command("-notify", CN.CN_MINUS, "-notify <name>")
async def remove_notify(ctx: Context, args: str) -> None:
    name = args.strip()
    session = ctx.session
    if name_key(name) not in session.notify:
        ctx.reply(f"[{name}] is not on your notify list.")
        return
    session.notify.discard(name_key(name))
    ctx.reply(f"[{name}] removed from your notify list.")
    ctx.batch.add(session, Datagram(dg.MyNotifyList(name, False)))
    ctx.save("remove_notify", name)


def install(core: Core) -> None:
    core.registry.add_commands(COMMANDS)
