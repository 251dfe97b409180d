"""Watching games: ``games``, ``observe``, ``unobserve``, ``follow``, ``allobservers``,
``refresh``, ``flip``, ``kibitz`` and ``whisper``.

Observers get what players get (icc-formats.txt section 4, "MY GAMES"): DG_STARTED_OBSERVING
(18), DG_FLIP (39), the moves so far (DG_MOVE_LIST or DG_POSITION_BEGIN(2)) and the clocks
(DG_MSEC), DG_MY_RELATION_TO_GAME (43) ``O``, DG_PLAYERS_IN_MY_GAME (20) for everybody at
the table (who in turn hear of the newcomer), and a board with relation 0 (-2 for an
examined game). ``unobserve`` sends DG_STOP_OBSERVING (19). ``refresh`` of a game one
watches is DG_REFRESH (41) and a board; of another game DG_ISOLATED_BOARD (40), its moves
and a board with relation -3. ``flip`` turns one receiver's board (DG_FLIP, DG_REFRESH).
``kibitz`` reaches players and observers, ``whisper`` observers only, as text or DG_KIBITZ
(26), for those whose ``kibitz`` variable is on.

Hooks for the rest of the server: :func:`game_started` (followers observe a new game),
:func:`send_lists` (turning DG_GAME_STARTED on lists every game), :func:`session_left`,
:func:`flipped` (how a receiver's board of a played game is turned).
"""

from __future__ import annotations

import weakref
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from icswire.boards.positions import strength
from icswire.protocol import datagrams as dg
from icswire.protocol.datagrams import DG
from icswire.protocol.level1 import CommandNumber as CN
from icswire.server import examine
from icswire.server.commands import Context, command
from icswire.server.examine import BoardFacts, ExaminedGame, PositionBoard, isolated_board
from icswire.server.games import BLACK, WHITE, Game, Games
from icswire.server.names import name_key
from icswire.server.render import Batch, Datagram, Message, TextOrDatagram, lines

if TYPE_CHECKING:
    from icswire.server.app import Server
    from icswire.server.session import Session

Watched = Game | ExaminedGame


@dataclass
class _Watching:
    #: follower -> the name key of the player whose games it follows
    follows: dict[Session, str] = field(default_factory=dict)
    #: observer -> the game it started observing last (kibitz, refresh, flip without N)
    primary: dict[Session, int] = field(default_factory=dict)


_STATE: weakref.WeakKeyDictionary[Server, _Watching] = weakref.WeakKeyDictionary()
#: The receivers who turned their board of a played game with ``flip``.


def _state(server: Server) -> _Watching:
    state = _STATE.get(server)
    if state is None:
        state = _STATE[server] = _Watching()
    return state


# -- finding games ---------------------------------------------------------------------------


def find_game(server: Server, number: int) -> Watched | None:
    """The played or examined game ``number``."""
    played = server.games.by_number.get(number)
    return played if played is not None else examine.examined_games(server).get(number)


def game_of(server: Server, session: Session) -> Watched | None:
    """The game ``session`` plays or examines."""
    played = server.games.by_player.get(session)
    return played if played is not None else examine.examining(server, session)


def current_game(server: Server, session: Session) -> Watched | None:
    """The game a command without a game number is about: the one ``session`` plays,
    examines, or observes (the one it began to observe last)."""
    mine = game_of(server, session)
    if mine is not None:
        return mine
    primary = _state(server).primary.get(session)
    if primary is not None and primary in session.observing:
        found = find_game(server, primary)
        if found is not None:
            return found
    for number in sorted(session.observing):
        found = find_game(server, number)
        if found is not None:
            return found
    return None


def _named_game(ctx: Context, args: str) -> Watched | None:
    """The game ``args`` names (a number, or a player who plays or examines it); None and
    the reason told when there is none."""
    text = args.strip().split()[0] if args.strip() else ""
    if text.isdigit():
        found = find_game(ctx.server, int(text))
        if found is None:
            ctx.reply("There is no such game.")
        return found
    player = ctx.server.world.find(text)
    if player is None:
        ctx.reply(f'No user named "{text}" is logged in.')
        return None
    found = game_of(ctx.server, player)
    if found is None:
        ctx.reply(f"{player.name} is not playing or examining a game.")
    return found


def _audience(game: Watched) -> list[Session]:
    return list(game.audience())


def _names(game: Watched) -> tuple[str, str]:
    if isinstance(game, Game):
        return game.white.name, game.black.name
    return game.white, game.black


