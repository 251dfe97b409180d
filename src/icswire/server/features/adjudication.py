"""Adjourned games settled without playing them on.

By an administrator: ``adjudicate WHITE BLACK abort|draw|white|black`` (lasker-2.2.3's
``com_adjudicate``, its words: "There is no stored game W vs. B", "Result must be one of:
abort  draw  white  black", "Game adjudicated.", and a message to each player: ``Your game
"W vs. B" has been adjudicated as a win``). A rated win or draw is rated.

Asked of the administrators by a player (ICC's ``request-win``, ``request-draw``,
``request-abort NAME [reason]``): the request waits in a queue every administrator lists
with ``adjrequests``, and administrators online are told of it at once; adjudicating the
game takes its requests away. The queue is the server's memory: a restart empties it.

Agreed by the players while the game is adjourned (ICC's ``*adj`` commands of Appendix
1): ``resignadj NAME`` resigns it; ``drawadj NAME`` and ``abortadj NAME`` offer a draw or
an abort, which the other player's ``drawadj``/``abortadj`` agrees to. The other player
hears of each by a message (kept while he is away).
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from icswire.protocol.codes import AbortMode, DrawMode, ResultStatus, WinMode
from icswire.protocol.level1 import CommandNumber as CN
from icswire.server.core.dispatch.commands import first_word
from icswire.server.core.dispatch.hub import CommandSet, Context
from icswire.server.core.events.talk import MessageReceived
from icswire.server.core.model.names import name_key
from icswire.server.core.render.batch import lines
from icswire.server.core.storage import jobs

if TYPE_CHECKING:
    from icswire.server.core.dispatch.hub import Core
    from icswire.server.core.storage.records import GameRecord

__all__ = ["install"]

COMMANDS = CommandSet()
command = COMMANDS.command

#: What each adjudication asks for, in a request's and a message's words.
WANTS = {"win": "a win", "draw": "a draw", "abort": "an abort"}


@dataclass(frozen=True)
class Request:
    """A player's request that the administrators settle an adjourned game."""

    name: str
    wants: str  # win, draw, abort
    game_id: int
    white: str
    black: str
    reason: str
    made: datetime


@dataclass
class Adjudications:
    """The requests waiting for an administrator, and the ``drawadj``/``abortadj``
    offers standing: (game id, kind) -> the name key of who offered."""

    requests: list[Request] = field(default_factory=list)
    offers: dict[tuple[int, str], str] = field(default_factory=dict)


def _state(core: Core) -> Adjudications:
    return core.state(Adjudications)


def _title(record: GameRecord) -> str:
    return f"{record.white} vs. {record.black}"


def _message(ctx: Context, receiver: str, text: str) -> None:
    """A message from the issuer to ``receiver`` (kept; shown at once if online)."""
    now = datetime.now(UTC)
    sender = ctx.session.name
    write = jobs.message(sender, receiver, text, now)
    what = f"send_message({sender!r}, {receiver!r})"
    ctx.core.writes.put_write(write, what, concerns=(receiver,))
    online = ctx.world.online.get(name_key(receiver))
    if online is not None and online.registered:
        sent = f"{now:%a %b} {now.day:2d}, {now:%H:%M} UTC {now:%Y}"
        ctx.batch.add(online, MessageReceived(sender, sent, text))


async def _adjourned_with(ctx: Context, name: str) -> GameRecord | None:
    """The issuer's adjourned game with the player ``name``; None after saying why not."""
    if not ctx.session.registered:
        ctx.reply("Only registered players have adjourned games.")
        return None
    await ctx.core.play.flush()
    records = await asyncio.to_thread(ctx.store.adjourned, ctx.session.name)
    key = name_key(name)
    for record in records:
        if key in (name_key(record.white), name_key(record.black)) and key != name_key(
            ctx.session.name
        ):
            return record
    ctx.reply(f"You have no adjourned game with {name}.")
    return None


async def _named_game(ctx: Context, name: str, usage: str) -> GameRecord | None:
    """A player's command's adjourned game with ``name``; None after saying ``usage``
    (no name) or why not."""
    if not name:
        ctx.reply(usage)
        return None
    return await _adjourned_with(ctx, name)


