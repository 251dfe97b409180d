"""Commands of a game in progress: resign, draw, abort, adjourn, takeback, flag, moretime.

Offers (draw, abort, adjourn, takeback) are accepted by the same command from the other
player; DG_OFFERS_IN_MY_GAME (21) shows them to players and observers. A draw is also how
a player claims threefold repetition or the 50-move rule.
"""

from __future__ import annotations

from icswire.protocol import datagrams as dg
from icswire.protocol.level1 import CommandNumber as CN
from icswire.server.core.boards import BLACK, WHITE
from icswire.server.core.hub import CommandSet, Context
from icswire.server.core.numbers import parse_number
from icswire.server.core.render import Datagram, lines
from icswire.server.features.play.games import BoardMessage, Game, Games

COMMANDS = CommandSet()
command = COMMANDS.command

_OFFER_TEXT = {
    "draw": "offers you a draw",
    "abort": "would like to abort the game",
    "adjourn": "would like to adjourn the game",
}


def _games(ctx: Context) -> Games:
    return ctx.core.state(Games)


def _game(ctx: Context) -> Game | None:
    game = _games(ctx).by_player.get(ctx.session)
    if game is None:
        ctx.reply("You are not playing a game.")
    return game


def _show_offers(ctx: Context, game: Game) -> None:
    """DG_OFFERS_IN_MY_GAME to the table, ``<pf>``/``<pt>`` to the players."""
    ctx.batch.add_all(game.audience(), Datagram(game.offers_record()))
    _games(ctx).sync_offers(game, ctx.batch)


async def _offer(ctx: Context, kind: str, status: int, mode: int) -> None:
    """Offer, or accept the other player's offer of, a draw / abort / adjournment."""
    game = _game(ctx)
    if game is None:
        return
    color = game.color_of(ctx.session)
    assert color is not None
    offered = game.offers.setdefault(kind, set())
    if (not color) in offered:
        _games(ctx).end(game, status, mode, color, ctx.batch)
        return
    if kind == "abort" and len(game.moves) < 2:  # before move 2 either player may abort
        _games(ctx).end(game, 3, 7, color, ctx.batch)
        return
    offered.add(color)
    opponent = game.player(not color)
    ctx.batch.add(opponent, lines(f"{ctx.session.name} {_OFFER_TEXT[kind]}."))
    ctx.reply(f"{kind.capitalize()} request sent.")
    _show_offers(ctx, game)


@command("draw", CN.CN_DRAW, "draw")
async def draw(ctx: Context, args: str) -> None:
    game = _games(ctx).by_player.get(ctx.session)
    if game is not None:
        color = game.color_of(ctx.session)
        assert color is not None
        if game.board.can_claim_threefold_repetition():
            _games(ctx).end(game, 1, 2, color, ctx.batch)
            return
        if game.board.can_claim_fifty_moves():
            _games(ctx).end(game, 1, 3, color, ctx.batch)
            return
    await _offer(ctx, "draw", 1, 0)


@command("abort", CN.CN_ABORT, "abort")
async def abort(ctx: Context, args: str) -> None:
    await _offer(ctx, "abort", 3, 0)


@command("adjourn", CN.CN_ADJOURN, "adjourn")
async def adjourn(ctx: Context, args: str) -> None:
    game = _games(ctx).by_player.get(ctx.session)
    if game is not None and not (game.white.registered and game.black.registered):
        ctx.reply("Only games between registered players can be adjourned.")
        return
    await _offer(ctx, "adjourn", 2, 0)


@command("resign", CN.CN_RESIGN, "resign")
async def resign(ctx: Context, args: str) -> None:
    game = _game(ctx)
    if game is not None:
        color = game.color_of(ctx.session)
        assert color is not None
        _games(ctx).end(game, 0, 0, color, ctx.batch)


@command("flag", CN.CN_FLAG, "flag")
async def flag(ctx: Context, args: str) -> None:
    game = _game(ctx)
    if game is None:
        return
    color = game.color_of(ctx.session)
    if game.board.turn == color or not _games(ctx).flag_fell(game):
        # FICS's words (PyChess reads them as a flag call refused)
        ctx.reply("Opponent is not out of time, wait for server autoflag.")
        return
    _games(ctx).out_of_time(game, ctx.batch)


@command("moretime", CN.CN_MORETIME, "moretime <seconds>")
async def moretime(ctx: Context, args: str) -> None:
    game = _game(ctx)
    if game is None:
        return
    seconds = parse_number(args.strip())
    if seconds is None or not 1 <= seconds <= 36000:
        ctx.reply("Usage: moretime <seconds> (1 to 36000)")
        return
    color = game.color_of(ctx.session)
    assert color is not None
    opponent = not color
    game.clock_ms[opponent] += seconds * 1000
    letter = "W" if opponent == WHITE else "B"
    receivers = list(game.audience())
    ctx.batch.add_all(receivers, Datagram(dg.Moretime(game.number, letter, seconds)))
    ctx.batch.add_all(
        receivers,
        Datagram(
            dg.SetClock(game.number, game.clock_now(WHITE) // 1000, game.clock_now(BLACK) // 1000)
        ),
    )
    ctx.batch.add(
        game.player(opponent),
        lines(f"{ctx.session.name} has added {seconds} seconds to your clock."),
    )
    ctx.reply(f"{seconds} seconds were added to your opponent's clock.")
    _games(ctx).rearm(game)
    ctx.batch.add_all(receivers, BoardMessage(game))


@command("takeback", CN.CN_TAKEBACK, "takeback [plies]")
async def takeback(ctx: Context, args: str) -> None:
    game = _game(ctx)
    if game is None:
        return
    plies = parse_number(args.strip()) if args.strip() else 1
    if plies is None:
        ctx.reply("Usage: takeback [plies]")
        return
    if not 1 <= plies <= len(game.moves):
        # FICS's words, which PyChess reads
        if game.moves:
            ctx.reply(f"There are only {len(game.moves)} half moves in your game.")
        else:
            ctx.reply("There are no moves in your game.")
        return
    color = game.color_of(ctx.session)
    assert color is not None
    if game.takeback.get(not color) == plies:
        _games(ctx).take_back(game, plies, ctx.batch)
        return
    game.takeback[color] = plies
    ctx.batch.add(
        game.player(not color),
        lines(f"{ctx.session.name} would like to take back {plies} half move(s)."),
    )
    ctx.reply("Takeback request sent.")
    _show_offers(ctx, game)
