"""The bot's engine: real Stockfish (UCI) and Sjeng (xboard) on chess, crazyhouse and FICS
suicide, time limits from the clocks, a Polyglot book written here, Syzygy tables.

Each test that needs an engine skips with the reason when the program is missing.
"""

from __future__ import annotations

import logging
import os
import shutil
import signal
import struct
import time
from collections.abc import AsyncIterator
from pathlib import Path

import chess
import chess.engine
import chess.polyglot
import chess.syzygy
import chess.variant
import pytest

from icswire.boards.atomic import IccAtomicBoard
from icswire.boards.bughouse import BughouseBoard
from icswire.boards.suicide import FicsSuicideBoard
from icswire.boards.variants import new_board
from icswire.boards.wilds import NoCastleBoard, WildCastleBoard
from icswire.bot.config import EngineConfig
from icswire.bot.engine import (
    FLOOR,
    LAG,
    MATE_SCORE,
    UNTIMED_MOVETIME,
    Clocks,
    EngineError,
    EnginePlayer,
    search_limit,
    time_cap,
)
from icswire.bot.engineboards import engine_boards, rebuild, winning_move
from icswire.bot.tables import TABLEBASE_WIN

SYZYGY = Path(__file__).resolve().parents[1] / "data" / "syzygy"
KQVK = "8/8/8/4k3/8/8/8/KQ6 w - - 0 1"
KRVK = "8/8/8/4k3/8/8/8/KR6 w - - 0 1"
CLOCKS = Clocks(60_000, 60_000)
SHORT = Clocks(3_000, 3_000)  # Sjeng manages its clock itself: 3 s keeps it quick


def program(name: str) -> str | None:
    """The engine ``name`` on PATH or in /usr/games, else None."""
    found = shutil.which(name)
    if found is not None:
        return found
    games = Path("/usr/games") / name
    return str(games) if os.access(games, os.X_OK) else None


STOCKFISH = program("stockfish")
SJENG = program("sjeng")
needs_stockfish = pytest.mark.skipif(STOCKFISH is None, reason="stockfish is not installed")
needs_sjeng = pytest.mark.skipif(SJENG is None, reason="sjeng is not installed")


def stockfish(**settings: object) -> EngineConfig:
    assert STOCKFISH is not None
    return EngineConfig((STOCKFISH,), "uci", **settings)  # type: ignore[arg-type]


def sjeng(tmp_path: Path, **settings: object) -> EngineConfig:
    assert SJENG is not None
    return EngineConfig((SJENG,), "xboard", cwd=str(tmp_path), **settings)  # type: ignore[arg-type]


@pytest.fixture
async def fish() -> AsyncIterator[EnginePlayer]:
    player = await EnginePlayer.open(stockfish(nodes=2000))
    yield player
    await player.close()


@pytest.fixture
async def sj(tmp_path: Path) -> AsyncIterator[EnginePlayer]:
    player = await EnginePlayer.open(sjeng(tmp_path, depth=4))
    yield player
    await player.close()


# -- limits (no engine) -------------------------------------------------------------------


def test_the_cap_is_a_tenth_plus_increment_within_half_of_what_lag_leaves() -> None:
    assert time_cap(Clocks(60_000, 1_000), chess.WHITE) == pytest.approx(6.0)
    assert time_cap(Clocks(60_000, 1_000), chess.BLACK) == pytest.approx(0.1)
    assert time_cap(Clocks(60_000, 1_000, 2_000), chess.BLACK) == pytest.approx((1 - LAG) / 2)
    assert time_cap(Clocks(100, 100), chess.WHITE) == FLOOR
    assert time_cap(Clocks(-500, 100), chess.WHITE) == FLOOR
    assert time_cap(Clocks(60_000, 60_000), chess.WHITE, movetime=0.5) == 0.5
    assert time_cap(Clocks(0, 0), chess.WHITE) == UNTIMED_MOVETIME
    assert time_cap(Clocks(0, 0), chess.WHITE, movetime=2.0) == 2.0


def test_uci_gets_the_clocks_less_lag_and_the_cap_as_movetime() -> None:
    limit, cap = search_limit(
        EngineConfig(("x",), nodes=500, depth=9), Clocks(30_000, 20_000, 3_000), chess.BLACK
    )
    assert cap == pytest.approx(5.0)
    assert limit.time == pytest.approx(5.0) and (limit.nodes, limit.depth) == (500, 9)
    assert limit.white_clock == 30.0 and limit.black_clock == pytest.approx(20 - LAG)
    assert limit.white_inc == limit.black_inc == 3.0


