"""Commands of a game in progress: resign, draw, abort, adjourn, takeback, pause,
unpause, switch, flag, moretime, time (the clocks of a game), and bughouse's ptime.

A request (draw, abort, adjourn, takeback, pause, unpause, switch) is one of the server's
numbered offers (``pending``, ``<pf>``); the other player accepts it with the same command
or with ``accept``, refuses it with ``decline``, and its maker takes it back with
``withdraw``. FICS's texts (gameproc.c, pending.c): ``alice offers you a draw.``,
``You accept the draw request from alice.``, ``bob declines the draw request.``; observers
read ``Game 5: alice offers a draw.``. DG_OFFERS_IN_MY_GAME (21) shows the draw, abort,
adjourn and takeback requests to players and observers. A draw is also how a player
claims threefold repetition or the 50-move rule. A bughouse board cannot be adjourned,
taken back, paused or switched: its partner board goes on (and the pieces passed stay
passed).
"""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING

from icswire.protocol import datagrams as dg
from icswire.protocol.codes import AbortMode, AdjournMode, DrawMode, ResultStatus, WinMode
from icswire.protocol.level1 import CommandNumber as CN
from icswire.server.core.dispatch.hub import CommandSet, Context, Route
from icswire.server.core.dispatch.numbers import parse_number
from icswire.server.core.events.games import (
    BoardShown,
    ClockPaused,
    RequestAnswered,
    RequestMade,
)
from icswire.server.core.model.offers import NO_PARAMS, Offer, Offers
from icswire.server.core.model.partners import partner_of
from icswire.server.core.model.requests import KINDS
from icswire.server.core.render.batch import Batch, Datagram, lines
from icswire.server.core.render.boards import BLACK, WHITE
from icswire.server.features.play.games import Game, Games

if TYPE_CHECKING:
    from icswire.server.core.model.users import User

COMMANDS = CommandSet()
command = COMMANDS.command

#: Requests that would break a bughouse game's link with its partner board.
_NOT_IN_BUGHOUSE = frozenset(("adjourn", "takeback", "pause", "unpause", "switch"))
#: lasker's words where it has them (gameproc.c's com_adjourn, com_takeback).
_BUGHOUSE_REFUSALS = {
    "adjourn": "Bughouse games cannot be adjourned.",
    "takeback": "Takeback not implemented for bughouse games yet.",
}


def _games(ctx: Context) -> Games:
    return ctx.core.state(Games)


def _game(ctx: Context) -> Game | None:
    game = _games(ctx).by_player.get(ctx.session)
    if game is None:
        ctx.reply("You are not playing a game.")
    return game


def _show_offers(ctx: Context, game: Game) -> None:
    """DG_OFFERS_IN_MY_GAME to the table, while the game goes on."""
    if _games(ctx).by_number.get(game.number) is game:
        ctx.batch.add_all(game.audience(), game.offers())


def _answered(game: Game, batch: Batch, me: User, other: User, answer: str, kind: str) -> None:
    """``other`` and the observers hear of ``me``'s answer to a request."""
    said = RequestAnswered(game.number, me.name, other.name, answer, kind)
    batch.add_all([other, *game.observers], said)


async def _ask(ctx: Context, game: Game, kind: str, params: str = NO_PARAMS) -> None:
    """Make a request of the other player, or accept the one it made of this kind."""
    if game.partner is not None and kind in _NOT_IN_BUGHOUSE:
        ctx.reply(_BUGHOUSE_REFUSALS.get(kind, f"You cannot {kind} a bughouse game."))
        return
    color = game.color_of(ctx.session)
    if color is None:
        raise RuntimeError("not a player of this game")
    theirs = game.requests.get((kind, not color))
    if theirs is not None and theirs.params == params:
        await _accept(ctx, game, theirs)
        return
    games = _games(ctx)
    opponent = game.player(not color)
    info = KINDS[kind]
    counter = theirs is not None
    if theirs is not None:  # a takeback of another number: a counter-request (FICS)
        games.drop_request(game, theirs, ctx.batch)
        ctx.reply(
            "You disagree on the number of half-moves to takeback.",
            "Alternate takeback request sent.",
        )
    else:
        ctx.reply(f"{kind.capitalize()} request sent.")
    made = RequestMade(game.number, ctx.session.name, opponent.name, kind, params, counter)
    ctx.batch.add_all([opponent, *game.observers], made)
    mine = game.requests.get((kind, color))
    if mine is not None:
        if mine.params == params:
            return
        games.drop_request(game, mine, ctx.batch)
    offer = ctx.core.state(Offers).open(
        kind, ctx.session, opponent, ctx.batch, params, words=info.offering_text(params), owner=game
    )
    offer.accept = partial(_accept_offer, game, offer)
    offer.decline = partial(_refuse, game, offer, False)
    offer.withdraw = partial(_refuse, game, offer, True)
    game.requests[(kind, color)] = offer
    _show_offers(ctx, game)


