"""Watching games: ``games``, ``observe``, ``unobserve``, ``follow``, ``allobservers``,
``moves``, ``refresh``, ``fen``, ``pgn``, ``logpgn``, ``mailmoves``, ``eco``, ``gameid``,
``flip``, ``kibitz``, ``whisper`` and ``primary`` (which of the games one observes those
without a game number are about); a bughouse partner's games (``pobserve``, ``pfollow``);
and, for TDs, watching made for others (``xobserve``, ``qfollow``, ``qunfollow``).

Observers get what players get (icc-formats.txt section 4, "MY GAMES"): DG_STARTED_OBSERVING
(18), DG_FLIP (39), the moves so far (DG_MOVE_LIST or DG_POSITION_BEGIN(2)) and the clocks
(DG_MSEC), DG_MY_RELATION_TO_GAME (43) ``O``, DG_PLAYERS_IN_MY_GAME (20) for everybody at
the table (who in turn hear of the newcomer), and a board with relation 0 (-2 for an
examined game). ``unobserve`` sends DG_STOP_OBSERVING (19). ``refresh`` of a game one
watches is DG_REFRESH (41) and a board; of another game DG_ISOLATED_BOARD (40), its moves,
DG_JBOARD (49, status 1 played, 0 examined) and a board with relation -3. ``flip`` turns
one receiver's board (DG_FLIP, DG_REFRESH). ``kibitz`` reaches players and observers,
``whisper`` observers only, as text or DG_KIBITZ (26), for those whose ``kibitz`` variable
is on.

Played and examined games alike are :class:`~icswire.server.core.model.tables.Table` s here.
Hooks: a played game's start makes its players' followers observe it; its end takes it
off its observers' lists; turning DG_GAME_STARTED on lists every game; a user who leaves
stops following and observing.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from icswire.boards.openings import with_eco
from icswire.boards.pgn import pgn_text
from icswire.protocol import datagrams as dg
from icswire.protocol.datagrams import DG
from icswire.protocol.level1 import CommandNumber as CN
from icswire.server.core.dispatch.hub import CommandSet, Context, Route
from icswire.server.core.dispatch.mailing import mail_allowed, mail_to_issuer
from icswire.server.core.dispatch.named import player_here
from icswire.server.core.dispatch.numbers import parse_number
from icswire.server.core.events.games import ObserverJoined, ObserverLeft
from icswire.server.core.events.talk import Kibitzed, Speaker
from icswire.server.core.model.names import name_key
from icswire.server.core.model.openings import is_chess, table_opening
from icswire.server.core.model.partners import partner_of
from icswire.server.core.model.tables import ListedGame, Table
from icswire.server.core.render.batch import Batch, Datagram, lines
from icswire.server.core.render.boards import JBOARD_EXAMINED, JBOARD_PLAYED, peek_jboard
from icswire.server.core.render.movelist import movelist_lines
from icswire.server.core.render.openings import code_lines, fics_lines, icc_line
from icswire.server.core.render.pgngames import table_game
from icswire.server.core.render.texts import rating_text

if TYPE_CHECKING:
    from icswire.server.core.dispatch.hub import Core
    from icswire.server.core.model.users import User

COMMANDS = CommandSet()
command = COMMANDS.command


@dataclass
class Watchers:
    #: follower -> the name key of the player whose games it follows
    follows: dict[User, str] = field(default_factory=dict)
    #: observer -> the game it started observing last (kibitz, refresh, flip without N)
    primary: dict[User, int] = field(default_factory=dict)
    #: follower -> the name key of the player whose partner's games it follows (pfollow)
    pfollows: dict[User, str] = field(default_factory=dict)


# -- finding games ---------------------------------------------------------------------------


def current_game(core: Core, session: User) -> Table | None:
    """The game a command without a game number is about: the one ``session`` plays,
    examines, or observes (the one it began to observe last)."""
    mine = core.tables.seated(session)
    if mine is not None:
        return mine
    return primary_game(core, session)


def primary_game(core: Core, session: User) -> Table | None:
    """The game ``session`` observes that commands without a game number are about: the
    one made primary (``primary``, or observed last), else the lowest numbered."""
    primary = core.state(Watchers).primary.get(session)
    if primary is not None and primary in session.observing:
        found = core.tables.find(primary)
        if found is not None:
            return found
    for number in sorted(session.observing):
        found = core.tables.find(number)
        if found is not None:
            return found
    return None


@command("primary", CN.CN_PRIMARY, "primary [game number|name]")
async def primary(ctx: Context, args: str) -> None:
    """Make one of the games one observes the primary one (kibitz, whisper, refresh,
    moves ... without a game number), in FICS's words (as freechess.org says them)."""
    session = ctx.session
    now = primary_game(ctx.core, session)
    if now is None:
        ctx.reply("You are not observing any games.")
        return
    if not args.strip():
        ctx.reply(f"Game {now.number} is your primary game.")
        return
    game = _find_named(ctx, args)
    if game is None:
        return
    if game.number not in session.observing:
        ctx.reply(f"You are not observing game {game.number}.")
        return
    if game is now:
        ctx.reply(f"Game {game.number} is already your primary game.")
        return
    ctx.core.state(Watchers).primary[session] = game.number
    ctx.reply(f"Game {game.number} is now your primary game.")


