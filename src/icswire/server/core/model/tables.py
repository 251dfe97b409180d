"""The games people sit at: played games (``features.play``) and examined games
(``features.examine``), numbered from one series and found by number or by who sits there.

:class:`Table` is what watching a game needs of either kind; :class:`Tables` looks through
the games each feature keeps, without holding a copy of them.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, NamedTuple, Protocol

from icswire.boards.variants import Variant, variant_of
from icswire.server.core.model.claims import Claims
from icswire.server.core.model.ratings import rating_type

if TYPE_CHECKING:
    import chess

    from icswire.protocol.datagrams import GameStarted
    from icswire.server.core.model.users import User
    from icswire.server.core.render.batch import Batch, Message
    from icswire.server.core.render.boards import BoardFacts
    from icswire.server.core.render.movelist import Movelist


#: How a game ends when the node that held it is lost to its cluster (docs/cluster.md,
#: "Failure"): its description, as the players and observers everywhere are told it.
LOST_WITH_ITS_SERVER = "Game adjourned when its server went down"

#: FICS's names of this server's rating types, where they differ from the lower-case name.
FICS_TYPES = {"Bullet": "lightning", "Chess960": "wild/fr"}


@dataclass(frozen=True)
class Terms:
    """What a game is played under: the wild, rated or not, the time control, the variant.

    ``wild`` is the number DGs carry (:attr:`Variant.dg_wild`); ``variant`` the registry's
    name of the variant (:mod:`icswire.boards.variants`), None for the variant of ``wild``
    (FICS's suicide, atomic, wild/0 and wild/8a have no ICC number of their own)."""

    wild: int = 0
    rated: bool = False
    initial: int = 3  # minutes (White's, where the sides' times differ)
    increment: int = 0  # seconds
    rating_type: str = "Blitz"
    variant: str | None = None
    #: The event a TD started the game in (``rmatch``/``qmatch ... | LABEL``): shown in
    #: ``games`` and as the PGN ``Event`` tag; "" for an ordinary game.
    event: str = ""
    #: The TD who labelled it (DG_IDLE and DG_ACK_PING tell him of its players); "" for
    #: none.
    director: str = ""
    #: Black's time and increment in a game with time odds (``match NAME 5 0 3 0``);
    #: None: White's.
    black_initial: int | None = None
    black_increment: int | None = None

    @classmethod
    def of(
        cls,
        variant: Variant,
        rated: bool,
        initial: int,
        increment: int,
        kind: str | None = None,
        black: tuple[int, int] | None = None,
    ) -> Terms:
        """The terms of a game of ``variant`` (rated under ``kind``, else the variant's
        rating type for this time control); ``variant`` named only where the wild number
        does not say it, so that equal games have equal terms. ``black``: Black's time
        and increment when they differ from White's."""
        wild = variant.dg_wild
        named = None if variant.wild == wild else variant.name
        kind = kind if kind is not None else rating_type(variant, initial, increment)
        if black == (initial, increment):
            black = None
        b_initial, b_increment = black if black is not None else (None, None)
        return cls(
            wild,
            rated,
            initial,
            increment,
            kind,
            named,
            black_initial=b_initial,
            black_increment=b_increment,
        )

    def time_of(self, white: bool) -> tuple[int, int]:
        """A side's (minutes, increment seconds)."""
        if white or self.black_initial is None or self.black_increment is None:
            return self.initial, self.increment
        return self.black_initial, self.black_increment

    @property
    def odds(self) -> bool:
        """The sides have different times (lasker's TYPE_NONSTANDARD: never rated)."""
        return self.time_of(False) != (self.initial, self.increment)

    @property
    def untimed(self) -> bool:
        """No clock runs: a side has neither time nor increment (FICS's ``0 0``,
        TYPE_UNTIMED: never rated)."""
        return any(self.time_of(white) == (0, 0) for white in (True, False))

    @property
    def clock_words(self) -> str:
        """The time control as FICS's texts end with it (lasker's ``game_time_str``):
        ``5 0``, ``5 0 : 3 0`` with time odds, nothing in an untimed game."""
        if self.untimed:
            return ""
        black = self.time_of(False)
        if self.odds:
            return f"{self.initial} {self.increment} : {black[0]} {black[1]}"
        return f"{self.initial} {self.increment}"

    @property
    def described(self) -> str:
        """``unrated blitz 5 0``, ``unrated non-standard 5 0 : 3 0``, ``unrated untimed``:
        the game as FICS's challenge and ``Creating:`` lines name it (lasker's
        ``game_str``)."""
        clock = self.clock_words
        return f"{self.words} {clock}" if clock else self.words

    @property
    def game_variant(self) -> Variant:
        """The variant played: its rules, boards and names."""
        return variant_of(self.variant if self.variant is not None else self.wild)

    @property
    def fics_type(self) -> str:
        """The game's type as FICS names it in its texts and ``<s>`` lines (``blitz``,
        ``lightning``, ``wild/fr``, ``crazyhouse``, ``suicide``, ``wild/5``): the keys FICS
        clients look types up by (PyChess's ``GAME_TYPES``)."""
        variant = self.game_variant
        if variant.wild == 0:
            if self.untimed:  # lasker's bstr[]: TYPE_UNTIMED, TYPE_NONSTANDARD
                return "untimed"
            if self.odds:
                return "non-standard"
            return FICS_TYPES.get(self.rating_type, self.rating_type.lower())
        return variant.fics_name

    @property
    def words(self) -> str:
        """``rated blitz``: how match lines name the game."""
        return f"{'rated' if self.rated else 'unrated'} {self.fics_type}"


class Table(Protocol):
    """A game that can be watched: its players or examiners, observers and board."""

    @property
    def number(self) -> int: ...
    @property
    def observers(self) -> set[User]: ...
    @property
    def flipped(self) -> set[User]: ...  # who turned their board with ``flip``
    @property
    def board(self) -> chess.Board: ...
    @property
    def examined(self) -> bool: ...  # an examined game, not a played one
    @property
    def rating_type(self) -> str: ...
    @property
    def variant(self) -> str | None: ...  # as Terms.variant: None for the wild's variant
    @property
    def partner_table(self) -> Table | None: ...  # a bughouse game's other board
    @property
    def private(self) -> bool: ...  # ``set private``: not listed, nobody may observe it
    @property
    def event(self) -> str: ...  # a TD's event label (PGN ``Event``), "" for none
    @property
    def director(self) -> str: ...  # the TD who started it in his event, "" for none

    def audience(self) -> Iterator[User]:
        """Everybody at the table: players or examiners, then observers."""
        ...

    def seats(self) -> list[User]:
        """The players or the examiners."""
        ...

    def seat_symbol(self, session: User) -> str:
        """DG_PLAYERS_IN_MY_GAME's symbol (PW, PB, E, O) of somebody at the table."""
        ...

    def player_names(self) -> tuple[str, str]: ...
    def relation(self, session: User) -> int: ...
    def is_flipped(self, session: User) -> bool: ...

    def game_record(self) -> GameStarted:
        """DG_GAME_STARTED (12) of this game; ``datagrams.record_as`` makes it one of the
        other DGs of that form (15, 18, 40, 100)."""
        ...

    def board_message(self) -> Message:
        """The board as each one at the table sees it."""
        ...

    def isolated_board(self) -> Message:
        """The board as somebody not at the table sees it (relation -3)."""
        ...

    def facts(self) -> BoardFacts:
        """What its board says besides the position (names, clocks, the last moves)."""
        ...

    def send_history(self, session: User, batch: Batch) -> None:
        """The moves so far and the clocks, in the datagrams ``session`` has on."""
        ...

    def greet_observer(self, session: User, batch: Batch) -> None:
        """What a new observer gets besides what every one at the table gets."""
        ...

    def games_row(self, icc: bool) -> str:
        """This game's line in ``games``, in ICC's layout if ``icc``, else FICS's."""
        ...

    def listed(self) -> ListedGame:
        """This game as ``games`` lists it."""
        ...

    def observe_title(self) -> str:
        """The line under ``You are now observing game N.``"""
        ...

    def movelist(self) -> Movelist:
        """What ``moves`` shows: the moves so far and what the game is."""
        ...


class ListedGame(NamedTuple):
    """A game as ``games`` lists it (one of this node's, or of another node of a cluster)."""

    number: int
    examined: bool
    fics_row: str
    icc_row: str
    #: FICS lists games by this: the players' ratings added, examined games first
    #: (lasker's ``gamesortfunc``: 10000 less for an examined game).
    order: int
    white: str
    black: str
    private: bool


class Tables:
    """Every game being played or examined, as the features that keep them register
    their maps (game number -> game, player or examiner -> game)."""

    def __init__(self) -> None:
        self._sources: list[tuple[Mapping[int, Table], Mapping[User, Table]]] = []
        self._reserved: set[int] = set()
        #: Game numbers are unique in a whole cluster.
        self.claims: Claims[int] = Claims()
        #: In a cluster, the other nodes' games as ``games`` lists them.
        self.listed_elsewhere: Callable[[], Awaitable[list[ListedGame]]] | None = None

    def add_source(self, by_number: Mapping[int, Table], by_seat: Mapping[User, Table]) -> None:
        self._sources.append((by_number, by_seat))

    def find(self, number: int) -> Table | None:
        """The game ``number``."""
        for by_number, _ in self._sources:
            found = by_number.get(number)
            if found is not None:
                return found
        return None

    def seated(self, session: User) -> Table | None:
        """The game ``session`` plays or examines."""
        for _, by_seat in self._sources:
            found = by_seat.get(session)
            if found is not None:
                return found
        return None

    def all(self) -> list[Table]:
        """Every game, by number."""
        found = [table for by_number, _ in self._sources for table in by_number.values()]
        return sorted(found, key=lambda table: table.number)

    def free_number(self) -> int:
        """The lowest number no game has (nor is being given, see :meth:`reserve`)."""
        number = 1
        while (
            number in self._reserved
            or number in self.claims.elsewhere
            or any(number in by_number for by_number, _ in self._sources)
        ):
            number += 1
        return number

    async def reserve_claimed(self) -> int:
        """:meth:`reserve`, and in a cluster a number no other node took meanwhile."""
        while True:
            number = self.reserve()
            if await self.claims.claim(number):
                return number
            self.release(number)  # the claim remembered it as taken elsewhere

    def reserve(self) -> int:
        """A free number, kept from others until :meth:`release`: for a game that takes
        some time (an await) to be made before it is registered with its number."""
        number = self.free_number()
        self._reserved.add(number)
        return number

    def release(self, number: int) -> None:
        """Stop keeping ``number`` (the game is registered with it, or was not made)."""
        self._reserved.discard(number)
