"""Positions from style 12, style 10, DG_JBOARD, 64-character boards and FEN, and back."""

from __future__ import annotations

import contextlib
import doctest
import random
from typing import Any

import chess
import chess.variant
import pytest
from hypothesis import given
from hypothesis import strategies as st

from icswire.boards import positions as positions_module
from icswire.boards.bughouse import BughouseBoard
from icswire.boards.moves import move_from_san, move_from_verbose
from icswire.boards.positions import (
    BUGHOUSE,
    CHESS960,
    CRAZYHOUSE,
    board_from_64,
    board_from_fen,
    board_from_jboard,
    board_from_style10,
    board_from_style12,
    board_to_64,
    new_board,
    strength,
    style10_from_board,
    style12_from_board,
)
from icswire.boards.variants import Variant
from icswire.protocol import datagrams as dg
from icswire.protocol.bughouse import Bughouse, parse_b1
from icswire.protocol.style10 import Style10, format_style10, parse_style10
from icswire.protocol.style12 import Style12, format_style12, parse_style12

from .test_moves import FAST, VARIANTS, games, positions

# The real lines of icc-style12.txt, fics-style12.txt and NOTES.md.
ICC_HELP = (
    "<12> rnbqkb-r pppppppp -----n-- -------- ----P--- -------- PPPPKPPP RNBQ-BNR "
    "B -1 0 0 1 1 0 7 Quimbee Darooha 1 2 12 39 39 119 122 2 K/e1-e2 (0:06) Ke2 0"
)
FICS_HELP = (
    "<12> rnbqkb-r pppppppp -----n-- -------- ----P--- -------- PPPPKPPP RNBQ-BNR "
    "B -1 0 0 1 1 0 7 Newton Einstein 1 2 12 39 39 119 122 2 K/e1-e2 (0:06) Ke2 0"
)
FICS_MS = (
    "<12> rnbqkbnr pppppppp -------- -------- -------- -------- PPPPPPPP RNBQKBNR "
    "W -1 1 1 1 1 0 55 mgatto Thegermain 1 4 0 39 39 240000 240000 1 none (0:00.000) none 0 0 0"
)
FICS_SECONDS = (
    "<12> r-q-kbnr ppp--p-p ---p--p- ---Pp--- --P----- -QNBPP-- PP----PP R----RK- "
    "B -1 0 0 1 1 1 182 milecker jamofr 0 3 0 33 33 118 148 11 o-o (0:04) O-O 0 1 0"
)
# Not captured from a server: FICS_MS's game after 1. e4, in the same form.
FICS_AFTER_E4 = (
    "<12> rnbqkbnr pppppppp -------- -------- ----P--- -------- PPPP-PPP RNBQKBNR "
    "B 4 1 1 1 1 0 55 mgatto Thegermain -1 4 0 39 39 240000 240000 1 P/e2-e4 (0:00.000) e4 0 1 0"
)
ICC_STYLE10 = [
    '"10"\n',
    "|r b kbnr|   \n",
    "|ppp ppp |   \n",
    "|  nq    |   \n",
    "|   p   p|   \n",
    "|   P    |   \n",
    "|  NQB  N|   \n",
    "|PPP PPPP|   \n",
    "|R   KB R|   \n",
    "B -1 1 1 1 1 3   \n",
    "0 Darooha Quimbee 1 2 12 39 39 113 129 5 B/c1-e3 (0:22) Be3   \n",
]

AFTER_KE2 = "rnbqkb1r/pppppppp/5n2/8/4P3/8/PPPPKPPP/RNBQ1BNR b kq - 0 2"
STYLE10_FEN = "r1b1kbnr/ppp1ppp1/2nq4/3p3p/3P4/2NQB2N/PPP1PPPP/R3KB1R b KQkq - 3 5"
# FICS_SECONDS one move earlier: White has not castled yet (rights and clocks as a guess).
BEFORE_O_O = "r1q1kbnr/ppp2p1p/3p2p1/3Pp3/2P5/1QNBPP2/PP4PP/R3K2R w KQkq - 0 11"


def facts12(rec: Style12) -> dict[str, Any]:
    """What style12_from_board needs besides the board."""
    return {
        "game_number": rec.game_number,
        "white_name": rec.white_name,
        "black_name": rec.black_name,
        "relation": rec.relation,
        "initial_time": rec.initial_time,
        "increment": rec.increment,
        "white_time": rec.white_time,
        "black_time": rec.black_time,
        "move_time_ms": rec.move_time_ms,
        "move_time_precise": rec.move_time_precise,
        "flip": rec.flip,
        "clock_ticking": rec.clock_ticking,
        "lag_ms": rec.lag_ms,
    }


