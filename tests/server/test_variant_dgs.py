"""What DG_GAME_STARTED's form says of a variant (irregular-legality, irregular-semantics,
uses-plunkers, promote-to-king: icc-formats.txt, DG 12), and DG_SET_BOARD (84), "only to be
sent for irregular-semantics games such as atomic chess or fischer-random", withheld in
Fischer random from a client with DG_KNOWS_FISCHER_RANDOM (132) on."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime

import chess
import pytest

from icswire.boards.positions import board_from_64, board_to_64
from icswire.boards.variants import new_board, variant_from_spelling
from icswire.protocol.codes import ResultStatus
from icswire.protocol.datagrams import DG
from icswire.protocol.level1 import CommandNumber as CN
from icswire.server.app import Server
from icswire.server.core.model.tables import Terms
from icswire.server.core.render.batch import Batch
from icswire.server.core.storage.records import GameRecord
from icswire.server.features.play.games import Game

from .client import Client
from .support import bits, connect, grams

SEEN = (DG.MY_GAME_STARTED, DG.STARTED_OBSERVING, DG.SEND_MOVES, DG.MOVE_SMITH, DG.SET_BOARD)


async def user(server: Server, name: str, *datagrams: int) -> Client:
    client = await connect(server, datagrams)
    await client.login(name, None, f"level2settings={bits(*datagrams)}" if datagrams else "")
    await client.command("set style 13")
    return client


async def start(server: Server, spelling: str) -> Game:
    """A game of the variant ``spelling`` names (ICC's words), Whitey against Blacky."""
    variant = variant_from_spelling(spelling, "icc")
    batch = Batch(CN.CN_MATCH, None)
    online = server.world.online
    terms = Terms.of(variant, False, 5, 0)
    game = await server.games.start(online["whitey"], online["blacky"], terms, batch)
    batch.flush()
    return game


def flags(record: object) -> tuple[bool, bool, bool, bool]:
    return (
        record.irregular_legality,  # type: ignore[attr-defined]
        record.irregular_semantics,  # type: ignore[attr-defined]
        record.uses_plunkers,  # type: ignore[attr-defined]
        record.promote_to_king,  # type: ignore[attr-defined]
    )


@pytest.mark.parametrize(
    ("spelling", "expected"),
    [
        ("chess", (False, False, False, False)),
        ("w22", (True, True, False, False)),  # Fischer random: its castlings
        ("w27", (True, True, False, False)),  # atomic: explosions, kings side by side
        ("w26", (True, False, False, True)),  # giveaway: kings captured, promoted to
        ("w23", (True, False, True, False)),  # crazyhouse: drops
        ("w1", (True, True, False, False)),  # a d-file king castles the mirror of chess
        ("w17", (False, False, False, False)),  # losers: only moves chess allows
        ("w5", (False, False, False, False)),
    ],
)
async def test_game_started_forms_carry_the_variant_flags(
    server: Server, spelling: str, expected: tuple[bool, bool, bool, bool]
) -> None:
    white = await user(server, "Whitey", *SEEN)
    await user(server, "Blacky")
    lister = await user(server, "Lister", DG.GAME_STARTED)
    game = await start(server, spelling)
    assert flags(await white.expect_dg(DG.MY_GAME_STARTED)) == expected
    assert flags(await lister.expect_dg(DG.GAME_STARTED)) == expected
    watcher = await user(server, "Watcher", DG.STARTED_OBSERVING, DG.ISOLATED_BOARD)
    [peek] = grams(await watcher.command(f"refresh {game.number}"), DG.ISOLATED_BOARD)
    assert flags(peek) == expected
    [seen] = grams(await watcher.command(f"observe {game.number}"), DG.STARTED_OBSERVING)
    assert flags(seen) == expected


async def test_fischer_random_sends_set_board_at_the_start_and_after_each_move(
    server: Server,
) -> None:
    white = await user(server, "Whitey", *SEEN)
    knows = (*SEEN, DG.KNOWS_FISCHER_RANDOM)
    black = await user(server, "Blacky", *knows)
    game = await start(server, "w22")
    first = await white.expect_dg(DG.SET_BOARD)
    assert (first.gamenumber, first.side_to_move) == (game.number, "W")
    assert first.board == board_to_64(game.start)  # the drawn start, before any move
    await white.send("e4")
    await black.expect_dg(DG.SEND_MOVES)
    after = await white.expect_dg(DG.SET_BOARD, side_to_move="B")
    assert after.board == board_to_64(game.board)
    await white.settle()
    await black.settle()
    # a client that knows Fischer random's castling updates the board from the moves
    assert not black.received(DG.SET_BOARD)
    assert len(white.received(DG.SET_BOARD)) == 2


async def test_atomic_set_board_shows_the_explosion(server: Server) -> None:
    white = await user(server, "Whitey", *SEEN)
    black = await user(server, "Blacky", *SEEN)
    await start(server, "w27")
    for ply, move in enumerate(["e4", "d5", "exd5"]):
        mover, other = (white, black) if ply % 2 == 0 else (black, white)
        await mover.send(move)
        await other.expect_dg(DG.SEND_MOVES)
    exploded = await black.expect_dg(DG.SET_BOARD, side_to_move="B")
    board = board_from_64(exploded.board, "B")
    # the capturing pawn went up with the captured one: chess would have it on d5
    assert board.piece_at(chess.D5) is None and board.piece_at(chess.E4) is None
    assert len(board.piece_map()) == 30


async def test_regular_games_send_no_set_board(server: Server) -> None:
    white = await user(server, "Whitey", *SEEN)
    black = await user(server, "Blacky", *SEEN)
    await start(server, "w23")
    await white.send("e4")
    await black.expect_dg(DG.SEND_MOVES)
    await white.settle()
    assert not grams(white.events + black.events, DG.SET_BOARD)


async def test_stored_and_examined_atomic_games(server: Server) -> None:
    record = GameRecord(
        id=None, white="Fred", black="Joe", white_rating=0, black_rating=0, wild=27,
        rating_type="Wild", rated=False, initial=3, increment=0, start_fen=None,
        moves=("e4", "d5", "exd5"), clocks=(180_000,) * 3, times=(0,) * 3, status=None,
        mode=None, color=None, score="*", eco="?", white_clock=180_000, black_clock=180_000,
        started=datetime(2024, 5, 17, 21, 4, 5, tzinfo=UTC), ended=None,
    )  # fmt: skip
    store = server.store
    game_id = await asyncio.to_thread(store.start_game, record)
    await asyncio.to_thread(
        store.finish_game, game_id, ResultStatus.WIN, 0, 0, "1-0", "?", 180_000, 180_000
    )
    wanted = (
        DG.ISOLATED_BOARD, DG.MY_GAME_STARTED, DG.MOVE_LIST, DG.SEND_MOVES, DG.SET_BOARD,
        DG.BACKWARD,
    )  # fmt: skip
    lister = await user(server, "Lister", *wanted)
    after = new_board("icc-atomic")
    for square in (chess.D7, chess.E2):  # the two pawns that met on d5 went up
        after.remove_piece_at(square)
    exploded = board_to_64(after)
    for command in (f"smoves #{game_id}", f"sposition #{game_id}"):
        events = await lister.command(command)
        [peek] = grams(events, DG.ISOLATED_BOARD)
        assert flags(peek) == (True, True, False, False)
        assert [(e.board, e.side_to_move) for e in grams(events, DG.SET_BOARD)] == [(exploded, "B")]
    events = await lister.command(f"examine #{game_id}")
    [mine] = grams(events, DG.MY_GAME_STARTED)
    assert flags(mine) == (True, True, False, False)
    [begun] = grams(events, DG.SET_BOARD)  # examining starts at the game's start
    assert (begun.board, begun.side_to_move) == (board_to_64(new_board("icc-atomic")), "W")
    events = await lister.command("forward 3")
    assert [(e.board, e.side_to_move) for e in grams(events, DG.SET_BOARD)] == [(exploded, "B")]
    events = await lister.command("backward 1")
    assert [e.side_to_move for e in grams(events, DG.SET_BOARD)] == ["W"]
