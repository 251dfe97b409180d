"""What the server keeps of games and ratings: plain values shared by the store and the server.

A :class:`GameRecord` is one game as stored, from its first move to its result, with the
status, mode and color codes of DG_GAMELIST_ITEM (73) (see
:func:`icswire.protocol.codes.describe_result`). A :class:`RatingRecord` is one player's
rating of one rating type.

>>> record = RatingRecord("Fred", "Blitz", Glicko(), 0, 0, 0, 0)
>>> after = record.played(Glicko(), 1)
>>> round(after.glicko.rating), after.games, after.wins
(1662, 1, 1)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Literal

from icswire.boards.variants import Variant, variant_of
from icswire.protocol.codes import ResultStatus
from icswire.server.core.model.names import name_key
from icswire.server.core.model.ratings import Glicko, annotation, update

__all__ = [
    "GameRecord",
    "RatingChange",
    "RatingRecord",
    "record_against",
    "result_for",
    "shown_rating",
]


@dataclass(frozen=True, slots=True)
class GameRecord:
    """One game: who played it, how, every move with its clock, and how it ended."""

    id: int | None
    """The store's game id; None for a record not stored yet."""
    white: str
    """The name as played (case kept; guests too)."""
    black: str
    white_rating: int
    """The rating each player had when the game started."""
    black_rating: int
    wild: int
    rating_type: str
    """A name in :data:`icswire.server.core.model.ratings.RATING_TYPES`."""
    rated: bool
    initial: int
    """Minutes on each clock at the start."""
    increment: int
    """Seconds added after each move."""
    start_fen: str | None
    """The position the game started from; None for the standard start."""
    moves: tuple[str, ...]
    """In SAN (``P@e4`` for a drop)."""
    clocks: tuple[int, ...]
    """The mover's clock in milliseconds after each move (increment included)."""
    times: tuple[int, ...]
    """Milliseconds each move took."""
    status: int | None
    """DG_GAMELIST_ITEM's status: 0 win, 1 draw, 2 adjourned, 3 aborted; None in progress."""
    mode: int | None
    """DG_GAMELIST_ITEM's mode: the reason, for that status; None in progress."""
    color: int | None
    """0 black, 1 white: the side that lost (status 0) or acted; None in progress."""
    score: str
    """``1-0``, ``0-1``, ``1/2-1/2``, ``*`` (in progress or adjourned) or ``aborted``."""
    eco: str
    """The ECO code of the opening, ``?`` if unknown."""
    white_clock: int
    """Milliseconds on White's clock at the end, at adjournment or at the last move saved."""
    black_clock: int
    started: datetime
    """When the game began, timezone-aware (UTC when read back)."""
    ended: datetime | None
    """When it ended or was adjourned; None in progress."""
    variant: str | None = None
    """The registry's name of the variant (:mod:`icswire.boards.variants`); None for the
    variant of ``wild``, an ICC number (:class:`~icswire.server.core.model.tables.Terms`)."""
    private: bool = False
    """A player had ``set private`` when it began: only its players and administrators may
    read its moves (:meth:`readable_by`)."""
    event: str = ""
    """The event a TD started it in (``rmatch ... | LABEL``): its PGN ``Event``; "" none."""
    black_initial: int | None = None
    """Black's minutes in a game with time odds; None: :attr:`initial`."""
    black_increment: int | None = None
    """Black's increment in a game with time odds; None: :attr:`increment`."""

    @property
    def game_variant(self) -> Variant:
        """The variant played: its rules, boards and names."""
        return variant_of(self.variant if self.variant is not None else self.wild)

    @property
    def odds(self) -> bool:
        """Black's time control differs from White's (time odds)."""
        return (self.black_initial, self.black_increment) not in (
            (None, None),
            (self.initial, self.increment),
        )

    def readable_by(self, name: str, admin: bool) -> bool:
        """Whether the user ``name`` may read its moves: anybody a game that is not
        private, else its players and administrators (FICS's ``smoves``, ``sposition``)."""
        players = {name_key(self.white), name_key(self.black)}
        return not self.private or admin or name_key(name) in players


@dataclass(frozen=True, slots=True)
class RatingRecord:
    """One player's rating of one rating type, with the games that made it."""

    name: str
    rating_type: str
    """A name in :data:`icswire.server.core.model.ratings.RATING_TYPES`."""
    glicko: Glicko
    games: int
    wins: int
    losses: int
    draws: int

    def played(self, opponent: Glicko, score: float) -> RatingRecord:
        """This record after one rated game against ``opponent`` (score 1, 0.5 or 0).

        The Glicko-2 update for a rating period of one game, and the game counted.
        """
        return replace(
            self,
            glicko=update(self.glicko, [(opponent, score)]),
            games=self.games + 1,
            wins=self.wins + (score == 1),
            losses=self.losses + (score == 0),
            draws=self.draws + (0 < score < 1),
        )


@dataclass(frozen=True, slots=True)
class RatingChange:
    """One player's rating before and after a rated game."""

    before: RatingRecord
    after: RatingRecord


def shown_rating(record: RatingRecord) -> tuple[int, int]:
    """(rating, DG annotation) as players are shown it; (0, 0) before any game."""
    if not record.games:
        return 0, 0
    return round(record.glicko.rating), annotation(record.glicko, record.games)


def result_for(record: GameRecord, name: str) -> Literal["won", "lost", "drawn"] | None:
    """How a game ended for its player ``name``: None unless it was won or drawn."""
    if record.status == ResultStatus.DRAW:
        return "drawn"
    if record.status != ResultStatus.WIN:
        return None
    white = name_key(record.white) == name_key(name)
    return "won" if (record.score == "1-0") == white else "lost"


def record_against(
    p1: str, p2: str, rating_type: str, past: Iterable[GameRecord]
) -> tuple[int, int, int, int, int, int]:
    """DG_PSTAT's (142) counts of one rating type: ``p1``'s wins, losses and draws against
    ``p2`` as White, then as Black, among the games ``past``."""
    counts = [0] * 6
    players = {name_key(p1), name_key(p2)}
    for record in past:
        if record.rating_type != rating_type:
            continue
        if {name_key(record.white), name_key(record.black)} != players:
            continue
        result = result_for(record, p1)
        if result is not None:
            base = 0 if name_key(record.white) == name_key(p1) else 3
            counts[base + ("won", "lost", "drawn").index(result)] += 1
    won, lost, drawn, black_won, black_lost, black_drawn = counts
    return won, lost, drawn, black_won, black_lost, black_drawn
