"""Stored games: ``history``, ``lhistory``, ``stored``, ``smoves``, ``oldmoves`` (FICS: the
moves of a player's last game), ``sposition``, and finding a stored game by a player's name
and number or by ``#id``.

``lhistory`` is ICC's (CN_LHISTORY 165, between CN_LLOGONS and CN_LOGONS): what
``llogons`` is to ``logons``, it is to ``history``, the server's last games rather than one
player's. icc-formats.txt gives no text for it, so its lines are ``history``'s ICC line with
both players (cut to 12 letters), its score, type, result code, the day it ended and its
``#id`` for ``examine``, oldest first, so that a line fits 79 columns.

Stored games are listed as text and as DG_GAMELIST_BEGIN (72) / DG_GAMELIST_ITEM (73) with
the status, mode and color codes they were stored with; ``smoves`` and ``sposition`` show
one as text, a board (style 12 relation -3, game number -1) and DG_ISOLATED_BOARD (40),
DG_MOVE_LIST (25) or DG_POSITION_BEGIN (101/110) with game number -1, and
``sposition`` DG_JBOARD (49) with status -1, stored.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import chess

from icswire.boards.bughouse import supply_drop
from icswire.boards.positions import BUGHOUSE, CRAZYHOUSE, strength
from icswire.protocol import datagrams as dg
from icswire.protocol.codes import ResultStatus
from icswire.protocol.datagrams import DG
from icswire.protocol.level1 import CommandNumber as CN
from icswire.protocol.style12 import format_move_time
from icswire.server.core.dispatch.hub import CommandSet, Context
from icswire.server.core.dispatch.numbers import parse_number
from icswire.server.core.events.games import BoardView
from icswire.server.core.model.names import name_key
from icswire.server.core.model.tables import Terms
from icswire.server.core.render.batch import Datagram
from icswire.server.core.render.boards import (
    BLACK,
    COLOR_LETTER,
    JBOARD_STORED,
    WHITE,
    BoardFacts,
    ServerMove,
    isolated_board,
    line_datagrams,
    recent_moves,
)
from icswire.server.core.render.gamelists import (
    fics_eco,
    gamelist_item,
    journal_record,
    journal_slot,
    numbered_history,
    result_of,
    when_ended,
)
from icswire.server.core.render.texts import icc_history_kind, kind_text, rating_text
from icswire.server.core.storage.records import GameRecord
from icswire.server.features.examine.games import replay

if TYPE_CHECKING:
    pass


COMMANDS = CommandSet()
command = COMMANDS.command


def _who(ctx: Context, args: str) -> str:
    """The player a command is about: the argument (a logged-in player's name as he
    spells it, if one matches), or the issuer."""
    name = args.split()[0] if args.split() else ctx.session.name
    online = ctx.core.world.find(name)
    return str(online.name) if online is not None else name


def _spelled(records: Sequence[GameRecord], name: str) -> str:
    key = name_key(name)
    for record in records:
        for player in (record.white, record.black):
            if name_key(player) == key:
                return player
    return name


@command("history", CN.CN_HISTORY, "history [name]")
async def history(ctx: Context, args: str) -> None:
    name = _who(ctx, args)
    records, numbers = await numbered_history(ctx.core, ctx.session, name)
    name = _spelled(records, name)
    begin = dg.GamelistBegin("history", args.strip(), len(records), 1, len(records), "")
    ctx.batch.add(ctx.session, Datagram(begin))
    if not records:
        ctx.reply(f"{name} has no history games.")
        return
    icc = ctx.session.talks_icc
    header = (
        "Opponent     Type         ECO End Date"
        if icc
        else "Opponent      Type         ECO End Date"
    )
    rows = [f"History for {name}:", f"                  {header}"]
    key = name_key(name)
    for index, number, record in zip(range(1, len(records) + 1), numbers, records, strict=True):
        white = name_key(record.white) == key
        mine, theirs = (
            (record.white_rating, record.black_rating)
            if white
            else (record.black_rating, record.white_rating)
        )
        opponent = record.black if white else record.white
        code, _ = result_of(record)
        if record.status == ResultStatus.WIN:
            lost = (record.color == 1) == white
            sign = "-" if lost else "+"
        else:
            sign = "=" if record.status == ResultStatus.DRAW else "*"
        color = "W" if white else "B"
        if icc:  # ICC's layout (help history): its type letters, a shorter date
            kind = icc_history_kind(
                record.rating_type, record.wild, record.rated, record.initial, record.increment
            )
            moment = (record.ended or record.started).strftime("%b %d %y %H:%M")
            rows.append(
                f"{index:2d}: {sign} {rating_text(mine):>4} {color} {rating_text(theirs):>4} "
                f"{opponent:<12} {kind} {record.eco or '?':>3} {code:<3} {moment}"
            )
        else:
            # lasker's pgames: "%2d: %s %4d %s %4d %-13s [%3s%3d%4d] %s %3s %s"
            kind = kind_text(
                record.rating_type, record.rated, record.initial, record.increment,
                record.private, record.odds,
            )  # fmt: skip
            rows.append(
                f"{number:2d}: {sign} {rating_text(mine):>4} {color} "
                f"{rating_text(theirs):>4} {opponent[:13]:<13} {kind} {fics_eco(record)} "
                f"{code:>3} {when_ended(record, ctx.session.variables['tzone'])}"
            )
        ctx.batch.add(ctx.session, Datagram(gamelist_item(index, record)))
    ctx.reply(*rows)


#: How many games ``lhistory`` lists when no number is given, and at most.
LHISTORY_SIZE, LHISTORY_MAX = 10, 50


@command("lhistory", CN.CN_LHISTORY, "lhistory [n]")
async def lhistory(ctx: Context, args: str) -> None:
    """The last ``n`` (default :data:`LHISTORY_SIZE`) games that ended on the server."""
    word = args.strip()
    count = parse_number(word) if word else LHISTORY_SIZE
    if count is None or not 1 <= count <= LHISTORY_MAX:
        ctx.reply(f"Usage: lhistory [n] (n from 1 to {LHISTORY_MAX})")
        return
    session = ctx.session
    records = await asyncio.to_thread(ctx.store.recent, count, session.admin, session.name)
    if not records:
        ctx.reply("No games have ended on this server yet.")
        return
    rows = [f"The last {len(records)} games ended on the server:"]
    for index, record in enumerate(records, 1):
        kind = icc_history_kind(
            record.rating_type, record.wild, record.rated, record.initial, record.increment
        )
        code, _ = result_of(record)
        day = (record.ended or record.started).strftime("%b %d")
        rows.append(
            f"{index:2d}: {record.white[:12]:<12} {rating_text(record.white_rating):>4} "
            f"{record.black[:12]:<12} {rating_text(record.black_rating):>4} "
            f"{record.score:<7} {kind} {code:<3} {day} #{record.id}"
        )
    ctx.page(*rows)


@command("stored", CN.CN_STORED, "stored [name]")
async def stored(ctx: Context, args: str) -> None:
    name = _who(ctx, args)
    records = await asyncio.to_thread(ctx.store.adjourned, name)
    name = _spelled(records, name)
    begin = dg.GamelistBegin("stored", args.strip(), len(records), 1, len(records), "")
    ctx.batch.add(ctx.session, Datagram(begin))
    if not records:
        ctx.reply(f"{name} has no adjourned games.")
        return
    rows = [
        f"Stored games for {name}:",
        "    C Opponent       On Type          Str  M    ECO Date",
    ]
    key = name_key(name)
    for index, record in enumerate(records, 1):
        white = name_key(record.white) == key
        opponent = record.black if white else record.white
        here = ctx.core.world.online.get(name_key(opponent)) is not None
        _, moves = replay(record)
        board = record.game_variant.new_board(fen=record.start_fen)
        for made in moves:
            supply_drop(board, made.move)
            board.push(made.move)
        kind = kind_text(
            record.rating_type, record.rated, record.initial, record.increment, odds=record.odds
        )
        to_move = f"{COLOR_LETTER[board.turn]}{board.fullmove_number}"
        rows.append(
            f"{index:2d}: {'W' if white else 'B'} {opponent:<14} {'Y' if here else 'N'} {kind}"
            f" {strength(board, WHITE):2d}-{strength(board, BLACK):2d} {to_move:<4} "
            f"{record.eco or '?':>3} {when_ended(record, ctx.session.variables['tzone'])}"
        )
        ctx.batch.add(ctx.session, Datagram(gamelist_item(index, record, here)))
    ctx.reply(*rows)


#: FICS's answer to ``smoves``, ``sposition`` (and ``moves``) of somebody else's private game.
PRIVATE_GAME = "Sorry, that is a private game."


def readable(ctx: Context, record: GameRecord) -> GameRecord | None:
    """``record`` if the issuer may read its moves (:meth:`GameRecord.readable_by`), else
    None and FICS's refusal told."""
    if record.readable_by(ctx.session.name, ctx.session.admin):
        return record
    ctx.reply(PRIVATE_GAME)
    return None