def test_xboard_gets_st_only_for_movetime_in_whole_seconds() -> None:
    config = EngineConfig(("x",), "xboard", depth=5)
    limit, cap = search_limit(config, Clocks(30_000, 20_000), chess.WHITE)
    assert limit.time is None and cap == pytest.approx(3.0) and limit.depth == 5
    assert limit.white_clock == pytest.approx(30 - LAG) and limit.black_clock == 20.0
    timed = EngineConfig(("x",), "xboard", movetime=2.5)
    assert search_limit(timed, Clocks(60_000, 60_000), chess.WHITE)[0].time == 2.0
    assert search_limit(timed, Clocks(5_000, 60_000), chess.WHITE)[0].time is None  # cap 0.5
    untimed, _ = search_limit(EngineConfig(("x",), "xboard"), Clocks(0, 0), chess.WHITE)
    assert untimed.time == UNTIMED_MOVETIME and untimed.white_clock is None


# -- boards as engines know them (no engine) ----------------------------------------------


def test_icswire_boards_become_boards_engines_know() -> None:
    plain = NoCastleBoard("r3k2r/8/8/8/8/8/8/R3K2R w - - 0 1")
    plain.push_uci("a1a2")
    (as_chess,) = engine_boards(plain)
    assert type(as_chess) is chess.Board and as_chess.move_stack == plain.move_stack
    assert as_chess.fen() == plain.fen()
    atomic = IccAtomicBoard()
    atomic.push_uci("e2e4")
    (as_atomic,) = engine_boards(atomic)
    assert type(as_atomic) is chess.variant.AtomicBoard and len(as_atomic.move_stack) == 1
    assert engine_boards(BughouseBoard()) == []
    suicide = FicsSuicideBoard()
    assert engine_boards(suicide) == [suicide]


