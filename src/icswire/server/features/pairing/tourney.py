"""Matches a tournament director makes: ``rmatch`` (lasker-2.2.3, what mamer sends) and
ICC's ``qmatch``.

``rmatch P1 P2 TERMS`` runs ``match P2 TERMS`` as P1 (lasker's ``com_rmatch``): P1 is the
one who hears what ``match`` says, and P2 gets an ordinary challenge, so a TD that sends
both ``rmatch A B 5 0 white`` and ``rmatch B A 5 0 black`` makes the second accept the
first and the game start. Only a TD (the server's td list, or an administrator) may; as in
lasker, a player not logged in or unregistered is passed over in silence. Both take an
event label after a ``|`` (``rmatch A B 5 0 rated | Spring Swiss, round 2``): the
challenge carries it, and so the game it starts (``games``, the PGN ``Event`` tag, the
stored game); the answering challenge need not repeat it. ``qmatch`` is the same
with ICC's words for what goes wrong.
"""

from __future__ import annotations

from dataclasses import replace

from icswire.protocol.level1 import CommandNumber as CN
from icswire.server.core.dispatch.hub import CommandSet, Context
from icswire.server.core.model.names import name_key
from icswire.server.core.model.users import User
from icswire.server.core.render.batch import Batch
from icswire.server.features.pairing.challenges import match
from icswire.server.features.pairing.state import Pairing

COMMANDS = CommandSet()
command = COMMANDS.command

#: lasker's refusal of the TD commands to anybody else.
ONLY_TD = "Only TD programs are allowed to use this command."
#: The longest event label kept (a PGN tag value on one line).
MAX_LABEL = 80


def split_label(args: str) -> tuple[str, str]:
    """``args`` without the event label after ``|``, and the label (one line, trimmed).

    >>> split_label("alice bob 5 0 | Spring Swiss")
    ('alice bob 5 0', 'Spring Swiss')
    """
    terms, _, label = args.partition("|")
    return terms.strip(), " ".join(label.split())[:MAX_LABEL]


def elsewhere(ctx: Context, *players: User) -> bool:
    """Whether one of ``players`` is connected to another node of a cluster (what is made
    for him must be made there): then the TD is told so."""
    for player in players:
        if player.remote is not None:
            ctx.reply(f"{player.name} is connected to another node.")
            return True
    return False


async def match_for(ctx: Context, first: User, second: User, terms: str, label: str) -> str:
    """``match SECOND TERMS`` made for ``first`` (its output is ``first``'s, in a level 1
    unit that names the TD, not ``*``), the challenge it made labelled with the event (and
    the TD who made it: DG_IDLE and DG_ACK_PING go to him); what came of it: "challenge",
    "game" (it accepted SECOND's challenge) or "" (refused: ``first`` was told why)."""
    playing = ctx.core.play.by_player.get(first)
    batch = Batch(CN.CN_MATCH, first, made_by=ctx.session.name)
    try:
        await match(Context(ctx.core, first, batch, "match"), f"{second.name} {terms}".strip())
    finally:
        batch.flush()
    challenge = ctx.core.state(Pairing).offer(first, second)
    if challenge is not None:
        if label:
            director = ctx.session.name
            challenge.terms = replace(challenge.terms, event=label, director=director)
        return "challenge"
    game = ctx.core.play.by_player.get(first)
    return "game" if game is not None and game is not playing else ""


def _td_match_words(
    ctx: Context, args: str, only_td: str, usage: str
) -> tuple[list[str], str] | None:
    """``rmatch`` / ``qmatch``'s words (two names and the terms) and event label; None
    after ``only_td`` (the issuer is no TD) or ``usage`` (fewer than two names)."""
    if not ctx.session.is_td:
        ctx.reply(only_td)
        return None
    text, label = split_label(args)
    words = text.split(maxsplit=2)
    if len(words) < 2:
        ctx.reply(usage)
        return None
    return words, label


@command("rmatch", CN.CN_QMATCH, "rmatch <player1> <player2> <match terms> [| event]")
async def rmatch(ctx: Context, args: str) -> None:
    usage = "Usage: rmatch <player1> <player2> <match terms> [| event]"
    read = _td_match_words(ctx, args, ONLY_TD, usage)
    if read is None:
        return
    words, label = read
    first, second = (ctx.world.online.get(name_key(name)) for name in words[:2])
    if first is None or not first.registered or second is None or not second.registered:
        return  # lasker: "can't rmatch this user ..." and nothing said
    if elsewhere(ctx, first, second):
        return
    await match_for(ctx, first, second, words[2] if len(words) > 2 else "", label)


@command("qmatch", CN.CN_QMATCH, "qmatch <player1> <player2> [match terms] [| event]")
async def qmatch(ctx: Context, args: str) -> None:
    only_td = "Only TDs and administrators may use qmatch."
    usage = "Usage: qmatch <player1> <player2> [match terms] [| event]"
    read = _td_match_words(ctx, args, only_td, usage)
    if read is None:
        return
    words, label = read
    players = []
    for name in words[:2]:
        player = ctx.world.online.get(name_key(name))
        if player is None:
            ctx.reply(f"{name} is not logged in.")
            return
        players.append(player)
    first, second = players
    if elsewhere(ctx, first, second):
        return
    made = await match_for(ctx, first, second, words[2] if len(words) > 2 else "", label)
    if made == "challenge":
        ctx.reply(f"Match request made for {first.name} to {second.name}.")
    elif made == "game":
        ctx.reply(f"{first.name} accepted {second.name}'s match request: the game starts.")
    else:
        ctx.reply(f"No match request was made: {first.name} was told why.")