async def find_record(ctx: Context, args: str) -> GameRecord | None:
    """The stored game ``args`` names: ``#ID``, ``NAME %A`` (slot A of NAME's journal) or
    ``NAME [N]`` (N as ``history`` numbers NAME's games, or -N for the N-th last; the last
    one when N is left out). Says why when there is none, or when it is somebody else's
    private game (ids are sequential: a game in progress has one too)."""
    found = await _find_record(ctx, args)
    return None if found is None else readable(ctx, found)


async def _find_record(ctx: Context, args: str) -> GameRecord | None:
    words = args.split()
    store = ctx.store
    if not words:
        ctx.reply(f"Usage: {ctx.command} <name> [game number] | #id")
        return None
    if words[0].startswith("#"):
        found = None
        game_id = parse_number(words[0][1:])
        if game_id is not None:
            found = await asyncio.to_thread(store.game, game_id)
        if found is None:
            ctx.reply(f"There is no stored game {words[0]}.")
        return found
    name = _who(ctx, args)
    if len(words) > 1 and words[1].startswith("%"):  # a journal slot (help journal)
        slot = journal_slot(words[1])
        if slot is None:
            ctx.reply("Journal entries are referenced by single letters.")
            return None
        _, record, refused = await journal_record(ctx.core, ctx.session, name, slot)
        if record is None:
            ctx.reply(refused)
        return record
    records, numbers = await numbered_history(ctx.core, ctx.session, name)
    name = _spelled(records, name)
    if not records:
        ctx.reply(f"{name} has no history games.")
        return None
    which = words[1] if len(words) > 1 else "-1"
    index = parse_number(which, signed=True)
    if index is None:
        ctx.reply(f"Usage: {ctx.command} <name> [game number] | #id")
        return None
    if index in numbers:  # the number history shows it with (lasker's FindHistory)
        return records[numbers.index(index)]
    if -len(records) <= index <= -1:
        return records[index]
    ctx.reply(f"There is no history game {which} for {name}.")
    return None


