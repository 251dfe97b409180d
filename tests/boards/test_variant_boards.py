"""The variant boards: wild castling, no castling, losers, FICS suicide against ICC
giveaway, ICC atomic against FICS atomic, bughouse."""

from __future__ import annotations

import doctest
import random

import chess
import chess.variant
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from icswire.boards import atomic, bughouse, losers, setups, suicide, wilds
from icswire.boards.atomic import IccAtomicBoard
from icswire.boards.bughouse import BughouseBoard, BughouseGame, passed_piece
from icswire.boards.losers import LosersBoard
from icswire.boards.suicide import FicsSuicideBoard
from icswire.boards.wilds import NoCastleBoard, WildCastleBoard

SEEDS = st.integers(0, 2**32 - 1)


def random_game(board: chess.Board, rng: random.Random, plies: int) -> list[chess.Board]:
    """The positions of a random legal game from ``board`` (copies, start included)."""
    seen = [board.copy()]
    for _ in range(plies):
        legal = list(board.legal_moves)
        if not legal:
            break
        board.push(rng.choice(legal))
        seen.append(board.copy())
    return seen


def uci(moves: object) -> set[str]:
    return {move.uci() for move in moves}  # type: ignore[attr-defined]


# -- wild castling (wild 0 and 1) --------------------------------------------------------

D_KINGS = "r2k3r/8/8/8/8/8/8/R2K3R w KQkq - 0 1"


def test_a_d_file_king_castles_the_mirror_image_of_chess() -> None:
    board = WildCastleBoard(D_KINGS)
    short, long = board.parse_san("O-O"), board.parse_san("O-O-O")
    assert (short.uci(), long.uci()) == ("d1a1", "d1h1")
    assert board.is_kingside_castling(short) and board.is_queenside_castling(long)
    board.push(short)
    assert board.board_fen() == "r2k3r/8/8/8/8/8/8/1KR4R"
    board.pop()
    board.push(long)
    assert board.board_fen() == "r2k3r/8/8/8/8/8/8/R3RK2"
    assert board.san(board.parse_san("O-O")) == "O-O"
    board.push_san("O-O")
    assert board.board_fen() == "1kr4r/8/8/8/8/8/8/R3RK2"
    assert not board.castling_rights


