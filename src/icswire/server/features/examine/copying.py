"""Another game into the game one examines: ICC's ``copygame`` (a game being played,
examined or observed, as far as it is shown) and ``loadgame`` (a stored game: a
history game, a library (journal) slot, a ``#id``, or a hit of one's last ``search``).

Someone examining has the game put in place of the one examined: everybody in it gets
the new move list (DG_MOVE_LIST / DG_POSITION_BEGIN, as the spec says of ``copygame``)
and the board. Someone examining nothing starts examining the copy, as ``examine``
starts a game. The copy is at the position the game was shown at (``copygame``) or its
end (``loadgame``); ``backward`` and ``goto`` go through it.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

from icswire.boards.bughouse import replayed_move
from icswire.boards.moves import san_from_move, smith_from_move
from icswire.protocol.level1 import CommandNumber as CN
from icswire.server.core.dispatch.hub import CommandSet, Context
from icswire.server.core.dispatch.numbers import parse_number
from icswire.server.core.render.batch import lines
from icswire.server.core.render.boards import BLACK, WHITE, ServerMove
from icswire.server.core.storage.records import GameRecord
from icswire.server.features.examine.games import (
    ExaminedGame,
    add_to_all,
    exam_of_record,
    examining,
    start_examining,
)
from icswire.server.features.examine.search import LastSearches
from icswire.server.features.examine.stored import find_record, readable

if TYPE_CHECKING:
    from icswire.server.core.model.tables import Table

COMMANDS = CommandSet()
command = COMMANDS.command


def exam_of_table(number: int, table: Table) -> ExaminedGame:
    """The game at ``table`` as far as it is shown, examined as game ``number``; each
    mover's clock after each move counted from the time control and the time it took."""
    record, shown = table.game_record(), table.movelist()
    board = shown.start.copy(stack=False)
    increment = record.white_increment * 1000
    clocks = {WHITE: record.white_initial * 60_000, BLACK: record.white_initial * 60_000}
    moves: list[ServerMove] = []
    for san, time_ms in shown.moves:
        move = replayed_move(board, san)
        mover = board.turn
        clocks[mover] = max(clocks[mover] - time_ms, 0) + increment
        made = ServerMove(
            move, san_from_move(board, move), smith_from_move(board, move), time_ms, clocks[mover]
        )
        moves.append(made)
        board.push(move)
    return ExaminedGame(
        number, record.whitename, record.blackname, shown.start.copy(stack=False), moves,
        wild=record.wild_number, variant=table.variant, rating_type=record.rating_type,
        rated=record.rated, initial=record.white_initial, increment=record.white_increment,
        white_rating=record.white_rating, black_rating=record.black_rating,
        game_id=record.game_id or 0, ex_string=f"Ex: copy of game {table.number}",
    )  # fmt: skip


def _to_end(exam: ExaminedGame) -> None:
    for _ in exam.mainline:
        exam.forward()


def _take(ctx: Context, copy: ExaminedGame, said: str, others_read: str) -> None:
    """``copy`` in the issuer's examined game, or a new examined game if it examines
    none; what happened told (``said`` to the issuer: "copy game 5"; ``others_read`` by
    the others in the game: "copies game 5")."""
    core, session = ctx.core, ctx.session
    exam = examining(core, session)
    if exam is None:
        copy.number = core.tables.free_number()
        ctx.reply(f"You {said}. Starting game {copy.number} in examine mode.")
        start_examining(core, session, copy, ctx.batch)
        return
    for name in (
        "white", "black", "start", "mainline", "wild", "variant", "rating_type", "rated",
        "initial", "increment", "white_rating", "black_rating", "game_id", "ex_string",
    ):  # fmt: skip
        setattr(exam, name, getattr(copy, name))
    exam.line, exam.board = list(copy.mainline), copy.start.copy(stack=False)
    exam.tags, exam.score, exam.result_text = {}, "*", "Still in progress"
    exam.setup, exam.marks, exam.clock_override = False, [], {}
    for _ in range(copy.ply):
        exam.forward()
    ctx.reply(f"You {said} into game {exam.number}.")
    others = [s for s in exam.audience() if s is not session]
    add_to_all(ctx.batch, others, lines(f"Game {exam.number}: {session.name} {others_read}."))
    for watcher in exam.audience():
        exam.send_history(watcher, ctx.batch)
    add_to_all(ctx.batch, exam.audience(), exam.board_message())


def _busy(ctx: Context) -> bool:
    if examining(ctx.core, ctx.session) is None and ctx.core.play.busy(ctx.session):
        ctx.reply("You are playing a game.")
        return True
    return False


def _source(ctx: Context, args: str) -> Table | None:
    """The game ``copygame`` names: a number, a player's (or examiner's) name, or, with
    nothing, the one game observed."""
    core, session, text = ctx.core, ctx.session, args.strip()
    if not text:
        observed = sorted(session.observing)
        if len(observed) != 1:
            ctx.reply("Usage: copygame <game number|name>  (you observe no game, or several)")
            return None
        return core.tables.find(observed[0])
    number = parse_number(text)
    if number is not None:
        found = core.tables.find(number)
        if found is None:
            ctx.reply(f"There is no game {number}.")
        return found
    player = ctx.world.find(text.split()[0])
    if player is None:
        ctx.reply(f'No user named "{text.split()[0][:20]}" is logged in.')
        return None
    table = core.tables.seated(player)
    if table is None:
        ctx.reply(f"{player.name} is neither playing nor examining a game.")
    return table


@command("copygame", CN.CN_COPYGAME, "copygame [game number|name]", bare_cn=CN.CN_COPYGAME0)
async def copygame(ctx: Context, args: str) -> None:
    """A game being played, examined or observed, into the game one examines."""
    if _busy(ctx):
        return
    table = _source(ctx, args)
    if table is None:
        return
    session = ctx.session
    if table.private and session not in table.seats() and not session.admin:
        ctx.reply("Sorry, that is a private game.")
        return
    if examining(ctx.core, session) is table:
        ctx.reply("That is the game you are examining.")
        return
    copy = exam_of_table(0, table)
    _to_end(copy)
    _take(ctx, copy, f"copy game {table.number}", f"copies game {table.number}")


async def _record_of(ctx: Context, args: str) -> GameRecord | None:
    """The stored game ``loadgame`` names: hit N of the last ``search``, else as
    ``smoves`` names one (``NAME N``, ``NAME %A``, ``#ID``)."""
    words = args.split()
    hit = parse_number(words[0]) if len(words) == 1 else None
    if hit is None:
        return await find_record(ctx, args)
    ids = ctx.core.state(LastSearches).ids.get(ctx.session, [])
    if not 1 <= hit <= len(ids):
        ctx.reply(f"There is no game {hit} in your last search.")
        return None
    found = await asyncio.to_thread(ctx.store.game, ids[hit - 1])
    if found is None:
        ctx.reply(f"There is no game {hit} in your last search.")
        return None
    return readable(ctx, found)


@command("loadgame", CN.CN_LOADGAME, "loadgame <search hit> | <name> [game number|%slot] | #id")
async def loadgame(ctx: Context, args: str) -> None:
    """A stored game into the game one examines, at its end."""
    if _busy(ctx):
        return
    if not args.split():
        ctx.reply("Usage: loadgame <search hit> | <name> [game number|%slot] | #id")
        return
    record = await _record_of(ctx, args)
    if record is None or _busy(ctx):  # something may have started while the store answered
        return
    copy = exam_of_record(0, record)
    _to_end(copy)
    game = f"{record.white} vs. {record.black}"
    _take(ctx, copy, f"load {game}", f"loads {game}")
