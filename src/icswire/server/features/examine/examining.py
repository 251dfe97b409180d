"""Examining: ``examine`` (a new board, a stored or an adjourned game), ``unexamine``,
``mexamine``, ``forward``, ``backward``, ``revert``, and the moves examiners type.

Everybody in an examined game gets DG_SEND_MOVES with is-variation MOVE_EXAMINE (3) for a
typed move and MOVE_FORWARD (2) for ``forward``, DG_BACKWARD (23) for ``backward`` and
``revert``.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

from icswire.boards.illegal import illegal_reason
from icswire.boards.moves import IllegalMoveError, move_from_wire
from icswire.boards.positions import new_board
from icswire.protocol import datagrams as dg
from icswire.protocol.codes import IllegalMoveReason, IsVariation
from icswire.protocol.level1 import CommandNumber as CN
from icswire.server.core.dispatch.hub import CommandSet, Context
from icswire.server.core.dispatch.numbers import parse_number
from icswire.server.core.events.examine import ExaminedBackward, ExaminedForward, ExaminerJoined
from icswire.server.core.model.names import name_key
from icswire.server.core.render.batch import Batch, Datagram, lines
from icswire.server.core.render.boards import ServerMove
from icswire.server.core.storage.records import GameRecord
from icswire.server.features.examine.games import (
    Examinations,
    ExaminedGame,
    add_to_all,
    exam_of_record,
    examined_by_issuer,
    examining,
    same_line,
    start_examining,
    stop_examining,
)
from icswire.server.features.examine.setup import drop_piece
from icswire.server.features.examine.stored import find_record, readable

if TYPE_CHECKING:
    from icswire.server.core.dispatch.hub import Core
    from icswire.server.core.model.users import User


COMMANDS = CommandSet()
command = COMMANDS.command


def move(core: Core, session: User, text: str, batch: Batch) -> bool:
    """``text`` (something that looks like a move) typed by ``session``: if it examines a
    game, make the move there and return True; False if it examines nothing."""
    exam = examining(core, session)
    if exam is None:
        return False
    if exam.setup:
        drop_piece(exam, session, text, batch)
        return True
    try:
        chosen = move_from_wire(exam.board, text)
    except IllegalMoveError:
        reason = illegal_reason(exam.board, text) or IllegalMoveReason.ILLEGAL
        batch.command_cn(CN.SCN_ILLEGAL_MOVE)  # Appendix 1's code for an illegal move
        batch.add(session, lines(f"Illegal move ({text})."))
        record = dg.IllegalMove(exam.number, text.split(" ")[0][:20], reason)
        batch.add(session, Datagram(record))
        return True
    made = exam.play(chosen)
    moved = ExaminedForward(exam.position(), session.name, _plain([made]), IsVariation.MOVE_EXAMINE)
    batch.add_all(list(exam.audience()), moved)
    return True


def _plain(moves: list[ServerMove]) -> tuple[tuple[str, str, int, int], ...]:
    """Moves as DG_SEND_MOVES tells them: (SAN, SMITH, time taken, clock after)."""
    return tuple([(m.san, m.smith, m.time_ms, m.clock_ms) for m in moves])


async def _adjourned_record(ctx: Context, args: str) -> GameRecord | bool:
    """The adjourned game ``examine`` names (FICS help ``examine``): ``examine NAME`` my
    adjourned game with NAME, ``examine NAME1 NAME2`` theirs. False when ``args`` names
    none that way (``examine NAME`` is then NAME's last game); True after saying there is
    none between NAME1 and NAME2. The stored game stays adjourned: what is examined is a
    copy of its position."""
    words = args.split()
    two = (
        len(words) == 2
        and parse_number(words[1], signed=True) is None
        and not words[1].startswith("%")  # NAME %SLOT: a journal entry (find_record)
    )
    if not (len(words) == 1 and ctx.session.registered) and not two:
        return False
    if words[0].startswith("#"):
        return False
    owner, other = (words[0], words[1]) if two else (ctx.session.name, words[0])
    await ctx.core.play.flush()
    records = await asyncio.to_thread(ctx.store.adjourned, owner)
    key = name_key(other)

    def opponent(record: GameRecord) -> str:
        return name_key(record.black if name_key(record.white) == name_key(owner) else record.white)

    found = [r for r in records if opponent(r) == key] or [
        r for r in records if opponent(r).startswith(key)
    ]
    if found:
        return found[-1]
    if two:
        ctx.reply(f"There is no adjourned game between {words[0]} and {words[1]}.")
        return True
    return False


@command("examine", CN.CN_EXAMINE, "examine [<name> [game number] | #id]")
async def examine(ctx: Context, args: str) -> None:
    core, session = ctx.core, ctx.session
    if examining(core, session) is not None:
        ctx.reply("You are already examining a game.")
        return
    if core.play.busy(session):
        ctx.reply("You are playing a game.")
        return
    if not args.strip():
        exam = ExaminedGame(core.tables.free_number(), session.name, session.name, new_board())
        ctx.reply("Starting a game in examine (scratch) mode.")
    else:
        found = await _adjourned_record(ctx, args)
        if found is True:
            return
        if isinstance(found, GameRecord):
            record = readable(ctx, found)
        else:
            record = await find_record(ctx, args)
        if record is None:
            return
        if examining(core, session) is not None or core.play.busy(session):
            ctx.reply("You are busy.")  # something started while the store answered
            return
        exam = exam_of_record(core.tables.free_number(), record)
        if isinstance(found, GameRecord):  # at the position it was adjourned in
            for _ in exam.mainline:
                exam.forward()
        ctx.reply(f"Starting game {exam.number} in examine mode: {exam.white} vs. {exam.black}.")
    start_examining(core, session, exam, ctx.batch)


@command("unexamine", CN.CN_UNEXAMINE, "unexamine")
async def unexamine(ctx: Context, args: str) -> None:
    if not stop_examining(ctx.core, ctx.session, ctx.batch):
        ctx.reply("You are not examining a game.")


def _steps(ctx: Context, args: str) -> int | None:
    text = args.strip()
    if not text:
        return 1
    steps = parse_number(text)
    if steps is not None and steps > 0:
        return steps
    ctx.reply(f"Usage: {ctx.command} [number of half-moves]")
    return None


@command("forward", CN.CN_FORWARD, "forward [n]")
async def forward(ctx: Context, args: str) -> None:
    exam = examined_by_issuer(ctx)
    steps = _steps(ctx, args) if exam is not None else None
    if exam is None or steps is None:
        return
    steps = min(steps, len(exam.line) - exam.ply)
    if steps == 0:
        ctx.reply("You're at the end of the game.")
        return
    made = [exam.forward() for _ in range(steps)]
    forward = ExaminedForward(
        exam.position(), ctx.session.name, _plain(made), IsVariation.MOVE_FORWARD
    )
    ctx.batch.add_all(list(exam.audience()), forward)


def _back(ctx: Context, exam: ExaminedGame, steps: int, reverted: bool) -> None:
    for _ in range(steps):
        exam.backward()
    back = ExaminedBackward(exam.position(), ctx.session.name, steps, reverted)
    ctx.batch.add_all(list(exam.audience()), back)


@command("backward", CN.CN_BACK, "backward [n]")
async def backward(ctx: Context, args: str) -> None:
    exam = examined_by_issuer(ctx)
    steps = _steps(ctx, args) if exam is not None else None
    if exam is None or steps is None:
        return
    steps = min(steps, exam.ply)
    if steps == 0:
        ctx.reply("You're at the beginning of the game.")
        return
    _back(ctx, exam, steps, False)


@command("revert", CN.CN_REVERT, "revert")
async def revert(ctx: Context, args: str) -> None:
    """Back to where the line being looked at left the main line (DG_BACKWARD)."""
    exam = examined_by_issuer(ctx)
    if exam is None:
        return
    branch = exam.branch()
    if same_line(exam.line, exam.mainline) or (branch == len(exam.line) and exam.ply <= branch):
        exam.line = list(exam.mainline)
        ctx.reply("You are already on the main line.")
        return
    steps = max(exam.ply - branch, 0)
    exam.line = list(exam.mainline)
    _back(ctx, exam, steps, True)


@command("mexamine", CN.CN_MEXAMINE, "mexamine <name>")
async def mexamine(ctx: Context, args: str) -> None:
    """Give an observer of my examined game examiner rights (FICS help ``mexamine``;
    the texts as FICS words them)."""
    core, exam = ctx.core, examined_by_issuer(ctx)
    if exam is None:
        return
    name = args.strip()
    if not name:
        ctx.reply("Usage: mexamine <name>")
        return
    player = ctx.world.find(name)
    if player is None:
        ctx.reply(f'No user named "{name}" is logged in.')
        return
    number = exam.number
    if player in exam.examiners:
        ctx.reply(f"{player.name} is already an examiner of game {number}.")
        return
    if examining(core, player) is not None:
        ctx.reply(f"{player.name} is examining a game.")
        return
    if core.play.busy(player):
        ctx.reply(f"{player.name} is playing a game.")
        return
    if player not in exam.observers:
        ctx.reply(f"{player.name} is not observing the game you are examining.")
        return
    exam.observers.discard(player)
    player.observing -= {number}
    exam.examiners.append(player)
    core.state(Examinations).by_examiner[player] = exam
    player.state, player.state_game = "E", number
    core.world.state_changed(player, ctx.batch)
    ctx.reply(f"{player.name} is now an examiner of game {number}.")
    ctx.batch.add(player, lines(f"{ctx.session.name} has made you an examiner of game {number}."))
    kib = bool(player.variables["kibitz"])
    add_to_all(ctx.batch, exam.audience(), ExaminerJoined(number, player.name, kib))
    ctx.batch.add(player, Datagram(dg.MyRelationToGame(number, "E")))
    ctx.batch.add(player, exam.board_message())  # style 12 now says: examining