async def _accept_offer(game: Game, offer: Offer, ctx: Context) -> None:
    """``accept N`` of a request: as FICS does, the command of the request (``draw``,
    ``takeback 2``...) as if its receiver typed it."""
    if offer not in game.requests.values():
        return
    await _accept(ctx, game, offer)


async def _accept(ctx: Context, game: Game, offer: Offer) -> None:
    """The receiver agrees: every other request made to it is declined, then it happens."""
    games, batch = _games(ctx), ctx.batch
    color = game.color_of(ctx.session)
    if color is None:
        raise RuntimeError("not a player of this game")
    games.drop_request(game, offer, batch)
    games.decline_requests(game, color, batch)
    noun, kind = KINDS[offer.kind].noun, offer.kind
    ctx.reply(f"You accept the {noun} from {offer.sender.name}.")
    _answered(game, batch, ctx.session, offer.sender, "accepts", kind)
    if kind == "draw":
        games.end(game, ResultStatus.DRAW, DrawMode.AGREEMENT, color, batch)
    elif kind == "abort":
        games.end(game, ResultStatus.ABORTED, AbortMode.AGREEMENT, color, batch)
    elif kind == "adjourn":
        games.end(game, ResultStatus.ADJOURNED, AdjournMode.AGREEMENT, color, batch)
    elif kind == "takeback":
        games.take_back(game, int(offer.params), batch)
    elif kind == "pause":
        games.pause(game, batch)
        batch.add_all(game.audience(), ClockPaused(game.number, *game.player_names(), True))
    elif kind == "unpause":
        games.unpause(game, batch)
        batch.add_all(game.audience(), ClockPaused(game.number, *game.player_names(), False))
    elif kind == "switch":
        games.switch(game, batch)
    _show_offers(ctx, game)


async def _refuse(game: Game, offer: Offer, withdrawn: bool, ctx: Context) -> None:
    """``decline`` of a request to me or ``withdraw`` of mine (FICS's pending.c; PyChess
    reads ``bob declines the draw request.``)."""
    if offer not in game.requests.values():
        return
    _games(ctx).drop_request(game, offer, ctx.batch)
    noun = KINDS[offer.kind].noun
    if withdrawn:
        ctx.reply(f"You withdraw the {noun} to {offer.receiver.name}.")
        _answered(game, ctx.batch, ctx.session, offer.receiver, "withdraws", offer.kind)
    else:
        ctx.reply(f"You decline the {noun} from {offer.sender.name}.")
        _answered(game, ctx.batch, ctx.session, offer.sender, "declines", offer.kind)
    _show_offers(ctx, game)


@command("draw", CN.CN_DRAW, "draw", route=Route.IN_GAME)
async def draw(ctx: Context, args: str) -> None:
    game = _game(ctx)
    if game is None:
        return
    color = game.color_of(ctx.session)
    if color is None:
        raise RuntimeError("not a player of this game")
    if game.board.can_claim_threefold_repetition():
        _games(ctx).end(game, ResultStatus.DRAW, DrawMode.REPETITION, color, ctx.batch)
        return
    if game.board.can_claim_fifty_moves():
        _games(ctx).end(game, ResultStatus.DRAW, DrawMode.FIFTY_MOVES, color, ctx.batch)
        return
    await _ask(ctx, game, "draw")


@command("abort", CN.CN_ABORT, "abort", route=Route.IN_GAME)
async def abort(ctx: Context, args: str) -> None:
    game = _game(ctx)
    if game is None:
        return
    color = game.color_of(ctx.session)
    if color is None:
        raise RuntimeError("not a player of this game")
    if len(game.moves) < 2 and ("abort", not color) not in game.requests:
        # before move 2 either player may abort alone (freechess.org: "Game aborted on
        # move 1"); from ply 2 on it is a request the other accepts
        _games(ctx).end(game, ResultStatus.ABORTED, AbortMode.AT_MOVE_1, color, ctx.batch)
        return
    if ("abort", not color) not in game.requests and _courtesy(ctx, game, color, "aborted"):
        _games(ctx).end(game, ResultStatus.ABORTED, AbortMode.COURTESY, color, ctx.batch)
        return
    await _ask(ctx, game, "abort")


