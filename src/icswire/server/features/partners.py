"""Bughouse partnerships: ``partner``, ``ptell`` and ``prefresh``.

``partner NAME`` offers to be NAME's bughouse partner (FICS help ``partner``): the offer is
one of the numbered offers (``<pf>``/``<pt>``, kind ``partner``), so ``accept N``,
``decline N`` and ``withdraw N`` take it as they take a challenge, and ``pending`` lists
it; ``partner NAME`` to
someone who offered first accepts. ``partner`` alone ends the partnership. As on FICS's
bughouse server, one offers only to a player with ``bugopen`` on ("NAME is not open for
bughouse.") and is set open by offering; ``set bugopen 0`` ends the partnership and
takes back the partnership offers. A player has
one partner at a time, and a partnership ends when either partner leaves. Forming and
ending send DG_PARTNERSHIP (44: "name name forming") to both partners; an offer goes with
DG_SOUND's SOUND_OFFER (53).

``ptell TEXT`` tells the partner: ``NAME (your partner) tells you: TEXT``, or
DG_PERSONAL_TELL with type 2 ("ptell (from bughouse partner)"), and
DG_PERSONAL_TELL_ECHO type 2 to the teller.

``prefresh`` (FICS help ``prefresh``) is ``refresh PARTNER``: the partner's board, as
lasker's com_prefresh runs it.

``bugwho [g][p][u]`` lists, as FICS's bughouse server does, the bughouse games in
progress (each game's two boards, as ``games`` shows them), the partnerships not playing
bughouse, and the players with ``bugopen`` on who have no partner (``who``'s columns).

For TDs and administrators (ICC's robot commands): ``qpartner A B`` makes A and B
partners (ending what partnerships they had), ``qimpart A`` ends A's partnership.
"""

from __future__ import annotations

import time
from functools import partial
from typing import TYPE_CHECKING

from icswire.protocol import datagrams as dg
from icswire.protocol.codes import Sound
from icswire.protocol.datagrams import DG
from icswire.protocol.level1 import CommandNumber as CN
from icswire.server.core.dispatch.hub import CommandSet, Context
from icswire.server.core.dispatch.named import player_here
from icswire.server.core.events.presence import PartnershipChanged
from icswire.server.core.events.talk import PTELL, Speaker, Told
from icswire.server.core.model.names import name_key
from icswire.server.core.model.offers import Offers
from icswire.server.core.model.partners import Partners
from icswire.server.core.render.batch import Batch, Datagram, lines
from icswire.server.core.render.people import columns, ratstr, status_symbol

if TYPE_CHECKING:
    from icswire.server.core.dispatch.hub import Core
    from icswire.server.core.model.users import User

__all__ = ["install"]

COMMANDS = CommandSet()
command = COMMANDS.command


def _state(core: Core) -> Partners:
    return core.state(Partners)


def _announce(core: Core, one: User, other: User, forming: bool, batch: Batch) -> None:
    """DG_PARTNERSHIP to both partners."""
    for session in (one, other):
        if DG.PARTNERSHIP in session.level2:
            batch.add(session, PartnershipChanged(one.name, other.name, forming))


def _close(core: Core, key: tuple[User, User], batch: Batch) -> None:
    offer = _state(core).offers.pop(key, None)
    core.state(Offers).close(offer, batch)


def _close_all(core: Core, session: User, batch: Batch) -> None:
    """Every partnership offer made to or by ``session`` goes."""
    for key in [k for k in _state(core).offers if session in k]:
        _close(core, key, batch)


def _form(ctx: Context, sender: User, receiver: User) -> None:
    """``receiver`` accepts ``sender``'s offer."""
    core, batch = ctx.core, ctx.batch
    state = _state(core)
    if receiver in state.partner or sender in state.partner:
        who = receiver if receiver in state.partner else sender
        _close(core, (sender, receiver), batch)
        ctx.reply(f"{who.name} already has a bughouse partner.")
        return
    _close_all(core, sender, batch)
    _close_all(core, receiver, batch)
    state.partner[sender], state.partner[receiver] = receiver, sender
    ctx.reply(f"You agree to be {sender.name}'s partner.")
    batch.add(sender, lines(f"{receiver.name} agrees to be your partner."))
    _announce(core, sender, receiver, True, batch)


