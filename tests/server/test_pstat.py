"""``pstat [p1 [p2]]`` (icc-formats.txt, DG_PSTAT 142 and CN_PSTAT 291): the record of one
player against another, as DG_PSTAT with initiated 1 for ICC clients and as text."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime

from icswire.protocol.codes import ResultStatus
from icswire.protocol.datagrams import DG, PstatRecord
from icswire.protocol.level1 import CommandNumber as CN
from icswire.server.app import Server
from icswire.server.core.model.tables import Terms
from icswire.server.core.render.batch import Batch
from icswire.server.core.storage.records import GameRecord

from .client import Client
from .support import bits, connect, grams, texts


async def stored(
    server: Server, white: str, black: str, kind: str, rated: bool, score: str
) -> None:
    """A finished game of ``white`` against ``black`` in the store."""
    record = GameRecord(
        id=None, white=white, black=black, white_rating=0, black_rating=0, wild=0,
        rating_type=kind, rated=rated, initial=3, increment=0, start_fen=None,
        moves=("e4",), clocks=(180_000,), times=(0,), status=None, mode=None, color=None,
        score="*", eco="?", white_clock=180_000, black_clock=180_000,
        started=datetime(2024, 5, 17, 21, 4, 5, tzinfo=UTC), ended=None,
    )  # fmt: skip
    game_id = await asyncio.to_thread(server.store.start_game, record)
    status = ResultStatus.DRAW if score == "1/2-1/2" else ResultStatus.WIN
    loser = 0 if score == "1-0" else 1
    await asyncio.to_thread(
        server.store.finish_game, game_id, status, 0, loser, score, "?", 180_000, 180_000
    )


async def user(server: Server, name: str, *datagrams: int) -> Client:
    client = await connect(server, datagrams)
    await asyncio.to_thread(server.store.add_user, name, "pw")
    setup = (f"level2settings={bits(*datagrams)}",) if datagrams else ()
    await client.login(name, "pw", *setup)
    await client.settle()
    return client


async def test_pstat_sends_the_record_by_rating_type_and_colour(server: Server) -> None:
    await stored(server, "Alice", "Bob", "Blitz", True, "1-0")
    await stored(server, "Bob", "Alice", "Blitz", False, "1/2-1/2")
    await stored(server, "Alice", "Bob", "Bullet", True, "0-1")
    await stored(server, "Alice", "Carol", "Blitz", True, "1-0")  # not between them
    await asyncio.to_thread(server.store.add_user, "Bob", "pw")  # offline: his account
    alice = await user(server, "Alice", DG.PSTAT)
    events = await alice.command("pstat bob")
    [record] = grams(events, DG.PSTAT)
    assert (record.initiated, record.p1, record.p2) == (1, "Alice", "Bob")
    # Blitz (1): won as White, drew as Black; Bullet (3): lost as White
    assert record.records == (PstatRecord(1, 0, 0, 0, 0, 1, 1), PstatRecord(0, 1, 0, 0, 0, 0, 3))
    assert texts(events) == [
        "Record for Alice vs. Bob:",
        "                            wins     losses     draws",
        "                rated          1          1         0",
        "              unrated          0          0         1",
    ]
    # the receiver is p1 when it is one of the two; else the first name is
    [mine] = grams(await alice.command("pstat bob alice"), DG.PSTAT)
    assert (mine.p1, mine.p2) == ("Alice", "Bob")
    carol = await user(server, "Carol", DG.PSTAT)
    [theirs] = grams(await carol.command("pstat bob alice"), DG.PSTAT)
    assert (theirs.p1, theirs.p2, theirs.records[0]) == ("Bob", "Alice", (0, 0, 1, 0, 1, 0, 1))
    await user(server, "Dave")
    [never] = grams(await alice.command("pstat dave"), DG.PSTAT)
    assert never.records == ()  # they never met: no rating record


async def test_pstat_errors_send_no_datagram(server: Server) -> None:
    alice = await user(server, "Alice", DG.PSTAT)
    for line, said in (
        ("pstat nobody", 'No user named "nobody" is logged in.'),
        ("pstat alice", "You have not played against yourself ;-)"),
        ("pstat", "You are not playing a game."),
        ("pstat a b c", "Usage: pstat [player1 [player2]]"),
    ):
        events = await alice.command(line)
        assert texts(events) == [said] and not grams(events, DG.PSTAT), line


async def test_pstat_alone_is_against_the_opponent_for_a_fics_user(server: Server) -> None:
    await stored(server, "Bob", "Alice", "Blitz", True, "0-1")
    alice = await user(server, "Alice")
    await user(server, "Bob")
    online = server.world.online
    batch = Batch(CN.CN_MATCH, None)
    await server.games.start(online["alice"], online["bob"], Terms(initial=5), batch)
    batch.flush()
    await alice.settle()
    said = texts(await alice.command("pstat"))
    assert said[0] == "Record for Alice vs. Bob:"
    assert said[2] == "                rated          1          0         0"