def _symbol(game: Watched, session: Session) -> str:
    """DG_PLAYERS_IN_MY_GAME's symbol of somebody at the table."""
    if isinstance(game, Game):
        color = game.color_of(session)
        if color is not None:
            return "PW" if color == WHITE else "PB"
        return "O"
    return "E" if session in game.examiners else "O"


def _seats(game: Watched) -> list[Session]:
    """Players or examiners."""
    return list(game.players) if isinstance(game, Game) else list(game.examiners)


# -- boards of played games ------------------------------------------------------------------


def _game_facts(game: Game) -> BoardFacts:
    return BoardFacts(
        game.number,
        game.white.name,
        game.black.name,
        game.terms.initial,
        game.terms.increment,
        game.clock_now(WHITE),
        game.clock_now(BLACK),
        game.last_move_time_ms,
        True,
    )


def board_of(game: Watched) -> Message:
    """The game's board, as each one at the table sees it."""
    if isinstance(game, ExaminedGame):
        return game.board_message()
    return PositionBoard(game.board, _game_facts(game), game.relation, game.is_flipped)


def _isolated(game: Watched) -> Message:
    facts = _game_facts(game) if isinstance(game, Game) else game.facts()
    return isolated_board(game.board, facts)


def _setup(server: Server, game: Watched, session: Session, batch: Batch) -> None:
    """The moves so far and the clocks."""
    if isinstance(game, Game):
        server.games.history_datagrams(game, session, batch)
    else:
        game.setup(session, batch)


# -- the list of games -----------------------------------------------------------------------


def _clock(ms: int) -> str:
    sign, ms = ("-", -ms) if ms < 0 else ("", ms)
    seconds = ms // 1000
    hours, rest = divmod(seconds, 3600)
    minutes, seconds = divmod(rest, 60)
    return (
        f"{sign}{hours}:{minutes:02d}:{seconds:02d}" if hours else f"{sign}{minutes}:{seconds:02d}"
    )


def _rating(rating: int, registered: bool) -> str:
    if rating:
        return str(rating)
    return "----" if registered else "++++"


def games_row(game: Watched) -> str:
    """One line of ``games``."""
    board = game.board
    side = "W" if board.turn == WHITE else "B"
    if isinstance(game, Game):
        t = game.terms
        kind = examine.kind_text(t.rating_type, t.rated, t.initial, t.increment)
        white = _rating(game.white_rating, game.white.registered)
        black = _rating(game.black_rating, game.black.registered)
        return (
            f"{game.number:3d} {white:>4} {game.white.name:<10} {black:>4} "
            f"{game.black.name:<10} {kind} {_clock(game.clock_now(WHITE)):>6} -"
            f"{_clock(game.clock_now(BLACK)):>6} ({strength(board, WHITE):2d}-"
            f"{strength(board, BLACK):2d}) {side}:{board.fullmove_number:3d}"
        )
    kind = examine.kind_text(game.rating_type, game.rated, game.initial, game.increment)
    white = _rating(game.white_rating, True)
    black = _rating(game.black_rating, True)
    return (
        f"{game.number:3d} (Exam. {white:>4} {game.white:<10} {black:>4} {game.black:<10}) "
        f"{kind} {side}:{board.fullmove_number:3d}"
    )


def all_games(server: Server) -> list[Watched]:
    """Played and examined games, by number."""
    found: list[Watched] = [*server.games.by_number.values()]
    found += examine.examined_games(server).values()
    return sorted(found, key=lambda g: g.number)


@command("games", CN.CN_GAMES, "games")
async def games(ctx: Context, args: str) -> None:
    shown = all_games(ctx.server)
    if not shown:
        ctx.reply("There are no games in progress.")
        return
    ctx.reply(*(games_row(g) for g in shown), "", f"  {len(shown)} games displayed.")


def send_lists(server: Server, batch: Batch, session: Session, number: int) -> None:
    """What turning DG ``number`` on sends here: for DG_GAME_STARTED (12), every played
    and examined game ("When this feature is activated, I get a list of all the games")."""
    if number == DG.GAME_STARTED:
        for game in all_games(server):
            batch.add(session, Datagram(game.started_record(DG.GAME_STARTED)))


# -- observing -------------------------------------------------------------------------------


def _title(game: Watched) -> str:
    if isinstance(game, Game):
        t = game.terms
        white = f"{game.white.name} ({_rating(game.white_rating, game.white.registered)})"
        black = f"{game.black.name} ({_rating(game.black_rating, game.black.registered)})"
        return f"Game {game.number}: {white} {black} {t.words} {t.initial} {t.increment}"
    return f"Game {game.number}: {game.white} vs. {game.black} (examined)"


