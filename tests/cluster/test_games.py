"""A game between users of two nodes, observed from a third, as on one server."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from icswire.protocol.datagrams import DG
from icswire.protocol.events import Style12Line
from icswire.server.app import Server
from icswire.server.core.storage import store
from tests.cluster.support import board_stream, online_everywhere
from tests.server.client import Client

SCHOLARS_MATE = ("e4", "e5", "Bc4", "Nc6", "Qh5", "Nf6", "Qxf7#")
#: What the ICC observer turns on: DG_SEND_MOVES with its algebraic and smith parts.
ICC_OBSERVER = (DG.SEND_MOVES, DG.MOVE_ALGEBRAIC, DG.MOVE_SMITH)


async def play_observed_game(
    ports: tuple[int, int, int], wait: Any, started: Any
) -> list[list[Any]]:
    """Ann (white) plays Bob, Cid (style 12) and Dan (an ICC client: DG_SEND_MOVES with
    its algebraic and smith parts, style 13) observe from the third port; the four
    clients' streams from the match on. ``wait`` is awaited once all are logged in,
    ``started`` called once the game is."""
    ann, bob, cid = [await Client.connect(port) for port in ports]
    dan = await Client.connect(ports[2], ICC_OBSERVER)
    for client, name in ((ann, "Ann"), (bob, "Bob"), (cid, "Cid")):
        await client.login(name)
        await client.command("set style 12")
    on = "".join("1" if n in ICC_OBSERVER else "0" for n in range(max(ICC_OBSERVER) + 1))
    await dan.login("Dan", None, f"level2settings={on}")
    await dan.command("set style 13")
    await wait()
    clients = (ann, bob, cid, dan)
    starts = [len(client.events) for client in clients]
    await ann.send("match Bob 5 0 white")
    await bob.expect_text("Challenge: Ann")
    await bob.send("accept")
    for client in (ann, bob):
        await client.expect(lambda e: isinstance(e, Style12Line))
    started()
    await cid.send("observe 1")
    await cid.expect(lambda e: isinstance(e, Style12Line))
    await dan.command("observe 1")
    for ply, move in enumerate(SCHOLARS_MATE):
        await (ann if ply % 2 == 0 else bob).send(move)
        for client in (ann, bob, cid):
            await client.expect(
                lambda e, n=ply + 1: (
                    isinstance(e, Style12Line)
                    and 2 * (e.record.move_number - 1) + (e.record.side_to_move == "B") == n
                )
            )
    for client in clients:
        await client.expect_text("{Game 1 (Ann vs. Bob) Bob checkmated} 1-0")
        await client.settle(0.3)
    streams = [board_stream(c.events[start:]) for c, start in zip(clients, starts, strict=True)]
    for client in clients:
        await client.close()
    return streams


async def test_a_game_across_nodes_reads_as_on_one_server(
    nodes: list[Server], tmp_path: Path
) -> None:
    a, b, c = nodes

    async def everywhere() -> None:
        await online_everywhere(nodes, "Ann", "Bob", "Cid")

    def on_bobs_node() -> None:  # the offer, so the game, lives with who answers it
        assert list(b.games.by_number) == [1] and not a.games.by_number

    cluster = await play_observed_game((a.port, b.port, c.port), everywhere, on_bobs_node)
    data = store.Store(store.database_url(tmp_path / "single", None))
    single_server = Server(data, "127.0.0.1", 0)
    await single_server.start()

    async def nothing() -> None:
        pass

    try:
        port = single_server.port
        single = await play_observed_game((port, port, port), nothing, lambda: None)
    finally:
        await single_server.stop()
        data.close()
    for name, on_cluster, on_one in zip(("Ann", "Bob", "Cid", "Dan"), cluster, single, strict=True):
        assert on_cluster == on_one, name
    boards = [e for e in cluster[2] if not isinstance(e, str)]
    assert len(boards) == len(SCHOLARS_MATE) + 1  # the board at observe, then each move
    moves = [e for e in cluster[3] if getattr(e, "dg", None) == DG.SEND_MOVES]
    assert [m.algebraic for m in moves] == list(SCHOLARS_MATE)