def facts10(rec: Style10) -> dict[str, Any]:
    return {
        "game_number": rec.game_number,
        "white_name": rec.white_name,
        "black_name": rec.black_name,
        "relation": rec.relation,
        "initial_time": rec.initial_time,
        "increment": rec.increment,
        "white_time": rec.white_time,
        "black_time": rec.black_time,
        "move_time_ms": rec.move_time_ms,
        "move_time_precise": rec.move_time_precise,
        "header": rec.header,
    }


def played(*sans: str, fen: str = chess.STARTING_FEN) -> chess.Board:
    board = chess.Board(fen)
    for san in sans:
        board.push_san(san)
    return board


def without_last_move(rec: Style12) -> dict[str, Any]:
    fields = rec._asdict()
    del fields["verbose_move"], fields["pretty_move"]
    return fields


# -- the spec's lines --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "fen"),
    [
        (ICC_HELP, AFTER_KE2),
        (FICS_HELP, AFTER_KE2),
        (FICS_MS, chess.STARTING_FEN),
        (FICS_SECONDS, "r1q1kbnr/ppp2p1p/3p2p1/3Pp3/2P5/1QNBPP2/PP4PP/R4RK1 b kq - 1 11"),
        (FICS_AFTER_E4, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"),
    ],
)
def test_real_style12_lines_give_their_positions(line: str, fen: str) -> None:
    rec = parse_style12(line)
    board = board_from_style12(rec)
    assert board.fen(en_passant="fen") == fen
    again = style12_from_board(board, **facts12(rec))
    # a board without history has no last move; everything else comes back
    assert without_last_move(again) == without_last_move(rec)
    assert (again.verbose_move, again.pretty_move) == ("none", "none")


def test_style12_lines_from_the_games_that_led_to_them() -> None:
    start = parse_style12(FICS_MS)
    assert style12_from_board(chess.Board(), **facts12(start)) == start
    after_e4 = parse_style12(FICS_AFTER_E4)
    assert style12_from_board(played("e4"), **facts12(after_e4)) == after_e4
    castled = parse_style12(FICS_SECONDS)
    assert style12_from_board(played("O-O", fen=BEFORE_O_O), **facts12(castled)) == castled
    for line in (ICC_HELP, FICS_HELP):
        rec = parse_style12(line)
        again = style12_from_board(played("e4", "Nf6", "Ke2"), **facts12(rec))
        # The help files' example has halfmove clock 0 after two reversible moves: ICC
        # counts the king's move, which loses the castling rights, as irreversible.
        # python-chess counts the moves since the last capture or pawn move.
        assert again.halfmove_clock == 2
        assert again._replace(halfmove_clock=0) == rec


def test_the_style10_example_gives_its_position_and_comes_back() -> None:
    rec = parse_style10(ICC_STYLE10)
    board = board_from_style10(rec)
    assert board.fen() == STYLE10_FEN
    assert style10_from_board(board, **facts10(rec)) == rec._replace(
        line_ends=(), verbose_move="none", pretty_move="none"
    )
    game = played("d4", "Nc6", "Nc3", "d5", "Nh3", "h5", "Qd3", "Qd6", "Be3")
    assert game.fen() == STYLE10_FEN
    assert style10_from_board(game, **facts10(rec)) == rec._replace(line_ends=())
    fics = style10_from_board(game, **facts10(rec) | {"header": "<10>"})
    assert format_style10(fics).splitlines()[0::11] == ["<10>", ">10<"]


def test_style12_holdings_and_the_b1_line() -> None:
    rec = parse_style12(FICS_MS)
    holdings = parse_b1("<b1> game 6 white [PNBBB] black [PNB]")
    for wild in (CRAZYHOUSE, BUGHOUSE):
        board = board_from_style12(rec, wild, holdings)
        assert isinstance(board, chess.variant.CrazyhouseBoard)
        assert board.fen() == "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[BBBNPbnp] w KQkq - 0 1"
    assert board_from_style12(rec, CRAZYHOUSE).fen().endswith("RNBQKBNR[] w KQkq - 0 1")
    with pytest.raises(ValueError, match="crazyhouse"):
        board_from_style12(rec, 0, holdings)


# -- details of the fields ---------------------------------------------------------------


def rec12(ranks: str, side: str = "W", dpf: int = -1, castling: str = "1 1 1 1") -> Style12:
    return parse_style12(
        f"<12> {ranks} {side} {dpf} {castling} 0 1 a b 0 3 0 39 39 180 180 1 none (0:00) none 0"
    )


EMPTY_RANKS = "-------- " * 6