def _named_game(ctx: Context, args: str, refusal: str = "") -> Table | None:
    """The game ``args`` names (a number, or a player who plays or examines it); None and
    the reason told when there is none, or it is somebody else's private game (FICS's
    ``Sorry, game N is a private game.``, or ``refusal``). Administrators may see it."""
    found = _find_named(ctx, args)
    if found is not None and not may_watch(ctx.session, found):
        ctx.reply(refusal or f"Sorry, game {found.number} is a private game.")
        return None
    return found


def may_watch(session: User, game: Table) -> bool:
    """Whether ``session`` may watch ``game``: not private, or its player, or an
    administrator (FICS lets ``ADMIN_ADMIN`` observe private games)."""
    return not game.private or session.admin or session in game.seats()


def _find_named(ctx: Context, args: str) -> Table | None:
    """The game the first word of ``args`` names: its number, or a player who plays or
    examines one; None and the reason told when there is none."""
    text = args.strip().split()[0] if args.strip() else ""
    game_number = parse_number(text)
    if game_number is not None:
        found = ctx.core.tables.find(game_number)
        if found is None:
            ctx.reply("There is no such game.")
        return found
    player = ctx.world.find(text)
    if player is None:
        ctx.reply(f'No user named "{text}" is logged in.')
        return None
    found = ctx.core.tables.seated(player)
    if found is None:
        ctx.reply(f"{player.name} is not playing or examining a game.")
    return found


def listed(core: Core, session: User) -> list[Table]:
    """The games ``session`` may see listed: all but others' private games (all of them
    for an administrator)."""
    return [g for g in core.tables.all() if may_watch(session, g)]


@command("games", CN.CN_GAMES, "games [number|name]")
async def games(ctx: Context, args: str) -> None:
    icc = ctx.session.talks_icc
    # FICS lists private games too, flagged ``p`` (FICS help ``games``); ICC does not
    tables = listed(ctx.core, ctx.session) if icc else ctx.core.tables.all()
    shown = [g.listed() for g in tables]
    elsewhere = ctx.core.tables.listed_elsewhere
    if elsewhere is not None:  # a cluster's other nodes
        shown += [g for g in await elsewhere() if not (icc and g.private)]
    if icc:
        icc_games(ctx, sorted(shown))
    else:
        fics_games(ctx, shown, args.split()[0] if args.split() else "")


def icc_games(ctx: Context, shown: list[ListedGame]) -> None:
    """ICC's ``games``: every game by number, and how many are played and examined."""
    if not shown:
        ctx.reply("There are no games in progress.")
        return
    examined = sum(g.examined for g in shown)
    total = f"{len(shown)} games displayed ({len(shown) - examined} played, {examined} examined)."
    ctx.reply(*(g.icc_row for g in shown), "", total)


def fics_games(ctx: Context, every: list[ListedGame], word: str) -> None:
    """FICS's ``games [number|name]`` as freechess.org sends it (lasker's ``com_games``):
    an empty line, the games chosen (game ``number``, or those with a player whose name
    begins with ``word``) by the players' ratings with examined games first, an empty
    line and the count (``of N in progress`` when some were left out)."""
    if not every:
        ctx.reply("There are no games in progress.")
        return
    number = parse_number(word) if word else None
    if number is not None:
        chosen = [g for g in every if g.number == number]
    else:
        key = word.lower()
        chosen = [g for g in every if any(n.lower().startswith(key) for n in (g.white, g.black))]
    total = len(every)
    if not chosen:
        ctx.reply(f"No matching games were found (of {total} in progress).")
        return
    chosen.sort(key=lambda g: (g.order, g.number))
    count = len(chosen)
    plural = "" if count == 1 else "s"
    summary = f"  {count} game{plural} displayed"
    summary += f" (of {total} in progress)." if count < total else "."
    ctx.reply("", *(g.fics_row for g in chosen), "", summary)


