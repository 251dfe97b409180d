"""Games rebuilt from datagrams and from style 12 boards, and their PGN."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import chess
import chess.pgn
import chess.variant
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from icswire.boards.game import Game, parse_game_end
from icswire.boards.moves import IllegalMoveError
from icswire.boards.pgn import game_to_pgn, headers, pgn_text, termination, time_control
from icswire.boards.positions import style12_from_board
from icswire.boards.tracker import GameTracker
from icswire.protocol import datagrams as dg
from icswire.protocol.bughouse import Bughouse
from icswire.protocol.datagrams import MoveInfo
from icswire.protocol.decoder import Decoder
from icswire.protocol.events import BughouseLine, Event, Style12Line

from .transcript import (
    OBSERVER_DATAGRAMS,
    PlayedGame,
    as_datagrams,
    as_style12,
    interleave,
    play,
    session,
)


def track(stream: bytes) -> list[Game]:
    decoder = Decoder(OBSERVER_DATAGRAMS)
    tracker = GameTracker()
    for event in decoder.feed(stream) + decoder.close():
        tracker.feed(event)
    return tracker.games


def read_back(game: Game) -> chess.pgn.Game:
    parsed = chess.pgn.read_game(io.StringIO(pgn_text(game)))
    assert parsed is not None and not parsed.errors, parsed and parsed.errors
    return parsed


def assert_is(parsed: chess.pgn.Game, played: PlayedGame) -> None:
    assert list(parsed.mainline_moves()) == played.moves
    assert [node.clock() for node in parsed.mainline()] == [c / 1000 for c in played.clocks_ms]
    assert (parsed.headers["White"], parsed.headers["Black"]) == (played.white, played.black)
    assert parsed.headers["Result"] == played.result


def started(number: int = 5, wild: int = 0, **changes: object) -> dg.DatagramRecord:
    record = dg.MyGameStarted(
        number, "fred", "joe", wild, "Blitz", True, 3, 2, 3, 2, True, "", 1500, 1600, 77,
        "GM", "", False, False, False, "", False,
    )  # fmt: skip
    return record._replace(**changes)  # type: ignore[attr-defined,no-any-return]


# -- the proof the issue asks for ---------------------------------------------------------


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 10**6))
def test_two_interleaved_games_one_of_each_source_give_the_played_games(seed: int) -> None:
    a, b = play(5, seed), play(7, seed + 1)
    stream = session(interleave(as_datagrams(a), as_style12(b), seed))
    games = track(stream)
    assert [(g.number, g.source) for g in games] == [(5, "datagrams"), (7, "style12")] or [
        (g.number, g.source) for g in games
    ] == [(7, "style12"), (5, "datagrams")]
    for game in games:
        played = a if game.number == 5 else b
        assert game.complete and not game.gaps
        assert_is(read_back(game), played)


@settings(max_examples=10, deadline=None)
@given(st.integers(0, 10**6), st.integers(1, 39))
def test_a_dropped_board_is_a_reported_gap_not_a_wrong_game(seed: int, drop: int) -> None:
    played = play(7, seed)
    if drop >= len(played.moves):
        drop = len(played.moves) - 1
    (game,) = track(session(as_style12(played, drop=drop)))
    assert game.gaps and not game.complete
    assert game.gaps[0].after_ply == drop - 1
    parsed = read_back(game)
    assert list(parsed.mainline_moves()) == played.moves[: drop - 1]
    assert "boards missing" in pgn_text(game)


def test_the_pgn_command_writes_both_games_and_a_summary(tmp_path: Path) -> None:
    a, b = play(5, 1), play(7, 2)
    capture = tmp_path / "session.bin"
    capture.write_bytes(session(interleave(as_datagrams(a), as_style12(b, drop=3), 9)))
    datagrams = ",".join(map(str, sorted(OBSERVER_DATAGRAMS)))
    result = subprocess.run(
        [sys.executable, "-m", "icswire", "pgn", str(capture), "--datagrams", datagrams],
        capture_output=True,
        text=True,
        check=True,
    )
    text = io.StringIO(result.stdout)
    first, second = chess.pgn.read_game(text), chess.pgn.read_game(text)
    assert first is not None and second is not None and chess.pgn.read_game(text) is None
    by_white = {g.headers["White"]: g for g in (first, second)}
    assert_is(by_white[a.white], a)
    assert "2 games: 1 complete, 0 incomplete, 1 with gaps" in result.stderr


# -- datagrams ------------------------------------------------------------------------------


def test_move_list_takeback_backward_and_clocks() -> None:
    game = Game.from_started(started())
    game.apply(
        dg.MoveList(5, "*", (MoveInfo("e4", "e2e4", 1, 179), MoveInfo("e5", "e7e5", 2, 178)))
    )
    game.apply(dg.SendMoves(5, "Nf3", "g1f3", 3, 176))
    assert [m.san for m in game.moves] == ["e4", "e5", "Nf3"]
    assert game.white_clock_ms == 176000 and game.black_clock_ms == 178000
    game.apply(dg.Takeback(5, 2))
    assert (
        game.board.fen()
        == chess.Board("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1").fen()
    )
    game.apply(dg.Msec(5, "B", 170500, True))
    game.apply(dg.Moretime(5, "B", 60))
    assert game.black_clock_ms == 230500 and game.clock_running
    game.apply(dg.SetClock(5, 100, 200))
    assert (game.white_clock_ms, game.black_clock_ms) == (100000, 200000)
    game.apply(dg.Flip(5, True))
    assert game.flip
    game.apply(dg.Backward(5, 1))
    assert game.moves == [] and game.board == chess.Board()


def test_an_illegal_move_from_the_server_is_refused_with_the_position() -> None:
    game = Game.from_started(started())
    with pytest.raises(IllegalMoveError, match="e2e5"):
        game.apply(dg.SendMoves(5, None, "e2e5"))
    assert game.moves == []


def test_position_begin_starts_from_its_fen_and_exports_setup() -> None:
    game = Game.from_started(started())
    fen = "4k3/8/8/8/8/8/4P3/4K3 b - - 0 30"
    game.apply(dg.PositionBegin(5, fen, 1))
    game.apply(dg.SendMoves(5, "Kd7", "e8d7"))
    game.apply(dg.MyGameResult(5, False, "Agr", "1/2-1/2", "Game drawn by mutual agreement", "?"))
    parsed = read_back(game)
    assert parsed.headers["SetUp"] == "1" and parsed.headers["FEN"] == fen
    assert parsed.headers["Termination"] == "normal" and parsed.headers["Result"] == "1/2-1/2"
    assert [m.uci() for m in parsed.mainline_moves()] == ["e8d7"]


def test_chess960_and_crazyhouse_games_export_and_read_back() -> None:
    game = Game.from_started(started(wild=22))
    start = chess.Board.from_chess960_pos(418)
    game.reset(start)
    for san in ("e4", "e5", "Nf3"):
        game.push(san, None)
    parsed = read_back(game)
    assert parsed.headers["Variant"].lower().replace(" ", "") == "chess960"
    assert parsed.headers["FEN"] == start.fen()
    assert list(parsed.mainline_moves()) == [m.move for m in game.moves]

    zh = Game.from_started(started(wild=23))
    for san in ("e4", "d5", "exd5", "Qxd5", "P@e4"):
        zh.push(san, None)
    parsed = read_back(zh)
    assert isinstance(parsed.board(), chess.variant.CrazyhouseBoard)
    assert [m.uci() for m in parsed.mainline_moves()] == ["e2e4", "d7d5", "e4d5", "d8d5", "P@e4"]


# -- pgn pieces -----------------------------------------------------------------------------


def test_headers_time_control_and_termination() -> None:
    game = Game.from_started(started(fancy_timecontrol="40/5400+30:900+30"))
    assert time_control(game) == "40/5400+30:900+30"
    plain = Game.from_started(started())
    assert time_control(plain) == "180+2"
    tags = headers(plain)
    assert list(tags)[:7] == ["Event", "Site", "Date", "Round", "White", "Black", "Result"]
    assert (tags["WhiteElo"], tags["BlackElo"], tags["Result"]) == ("1500", "1600", "*")
    assert termination(plain) == "unterminated"
    plain.apply(dg.MyGameResult(5, False, "Fla", "0-1", "White forfeits on time", "B20"))
    assert (termination(plain), headers(plain)["ECO"]) == ("time forfeit", "B20")
    plain.end_from_text("Game aborted on move 1", "*")
    plain.result_code = None
    assert termination(plain) == "abandoned"
    plain.apply(dg.PgnTag(5, "Site", "chessclub.com"))
    assert game_to_pgn(plain).headers["Site"] == "chessclub.com"


def test_game_end_lines() -> None:
    assert parse_game_end("{Game 12 (fred vs. joe) joe resigns} 1-0") == (
        12,
        "fred",
        "joe",
        "joe resigns",
        "1-0",
    )
    assert parse_game_end("{Game 3 (a vs. b) Creating unrated blitz match.}") is None


def test_crazyhouse_takebacks_replay_the_pockets() -> None:
    game = Game.from_started(started(wild=23))
    for san in ("e4", "d5", "exd5", "Qxd5"):
        game.push(san, None)
    game.apply(dg.Takeback(5, 1))
    assert game.board.pockets[chess.WHITE].count(chess.PAWN) == 1  # type: ignore[attr-defined]
    assert game.board.pockets[chess.BLACK].count(chess.PAWN) == 0  # type: ignore[attr-defined]
    for san in ("Nf6", "P@e6", "Nxd5"):
        game.push(san, None)
    parsed = read_back(game)
    assert [m.uci() for m in parsed.mainline_moves()] == [
        "e2e4", "d7d5", "e4d5", "g8f6", "P@e6", "f6d5",
    ]  # fmt: skip


def test_bughouse_captures_go_to_the_partner_and_passes_come_in() -> None:
    game = Game.from_started(started(wild=24))
    for san in ("e4", "d5", "exd5"):
        game.push(san, None)
    assert len(game.board.pockets[chess.WHITE]) == 0  # type: ignore[attr-defined]
    game.apply(dg.BughousePass(5, "B", "N"))
    game.push("N@e5", None)
    game.apply(dg.BughouseHoldings(5, "QQ", ""))
    assert game.board.pockets[chess.WHITE].count(chess.QUEEN) == 2  # type: ignore[attr-defined]
    text = pgn_text(game)
    assert '[Variant "Bughouse"]' in text and "1. e4 d5 2. exd5 N@e5 *" in text


def _holding(board: chess.Board, color: chess.Color) -> str:
    pocket = board.pockets[color]  # type: ignore[attr-defined]
    return "".join(chess.piece_symbol(kind).upper() * pocket.count(kind) for kind in range(1, 6))


def test_a_board_only_crazyhouse_game_learns_its_pockets_from_b1_lines() -> None:
    board = chess.variant.CrazyhouseBoard()
    facts = {
        "game_number": 8, "white_name": "a", "black_name": "b", "relation": 0,
        "initial_time": 3, "increment": 0, "white_time": 180, "black_time": 180,
    }  # fmt: skip
    events: list[Event] = [Style12Line(style12_from_board(board, **facts))]
    moves = ["e2e4", "d7d5", "e4d5", "d8d5", "P@e4"]
    for uci in moves:
        board.push(chess.Move.from_uci(uci))
        holdings = Bughouse(8, _holding(board, chess.WHITE), _holding(board, chess.BLACK))
        events += [Style12Line(style12_from_board(board, **facts)), BughouseLine(holdings)]
    (tracked,) = track(session(events))
    assert not tracked.gaps and tracked.wild == 23
    assert [m.move.uci() for m in tracked.moves if m.move] == moves


def test_large_inputs_get_a_progress_bar_on_stderr(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from click.testing import CliRunner

    from icswire import cli

    capture = tmp_path / "session.bin"
    capture.write_bytes(session(as_style12(play(7, 4))))
    monkeypatch.setattr(cli, "PROGRESS_FROM", 0)
    result = CliRunner().invoke(cli.main, ["pgn", str(capture)])
    assert result.exit_code == 0
    assert "reading" in result.stderr and "1 games: 1 complete" in result.stderr
    assert '[White "white7"]' in result.stdout
