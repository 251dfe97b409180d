"""A challenge as a pending offer, and the commands that answer every offer (``accept``,
``decline``, ``withdraw``, ``pending``: play's draw, abort, takeback... offers too).

The receiver of a challenge gets the line XBoard's zippy mode recognises, ``Challenge: A
(----) B (----) unrated blitz 5 0.`` (a rating is ``----`` when its player has none), and
the challenger ``Issuing: ...`` (each with FICS's ``--** NAME is a computer **--`` when the
other is one); both get DG_MATCH (29), whose assessment (loss, draw,
win: the Glicko-2 change of the DG's receiver, 0 0 0 for unrated games) is there only for
those with DG_MATCH_ASSESSMENT (85) on. A player has at most one challenge to another; a
new one replaces it. Challenging a player who already challenged you with the same terms
accepts that challenge; with other terms it is a counteroffer that replaces theirs. A
challenge goes (DG_MATCH_REMOVED, 30, with the reason, to both) when it is accepted,
declined, withdrawn or replaced, when either player leaves, and when either starts a
game.
"""

from __future__ import annotations

from dataclasses import replace
from functools import partial
from typing import TYPE_CHECKING

from icswire.protocol.level1 import CommandNumber as CN
from icswire.server.core.dispatch.hub import CommandSet, Context, Route
from icswire.server.core.dispatch.numbers import parse_number
from icswire.server.core.model.names import name_key
from icswire.server.core.model.offers import Offer, Offers
from icswire.server.core.model.tables import Terms
from icswire.server.core.render.batch import lines
from icswire.server.core.render.boards import WHITE
from icswire.server.core.render.pairing import computer_notice
from icswire.server.core.storage.records import GameRecord
from icswire.server.features.pairing.removing import remove_challenge
from icswire.server.features.pairing.shown import challenge_made, challenge_text
from icswire.server.features.pairing.starting import (
    assess_challenge,
    colors,
    resume_colors,
    start_game,
)
from icswire.server.features.pairing.state import (
    Challenge,
    Pairing,
    bughouse_problem,
    is_playing,
    same_player,
)

if TYPE_CHECKING:
    from icswire.server.core.model.users import User


COMMANDS = CommandSet()
command = COMMANDS.command


def challengeable(ctx: Context, name: str) -> User | None:
    """The online player ``name`` one may challenge, or None (after saying why)."""
    core, session = ctx.core, ctx.session
    state = core.state(Pairing)
    receiver: User | None = ctx.world.find(name)
    if receiver is None:
        ctx.reply(f'No user named "{name}" is logged in.')
        return None
    if same_player(receiver, session):
        ctx.reply("You can't match yourself.")
        return None
    if is_playing(state, core, session):
        ctx.reply("You are playing a game.")
        return None
    if is_playing(state, core, receiver):
        ctx.reply(f"{receiver.name} is playing a game.")
        return None
    if not receiver.variables["open"]:
        ctx.reply(f"{receiver.name} is not open to match requests.")
        return None
    if session.variables["tourney"] and not receiver.variables["tourney"]:  # lasker's com_match
        ctx.reply("You may only match players with their tournament variable set.")
        return None
    if receiver.variables["tourney"] and not session.variables["tourney"]:
        ctx.reply(f"{receiver.name} is in a tournament, and cannot accept other challenges.")
        return None
    if name_key(session.name) in receiver.listed("noplay"):  # FICS's matchproc.c
        ctx.reply(f"You are on {receiver.name}'s noplay list.")
        return None
    if receiver.censors(session):
        ctx.reply(f"{receiver.name} is censoring you.")
        return None
    return receiver