def send_lists(core: Core, session: User, number: int, batch: Batch) -> None:
    """What turning DG ``number`` on sends here: for DG_GAME_STARTED (12), every played
    and examined game ("When this feature is activated, I get a list of all the games")."""
    if number == DG.GAME_STARTED:
        for game in listed(core, session):
            batch.add(session, Datagram(game.game_record()))


# -- observing -------------------------------------------------------------------------------


def observe(core: Core, session: User, game: Table, batch: Batch) -> None:
    """``session`` begins to observe ``game``: everything a player or examiner gets when
    a game starts, with relation 0 (-2 examined); the others at the table hear of it."""
    number = game.number
    others = list(game.audience())
    game.observers.add(session)
    session.observing |= {number}
    core.state(Watchers).primary[session] = number
    batch.add(session, lines(f"You are now observing game {number}.", game.observe_title()))
    batch.add(session, Datagram(dg.record_as(DG.STARTED_OBSERVING, game.game_record())))
    batch.add(session, Datagram(dg.Flip(number, game.is_flipped(session))))
    game.send_history(session, batch)
    batch.add(session, Datagram(dg.MyRelationToGame(number, "O")))
    for member in (*others, session):
        kib = bool(member.variables["kibitz"])
        record = dg.PlayersInMyGame(number, member.name, game.seat_symbol(member), kib)
        batch.add(session, Datagram(record))
    batch.add_all(others, ObserverJoined(number, session.name, bool(session.variables["kibitz"])))
    game.greet_observer(session, batch)
    batch.add(session, game.board_message())


def unobserve(session: User, game: Table, batch: Batch) -> None:
    """``session`` stops observing ``game``: DG_STOP_OBSERVING, relation X; the others at
    the table see it leave."""
    number = game.number
    game.observers.discard(session)
    session.observing -= {number}
    game.flipped.discard(session)
    batch.add(session, lines(f"Removing game {number} from observation list."))
    batch.add(session, Datagram(dg.StopObserving(number)))
    batch.add(session, Datagram(dg.MyRelationToGame(number, "X")))
    batch.add_all(list(game.audience()), ObserverLeft(number, session.name))


@command(
    "observe",
    CN.CN_OBSERVE,
    "observe <game number|name>",
    route=Route.OF_A_GAME,
    bare_cn=CN.CN_OBSERVE0,
)
async def observe_(ctx: Context, args: str) -> None:
    if not args.strip():
        ctx.reply("Usage: observe <game number|name>")
        return
    game = _named_game(ctx, args)
    if game is None:
        return
    session = ctx.session
    if session in game.seats():
        verb = "examining" if game.examined else "playing"
        ctx.reply(f"You are {verb} game {game.number}.")
        return
    if session in game.observers:
        ctx.reply(f"You are already observing game {game.number}.")
        return
    observe(ctx.core, session, game, ctx.batch)
    other = game.partner_table  # FICS: observing a bughouse board observes both
    if (
        other is not None
        and may_watch(session, other)
        and session not in other.observers
        and session not in other.seats()
    ):
        observe(ctx.core, session, other, ctx.batch)
        ctx.core.state(Watchers).primary[session] = game.number  # the board asked for


@command(
    "unobserve",
    CN.CN_OBSERVE,
    "unobserve [game number|name]",
    route=Route.OF_A_GAME | Route.OBSERVED_GAME,
)
async def unobserve_(ctx: Context, args: str) -> None:
    session = ctx.session
    if args.strip():
        game = _named_game(ctx, args)
        if game is None:
            return
        if session not in game.observers:
            ctx.reply(f"You are not observing game {game.number}.")
            return
        unobserve(session, game, ctx.batch)
        return
    watched = [g for n in sorted(session.observing) if (g := ctx.core.tables.find(n))]
    if not watched:
        ctx.reply("You are not observing any games.")
        return
    for game in watched:
        unobserve(session, game, ctx.batch)


# -- following -------------------------------------------------------------------------------


def _stop_following(ctx: Context, partner: bool = False) -> None:
    """``follow`` / ``pfollow`` (``partner``) without a name: stop."""
    watchers = ctx.core.state(Watchers)
    table = watchers.pfollows if partner else watchers.follows
    whose = "any player's partner" if partner else "any player"
    if table.pop(ctx.session, None) is None:
        ctx.reply(f"You are not following {whose}.")
    else:
        ctx.reply(f"You will not follow {whose}'s games.")


