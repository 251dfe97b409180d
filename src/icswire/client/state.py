"""The live model level 2 makes possible (icc-formats.txt section 1): players, the games
list, my games with board and running clocks, seeks, pending matches, channels, and the
notify list, each kept up to date by the datagrams that describe it.

A FICS session has no datagrams: :meth:`State.apply_fics` keeps the same model from what
FICS sends instead (style 12 boards, the ``<s>``/``<sr>``/``<sc>``, ``<pf>``/``<pt>``/
``<pr>``, ``<g1>`` and ``<wa>``/``<wd>`` lines of :mod:`icswire.protocol.ivars`, the
``{Game N (...) ...} 1-0`` result lines, ``who`` and the ``[name has arrived.]`` lines).
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass, field
from typing import Any

import chess

from icswire.boards import variants
from icswire.boards.game import Game, parse_game_end
from icswire.boards.moves import IllegalMoveError
from icswire.protocol import ivars
from icswire.protocol.datagrams import DG, RATING_DGS
from icswire.protocol.events import BughouseLine, IvarLine, Style12Line, Text
from icswire.protocol.style12 import Style12

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
    DG.SET_BOARD, DG.SET2, DG.KIBITZ, DG.SHOUT, DG.PARTNERSHIP,
)  # fmt: skip


@dataclass
class Player:
    name: str
    titles: str = ""
    ratings: dict[int, tuple[int, int]] = field(default_factory=dict)  # rating DG -> pair
    open: bool | None = None
    state: str = "X"
    game: int = 0
    #: FICS: rating type (``blitz``, ``lightning``, ``crazyhouse``...) -> (rating,
    #: provshow: ``" "`` established, ``"E"`` estimated, ``"P"`` provisional).
    fics_ratings: dict[str, tuple[int, str]] = field(default_factory=dict)


@dataclass
class MyGame:
    """A game I play, examine or observe: the rebuilt game plus who is at the table."""

    game: Game
    relation: str = "O"
    observers: dict[str, str] = field(default_factory=dict)  # name -> symbol
    #: DG_OFFERS_IN_MY_GAME's record; on FICS the ``<pf>``/``<pt>`` records of the
    #: offers (draw, abort, takeback...) between the two players, a tuple.
    offers: Any = None
    msec: dict[str, tuple[int, bool, float]] = field(default_factory=dict)

    def clock_ms(self, color: str) -> int | None:
        """The clock of ``color`` ("W"/"B") now: DG_MSEC's value, run down since it came
        if DG_MSEC said it is running."""
        if color not in self.msec:
            return None
        value, running, since = self.msec[color]
        return value - int((time.monotonic() - since) * 1000) if running else value

    def stop_clocks(self) -> None:
        """The game ended: each clock stops where it stands now (run down, not back at the
        last DG_MSEC or board's value)."""
        now = time.monotonic()
        for color, (value, running, since) in list(self.msec.items()):
            left = value - int((now - since) * 1000) if running else value
            self.msec[color] = (left, False, now)


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
    #: FICS: every pending offer (``<pf>``/``<pt>`` records) by its index.
    pending: dict[int, Any] = field(default_factory=dict)
    #: FICS: ``<g1>`` records of my games (played or observed) by game number.
    game_info: dict[int, Any] = field(default_factory=dict)
    #: My bughouse partner (DG_PARTNERSHIP), None without one.
    partner: str | None = None

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

    def apply_fics(self, event: Any) -> bool:
        """Update the state from one event of a FICS session; True if it changed
        something. Seeks are keyed by their index, matches by (challenger, receiver) as
        with datagrams; ``<pf>``/``<pt>`` records take the place of DG_SEEK and DG_MATCH."""
        if isinstance(event, Style12Line):
            return _fics_board(self, event.record)
        if isinstance(event, IvarLine):
            handler = _FICS_HANDLERS.get(type(event.record))
            if handler is None:
                return False
            handler(self, event.record)
            return True
        if isinstance(event, BughouseLine):
            mine = self.my_games.get(event.record.game_number)
            if mine is not None:
                mine.game.set_holdings_from(event.record)
            return mine is not None
        if isinstance(event, Text) and event.text[:1] in ("{", "[", "R", "Y"):
            return _fics_text(self, event.text)
        return False

    def apply_who(self, texts: list[str]) -> None:
        """The players ``who`` lists (``1500 fred``, ``++++ GuestABCD(U)``, ``1834^joe(C)``;
        several to a line on FICS): the list of players, their blitz ratings and titles."""
        for text in texts:
            if "displayed" in text:
                continue
            for m in _WHO.finditer(text):
                rating, status, name, titles = m.groups()
                player = self.players.setdefault(name, Player(name))
                player.titles = _titles(titles)
                player.state = _FICS_STATUS.get(status, "X")
                if status == ":":
                    player.open = False
                if rating.isdigit():
                    player.fics_ratings["blitz"] = (int(rating), " ")


def _who_am_i(state: State, r: Any) -> None:
    state.me = r.myname


def _partnership(state: State, r: Any) -> None:
    """DG_PARTNERSHIP (44): "a bughouse partnership has formed or dissolved"."""
    names = (r.name1, r.name2)
    if state.me.lower() not in (name.lower() for name in names):
        return
    other = names[1] if names[0].lower() == state.me.lower() else names[0]
    if r.forming:
        state.partner = other
    elif state.partner is not None and state.partner.lower() == other.lower():
        state.partner = None


def _arrived(state: State, r: Any) -> None:
    player = state.players.setdefault(r.playername, Player(r.playername))
    for rating in r.ratings:
        player.ratings[rating.dg] = (rating.rating, rating.annotation)
    if r.titles is not None:
        player.titles = r.titles
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
        mine.stop_clocks()


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
    DG.PARTNERSHIP: _partnership,
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


# -- FICS ----------------------------------------------------------------------------------

#: Style 12's relation field -> DG_MY_RELATION_TO_GAME's symbol ("P" is PW or PB).
_RELATIONS = {1: "P", -1: "P", 0: "O", 2: "E", -2: "O"}
#: FICS's ``<s>`` title bits, in order.
_TITLE_BITS = (
    (0x1, "U"), (0x2, "C"), (0x4, "GM"), (0x8, "IM"), (0x10, "FM"), (0x20, "WGM"), (0x40, "WIM"),
    (0x80, "WFM"),
)  # fmt: skip
#: ``who``'s status character -> DG_STATE's state; ":" also means not open.
_FICS_STATUS = {"^": "P", "#": "E"}
#: The ratings of ``<wa>``, in the server's order.
_WA_RATINGS = (
    "blitz", "standard", "lightning", "wild", "bughouse", "crazyhouse", "suicide", "losers",
    "atomic",
)  # fmt: skip
_NAME = r"([A-Za-z][A-Za-z0-9]*)((?:\([A-Z*]{1,3}\))*)"  # a handle and its (titles)
_WHO = re.compile(r"(\d{3,4}|\+{4}|-{4})([ ^~:#.&])" + _NAME)
_PIN = re.compile(r"\[" + _NAME + r" has (arrived|connected|departed|disconnected)\.\]")
_UNOBSERVED = re.compile(r"Removing game (\d+) from observation list\.")
_UNEXAMINED = re.compile(r"You are no longer examining game (\d+)\.")


def _titles(parenthesised: str) -> str:
    return " ".join(t for t in parenthesised.replace(")", "").split("(") if t)


def _title_flags(hex_digits: str) -> str:
    flags = int(hex_digits, 16)
    return " ".join(name for bit, name in _TITLE_BITS if flags & bit)


def first_ply(record: Style12) -> int:
    """The number of half-moves played before the position of a style 12 board."""
    return 2 * (record.move_number - 1) + (record.side_to_move == "B")


def _fics_variant(state: State, number: int) -> variants.Variant:
    """The variant of game ``number``, as its ``<g1>`` line names it (chess without one;
    style 12 does not say)."""
    info = state.game_info.get(number)
    if info is None:
        return variants.CHESS
    try:
        return variants.variant_of(info.type)
    except variants.UnsupportedVariantError:
        return variants.CHESS  # blitz, lightning, standard, untimed...


def _fics_board(state: State, record: Any) -> bool:
    """A style 12 board: a new game of mine (played, examined, observed), or its next
    position (a move, checked against the change of position), its clocks (ms with
    ``iset ms 1``)."""
    relation = _RELATIONS.get(record.relation)
    if relation is None:  # -3: an isolated position (sposition, ...), no game of mine
        return False
    if relation == "P":
        relation = "PW" if record.white_name == state.me else "PB"
    number = record.game_number
    mine = state.my_games.get(number)
    if mine is None or (mine.game.white, mine.game.black) != (
        record.white_name,
        record.black_name,
    ):
        variant = _fics_variant(state, number)
        mine = state.my_games[number] = MyGame(Game.from_style12(record, variant), relation)
        _game_info_facts(mine.game, state.game_info.get(number))
        for name in (record.white_name, record.black_name):
            player = state.players.setdefault(name, Player(name))
            player.state, player.game = ("E" if abs(record.relation) == 2 else "P"), number
    else:
        mine.relation = relation
        mine.game.apply_style12(record)
    _clocks_from_style12(mine, record)
    return True


def _clocks_from_style12(mine: MyGame, record: Any) -> None:
    game, now = mine.game, time.monotonic()
    ticking = record.clock_ticking is not False and game.result is None
    for color, value in (("W", game.white_clock_ms), ("B", game.black_clock_ms)):
        if value is not None:
            running = ticking and (game.board.turn == chess.WHITE) == (color == "W")
            mine.msec[color] = (value, running, now)


def _game_info_facts(game: Game, info: Any) -> None:
    """What ``<g1>`` adds to a game: rated, its type, the players' ratings; the variant
    too while no move is known (the board seen is the setup)."""
    if info is None:
        return
    game.rated, game.rating_type = info.rated, info.type
    (game.white_rating, _), (game.black_rating, _) = info.ratings
    try:
        variant = variants.variant_of(info.type)
    except variants.UnsupportedVariantError:
        return
    if variant is not game.variant and not game.moves:
        position = game.board.fen()
        game.variant, game.wild = variant, variant.wild
        try:
            game.reset(variant.new_board(fen=position))
        except ValueError:
            return


def _fics_game_info(state: State, r: Any) -> None:
    state.game_info[r.game_number] = r
    mine = state.my_games.get(r.game_number)
    if mine is not None:
        _game_info_facts(mine.game, r)


def _fics_text(state: State, text: str) -> bool:
    if text.startswith("{Game "):
        end = parse_game_end(text)
        if end is None:
            return False
        number, white, black, description, score = end
        mine = state.my_games.get(number)
        if mine is None or (mine.game.white, mine.game.black) != (white, black):
            return False
        mine.game.end_from_text(description, score)
        mine.stop_clocks()
        _fics_game_gone(state, number)
        return True
    if m := _PIN.fullmatch(text):
        name, titles, what = m.groups()
        if what in ("arrived", "connected"):
            state.players.setdefault(name, Player(name)).titles = _titles(titles)
        else:
            state.players.pop(name, None)
        return True
    if m := _UNOBSERVED.fullmatch(text) or _UNEXAMINED.fullmatch(text):
        number = int(m[1])
        if number in state.my_games:
            _fics_game_gone(state, number)
            return True
    return False


def _fics_game_gone(state: State, number: int) -> None:
    mine = state.my_games.pop(number)
    state.finished.append(mine)
    state.game_info.pop(number, None)
    for name in (mine.game.white, mine.game.black):
        player = state.players.get(name)
        if player is not None and player.game == number:
            player.state, player.game = "X", 0


def _fics_seek(state: State, r: ivars.Seek) -> None:
    state.seeks[r.number] = r
    player = state.players.setdefault(r.name, Player(r.name))
    player.titles = _title_flags(r.titles)
    player.fics_ratings[r.type] = (r.rating, r.provshow)


def _fics_seeks_removed(state: State, r: ivars.SeeksRemoved) -> None:
    for number in r.numbers:
        state.seeks.pop(number, None)


def _fics_seeks_cleared(state: State, r: ivars.SeeksCleared) -> None:
    state.seeks.clear()


def _fics_pending(state: State, r: ivars.PendingFrom | ivars.PendingTo) -> None:
    state.pending[r.number] = r
    if r.type == "match":
        if isinstance(r, ivars.PendingFrom):
            state.matches[r.name, state.me] = r
        else:
            state.matches[state.me, r.name] = r
    _fics_offers(state)


def _fics_pending_removed(state: State, r: ivars.PendingRemoved) -> None:
    for number in r.numbers:
        gone = state.pending.pop(number, None)
        if gone is not None and gone.type == "match":
            for key, match in list(state.matches.items()):
                if match is gone:
                    del state.matches[key]
    _fics_offers(state)


def _fics_offers(state: State) -> None:
    """Each game I play: the offers (not matches) between its two players."""
    for mine in state.my_games.values():
        if mine.relation in ("PW", "PB"):
            players = (mine.game.white, mine.game.black)
            mine.offers = tuple(
                offer
                for offer in state.pending.values()
                if offer.type != "match" and offer.name in players
            )


def _fics_arrived(state: State, r: ivars.PlayerArrived) -> None:
    player = state.players.setdefault(r.name, Player(r.name))
    player.titles = _title_flags(r.titles)
    player.state = _FICS_STATUS.get(r.status, "X")
    player.open = False if r.status == ":" else player.open
    for kind, (rating, provshow) in zip(_WA_RATINGS, r.ratings, strict=False):
        player.fics_ratings[kind] = (rating, provshow)


def _fics_departed(state: State, r: ivars.PlayerDeparted) -> None:
    state.players.pop(r.name, None)


_FICS_HANDLERS: dict[type, Any] = {
    ivars.Seek: _fics_seek,
    ivars.SeeksRemoved: _fics_seeks_removed,
    ivars.SeeksCleared: _fics_seeks_cleared,
    ivars.PendingFrom: _fics_pending,
    ivars.PendingTo: _fics_pending,
    ivars.PendingRemoved: _fics_pending_removed,
    ivars.GameInfo: _fics_game_info,
    ivars.PlayerArrived: _fics_arrived,
    ivars.PlayerDeparted: _fics_departed,
}
