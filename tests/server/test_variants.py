"""Variants on the server, end to end over real sockets: the spellings ``seek`` and
``match`` take, the variant's type, wild number and rating type in texts and datagrams,
random legal games equal to python-chess's replay of the same moves, the ends each
variant has, and DG_ILLEGAL_MOVE's reasons for what a variant forbids."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import chess
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from icswire.boards.moves import san_from_move
from icswire.boards.positions import board_from_style12
from icswire.boards.variants import Variant, variant_from_spelling
from icswire.protocol.datagrams import DG
from icswire.protocol.events import BughouseLine, Style12Line, Text
from icswire.server.app import Server
from icswire.server.core.diagrams import holding_text
from icswire.server.core.store import Store
from icswire.server.features.play.endings import ending

from .client import Client

#: A spelling of every variant played (FICS's words, ICC's numbers) and the game type
#: FICS's texts give it.
SPELLINGS = {
    "wild 0": "wild/0",
    "wild 1": "wild/1",
    "wild/2": "wild/2",
    "w3": "wild/3",
    "wild 4": "wild/4",
    "w5": "wild/5",
    "w7": "w7",
    "wild 8": "wild/8",
    "wild 8a": "wild/8a",
    "wild fr": "wild/fr",
    "crazyhouse": "crazyhouse",
    "suicide": "suicide",
    "losers": "losers",
    "atomic": "atomic",
    "giveaway": "w26",
    "w25": "w25",
    "w27": "w27",
}
MAX_PLIES = 400
#: Ends python-chess sees that the players claim here, as in chess.
CLAIMED = (chess.Termination.SEVENTYFIVE_MOVES, chess.Termination.FIVEFOLD_REPETITION)


@pytest.fixture
async def server(database_url: str) -> AsyncIterator[Server]:
    store = Store(database_url)
    running = Server(store, "127.0.0.1", 0)
    await running.start()
    yield running
    await running.stop()
    store.close()


def bits(*numbers: int) -> str:
    return "".join("1" if n in numbers else "0" for n in range(max(numbers) + 1))


async def player(server: Server, name: str, *datagrams: int) -> Client:
    client = await Client.connect(server.port, datagrams)
    setup = [f"level2settings={bits(*datagrams)}"] if datagrams else []
    await client.login(name, None, *setup)
    await client.command("set style 12")
    return client


def is_text(text: str) -> Any:
    return lambda e: isinstance(e, Text) and e.text == text


async def next_board(client: Client, variant: Variant) -> tuple[Any, chess.Board]:
    """The next style 12 line (with its ``<b1>`` line for a game with holdings) and the
    position it shows."""
    line = (await client.expect(lambda e: isinstance(e, Style12Line))).record
    holdings = None
    if hasattr(variant.new_board(), "pockets"):
        holdings = (await client.expect(lambda e: isinstance(e, BughouseLine))).record
    return line, board_from_style12(line, variant, holdings)


def same_position(shown: chess.Board, mine: chess.Board) -> bool:
    """The position, side to move, castling, en passant and holdings agree."""
    return (
        shown.board_fen(promoted=False) == mine.board_fen(promoted=False)  # style 12 has no ~
        and shown.turn == mine.turn
        and shown.clean_castling_rights() == mine.clean_castling_rights()
        and shown.ep_square == mine.ep_square
        and all(
            holding_text(shown, c) == holding_text(mine, c)
            for c in chess.COLORS
            if hasattr(mine, "pockets")
        )
    )


async def random_game(server: Server, spelling: str, seed: int) -> None:
    """Alpha and Beta play random legal moves of ``spelling``'s variant; each board the
    server sends equals python-chess's, the end is the one python-chess sees, and the
    stored game replays to the same position."""
    rng = random.Random(seed)
    variant = variant_from_spelling(spelling)
    alpha, beta = await player(server, "Alpha"), await player(server, "Beta")
    await alpha.command(f"match Beta 2 0 white {spelling}")
    await beta.command("accept")
    fics_type = SPELLINGS[spelling]
    created = await alpha.expect(lambda e: isinstance(e, Text) and "Creating unrated" in e.text)
    assert created.text.endswith(f"Creating unrated {fics_type} match.}}")
    _, board = await next_board(alpha, variant)
    await next_board(beta, variant)
    clients = {chess.WHITE: alpha, chess.BLACK: beta}
    sans: list[str] = []
    result = None
    for _ in range(MAX_PLIES):
        mover = clients[board.turn]
        move = rng.choice(list(board.legal_moves))
        san = san_from_move(board, move)
        typed = move.uci() if rng.random() < 0.3 and not move.drop else san
        if board.is_castling(move):
            typed = san  # O-O: the coordinates of a wild's castling vary by client
        board.push(move)
        sans.append(san)
        await mover.send(typed)
        for client in (alpha, beta):  # each sees the same board
            line, shown = await next_board(client, variant)
            assert line.pretty_move.rstrip("+#") == san.rstrip("+#"), (typed, line.pretty_move)
            assert same_position(shown, board), (sans, shown.fen(), board.fen())
        over = board.outcome()
        if over is not None and over.termination not in CLAIMED:
            result = await mover.expect(lambda e: isinstance(e, Text) and e.text.startswith("{"))
            break
    if result is None:
        await clients[board.turn].send("resign")
        result = await alpha.expect(lambda e: isinstance(e, Text) and e.text.startswith("{"))
        score = "0-1" if board.turn == chess.WHITE else "1-0"
    else:
        outcome, end = board.outcome(), ending(board)
        assert outcome is not None and end is not None
        score = outcome.result()
        if end.text is not None:  # a variant's own end, in its words
            words = end.text.replace("White", "Alpha").replace("Black", "Beta")
            assert result.text == f"{{Game 1 (Alpha vs. Beta) {words}}} {score}"
    assert result.text.endswith(f" {score}"), (result.text, board.fen())
    await server.core.play.flush()
    record = (await asyncio.to_thread(server.store.history, "Alpha", 1))[-1]
    assert list(record.moves) == sans
    assert record.game_variant is variant and record.score == score
    replayed = variant.new_board(fen=record.start_fen)
    for san in record.moves:
        replayed.push_san(san)
    assert replayed.fen() == board.fen()
    for client in (alpha, beta):
        assert not client.errors()
        await client.close()


@pytest.mark.parametrize("spelling", SPELLINGS)
@settings(
    max_examples=2,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(seed=st.integers(0, 2**32 - 1))
def test_random_games_equal_python_chess(
    database_url: str, tmp_path: Path, spelling: str, seed: int
) -> None:
    async def run() -> None:
        store = Store(database_url)
        server = Server(store, "127.0.0.1", 0)
        await server.start()
        try:
            await random_game(server, spelling, seed)
        finally:
            await server.stop()
            store.close()

    asyncio.run(run())
