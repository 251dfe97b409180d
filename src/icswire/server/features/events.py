"""The list of events (icc-formats.txt, DG_TOURNEY 103 and DG_REMOVE_TOURNEY 104):
``qaddevent`` and ``qremoveevent`` for TDs and administrators, ``events`` for everybody.

``qaddevent INDEX BITFIELD DESCRIPTION | JOIN | WATCH | INFO | CONFIRM [| GROUP]``: the
pipe separates the parts, ``&`` separates commands within one; ``\\|`` and ``\\&`` stand
for the characters (the description's and the confirm text's backslashes are read here,
the commands' are kept for the client, which reads ``&`` and ``\\``). The spec's limits:
description and confirm text 319 characters each, each command list 99; TDs use indices
40-999 (administrators 0-9999, this server's choice). A group names one of the server's
lists (``td``, ``gm``, ``admin``...): only its members (and administrators) see the
event. ``qremoveevent INDEX`` removes one.

Whoever has DG_TOURNEY on gets each event added (one of an index already sent supersedes
it) and DG_REMOVE_TOURNEY when it goes; turning the DG on, or logging in with it on,
sends the list. ``events`` lists them as text, the same on FICS (which has no such
command) and ICC (whose layout the spec does not give). The list is kept in the
database (it survives a restart) and, in a cluster, in the registry for every node.
"""

from __future__ import annotations

import asyncio
import re
from typing import TYPE_CHECKING

from icswire.protocol.datagrams import DG
from icswire.protocol.level1 import CommandNumber as CN
from icswire.server.core.dispatch.commands import first_word
from icswire.server.core.dispatch.hub import CommandSet, Context
from icswire.server.core.dispatch.numbers import parse_number
from icswire.server.core.model.titles import ADMIN_LIST, TITLE_LISTS
from icswire.server.core.model.tourneys import EventList, ListedEvent
from icswire.server.core.render.batch import Datagram

if TYPE_CHECKING:
    from icswire.server.core.dispatch.hub import Core
    from icswire.server.core.model.users import User
    from icswire.server.core.render.batch import Batch

__all__ = ["install", "parse_event"]

COMMANDS = CommandSet()
command = COMMANDS.command

QADDEVENT_USAGE = (
    "Usage: qaddevent <index> <bitfield> <description> | <join-commands> |"
    " <watch-commands> | <info-commands> | <confirm-text> [| <group>]"
)
#: The spec's limits: "Description and confirm-text are limited to 319 characters each,
#: and the command lists are limited to at most 99 characters each."
TEXT_MAX = 319
COMMANDS_MAX = 99
#: The longest ``qaddevent`` line ("may be long (1000 characters perhaps)").
LINE_MAX = 1000
#: "TDs are limited to indices 40-999"; administrators, this server's choice.
TD_INDICES = range(40, 1000)
ADMIN_INDICES = range(0, 10000)
#: The bits the spec defines (1 guests, 2 join, 4 watch, 8 info).
BITFIELD_MAX = 15
GROUPS = (*TITLE_LISTS, ADMIN_LIST)

_PIPE = re.compile(r"(?<!\\)((?:\\\\)*)\|")


def _split(text: str) -> list[str]:
    r"""The parts of ``text`` between unquoted pipes (``\|`` is no separator).

    >>> _split(r"a | b \| c | | d")
    ['a ', ' b \\| c ', ' ', ' d']
    """
    parts: list[str] = []
    start = 0
    for found in _PIPE.finditer(text):
        parts.append(text[start : found.end(1)])
        start = found.end()
    parts.append(text[start:])
    return parts


def _unquote(text: str) -> str:
    r"""A text part with each backslash's quoted character as itself (``\|`` is ``|``)."""
    return re.sub(r"\\(.)", r"\1", text)


def _indices(user: User) -> range:
    return ADMIN_INDICES if user.admin else TD_INDICES


