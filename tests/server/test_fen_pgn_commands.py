"""ICC's ``fen``, ``sfen``, ``pgn``, ``spgn``, ``tomove`` and ``loadfen``, end to end
(users connected in memory): the FEN of a game and of a stored game, as text and DG_FEN
(70), both games as PGN that python-chess reads back, and the side to move and a FEN
position set in an examined game, in setup mode and out of it."""

from __future__ import annotations

import io
import re

import chess
import chess.pgn

from icswire.protocol.codes import ResultStatus, WinMode
from icswire.protocol.datagrams import DG
from icswire.protocol.events import Style12Line, Text
from icswire.server.app import Server

from .support import boards, grams, has_text, texts
from .support import guest as user
from .test_examine_setup import fen_of, stored_game
from .test_variants import start_game

AFTER_E4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"


async def test_fen_of_a_game_examined_or_observed(server: Server) -> None:
    icc = await user(server, "Iccer", grams=(DG.FEN,))
    fics = await user(server, "Ficser", "set style 12")
    assert texts(await icc.command("fen")) == [
        "You are neither playing, observing nor examining a game."
    ]
    assert texts(await icc.command("fen 7")) == ["There is no such game."]
    await fics.command("examine")
    await fics.command("e4")
    events = await icc.command("fen ficser")
    assert texts(events) == [AFTER_E4]
    assert [(g.gamenumber, g.fen) for g in grams(events, DG.FEN)] == [(1, AFTER_E4)]
    await icc.command("observe 1")
    assert texts(await icc.command("fen")) == texts(events)
    assert texts(await fics.command("fen")) == texts(events)


async def test_sfen_of_a_stored_game(server: Server) -> None:
    game_id = await stored_game(server)
    icc = await user(server, "Reader", grams=(DG.FEN,))
    events = await icc.command(f"sfen #{game_id}")
    board = chess.Board()
    for san in ("d4", "d5", "c4"):
        board.push_san(san)
    assert texts(events) == [board.fen()]
    assert [(g.gamenumber, g.fen) for g in grams(events, DG.FEN)] == [(-1, board.fen())]
    assert texts(await icc.command("sfen #99999")) == ["There is no stored game #99999."]
    assert texts(await icc.command("sfen")) == ["Usage: sfen <name> [game number] | #id"]


async def test_tomove_outside_setup_mode_icc_and_fics(server: Server) -> None:
    icc = await user(server, "Iccer", "set style 12", grams=(DG.MY_GAME_STARTED, DG.POSITION_BEGIN))
    fics = await user(server, "Ficser", "set style 12")
    assert texts(await icc.command("tomove black")) == ["You are not examining a game."]
    assert texts(await fics.command("tomove black")) == ["You are not setting up a position."]
    await fics.command("examine")
    assert texts(await fics.command("tomove black")) == [
        'This game is active - type "bsetup" to allow editing.'
    ]
    await icc.command("examine")
    assert texts(await icc.command("tomove purple")) == [
        "Please type: tomove white    or   tomove black"
    ]
    events = await icc.command("tomove black")
    assert texts(events) == ["It is now black's turn to move."]
    begins = grams(events, DG.POSITION_BEGIN)
    assert [b.fen for b in begins] == ["rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1"]
    assert texts(await icc.command("fen"))[0].split()[1] == "b"
    events = await icc.command("loadfen 4k3/8/8/8/8/8/8/4R2K b - - 0 1")
    assert texts(events) == ["Position loaded from FEN."]
    assert texts(await icc.command("tomove white")) == [
        "Only the player to move may be in check.",
        "The position is not valid - the game is unchanged.",
    ]
    assert texts(await icc.command("fen")) == ["4k3/8/8/8/8/8/8/4R2K b - - 0 1"]


async def test_tomove_and_loadfen_in_setup_mode(server: Server) -> None:
    coach = await user(server, "Coach", "set style 12")
    watcher = await user(server, "Watcher", "set style 12")
    await coach.command("examine")
    await watcher.command("observe coach")
    await coach.command("bsetup")
    events = await coach.command("loadfen 4k3/8/8/8/8/8/4P3/4K3")
    assert texts(events) == ["Board set up by FEN."]
    assert fen_of(boards(events)[-1]) == "4k3/8/8/8/8/8/4P3/4K3"
    events = await coach.command("tomove black")
    assert texts(events) == ["It is now black's turn to move."]
    assert boards(events)[-1].side_to_move == "B"
    assert texts(await coach.command("bsetup done")) == [
        "Game is validated - entering examine mode."
    ]
    await watcher.expect(has_text("Coach has validated the position."))
    assert texts(await watcher.command("fen")) == ["4k3/8/8/8/8/8/4P3/4K3 b - - 0 1"]