def test_wild_castling_is_chess_only_once_no_d_file_king_may_castle() -> None:
    wild0 = new_board("wild/0")  # kings on the d file with their castling rights
    assert engine_boards(wild0) == [wild0]
    chesslike = WildCastleBoard("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
    boards = engine_boards(chesslike)
    assert len(boards) == 2 and type(boards[1]) is chess.Board
    assert set(boards[1].legal_moves) == set(chess.Board().legal_moves)


def test_a_history_that_does_not_replay_gives_the_position_alone() -> None:
    board = WildCastleBoard("rnbk1bnr/pppppppp/8/8/8/8/PPPPPPPP/RN1K1BNR w KQkq - 0 1")
    for uci in ("b1c3", "b8c6", "d1a1"):  # wild castling: king to b1, rook to c1
        board.push_uci(uci)
    copy = rebuild(board, chess.Board, chess960=False)
    assert copy.move_stack == [] and copy.board_fen() == board.board_fen()


def test_a_move_that_wins_at_once_is_found() -> None:
    board = IccAtomicBoard("4k3/4q3/8/8/8/8/4R3/4K3 w - - 0 1")
    move = winning_move(board)
    assert move == chess.Move.from_uci("e2e7")
    assert winning_move(chess.Board()) is None


# -- Stockfish ---------------------------------------------------------------------------


@needs_stockfish
async def test_stockfish_plays_chess_with_a_score_depth_and_line(fish: EnginePlayer) -> None:
    assert fish.name.startswith("Stockfish")
    board = chess.Board()
    board.push_uci("e2e4")
    choice = await fish.choose(board, CLOCKS)
    assert choice.source == "engine" and choice.move in board.legal_moves
    assert isinstance(choice.score, int) and abs(choice.score) < 300
    assert choice.depth is not None and choice.depth >= 1
    assert choice.pv and choice.pv[0] == choice.move


@needs_stockfish
async def test_a_mate_scores_the_mate_score_less_its_moves(fish: EnginePlayer) -> None:
    board = chess.Board("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1")
    choice = await fish.choose(board, CLOCKS)
    assert choice.move == chess.Move.from_uci("a1a8") and choice.score == MATE_SCORE - 1
    black = chess.Board("7k/8/6K1/8/8/8/8/Q7 b - - 0 1")  # Kg8 only, then Qa8 mates
    choice = await fish.choose(black, CLOCKS)
    assert choice.score == -(MATE_SCORE - 1)


@needs_stockfish
async def test_the_skill_level_and_options_are_set() -> None:
    player = await EnginePlayer.open(stockfish(skill=3, options={"Hash": 8}, nodes=500))
    try:
        config = player.protocol.config  # type: ignore[attr-defined]
        assert config["Skill Level"] == 3 and config["Hash"] == 8
        choice = await player.choose(chess.Board(), CLOCKS)
        assert choice.move in chess.Board().legal_moves
    finally:
        await player.close()


@needs_stockfish
async def test_one_second_on_the_clock_is_a_quick_move() -> None:
    player = await EnginePlayer.open(stockfish())  # no node or depth limit
    try:
        board = chess.Board("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")
        started = time.monotonic()
        choice = await player.choose(board, Clocks(1_000, 60_000))
        assert time.monotonic() - started < 1.0 and choice.move in board.legal_moves
    finally:
        await player.close()


@needs_stockfish
async def test_a_pondering_engine_moves_again_and_closes(caplog: pytest.LogCaptureFixture) -> None:
    player = await EnginePlayer.open(stockfish(nodes=2000, ponder=True))
    try:
        board = chess.Board()
        with caplog.at_level(logging.DEBUG, logger="chess.engine"):
            for _ in range(3):
                choice = await player.choose(board, CLOCKS)
                board.push(choice.move)
                reply = next(iter(board.legal_moves))
                board.push(choice.pv[1] if len(choice.pv) > 1 else reply)
        assert any("go ponder" in record.getMessage() for record in caplog.records)
    finally:
        await player.close()


@needs_stockfish
async def test_movetime_caps_a_long_clock() -> None:
    player = await EnginePlayer.open(stockfish(movetime=0.3))
    try:
        started = time.monotonic()
        await player.choose(chess.Board(), Clocks(3_600_000, 3_600_000))
        assert time.monotonic() - started < 1.5
    finally:
        await player.close()


@needs_stockfish
async def test_what_stockfish_plays(fish: EnginePlayer) -> None:
    assert fish.plays(chess.Board()) and fish.plays(new_board("fr"))
    assert fish.plays(new_board("wild/2")) and fish.plays(new_board("wild/5"))
    assert not fish.plays(chess.variant.CrazyhouseBoard())
    assert not fish.plays(FicsSuicideBoard()) and not fish.plays(IccAtomicBoard())
    assert not fish.plays(BughouseBoard()) and not fish.plays(new_board("wild/0"))
    assert fish.plays_variant("chess") and fish.plays_variant("fr")
    assert not fish.plays_variant("wild/1") and not fish.plays_variant("crazyhouse")
    assert fish.variants == frozenset({"chess"})


@needs_stockfish
async def test_stockfish_plays_wild_setups_and_refuses_atomic(fish: EnginePlayer) -> None:
    board = new_board("wild/2", fen="nbrqkrbn/pppppppp/8/8/8/8/PPPPPPPP/NBRQKRBN w - - 0 1")
    board.push_uci("e2e4")
    choice = await fish.choose(board, CLOCKS)
    assert choice.move in board.legal_moves
    fr = new_board("fr", fen="bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w GEge - 0 1")
    assert (await fish.choose(fr, CLOCKS)).move in fr.legal_moves
    with pytest.raises(EngineError, match="cannot play this position of atomic"):
        await fish.choose(IccAtomicBoard(), CLOCKS)


@needs_stockfish
async def test_a_new_game_is_told_to_the_engine(
    fish: EnginePlayer, caplog: pytest.LogCaptureFixture
) -> None:
    board = chess.Board()
    with caplog.at_level(logging.DEBUG, logger="chess.engine"):
        await fish.choose(board, CLOCKS)
        board.push_uci("e2e4")
        board.push_uci("e7e5")
        await fish.choose(board, CLOCKS)
        await fish.new_game()
        await fish.choose(chess.Board(), CLOCKS)
        await fish.choose(chess.Board(), CLOCKS, game=17)
    sent = [record.getMessage() for record in caplog.records]
    assert sum(message.endswith("<< ucinewgame") for message in sent) == 3


@needs_stockfish
async def test_evaluate_is_from_the_side_to_move(fish: EnginePlayer) -> None:
    up_a_queen = chess.Board("4k3/8/8/8/8/8/8/3QK3 b - - 0 1")
    score = await fish.evaluate(up_a_queen)
    assert score is not None and score < -500


@needs_stockfish
async def test_a_crashed_engine_is_an_engine_error() -> None:
    player = await EnginePlayer.open(stockfish(nodes=1000))
    pid = player.transport.get_pid()
    os.kill(pid, signal.SIGKILL)
    with pytest.raises(EngineError, match=r"Stockfish.*(quit|failed)"):
        await player.choose(chess.Board(), CLOCKS)
    await player.close()


async def test_an_engine_that_does_not_start_is_an_engine_error(tmp_path: Path) -> None:
    with pytest.raises(EngineError, match="cannot start /nonexistent/engine"):
        await EnginePlayer.open(EngineConfig(("/nonexistent/engine",)))
    true = shutil.which("true")
    if true is None:
        pytest.skip("no 'true' program to stand for a broken engine")
    with pytest.raises(EngineError, match="is not a working uci engine"):
        await EnginePlayer.open(EngineConfig((true,)))


@needs_stockfish
async def test_settings_the_engine_lacks_are_refused(tmp_path: Path) -> None:
    with pytest.raises(EngineError, match="Hashh"):
        await EnginePlayer.open(stockfish(options={"Hashh": 8}))
    with pytest.raises(EngineError, match=r"none\.bin"):
        await EnginePlayer.open(stockfish(book=str(tmp_path / "none.bin")))
    with pytest.raises(EngineError, match=r"cannot open the book .*: no such file"):
        await EnginePlayer.open(stockfish(book=str(tmp_path)))
    with pytest.raises(EngineError, match=r"cannot open the tablebases .*: no directory"):
        await EnginePlayer.open(stockfish(tablebases=(str(tmp_path / "none"),)))


# -- book and tablebases -------------------------------------------------------------------


def polyglot_move(move: chess.Move) -> int:
    """A move as Polyglot codes it: to file/rank, from file/rank, promotion."""
    return move.to_square | move.from_square << 6


def write_book(path: Path, entries: list[tuple[chess.Board, chess.Move, int]]) -> None:
    """A Polyglot book: big-endian key, move, weight and learn, sorted by key."""
    rows = sorted((chess.polyglot.zobrist_hash(b), polyglot_move(m), w) for b, m, w in entries)
    path.write_bytes(
        b"".join(struct.pack(">QHHI", key, move, weight, 0) for key, move, weight in rows)
    )


@needs_stockfish
async def test_the_book_is_chosen_over_the_engine_within_its_depth(tmp_path: Path) -> None:
    start = chess.Board()
    after = chess.Board()
    after.push_uci("a2a3")
    book = tmp_path / "book.bin"
    write_book(
        book,
        [(start, chess.Move.from_uci("a2a3"), 10), (after, chess.Move.from_uci("h7h6"), 1)],
    )
    player = await EnginePlayer.open(stockfish(nodes=1000, book=str(book), book_depth=1))
    try:
        choice = await player.choose(start, CLOCKS)
        assert (choice.move.uci(), choice.source, choice.score) == ("a2a3", "book", None)
        late = await player.choose(after, CLOCKS)  # ply 1: past the book's depth
        assert late.source == "engine"
        zh = chess.variant.CrazyhouseBoard()
        assert not player.plays(zh)  # the book never answers for another variant
    finally:
        await player.close()


@needs_stockfish
async def test_the_book_answers_within_its_depth_and_else_the_engine(tmp_path: Path) -> None:
    board = chess.Board()
    board.push_uci("a2a3")
    book = tmp_path / "book.bin"
    write_book(book, [(board, chess.Move.from_uci("h7h6"), 1)])
    player = await EnginePlayer.open(stockfish(nodes=1000, book=str(book)))
    try:
        choice = await player.choose(board, CLOCKS)
        assert (choice.move.uci(), choice.source) == ("h7h6", "book")
        board.push_uci("g7g6")
        assert (await player.choose(board, CLOCKS)).source == "engine"  # not in the book
    finally:
        await player.close()


def syzygy_files() -> bool:
    return all(
        (SYZYGY / f"{name}.{ext}").exists() for name in ("KQvK", "KRvK") for ext in ("rtbw", "rtbz")
    )


needs_syzygy = pytest.mark.skipif(not syzygy_files(), reason="tests/data/syzygy lacks KQvK/KRvK")


@needs_stockfish
@needs_syzygy
@pytest.mark.parametrize("fen", [KQVK, KRVK])
async def test_a_tablebase_move_keeps_the_win(fen: str) -> None:
    player = await EnginePlayer.open(stockfish(nodes=1000, tablebases=(str(SYZYGY),)))
    try:
        board = chess.Board(fen)
        choice = await player.choose(board, CLOCKS)
        assert choice.source == "tablebase"
        assert choice.score is not None and TABLEBASE_WIN - 100 < choice.score < TABLEBASE_WIN
        board.push(choice.move)
        with chess.syzygy.open_tablebase(str(SYZYGY)) as tables:
            assert tables.probe_wdl(board) == -2
            best = min(
                abs(tables.probe_dtz(_after(chess.Board(fen), move)))
                for move in chess.Board(fen).legal_moves
                if tables.probe_wdl(_after(chess.Board(fen), move)) == -2
            )
            assert abs(tables.probe_dtz(board)) == best  # the fastest way to progress
        losing = chess.Board(fen.replace(" w ", " b "))
        defence = await player.choose(losing, CLOCKS)
        assert defence.source == "tablebase" and defence.score is not None
        assert -TABLEBASE_WIN < defence.score < -TABLEBASE_WIN + 100
        mate = await player.choose(chess.Board("7k/8/6K1/8/8/8/8/1Q6 w - - 0 1"), CLOCKS)
        mated = chess.Board("7k/8/6K1/8/8/8/8/1Q6 w - - 0 1")
        mated.push(mate.move)
        assert mated.is_checkmate() and mate.source == "tablebase"
        many = await player.choose(chess.Board(), CLOCKS)
        assert many.source == "engine"
    finally:
        await player.close()


def _after(board: chess.Board, move: chess.Move) -> chess.Board:
    board.push(move)
    return board


# -- Sjeng (xboard) ----------------------------------------------------------------------


@needs_sjeng
async def test_sjeng_plays_chess_on_a_short_clock(tmp_path: Path) -> None:
    player = await EnginePlayer.open(sjeng(tmp_path))  # no depth limit: the clock decides
    try:
        assert player.name.startswith("Sjeng")
        board = chess.Board()
        board.push_uci("d2d4")
        started = time.monotonic()
        choice = await player.choose(board, Clocks(60_000, 1_000))
        assert time.monotonic() - started < 1.0
        assert choice.source == "engine" and choice.move in board.legal_moves
        assert choice.score is not None
    finally:
        await player.close()


@needs_sjeng
async def test_sjeng_plays_crazyhouse_drops(sj: EnginePlayer) -> None:
    board = chess.variant.CrazyhouseBoard()
    for uci in ("e2e4", "d7d5", "e4d5", "d8d5", "b1c3", "d5a5"):
        board.push_uci(uci)
    assert sj.plays(board)
    choice = await sj.choose(board, SHORT)
    assert choice.move in board.legal_moves
    board.push(choice.move)
    choice = await sj.choose(board, SHORT)
    assert choice.move in board.legal_moves


@needs_sjeng
async def test_sjeng_plays_fics_suicide(sj: EnginePlayer) -> None:
    board = FicsSuicideBoard()
    assert sj.plays(board) and sj.plays_variant("suicide") and sj.plays_variant("losers")
    choice = await sj.choose(board, SHORT)
    assert choice.move in board.legal_moves
    forced = FicsSuicideBoard()
    for uci in ("e2e3", "b7b5"):
        forced.push_uci(uci)
    assert [move.uci() for move in forced.legal_moves] == ["f1b5"]
    assert (await sj.choose(forced, SHORT)).move.uci() == "f1b5"


@needs_sjeng
async def test_what_sjeng_plays_and_refuses(tmp_path: Path, sj: EnginePlayer) -> None:
    assert sj.variants >= {"normal", "crazyhouse", "suicide", "giveaway", "losers"}
    assert not sj.plays(new_board("fr")) and not sj.plays(new_board("atomic"))
    assert not sj.plays(BughouseBoard()) and not sj.plays_variant("three-check")
    with pytest.raises(EngineError, match="no 'Skill Level' option"):
        await EnginePlayer.open(sjeng(tmp_path, skill=5))
    with pytest.raises(EngineError, match=r"engine\.nodes cannot limit an xboard engine"):
        await EnginePlayer.open(sjeng(tmp_path, nodes=100))