def _player_to_follow(ctx: Context, name: str, own: str) -> User | None:
    """The player ``name`` online for ``follow`` / ``pfollow``; None after saying why not
    (``own``: what to say when it is the issuer)."""
    player = ctx.world.find(name)
    if player is None:
        ctx.reply(f'No user named "{name}" is logged in.')
        return None
    if player is ctx.session:
        ctx.reply(own)
        return None
    return player


def _observe_followed(ctx: Context, follower: User, game: Table | None) -> None:
    """``follower``, who now follows the player of ``game``, observes it if they may."""
    if game is not None and follower not in game.audience() and may_watch(follower, game):
        observe(ctx.core, follower, game, ctx.batch)


@command("follow", CN.CN_FOLLOW, "follow [name]", bare_cn=CN.CN_FOLLOW0)
async def follow(ctx: Context, args: str) -> None:
    session, follows = ctx.session, ctx.core.state(Watchers).follows
    name = args.strip()
    if not name:
        _stop_following(ctx)
        return
    player = _player_to_follow(ctx, name, "You can't follow your own games.")
    if player is None:
        return
    follows[session] = name_key(player.name)
    ctx.reply(f"You will now be following {player.name}'s games.")
    _observe_followed(ctx, session, ctx.core.play.by_player.get(player))


@command("unfollow", CN.CN_FOLLOW, "unfollow")
async def unfollow(ctx: Context, args: str) -> None:
    """Stop following (the same as ``follow`` with no name); the games observed stay."""
    _stop_following(ctx)


def game_started(core: Core, game: Table, batch: Batch) -> None:
    """A game began. Its players (examiners) who ``set unobserve`` to 1 or 3 (2 or 3)
    stop observing other games; for a played game, those who follow one of its players
    observe it."""
    bit = 2 if game.examined else 1
    for seat in game.seats():
        if seat.variables["unobserve"] & bit:
            for number in sorted(seat.observing):
                other = core.tables.find(number)
                if other is not None and other is not game and seat in other.observers:
                    unobserve(seat, other, batch)
    if game.examined:
        return
    white, black = game.seats()
    keys = {name_key(white.name): white, name_key(black.name): black}
    _partners_followed(core, game, batch)
    for follower, followed in list(core.state(Watchers).follows.items()):
        player = keys.get(followed)
        if player is None or follower in game.audience() or follower.closed:
            continue
        if not may_watch(follower, game):  # a private game: administrators only
            continue
        opponent = black if player is white else white
        batch.add(
            follower,
            lines(
                f"{player.name}, whom you are following, has started a game with {opponent.name}."
            ),
        )
        observe(core, follower, game, batch)


def game_ended(game: Table, batch: Batch) -> None:
    """A played game ended: its observers observe it no more."""
    for observer in game.observers:
        observer.observing -= {game.number}


# -- looking at games ------------------------------------------------------------------------


@command(
    "allobservers",
    CN.CN_ALLOBSERVERS,
    "allobservers [game number|name]",
    route=Route.OF_A_GAME | Route.IN_GAME,
)
async def allobservers(ctx: Context, args: str) -> None:
    if args.strip():
        game = _named_game(ctx, args)
        if game is None:
            return
        if not game.observers and not game.examined:
            ctx.reply(f"No one is observing game {game.number}.")
            return
        shown = [game]
    else:
        shown = [g for g in listed(ctx.core, ctx.session) if g.observers or g.examined]
        if not shown:
            ctx.reply("No games are being observed.")
            return
    if ctx.session.talks_icc:
        rows = [_observers_row(game) for game in shown]
    else:  # played games first, as lasker lists them
        rows = [_fics_observers_row(ctx, g) for g in sorted(shown, key=lambda g: g.examined)]
    ctx.reply(*rows)


def _observers_row(game: Table) -> str:
    white, black = game.player_names()
    examiners = [f"#{s.name}" for s in game.seats()] if game.examined else []
    watchers = sorted((s.display_name for s in game.observers), key=str.lower)
    names = [*examiners, *watchers]
    count = f"{len(names)} user{'' if len(names) == 1 else 's'}"
    return f"Observing {game.number} [{white} vs. {black}]: {' '.join(names)} ({count})"