async def test_loadfen_outside_setup_mode_restarts_the_game(server: Server) -> None:
    coach = await user(server, "Coach", "set style 12")
    watcher = await user(server, "Watcher", "set style 12")
    assert texts(await coach.command("loadfen 8/8/8/8/8/8/8/8")) == [
        "You are not examining a game."
    ]
    await coach.command("examine")
    await watcher.command("observe coach")
    await coach.command("e4")
    assert texts(await coach.command("loadfen")) == ["Usage: loadfen <FEN>"]
    assert texts(await coach.command("loadfen nonsense")) == ['"nonsense" is not a valid FEN.']
    assert texts(await coach.command("loadfen 8/8/8/8/8/8/8/4K3")) == [
        "There is no black king.",
        "The position is not valid - the game is unchanged.",
    ]
    events = await coach.command("loadfen 4k3/8/8/8/8/8/4P3/4K3")
    assert texts(events) == ["Position loaded from FEN."]
    assert fen_of(boards(events)[-1]) == "4k3/8/8/8/8/8/4P3/4K3"
    await watcher.expect(
        lambda e: isinstance(e, Text) and e.text == "Game 1: Coach sets up a new position."
    )
    events = await coach.command("e4")
    assert fen_of(boards(events)[-1]) == "4k3/8/8/8/4P3/8/8/4K3"
    assert texts(await coach.command("backward"))  # back to the loaded start
    assert texts(await coach.command("fen")) == ["4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"]


def read_pgn(lines: list[str]) -> chess.pgn.Game:
    found = chess.pgn.read_game(io.StringIO("\n".join(lines) + "\n"))
    assert found is not None and not found.errors
    return found


async def test_pgn_of_an_examined_game_up_to_the_position_shown(server: Server) -> None:
    coach = await user(server, "Coach", "set style 12")
    watcher = await user(server, "Watcher", "set style 12")
    assert texts(await coach.command("pgn")) == [
        "You are neither playing, observing nor examining a game."
    ]
    await coach.command("examine")
    for san in ("e4", "e5", "Nf3"):
        await coach.command(san)
    await coach.command("backward")
    await watcher.command("observe 1")
    game = read_pgn(texts(await watcher.command("pgn 1")))
    assert [move.uci() for move in game.mainline_moves()] == ["e2e4", "e7e5"]
    assert (game.headers["White"], game.headers["Black"]) == ("Coach", "Coach")
    assert game.headers["Result"] == "*"
    assert re.fullmatch(r"\d{4}\.\d\d\.\d\d", game.headers["Date"])
    await coach.command("loadfen 4k3/8/8/8/8/8/4P3/4K3")
    await coach.command("e4")
    game = read_pgn(texts(await coach.command("pgn coach")))
    assert game.headers["FEN"] == "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"
    assert [move.uci() for move in game.mainline_moves()] == ["e2e4"]


async def test_spgn_of_a_stored_game_with_clocks_and_result(server: Server) -> None:
    won = (ResultStatus.WIN, WinMode.RESIGNS, 1, "0-1", "D06", 300_000, 300_000)
    game_id = await stored_game(server, won)
    reader = await user(server, "Reader")
    lines = texts(await reader.command("spgn anna -1"))
    assert texts(await reader.command(f"spgn #{game_id}")) == lines
    game = read_pgn(lines)
    assert [move.uci() for move in game.mainline_moves()] == ["d2d4", "d7d5", "c2c4"]
    assert game.headers["Result"] == "0-1"
    assert game.headers["ECO"] == "D06"
    assert game.headers["Date"] == "2025.01.02"
    assert game.headers["Time"] == "03:04:05"
    assert game.headers["TimeControl"] == "300+0"
    assert [node.clock() for node in game.mainline()] == [300.0, 300.0, 300.0]
    assert texts(await reader.command("spgn")) == ["Usage: spgn <name> [game number] | #id"]


async def test_pgn_and_fen_of_a_played_crazyhouse_game(server: Server) -> None:
    alpha, beta = await start_game(server, "unrated crazyhouse")
    await alpha.command("e4")
    await beta.expect(lambda e: isinstance(e, Style12Line) and e.record.pretty_move == "e4")
    game = read_pgn(texts(await beta.command("pgn")))
    assert game.headers["Variant"] == "Crazyhouse"
    assert (game.headers["White"], game.headers["Black"]) == ("Alpha", "Beta")
    assert [move.uci() for move in game.mainline_moves()] == ["e2e4"]
    after = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR[] b KQkq - 0 1"
    assert texts(await beta.command("fen alpha")) == [after]
