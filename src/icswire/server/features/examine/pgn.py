"""A stored game as PGN text: ``spgn`` (the game named as ``smoves`` names one; ``pgn`` of
a game being played, examined or observed is the watching feature's).

The text is :func:`icswire.boards.pgn.pgn_text`'s, of the game rebuilt as a client would
rebuild it (:class:`icswire.boards.game.Game`), with the date and time it began.
"""

from __future__ import annotations

from icswire.boards.bughouse import supply_drop
from icswire.boards.game import Game, PlayedMove
from icswire.boards.pgn import pgn_text
from icswire.protocol.codes import ResultStatus
from icswire.protocol.level1 import CommandNumber as CN
from icswire.server.core.dispatch.hub import CommandSet, Context
from icswire.server.core.render.gamelists import result_of
from icswire.server.core.render.pgngames import dated
from icswire.server.core.storage.records import GameRecord
from icswire.server.features.examine.games import replay
from icswire.server.features.examine.stored import find_record

COMMANDS = CommandSet()
command = COMMANDS.command


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
    dated(game, record.started)
    if record.event:
        game.tags["Event"] = record.event
    if record.eco and record.eco != "?":
        game.eco = record.eco
    if record.status is not None and record.status != ResultStatus.ADJOURNED:
        game.result_code, game.result_description = result_of(record)
        game.result = record.score
    return game


@command("spgn", CN.CN_SPGN, "spgn <name> [game number] | #id")
async def spgn(ctx: Context, args: str) -> None:
    """A stored game, as PGN."""
    record = await find_record(ctx, args)
    if record is not None:
        ctx.reply(*pgn_text(record_game(record)).splitlines())
