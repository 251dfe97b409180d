"""Games on the server, end to end: moves, clocks, endings, storage, ratings, and clients
that rebuild the game from datagrams alone and from style 12 boards alone."""

from __future__ import annotations

import asyncio

import chess

from icswire.protocol import datagrams as dg
from icswire.protocol.datagrams import DG
from icswire.protocol.events import BughouseLine, Style12Line, Text
from icswire.protocol.level1 import CommandNumber as CN
from icswire.server.app import Server
from icswire.server.core.model.tables import Terms
from icswire.server.core.render.batch import Batch
from icswire.server.core.render.boards import BLACK, WHITE
from icswire.server.features.play.games import Game

from .client import Client
from .support import bits, connect, rebuilt

GRAMS = (15, 16, 21, 22, 24, 33, 34, 35, 36, 42, 43, 56, 61, 87, 139)


async def players(server: Server, white_dgs: tuple[int, ...] = GRAMS) -> tuple[Client, Client]:
    """White gets datagrams (style 13: no boards); Black gets style 12 boards with ms clocks."""
    white = await connect(server, white_dgs)
    await white.login("Whitey", None, f"level2settings={bits(*white_dgs)}")
    await white.command("set style 13")
    black = await connect(server)
    await black.login("Blacky")
    await black.command("set style 12")  # FICS's default is style 1
    await black.command("iset ms 1")
    await black.command("iset nowrap 1")  # result lines whole, as interfaces ask
    return white, black


FIVE_MINUTES = Terms(initial=5)


async def start(server: Server, terms: Terms = FIVE_MINUTES) -> Game:
    batch = Batch(CN.CN_MATCH, None)
    online = server.world.online
    game = await server.games.start(online["whitey"], online["blacky"], terms, batch)
    batch.flush()
    return game


FOOLS_MATE = ["f3", "e5", "g4", "Qh4#"]
SCHOLARS = ["e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6", "Qxf7#"]


