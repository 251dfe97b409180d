"""Openings on the server (issues 22 and 23), end to end with users connected in memory:
a finished game's ECO code from lichess's table in DG_GAME_RESULT (13), DG_MY_GAME_RESULT
(16), the stored game, ``search eco=`` and the PGN tags; and the ``eco`` command's texts
for FICS and ICC sessions."""

from __future__ import annotations

import asyncio
import io

import chess.pgn

from icswire.boards.variants import variant_of
from icswire.protocol.datagrams import DG
from icswire.server.app import Server
from icswire.server.core.model.tables import Terms

from .client import Client
from .support import guest as user
from .support import start_game, texts

NAJDORF = ["e4", "c5", "Nf3", "d6", "d4", "cxd4", "Nxd4", "Nf6", "Nc3", "a6"]
#: 1. c4 e6 2. Nc3 d5 3. d4: the table's 1. d4 d5 2. c4 e6 3. Nc3 by transposition.
TRANSPOSED = ["c4", "e6", "Nc3", "d5", "d4"]
QGD_NAME = "Queen's Gambit Declined: Queen's Knight Variation"


async def play(white: Client, black: Client, moves: list[str]) -> None:
    for ply, san in enumerate(moves):
        mover = white if ply % 2 == 0 else black
        await mover.send(san)
        await mover.settle()
    await white.settle()
    await black.settle()


async def test_a_finished_game_has_its_eco_sent_stored_searched_and_tagged(
    server: Server,
) -> None:
    alice = await user(server, "Alice", grams=(DG.MY_GAME_RESULT,))
    boris = await user(server, "Boris", "set style 12")
    outsider = await user(server, "Outsider", grams=(DG.GAME_RESULT,))
    game = await start_game(server, "Alice", "Boris", Terms(initial=5))
    await play(alice, boris, NAJDORF)
    await alice.send("resign")
    mine = await alice.expect_dg(DG.MY_GAME_RESULT)
    assert (mine.score, mine.eco) == ("0-1", "B90")
    theirs = await outsider.expect_dg(DG.GAME_RESULT)
    assert (theirs.gamenumber, theirs.eco) == (mine.gamenumber, "B90")
    await server.games.flush()
    stored = await asyncio.to_thread(server.store.game, game.game_id)
    assert stored is not None and stored.eco == "B90"

    found = texts(await outsider.command("search alice eco=B9"))
    assert any("B90" in line for line in found), found
    missing = texts(await outsider.command("search alice eco=C"))
    assert not any("B90" in line for line in missing), missing

    pgn = "\n".join(texts(await outsider.command(f"spgn #{game.game_id}")))
    read = chess.pgn.read_game(io.StringIO(pgn))
    assert read is not None
    assert read.headers["ECO"] == "B90"
    assert read.headers["Opening"] == "Sicilian Defense: Najdorf Variation"
    assert [m.uci() for m in read.mainline_moves()][:2] == ["e2e4", "c7c5"]


async def test_eco_for_fics_and_icc_sessions(server: Server) -> None:
    alice = await user(server, "Alice", grams=(DG.MY_GAME_RESULT,))
    boris = await user(server, "Boris", "set style 12")
    fics = await user(server, "Ficser")
    assert texts(await fics.command("eco")) == [
        "You are not playing, examining or observing a game."
    ]
    await start_game(server, "Alice", "Boris", Terms(initial=5))
    await alice.settle()
    await boris.settle()
    assert texts(await boris.command("eco")) == [
        "Eco for game 1 (Alice vs. Boris):",
        " ECO[  0]: A00",
        " NIC[  0]: ---",
        "LONG[  0]: ---",
    ]
    await play(alice, boris, TRANSPOSED)
    fics_answer = [
        "Eco for game 1 (Alice vs. Boris):",
        " ECO[  5]: D31",
        " NIC[  0]: ---",
        f"LONG[  5]: {QGD_NAME}",
    ]
    assert texts(await boris.command("eco")) == fics_answer
    assert texts(await fics.command("eco 1")) == fics_answer
    assert texts(await fics.command("eco alice")) == fics_answer
    assert texts(await alice.command("eco")) == [f"Game 1 (Alice vs. Boris): D31 {QGD_NAME}"]
    assert texts(await fics.command("eco 7")) == ["There is no such game."]

    pgn = "\n".join(texts(await fics.command("pgn 1")))
    read = chess.pgn.read_game(io.StringIO(pgn))
    assert read is not None
    assert (read.headers["ECO"], read.headers["Opening"]) == ("D31", QGD_NAME)


async def test_eco_of_an_eco_code_and_the_refusals(server: Server) -> None:
    fics = await user(server, "Ficser")
    icc = await user(server, "Iccer", grams=(DG.GAME_RESULT,))
    listed = texts(await fics.command("eco e c42"))  # each after a blank line
    assert listed[:4] == [
        "  ECO: C42",
        "  NIC: ---",
        " LONG: Petrov's Defense",
        "  FEN: rnbqkb1r/pppp1ppp/5n2/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
    ]
    assert texts(await icc.command("eco e C42"))[0] == ("C42 Petrov's Defense: 1. e4 e5 2. Nf3 Nf6")
    assert texts(await fics.command("eco e Z99")) == [
        "Usage: eco [game number|name] | eco e <ECO code> (A00 to E99)"
    ]
    assert texts(await fics.command("eco n QP.08")) == [
        "There are no NIC codes on this server; try eco e <ECO code>."
    ]


async def test_a_wild_game_has_no_opening(server: Server) -> None:
    alice = await user(server, "Alice", grams=(DG.MY_GAME_RESULT,))
    await user(server, "Boris", "set style 12")
    await start_game(server, "Alice", "Boris", Terms.of(variant_of(22), False, 5, 0))
    await alice.settle()
    assert texts(await alice.command("eco")) == ["That game is a wild game."]
    await alice.send("abort")
    result = await alice.expect_dg(DG.MY_GAME_RESULT)
    assert result.eco == "?"


async def test_eco_of_an_examined_game_follows_the_position_shown(server: Server) -> None:
    coach = await user(server, "Coach", "set style 12")
    watcher = await user(server, "Watcher", grams=(DG.GAME_RESULT,))
    await coach.command("examine")
    for san in ("e4", "c5", "Nf3"):
        await coach.command(san)
    assert texts(await coach.command("eco"))[1:] == [
        " ECO[  3]: B27",
        " NIC[  0]: ---",
        "LONG[  3]: Sicilian Defense",
    ]
    await coach.command("backward 1")
    await watcher.command("observe coach")
    assert texts(await watcher.command("eco")) == ["Game 1 (Coach vs. Coach): B20 Sicilian Defense"]
