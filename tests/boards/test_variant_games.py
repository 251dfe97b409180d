"""Games of every variant rebuilt from style 12 boards and from datagrams, and their PGN."""

from __future__ import annotations

import io

import chess
import chess.pgn
import chess.variant
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from icswire.boards.game import Game
from icswire.boards.pgn import pgn_text
from icswire.boards.positions import style12_from_board
from icswire.boards.variants import VARIANTS, Variant
from icswire.protocol import datagrams as dg
from icswire.protocol.style12 import format_style12, parse_style12

from .test_games import track
from .test_positions import FACTS, bughouse_of
from .transcript import PlayedGame, as_datagrams, pass_in, play, session

SEEDS = st.integers(0, 2**32 - 1)
FEW = settings(max_examples=6, deadline=None)
NUMBERED = [v for v in VARIANTS if v.wild is not None]


def from_style12(played: PlayedGame) -> Game:
    """The game as an observer without datagrams sees it: a style 12 board after each
    move, ``<b1>`` holdings with each board of a pocket game and when a piece is passed."""
    boards = played.replay()
    records = [parse_style12(format_style12(style12_from_board(b, **FACTS))) for b in boards]
    game = Game.from_style12(records[0], played.variant)
    game.set_holdings_from(bughouse_of(boards[0]))
    for ply, (board, record) in enumerate(zip(boards[1:], records[1:], strict=True)):
        passed = played.passes.get(ply)
        if passed is not None:  # <b1> game 7 white [..] black [..] <- BN
            before = boards[ply].copy()
            pass_in(before, passed)
            game.set_holdings_from(bughouse_of(before))
        game.apply_style12(record, bughouse_of(board))
    return game


def assert_is(game: Game, played: PlayedGame) -> None:
    assert not game.gaps and [m.move for m in game.moves] == played.moves
    assert game.start.fen() == played.start().fen()
    assert game.board.fen() == played.replay()[-1].fen()


@pytest.mark.parametrize("variant", VARIANTS, ids=[v.name for v in VARIANTS])
@FEW
@given(SEEDS)
def test_a_variant_game_told_by_style12_boards_is_the_played_game(
    variant: Variant, seed: int
) -> None:
    played = play(7, seed, 40, variant)
    assert_is(from_style12(played), played)


@pytest.mark.parametrize("variant", NUMBERED, ids=[v.name for v in NUMBERED])
@FEW
@given(SEEDS)
def test_a_variant_game_told_by_datagrams_is_the_played_game(variant: Variant, seed: int) -> None:
    played = play(5, seed, 40, variant)
    (game,) = track(session(as_datagrams(played)))
    assert game.variant is variant and game.replayed and game.complete
    assert_is(game, played)


@pytest.mark.parametrize("variant", VARIANTS, ids=[v.name for v in VARIANTS])
@FEW
@given(SEEDS)
def test_variant_pgn_has_its_tags_and_reads_back_where_python_chess_plays_it(
    variant: Variant, seed: int
) -> None:
    played = play(7, seed, 40, variant)
    game = from_style12(played)
    game.end_from_text("fred resigns", played.result)
    text = pgn_text(game)
    headers = chess.pgn.read_headers(io.StringIO(text))
    assert headers is not None
    assert headers.get("Variant") == variant.pgn_variant
    start = played.start()
    if variant.random_setup or variant.start_fen:
        # a shuffle that falls on chess's own setup needs no FEN
        assert variant.name == "fr" or headers.get("FEN", chess.STARTING_FEN) == start.fen()
    assert all(len(line) < 80 for line in text.split("\n\n", 1)[1].splitlines())
    if not variant.pgn_replayable:
        movetext = text.split("\n\n", 1)[1].split()
        assert movetext[-1] == played.result
        assert [w for w in movetext[:-1] if not w.endswith(".")] == [m.san for m in game.moves]
        return
    parsed = chess.pgn.read_game(io.StringIO(text))
    assert parsed is not None and not parsed.errors, parsed and parsed.errors
    assert list(parsed.mainline_moves()) == played.moves
    assert parsed.board().fen() == start.fen()
    assert parsed.end().board().fen() == played.replay()[-1].fen()
    assert isinstance(start, type(parsed.board()))


def test_a_refused_wild_keeps_the_moves_as_sent_and_follows_set_board() -> None:
    started = dg.MyGameStarted(
        5, "fred", "joe", 28, "Wild", True, 3, 2, 3, 2, True, "", 1500, 1600, 77, "", "",
        True, True, False, "", False,
    )  # fmt: skip
    game = Game.from_started(started)
    assert game.variant is None and not game.replayed and game.wild == 28
    game.apply(dg.SendMoves(5, "e3", "e2e3"))
    board64 = "rnbqkbnrpppppppp" + "-" * 28 + "P" + "-" * 3 + "PPPP-PPPRNBQKBNR"
    game.apply(dg.SetBoard(5, board64, "B"))
    assert game.board.piece_at(chess.E3) == chess.Piece.from_symbol("P")
    text = pgn_text(game)
    assert '[Variant "wild/28"]' in text and "1. e3 *" in text


def test_atomic_is_replayed_and_a_set_board_that_disagrees_is_a_gap() -> None:
    started = dg.MyGameStarted(
        5, "fred", "joe", 27, "Wild", True, 3, 2, 3, 2, True, "", 1500, 1600, 77, "", "",
        False, True, False, "", False,
    )  # fmt: skip
    game = Game.from_started(started)
    for san in ("e4", "d5", "exd5"):
        game.push(san, None)
    assert game.board.piece_at(chess.D5) is None and game.board.piece_at(chess.E4) is None
    game.apply(dg.SetBoard(5, "-" * 64, "B"))
    assert game.gaps and game.gaps[0].after_ply == 3


def test_a_promoted_crazyhouse_piece_matches_boards_that_do_not_mark_it() -> None:
    started = dg.MyGameStarted(
        5, "fred", "joe", 23, "Crazyhouse", True, 3, 2, 3, 2, True, "", 1500, 1600, 77, "",
        "", False, False, True, "", False,
    )  # fmt: skip
    game = Game.from_started(started)
    game.apply(dg.PositionBegin(5, "r3k2r/6P1/8/8/8/8/8/4K3[] w - - 0 1", 0))
    game.push("gxh8=Q+", None)
    assert game.board.board_fen() == "r3k2Q~/8/8/8/8/8/8/4K3"
    game.apply(dg.SetBoard(5, "r---k--Q" + "-" * 48 + "----K---", "B"))
    record = style12_from_board(game.board, **FACTS)
    game.apply_style12(record, bughouse_of(game.board))
    assert not game.gaps and len(game.moves) == 1
