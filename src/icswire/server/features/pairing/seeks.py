"""Seeks (``seek``, ``unseek``, ``sought``, ``play``).

A seek is an open offer to anybody: ``seek TIME INC [rated|unrated] [white|black]
[wild N] [MIN-MAX] [manual|auto] [formula]``. Without TIME the seeker's ``time`` and ``inc``
variables give the time control (FICS's 2 12); INC defaults to 0; a seek is rated as the
seeker's ``rated`` variable says (unrated for a guest), for either colour, wild 0, for
ratings 0-9999 and automatic unless it says otherwise. Seeks are numbered 1..1999
(DG_SEEK, 50); a player keeps at most :data:`~.state.MAX_SEEKS` of them, and seeking again with
the same terms replaces the old ad (DG_SEEK_REMOVED reason 4). One address posts at most
:attr:`~icswire.server.core.net.limits.Limits.seeks_per_address` (10) at once, so that many
guests from one machine cannot fill the table for everybody else. A computer (the server's
computer list) keeps up to :data:`~.state.MAX_COMPUTER_SEEKS`, posted at once (no rate), and its
seeks count against no address: the server's own connect from the server's. A new automatic seek
that matches an automatic seek already posted (same time, increment, rated, wild; colours
that fit together; each player within the other's rating range) starts the game at once
and is never posted.

Those who fit a seek (rated needs a registered player, and a rating in the range) are
told of it: DG_SEEK if they have it on (the seeker too), else the FICS text
``fred (++++) seeking 3 0 unrated blitz ("play 12" to respond)`` (not while playing);
``iset seekinfo 1`` adds FICS's ``<s>`` line and its removal ``<sr>``. DG_SEEK_REMOVED
gives the reason: 1 the seeker left, 2 the seeker is playing (every seek of both players
goes when a game starts), 3 ``unseek``, 4 replaced. A seek is shown (in every form, and
in ``sought``; ``sought all`` shows them all) only to those whose ``formula`` it fits;
with the formula flag (``f``) the seeker's formula must accept them too, and ``play``
says so when it does not (``Match request does not fit formula for ...``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from icswire.boards.variants import BUGHOUSE
from icswire.protocol import ivars
from icswire.protocol.datagrams import DG
from icswire.protocol.level1 import CommandNumber as CN
from icswire.server.core.dispatch.hub import CommandSet, Context, Route
from icswire.server.core.dispatch.numbers import parse_number
from icswire.server.core.events.base import Event
from icswire.server.core.events.pairing import SeekListed, SeekPosted
from icswire.server.core.model.fitting import Proposal, explain, fits
from icswire.server.core.model.partners import partner_of
from icswire.server.core.model.variables import Value
from icswire.server.core.render.batch import Batch, Message, lines
from icswire.server.core.render.pairing import sees_own
from icswire.server.core.storage.store import StoreUnavailable
from icswire.server.features.pairing.offers import issue_challenge
from icswire.server.features.pairing.removing import remove_seek, remove_seeks
from icswire.server.features.pairing.shown import (
    icc_sought_row,
    may_answer,
    pairs_with,
    seek_ad,
    sought_row,
    visible,
)
from icswire.server.features.pairing.starting import colors, start_game
from icswire.server.features.pairing.state import (
    GUESTS_UNRATED,
    SEEK_REMOVED,
    SEEK_REPLACED,
    Pairing,
    Seek,
    bughouse_problem,
    is_playing,
    same_player,
    seek_cap,
)
from icswire.server.features.pairing.terms import (
    checked_terms,
    dialect_of,
    parse_options,
    unrated_note,
)

if TYPE_CHECKING:
    from icswire.server.core.dispatch.hub import Core
    from icswire.server.core.model.users import User


COMMANDS = CommandSet()

NOT_POSTED = (
    "Your seek could not be posted: the servers of this cluster cannot reach each other. "
    "Try again in a moment."
)
command = COMMANDS.command


@command("seek", CN.CN_SEEKING, "seek TIME INC [rated|unrated] [white|black] [wild N] [MIN-MAX]")
async def seek_(ctx: Context, args: str) -> None:
    core, session = ctx.core, ctx.session
    state = core.state(Pairing)
    asked = parse_options(args.split(), seek=True, dialect=dialect_of(session))
    if isinstance(asked, str):
        ctx.reply(asked)
        return
    terms = checked_terms(asked, session)
    if isinstance(terms, str):
        ctx.reply(terms)
        return
    note = unrated_note(asked, session, terms)
    if note is not None:
        ctx.reply(note)
    if terms.rated and not session.registered:
        ctx.reply(GUESTS_UNRATED)
        return
    if is_playing(state, core, session):
        ctx.reply("You cannot seek while you are playing a game.")
        return
    mine = partner_of(core, session)
    if terms.game_variant is BUGHOUSE and (mine is None or is_playing(state, core, mine)):
        ctx.reply("You need a partner who is not playing to seek bughouse.")
        return
    if not session.is_computer and ctx.too_fast("seek"):  # a computer posts its seeks at once
        return
    new = Seek(0, session, terms, asked.color, asked.low, asked.high, asked.manual, asked.formula)
    replaced = [s for s in state.seeks_of(session) if s.same_ad(new)]
    cap = seek_cap(session)
    if not replaced and len(state.seeks_of(session)) >= cap:
        ctx.reply(f"You can only have {cap} active seeks.")
        return
    for old in sorted(state.seeks.values(), key=lambda s: s.index):
        if (
            pairs_with(old, new)
            and not is_playing(state, core, old.seeker)
            and bughouse_problem(core, terms, session, old.seeker) is None
        ):
            # FICS's words, which PyChess reads (then the Creating lines)
            ctx.reply(f"Your seek matches one already posted by {old.seeker.name}.")
            ctx.batch.add(
                old.seeker,
                lines(f"Your seek {old.index} matches one posted by {session.name}."),
            )
            white, black = colors(state, old.seeker, old.color, session, new.color)
            await start_game(core, ctx.batch, white, black, terms)
            return
    cap = core.limits.seeks_per_address
    if (
        cap
        and not session.is_computer
        and len(state.seeks_from(session.host)) - len(replaced) >= cap
    ):
        ctx.reply(f"Sorry, there are already {cap} seeks from your address; try again later.")
        return
    for old in replaced:
        remove_seek(core, state, old, SEEK_REPLACED, ctx.batch)
    claims = core.seek_claims  # a failed claim counts the index as taken elsewhere
    while (index := state.free_index(claims.elsewhere)) is not None:
        try:
            if await claims.claim(index):
                break
        except StoreUnavailable:  # a cluster's node cut off from the others
            ctx.reply(NOT_POSTED)
            return
    if index is None:
        ctx.reply("Sorry, there are too many seeks posted; try again later.")
        return
    new.index = index
    state.seeks[index] = new
    ctx.reply(
        f"Your seek has been {'updated' if replaced else 'posted'} with index {index}.",
    )
    seen = _announce_seek(core, new, ctx.batch)
    ctx.reply(f"({seen} player(s) saw the seek.)")


def _announce_seek(core: Core, seek: Seek, batch: Batch) -> int:
    """DG_SEEK or the text to those who fit the seek and set ``seek``; ``<s>`` to those
    with ``iset seekinfo`` (``<sn>`` to the seeker with ``iset showownseek``); how many
    saw it."""
    ad = seek_ad(seek)
    posted, listed = SeekPosted(ad), SeekListed(ad)
    seen = 0
    playing = core.play.by_player
    for other in core.world.online.values():
        if other is seek.seeker:
            batch.add(other, posted)
            if sees_own(other):
                batch.add(other, listed)
            continue
        if not visible(seek, other):
            continue
        if may_answer(seek, other) and (
            DG.SEEK in other.level2 or (other not in playing and other.variables["seek"])
        ):
            batch.add(other, posted)
            seen += 1
        if other.ivariables["seekinfo"]:
            batch.add(other, listed)
    return seen


def seek_list(core: Core, session: User) -> list[Message | Event]:
    """``iset seekinfo 1``: ``<sc>``, then an ``<s>`` line for every seek (FICS help
    ``iv_seekinfo``; the seeker's own as ``<sn>`` with ``iset showownseek``)."""
    state = core.state(Pairing)
    shown: list[Message | Event] = [lines(ivars.format_seeks_cleared(ivars.SeeksCleared()))]
    for index in sorted(state.seeks):
        seek = state.seeks[index]
        if seek.seeker is not session:
            if visible(seek, session):
                shown.append(SeekListed(seek_ad(seek)))
        elif sees_own(session):
            shown.append(SeekListed(seek_ad(seek)))
    return shown


def variable_set(core: Core, session: User, name: str, value: Value, batch: Batch) -> None:
    """``iset seekinfo 1`` brings the seeks, ``iset pendinfo 1`` the pending offers."""
    if not value:
        return
    if name == "seekinfo":
        for message in seek_list(core, session):
            batch.add(session, message)
    elif name == "pendinfo":
        core.state(Pairing).offers.send_all(session, batch)


@command("unseek", CN.CN_UNSEEKING, "unseek [number]")
async def unseek(ctx: Context, args: str) -> None:
    state = ctx.core.state(Pairing)
    mine = state.seeks_of(ctx.session)
    word = args.strip()
    if word:
        index = parse_number(word)
        if index is None or index not in {s.index for s in mine}:
            ctx.reply(f"You have no seek number {word}.")
            return
        seek = state.seeks[index]
        remove_seeks(ctx.core, state, [seek], SEEK_REMOVED, ctx.batch)
        ctx.reply(f"Your seek {seek.index} has been removed.")
        return
    if not mine:
        ctx.reply("You have no active seeks.")
        return
    # FICS: the <sr> line, then the text PyChess reads after it
    remove_seeks(ctx.core, state, mine, SEEK_REMOVED, ctx.batch)
    ctx.reply("Your seeks have been removed.")


@command("sought", CN.CN_SOUGHT, "sought [all]")
async def sought(ctx: Context, args: str) -> None:
    state = ctx.core.state(Pairing)
    everything = args.strip().lower() == "all"
    shown = [
        state.seeks[i]
        for i in sorted(state.seeks)
        if everything
        or state.seeks[i].seeker is ctx.session
        or (may_answer(state.seeks[i], ctx.session) and visible(state.seeks[i], ctx.session))
    ]
    if ctx.session.talks_icc:
        count = f"{len(shown)} ad{'' if len(shown) == 1 else 's'} displayed."
        ctx.reply(*(icc_sought_row(s) for s in shown), count)
        return
    ctx.reply(*(sought_row(s, ctx.session) for s in shown), f"{len(shown)} ad(s) displayed.")


@command("play", CN.CN_PLAY, "play <number|name>", route=Route.TO_A_SEEK)
async def play(ctx: Context, args: str) -> None:
    core, session = ctx.core, ctx.session
    state = core.state(Pairing)
    word = args.strip()
    if not word:
        ctx.reply("Usage: play <number|name>")
        return
    index = parse_number(word)
    if index is not None:
        seek = state.seeks.get(index)
    else:
        seeker = ctx.world.find(word)
        found = state.seeks_of(seeker) if seeker is not None else []
        seek = min(found, key=lambda s: s.index) if found else None
    if seek is None:
        ctx.reply("That seek is not available.")
        return
    if same_player(seek.seeker, session):
        ctx.reply("You cannot respond to your own seek.")
        return
    if is_playing(state, core, session):
        ctx.reply("You are playing a game.")
        return
    if seek.terms.rated and not session.registered:
        ctx.reply(GUESTS_UNRATED)
        return
    if not may_answer(seek, session):
        ctx.reply("You do not fit the rating range of that seek.")
        return
    problem = bughouse_problem(core, seek.terms, session, seek.seeker)
    if problem is not None:
        ctx.reply(problem)
        return
    proposal = Proposal(seek.seeker, session, seek.terms, seek.color)
    if seek.formula and not fits(proposal):
        seeker = seek.seeker
        ctx.reply(
            f"Match request does not fit formula for {seeker.name}:",
            f"{seeker.name}'s formula: {seeker.variables['formula']}",
            *explain(proposal),
        )
        return
    if seek.manual:
        ctx.reply("Issuing match request since the seek was set to manual.")
        wants = None if seek.color is None else not seek.color
        await issue_challenge(ctx, seek.seeker, seek.terms, wants)
        return
    ctx.reply(f"You accept the seek of {seek.seeker.name}.")
    ctx.batch.add(seek.seeker, lines(f"{session.name} accepts your seek {seek.index}."))
    white, black = colors(state, seek.seeker, seek.color, session)
    await start_game(core, ctx.batch, white, black, seek.terms)