def _dissolve(core: Core, session: User, batch: Batch, told: str) -> User | None:
    """End ``session``'s partnership: its partner hears ``told``; the partner or None."""
    state = _state(core)
    other = state.partner.pop(session, None)
    if other is None:
        return None
    state.partner.pop(other, None)
    batch.add(other, lines(told))
    _announce(core, session, other, False, batch)
    return other


async def _accept(sender: User, receiver: User, ctx: Context) -> None:
    _form(ctx, sender, receiver)


async def _decline(sender: User, receiver: User, ctx: Context) -> None:
    _close(ctx.core, (sender, receiver), ctx.batch)
    ctx.reply(f"You decline the partnership offer from {sender.name}.")
    ctx.batch.add(sender, lines(f"{receiver.name} declines your partnership offer."))


async def _withdraw(sender: User, receiver: User, ctx: Context) -> None:
    _close(ctx.core, (sender, receiver), ctx.batch)
    ctx.reply(f"You withdraw your partnership offer to {receiver.name}.")
    ctx.batch.add(receiver, lines(f"{sender.name} withdraws the partnership offer."))


def _open_for_bughouse(ctx: Context) -> None:
    """``set bugopen 1`` for one who offers a partnership, in FICS's words."""
    session = ctx.session
    session.set_variable("bugopen", 1)
    ctx.reply("Setting you open for bughouse.")
    ctx.batch.add(session, ctx.world.my_variable(session, "bugopen"))
    ctx.save("save_setting", "bugopen", "1")


def bugopen_closed(core: Core, session: User, batch: Batch) -> None:
    """``set bugopen 0``: as FICS's bughouse server, the partnership ends and the
    partnership offers to and from ``session`` go, each side told."""
    state = _state(core)
    other = state.partner.get(session)
    if other is not None:
        batch.add(session, lines("You no longer have a bughouse partner."))
        batch.add(other, lines("Your partner has become unavailable for bughouse."))
        _dissolve(core, session, batch, "Your partner has ended partnership.")
        batch.add(other, lines("You no longer have a bughouse partner."))
    for sender, receiver in [k for k in state.offers if session in k]:
        _close(core, (sender, receiver), batch)
        if sender is session:
            batch.add(session, lines(f"Partnership offer to {receiver.name} withdrawn."))
            batch.add(
                receiver,
                lines(
                    f"{session.name}, who was offering a partnership with you, has become"
                    " unavailable for bughouse.",
                    f"Partnership offer from {session.name} removed.",
                ),
            )
        else:
            batch.add(session, lines(f"Partnership offer from {sender.name} removed."))
            batch.add(
                sender,
                lines(
                    f"{session.name}, whom you were offering a partnership with, has become"
                    " unavailable for bughouse.",
                    f"Partnership offer to {session.name} withdrawn.",
                ),
            )


@command("partner", CN.CN_PARTNER, "partner [name]", bare_cn=CN.CN_PARTNER0)
async def partner(ctx: Context, args: str) -> None:
    core, session, batch = ctx.core, ctx.session, ctx.batch
    state = _state(core)
    name = args.strip()
    if not name:
        other = _dissolve(core, session, batch, f"{session.name} has ended your partnership.")
        if other is None:
            ctx.reply("You do not have a bughouse partner.")
        else:
            ctx.reply(f"You no longer have a bughouse partner ({other.name}).")
        return
    receiver = ctx.world.find(name)
    if receiver is None:
        ctx.reply(f'No user named "{name.split()[0][:20]}" is logged in.')
        return
    if name_key(receiver.name) == name_key(session.name):
        ctx.reply("You can't be your own bughouse partner.")
        return
    if state.partner.get(session) is receiver:
        ctx.reply(f"You are already {receiver.name}'s bughouse partner.")
        return
    if session in state.partner:
        ctx.reply(f"You already have a bughouse partner: {state.partner[session].name}.")
        return
    if receiver in state.partner:
        ctx.reply(f"{receiver.name} already has a bughouse partner.")
        return
    if not receiver.variables["bugopen"]:
        ctx.reply(f"{receiver.name} is not open for bughouse.")
        return
    if not session.variables["bugopen"]:  # FICS's bughouse server sets the offerer open
        _open_for_bughouse(ctx)
    if (receiver, session) in state.offers:  # an offer both ways: a partnership
        _form(ctx, receiver, session)
        return
    if (session, receiver) in state.offers:
        ctx.reply(f"You are already offering to be {receiver.name}'s partner.")
        return
    state.offers[session, receiver] = core.state(Offers).open(
        "partner",
        session,
        receiver,
        batch,
        words="a partnership",  # pending: "Alpha is offering a partnership."
        accept=partial(_accept, session, receiver),
        decline=partial(_decline, session, receiver),
        withdraw=partial(_withdraw, session, receiver),
    )
    ctx.reply(f"Making a partnership offer to {receiver.name}.")
    batch.add(receiver, Datagram(dg.Sound(Sound.OFFER)))  # DG_SOUND: an offer
    batch.add(
        receiver,
        lines(
            f"{session.name} offers to be your bughouse partner.",
            f'Type "partner {session.name}" or "accept" to accept.',
        ),
    )


