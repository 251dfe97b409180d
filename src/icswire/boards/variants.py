"""Every variant FICS and ICC play, in one table: names, wild numbers, rating types, PGN
tags, board classes and starting positions.

Sources: icc-formats.txt (wild numbers in DG_GAME_STARTED and DG_WILD_KEY, rating types in
DG_GAMELIST_ITEM and DG_RATING_TYPE_KEY), the ICC help files ``wild``, ``Giveaway`` and
``Fischer-random`` and ICC news 638 (wild 17), the FICS help files ``wild``, ``losers_chess``,
``suicide_chess``, ``atomic``, ``crazyhouse`` and ``bughouse``, and FICS's game types as
its ``<s>``/``<g1>`` lines and ``games`` list spell them (``wild/fr``, ``crazyhouse``...).

**Wild numbers.** ICC numbers its variants (``seek 5 0 w17``); the number travels in
DG_GAME_STARTED, DG_SEEK and DG_GAMELIST_ITEM, never in style 12, which has no variant
field on either server. FICS names its variants (``wild/8a``, ``suicide``) and numbers
only the wild setups, with a meaning of its own for 0: FICS's ``wild 0`` is chess with
Black's king and queen exchanged, ICC's ``w0`` is chess. A :class:`Variant`'s ``wild`` is
its ICC number, the ``wild`` the functions of :mod:`~icswire.boards.positions` take; the
variants only FICS plays (wild/0, wild/8a, suicide, FICS atomic) have none and are named.

**Ratings.** ``icc_rating`` is the ICC rating type (DG_RATING_TYPE_KEY's names; the spec
numbers 0 Wild, 1 Blitz, 2 Standard, 3 Bullet, 4 Bughouse, and the rest follow DG order:
:data:`ICC_RATING_TYPES`), None for chess, rated by time control. ICC: "Bughouse and
Crazyhouse each have their own rating category, and Losers together with Giveaway have a
rating category", the rest is Wild; Fischer random has its own (DG_CHESS960, 151).
``fics_rating`` is FICS's category (``wild``, ``bughouse``, ``crazyhouse``, ``suicide``,
``losers``, ``atomic``); FICS rates every wild/* setup, fr included, as ``wild``.

**Refused wilds.** ICC numbers that are not played here are in :data:`REFUSED_WILDS` with
the reason; :func:`variant_from_wild` raises :class:`UnsupportedVariantError` for them.

>>> variant_from_spelling("wild 8a").fics_type, variant_from_spelling("w17").name
('wild/8a', 'losers')
>>> variant_from_wild(26).board_class.__name__, rating_type(variant_from_wild(26))
('GiveawayBoard', 'Losers')
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final, Literal, TypeAlias

import chess
import chess.variant

import icswire.boards.setups as setups
from icswire.boards.atomic import IccAtomicBoard
from icswire.boards.bughouse import BughouseBoard
from icswire.boards.losers import LosersBoard
from icswire.boards.suicide import FicsSuicideBoard
from icswire.boards.wilds import NoCastleBoard, WildCastleBoard

if TYPE_CHECKING:  # annotations only: a program that draws no setup does not load random
    import random

__all__ = [
    "ATOMIC",
    "BUGHOUSE",
    "CHESS",
    "CHESS960",
    "CRAZYHOUSE",
    "GIVEAWAY",
    "ICC_ATOMIC",
    "ICC_RATING_TYPES",
    "LOSERS",
    "NEAREST_WILDS",
    "REFUSED_WILDS",
    "SUICIDE",
    "THREE_CHECK",
    "VARIANTS",
    "WILDS",
    "Dialect",
    "UnsupportedVariantError",
    "Variant",
    "VariantLike",
    "icc_rating_index",
    "new_board",
    "rating_type",
    "variant_from_spelling",
    "variant_from_wild",
    "variant_of",
]

Dialect: TypeAlias = Literal["fics", "icc"]

ICC_RATING_TYPES: Final = (
    "Wild",
    "Blitz",
    "Standard",
    "Bullet",
    "Bughouse",
    "Losers",
    "Crazyhouse",
    "5-minute",
    "1-minute",
    "Correspondence",
    "15-minute",
    "3-minute",
    "45-minute",
    "Chess960",
)
"""ICC's rating types by number: 0-4 as icc-formats.txt gives them (DG_GAMELIST_ITEM), the
rest in the order of their rating DGs (DG_LOSERS 88 ... DG_CHESS960 151), which is how
DG_RATING_TYPE_KEY lists them."""


class UnsupportedVariantError(ValueError):
    """A variant this server does not play; the message says why."""


@dataclass(frozen=True, slots=True)
class Variant:
    """One variant: how the servers name it and what its boards are.

    The start is ``start_fen``, else one drawn by ``draw_setup`` (the random setups), else
    the board class's own. ``pgn_variant`` is the PGN ``Variant`` tag (None for chess);
    ``pgn_replayable`` tells whether python-chess replays a game from that tag and the
    ``FEN`` tag by the same rules. ``rated`` is False for games ICC never rates.

    The flags of DG_GAME_STARTED (icc-formats.txt, DG 12): ``irregular_legality`` "if there
    are legal moves that wouldn't be legal in chess" (drops, castling from a wild setup or
    a Fischer random one, a king left en prise, captured or made by promotion);
    ``irregular_semantics`` "for atomic chess and other variants where you can't update
    the board based on the last move by usual rules" (explosions, and castlings that are
    not chess's: "fischer-random (which is irregular only in its castling moves, but that's
    enough)", DG_SET_BOARD); ``promote_to_king`` "if it may sometimes be legal to promote a
    pawn to a king". Losers and the setups without castling (wild 2 to 8) allow only chess
    moves, three-check too.
    """

    name: str
    title: str
    board_class: type[chess.Board]
    wild: int | None = None
    fics_type: str | None = None
    spellings: tuple[str, ...] = ()
    icc_rating: str | None = "Wild"
    fics_rating: str | None = "wild"
    pgn_variant: str | None = None
    pgn_replayable: bool = True
    start_fen: str | None = None
    draw_setup: Callable[[random.Random], str] | None = None
    chess960: bool = False
    rated: bool = True
    irregular_legality: bool = False
    irregular_semantics: bool = False
    promote_to_king: bool = False

    def __repr__(self) -> str:
        return f"<Variant {self.name}>"

    @property
    def random_setup(self) -> bool:
        return self.draw_setup is not None

    @property
    def dg_wild(self) -> int:
        """The wild number DGs carry for this variant: its ICC number, else that of the
        ICC variant played the nearest way (:data:`NEAREST_WILDS`: FICS's suicide is
        giveaway-like, FICS's atomic is wild 27 with check, wild/0 castles as wild 1,
        wild/8a is wild 8's pawn game)."""
        return self.wild if self.wild is not None else NEAREST_WILDS[self.name]

    @property
    def fics_name(self) -> str:
        """The game type in FICS's texts and ``<s>`` lines: FICS's own (``suicide``,
        ``wild/fr``), else ICC's short name as FICS clients key it (``w26``, PyChess's
        ``GAME_TYPES``)."""
        return self.fics_type if self.fics_type is not None else f"w{self.dg_wild}"

    def setup_fen(self, start: chess.Board) -> str | None:
        """The FEN a game record keeps of ``start``, its first position: None for this
        variant's own fixed start, the FEN otherwise (always for a random setup).

        >>> CHESS.setup_fen(chess.Board()), WILD5.setup_fen(WILD5.new_board()) is None
        (None, True)
        """
        fen = start.fen()
        if self.draw_setup is None and fen == self.new_board().fen():
            return None
        return fen

    def new_board(self, rng: random.Random | None = None, fen: str | None = None) -> chess.Board:
        """A board of this variant at ``fen``, else at its start. A random setup is drawn
        from ``rng``; without one it is the chess arrangement (one the draw may also give),
        for a game whose real start comes as a FEN."""
        if fen is None:
            if self.draw_setup is not None and rng is not None:
                fen = self.draw_setup(rng)
            else:
                fen = self.start_fen
        board = self.board_class(chess960=self.chess960)
        if fen is not None:
            board.set_fen(fen)
        return board


CHESS: Final = Variant(
    "chess", "Chess", chess.Board, wild=0, spellings=("chess", "normal"), icc_rating=None,
    fics_rating=None,
)  # fmt: skip
WILD0: Final = Variant(
    "wild/0", "Reversed king and queen", WildCastleBoard, fics_type="wild/0",
    pgn_variant="wild/0", pgn_replayable=False, start_fen=setups.WILD0,
    irregular_legality=True, irregular_semantics=True,
)  # fmt: skip
WILD1: Final = Variant(
    "wild/1", "Shuffle both", WildCastleBoard, wild=1, fics_type="wild/1",
    pgn_variant="wild/1", pgn_replayable=False, draw_setup=setups.wild1,
    irregular_legality=True, irregular_semantics=True,
)  # fmt: skip
WILD2: Final = Variant(
    "wild/2", "Shuffle mirror", NoCastleBoard, wild=2, fics_type="wild/2",
    pgn_variant="wild/2", draw_setup=setups.wild2,
)  # fmt: skip
WILD3: Final = Variant(
    "wild/3", "Random pieces", NoCastleBoard, wild=3, fics_type="wild/3",
    pgn_variant="wild/3", draw_setup=setups.wild3,
)  # fmt: skip
WILD4: Final = Variant(
    "wild/4", "Random pieces, balanced bishops", NoCastleBoard, wild=4, fics_type="wild/4",
    pgn_variant="wild/4", draw_setup=setups.wild4,
)  # fmt: skip
WILD5: Final = Variant(
    "wild/5", "Upside down", chess.Board, wild=5, fics_type="wild/5", pgn_variant="wild/5",
    start_fen=setups.WILD5,
)  # fmt: skip
WILD7: Final = Variant(
    "wild/7", "Three pawns and a king", chess.Board, wild=7, pgn_variant="wild/7",
    start_fen=setups.WILD7, rated=False,
)  # fmt: skip
WILD8: Final = Variant(
    "wild/8", "Pawns on the fourth rank", chess.Board, wild=8, fics_type="wild/8",
    pgn_variant="wild/8", start_fen=setups.WILD8,
)  # fmt: skip
WILD8A: Final = Variant(
    "wild/8a", "Pawns passed", chess.Board, fics_type="wild/8a", pgn_variant="wild/8a",
    start_fen=setups.WILD8A,
)  # fmt: skip
CHESS960: Final = Variant(
    "fr", "Fischer random", chess.Board, wild=22, fics_type="wild/fr",
    spellings=("fr", "chess960", "fischerrandom"), icc_rating="Chess960",
    pgn_variant="Chess960", draw_setup=setups.chess960, chess960=True,
    irregular_legality=True, irregular_semantics=True,
)  # fmt: skip
CRAZYHOUSE: Final = Variant(
    "crazyhouse", "Crazyhouse", chess.variant.CrazyhouseBoard, wild=23,
    fics_type="crazyhouse", spellings=("crazyhouse", "zh"), icc_rating="Crazyhouse",
    fics_rating="crazyhouse", pgn_variant="Crazyhouse",
    irregular_legality=True,
)  # fmt: skip
BUGHOUSE: Final = Variant(
    "bughouse", "Bughouse", BughouseBoard, wild=24, fics_type="bughouse",
    spellings=("bughouse", "wild bughouse"), icc_rating="Bughouse", fics_rating="bughouse",
    pgn_variant="Bughouse", pgn_replayable=False,
    irregular_legality=True,
)  # fmt: skip
LOSERS: Final = Variant(
    "losers", "Losers", LosersBoard, wild=17, fics_type="losers", spellings=("losers",),
    icc_rating="Losers", fics_rating="losers", pgn_variant="Losers", pgn_replayable=False,
)  # fmt: skip
SUICIDE: Final = Variant(
    "suicide", "Suicide", FicsSuicideBoard, fics_type="suicide", spellings=("suicide",),
    icc_rating="Losers", fics_rating="suicide", pgn_variant="Suicide",
    irregular_legality=True, promote_to_king=True,
)  # fmt: skip
GIVEAWAY: Final = Variant(
    "giveaway", "Giveaway", chess.variant.GiveawayBoard, wild=26, spellings=("giveaway",),
    icc_rating="Losers", fics_rating="suicide", pgn_variant="Giveaway",
    irregular_legality=True, promote_to_king=True,
)  # fmt: skip
ATOMIC: Final = Variant(
    "atomic", "Atomic", chess.variant.AtomicBoard, fics_type="atomic", fics_rating="atomic",
    pgn_variant="Atomic",
    irregular_legality=True, irregular_semantics=True,
)  # fmt: skip
ICC_ATOMIC: Final = Variant(
    "icc-atomic", "Atomic (no check)", IccAtomicBoard, wild=27, fics_rating="atomic",
    pgn_variant="wild/27", pgn_replayable=False,
    irregular_legality=True, irregular_semantics=True,
)  # fmt: skip
THREE_CHECK: Final = Variant(
    "three-check", "Three-check", chess.variant.ThreeCheckBoard, wild=25,
    spellings=("three-check", "threecheck", "3check"), pgn_variant="Three-check",
)  # fmt: skip

WILDS: Final = (WILD0, WILD1, WILD2, WILD3, WILD4, WILD5, WILD7, WILD8, WILD8A)
VARIANTS: Final = (
    CHESS, *WILDS, CHESS960, CRAZYHOUSE, BUGHOUSE, LOSERS, SUICIDE, GIVEAWAY, ATOMIC,
    ICC_ATOMIC, THREE_CHECK,
)  # fmt: skip
"""Every variant played, chess first."""

REFUSED_WILDS: Final = {
    6: "ICC defines no wild 6",
    9: "two kings: python-chess has no board whose royal king changes during the game",
    10: "pawn-and-move odds: an unrated ICC training game whose odds-giving side the "
    "sources here do not settle",
    11: "knight odds: an unrated ICC training game whose odds-giving side the sources here "
    "do not settle",
    12: "rook odds: an unrated ICC training game whose odds-giving side the sources here do "
    "not settle",
    13: "queen odds: an unrated ICC training game whose odds-giving side the sources here do "
    "not settle",
    14: "rook odds (a3): an unrated ICC training game whose setup the sources here do not give",
    15: "bishop and knight mate: an ICC training position the sources here do not give",
    16: "kriegspiel: each player sees a different board, which style 12 and python-chess "
    "cannot show",
    18: "power chess: the sources here do not give its setup",
    19: "KNN vs KP: the sources here do not give its setup",
    20: "loadgame: a position the players load, not a variant",
    21: "thematic: an opening chosen from a tournament's list, not a variant",
    28: "shatranj: its pieces move unlike chess's, which no python-chess board plays",
    29: "random wild: a lottery over other wilds, two of which (9 and 18) are refused",
}
"""ICC wild numbers not played, with the reason (others above 29 are unknown)."""

NEAREST_WILDS: Final = {"wild/0": 1, "wild/8a": 8, "suicide": 26, "atomic": 27}
"""For the variants ICC does not number: the ICC wild whose rules are nearest."""

_REFUSED_NAMES: Final = {"kriegspiel": 16, "shatranj": 28}
"""Names of refused wilds that ICC's ``match`` takes ("match wendigo 5 12 kriegspiel")."""

_BY_NAME: Final = {v.name: v for v in VARIANTS}
_BY_WILD: Final = {v.wild: v for v in VARIANTS if v.wild is not None}
_BY_FICS_TYPE: Final = {v.fics_type: v for v in VARIANTS if v.fics_type is not None}
_FICS_WILDS: Final = {v.name.removeprefix("wild/"): v for v in (*WILDS, CHESS960) if v.fics_type}
_WILD_WORDS: Final = re.compile(r"(?:wild\s*/?\s*|w)([0-9]+a?|fr)")

VariantLike: TypeAlias = "Variant | int | str"
"""A variant, its ICC wild number, or its name / FICS game type (``"suicide"``,
``"wild/8a"``)."""


def variant_from_wild(wild: int) -> Variant:
    """The variant of an ICC wild number (DG_GAME_STARTED's wild-number).

    >>> variant_from_wild(22).name
    'fr'
    """
    variant = _BY_WILD.get(wild)
    if variant is not None:
        return variant
    reason = REFUSED_WILDS.get(wild, "ICC documents no such wild number")
    raise UnsupportedVariantError(f"wild {wild} is not played here: {reason}")


def variant_of(variant: VariantLike) -> Variant:
    """``variant`` as a :class:`Variant`: an ICC wild number, a registry name or a FICS
    game type; raises :class:`UnsupportedVariantError` for anything else."""
    if isinstance(variant, Variant):
        return variant
    if isinstance(variant, int):
        return variant_from_wild(variant)
    found = _BY_NAME.get(variant) or _BY_FICS_TYPE.get(variant)
    if found is None:
        raise UnsupportedVariantError(f"no variant is named {variant[:40]!r}")
    return found


def variant_from_spelling(text: str, dialect: Dialect = "fics") -> Variant:
    """The variant a player names in ``seek``/``match``: ``crazyhouse``, ``zh``,
    ``suicide``, ``wild 8a``, ``w5``, ``wild/fr``, ``fr``, ``w17``, ``giveaway``...

    Wild numbers are FICS's where FICS has that setup (0 to 5, 8, 8a, fr) and ICC's
    otherwise; ``dialect`` settles the two words whose meaning differs: ``wild 0`` (FICS:
    king and queen reversed; ICC: chess) and ``atomic`` (FICS's atomic chess, or ICC's wild
    27, which has no check).

    >>> variant_from_spelling("w0", "icc").name, variant_from_spelling("w0").name
    ('chess', 'wild/0')
    """
    words = " ".join(text.lower().split())
    if m := _WILD_WORDS.fullmatch(words):
        number = m[1]
        if dialect == "icc" and number == "0":
            return CHESS
        if number in _FICS_WILDS:
            return _FICS_WILDS[number]
        if number.isdigit():
            return variant_from_wild(int(number))
        raise UnsupportedVariantError(f"no wild is named {number!r}")
    if words == "atomic":  # FICS's, or ICC's wild 27
        return ICC_ATOMIC if dialect == "icc" else ATOMIC
    for variant in VARIANTS:
        if words in variant.spellings or words == variant.fics_type:
            return variant
    if words in _REFUSED_NAMES:
        return variant_from_wild(_REFUSED_NAMES[words])
    raise UnsupportedVariantError(f"no variant is called {text[:40]!r}")


def new_board(
    variant: VariantLike = 0, rng: random.Random | None = None, fen: str | None = None
) -> chess.Board:
    """A board of ``variant`` at ``fen``, else at its starting position (drawn from ``rng``
    for the random setups: wild 1 to 4 and fr).

    >>> new_board("wild/8a").fen()
    'rnbqkbnr/8/8/PPPPPPPP/pppppppp/8/8/RNBQKBNR w KQkq - 0 1'
    """
    return variant_of(variant).new_board(rng, fen)


def rating_type(variant: VariantLike, dialect: Dialect = "icc") -> str | None:
    """The rating type ``variant`` is rated under: ICC's name (``"Losers"``) or FICS's
    category (``"suicide"``); None for chess, which the time control decides."""
    found = variant_of(variant)
    return found.icc_rating if dialect == "icc" else found.fics_rating


def icc_rating_index(name: str) -> int:
    """The number of an ICC rating type (DG_GAMELIST_ITEM, DG_RATING_TYPE_KEY).

    >>> icc_rating_index("Wild"), icc_rating_index("Bughouse")
    (0, 4)
    """
    return ICC_RATING_TYPES.index(name)