def observe(server: Server, session: Session, game: Watched, batch: Batch) -> None:
    """``session`` begins to observe ``game``: everything a player or examiner gets when
    a game starts, with relation 0 (-2 examined); the others at the table hear of it."""
    number = game.number
    others = _audience(game)
    game.observers.add(session)
    session.observing.add(number)
    _state(server).primary[session] = number
    batch.add(session, lines(f"You are now observing game {number}.", _title(game)))
    batch.add(session, Datagram(game.started_record(DG.STARTED_OBSERVING)))
    batch.add(session, Datagram(dg.Flip(number, game.is_flipped(session))))
    _setup(server, game, session, batch)
    batch.add(session, Datagram(dg.MyRelationToGame(number, "O")))
    for member in (*others, session):
        kib = bool(member.variables["kibitz"])
        record = dg.PlayersInMyGame(number, member.name, _symbol(game, member), kib)
        batch.add(session, Datagram(record))
    joined = dg.PlayersInMyGame(number, session.name, "O", bool(session.variables["kibitz"]))
    batch.add_all(others, Datagram(joined))
    if isinstance(game, Game):
        from icswire.server.play import offers_record

        batch.add(session, Datagram(offers_record(game)))
        for tag, value in Games.pgn_tags(game):
            batch.add(session, Datagram(dg.PgnTag(number, tag, value)))
    batch.add(session, board_of(game))


def unobserve(server: Server, session: Session, game: Watched, batch: Batch) -> None:
    """``session`` stops observing ``game``: DG_STOP_OBSERVING, relation X; the others at
    the table see it leave."""
    number = game.number
    game.observers.discard(session)
    session.observing.discard(number)
    game.flipped.discard(session)
    batch.add(session, lines(f"Removing game {number} from observation list."))
    batch.add(session, Datagram(dg.StopObserving(number)))
    batch.add(session, Datagram(dg.MyRelationToGame(number, "X")))
    left = Datagram(dg.PlayersInMyGame(number, session.name, "X", False))
    batch.add_all(_audience(game), left)


@command("observe", CN.CN_OBSERVE, "observe <game number|name>")
async def observe_(ctx: Context, args: str) -> None:
    if not args.strip():
        ctx.reply("Usage: observe <game number|name>")
        return
    game = _named_game(ctx, args)
    if game is None:
        return
    session = ctx.session
    if session in _seats(game):
        verb = "playing" if isinstance(game, Game) else "examining"
        ctx.reply(f"You are {verb} game {game.number}.")
        return
    if session in game.observers:
        ctx.reply(f"You are already observing game {game.number}.")
        return
    observe(ctx.server, session, game, ctx.batch)


@command("unobserve", CN.CN_OBSERVE, "unobserve [game number|name]")
async def unobserve_(ctx: Context, args: str) -> None:
    session = ctx.session
    if args.strip():
        game = _named_game(ctx, args)
        if game is None:
            return
        if session not in game.observers:
            ctx.reply(f"You are not observing game {game.number}.")
            return
        unobserve(ctx.server, session, game, ctx.batch)
        return
    watched = [g for n in sorted(session.observing) if (g := find_game(ctx.server, n))]
    if not watched:
        ctx.reply("You are not observing any games.")
        return
    for game in watched:
        unobserve(ctx.server, session, game, ctx.batch)


# -- following -------------------------------------------------------------------------------


@command("follow", CN.CN_FOLLOW, "follow [name]")
async def follow(ctx: Context, args: str) -> None:
    session, follows = ctx.session, _state(ctx.server).follows
    name = args.strip()
    if not name:
        if follows.pop(session, None) is None:
            ctx.reply("You are not following any player.")
        else:
            ctx.reply("You will not follow any player's games.")
        return
    player = ctx.server.world.find(name)
    if player is None:
        ctx.reply(f'No user named "{name}" is logged in.')
        return
    if player is session:
        ctx.reply("You can't follow your own games.")
        return
    follows[session] = name_key(player.name)
    ctx.reply(f"You will now be following {player.name}'s games.")
    game = ctx.server.games.by_player.get(player)
    if game is not None and session not in game.audience():
        observe(ctx.server, session, game, ctx.batch)


def game_started(server: Server, game: Game, batch: Batch) -> None:
    """A played game began: those who follow one of its players observe it."""
    keys = {name_key(game.white.name): game.white, name_key(game.black.name): game.black}
    for follower, followed in list(_state(server).follows.items()):
        player = keys.get(followed)
        if player is None or follower in game.audience() or follower.closed:
            continue
        opponent = game.black if player is game.white else game.white
        batch.add(
            follower,
            lines(
                f"{player.name}, whom you are following, has started a game with {opponent.name}."
            ),
        )
        observe(server, follower, game, batch)