def _fics_observers_row(ctx: Context, game: Table) -> str:
    """lasker's ``com_allobservers`` line: ``%2d`` game numbers, ``Examining %2d [W vs
    B]`` (``(scratch)`` for a position of nobody's game), a ``#`` before an examiner and
    before an observer who is playing himself; freechess.org ends it with the count (FICS
    clients match ``(\\d+ users?)``)."""
    white, black = game.player_names()
    tables = ctx.core.tables
    examiners = [f"#{s.display_name}" for s in game.seats()] if game.examined else []
    watchers = sorted(game.observers, key=lambda s: s.name.lower())
    names = [
        *examiners,
        *(f"{'#' if tables.seated(s) is not None else ''}{s.display_name}" for s in watchers),
    ]
    count = f"{len(names)} user{'' if len(names) == 1 else 's'}"
    if not game.examined:
        title = f"Observing {game.number:2d} [{white} vs. {black}]"
    elif white != black:
        title = f"Examining {game.number:2d} [{white} vs {black}]"
    else:
        title = f"Examining {game.number:2d} (scratch)"
    return f"{title}: {' '.join(names)} ({count})"


def _game_or_current(ctx: Context, args: str) -> Table | None:
    if args.strip():
        return _named_game(ctx, args)
    game = current_game(ctx.core, ctx.session)
    if game is None:
        ctx.reply("You are neither playing, observing nor examining a game.")
    return game


@command("moves", CN.CN_MOVES, "moves [game number|name]", route=Route.OF_A_GAME | Route.IN_GAME)
async def moves(ctx: Context, args: str) -> None:
    """FICS's move list of a game being played or examined (:mod:`~icswire.server.core.
    movelist`); without a game, the one played or examined, else every game observed
    (FICS's ``com_moves``)."""
    session = ctx.session
    if args.strip():
        game = _named_game(ctx, args, "Sorry, that is a private game.")  # FICS's com_moves
        shown = [game] if game is not None else []
    else:
        seated = ctx.core.tables.seated(session)
        if seated is not None:
            shown = [seated]
        else:
            shown = [g for n in sorted(session.observing) if (g := ctx.core.tables.find(n))]
            if not shown:
                ctx.reply("You are neither playing, observing nor examining a game.")
    precise = bool(session.ivariables["ms"])
    startpos = bool(session.ivariables["startpos"])
    for game in shown:
        ctx.reply(*movelist_lines(game.movelist(), precise, startpos, not session.talks_icc))


@command(
    "refresh", CN.CN_REFRESH, "refresh [game number|name]", route=Route.OF_A_GAME | Route.IN_GAME
)
async def refresh(ctx: Context, args: str) -> None:
    game = _game_or_current(ctx, args)
    if game is None:
        return
    session, batch = ctx.session, ctx.batch
    if session in game.audience():
        batch.add(session, Datagram(dg.Refresh(game.number)))
        batch.add(session, game.board_message())
        return
    batch.add(session, Datagram(dg.record_as(DG.ISOLATED_BOARD, game.game_record())))
    game.send_history(session, batch)
    if DG.JBOARD in session.level2:
        status = JBOARD_EXAMINED if game.examined else JBOARD_PLAYED
        batch.add(session, Datagram(peek_jboard(game.board, game.facts(), status)))
    batch.add(session, game.isolated_board())


@command("gameid", CN.CN_GAMEID, "gameid [game number|name]", route=Route.OF_A_GAME | Route.IN_GAME)
async def gameid(ctx: Context, args: str) -> None:
    """ICC's ``gameid``: the id a game is stored under (``examine #ID``, ``sfen #ID`` find
    it later; DG_GAME_STARTED's ``game_id``), as one fixed line for robots: ``Game 12:
    #4711``. icc-formats.txt gives the command's number only; the line is this server's."""
    game = _game_or_current(ctx, args)
    if game is None:
        return
    stored = game.game_record().game_id
    if not stored:
        ctx.reply(f"Game {game.number} is not stored.")
        return
    ctx.reply(f"Game {game.number}: #{stored}")


@command("fen", CN.CN_FEN, "fen [game number|name]", route=Route.OF_A_GAME | Route.IN_GAME)
async def fen(ctx: Context, args: str) -> None:
    """The position of a game being played, examined or observed, in FEN: one line of
    text, and DG_FEN (70) to a client with it on."""
    game = _game_or_current(ctx, args)
    if game is not None:
        position = game.board.fen()
        ctx.batch.add(ctx.session, Datagram(dg.Fen(game.number, position)))
        ctx.reply(position)


@command("pgn", CN.CN_PGN, "pgn [game number|name]", route=Route.OF_A_GAME | Route.IN_GAME)
async def pgn(ctx: Context, args: str) -> None:
    """A game being played, examined or observed, as PGN (its moves up to the position
    shown)."""
    game = _game_or_current(ctx, args)
    if game is not None:
        ctx.reply(*pgn_text(table_game(game)).splitlines())


