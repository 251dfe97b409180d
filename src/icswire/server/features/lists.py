"""FICS's lists: ``addlist``, ``sublist``, ``toggle``, ``showlist`` (``+LIST NAME``, ``-LIST NAME``,
``=LIST``: core/commands.py's punctuation), ``znotify``, and the game notifications of the
``gnotify`` list.

A user's own lists are ``censor`` (their tells, channel tells, shouts, match requests and
messages are not shown), ``gnotify`` (told when they start a game), ``noplay`` (their
match requests are refused), ``notify`` (told when they arrive and leave) and
``channel``. Each is saved for a registered user and kept for the session by a guest. As
in FICS (lists.c), a name added must be a player's, online or registered, and is taken
with its case; a name no longer a player's may still be taken off. Each list holds at most
:attr:`~icswire.server.core.net.limits.Limits.max_list` entries (FICS: 200), for guests
and registered users alike. FICS's public lists are shown as this server knows
them: the server's own (:data:`~icswire.server.core.storage.schema.SERVER_LISTS`), which
give their members a title (:mod:`icswire.server.core.model.titles`): ``gm``, ``im``,
``fm``, ``wgm``, ``wim``, ``wfm``, ``computer`` (``c`` names it too: programs that play,
shown ``Name(C)``) and ``td`` (the programs that may ``qtell``), and ``admin``, which is
the administrator flag (``asetadmin``). Anybody may read them (lasker reads even
``admin`` to anybody); administrators change them with ``+gm NAME``, ``-gm NAME`` (or
``icswire user title NAME gm`` from the shell), for registered players only, and a change
counts at once for one online (DG_TITLES to those who list players), as lasker's lists do.
``blind`` and ``teams`` are shown empty. FICS refuses a change by anybody else as for a
list one may not see. Of the administrators' lists, ``ban`` is kept (names that may not
log in), for administrators only.

``showlist LIST`` is text in columns; a client of the ICC kind with DG_STRINGLIST_BEGIN
(79) on gets it as that DG and one DG_STRINGLIST_ITEM (80) per entry instead (the spec's
"output of =gm"), and with DG_LIST (96) on, that DG too.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from icswire.protocol import datagrams as dg
from icswire.protocol.codes import Sound
from icswire.protocol.datagrams import DG
from icswire.protocol.level1 import CommandNumber as CN
from icswire.server.core.dispatch.commands import first_word
from icswire.server.core.dispatch.hub import CommandSet, Context
from icswire.server.core.dispatch.numbers import parse_number
from icswire.server.core.model.channels import CHANNELS
from icswire.server.core.model.lists import (
    ALIASES,
    ALL_LISTS,
    KEPT_LISTS,
    PERSONAL_LISTS,
    PUBLIC_LISTS,
    ListRefused,
    find_list,
)
from icswire.server.core.model.names import check_name, name_key
from icswire.server.core.model.tables import FICS_TYPES
from icswire.server.core.model.titles import ADMIN_LIST
from icswire.server.core.render.batch import Batch, Data, Datagram, lines
from icswire.server.core.render.presence import ratstr
from icswire.server.core.storage.store import SERVER_LISTS, UnknownUser

if TYPE_CHECKING:
    from icswire.server.core.dispatch.hub import Core
    from icswire.server.core.model.tables import Table
    from icswire.server.core.model.users import User

COMMANDS = CommandSet()
command = COMMANDS.command


def _find_list(ctx: Context, word: str, change: bool) -> str | None:
    """The list ``word`` names (a unique prefix will do), or None after FICS's words."""
    found = find_list(word, ctx.session.admin, change)
    if isinstance(found, ListRefused):
        ctx.reply(found.text)
        return None
    return found


def members(session: User, which: str) -> list[str]:
    """What is on ``session``'s list ``which`` (sorted as ``showlist`` shows it)."""
    if which == "channel":
        return [str(c) for c in sorted(session.channels)]
    if which == "notify":
        return sorted(session.notify.values(), key=str.lower)
    if which in PERSONAL_LISTS:
        return sorted(session.listed(which).values(), key=str.lower)
    return []


