"""The live model level 2 makes possible (icc-formats.txt section 1): players, the games
list, my games with board and running clocks, seeks, pending matches, channels, and the
notify list, each kept up to date by the datagrams that describe it."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from icswire.boards.game import Game
from icswire.boards.moves import IllegalMoveError
from icswire.protocol.datagrams import DG, RATING_DGS

#: What a client that keeps this state enables (DGs 33-36 on, 113 off).
STATE_DATAGRAMS: tuple[int, ...] = (
    DG.WHO_AM_I, DG.PLAYER_ARRIVED, DG.PLAYER_LEFT, DG.BLITZ, DG.STANDARD, DG.BULLET,
    DG.OPEN, DG.STATE, DG.GAME_STARTED, DG.GAME_RESULT, DG.EXAMINED_GAME_IS_GONE,
    DG.MY_GAME_STARTED, DG.MY_GAME_RESULT, DG.MY_GAME_ENDED, DG.STARTED_OBSERVING,
    DG.STOP_OBSERVING, DG.PLAYERS_IN_MY_GAME, DG.OFFERS_IN_MY_GAME, DG.TAKEBACK,
    DG.BACKWARD, DG.SEND_MOVES, DG.MOVE_LIST, DG.PEOPLE_IN_MY_CHANNEL, DG.CHANNEL_TELL,
    DG.MATCH, DG.MATCH_REMOVED, DG.PERSONAL_TELL, DG.MOVE_ALGEBRAIC, DG.MOVE_SMITH,
    DG.MOVE_TIME, DG.MOVE_CLOCK, DG.BUGHOUSE_HOLDINGS, DG.SET_CLOCK, DG.FLIP,
    DG.ISOLATED_BOARD, DG.REFRESH, DG.MY_RELATION_TO_GAME, DG.SEEK, DG.SEEK_REMOVED,
    DG.MSEC, DG.MORETIME, DG.NOTIFY_ARRIVED, DG.NOTIFY_LEFT, DG.MY_NOTIFY_LIST,
    DG.SET_BOARD, DG.SET2, DG.KIBITZ, DG.SHOUT,
)  # fmt: skip


@dataclass
class Player:
    name: str
    titles: str = ""
    ratings: dict[int, tuple[int, int]] = field(default_factory=dict)  # rating DG -> pair
    open: bool | None = None
    state: str = "X"
    game: int = 0


@dataclass
class MyGame:
    """A game I play, examine or observe: the rebuilt game plus who is at the table."""

    game: Game
    relation: str = "O"
    observers: dict[str, str] = field(default_factory=dict)  # name -> symbol
    offers: Any = None
    msec: dict[str, tuple[int, bool, float]] = field(default_factory=dict)

    def clock_ms(self, color: str) -> int | None:
        """The clock of ``color`` ("W"/"B") now: DG_MSEC's value, run down since it came
        if DG_MSEC said it is running."""
        if color not in self.msec:
            return None
        value, running, since = self.msec[color]
        return value - int((time.monotonic() - since) * 1000) if running else value


@dataclass
class State:
    """Everything the datagrams say; :meth:`apply` takes one event."""

    me: str = ""
    players: dict[str, Player] = field(default_factory=dict)
    games: dict[int, Any] = field(default_factory=dict)  # DG_GAME_STARTED records
    my_games: dict[int, MyGame] = field(default_factory=dict)
    seeks: dict[int, Any] = field(default_factory=dict)
    matches: dict[tuple[str, str], Any] = field(default_factory=dict)
    channels: dict[int, set[str]] = field(default_factory=dict)
    notify: set[str] = field(default_factory=set)
    notify_present: set[str] = field(default_factory=set)
    finished: list[MyGame] = field(default_factory=list)

    def clear(self) -> None:
        """Forget the lists (before they are sent again)."""
        me = self.me
        self.__init__()  # type: ignore[misc]
        self.me = me

    def apply(self, record: Any) -> bool:
        """Update the state from one datagram; True if it changed something."""
        handler = _HANDLERS.get(getattr(record, "dg", -1))
        if handler is None:
            return False
        handler(self, record)
        return True


def _who_am_i(state: State, r: Any) -> None:
    state.me = r.myname


def _arrived(state: State, r: Any) -> None:
    player = state.players.setdefault(r.playername, Player(r.playername))
    for rating in r.ratings:
        player.ratings[rating.dg] = (rating.rating, rating.annotation)
    if r.open is not None:
        player.open = r.open
    if r.state is not None:
        player.state, player.game = r.state, r.state_game


def _left(state: State, r: Any) -> None:
    state.players.pop(r.playername, None)


def _rating(state: State, r: Any) -> None:
    player = state.players.setdefault(r.playername, Player(r.playername))
    player.ratings[r.dg] = (r.rating, r.annotation)


def _open(state: State, r: Any) -> None:
    state.players.setdefault(r.playername, Player(r.playername)).open = r.open


def _player_state(state: State, r: Any) -> None:
    player = state.players.setdefault(r.playername, Player(r.playername))
    player.state, player.game = r.state, r.state_game


def _game_started(state: State, r: Any) -> None:
    state.games[r.gamenumber] = r


def _game_gone(state: State, r: Any) -> None:
    state.games.pop(r.gamenumber, None)


def _game_result(state: State, r: Any) -> None:
    if not r.become_examined:
        state.games.pop(r.gamenumber, None)


def _my_game_started(state: State, r: Any) -> None:
    """DG 15 is a game I play (or examine), 18 one I observe, 40 a peek."""
    if r.dg == DG.MY_GAME_STARTED:
        relation = "PW" if r.whitename == state.me else "PB" if r.blackname == state.me else "E"
        if not r.played_game:
            relation = "E"
    else:
        relation = "O"
    state.my_games[r.gamenumber] = MyGame(Game.from_started(r), relation)


def _in_my_game(state: State, r: Any) -> None:
    mine = state.my_games.get(r.gamenumber)
    if mine is None:
        return
    try:
        mine.game.apply(r)
    except IllegalMoveError:
        return
    if r.dg == DG.MSEC:
        mine.msec[r.color] = (r.msec, r.running, time.monotonic())
    elif r.dg in (DG.SEND_MOVES, DG.MOVE_LIST, DG.SET_CLOCK, DG.MORETIME):
        _clocks_from_game(mine)


def _clocks_from_game(mine: MyGame) -> None:
    game = mine.game
    now = time.monotonic()
    for color, value in (("W", game.white_clock_ms), ("B", game.black_clock_ms)):
        if value is not None:
            running = mine.msec.get(color, (0, False, now))[1]
            mine.msec[color] = (value, running, now)


def _my_result(state: State, r: Any) -> None:
    mine = state.my_games.get(r.gamenumber)
    if mine is not None:
        mine.game.apply(r)
        for color, (value, _, since) in list(mine.msec.items()):
            mine.msec[color] = (value, False, since)


def _relation(state: State, r: Any) -> None:
    mine = state.my_games.get(r.gamenumber)
    if mine is None:
        return
    if r.symbol == "X":
        state.finished.append(state.my_games.pop(r.gamenumber))
    else:
        mine.relation = r.symbol


def _stop_observing(state: State, r: Any) -> None:
    mine = state.my_games.pop(r.gamenumber, None)
    if mine is not None:
        state.finished.append(mine)


def _players_in_game(state: State, r: Any) -> None:
    mine = state.my_games.get(r.gamenumber)
    if mine is None:
        return
    if r.symbol == "X":
        mine.observers.pop(r.playername, None)
    else:
        mine.observers[r.playername] = r.symbol


def _offers(state: State, r: Any) -> None:
    mine = state.my_games.get(r.gamenumber)
    if mine is not None:
        mine.offers = r


def _seek(state: State, r: Any) -> None:
    state.seeks[r.index] = r


def _seek_removed(state: State, r: Any) -> None:
    state.seeks.pop(r.index, None)


def _match(state: State, r: Any) -> None:
    state.matches[r.challenger, r.receiver] = r


def _match_removed(state: State, r: Any) -> None:
    state.matches.pop((r.challenger, r.receiver), None)


def _people(state: State, r: Any) -> None:
    members = state.channels.setdefault(r.channel, set())
    if r.present:
        members.add(r.playername)
    else:
        members.discard(r.playername)
        if r.playername == state.me:
            state.channels.pop(r.channel, None)


def _notify_list(state: State, r: Any) -> None:
    if r.present:
        state.notify.add(r.playername.lower())
    else:
        state.notify.discard(r.playername.lower())


def _notify_arrived(state: State, r: Any) -> None:
    state.notify_present.add(r.playername)


def _notify_left(state: State, r: Any) -> None:
    state.notify_present.discard(r.playername)


_GAME_STARTED_FORMS = (DG.MY_GAME_STARTED, DG.STARTED_OBSERVING, DG.ISOLATED_BOARD)
_IN_MY_GAME = (
    DG.SEND_MOVES, DG.PAST_MOVE, DG.MOVE_LIST, DG.POSITION_BEGIN, DG.POSITION_BEGIN2,
    DG.BACKWARD, DG.TAKEBACK, DG.SET_BOARD, DG.MSEC, DG.SET_CLOCK, DG.MORETIME, DG.FLIP,
    DG.BUGHOUSE_HOLDINGS, DG.BUGHOUSE_PASS, DG.PGN_TAG, DG.MY_GAME_CHANGE,
)  # fmt: skip
_HANDLERS: dict[int, Any] = {
    DG.WHO_AM_I: _who_am_i,
    DG.PLAYER_ARRIVED: _arrived,
    DG.PLAYER_LEFT: _left,
    **{number: _rating for number in RATING_DGS},
    DG.OPEN: _open,
    DG.STATE: _player_state,
    DG.GAME_STARTED: _game_started,
    DG.GAME_RESULT: _game_result,
    DG.EXAMINED_GAME_IS_GONE: _game_gone,
    **{number: _my_game_started for number in _GAME_STARTED_FORMS},
    **{number: _in_my_game for number in _IN_MY_GAME},
    DG.MY_GAME_RESULT: _my_result,
    DG.MY_RELATION_TO_GAME: _relation,
    DG.STOP_OBSERVING: _stop_observing,
    DG.PLAYERS_IN_MY_GAME: _players_in_game,
    DG.OFFERS_IN_MY_GAME: _offers,
    DG.SEEK: _seek,
    DG.SEEK_REMOVED: _seek_removed,
    DG.MATCH: _match,
    DG.MATCH_REMOVED: _match_removed,
    DG.PEOPLE_IN_MY_CHANNEL: _people,
    DG.MY_NOTIFY_LIST: _notify_list,
    DG.NOTIFY_ARRIVED: _notify_arrived,
    DG.NOTIFY_LEFT: _notify_left,
}