_ECO_CODE = re.compile(r"[A-Ea-e][0-9][0-9]")


@command(
    "eco",
    CN.CN_ECO,
    "eco [game number|name] | eco e <ECO code>",
    route=Route.OF_A_GAME | Route.IN_GAME,
)
async def eco(ctx: Context, args: str) -> None:
    """The opening of a game being played, examined or observed (help ``eco``; FICS's
    ``com_eco``): its ECO code and name by lichess's table; ``eco e B90`` lists the
    openings of a code. Only chess has openings."""
    words = args.split()
    if words and words[0].lower() in ("e", "n"):
        _eco_codes(ctx, words)
        return
    if words:
        game = _named_game(ctx, args, "Sorry - that game is private.")
    else:
        game = current_game(ctx.core, ctx.session)
        if game is None:
            ctx.reply("You are not playing, examining or observing a game.")
    if game is None:
        return
    if not is_chess(game):
        ctx.reply("That game is a wild game.")
        return
    found, (white, black) = table_opening(game), game.player_names()
    if ctx.session.talks_icc:
        ctx.reply(icc_line(game.number, white, black, found))
    else:
        ctx.reply(*fics_lines(game.number, white, black, found))


def _eco_codes(ctx: Context, words: list[str]) -> None:
    if words[0].lower() == "n":
        ctx.reply("There are no NIC codes on this server; try eco e <ECO code>.")
    elif len(words) != 2 or not _ECO_CODE.fullmatch(words[1]):
        ctx.reply("Usage: eco [game number|name] | eco e <ECO code> (A00 to E99)")
    elif not (found := with_eco(words[1])):
        ctx.reply(f"There is no opening with the ECO code {words[1].upper()}.")
    else:
        ctx.reply(*code_lines(found, not ctx.session.talks_icc))


@command("logpgn", CN.CN_LOGPGN, "logpgn [game number|name]", route=Route.OF_A_GAME | Route.IN_GAME)
async def logpgn(ctx: Context, args: str) -> None:
    """A game being played, examined or observed, as PGN for a client to keep: DG_LOG_PGN
    (86: "Sent only in response to the logpgn command. The contents are the PGN form of
    the game, one ^Y{quoted^Y} argument per line") to a client with it on, else the
    text ``pgn`` shows."""
    game = _game_or_current(ctx, args)
    if game is None:
        return
    text = pgn_text(table_game(game)).splitlines()
    if DG.LOG_PGN in ctx.session.level2:
        ctx.batch.add(ctx.session, Datagram(dg.LogPgn(tuple(text))))
    else:
        ctx.reply(*text)


@command(
    "mailmoves",
    CN.SCN_MISCELLANEOUS,
    "mailmoves [game number|name]",
    route=Route.OF_A_GAME | Route.IN_GAME,
)
async def mailmoves(ctx: Context, args: str) -> None:
    """A game being played or examined, mailed as PGN to the issuer's address (FICS help
    ``mailmoves``; lasker's com_mailmoves: "FICS game report WHITE vs BLACK")."""
    mailer = mail_allowed(ctx)
    if mailer is None:
        return
    game = _game_or_current(ctx, args)
    if game is None:
        return
    if game.private and ctx.session not in game.seats() and not ctx.session.admin:
        ctx.reply("Sorry, that is a private game.")
        return
    white, black = game.player_names()
    text = pgn_text(table_game(game))
    await mail_to_issuer(ctx, mailer, f"FICS game report {white} vs {black}", text)


@command("flip", CN.CN_FLIP, "flip", route=Route.IN_GAME)
async def flip(ctx: Context, args: str) -> None:
    game = _game_or_current(ctx, args)
    if game is None:
        return
    session = ctx.session
    if session not in game.audience():
        ctx.reply(f"You are not watching game {game.number}.")
        return
    game.flipped.symmetric_difference_update({session})
    ctx.batch.add(session, Datagram(dg.Flip(game.number, game.is_flipped(session))))
    ctx.batch.add(session, Datagram(dg.Refresh(game.number)))
    ctx.batch.add(session, game.board_message())


# -- talking at the board --------------------------------------------------------------------


