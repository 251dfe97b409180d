"""Adjourned games (``resume``, ``match NAME``).

``resume [NAME]`` or ``match NAME`` without terms offers to resume an adjourned game with
an online opponent: a challenge marked adjourned (DG_MATCH's is-adjourned 1, the text
ending ``(adjourned).``). It starts when the opponent accepts it or types ``resume`` too;
the game goes on from its last stored move with its stored clocks.
"""

from __future__ import annotations

import asyncio
from dataclasses import replace
from typing import TYPE_CHECKING

from icswire.protocol.level1 import CommandNumber as CN
from icswire.server.core.dispatch.hub import CommandSet, Context, Route
from icswire.server.core.model.names import name_key
from icswire.server.core.model.tables import Terms
from icswire.server.core.render.boards import BLACK, WHITE
from icswire.server.core.storage.records import GameRecord
from icswire.server.features.pairing.offers import challengeable, issue_challenge, take_challenge
from icswire.server.features.pairing.state import Pairing, same_player

if TYPE_CHECKING:
    from icswire.server.core.model.users import User


COMMANDS = CommandSet()
command = COMMANDS.command


async def _adjourned(ctx: Context) -> list[GameRecord]:
    """The adjourned games of the issuer (after the queued saves are written)."""
    if not ctx.session.registered:
        return []
    await ctx.core.play.flush()
    found: list[GameRecord] = await asyncio.to_thread(ctx.store.adjourned, ctx.session.name)
    return found


def _opponent_name(record: GameRecord, session: User) -> str:
    return record.black if name_key(record.white) == name_key(session.name) else record.white


async def adjourned_with(ctx: Context, other: User) -> GameRecord | None:
    if not other.registered:
        return None
    for record in await _adjourned(ctx):
        if name_key(_opponent_name(record, ctx.session)) == name_key(other.name):
            return record
    return None


def _record_terms(record: GameRecord) -> Terms:
    variant, kind = record.game_variant, record.rating_type
    black = (
        None
        if record.black_initial is None or record.black_increment is None
        else (record.black_initial, record.black_increment)
    )
    terms = Terms.of(variant, record.rated, record.initial, record.increment, kind, black)
    # a tournament game resumed is still the event's (DG_TOURNEY_GAME_STARTED, PGN Event)
    return replace(terms, event=record.event) if record.event else terms


async def offer_resume(ctx: Context, other: User, record: GameRecord) -> None:
    """Ask ``other`` to resume ``record`` (or start it, if they asked already)."""
    state = ctx.core.state(Pairing)
    theirs = state.offer(other, ctx.session)
    if theirs is not None and theirs.adjourned is not None and theirs.adjourned.id == record.id:
        await take_challenge(ctx, theirs)
        return
    color = WHITE if name_key(record.white) == name_key(ctx.session.name) else BLACK
    await issue_challenge(ctx, other, _record_terms(record), color, adjourned=record)


@command("resume", CN.CN_RESUME, "resume [name]", route=Route.TO_A_PLAYER)
async def resume(ctx: Context, args: str) -> None:
    session = ctx.session
    name = args.strip()
    if not session.registered:
        ctx.reply("Only registered players have adjourned games.")
        return
    records = await _adjourned(ctx)
    if not records:
        ctx.reply("You have no adjourned games.")
        return
    if name:
        other = challengeable(ctx, name)
        if other is None:
            return
        record = next(
            (r for r in records if name_key(_opponent_name(r, session)) == name_key(other.name)),
            None,
        )
        if record is None or not other.registered:
            ctx.reply(f"You have no adjourned game with {other.name}.")
            return
        await offer_resume(ctx, other, record)
        return
    state = ctx.core.state(Pairing)
    for challenge in state.challenges:
        if challenge.receiver is session and challenge.adjourned is not None:
            await take_challenge(ctx, challenge)
            return
    for record in records:
        other = ctx.world.find(_opponent_name(record, session))
        if other is not None and other.registered and not same_player(other, session):
            if challengeable(ctx, other.name) is None:
                return
            await offer_resume(ctx, other, record)
            return
    ctx.reply("None of your adjourned opponents is logged in.")