def _isolated_record(record: GameRecord) -> dg.IsolatedBoard:
    """DG_ISOLATED_BOARD (40) of a stored game: game number -1."""
    variant = record.game_variant
    return dg.IsolatedBoard(
        -1, record.white, record.black, record.wild, record.rating_type, record.rated,
        record.initial, record.increment,
        record.initial if record.black_initial is None else record.black_initial,
        record.increment if record.black_increment is None else record.black_increment,
        True, "",
        record.white_rating, record.black_rating, record.id or 0, "", "",
        variant.irregular_legality, variant.irregular_semantics,
        record.wild in (CRAZYHOUSE, BUGHOUSE), "", variant.promote_to_king,
    )  # fmt: skip


def _stored_result(record: GameRecord) -> Datagram | None:
    """DG_GAME_RESULT (13) of a stored game, sent with sposition and smoves."""
    if record.status is None or record.status == ResultStatus.ADJOURNED:
        return None
    code, description = result_of(record)
    return Datagram(dg.GameResult(-1, False, code, record.score, description, record.eco or "?"))


def _final_clocks(record: GameRecord) -> dict[bool, int]:
    return {WHITE: record.white_clock, BLACK: record.black_clock}


@command("smoves", CN.CN_SMOVES, "smoves <name> [game number] | #id")
async def smoves(ctx: Context, args: str) -> None:
    record = await find_record(ctx, args)
    if record is not None:
        show_moves(ctx, record)


def _send_stored_line(
    ctx: Context, record: GameRecord, start: chess.Board, moves: list[ServerMove]
) -> None:
    """A stored game's DG_ISOLATED_BOARD and its line's datagrams, game number -1."""
    ctx.batch.add(ctx.session, Datagram(_isolated_record(record)))
    start_fen = record.game_variant.setup_fen(start)
    clocks = _final_clocks(record)
    line_datagrams(
        ctx.batch, ctx.session, -1, start, start_fen, moves, clocks, variant=record.game_variant
    )


def show_moves(ctx: Context, record: GameRecord) -> None:
    """A stored game's moves as ``smoves`` shows them: the text, and DG_ISOLATED_BOARD,
    the move list and DG_GAME_RESULT with game number -1."""
    start, moves = replay(record)
    session, batch = ctx.session, ctx.batch
    _send_stored_line(ctx, record, start, moves)
    result = _stored_result(record)
    if result is not None:
        batch.add(session, result)
    ctx.reply(*movelist_text(record, start, moves))


async def last_game(ctx: Context, args: str) -> tuple[str, GameRecord, int] | None:
    """The last game in the history of the player ``args`` names (the issuer when none):
    (the player's name, the game, its number in ``history``), after FICS's ``Last game
    for NAME was history game N.``; None after ``There is no old game for NAME.``"""
    name = _who(ctx, args)
    records, numbers = await numbered_history(ctx.core, ctx.session, name)
    name = _spelled(records, name)
    if not records:
        ctx.reply(f"There is no old game for {name}.")
        return None
    ctx.reply(f"Last game for {name} was history game {numbers[-1]}.")
    return name, records[-1], numbers[-1]