def _courtesy(ctx: Context, game: Game, color: bool, done: str) -> bool:
    """lasker's courtesyabort and courtesyadjourn: a player with time left whose opponent
    has none ends the game at once rather than calling the flag; both are told so."""
    if game.terms.untimed or game.clock_now(color) <= 0 or game.clock_now(not color) > 0:
        return False
    ctx.reply(f"Since you have time, and your opponent has none, the game has been {done}.")
    what = "aborted" if done == "aborted" else "adjourned"
    said = f"Your opponent has {what} the game rather than calling your flag."
    ctx.batch.add(game.player(not color), lines(said))
    return True


@command("adjourn", CN.CN_ADJOURN, "adjourn", route=Route.IN_GAME)
async def adjourn(ctx: Context, args: str) -> None:
    game = _game(ctx)
    if game is None:
        return
    if not (game.white.registered and game.black.registered):
        # lasker's words (a guest's game can only be aborted)
        ctx.reply('Both players must be registered to adjourn a game.  Use "abort".')
        return
    color = game.color_of(ctx.session)
    if color is None:
        raise RuntimeError("not a player of this game")
    if (
        game.partner is None
        and ("adjourn", not color) not in game.requests
        and _courtesy(ctx, game, color, "adjourned")
    ):
        _games(ctx).end(game, ResultStatus.ADJOURNED, AdjournMode.COURTESY, color, ctx.batch)
        return
    await _ask(ctx, game, "adjourn")


@command("pause", CN.SCN_MISCELLANEOUS, "pause", route=Route.IN_GAME)
async def pause(ctx: Context, args: str) -> None:
    game = _game(ctx)
    if game is None:
        return
    if game.paused:
        ctx.reply('Game is already paused, use "unpause" to resume.')
        return
    await _ask(ctx, game, "pause")


@command("unpause", CN.SCN_MISCELLANEOUS, "unpause", route=Route.IN_GAME)
async def unpause(ctx: Context, args: str) -> None:
    game = _game(ctx)
    if game is None:
        return
    if not game.paused:
        ctx.reply("Game is not paused.")
        return
    await _ask(ctx, game, "unpause")


@command("switch", CN.SCN_MISCELLANEOUS, "switch", route=Route.IN_GAME)
async def switch(ctx: Context, args: str) -> None:
    game = _game(ctx)
    if game is None:
        return
    if game.moves:  # FICS's words, which PyChess reads
        ctx.reply("You cannot switch sides once a game is underway.")
        return
    await _ask(ctx, game, "switch")


@command("resign", CN.CN_RESIGN, "resign", route=Route.IN_GAME)
async def resign(ctx: Context, args: str) -> None:
    game = _game(ctx)
    if game is not None:
        color = game.color_of(ctx.session)
        if color is None:
            raise RuntimeError("not a player of this game")
        _games(ctx).end(game, ResultStatus.WIN, WinMode.RESIGNS, color, ctx.batch)


@command("flag", CN.CN_FLAG, "flag", route=Route.IN_GAME)
async def flag(ctx: Context, args: str) -> None:
    game = _game(ctx)
    if game is None:
        return
    color = game.color_of(ctx.session)
    if game.terms.untimed:  # lasker's com_flag
        ctx.reply("You can't flag an untimed game.")
        return
    if len(game.moves) < 2:  # lasker's com_flag: numHalfMoves < 2
        ctx.reply("You cannot flag before both players have moved.", "Use abort instead.")
        return
    if game.board.turn == color or not _games(ctx).flag_fell(game):
        # FICS's words (PyChess reads them as a flag call refused)
        ctx.reply("Opponent is not out of time, wait for server autoflag.")
        return
    _games(ctx).out_of_time(game, ctx.batch)


@command("moretime", CN.CN_MORETIME, "moretime <seconds>", route=Route.IN_GAME)
async def moretime(ctx: Context, args: str) -> None:
    game = _game(ctx)
    if game is None:
        return
    seconds = parse_number(args.strip())
    if seconds is None or not 1 <= seconds <= 36000:
        ctx.reply("Usage: moretime <seconds> (1 to 36000)")
        return
    color = game.color_of(ctx.session)
    if color is None:
        raise RuntimeError("not a player of this game")
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
    ctx.batch.add_all(receivers, BoardShown(game.position()))