@command("ptell", CN.CN_PTELL, "ptell <message>")
async def ptell(ctx: Context, args: str) -> None:
    session, text = ctx.session, args.strip()
    if not text:
        ctx.reply("Usage: ptell <message>")
        return
    receiver = _state(ctx.core).partner.get(session)
    if receiver is None:
        ctx.reply("You do not have a partner at present.")
        return
    if ctx.too_fast("tell"):
        return
    told = Told(Speaker.of(session), receiver.name, PTELL, text)
    ctx.batch.add(receiver, told)
    ctx.reply(f"(told {receiver.name})")
    ctx.batch.add(session, told)


@command("prefresh", CN.SCN_MISCELLANEOUS, "prefresh")
async def prefresh(ctx: Context, args: str) -> None:
    """The board of the partner's game, as ``refresh PARTNER`` shows it."""
    other = _state(ctx.core).partner.get(ctx.session)
    if other is None:
        ctx.reply("You do not have a partner.")
        return
    await ctx.run("refresh", other.name)


# -- bugwho ---------------------------------------------------------------------------------


def _count(number: int, word: str) -> str:
    return f" {number} {word}{'' if number == 1 else 's'} displayed."


def _bughouse_games(core: Core) -> list[str]:
    """The bughouse games in progress: each game's two boards, one after the other."""
    rows: list[str] = []
    seen: set[int] = set()
    games = 0
    for table in core.tables.all():
        other = table.partner_table
        if other is None or table.number in seen or table.examined:
            continue
        seen |= {table.number, other.number}
        games += 1
        rows += [table.listed().fics_row, other.listed().fics_row]
    return ["Bughouse games in progress", *rows, "", _count(games, "game"), ""]


def _entry(core: Core, player: User, now: float) -> str:
    """A player as ``who`` shows one: the bughouse rating, the status mark, the name and
    its titles."""
    playing = player in core.play.by_player
    mark = status_symbol(player, playing, now - player.last_input)
    return f"{ratstr(player, 'Bughouse')}{mark}{player.display_name}"


def _partnerships(core: Core, now: float) -> list[str]:
    """The partnerships not playing bughouse."""
    rows, seen = [], set()
    for one, other in _state(core).partner.items():
        if one in seen:
            continue
        seen |= {one, other}
        games = [core.play.by_player.get(p) for p in (one, other)]
        if any(g is not None and g.partner_table is not None for g in games):
            continue
        rows.append(f"{_entry(core, one, now)} / {_entry(core, other, now)}")
    return ["Partnerships not playing bughouse", *rows, "", _count(len(rows), "partnership"), ""]