async def issue_challenge(
    ctx: Context,
    receiver: User,
    terms: Terms,
    color: bool | None,
    adjourned: GameRecord | None = None,
) -> None:
    """Issue a challenge, or accept or replace the one between the two players."""
    core, session, batch = ctx.core, ctx.session, ctx.batch
    state = core.state(Pairing)
    new = Challenge(session, receiver, terms, color, adjourned)
    theirs = state.offer(receiver, session)
    if theirs is not None:
        # a TD's event label (rmatch) is the challenge's own: the answer need not repeat it
        plain = replace(terms, event="", director="")
        fits = replace(theirs.terms, event="", director="") == plain and (
            color is None or theirs.color is None or theirs.color != color
        )
        same_game = (theirs.adjourned.id if theirs.adjourned else None) == (
            adjourned.id if adjourned else None
        )
        if fits and same_game:
            await take_challenge(ctx, theirs, color)
            return
    if ctx.too_fast("match"):
        return
    if theirs is not None:
        batch.add(
            receiver, lines(f"{session.name} declines your offer and proposes a counteroffer.")
        )
        ctx.reply(f"Declining the offer from {receiver.name} and proposing a counteroffer.")
        remove_challenge(state, theirs, f"{session.name} proposed different terms.", batch)
    mine = state.offer(session, receiver)
    if mine is not None:
        if mine.same_offer(new):
            ctx.reply(f"You are already offering an identical match to {receiver.name}.")
            return
        ctx.reply(f"Updating offer already made to {receiver.name}.")
        remove_challenge(state, mine, f"{session.name} updated the challenge.", batch)
    await assess_challenge(core, new)
    if (
        state.offer(session, receiver) is not None
        or state.offer(receiver, session) is not None
        or is_playing(state, core, session)
        or is_playing(state, core, receiver)
    ):
        ctx.reply("The challenge was not issued: things changed meanwhile.")
        return
    state.challenges.append(new)
    text = challenge_text(new)
    terms_text = text.removesuffix(".")
    new.offer = offer = state.offers.open(
        "match", session, receiver, batch, terms_text, words=f"a challenge: {terms_text}", owner=new
    )
    offer.accept = partial(_accept_challenge, new)
    offer.decline = partial(_refuse_challenge, new, False)
    offer.withdraw = partial(_refuse_challenge, new, True)
    made = challenge_made(new, new=True)
    batch.add(receiver, made)
    ctx.reply(
        f"Issuing: {challenge_text(new, session)}",
        *computer_notice(made.receiver, made.receiver_titles),
    )
    batch.add(session, made)


#: The kinds of offers ``accept``, ``decline`` and ``withdraw`` take as a word (FICS's
#: pending.c; ``accept t draw`` is PyChess's form).
OFFER_KINDS = frozenset(
    ("match", "draw", "abort", "adjourn", "takeback", "pause", "unpause", "switch", "partner")
)


#: FICS's words when there is no offer to act on.
_NONE = {
    "accept": "You have no pending offers to accept.",
    "decline": "You have no pending offers from other players.",
    "withdraw": "You have no pending offers to other players.",
}


def _chosen(ctx: Context, args: str, verb: str) -> list[Offer]:
    """The pending offers ``args`` names, to me (``accept``, ``decline``) or from me
    (``withdraw``): by the number ``<pf>`` and ``pending`` show, by kind (``draw``, ``t
    draw``), by the other player's name (a unique prefix), ``all`` of them (not for
    ``accept``), or the only one when ``args`` is empty. Empty after saying why."""
    offers = ctx.core.state(Offers)
    to_me = verb != "withdraw"
    mine = offers.to(ctx.session) if to_me else offers.sent_by(ctx.session)
    words = args.split()
    if words[:1] == ["t"] and len(words) > 1:
        words = words[1:]
    word = words[0].lower() if words else ""
    if not mine:
        ctx.reply(_NONE[verb])
        return []
    if not word:
        if len(mine) == 1:
            return mine
        if verb == "accept":
            first = "You have more than one offer to accept."
        else:
            first = "You have more than one pending offer."
        ctx.reply(first, f'Use "pending" to see them and "{verb} n" to choose which one.')
        return []
    number = parse_number(word)
    if number is not None:
        found = [o for o in mine if o.number == number]
        if not found:
            ctx.reply('Out of range. Use "pending" to see the list of offers.')
        return found
    if word == "all" and verb != "accept":
        return mine
    if word in OFFER_KINDS:
        found = [o for o in mine if o.kind == word]
        if not found:
            ctx.reply(f"There are no {word} offers to {verb}.")
        return found
    key = name_key(word)

    def other(offer: Offer) -> str:
        return name_key((offer.sender if to_me else offer.receiver).name)

    found = [o for o in mine if other(o) == key] or [o for o in mine if other(o).startswith(key)]
    if found and len({other(o) for o in found}) == 1:
        return found
    ctx.reply(f"There are no offers pending {'from' if to_me else 'to'} {words[0]}.")
    return []