def parse_event(user: User, args: str) -> ListedEvent | str:
    """The event ``qaddevent ARGS`` describes, posted by ``user``, or what is wrong with it."""
    if len(args) > LINE_MAX:
        return f"A qaddevent line is limited to {LINE_MAX} characters."
    index_word, rest = first_word(args)
    bits_word, rest = first_word(rest)
    index, bitfield = parse_number(index_word), parse_number(bits_word)
    parts = [part.strip() for part in _split(rest)]
    if index is None or bitfield is None or not parts[0] or len(parts) > 6:
        return QADDEVENT_USAGE
    allowed = _indices(user)
    if index not in allowed:
        return f"Event indices are {allowed.start}-{allowed.stop - 1} for you."
    if bitfield > BITFIELD_MAX:
        return f"The bitfield is a number from 0 to {BITFIELD_MAX}."
    parts += [""] * (6 - len(parts))
    description, join, watch, info, confirm, group = parts
    description, confirm = _unquote(description), _unquote(confirm)
    for name, text in (("The description", description), ("The confirm text", confirm)):
        if len(text) > TEXT_MAX:
            return f"{name} is limited to {TEXT_MAX} characters."
    for name, text in (("join", join), ("watch", watch), ("info", info)):
        if len(text) > COMMANDS_MAX:
            return f"The {name} commands are limited to {COMMANDS_MAX} characters."
    group = group.lower()
    if group and group not in GROUPS:
        return f'There is no group "{group}": one of {", ".join(GROUPS)}.'
    return ListedEvent(index, bitfield, description, join, watch, info, confirm, group, user.name)


def _may_manage(ctx: Context, name: str) -> bool:
    if ctx.session.is_td:
        return True
    ctx.reply(f"Only TDs and administrators may use {name}.")
    return False


@command("qaddevent", CN.CN_QADDEVENT, QADDEVENT_USAGE.removeprefix("Usage: "))
async def qaddevent(ctx: Context, args: str) -> None:
    if not _may_manage(ctx, "qaddevent"):
        return
    event = parse_event(ctx.session, args.strip())
    if isinstance(event, str):
        ctx.reply(event)
        return
    await asyncio.to_thread(ctx.store.put_listed_event, event)
    old = ctx.core.state(EventList).put(event, ctx.world, ctx.batch)
    ctx.reply(f"Event {event.index} {'replaced' if old is not None else 'added'}.")


@command("qremoveevent", CN.CN_QADDEVENT, "qremoveevent <index>")
async def qremoveevent(ctx: Context, args: str) -> None:
    if not _may_manage(ctx, "qremoveevent"):
        return
    index = parse_number(args.strip())
    if index is None:
        ctx.reply("Usage: qremoveevent <index>")
        return
    allowed = _indices(ctx.session)
    if index not in allowed:
        ctx.reply(f"Event indices are {allowed.start}-{allowed.stop - 1} for you.")
        return
    events = ctx.core.state(EventList)
    if index not in events.events:
        ctx.reply(f"There is no event {index}.")
        return
    await asyncio.to_thread(ctx.store.remove_listed_event, index)
    events.remove(index, ctx.world, ctx.batch)
    ctx.reply(f"Event {index} removed.")


def event_lines(event: ListedEvent) -> list[str]:
    """``events``' lines of one event: its index and description, then its commands."""
    shown = [f"{event.index:4}  {event.description}"]
    for word, commands in (("Join", event.join), ("Watch", event.watch), ("Info", event.info)):
        if commands:
            shown.append(f"        {word}: {commands}")
    return shown


@command("events", CN.CN_EVENTS, "events")
async def events(ctx: Context, args: str) -> None:
    seen = ctx.core.state(EventList).seen_by(ctx.session)
    if not seen:
        ctx.reply("There are no events.")
        return
    ctx.reply("Events:", *(line for event in seen for line in event_lines(event)))


def send_list(core: Core, session: User, number: int, batch: Batch) -> None:
    """Turning DG_TOURNEY on (or logging in with it on) sends the list of events."""
    if number == DG.TOURNEY:
        for event in core.state(EventList).seen_by(session):
            batch.add(session, Datagram(event.record()))


def install(core: Core) -> None:
    async def starting() -> None:
        found = await asyncio.to_thread(core.store.listed_events)
        core.state(EventList).events.update((e.index, e) for e in found)

    core.registry.add_commands(COMMANDS)
    core.registry.starting.append(starting)
    core.registry.dg_on.append(
        lambda session, number, batch: send_list(core, session, number, batch)
    )