@command("takeback", CN.CN_TAKEBACK, "takeback [plies]", route=Route.IN_GAME)
async def takeback(ctx: Context, args: str) -> None:
    game = _game(ctx)
    if game is None:
        return
    plies = parse_number(args.strip()) if args.strip() else 1
    if plies is None:
        ctx.reply("Usage: takeback [plies]")
        return
    if plies < 1:
        ctx.reply("You can't takeback less than 1 move.")
        return
    if game.partner is not None:
        ctx.reply(_BUGHOUSE_REFUSALS["takeback"])
        return
    if plies > len(game.moves):
        # FICS's words, which PyChess reads
        if game.moves:
            ctx.reply(f"There are only {len(game.moves)} half moves in your game.")
        else:
            ctx.reply("There are no moves in your game.")
        color = game.color_of(ctx.session)
        theirs = None if color is None else game.requests.get(("takeback", not color))
        if theirs is not None:  # lasker's com_takeback: a counter that cannot be, declines
            _games(ctx).drop_request(game, theirs, ctx.batch)
            said = f"{ctx.session.name} has declined the takeback request."
            ctx.batch.add(theirs.sender, lines("", said))
            _show_offers(ctx, game)
        return
    await _ask(ctx, game, "takeback", str(plies))


@command("time", CN.CN_TIME, "time [game number|name]", route=Route.OF_A_GAME | Route.IN_GAME)
async def time_(ctx: Context, args: str) -> None:
    """The clocks of one's game, or of the game a number or a player names (lasker's
    ``com_time``); an examined game has none. No DG: DG_MSEC (56) lists when it is sent,
    and a ``time`` command is not one of them."""
    word = args.split()[0] if args.split() else ""
    game = _game(ctx) if not word else _named_game(ctx, word)
    if game is None:
        return
    if ctx.session.talks_icc:
        ctx.reply(_icc_clocks(game))
    else:
        ctx.reply(*(_clock_line(game, color) for color in (WHITE, BLACK)))


def _named_game(ctx: Context, word: str) -> Game | None:
    """The game played that ``word`` names (its number, or one of its players); None,
    with FICS's words, where there is none."""
    games = _games(ctx)
    number = parse_number(word)
    if number is not None:
        found = games.by_number.get(number)
        if found is None:
            ctx.reply("There is no such game.")
        return found
    player = ctx.world.find(word)
    if player is None:
        ctx.reply(f'No user named "{word}" is logged in.')
        return None
    found = games.by_player.get(player)
    if found is None:
        ctx.reply(f"{player.name} is not playing a game.")
    return found


def _icc_clocks(game: Game) -> str:
    """One line for an ICC session: ``Game 7: Alpha 2:58, Beta 3:00 (Alpha to move).``"""

    def clock(color: bool) -> str:
        milliseconds = game.clock_now(color)
        seconds = abs(milliseconds) // 1000
        sign = "-" if milliseconds < 0 and seconds else ""
        return f"{game.player(color).name} {sign}{seconds // 60}:{seconds % 60:02d}"

    mover = game.player(game.board.turn).name
    paused = ", clocks paused" if game.paused else ""
    return f"Game {game.number}: {clock(WHITE)}, {clock(BLACK)} ({mover} to move{paused})."


@command("ptime", CN.CN_TIME, "ptime", route=Route.IN_GAME)
async def ptime(ctx: Context, args: str) -> None:
    """The clocks of the partner's game, as FICS's ``time`` prints them (lasker's
    ``com_ptime`` is ``time PARTNER``)."""
    partner = partner_of(ctx.core, ctx.session)
    if partner is None:
        ctx.reply("You do not have a partner.")
        return
    game = _games(ctx).by_player.get(partner)
    if game is None:
        ctx.reply(f"{partner.name} is not playing a game.")
        return
    ctx.reply(*(_clock_line(game, color) for color in (WHITE, BLACK)))


def _clock_line(game: Game, color: bool) -> str:
    """``White (Alpha) : 1 mins, 58 secs`` (a clock below zero shows as zero)."""
    seconds = max(game.clock_now(color), 0) // 1000
    side = "White" if color == WHITE else "Black"
    return f"{side} ({game.player(color).name}) : {seconds // 60} mins, {seconds % 60} secs"