def _unpartnered(core: Core, viewer: User, now: float) -> list[str]:
    """The players with ``bugopen`` on and no partner, in ``who``'s columns."""
    everyone = [p for p in core.world.online.values() if p.logged_in]
    partners = _state(core).partner
    chosen = sorted(
        (p for p in everyone if p.variables["bugopen"] and p not in partners),
        key=lambda p: (-(p.ratings.get("Bughouse", (0, 0))[0]), name_key(p.name)),
    )
    entries = [_entry(core, p, now) for p in chosen]
    return [
        "Unpartnered players with bugopen on",
        "",
        *columns(entries, viewer.variables["width"]),
        "",
        f" {len(chosen)} players displayed (of {len(everyone)})."
        " (*) indicates system administrator.",
    ]


@command("bugwho", CN.CN_BUGWHO, "bugwho [g][p][u]")
async def bugwho(ctx: Context, args: str) -> None:
    which = args.strip().lower() or "gpu"
    if any(c not in "gpu" for c in which):
        ctx.reply("Usage: bugwho [g][p][u]")
        return
    now = time.monotonic()
    shown: list[str] = []
    if "g" in which:
        shown += _bughouse_games(ctx.core)
    if "p" in which:
        shown += _partnerships(ctx.core, now)
    if "u" in which:
        shown += _unpartnered(ctx.core, ctx.session, now)
    while shown and not shown[-1]:
        shown.pop()
    ctx.page(*shown)


# -- for TDs ---------------------------------------------------------------------------------


def _td_players(ctx: Context, names: list[str], usage: str, count: int) -> list[User] | None:
    """The players online named for a TD's command; None after saying what is wrong."""
    if not ctx.session.is_td:
        ctx.reply(f"Only TDs and administrators may use {ctx.command}.")
        return None
    if len(names) != count:
        ctx.reply(f"Usage: {usage}")
        return None
    found = []
    for name in names:
        player = player_here(ctx, name)
        if player is None:
            return None
        found.append(player)
    return found


@command("qpartner", CN.CN_QPARTNER, "qpartner <name> <name>")
async def qpartner(ctx: Context, args: str) -> None:
    """Two players made partners by a TD, as if one had offered and the other agreed."""
    players = _td_players(ctx, args.split(), "qpartner <name> <name>", 2)
    if players is None:
        return
    one, other = players
    if one is other:
        ctx.reply("A player can't be his own bughouse partner.")
        return
    core, batch, state = ctx.core, ctx.batch, _state(ctx.core)
    if state.partner.get(one) is other:
        ctx.reply(f"{one.name} and {other.name} are partners already.")
        return
    for player in (one, other):
        _dissolve(core, player, batch, f"{ctx.session.name} has ended your partnership.")
        _close_all(core, player, batch)
    state.partner[one], state.partner[other] = other, one
    for player, partner_ in ((one, other), (other, one)):
        batch.add(player, lines(f"{ctx.session.name} has made you {partner_.name}'s partner."))
    _announce(core, one, other, True, batch)
    ctx.reply(f"{one.name} and {other.name} are partners now.")


@command("qimpart", CN.CN_QIMPART, "qimpart <name>")
async def qimpart(ctx: Context, args: str) -> None:
    """A player's partnership ended by a TD."""
    players = _td_players(ctx, args.split(), "qimpart <name>", 1)
    if players is None:
        return
    [player] = players
    told = f"{ctx.session.name} has ended your partnership."
    other = _dissolve(ctx.core, player, ctx.batch, told)
    if other is None:
        ctx.reply(f"{player.name} has no bughouse partner.")
        return
    ctx.batch.add(player, lines(told))
    ctx.reply(f"{player.name} and {other.name} are partners no more.")


def player_left(core: Core, session: User) -> None:
    """A player is gone: its partnership and partnership offers with it."""
    batch = Batch(CN.SCN_LOGOUT, None, issuer_name=session.name)
    _dissolve(core, session, batch, f"Your partner, {session.name}, has departed.")
    _close_all(core, session, batch)
    batch.flush()


def install(core: Core) -> None:
    """Partnerships on ``core``: ``partner``, ``ptell``, ``prefresh`` and the leaving
    hook."""
    core.registry.add_commands(COMMANDS)
    core.registry.left.append(lambda session: player_left(core, session))
    core.registry.variable_set.append(
        lambda session, name, value, batch, interface: (
            bugopen_closed(core, session, batch)
            if name == "bugopen" and not value and not interface
            else None
        )
    )
