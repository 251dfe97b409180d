"""The variant registry and the wild setups."""

from __future__ import annotations

import doctest
import random
import re
from collections import Counter

import chess
import chess.pgn
import chess.variant
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from icswire.boards import variants as variants_module
from icswire.boards.setups import WILD0, WILD5, WILD7, WILD8, WILD8A
from icswire.boards.variants import (
    CHESS,
    ICC_RATING_TYPES,
    REFUSED_WILDS,
    VARIANTS,
    UnsupportedVariantError,
    Variant,
    icc_rating_index,
    new_board,
    rating_type,
    variant_from_spelling,
    variant_from_wild,
    variant_of,
)

SEEDS = st.integers(0, 2**32 - 1)
NAMES = [v.name for v in VARIANTS]

# -- the fixed setups against FICS's board files -----------------------------------------

# FICS's board files, verbatim (data/boards/wild/0, 5, 8 and misc/little-game, "This is
# Wild7 on ICC"), in their "W: piece squares... / B: ..." form.
FICS_BOARD_FILES = {
    WILD0: (
        "W: P a2 b2 c2 d2 e2 f2 g2 h2 R a1 h1 N b1 g1 B c1 f1 Q d1 K e1",
        "B: P a7 b7 c7 d7 e7 f7 g7 h7 R a8 h8 N b8 g8 B c8 f8 Q e8 K d8",
    ),
    WILD5: (
        "W: P a7 b7 c7 d7 e7 f7 g7 h7 R a8 h8 N b8 g8 B c8 f8 Q e8 K d8",
        "B: P a2 b2 c2 d2 e2 f2 g2 h2 R a1 h1 N b1 g1 B c1 f1 Q e1 K d1",
    ),
    WILD7: ("W: P a2 b2 c2 K d1", "B: P f7 g7 h7 K e8"),
    WILD8: (
        "W: P a4 b4 c4 d4 e4 f4 g4 h4 R a1 h1 N b1 g1 B c1 f1 Q d1 K e1",
        "B: P a5 b5 c5 d5 e5 f5 g5 h5 R a8 h8 N b8 g8 B c8 f8 Q d8 K e8",
    ),
    # FICS wild/8a as PyChess plays it: "White pawns start on 5th rank and black pawns on
    # the 4th rank"
    WILD8A: (
        "W: P a5 b5 c5 d5 e5 f5 g5 h5 R a1 h1 N b1 g1 B c1 f1 Q d1 K e1",
        "B: P a4 b4 c4 d4 e4 f4 g4 h4 R a8 h8 N b8 g8 B c8 f8 Q d8 K e8",
    ),
}


def fics_board_file(lines: tuple[str, str]) -> dict[chess.Square, chess.Piece]:
    pieces = {}
    for line in lines:
        color, *words = line.split()
        symbol = ""
        for word in words:
            if len(word) == 1:
                symbol = word if color == "W:" else word.lower()
            else:
                pieces[chess.parse_square(word)] = chess.Piece.from_symbol(symbol)
    return pieces


@pytest.mark.parametrize("fen", FICS_BOARD_FILES, ids=["wild0", "wild5", "wild7", "wild8", "8a"])
def test_fixed_setups_are_ficss_board_files(fen: str) -> None:
    assert chess.Board(fen).piece_map() == fics_board_file(FICS_BOARD_FILES[fen])


@pytest.mark.parametrize(
    ("name", "castling"),
    [("wild/0", "KQkq"), ("wild/5", "-"), ("wild/7", "-"), ("wild/8", "KQkq"), ("wild/8a", "KQkq")],
)
def test_fixed_setups_castle_where_king_and_rooks_stand_for_it(name: str, castling: str) -> None:
    assert new_board(name).castling_xfen() == castling


# -- the random setups --------------------------------------------------------------------

STANDARD_SET = Counter("KQRRBBNN")


def first_ranks(board: chess.Board) -> tuple[str, str]:
    placement = board.board_fen().split("/")
    assert placement[1] == "pppppppp" and placement[6] == "PPPPPPPP"
    assert placement[2:6] == ["8"] * 4
    return placement[7], placement[0]


def light(square: chess.Square) -> bool:
    return bool(chess.BB_LIGHT_SQUARES & chess.BB_SQUARES[square])


def bishop_colours(board: chess.Board, color: chess.Color) -> Counter[bool]:
    return Counter(light(sq) for sq in board.pieces(chess.BISHOP, color))