async def test_a_game_to_mate_rebuilt_from_datagrams_and_from_boards_equals_the_stored_one(
    server: Server,
) -> None:
    white, black = await players(server)
    game = await start(server)
    for ply, san in enumerate(SCHOLARS):
        mover = white if ply % 2 == 0 else black
        await mover.send(san)
        await mover.settle()  # each move is played before the next is sent
    said = await black.expect_text("{Game 1 (Whitey vs. Blacky) Blacky checkmated} 1-0")
    assert said
    result = await white.expect_dg(DG.MY_GAME_RESULT)
    assert (result.result_code, result.score, result.description, result.eco) == (
        "Mat",
        "1-0",
        "Blacky checkmated",
        "C20",  # 1. e4 e5 2. Qh5, the deepest named position
    )
    await white.settle()
    await server.games.flush()
    stored = await asyncio.to_thread(server.store.game, game.game_id)
    assert stored is not None
    assert stored.moves == tuple(SCHOLARS)
    assert (stored.status, stored.mode, stored.color, stored.score) == (0, 1, 0, "1-0")

    (from_datagrams,) = rebuilt(white)
    assert [m.san for m in from_datagrams.moves] == SCHOLARS
    assert [m.clock_ms for m in from_datagrams.moves] == [c // 1000 * 1000 for c in stored.clocks]
    assert [m.time_ms for m in from_datagrams.moves] == [t // 1000 * 1000 for t in stored.times]
    assert (from_datagrams.result, from_datagrams.result_code) == ("1-0", "Mat")

    (from_boards,) = rebuilt(black)
    assert from_boards.source == "style12" and not from_boards.gaps
    assert [m.san for m in from_boards.moves] == SCHOLARS
    assert [m.clock_ms for m in from_boards.moves] == list(stored.clocks)
    assert [m.time_ms for m in from_boards.moves] == list(stored.times)
    assert from_boards.result == "1-0"
    assert not white.errors() and not black.errors()


async def test_illegal_moves_give_the_text_and_the_reason_code(server: Server) -> None:
    white, black = await players(server)
    await start(server)
    for text, reason in (("e2e5", 2), ("Ke2", 2), ("e1e1", 2), ("Nbd2", 2)):
        await white.send(text)
        illegal = await white.expect_dg(DG.ILLEGAL_MOVE)
        assert (illegal.move, illegal.reason) == (text, reason)
    await black.send("e7e5")
    await black.expect_text("It is not your move.")
    for ply, san in enumerate(["e4", "e5", "Bc4", "Nc6", "Bxf7+"]):
        if ply % 2 == 0:
            await white.send(san)
            await black.expect(
                lambda e, s=san: isinstance(e, Style12Line) and e.record.pretty_move == s
            )
        else:
            await black.send(san)
            await white.expect_dg(DG.SEND_MOVES, algebraic=san)
    await black.send("Nf6")  # the king stays in check
    assert await black.expect_text("Illegal move (Nf6).")
    await black.send("Kxf7")
    await white.expect_dg(DG.SEND_MOVES, algebraic="Kxf7")
    await black.send("Kg6")
    await black.expect_text("It is not your move.")


async def test_the_server_ends_a_game_on_time_by_itself(server: Server) -> None:
    white, black = await players(server)
    game = await start(server)
    await white.send("e4")
    await black.expect(lambda e: isinstance(e, Style12Line) and e.record.verbose_move == "P/e2-e4")
    game.clock_ms[BLACK] = 200
    server.games.rearm(game)
    await black.expect_text("{Game 1 (Whitey vs. Blacky) Blacky forfeits on time.} 1-0")
    result = await white.expect_dg(DG.MY_GAME_RESULT)
    assert result.result_code == "Fla"
    assert server.games.by_number == {}


async def test_time_forfeit_against_a_bare_king_is_a_draw(server: Server) -> None:
    _, black = await players(server)
    start_position = chess.Board("4k3/8/8/8/8/8/8/R3K3 w - - 0 1")
    batch = Batch(CN.CN_MATCH, None)
    online = server.world.online
    game = await server.games.start(
        online["whitey"], online["blacky"], Terms(initial=5), batch, start=start_position
    )
    batch.flush()
    game.clock_ms[WHITE] = 100
    server.games.rearm(game)
    await black.expect_text("Whitey ran out of time and Blacky has no material to mate} 1/2-1/2")


async def test_resign_draw_abort_takeback_and_moretime(server: Server) -> None:
    white, black = await players(server)
    await start(server)
    await white.send("abort")
    await black.expect_text("{Game 1 (Whitey vs. Blacky) Game aborted by Whitey at move 1} *")

    await start(server)
    await white.send("e4")
    await black.expect(lambda e: isinstance(e, Style12Line) and e.record.verbose_move == "P/e2-e4")
    await black.send("e5")
    await white.expect_dg(DG.SEND_MOVES, algebraic="e5")
    await white.send("takeback 1")
    offers = await white.expect_dg(DG.OFFERS_IN_MY_GAME)
    assert offers.wtakeback == 1
    await black.send("takeback 1")
    assert (await white.expect_dg(DG.TAKEBACK)).count == 1
    await white.send("moretime 30")
    assert (await white.expect_dg(DG.MORETIME)).seconds == 30
    await black.expect_text("Whitey has added 30 seconds to your clock.")
    await white.send("draw")
    await black.expect_text("Whitey offers you a draw.")
    await black.send("draw")
    await black.expect_text("Game drawn by mutual agreement} 1/2-1/2")

    await start(server)
    await black.send("resign")
    await white.expect_dg(DG.MY_GAME_RESULT, score="1-0", result_code="Res")


async def test_threefold_repetition_is_claimed_with_draw(server: Server) -> None:
    white, black = await players(server)
    await start(server)
    for ply, san in enumerate(["Nf3", "Nf6", "Ng1", "Ng8"] * 2):
        mover = white if ply % 2 == 0 else black
        await mover.send(san)
        if ply % 2 == 0:
            await black.expect(
                lambda e, s=san: isinstance(e, Style12Line) and e.record.pretty_move == s
            )
        else:
            await white.expect_dg(DG.SEND_MOVES, algebraic=san)
    await white.send("draw")
    await black.expect_text("Game drawn by repetition} 1/2-1/2")


async def test_a_guest_who_disconnects_forfeits_and_registered_players_adjourn(
    server: Server,
) -> None:
    white, black = await players(server)
    await start(server)
    await white.send("e4")
    await black.expect(lambda e: isinstance(e, Style12Line))
    await black.send("e5")
    await white.expect_dg(DG.SEND_MOVES, algebraic="e5")
    await black.close()
    result = await white.expect_dg(DG.MY_GAME_RESULT)
    assert (result.score, result.result_code) == ("1-0", "BQ")


async def test_rated_games_change_glicko_ratings(server: Server) -> None:
    for name in ("Whitey", "Blacky"):
        await asyncio.to_thread(server.store.add_user, name, "pw")
    white = await connect(server, GRAMS)
    await white.login("Whitey", "pw", f"level2settings={bits(*GRAMS)}")
    black = await connect(server)
    await black.login("Blacky", "pw")
    await start(server, Terms(rated=True, initial=5, rating_type="Blitz"))
    for ply, san in enumerate(FOOLS_MATE):
        mover = white if ply % 2 == 0 else black
        await mover.send(san)
        await mover.settle()  # each move is played before the next is sent
    await black.expect_text("Blitz rating adjustment: 0 --> ")
    new = await white.expect(lambda e: getattr(e, "dg", None) == DG.NEW_MY_RATING and e.ratings[1])
    assert 0 < new.ratings[1] < 1500  # White was mated
    record = await asyncio.to_thread(server.store.rating, "Blacky", "Blitz")
    assert record.games == 1 and record.wins == 1 and record.glicko.rating > 1500
    assert server.world.online["blacky"].ratings["Blitz"][0] == round(record.glicko.rating)
    texts = [e.text for e in white.events if isinstance(e, Text)]
    assert any(t.startswith("Blitz rating adjustment: 0 --> ") for t in texts)


async def test_each_receiver_gets_exactly_its_move_parts(server: Server) -> None:
    parts = (24, 33)
    white, black = await players(server, parts)
    await start(server)
    await white.send("e4")
    await black.expect(lambda e: isinstance(e, Style12Line))
    await black.send("c5")
    moves = await white.expect_dg(DG.SEND_MOVES, algebraic="c5")
    assert moves == dg.SendMoves(1, "c5")  # nothing but the parts DG 33 asks for
    assert not white.received(DG.MSEC)


async def test_pstat_and_holdings_at_the_start_of_a_crazyhouse_game(server: Server) -> None:
    wanted = (*GRAMS, DG.PSTAT, DG.BUGHOUSE_HOLDINGS)
    white, black = await players(server, wanted)
    await start(server, Terms(wild=23, initial=5, rating_type="Crazyhouse"))
    stats = await white.expect_dg(DG.PSTAT)
    assert (stats.initiated, stats.p1, stats.p2) == (0, "Whitey", "Blacky")
    assert stats.records[0].rating_number == 6  # Crazyhouse in DG_RATING_TYPE_KEY's order
    for ply, san in enumerate(["e4", "d5", "exd5"]):
        if ply % 2 == 0:
            await white.send(san)
            await black.expect(
                lambda e, s=san: isinstance(e, Style12Line) and e.record.pretty_move == s
            )
        else:
            await black.send(san)
            await white.expect_dg(DG.SEND_MOVES, algebraic=san)
    holdings = await white.expect(
        lambda e: getattr(e, "dg", None) == DG.BUGHOUSE_HOLDINGS and e.white_holding
    )
    assert (holdings.white_holding, holdings.black_holding) == ("P", "")
    held = await black.expect(lambda e: isinstance(e, BughouseLine))
    assert held.record.white_holding == "P"
    await black.send("Nc6")
    await white.expect_dg(DG.SEND_MOVES, algebraic="Nc6")
    await white.send("P@e6")
    await black.expect(lambda e: isinstance(e, Style12Line) and e.record.verbose_move == "P@e6")


async def test_observers_rebuild_the_stored_game_from_datagrams_and_from_boards(
    server: Server,
) -> None:
    white, black = await players(server)
    watched = (18, 16, 24, 25, 33, 34, 35, 36, 56)
    by_datagrams = await connect(server, watched)
    await by_datagrams.login("Grams", None, f"level2settings={bits(*watched)}")
    await by_datagrams.command("set style 13")
    by_boards = await connect(server)
    await by_boards.login("Boarder")
    await by_boards.command("set style 12")
    await by_boards.command("iset ms 1")
    game = await start(server)
    for ply, san in enumerate(SCHOLARS[:3]):
        mover = white if ply % 2 == 0 else black
        await mover.send(san)
        await mover.settle()  # each move is played before the next is sent
    await by_datagrams.command("observe 1")  # in the middle: the move list comes first
    await by_boards.command("observe 1")
    for ply, san in enumerate(SCHOLARS[3:], 3):
        mover = white if ply % 2 == 0 else black
        await mover.send(san)
        await mover.settle()  # each move is played before the next is sent
    await by_boards.expect_text("{Game 1 (Whitey vs. Blacky) Blacky checkmated} 1-0")
    await by_datagrams.expect_dg(DG.MY_GAME_RESULT)
    await server.games.flush()
    stored = await asyncio.to_thread(server.store.game, game.game_id)
    assert stored is not None and stored.moves == tuple(SCHOLARS)

    (from_datagrams,) = rebuilt(by_datagrams)
    assert [m.san for m in from_datagrams.moves] == SCHOLARS
    assert [m.clock_ms for m in from_datagrams.moves] == [c // 1000 * 1000 for c in stored.clocks]
    assert from_datagrams.result == "1-0" and from_datagrams.white == "Whitey"

    (from_boards,) = rebuilt(by_boards)
    assert [m.san for m in from_boards.moves] == SCHOLARS[3:]  # boards since it came in
    after_three = chess.Board()
    for san in SCHOLARS[:3]:
        after_three.push_san(san)
    assert from_boards.start.board_fen() == after_three.board_fen()
    assert [m.clock_ms for m in from_boards.moves] == list(stored.clocks[3:])
    assert from_boards.result == "1-0" and not from_boards.gaps


async def test_games_started_at_the_same_moment_get_different_numbers(server: Server) -> None:
    clients = []
    for name in ("Pa", "Pb", "Pc", "Pd", "Pe", "Pf"):
        client = await connect(server)
        await client.login(name)
        clients.append(client)
    online = server.world.online
    batch = Batch(CN.CN_MATCH, None)
    pairs = [("pa", "pb"), ("pc", "pd"), ("pe", "pf")]
    games = await asyncio.gather(
        *(server.games.start(online[w], online[b], FIVE_MINUTES, batch) for w, b in pairs)
    )
    batch.flush()
    assert sorted(game.number for game in games) == [1, 2, 3]
    await server.games.flush()
    ids = {game.game_id for game in games}
    assert len(ids) == 3 and None not in ids