@pytest.mark.parametrize(
    ("ranks", "side", "dpf", "ep"),
    [
        ("-------- -------- -------- ----p--- " + "-------- " * 3 + "----K---", "W", 4, "e6"),
        ("----k--- " + "-------- " * 3 + "---P---- -------- -------- ----K---", "B", 3, "d3"),
        # no pawn where the double push would have put it: no en passant square
        ("----k--- " + "-------- " * 3 + "---P---- -------- -------- ----K---", "B", 4, "-"),
        ("-------- -------- -------- ----p--- " + "-------- " * 3 + "----K---", "B", 4, "-"),
    ],
)
def test_double_push_file_gives_the_square_behind_the_pawn(
    ranks: str, side: str, dpf: int, ep: str
) -> None:
    board = board_from_style12(rec12(ranks, side, dpf, "0 0 0 0"))
    assert board.fen(en_passant="fen").split()[3] == ep


@pytest.mark.parametrize(
    ("wild", "ranks", "castling", "xfen"),
    [
        (0, "r---k--r " + EMPTY_RANKS + "R---K--R", "1 1 1 1", "KQkq"),
        (0, "r---k--r " + EMPTY_RANKS + "R---K--R", "0 1 1 0", "Qk"),
        (0, "r---k--- " + EMPTY_RANKS + "R----K-R", "1 1 1 1", "q"),  # White's king moved
        (0, "-r--k--r " + EMPTY_RANKS + "R---K---", "1 1 1 1", "Qk"),  # rooks gone
        (CHESS960, "rk-----r " + EMPTY_RANKS + "RK-----R", "1 1 1 1", "KQkq"),
        (CHESS960, "rk-----r " + EMPTY_RANKS + "RK-----R", "1 0 0 1", "Kq"),
        (CHESS960, "-r----kr " + EMPTY_RANKS + "-R----KR", "1 1 1 1", "KQkq"),
        (CHESS960, "rrk----- " + EMPTY_RANKS + "-RK----R", "1 1 1 1", "KQq"),
        (CHESS960, "-----rkr " + EMPTY_RANKS + "-----RKR", "1 1 1 1", "KQkq"),
        (CHESS960, "------kr " + EMPTY_RANKS + "------KR", "1 1 1 1", "Kk"),
    ],
)
def test_castling_flags(wild: int, ranks: str, castling: str, xfen: str) -> None:
    rec = rec12(ranks, castling=castling)
    board = board_from_style12(rec, wild)
    assert board.chess960 == (wild == CHESS960)
    assert board.castling_xfen() == xfen
    back = style12_from_board(board, **facts12(rec))
    expected = [letter in xfen for letter in "KQkq"]
    assert [
        back.white_castle_short,
        back.white_castle_long,
        back.black_castle_short,
        back.black_castle_long,
    ] == expected


def test_chess960_short_and_long_are_the_outermost_rooks() -> None:
    # rooks a1 and b1 west of the king: "long" is the a1 rook, the X-FEN reading
    board = board_from_style12(
        rec12("----k--- " + EMPTY_RANKS + "RR--K---", castling="0 1 0 0"), CHESS960
    )
    assert board.castling_rights == chess.BB_A1
    assert board.castling_xfen() == "Q"


def test_style12_from_a_crazyhouse_board_leaves_its_history_alone() -> None:
    board = new_board(CRAZYHOUSE, "4k3/8/8/8/8/8/8/4K3[Pp] w - - 0 1")
    board.push_san("P@e4")
    style12_from_board(board, **FACTS)
    board.pop()
    assert board.fen() == "4k3/8/8/8/8/8/8/4K3[Pp] w - - 0 1"


def test_strength_counts_material() -> None:
    assert strength(chess.Board(), chess.WHITE) == strength(chess.Board(), chess.BLACK) == 39
    board = chess.Board("4k3/8/8/8/8/8/8/QRBNPK2 w - - 0 1")
    assert (strength(board, chess.WHITE), strength(board, chess.BLACK)) == (21, 0)


# -- 64-character boards, DG_JBOARD, FEN, new boards -------------------------------------

START_64 = "rnbqkbnr" + "p" * 8 + "-" * 32 + "P" * 8 + "RNBQKBNR"