@settings(max_examples=60, deadline=None)
@given(SEEDS)
def test_wild1_kings_on_d_or_e_rooks_in_the_corners_bishops_on_both_colours(seed: int) -> None:
    board = new_board("wild/1", random.Random(seed))
    white, black = first_ranks(board)
    for rank, color in ((white, chess.WHITE), (black, chess.BLACK)):
        assert Counter(rank.upper()) == STANDARD_SET
        assert rank.upper()[0] == rank.upper()[7] == "R"
        assert rank.upper()[3:5] in ("KQ", "QK")
        assert bishop_colours(board, color) == Counter({True: 1, False: 1})
    assert board.castling_xfen() == "KQkq"
    assert type(board).__name__ == "WildCastleBoard"


@settings(max_examples=60, deadline=None)
@given(SEEDS)
def test_wild2_a_shuffled_set_black_mirroring_white(seed: int) -> None:
    board = new_board("wild/2", random.Random(seed))
    white, black = first_ranks(board)
    assert Counter(white) == STANDARD_SET and black == white.lower()
    assert board.castling_xfen() == "-" and not board.clean_castling_rights()


@settings(max_examples=60, deadline=None)
@given(SEEDS)
def test_wild3_one_king_and_random_pieces_black_mirroring_white(seed: int) -> None:
    board = new_board("wild/3", random.Random(seed))
    white, black = first_ranks(board)
    assert white.count("K") == 1 and set(white) <= set("KQRBN") and black == white.lower()
    assert board.castling_xfen() == "-"


@settings(max_examples=60, deadline=None)
@given(SEEDS)
def test_wild4_the_same_random_set_with_balanced_bishops(seed: int) -> None:
    board = new_board("wild/4", random.Random(seed))
    white, black = first_ranks(board)
    assert white.count("K") == 1 and Counter(white) == Counter(black.upper())
    whites, blacks = bishop_colours(board, chess.WHITE), bishop_colours(board, chess.BLACK)
    assert (blacks[True], blacks[False]) == (whites[False], whites[True])
    assert board.castling_xfen() == "-"


def test_random_setups_vary_and_wild4_sides_differ() -> None:
    rng = random.Random(7)
    for name in ("wild/1", "wild/2", "wild/3", "wild/4", "fr"):
        assert len({new_board(name, rng).fen() for _ in range(30)}) > 5, name
    fours = [first_ranks(new_board("wild/4", rng)) for _ in range(30)]
    assert any(white.lower() != black for white, black in fours)


@settings(max_examples=60, deadline=None)
@given(SEEDS)
def test_fr_is_one_of_the_960(seed: int) -> None:
    board = new_board("fr", random.Random(seed))
    assert board.chess960 and board.chess960_pos() is not None


def test_without_a_random_source_a_random_setup_is_the_chess_arrangement() -> None:
    assert new_board(22).fen() == chess.STARTING_FEN and new_board(22).chess960
    assert new_board("wild/2").board_fen() == chess.Board().board_fen()
    assert new_board("wild/2", fen=WILD8).fen() == WILD8.replace("KQkq", "-")


# -- the table ------------------------------------------------------------------------------


def test_names_numbers_and_fics_types_are_unique() -> None:
    for key in ("name", "wild", "fics_type", "pgn_variant"):
        values = [getattr(v, key) for v in VARIANTS if getattr(v, key) is not None]
        assert len(values) == len(set(values)), key


@pytest.mark.parametrize("wild", range(30))
def test_every_icc_wild_up_to_29_is_played_or_refused_with_a_reason(wild: int) -> None:
    if wild in REFUSED_WILDS:
        with pytest.raises(
            UnsupportedVariantError, match=f"wild {wild} .*{re.escape(REFUSED_WILDS[wild])}"
        ):
            variant_from_wild(wild)
    else:
        variant = variant_from_wild(wild)
        assert variant.wild == wild and variant_of(wild) is variant


def test_unknown_wilds_and_names_are_refused() -> None:
    for bad in (30, -1, "wild/9", "kriegspiel"):
        with pytest.raises(UnsupportedVariantError):
            variant_of(bad)
    assert isinstance(UnsupportedVariantError("x"), ValueError)