def columns(items: Sequence[str], width: int, space: int = 2) -> list[str]:
    """FICS's ``multicol``: the items down then across, as many columns as fit ``width``."""
    if not items:
        return [""]
    widest = max(len(item) for item in items) + space
    per_line = max(1, width // widest)
    count = -(-len(items) // per_line)
    rows = []
    for first in range(count):
        row = items[first::count][:per_line]
        rows.append("".join(item.ljust(widest) for item in row).rstrip())
    return rows


# -- addlist, sublist --------------------------------------------------------------------------


@command("addlist", CN.CN_PLUS, "addlist <list> <name>")
async def addlist(ctx: Context, args: str) -> None:
    await _change(ctx, args, add=True)


@command("sublist", CN.CN_MINUS, "sublist <list> <name>")
async def sublist(ctx: Context, args: str) -> None:
    await _change(ctx, args, add=False)


async def _change(ctx: Context, args: str, add: bool) -> None:
    word, item = first_word(args)
    if not word or not item or len(item.split()) > 1:
        ctx.reply(f"Usage: {ctx.command} <list> <name>")
        return
    which = _find_list(ctx, word, change=True)
    if which is None:
        return
    if which == "channel":
        _change_channel(ctx, item, add)
    elif which == "ban":
        await _change_ban(ctx, item, add)
    elif which in KEPT_LISTS:
        await _change_title(ctx, which, item, add)
    else:
        await _change_names(ctx, which, item, add)


@command("toggle", CN.CN_PLUS, "toggle <list> <name>")
async def toggle(ctx: Context, args: str) -> None:
    """lasker's ``com_togglelist``: ``sublist`` when the name is on the list, else
    ``addlist``."""
    word, item = first_word(args)
    if not word or not item or len(item.split()) > 1:
        ctx.reply("Usage: toggle <list> <name>")
        return
    prefix = word.lower()
    if prefix not in ALIASES and not any(name.startswith(prefix) for name in ALL_LISTS):
        ctx.reply(f"'{word}' does not match any list name.")
        return
    which = _find_list(ctx, word, change=True)
    if which is None:
        return
    listed = await _on_list(ctx, which, item)
    await _change(ctx, f"{which} {item}", add=not listed)


async def _on_list(ctx: Context, which: str, item: str) -> bool:
    """Is ``item`` on the list ``which`` (the user's own, or the server's)?"""
    session = ctx.session
    if which == "channel":
        return parse_number(item) in session.channels
    if which == "notify":
        return name_key(item) in session.notify
    if which in PERSONAL_LISTS:
        return name_key(item) in session.listed(which)
    if which == "ban":
        bans = await asyncio.to_thread(ctx.store.list_bans)
        return any(name_key(ban.name) == name_key(item) for ban in bans)
    if which == ADMIN_LIST:
        names = await asyncio.to_thread(ctx.store.list_admins)
    else:
        names = await asyncio.to_thread(ctx.store.server_list, which)
    return name_key(item) in {name_key(name) for name in names}


def _full(ctx: Context, which: str, size: int) -> bool:
    """Is the user's list ``which`` of ``size`` entries full? Then FICS's words are said."""
    cap = ctx.core.limits.max_list
    if 0 < cap <= size:
        ctx.reply(f"Sorry, your {which} list is full.")
        return True
    return False


async def _player_name(ctx: Context, item: str) -> str | None:
    """The player ``item`` names (online, or registered), with its case; None after FICS's
    words when there is none."""
    online = ctx.world.online.get(name_key(item))
    if online is not None:
        return online.name
    found = await asyncio.to_thread(ctx.store.registered_name, item)
    if found is None:
        ctx.reply(f'There is no player matching the name "{item}".')
    return found


async def _change_ban(ctx: Context, name: str, add: bool) -> None:
    """The server's ban list (administrators only): a name on it may not log in."""
    if check_name(name) is not None:
        ctx.reply(f'"{name}" is not a valid handle.')
    elif add and name_key(name) == name_key(ctx.session.name):
        ctx.reply("You cannot ban yourself.")
    elif add and not await asyncio.to_thread(ctx.store.ban, name, ctx.session.name):
        ctx.reply(f"[{name}] is already on the ban list.")
    elif not add and not await asyncio.to_thread(ctx.store.unban, name):
        ctx.reply(f"[{name}] is not in the ban list.")
    else:
        ctx.reply(f"[{name}] {'added to' if add else 'removed from'} the ban list.")


async def _change_title(ctx: Context, which: str, item: str, add: bool) -> None:
    """A server list or the administrator flag (administrators only): a registered name
    on it holds its title; one online holds it at once and is told so (lasker)."""
    if check_name(item) is not None:
        ctx.reply(f'"{item}" is not a valid handle.')
        return
    online = ctx.world.online.get(name_key(item))
    if online is not None and not online.registered:
        ctx.reply(f"Only registered players can be on the {which} list.")
        return
    name = online.name if online else await asyncio.to_thread(ctx.store.registered_name, item)
    changed = False
    if name is not None:
        try:
            if which == ADMIN_LIST:
                changed = await asyncio.to_thread(ctx.store.set_admin, name, add)
            else:
                changed = await asyncio.to_thread(ctx.store.set_on_server_list, which, name, add)
        except UnknownUser:  # removed meanwhile
            name = None
    if name is None and add:
        ctx.reply(f'There is no player matching the name "{item}".')
    elif not changed and add:
        ctx.reply(f"[{name}] is already on the {which} list.")
    elif not changed:
        ctx.reply(f"[{name or item}] is not in the {which} list.")
    else:
        done = "added to" if add else "removed from"
        ctx.reply(f"[{name}] {done} the {which} list.")
        if online is not None:
            _retitle(ctx, online, which, add)
            if online is not ctx.session:
                told = f"You have been {done} the {which} list by {ctx.session.name}."
                ctx.batch.add(online, lines(told))


def _retitle(ctx: Context, player: User, which: str, add: bool) -> None:
    """``player``, online, is on the list ``which`` now (or off it): its titles change."""
    if which == ADMIN_LIST:
        player.admin = add
    elif add:
        player.title_lists |= {which}
    else:
        player.title_lists -= {which}
    ctx.world.titles_changed(player, ctx.batch)


def _change_channel(ctx: Context, item: str, add: bool) -> None:
    session = ctx.session
    channel = parse_number(item)
    if channel is None or channel not in CHANNELS:
        ctx.reply(f"The channel must be a number from {CHANNELS.start} to {CHANNELS.stop - 1}.")
        return
    if add and channel in session.channels:
        ctx.reply(f"[{channel}] is already on your channel list.")
    elif add and _full(ctx, "channel", len(session.channels)):
        return
    elif not add and channel not in session.channels:
        ctx.reply(f"[{channel}] is not in your channel list.")
    elif add:
        ctx.world.join(session, channel, ctx.batch)
        ctx.reply(f"[{channel}] added to your channel list.")
        ctx.save("add_channel", channel)
    else:
        ctx.world.leave(session, channel, ctx.batch)
        ctx.reply(f"[{channel}] removed from your channel list.")
        ctx.save("remove_channel", channel)


async def _change_names(ctx: Context, which: str, item: str, add: bool) -> None:
    session = ctx.session
    if check_name(item) is not None:
        ctx.reply(f'"{item}" is not a valid handle.')
        return
    listed = session.notify if which == "notify" else session.lists.setdefault(which, {})
    key = name_key(item)
    if add and key in listed:
        ctx.reply(f"[{listed[key]}] is already on your {which} list.")
        return
    if not add and key not in listed:
        online = ctx.world.online.get(key)
        ctx.reply(f"[{online.name if online else item}] is not in your {which} list.")
        return
    if add:
        name = await _player_name(ctx, item)
        if name is None or _full(ctx, which, len(listed)):
            return
        listed[key] = name
        ctx.reply(f"[{name}] added to your {which} list.")
    else:
        name = listed.pop(key)
        ctx.reply(f"[{name}] removed from your {which} list.")
    if which == "notify":
        ctx.batch.add(session, Datagram(dg.MyNotifyList(name, add)))
        ctx.save("add_notify" if add else "remove_notify", name)
    else:
        ctx.save("add_to_list" if add else "remove_from_list", which, name)


# -- showlist, znotify -------------------------------------------------------------------------


@command("showlist", CN.CN_LIST, "showlist [list]")
async def showlist(ctx: Context, args: str) -> None:
    word = args.strip()
    if not word:
        shown = [f"{name:<20} is PUBLIC" for name in PUBLIC_LISTS]
        shown += [f"{name:<20} is PERSONAL" for name in PERSONAL_LISTS]
        ctx.reply("Lists:", "", *shown)
        return
    which = _find_list(ctx, word, change=False)
    if which is None:
        return
    if which in SERVER_LISTS:
        items = await asyncio.to_thread(ctx.store.server_list, which)
    elif which == ADMIN_LIST:
        items = await asyncio.to_thread(ctx.store.list_admins)
    elif which == "ban":
        items = [ban.name for ban in await asyncio.to_thread(ctx.store.list_bans)]
    else:
        items = members(ctx.session, which)
    noun = "channels" if which == "channel" else "names"
    head = f"-- {which} list: {len(items)} {noun} --"
    if DG.STRINGLIST_BEGIN in ctx.session.level2:
        ctx.batch.add(ctx.session, StringList(head, tuple(items)))
    else:
        ctx.page(head, *columns(items, ctx.session.variables["width"]))
    ctx.batch.add(ctx.session, Datagram(dg.List(which, " ", tuple(items))))


@dataclass(frozen=True, eq=False)
class StringList(Data):
    """DG_STRINGLIST_BEGIN (79) with the count and ``description``, then one
    DG_STRINGLIST_ITEM (80) per item: for a receiver with 79 on, the items with it (the
    spec counts them after the begin; 80 is no setting of its own)."""

    description: str
    items: tuple[str, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "datagram_kinds", frozenset({DG.STRINGLIST_BEGIN}))

    def datagrams(self, receiver: User) -> Iterable[Any]:
        if DG.STRINGLIST_BEGIN not in receiver.level2:
            return ()
        begin = dg.StringlistBegin(len(self.items), self.description)
        return (begin, *(dg.StringlistItem(item) for item in self.items))


@command("znotify", CN.CN_ZNOTL, "znotify")
async def znotify(ctx: Context, args: str) -> None:
    session, world = ctx.session, ctx.world
    mine = sorted(
        (s.name for s in world.others(session) if name_key(s.name) in session.notify),
        key=str.lower,
    )
    theirs = sorted((s.name for s in world.notify_watchers(session)), key=str.lower)
    text = []
    if mine:
        text += ["Present company on your notify list:", "  " + "".join(f" {n}" for n in mine)]
    else:
        text.append("No one from your notify list is logged on.")
    if theirs:
        text += [
            "The following players have you on their notify list:",
            "  " + "".join(f" {n}" for n in theirs),
        ]
    else:
        text.append("No one logged in has you on their notify list.")
    ctx.reply(*text)


# -- game notifications ------------------------------------------------------------------------


def game_started(core: Core, table: Table, batch: Batch) -> None:
    """FICS's ``Game notification:`` line to whoever has a player of a new game on their
    gnotify list (with DG_SOUND's SOUND_GNOTIFY for those who have it on)."""
    if table.examined:
        return
    seats = table.seats()
    keys = {name_key(s.name) for s in seats}
    online = core.world.online.values()
    told = [s for s in online if s not in seats and keys & s.listed("gnotify").keys()]
    if not told or len(seats) != 2:
        return
    white, black = seats
    game = table.game_record()
    kind = table.rating_type
    words = f"{'rated' if game.rated else 'unrated'} {FICS_TYPES.get(kind, kind.lower())}"
    white_rating = ratstr(core.world.player(white), kind)
    black_rating = ratstr(core.world.player(black), kind)
    line = (
        f"Game notification: {white.name} ({white_rating}) vs. {black.name}"
        f" ({black_rating}) {words} {game.white_initial} {game.white_increment}:"
        f" Game {table.number}"
    )
    batch.add_all(told, lines(line))
    batch.add_all(told, Datagram(dg.Sound(Sound.GNOTIFY)))


def install(core: Core) -> None:
    core.registry.add_commands(COMMANDS)
    core.registry.game_started.append(lambda table, batch: game_started(core, table, batch))
