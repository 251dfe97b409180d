"""A game as PGN text: ``pgn`` of a game being played, examined or observed (its moves up
to the position shown), and ``spgn`` of a stored game (named as ``smoves`` names one).

The text is :func:`icswire.boards.pgn.pgn_text`'s, of the game rebuilt as a client would
rebuild it (:class:`icswire.boards.game.Game`), with the date and time it began.
"""

from __future__ import annotations

from datetime import datetime

from icswire.boards.bughouse import supply_drop
from icswire.boards.game import Game, PlayedMove
from icswire.boards.pgn import pgn_text
from icswire.protocol import datagrams as dg
from icswire.protocol.codes import ResultStatus
from icswire.protocol.datagrams import DG
from icswire.protocol.level1 import CommandNumber as CN
from icswire.server.core.dispatch.hub import CommandSet, Context, Route
from icswire.server.core.model.tables import Table
from icswire.server.core.render.gamelists import result_of
from icswire.server.core.storage.records import GameRecord
from icswire.server.features.examine.fen import named_table
from icswire.server.features.examine.games import replay
from icswire.server.features.examine.stored import find_record

COMMANDS = CommandSet()
command = COMMANDS.command

_RESULTS = ("1-0", "0-1", "1/2-1/2")


def _dated(game: Game, started: datetime) -> None:
    game.tags["Date"] = started.strftime("%Y.%m.%d")
    game.tags["Time"] = started.strftime("%H:%M:%S")


def table_game(table: Table) -> Game:
    """``table``'s game up to the position shown, as a client rebuilds it."""
    game = Game.from_started(dg.record_as(DG.ISOLATED_BOARD, table.game_record()))
    shown = table.movelist()
    game.reset(shown.start)
    for san, _ in shown.moves:
        game.push(san, None)
    _dated(game, shown.started)
    if shown.score in _RESULTS:
        game.result, game.result_description = shown.score, shown.result
    return game


def record_game(record: GameRecord) -> Game:
    """A stored game, as a client rebuilds it: its moves with the time each took and the
    mover's clock after it, its result when it is over."""
    start, moves = replay(record)
    game = Game(
        -1, record.white, record.black, record.white_rating, record.black_rating,
        wild=record.wild, variant=record.game_variant, rating_type=record.rating_type,
        rated=record.rated, initial_minutes=record.initial,
        increment_seconds=record.increment, game_id=record.id, played=False,
    )  # fmt: skip
    game.reset(start)
    for made in moves:
        game.moves.append(PlayedMove(made.move, made.san, made.smith, made.time_ms, made.clock_ms))
        supply_drop(game.board, made.move)
        game.board.push(made.move)
    _dated(game, record.started)
    if record.eco and record.eco != "?":
        game.eco = record.eco
    if record.status is not None and record.status != ResultStatus.ADJOURNED:
        game.result_code, game.result_description = result_of(record)
        game.result = record.score
    return game


@command("pgn", CN.CN_PGN, "pgn [game number|name]", route=Route.OF_A_GAME | Route.IN_GAME)
async def pgn(ctx: Context, args: str) -> None:
    """A game being played, examined or observed, as PGN."""
    table = named_table(ctx, args)
    if table is not None:
        ctx.reply(*pgn_text(table_game(table)).splitlines())


@command("spgn", CN.CN_SPGN, "spgn <name> [game number] | #id")
async def spgn(ctx: Context, args: str) -> None:
    """A stored game, as PGN."""
    record = await find_record(ctx, args)
    if record is not None:
        ctx.reply(*pgn_text(record_game(record)).splitlines())