def test_an_e_file_king_castles_as_in_chess() -> None:
    board = WildCastleBoard("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
    board.push_san("O-O")
    assert board.board_fen() == "r3k2r/8/8/8/8/8/8/R4RK1"
    board.push_san("O-O-O")
    assert board.board_fen() == "2kr3r/8/8/8/8/8/8/R4RK1"


@pytest.mark.parametrize(
    ("fen", "castlings"),
    [
        ("r2k3r/8/8/8/8/8/8/R2K3R w KQkq - 0 1", {"O-O", "O-O-O"}),
        ("r2k3r/8/8/8/8/5b2/8/R2K3R w KQkq - 0 1", set()),  # in check from f3
        ("r2k3r/8/8/8/8/8/6b1/R2K3R w KQkq - 0 1", {"O-O"}),  # f1, on the long way, is hit
        ("r2k3r/8/8/8/8/8/8/RN1K3R w KQkq - 0 1", {"O-O-O"}),  # b1 is taken
        ("r2k3r/8/8/8/8/7n/8/R2K3R w KQkq - 0 1", {"O-O", "O-O-O"}),  # only the rook crosses g1
    ],
)
def test_wild_castling_is_refused_as_chess_refuses_it(fen: str, castlings: set[str]) -> None:
    board = WildCastleBoard(fen)
    assert {board.san(move) for move in board.legal_moves if board.is_castling(move)} == castlings


def test_style12_flags_are_short_and_long_not_king_and_queen_side() -> None:
    board = WildCastleBoard(D_KINGS)
    board.set_castling_flags(True, False, False, True)
    assert board.castling_rights == chess.BB_A1 | chess.BB_H8
    assert board.has_kingside_castling_rights(chess.WHITE)
    assert not board.has_queenside_castling_rights(chess.WHITE)
    assert board.has_queenside_castling_rights(chess.BLACK)
    assert [board.san(m) for m in board.generate_castling_moves()] == ["O-O"]


def test_castling_rights_need_corner_rooks_and_a_d_or_e_king() -> None:
    assert WildCastleBoard("r1k4r/8/8/8/8/8/8/1R1K3R w KQkq - 0 1").castling_xfen() == "K"
    assert WildCastleBoard("8/8/8/8/8/8/8/R4K1R w KQ - 0 1").castling_xfen() == "-"


def _flip(move: chess.Move) -> chess.Move:
    return chess.Move(move.from_square ^ 7, move.to_square ^ 7, move.promotion)


@settings(max_examples=30, deadline=None)
@given(SEEDS)
def test_a_d_file_king_has_the_mirrored_legal_moves_of_chess(seed: int) -> None:
    """With the side to move's king on d1/d8, the legal moves are those of the board mirrored
    left to right under chess960's (there: chess's) rules, mirrored back; and so are the
    positions they lead to."""
    rng = random.Random(seed)
    start = WildCastleBoard(setups.WILD0 if seed % 2 else setups.wild1(rng))
    for board in random_game(start, rng, 30):
        mirrored = chess.Board(board.transform(chess.flip_horizontal).fen(), chess960=True)
        king = board.king(board.turn)
        if king is None or not board._on_d_file(king):
            continue
        assert set(board.legal_moves) == {_flip(m) for m in mirrored.legal_moves}
        for move in mirrored.legal_moves:
            after, expected = board.copy(), mirrored.copy()
            after.push(_flip(move))
            expected.push(move)
            assert after.board_fen() == expected.transform(chess.flip_horizontal).board_fen()


def test_no_castle_board_never_castles() -> None:
    board = NoCastleBoard("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
    assert board.castling_xfen() == "-"
    assert not any(board.is_castling(m) for m in board.legal_moves)
    assert NoCastleBoard().fen() == NoCastleBoard.starting_fen


# -- losers -------------------------------------------------------------------------------


@settings(max_examples=30, deadline=None)
@given(SEEDS)
def test_losers_moves_are_chess_moves_captures_first(seed: int) -> None:
    rng = random.Random(seed)
    for board in random_game(LosersBoard(), rng, 60):
        if board.is_variant_end():
            assert not any(board.legal_moves)
            continue
        chess_moves = list(chess.Board(board.fen()).legal_moves)
        captures = [m for m in chess_moves if board.is_capture(m)]
        assert set(board.legal_moves) == set(captures or chess_moves)
        for move in chess_moves:
            assert board.is_legal(move) == (move in (captures or chess_moves))


def test_a_capture_that_leaves_the_king_in_check_forces_nothing() -> None:
    # the e2 knight is pinned: Nxd4 is no capture at all, so Kd1 and the rest are free
    board = LosersBoard("4r1k1/8/8/8/3p4/8/4N3/4K3 w - - 0 1")
    assert not board.must_capture()
    assert chess.Move.from_uci("e1d1") in board.legal_moves


def test_in_check_a_capture_that_answers_it_is_forced() -> None:
    board = LosersBoard("4k3/7p/8/8/8/8/3q3P/4K3 w - - 0 1")  # Kf1 would be chess
    assert [board.san(m) for m in board.legal_moves] == ["Kxd2"]


@pytest.mark.parametrize(
    ("fen", "winner"),
    [
        ("4k3/8/8/8/8/8/8/4K2R b - - 0 1", chess.BLACK),  # a lone king to move has won
        ("4k3/8/8/8/8/8/8/4K2R w - - 0 1", chess.BLACK),  # ... and with the other to move
        ("R3k3/8/4K3/8/8/8/7p/8 b - - 0 1", chess.BLACK),  # checkmated: wins
        ("k7/2Q5/1K6/8/8/7p/7P/8 b - - 0 1", chess.BLACK),  # stalemated: wins
    ],
)
def test_losers_ends(fen: str, winner: chess.Color) -> None:
    board = LosersBoard(fen)
    outcome = board.outcome()
    assert outcome is not None and outcome.winner == winner
    assert board.outcome() == chess.Outcome(chess.Termination.VARIANT_WIN, board.turn) or (
        board.is_variant_loss()
    )


def test_losers_players_castle() -> None:
    assert LosersBoard("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").parse_san("O-O").uci() == "e1g1"


# -- FICS suicide and ICC giveaway --------------------------------------------------------


def test_fics_suicide_never_castles_but_giveaway_does() -> None:
    fen = "r3k2r/p6p/8/8/8/8/P6P/R3K2R w KQkq - 0 1"
    assert not any(FicsSuicideBoard(fen).is_castling(m) for m in FicsSuicideBoard(fen).legal_moves)
    giveaway = chess.variant.GiveawayBoard(fen)
    assert any(giveaway.is_castling(m) for m in giveaway.legal_moves)
    assert FicsSuicideBoard().fen() == "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1"


@pytest.mark.parametrize(
    ("fen", "fics", "icc"),
    [
        # White cannot move (a2 is blocked) and has fewer pieces: White wins on both
        ("8/8/8/8/1p6/p7/P7/8 w - - 0 1", chess.WHITE, chess.WHITE),
        # as many pieces: FICS draws, ICC's stalemated player wins
        ("8/8/8/8/8/p2p4/P2P4/8 w - - 0 1", None, chess.WHITE),
        # more pieces: FICS gives the game to Black
        ("8/8/8/8/4p3/4P3/4P3/8 w - - 0 1", chess.BLACK, chess.WHITE),
        # nothing left: won
        ("7k/8/8/8/8/8/8/8 w - - 0 1", chess.WHITE, chess.WHITE),
    ],
)
def test_blocked_and_bare_suicide_ends(
    fen: str, fics: chess.Color | None, icc: chess.Color | None
) -> None:
    fics_outcome = FicsSuicideBoard(fen).outcome()
    icc_outcome = chess.variant.GiveawayBoard(fen).outcome()
    assert fics_outcome is not None and icc_outcome is not None
    assert (fics_outcome.winner, icc_outcome.winner) == (fics, icc)


def test_suicide_captures_are_forced_kings_are_pieces_and_pawns_promote_to_kings() -> None:
    board = FicsSuicideBoard("4k3/3P4/8/8/8/8/8/4K3 b - - 0 1")
    assert uci(board.legal_moves) == {"e8d7"}  # the king must take
    promote = FicsSuicideBoard("8/3P4/8/8/8/8/8/k7 w - - 0 1")
    assert "d7d8k" in uci(promote.legal_moves)


# -- atomic ---------------------------------------------------------------------------------


def test_icc_atomic_has_no_check_fics_atomic_has() -> None:
    fen = "4k3/8/8/8/8/8/8/3RK3 b - - 0 1"
    into_check = chess.Move.from_uci("e8d8")
    assert IccAtomicBoard(fen).is_legal(into_check)
    assert not chess.variant.AtomicBoard(fen).is_legal(into_check)
    mate = "3Rk3/3R4/8/8/8/8/8/7K b - - 0 1"  # a king never captures: mate on FICS
    assert chess.variant.AtomicBoard(mate).is_checkmate()
    icc = IccAtomicBoard(mate)
    assert not icc.is_checkmate() and icc.outcome() is None


def test_icc_atomic_castles_through_attacked_squares() -> None:
    fen = "4k3/8/8/8/8/8/5r2/4K2R w K - 0 1"  # the f2 rook hits f1
    castle = chess.Move.from_uci("e1g1")
    assert IccAtomicBoard(fen).is_legal(castle)
    assert not chess.variant.AtomicBoard(fen).is_legal(castle)


def test_icc_atomic_ends_by_explosion_and_forbids_exploding_ones_own_king() -> None:
    board = IccAtomicBoard("4k3/4p3/8/8/8/8/8/4RK2 w - - 0 1")
    board.push_san("Rxe7")
    assert board.is_variant_loss() and board.outcome() == chess.Outcome(
        chess.Termination.VARIANT_LOSS, chess.WHITE
    )
    own = IccAtomicBoard("8/8/8/8/8/2k5/3pK3/8 w - - 0 1")
    assert not own.is_legal(chess.Move.from_uci("e2d2"))  # a king never captures


# -- bughouse -----------------------------------------------------------------------------


def test_bughouse_captures_leave_the_capturer_and_reach_the_partner() -> None:
    game = BughouseGame()
    for san in ("e4", "d5"):
        game.push(game.a, game.a.parse_san(san))
    passed = game.push(game.a, game.a.parse_san("exd5"))
    assert passed == chess.Piece.from_symbol("p")
    assert len(game.a.pockets[chess.WHITE]) == 0
    assert game.b.pockets[chess.BLACK].count(chess.PAWN) == 1
    assert game.b.pockets[chess.WHITE].count(chess.PAWN) == 0
    with pytest.raises(ValueError, match="illegal"):
        game.push(game.b, chess.Move.from_uci("e2e5"))
    with pytest.raises(ValueError, match="not a board"):
        game.push(BughouseBoard(), chess.Move.from_uci("e2e4"))


def test_passed_pieces_promoted_and_en_passant_are_pawns() -> None:
    promoted = BughouseBoard("4k3/r7/8/8/8/8/8/Q~3K3[] b - - 0 1")
    assert passed_piece(promoted, chess.Move.from_uci("a7a1")) == chess.Piece.from_symbol("P")
    ep = BughouseBoard("4k3/8/8/3pP3/8/8/8/4K3[] w - d6 0 2")
    assert passed_piece(ep, chess.Move.from_uci("e5d6")) == chess.Piece.from_symbol("p")
    assert passed_piece(ep, chess.Move.from_uci("e1e2")) is None


def test_only_a_mate_no_drop_could_block_ends_bughouse() -> None:
    distant = BughouseBoard("k7/8/8/8/8/8/1r6/r3K3[] w - - 0 1")  # b1 c1 d1 could be blocked
    assert not any(distant.legal_moves) and distant.is_check()
    assert not distant.is_checkmate() and distant.outcome() is None
    assert chess.variant.CrazyhouseBoard(distant.fen()).is_checkmate()
    contact = BughouseBoard("k7/8/8/8/8/2n5/4q3/4K3[] w - - 0 1")
    assert contact.is_checkmate()
    assert contact.outcome() == chess.Outcome(chess.Termination.CHECKMATE, chess.BLACK)


@pytest.mark.parametrize("module", [atomic, bughouse, losers, setups, suicide, wilds])
def test_the_docstring_examples_hold(module: object) -> None:
    assert doctest.testmod(module).failed == 0  # type: ignore[arg-type]