@pytest.mark.parametrize(
    ("text", "dialect", "name"),
    [
        ("crazyhouse", "fics", "crazyhouse"),
        ("zh", "fics", "crazyhouse"),
        ("bughouse", "icc", "bughouse"),
        ("wild bughouse", "fics", "bughouse"),
        ("suicide", "fics", "suicide"),
        ("losers", "fics", "losers"),
        ("Losers", "icc", "losers"),
        ("w17", "icc", "losers"),
        ("wild 17", "fics", "losers"),
        ("atomic", "fics", "atomic"),
        ("atomic", "icc", "icc-atomic"),
        ("w27", "fics", "icc-atomic"),
        ("giveaway", "fics", "giveaway"),
        ("w26", "icc", "giveaway"),
        ("w25", "icc", "three-check"),
        ("wild 0", "fics", "wild/0"),
        ("w0", "icc", "chess"),
        ("wild  1", "fics", "wild/1"),
        ("w5", "icc", "wild/5"),
        ("wild/8a", "fics", "wild/8a"),
        ("w8a", "icc", "wild/8a"),
        ("wild fr", "fics", "fr"),
        ("wild/fr", "fics", "fr"),
        ("fr", "icc", "fr"),
        ("w22", "icc", "fr"),
        ("chess960", "fics", "fr"),
        ("w7", "icc", "wild/7"),
    ],
)
def test_spellings(text: str, dialect: str, name: str) -> None:
    assert variant_from_spelling(text, dialect).name == name  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("w9", "two kings"),
        ("wild 16", "kriegspiel"),
        ("kriegspiel", "kriegspiel"),
        ("w28", "shatranj"),
        ("wild 8b", "no variant is called 'wild 8b'"),
        ("w", "no variant is called 'w'"),
    ],
)
def test_refused_spellings_say_why(text: str, why: str) -> None:
    with pytest.raises(UnsupportedVariantError, match=why):
        variant_from_spelling(text)


def test_rating_types() -> None:
    fics = {None, "wild", "bughouse", "crazyhouse", "suicide", "losers", "atomic"}
    for variant in VARIANTS:
        assert variant.icc_rating is None or variant.icc_rating in ICC_RATING_TYPES
        assert variant.fics_rating in fics
    assert ICC_RATING_TYPES[:5] == ("Wild", "Blitz", "Standard", "Bullet", "Bughouse")
    assert [rating_type(w) for w in (17, 26, 23, 24, 1, 27, 22)] == [
        "Losers", "Losers", "Crazyhouse", "Bughouse", "Wild", "Wild", "Chess960",
    ]  # fmt: skip
    assert rating_type("wild/fr", "fics") == "wild" and rating_type(CHESS) is None
    assert icc_rating_index("Chess960") == 13
    assert not variant_of(7).rated


PYTHON_CHESS_BOARDS = {
    "Chess960": chess.Board,
    "Crazyhouse": chess.variant.CrazyhouseBoard,
    "Suicide": chess.variant.SuicideBoard,
    "Giveaway": chess.variant.GiveawayBoard,
    "Atomic": chess.variant.AtomicBoard,
    "Three-check": chess.variant.ThreeCheckBoard,
}


@pytest.mark.parametrize("variant", VARIANTS, ids=NAMES)
def test_pgn_tags_name_what_python_chess_replays(variant: Variant) -> None:
    """A replayable tag makes python-chess build a board of our class or of the class ours
    refines; an unreplayable one names a game python-chess does not know or would play by
    other rules (wild castling from d1)."""
    if variant.pgn_variant is None:
        assert variant is CHESS
        return
    headers = chess.pgn.Headers(Variant=variant.pgn_variant)
    if variant.pgn_replayable:
        assert issubclass(variant.board_class, headers.variant())
        if variant.pgn_variant in PYTHON_CHESS_BOARDS:
            assert headers.variant() is PYTHON_CHESS_BOARDS[variant.pgn_variant]
    elif variant.pgn_variant.startswith("wild/") and variant.wild != 27:
        assert variant.board_class.__name__ == "WildCastleBoard"
    else:
        with pytest.raises(ValueError, match="unsupported variant"):
            headers.variant()


@pytest.mark.parametrize("variant", VARIANTS, ids=NAMES)
def test_every_variant_starts_with_a_board_of_its_class_and_moves(variant: Variant) -> None:
    board = variant.new_board(random.Random(1))
    assert type(board) is variant.board_class
    assert any(board.legal_moves) and board.outcome() is None
    assert board.chess960 == (variant.chess960 or type(board).__name__ == "WildCastleBoard")
    if variant.start_fen is not None:
        assert board.board_fen() == chess.Board(variant.start_fen).board_fen()


def test_the_docstring_examples_hold() -> None:
    assert doctest.testmod(variants_module).failed == 0