async def _store_result(
    ctx: Context, record: GameRecord, result: tuple[int, int, int | None, str], gone: str
) -> bool:
    """Store ``result`` (status, mode, color, score) for the adjourned ``record`` and drop
    its requests and offers; False after saying ``gone`` when it is not adjourned any more."""
    if record.id is None:
        raise ValueError("an adjourned game without its number")
    status, mode, color, score = result
    changed = await asyncio.to_thread(
        ctx.store.settle_adjourned, record.id, status, mode, color, score
    )
    if changed is None:
        ctx.reply(gone)
        return False
    _settled(ctx.core, record)
    return True


def _settled(core: Core, record: GameRecord) -> None:
    """The game is settled: its requests and offers go."""
    state = _state(core)
    state.requests = [r for r in state.requests if r.game_id != record.id]
    state.offers = {k: v for k, v in state.offers.items() if k[0] != record.id}


# -- the administrators' ----------------------------------------------------------------------

#: adjudicate's results: (status, mode, color: the side that lost, score), lasker's words
#: for White and Black.
_RESULTS = {
    "abort": (ResultStatus.ABORTED, AbortMode.ADMINISTRATOR, None, "*"),
    "draw": (ResultStatus.DRAW, DrawMode.ADJUDICATED, None, "1/2-1/2"),
    "white": (ResultStatus.WIN, WinMode.ADJUDICATED, 0, "1-0"),
    "black": (ResultStatus.WIN, WinMode.ADJUDICATED, 1, "0-1"),
}


def _told(result: str, white: bool) -> str:
    if result == "abort":
        return "has been aborted."
    if result == "draw":
        return "has been adjudicated as a draw"
    return f"has been adjudicated as a {'win' if (result == 'white') == white else 'loss'}"


@command("adjudicate", CN.SCN_MISCELLANEOUS, "adjudicate <white> <black> <result>", admin=True)
async def adjudicate(ctx: Context, args: str) -> None:
    words = args.split()
    if len(words) != 3:
        ctx.reply("Usage: adjudicate <white> <black> abort|draw|white|black")
        return
    white, black, word = words
    # lasker's strstr("abort", word): any part of the word will do
    result = next((r for r in _RESULTS if word.lower() in r), None)
    await ctx.core.play.flush()
    records = await asyncio.to_thread(ctx.store.adjourned, white)
    record = next(
        (
            r
            for r in records
            if name_key(r.white) == name_key(white) and name_key(r.black) == name_key(black)
        ),
        None,
    )
    if record is None or record.id is None:
        ctx.reply(f"There is no stored game {white} vs. {black}")
        return
    if result is None:
        ctx.reply("Result must be one of:  abort  draw  white  black")
        return
    if not await _store_result(
        ctx, record, _RESULTS[result], f"There is no stored game {white} vs. {black}"
    ):
        return
    for name, is_white in ((record.white, True), (record.black, False)):
        _message(ctx, name, f'Your game "{_title(record)}" {_told(result, is_white)}')
    ctx.reply("Game adjudicated.")


@command("adjrequests", CN.SCN_MISCELLANEOUS, "adjrequests", admin=True)
async def adjrequests(ctx: Context, args: str) -> None:
    """The players' requests for adjudication, oldest first."""
    requests = _state(ctx.core).requests
    if not requests:
        ctx.reply("There are no requests for adjudication.")
        return
    rows = []
    for index, r in enumerate(requests, 1):
        why = f": {r.reason}" if r.reason else ""
        made = f"{r.made:%Y-%m-%d %H:%M} UTC"
        rows.append(f"{index:3d}. {r.name} asks for {WANTS[r.wants]} in {r.white} vs. {r.black}"
                    f" ({made}){why}")  # fmt: skip
    ctx.page("Requests for adjudication:", *rows, 'Settle each with "adjudicate".')


# -- a player's request -----------------------------------------------------------------------