def test_64_character_boards() -> None:
    assert board_to_64(chess.Board()) == START_64
    assert board_from_64(START_64, "W").fen() == chess.STARTING_FEN
    assert board_from_64(START_64, "B").turn == chess.BLACK
    assert board_from_64(START_64, "W", castling="Kq").castling_xfen() == "Kq"
    assert board_from_64(START_64, "W", castling="-").castling_xfen() == "-"
    king_moved = START_64[:60] + "-K--"
    assert board_from_64(king_moved, "W").castling_xfen() == "kq"
    shuffled = chess.Board.from_chess960_pos(0)
    again = board_from_64(board_to_64(shuffled), "W", CHESS960)
    assert again.fen() == shuffled.fen() and again.chess960
    assert isinstance(board_from_64(START_64, "W", CRAZYHOUSE), chess.variant.CrazyhouseBoard)


@pytest.mark.parametrize(
    ("board64", "side"),
    [(START_64[:63], "W"), (START_64[:63] + "x", "W"), (START_64, "w"), (START_64, "")],
)
def test_bad_64_character_boards(board64: str, side: str) -> None:
    with pytest.raises(ValueError):
        board_from_64(board64, side)


def test_jboard() -> None:
    after_e4 = START_64[:36] + "P" + START_64[37:52] + "-" + START_64[53:]
    rec = dg.decode_datagram(f"49 {after_e4} B 4 1 1 1 1 1 e4 e2e4 180 180 1 0")
    board = board_from_jboard(rec)
    assert board.fen(en_passant="fen") == played("e4").fen(en_passant="fen")
    rec = dg.decode_datagram(f"49 {START_64} W -1 0 1 1 0 7 e4 e2e4 180 180 1 0")
    assert board_from_jboard(rec).fen() == chess.STARTING_FEN.replace("KQkq - 0 1", "Qk - 0 7")
    with pytest.raises(ValueError, match="DG_JBOARD"):
        board_from_jboard(dg.decode_datagram(f"84 5 {START_64} W"))


def test_new_boards_and_fen() -> None:
    assert type(new_board()) is chess.Board and not new_board().chess960
    assert new_board(CHESS960).chess960
    assert new_board(CHESS960).fen() == chess.STARTING_FEN
    assert type(new_board(CRAZYHOUSE)) is chess.variant.CrazyhouseBoard
    assert type(new_board(BUGHOUSE)) is BughouseBoard
    house = new_board(CRAZYHOUSE, "8/8/8/8/8/8/8/K6k[Qp] w - - 0 1")
    assert isinstance(house, chess.variant.CrazyhouseBoard)
    assert house.pockets[chess.WHITE].count(chess.QUEEN) == 1
    shredder = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9"
    assert board_from_fen(shredder, CHESS960).castling_xfen() == "KQkq"
    with pytest.raises(ValueError):
        board_from_fen("not a fen")


# -- round trips over random legal games -------------------------------------------------


def bughouse_of(board: chess.Board) -> Bughouse | None:
    """The ``<b1>`` record of a crazyhouse board's pockets (FICS writes both in capitals)."""
    if not isinstance(board, chess.variant.CrazyhouseBoard):
        return None
    letters = [
        "".join(
            chess.piece_symbol(pt).upper() * board.pockets[color].count(pt) for pt in range(1, 6)
        )
        for color in (chess.WHITE, chess.BLACK)
    ]
    return Bughouse(7, *letters)


def comparable(board: chess.Board) -> dict[str, str]:
    """The FEN's fields as style 12 carries them: python-chess's potential en passant
    square (``en_passant="fen"`` on both sides), no promoted-piece marks, no three-check
    counts, and in chess960
    the castling sides rather than the rooks when X-FEN needs a rook's file (another rook
    stands outside the castling rook: style 12's flags cannot tell)."""
    fen = board.fen(en_passant="fen", promoted=False).split()
    if isinstance(board, chess.variant.ThreeCheckBoard):
        del fen[4]  # the checks still to give, which style 12 does not carry
    fields = dict(
        zip(["board", "turn", "castling", "ep", "halfmove", "fullmove"], fen, strict=True)
    )
    fields["board"], _, fields["pockets"] = fields["board"].partition("[")
    if fields["castling"].strip("KQkq-"):
        sides = [
            board.has_kingside_castling_rights(chess.WHITE),
            board.has_queenside_castling_rights(chess.WHITE),
            board.has_kingside_castling_rights(chess.BLACK),
            board.has_queenside_castling_rights(chess.BLACK),
        ]
        fields["castling"] = "".join(c for c, on in zip("KQkq", sides, strict=True) if on)
    return fields


FACTS: dict[str, Any] = {
    "game_number": 7,
    "white_name": "fred",
    "black_name": "joe",
    "relation": 0,
    "initial_time": 3,
    "increment": 0,
    "white_time": 180,
    "black_time": 170,
}