# -- looking at games ------------------------------------------------------------------------


@command("allobservers", CN.CN_ALLOBSERVERS, "allobservers [game number|name]")
async def allobservers(ctx: Context, args: str) -> None:
    if args.strip():
        game = _named_game(ctx, args)
        if game is None:
            return
        if not game.observers and isinstance(game, Game):
            ctx.reply(f"No one is observing game {game.number}.")
            return
        shown = [game]
    else:
        shown = [g for g in all_games(ctx.server) if g.observers or isinstance(g, ExaminedGame)]
        if not shown:
            ctx.reply("No games are being observed.")
            return
    rows = []
    for game in shown:
        white, black = _names(game)
        examiners = [] if isinstance(game, Game) else [f"#{s.name}" for s in game.examiners]
        watchers = sorted((s.display_name for s in game.observers), key=str.lower)
        names = [*examiners, *watchers]
        count = f"{len(names)} user{'' if len(names) == 1 else 's'}"
        rows.append(f"Observing {game.number} [{white} vs. {black}]: {' '.join(names)} ({count})")
    ctx.reply(*rows)


def _game_or_current(ctx: Context, args: str) -> Watched | None:
    if args.strip():
        return _named_game(ctx, args)
    game = current_game(ctx.server, ctx.session)
    if game is None:
        ctx.reply("You are neither playing, observing nor examining a game.")
    return game


@command("refresh", CN.CN_REFRESH, "refresh [game number|name]")
async def refresh(ctx: Context, args: str) -> None:
    game = _game_or_current(ctx, args)
    if game is None:
        return
    session, batch = ctx.session, ctx.batch
    if session in game.audience():
        batch.add(session, Datagram(dg.Refresh(game.number)))
        batch.add(session, board_of(game))
        return
    batch.add(session, Datagram(game.started_record(DG.ISOLATED_BOARD)))
    _setup(ctx.server, game, session, batch)
    batch.add(session, _isolated(game))


@command("flip", CN.CN_FLIP, "flip")
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
    ctx.batch.add(session, board_of(game))


# -- talking at the board --------------------------------------------------------------------


def _rating_type(game: Watched) -> str:
    return game.terms.rating_type if isinstance(game, Game) else game.rating_type


async def _talk(ctx: Context, args: str, kibitz: bool) -> None:
    text = args.strip()
    if not text:
        ctx.reply(f"Usage: {ctx.command} <message>")
        return
    session = ctx.session
    game = current_game(ctx.server, session)
    if game is None:
        ctx.reply("You are not playing, examining or observing a game.")
        return
    rating = session.ratings.get(_rating_type(game), (0, 0))[0] if session.registered else 0
    verb = "kibitzes" if kibitz else "whispers"
    who = f"{session.display_name}({_rating(rating, session.registered)})"
    said = f"{who}[{game.number}] {verb}: {text}"
    record = dg.Kibitz(game.number, session.name, session.titles, kibitz, text)
    heard_by: Iterable[Session] = game.audience() if kibitz else game.observers
    listeners = [s for s in heard_by if s is not session and s.variables["kibitz"]]
    ctx.batch.add_all(listeners, TextOrDatagram((said,), DG.KIBITZ, record))
    count = f"{len(listeners)} player{'' if len(listeners) == 1 else 's'}"
    ctx.reply(f"({'kibitzed' if kibitz else 'whispered'} to {count})")


@command("kibitz", CN.CN_KIBITZ, "kibitz <message>")
async def kibitz(ctx: Context, args: str) -> None:
    await _talk(ctx, args, kibitz=True)


@command("whisper", CN.CN_WHISPER, "whisper <message>")
async def whisper(ctx: Context, args: str) -> None:
    await _talk(ctx, args, kibitz=False)


# -- leaving ---------------------------------------------------------------------------------


def session_left(server: Server, session: Session) -> None:
    """``session`` is gone: it follows and observes nothing, and a game it examined alone
    is gone. The others at each table are told."""
    state = _state(server)
    state.follows.pop(session, None)
    state.primary.pop(session, None)
    batch = Batch(CN.SCN_LOGOUT, None, issuer_name=session.name)
    for number in sorted(session.observing):
        game = server.games.by_number.get(number)
        if game is not None and session in game.observers:
            game.observers.discard(session)
            game.flipped.discard(session)
            gone = Datagram(dg.PlayersInMyGame(number, session.name, "X", False))
            batch.add_all(_audience(game), gone)
            session.observing.discard(number)
    examine.session_left(server, session, batch)
    batch.flush()