async def _talk(ctx: Context, args: str, kibitz: bool) -> None:
    text = args.strip()
    if not text:
        ctx.reply(f"Usage: {ctx.command} <message>")
        return
    session = ctx.session
    game = current_game(ctx.core, session)
    if game is None:
        ctx.reply(
            "You are not playing, examining or observing a game."
            if session.talks_icc
            else "You are not playing or observing a game."  # lasker's com_kibitz
        )
        return
    rating = session.ratings.get(game.rating_type, (0, 0))[0] if session.registered else 0
    said = Kibitzed(
        game.number, Speaker.of(session), rating_text(rating, session.registered), kibitz, text
    )
    heard_by: Iterable[User] = game.audience() if kibitz else game.observers
    # ``set kiblevel``: heard by those whose level the speaker's best of blitz and
    # standard reaches; a titled speaker always (lasker's talkproc.c)
    best = max(session.ratings.get(kind, (0, 0))[0] for kind in ("Blitz", "Standard"))
    titled = session.registered and (session.admin or bool(session.title_lists))
    level = best if session.registered else 0
    listeners = [
        s
        for s in heard_by
        if s is not session
        and s.variables["kibitz"]
        and (titled or level >= s.variables["kiblevel"])
    ]
    ctx.batch.add_all(listeners, said)
    count = f"{len(listeners)} player{'' if len(listeners) == 1 else 's'}"
    ctx.reply(f"({'kibitzed' if kibitz else 'whispered'} to {count})")


@command("kibitz", CN.CN_KIBITZ, "kibitz <message>", route=Route.IN_GAME | Route.OBSERVED_GAME)
async def kibitz(ctx: Context, args: str) -> None:
    await _talk(ctx, args, kibitz=True)


@command("whisper", CN.CN_WHISPER, "whisper <message>", route=Route.IN_GAME | Route.OBSERVED_GAME)
async def whisper(ctx: Context, args: str) -> None:
    await _talk(ctx, args, kibitz=False)


# -- bughouse partners, and what TDs make others watch ----------------------------------------


def _partner_named(ctx: Context, name: str) -> tuple[User, User] | None:
    """The player ``name`` (the issuer without one) and its bughouse partner; None after
    saying why not."""
    player = ctx.session if not name else ctx.world.find(name)
    if player is None:
        ctx.reply(f'No user named "{name}" is logged in.')
        return None
    partner = partner_of(ctx.core, player)
    if partner is None:
        ctx.reply(
            "You do not have a partner at present."
            if player is ctx.session
            else f"{player.name} has no partner."
        )
        return None
    return player, partner


@command("pobserve", CN.CN_OBSERVE, "pobserve [name]")
async def pobserve(ctx: Context, args: str) -> None:
    """Observe the game the bughouse partner of NAME (of yourself without one) plays."""
    found = _partner_named(ctx, args.strip())
    if found is None:
        return
    player, partner = found
    game = ctx.core.tables.seated(partner)
    if game is None:
        whose = "Your partner" if player is ctx.session else f"{player.name}'s partner"
        ctx.reply(f"{whose}, {partner.name}, is not playing a game.")
        return
    if not may_watch(ctx.session, game):
        ctx.reply(f"Sorry, game {game.number} is a private game.")
        return
    if ctx.session in game.seats():
        ctx.reply(f"You are playing game {game.number}.")
        return
    if ctx.session in game.observers:
        ctx.reply(f"You are already observing game {game.number}.")
        return
    observe(ctx.core, ctx.session, game, ctx.batch)


@command("pfollow", CN.CN_FOLLOW, "pfollow [name]")
async def pfollow(ctx: Context, args: str) -> None:
    """Follow the games of NAME's bughouse partner, whoever it is when a game starts;
    without a name, stop."""
    session, pfollows = ctx.session, ctx.core.state(Watchers).pfollows
    name = args.strip()
    if not name:
        _stop_following(ctx, partner=True)
        return
    own = "Use ptell and pobserve for your own partner; pfollow follows another's."
    player = _player_to_follow(ctx, name, own)
    if player is None:
        return
    pfollows[session] = name_key(player.name)
    ctx.reply(f"You will now be following {player.name}'s partner's games.")
    partner = partner_of(ctx.core, player)
    game = ctx.core.play.by_player.get(partner) if partner is not None else None
    _observe_followed(ctx, session, game)