@pytest.mark.parametrize("wild", VARIANTS.values(), ids=VARIANTS.keys())
@FAST
@given(data=st.data())
def test_every_position_round_trips_through_style12_and_style10(
    wild: Variant, data: st.DataObject
) -> None:
    for board in positions(data.draw(games(wild))):
        expected = comparable(board)
        rec = style12_from_board(board, **FACTS)
        rec = parse_style12(format_style12(rec))
        assert comparable(board_from_style12(rec, wild, bughouse_of(board))) == expected
        block = format_style10(style10_from_board(board, **FACTS))
        back = board_from_style10(parse_style10(block.splitlines(keepends=True)), wild)
        assert comparable(back) == expected | {"pockets": comparable(back)["pockets"]}
        assert rec.white_strength == strength(board, chess.WHITE)
        assert rec.black_strength == strength(board, chess.BLACK)
        if board.move_stack:
            before = board.copy()
            last = before.pop()
            assert move_from_verbose(before, rec.verbose_move) == last
            assert move_from_san(before, rec.pretty_move) == last
        else:
            assert rec.verbose_move == rec.pretty_move == "none"
        sixty_four = board_from_64(board_to_64(board), rec.side_to_move, wild)
        assert sixty_four.board_fen() == board.board_fen(promoted=False)


def test_the_docstring_examples_hold() -> None:
    assert doctest.testmod(positions_module).failed == 0


_CASTLING_FIELDS = ["KQkq", "KQ", "kq", "Kq", "Qk", "K", "q", "-", "HAha", "BGbg", "AHah", "Eg"]


def _random_positions(seed: int, count: int) -> list[chess.Board]:
    """Positions of random games from the start, and from random placements with random
    castling fields (rights python-chess must clean: rooks or kings away from home), some
    in chess960 mode, each also a few moves on (a board with a stack trusts its rights)."""
    rng = random.Random(seed)
    found: list[chess.Board] = []
    while len(found) < count:
        if rng.random() < 0.5:
            board = chess.Board(chess960=rng.random() < 0.2)
        else:
            pieces = list("RRKrrkQqNnBbPPPPpppp")[: rng.randint(6, 20)]
            squares = rng.sample(range(64), len(pieces))
            board = chess.Board(None, chess960=rng.random() < 0.3)
            for square, symbol in zip(squares, pieces, strict=False):
                board.set_piece_at(square, chess.Piece.from_symbol(symbol))
            for square in (chess.E1, chess.A1, chess.H1, chess.E8, chess.A8, chess.H8):
                if rng.random() < 0.5:
                    symbol = {0: "R", 4: "K", 7: "R", 56: "r", 60: "k", 63: "r"}[square]
                    board.set_piece_at(square, chess.Piece.from_symbol(symbol))
            with contextlib.suppress(ValueError):
                board.set_castling_fen(rng.choice(_CASTLING_FIELDS))
        for _ in range(rng.randint(0, 40)):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
            found.append(board.copy())
        found.append(board)
    return found


def test_castling_flags_and_xfen_are_python_chess_s() -> None:
    """Style 12's flags and fen_of's castling field read from one clean set of rights
    are python-chess's ``has_*_castling_rights`` and ``castling_xfen`` (issue 27)."""
    for board in _random_positions(27, 20000):
        assert positions_module._castling_flags(board) == (
            board.has_kingside_castling_rights(chess.WHITE),
            board.has_queenside_castling_rights(chess.WHITE),
            board.has_kingside_castling_rights(chess.BLACK),
            board.has_queenside_castling_rights(chess.BLACK),
        )
        assert positions_module._castling_xfen(board) == board.castling_xfen()
        shown = positions_module.placement(board)
        assert positions_module.fen_of(board, shown.ranks) == board.fen(en_passant="fen")


def _fen_squares(board: chess.Board) -> str:
    """The 64 squares, a8 ... h1, as python-chess's ``board_fen`` writes them."""
    placement = board.board_fen(promoted=False)
    return "".join("-" * int(c) if c.isdigit() else c for c in placement.replace("/", ""))


def test_ranks_are_the_board_fen_s_on_random_positions() -> None:
    """The packed-bitboard rank builder (with its table of ranks seen, filled and emptied
    as it goes) writes every position as ``board_fen`` does (issue 27)."""
    positions_module._RANK_TEXTS.clear()
    boards = _random_positions(12, 20000)
    rng = random.Random(12)
    for _ in range(300):  # crazyhouse: promoted pieces, dropped pieces
        board = chess.variant.CrazyhouseBoard()
        for _ in range(rng.randint(1, 120)):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
        boards.append(board)
    for board in boards:
        assert board_to_64(board) == _fen_squares(board)
    assert 0 < len(positions_module._RANK_TEXTS) <= positions_module._RANKS_KEPT
