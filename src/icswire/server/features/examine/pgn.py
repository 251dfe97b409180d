"""A stored game as PGN text: ``spgn`` (the game named as ``smoves`` names one; ``pgn`` of
a game being played, examined or observed is the watching feature's), and FICS's
``mailstored`` and ``mailoldmoves``, which mail that text to the issuer's address.

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
from icswire.server.core.dispatch.mailing import mail_allowed, mail_to_issuer
from icswire.server.core.model.openings import UNKNOWN, board_opening
from icswire.server.core.render.gamelists import result_of
from icswire.server.core.render.pgngames import dated, named
from icswire.server.core.storage.records import GameRecord
from icswire.server.features.examine.games import replay
from icswire.server.features.examine.stored import find_record, last_game, readable

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
    named(game, board_opening(game.board, record.game_variant))
    if game.eco is None and record.eco and record.eco != UNKNOWN:
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


def _subject(record: GameRecord, words: list[str]) -> str:
    """lasker's subject of a mailed stored game: a history game by its player and number,
    a journal game (``NAME %A``) or another stored game by its players."""
    players = f"{record.white} vs {record.black}"
    if len(words) > 1 and words[1].startswith("%"):
        return f"FICS journal game {players}"
    if words[0].startswith("#"):
        return f"FICS stored game {words[0]}: {players}"
    return f"FICS history game: {words[0]} {words[1] if len(words) > 1 else -1}"


@command("mailstored", CN.CN_MAILSTORED, "mailstored <name> [game number|%slot] | #id")
async def mailstored(ctx: Context, args: str) -> None:
    """A stored game, as ``smoves`` names one, mailed as PGN to the issuer's address
    (FICS help ``mailstored``)."""
    mailer = mail_allowed(ctx)
    if mailer is None:
        return
    record = await find_record(ctx, args)
    if record is not None:
        text = pgn_text(record_game(record))
        await mail_to_issuer(ctx, mailer, _subject(record, args.split()), text)


@command("mailoldmoves", CN.CN_MAILOLDMOVES, "mailoldmoves [name]")
async def mailoldmoves(ctx: Context, args: str) -> None:
    """The last game of a player's history, mailed as PGN to the issuer's address (FICS
    help ``mailoldmoves``: lasker's com_mailoldmoves names it, then mails it as
    ``mailstored NAME N``)."""
    mailer = mail_allowed(ctx)
    if mailer is None:
        return
    found = await last_game(ctx, args)
    if found is None:
        return
    name, record, number = found
    if readable(ctx, record) is not None:
        text = pgn_text(record_game(record))
        await mail_to_issuer(ctx, mailer, f"FICS history game: {name} {number}", text)
