"""Game terms: server-side premove (``iset premove 1``), time odds, zero-minute and untimed
games, and the abort, adjourn and takeback rules at each ply."""

from __future__ import annotations

from icswire.protocol.datagrams import DG
from icswire.server.app import Server
from icswire.server.core.model.tables import Terms
from icswire.server.core.render.boards import BLACK, WHITE

from .client import Client
from .support import bits, connect, start_game, texts

GRAMS = (DG.MY_GAME_STARTED, DG.ILLEGAL_MOVE, DG.DISABLE_PREMOVE, DG.SEND_MOVES)


async def players(server: Server) -> tuple[Client, Client]:
    white = await connect(server, GRAMS)
    await white.login("Whitey", None, f"level2settings={bits(*GRAMS)}")
    black = await connect(server, GRAMS)
    await black.login("Blacky", None, f"level2settings={bits(*GRAMS)}")
    return white, black


async def test_a_premove_is_kept_and_played_when_the_turn_comes(server: Server) -> None:
    white, black = await players(server)
    await black.command("iset premove 1")
    game = await start_game(server, "Whitey", "Blacky", Terms(initial=5))
    await white.settle()
    await black.settle()
    said = await black.command("e5")  # White's turn: kept
    assert "Premove stored: e5" in texts(said)
    assert not game.moves
    await white.send("e4")
    await white.settle()
    await black.settle()
    assert [m.san for m in game.moves] == ["e4", "e5"]
    assert game.moves[1].time_ms == 0  # played the moment the turn came
    assert game.clock_ms[BLACK] == 5 * 60_000
    assert game.board.turn == WHITE


async def test_a_premove_illegal_when_the_turn_comes_is_dropped(server: Server) -> None:
    white, black = await players(server)
    await black.command("iset premove 1")
    game = await start_game(server, "Whitey", "Blacky", Terms(initial=5))
    await white.settle()
    await black.settle()
    await black.command("e6")
    await black.command("Bb4")  # replaces e6; not legal after e4
    await white.send("e4")
    await white.settle()
    await black.settle()
    await black.expect_text("Illegal move (Bb4).")
    illegal = await black.expect_dg(DG.ILLEGAL_MOVE)
    assert illegal.move == "Bb4"
    assert [m.san for m in game.moves] == ["e4"]
    assert game.board.turn == BLACK


async def test_without_premove_a_move_out_of_turn_is_refused(server: Server) -> None:
    white, black = await players(server)
    game = await start_game(server, "Whitey", "Blacky", Terms(initial=5))
    await white.settle()
    await black.settle()
    said = await black.command("e5")
    assert "It is not your move." in texts(said)
    await white.send("e4")
    await white.settle()
    await black.settle()
    assert [m.san for m in game.moves] == ["e4"]
    assert not black.received(DG.DISABLE_PREMOVE)