async def _request(ctx: Context, args: str, wants: str) -> None:
    name, reason = first_word(args)
    record = await _named_game(ctx, name, f"Usage: request-{wants} <name> [reason]")
    if record is None or record.id is None:
        return
    state = _state(ctx.core)
    me = name_key(ctx.session.name)
    state.requests = [
        r for r in state.requests if not (r.game_id == record.id and name_key(r.name) == me)
    ]
    made = datetime.now(UTC)
    request = Request(
        ctx.session.name, wants, record.id, record.white, record.black, reason.strip(), made
    )
    state.requests.append(request)
    ctx.reply(
        f'Your request for {WANTS[wants]} in "{_title(record)}" has been sent to the'
        " administrators."
    )
    notice = (
        f"{ctx.session.name} asks for {WANTS[wants]} in the adjourned game {_title(record)}"
        ' (see "adjrequests").'
    )
    for admin in ctx.world.online.values():
        if admin.admin and admin.registered and admin is not ctx.session:
            ctx.batch.add(admin, lines(notice))


@command("request-win", CN.CN_REQUEST_WIN, "request-win <name> [reason]")
async def request_win(ctx: Context, args: str) -> None:
    await _request(ctx, args, "win")


@command("request-draw", CN.CN_REQUEST_DRAW, "request-draw <name> [reason]")
async def request_draw(ctx: Context, args: str) -> None:
    await _request(ctx, args, "draw")


@command("request-abort", CN.CN_REQUEST_ABORT, "request-abort <name> [reason]")
async def request_abort(ctx: Context, args: str) -> None:
    await _request(ctx, args, "abort")


# -- what the players agree ---------------------------------------------------------------------


async def _settle(
    ctx: Context, record: GameRecord, status: int, mode: int, color: int | None, score: str
) -> bool:
    gone = f'The game "{_title(record)}" is not adjourned any more.'
    return await _store_result(ctx, record, (status, mode, color, score), gone)


def _opponent(ctx: Context, record: GameRecord) -> str:
    mine = name_key(record.white) == name_key(ctx.session.name)
    return record.black if mine else record.white


@command("resignadj", CN.CN_RESIGNADJ, "resignadj <name>")
async def resignadj(ctx: Context, args: str) -> None:
    """Resign the adjourned game with NAME."""
    record = await _named_game(ctx, args.strip(), "Usage: resignadj <name>")
    if record is None:
        return
    white = name_key(record.white) == name_key(ctx.session.name)
    color, score = (1, "0-1") if white else (0, "1-0")
    if not await _settle(ctx, record, ResultStatus.WIN, WinMode.RESIGNS, color, score):
        return
    ctx.reply(f'You resign your adjourned game "{_title(record)}".')
    _message(ctx, _opponent(ctx, record), f'I resign our adjourned game "{_title(record)}".')


async def _agree(ctx: Context, args: str, kind: str) -> None:
    """``drawadj`` / ``abortadj``: offer, or agree to the other player's offer."""
    record = await _named_game(ctx, args.strip(), f"Usage: {kind}adj <name>")
    if record is None or record.id is None:
        return
    offers, me = _state(ctx.core).offers, name_key(ctx.session.name)
    other = _opponent(ctx, record)
    offered = offers.get((record.id, kind))
    if offered == me:
        ctx.reply(f'You have already offered {WANTS[kind]} in "{_title(record)}".')
        return
    if offered is None:
        offers[record.id, kind] = me
        ctx.reply(f'You offer {WANTS[kind]} in the adjourned game "{_title(record)}".')
        _message(
            ctx,
            other,
            f'I offer {WANTS[kind]} in our adjourned game "{_title(record)}";'
            f' type "{kind}adj {ctx.session.name}" to agree.',
        )
        return
    if kind == "draw":
        done = await _settle(ctx, record, ResultStatus.DRAW, DrawMode.AGREEMENT, None, "1/2-1/2")
    else:
        done = await _settle(ctx, record, ResultStatus.ABORTED, AbortMode.AGREEMENT, None, "*")
    if not done:
        return
    verb = "drawn" if kind == "draw" else "aborted"
    ctx.reply(f'The adjourned game "{_title(record)}" is {verb} by agreement.')
    _message(ctx, other, f'I agree: our adjourned game "{_title(record)}" is {verb}.')


@command("drawadj", CN.CN_DRAWADJ, "drawadj <name>")
async def drawadj(ctx: Context, args: str) -> None:
    await _agree(ctx, args, "draw")


@command("abortadj", CN.CN_ABORTADJ, "abortadj <name>")
async def abortadj(ctx: Context, args: str) -> None:
    await _agree(ctx, args, "abort")


def install(core: Core) -> None:
    """Adjudication on ``core``: its commands."""
    core.registry.add_commands(COMMANDS)