def _partners_followed(core: Core, game: Table, batch: Batch) -> None:
    """Who ``pfollow``s a partner of one of ``game``'s players observes it."""
    seats = game.seats()
    for follower, followed in list(core.state(Watchers).pfollows.items()):
        player = core.world.online.get(followed)
        partner = partner_of(core, player) if player is not None else None
        if player is None or partner not in seats or follower in game.audience():
            continue
        if follower.closed or not may_watch(follower, game):
            continue
        opponent = seats[1] if partner is seats[0] else seats[0]
        batch.add(
            follower,
            lines(
                f"{player.name}'s partner, {partner.name}, whom you are following,"
                f" has started a game with {opponent.name}."
            ),
        )
        observe(core, follower, game, batch)


def _td_player(ctx: Context, name: str) -> User | None:
    """The player ``name`` online, for a TD (None after saying what is wrong)."""
    if not ctx.session.is_td:
        ctx.reply(f"Only TDs and administrators may use {ctx.command}.")
        return None
    return player_here(ctx, name)


def _td_players(
    ctx: Context, args: str, usage: str, count: int, players: int
) -> tuple[list[User], list[str]] | None:
    """A TD command's ``count`` words, the first ``players`` of them players online
    (None after saying what is wrong: the usage, or the first player that is not)."""
    words = args.split()
    if len(words) != count:
        ctx.reply(f"Usage: {usage}")
        return None
    found: list[User] = []
    for name in words[:players]:
        player = _td_player(ctx, name)
        if player is None:
            return None
        found.append(player)
    return found, words[players:]


@command("xobserve", CN.CN_XOBSERVE, "xobserve <name> <game number|name>")
async def xobserve(ctx: Context, args: str) -> None:
    """A TD makes a player observe a game (ICC's robots' ``xobserve``)."""
    given = _td_players(ctx, args, "xobserve <name> <game number|name>", 2, 1)
    if given is None:
        return
    (player,), (which,) = given
    game = _find_named(ctx, which)
    if game is None:
        return
    if not may_watch(player, game):
        ctx.reply(f"Sorry, game {game.number} is a private game.")
        return
    if player in game.audience():
        ctx.reply(f"{player.name} is at game {game.number} already.")
        return
    observe(ctx.core, player, game, ctx.batch)
    ctx.reply(f"{player.name} is now observing game {game.number}.")


@command("qfollow", CN.CN_QFOLLOW, "qfollow <name> <name>")
async def qfollow(ctx: Context, args: str) -> None:
    """A TD makes the first player follow the second's games (ICC's ``qfollow``)."""
    given = _td_players(ctx, args, "qfollow <name> <name>", 2, 2)
    if given is None:
        return
    (follower, followed), _ = given
    if follower is followed:
        ctx.reply("A player can't follow his own games.")
        return
    ctx.core.state(Watchers).follows[follower] = name_key(followed.name)
    ctx.batch.add(follower, lines(f"You will now be following {followed.name}'s games."))
    ctx.reply(f"{follower.name} will now be following {followed.name}'s games.")
    _observe_followed(ctx, follower, ctx.core.play.by_player.get(followed))


@command("qunfollow", CN.CN_QFOLLOW, "qunfollow <name>")
async def qunfollow(ctx: Context, args: str) -> None:
    """A TD makes a player stop following (ICC's ``qunfollow``)."""
    given = _td_players(ctx, args, "qunfollow <name>", 1, 1)
    if given is None:
        return
    (player,), _ = given
    if ctx.core.state(Watchers).follows.pop(player, None) is None:
        ctx.reply(f"{player.name} is not following any player.")
        return
    ctx.batch.add(player, lines("You will not follow any player's games."))
    ctx.reply(f"{player.name} will not follow any player's games.")


# -- leaving ---------------------------------------------------------------------------------


def session_left(core: Core, session: User) -> None:
    """``session`` is gone: it follows and observes nothing; the others at each table it
    observed are told."""
    state = core.state(Watchers)
    state.follows.pop(session, None)
    state.pfollows.pop(session, None)
    state.primary.pop(session, None)
    batch = Batch(CN.SCN_LOGOUT, None, issuer_name=session.name)
    for number in sorted(session.observing):
        game = core.tables.find(number)
        if game is not None and session in game.observers:
            game.observers.discard(session)
            game.flipped.discard(session)
            batch.add_all(list(game.audience()), ObserverLeft(number, session.name))
            session.observing -= {number}
    batch.flush()


def install(core: Core) -> None:
    """Watching on ``core``: its commands and hooks."""
    registry = core.registry
    registry.add_commands(COMMANDS)
    registry.game_started.append(lambda game, batch: game_started(core, game, batch))
    registry.game_ended.append(game_ended)
    registry.dg_on.append(lambda session, number, batch: send_lists(core, session, number, batch))
    registry.left.append(lambda session: session_left(core, session))
