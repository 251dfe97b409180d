"""Challenges (``match``, ``rematch``, ``set open 0``).

``match NAME [TIME INC] [rated|unrated] [white|black] [wild N]``: the challenger's
``time`` and ``inc`` variables when no time is given (``match NAME 5`` is 5 0), rated as
its ``rated`` variable says unless asked (unrated when either is a guest). A receiver
with ``ropen 0`` ignores requests rated otherwise than its ``rated``; one whose
``formula`` the request fails ignores it, and the challenger is shown the formula and
the value of each sub-formula it uses (FICS's ``com_match``). ``set open 0`` declines
and withdraws the player's challenges. ``match NAME`` without terms, with an adjourned
game between the two, offers to resume it (see ``resume``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from icswire.protocol.level1 import CommandNumber as CN
from icswire.server.core.dispatch.hub import CommandSet, Context, Route
from icswire.server.core.model.fitting import Proposal, explain, fits
from icswire.server.core.model.names import name_key
from icswire.server.core.model.tables import Terms
from icswire.server.core.model.variables import SUBFORMULAS
from icswire.server.core.render.alerts import BELL, name_for
from icswire.server.core.render.batch import Batch, lines
from icswire.server.core.render.boards import BLACK
from icswire.server.features.pairing.offers import challengeable, issue_challenge
from icswire.server.features.pairing.removing import remove_challenge
from icswire.server.features.pairing.resume import adjourned_with, offer_resume
from icswire.server.features.pairing.shown import match_rating
from icswire.server.features.pairing.starting import rating_changes
from icswire.server.features.pairing.state import GUESTS_UNRATED, Pairing, bughouse_problem
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
command = COMMANDS.command


def closed(core: Core, session: User, batch: Batch) -> None:
    """``set open 0``: FICS declines the challenges to the player and withdraws its own."""
    state = core.state(Pairing)
    for challenge in state.challenges_of(session):
        if challenge.adjourned is not None:
            continue
        other = challenge.other(session)
        mine = challenge.challenger is session
        verb = "withdraws" if mine else "declines"
        batch.add(other, lines(f"{session.name} {verb} the match offer."))
        why = f"{session.name} {'withdrew' if mine else 'declined'} the challenge."
        remove_challenge(state, challenge, why, batch)


@command(
    "match",
    CN.CN_MATCH,
    "match NAME [TIME INC] [rated|unrated] [white|black] [wild N]",
    route=Route.TO_A_PLAYER,
    bare_cn=CN.CN_MATCH0,
)
async def match(ctx: Context, args: str) -> None:
    session = ctx.session
    words = args.split()
    if not words:
        ctx.reply("Usage: match NAME [TIME INC] [rated|unrated] [white|black] [wild N]")
        return
    receiver = challengeable(ctx, words[0])
    if receiver is None:
        return
    if len(words) == 1:
        record = await adjourned_with(ctx, receiver)
        if record is not None:
            await offer_resume(ctx, receiver, record)
            return
    asked = parse_options(words[1:], seek=False, dialect=dialect_of(ctx.session))
    if isinstance(asked, str):
        ctx.reply(asked)
        return
    if session.talks_icc and asked.color is BLACK and len(asked.times) > 2:
        # ICC's match (DG_MATCH): the first time control is the challenger's own, the
        # second the receiver's; FICS's (lasker's): White's, then Black's
        times = asked.times
        asked.times = [times[2], times[3] if len(times) > 3 else times[1], times[0], times[1]]
    terms = checked_terms(asked, session, receiver)
    if isinstance(terms, str):
        ctx.reply(terms)
        return
    note = unrated_note(asked, session, terms)
    if note is not None:
        ctx.reply(note)
    if terms.rated and not session.registered:
        ctx.reply(GUESTS_UNRATED)
        return
    if terms.rated and not receiver.registered:
        ctx.reply(f"{receiver.name} is unregistered and cannot play rated games.")
        return
    problem = bughouse_problem(ctx.core, terms, session, receiver)
    if problem is not None:
        ctx.reply(problem)
        return
    if not await _receiver_takes(ctx, receiver, terms, asked.color):
        return
    await issue_challenge(ctx, receiver, terms, asked.color)


async def _receiver_takes(ctx: Context, receiver: User, terms: Terms, color: bool | None) -> bool:
    """FICS's ``com_match`` checks of the receiver's ``ropen`` and ``formula``; False
    after telling both why the request is ignored."""
    session, batch = ctx.session, ctx.batch
    theirs = ctx.core.state(Pairing).offer(receiver, session)
    wanted = bool(receiver.variables["rated"])
    if theirs is None and not receiver.variables["ropen"] and terms.rated != wanted:
        ctx.reply(f"{receiver.name} only wants to play {'rated' if wanted else 'unrated'} games.")
        ignoring = name_for(receiver, "Ignoring")
        said = f"{ignoring} {'rated' if terms.rated else 'unrated'} match request from"
        batch.add(receiver, lines(f"{said} {session.name}."))
        return False
    mine = None if color is None else not color
    offer = Proposal(
        receiver, session, terms, mine, await _assessment(ctx.core, receiver, session, terms)
    )
    if fits(offer):
        return True
    ctx.reply(
        f"Match request does not fit formula for {receiver.name}:",
        f"{receiver.name}'s formula: {receiver.variables['formula']}",
        *explain(offer),
    )
    kind = terms.rating_type
    batch.add(receiver, BELL)
    batch.add(
        receiver,
        lines(
            f"{name_for(receiver, 'Ignoring')} (formula): {session.name}"
            f" ({match_rating(session, kind)}) {receiver.name} ({match_rating(receiver, kind)})"
            f" {terms.described}."
        ),
    )
    return False


async def _assessment(core: Core, owner: User, other: User, terms: Terms) -> tuple[int, int, int]:
    """``owner``'s Glicko-2 change for a loss, draw and win of a rated game with
    ``other`` (the formula's assessloss, assessdraw, assesswin), read only when its
    formula names them."""
    texts = [owner.variables["formula"], *(owner.variables[n] for n in SUBFORMULAS)]
    if not (terms.rated and owner.registered and other.registered):
        return (0, 0, 0)
    if not any("assess" in text.lower() for text in texts):
        return (0, 0, 0)
    return (await rating_changes(core, (owner, other), terms.rating_type))[0]


@command("rematch", CN.CN_REMATCH, "rematch")
async def rematch(ctx: Context, args: str) -> None:
    """A match offer to the last opponent with the last game's terms, each player taking
    the other colour (FICS help ``rematch``)."""
    state = ctx.core.state(Pairing)
    key = name_key(ctx.session.name)
    last = state.last_game.get(key)
    if last is None:
        ctx.reply("You have no previous opponent to play again.")
        return
    name, terms = last
    if name_key(name) not in ctx.world.online:
        ctx.reply(f"Your last opponent, {name}, is not logged in.")
        return
    receiver = challengeable(ctx, name)
    if receiver is None:
        return
    color = state.last_color.get(key)
    await issue_challenge(ctx, receiver, terms, None if color is None else not color)