async def take_challenge(ctx: Context, challenge: Challenge, wants: bool | None = None) -> None:
    """Start the game of ``challenge``, to the issuer; ``wants`` is the colour the issuer
    asked for when it accepts by challenging back."""
    core, session, batch = ctx.core, ctx.session, ctx.batch
    state = core.state(Pairing)
    challenger = challenge.challenger
    if is_playing(state, core, session):
        ctx.reply("You are playing a game.")
        return
    if is_playing(state, core, challenger):
        ctx.reply(f"{challenger.name} is playing a game.")
        return
    problem = bughouse_problem(core, challenge.terms, session, challenger)
    if problem is not None:
        ctx.reply(problem)
        return
    ctx.reply(f"You accept the match offer from {challenger.name}.")
    batch.add(challenger, lines(f"{session.name} accepts the match offer."))
    remove_challenge(state, challenge, f"{session.name} accepted the challenge.", batch)
    record = challenge.adjourned
    if record is not None:
        white, black = resume_colors(record, challenger, session)
    else:
        asked = challenge.color
        if asked is None and wants is None and challenge.terms.odds:
            asked = WHITE  # lasker's pick_colors: with time odds the challenger is White
        white, black = colors(state, session, wants, challenger, asked)
    await start_game(core, batch, white, black, challenge.terms, resumed=record)


async def _accept_challenge(challenge: Challenge, ctx: Context) -> None:
    await take_challenge(ctx, challenge)


async def _refuse_challenge(challenge: Challenge, withdrawn: bool, ctx: Context) -> None:
    """``decline`` of a challenge to me, ``withdraw`` of mine (FICS's words, which
    PyChess reads)."""
    name, state = ctx.session.name, ctx.core.state(Pairing)
    if withdrawn:
        ctx.reply(f"You withdraw the match offer to {challenge.receiver.name}.")
        ctx.batch.add(challenge.receiver, lines(f"{name} withdraws the match offer."))
        remove_challenge(state, challenge, f"{name} withdrew the challenge.", ctx.batch)
    else:
        ctx.reply(f"You decline the match offer from {challenge.challenger.name}.")
        ctx.batch.add(challenge.challenger, lines(f"{name} declines the match offer."))
        remove_challenge(state, challenge, f"{name} declined the challenge.", ctx.batch)


@command("accept", CN.CN_ACCEPT, "accept [n|name|kind|t kind]", route=Route.IN_GAME)
async def accept(ctx: Context, args: str) -> None:
    chosen = _chosen(ctx, args, "accept")
    if chosen and chosen[0].accept is not None:
        await chosen[0].accept(ctx)


@command("decline", CN.CN_DECLINE, "decline [n|name|kind|t kind|all]", route=Route.IN_GAME)
async def decline(ctx: Context, args: str) -> None:
    for offer in _chosen(ctx, args, "decline"):
        if offer.decline is not None:
            await offer.decline(ctx)


@command("withdraw", CN.CN_DECLINE, "withdraw [n|name|kind|t kind|all]", route=Route.IN_GAME)
async def withdraw(ctx: Context, args: str) -> None:
    for offer in _chosen(ctx, args, "withdraw"):
        if offer.withdraw is not None:
            await offer.withdraw(ctx)


@command("pending", CN.CN_PENDING, "pending", route=Route.IN_GAME)
async def pending(ctx: Context, args: str) -> None:
    ctx.reply(*ctx.core.state(Offers).listing(ctx.session))