@command("oldmoves", CN.SCN_MISCELLANEOUS, "oldmoves [name]")
async def oldmoves(ctx: Context, args: str) -> None:
    """The moves of a player's last game (FICS help ``oldmoves``): lasker's com_oldmoves
    names it and runs ``smoves NAME N``."""
    found = await last_game(ctx, args)
    if found is not None:
        record = readable(ctx, found[1])
        if record is not None:
            show_moves(ctx, record)


def movelist_text(record: GameRecord, start: chess.Board, moves: Sequence[ServerMove]) -> list[str]:
    """A stored game's moves as FICS's ``moves`` shows them."""
    white = f"{record.white} ({rating_text(record.white_rating)})"
    black = f"{record.black} ({rating_text(record.black_rating)})"
    odds = None
    if record.black_initial is not None and record.black_increment is not None:
        odds = record.black_initial, record.black_increment
    terms = Terms.of(
        record.game_variant, record.rated, record.initial, record.increment, record.rating_type,
        odds,
    )  # fmt: skip
    words = f"{'Rated' if record.rated else 'Unrated'} {terms.fics_type} match"
    black_time = terms.time_of(False)
    more = (  # lasker's movesToString with time odds
        f" AND {black_time[0]} minutes, increment: {black_time[1]} seconds" if terms.odds else ""
    )
    rows = [
        f"{white} vs. {black} --- {record.started.strftime('%a %b %d, %H:%M UTC %Y')}",
        f"{words}, initial time: {record.initial} minutes, increment: {record.increment} seconds"
        f"{more}.",
        "",
        f"Move  {record.white:<24}{record.black}",
        "----  ---------------------   ---------------------",
    ]
    cells = [f"{m.san:<8}{format_move_time(m.time_ms, False)}" for m in moves]
    if start.turn == BLACK:
        cells.insert(0, "...")
    number = start.fullmove_number
    for index in range(0, len(cells), 2):
        pair = cells[index : index + 2]
        rows.append(f"{number:3d}.  {pair[0]:<24}{pair[1] if len(pair) > 1 else ''}".rstrip())
        number += 1
    _, description = result_of(record)
    rows.append(f"      {{{description}}} {record.score}")
    return rows


def final_position(record: GameRecord) -> tuple[chess.Board, list[ServerMove]]:
    """The position a stored game ended in (or was adjourned at), and its moves."""
    start, moves = replay(record)
    board = start.copy(stack=False)
    for made in moves:
        supply_drop(board, made.move)
        board.push(made.move)
    return board, moves


def _stored_jboard(record: GameRecord, board: chess.Board, moves: Sequence[ServerMove]) -> Any:
    """DG_JBOARD (49) of a stored game's final position, status -1: "played (1),
    examined (0), or stored (-1)"."""
    view = BoardView.of(board)
    last = moves[-1] if moves else None
    return dg.Jboard(
        "".join(view.ranks),
        view.side_to_move,
        view.double_push_file,
        *view.castling,
        view.move_number,
        last.san if last is not None else "",
        last.smith if last is not None else "",
        record.white_clock // 1000,
        record.black_clock // 1000,
        JBOARD_STORED,
        False,
    )


@command("sposition", CN.CN_SPOSITION, "sposition <name> [game number] | #id")
async def sposition(ctx: Context, args: str) -> None:
    record = await find_record(ctx, args)
    if record is None:
        return
    start, moves = replay(record)
    board, _ = final_position(record)
    session, batch = ctx.session, ctx.batch
    # "gamenumber could be -1 in the case of a stored position (spos or smoves)" (DG 25):
    # the moves (DG_POSITION_BEGIN(2) or DG_MOVE_LIST), DG_SET_BOARD, DG_FEN and DG_MSEC
    # ("(13) spos"), as smoves sends them
    _send_stored_line(ctx, record, start, moves)
    if DG.JBOARD in session.level2:
        batch.add(session, Datagram(_stored_jboard(record, board, moves)))
    result = _stored_result(record)
    if result is not None:
        ctx.batch.add(ctx.session, result)
    facts = BoardFacts(
        -1,
        record.white,
        record.black,
        record.initial,
        record.increment,
        record.white_clock,
        record.black_clock,
        moves[-1].time_ms if moves else 0,
        ply=len(moves),
        recent=recent_moves(moves),
    )
    ctx.reply(f"Position of {record.white} vs. {record.black} ({len(moves)} half-moves):")
    ctx.batch.add(ctx.session, isolated_board(board, facts))
