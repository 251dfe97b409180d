"""What the server acknowledged survives a SIGKILL: the write journal, end to end.

A real ``python -m icswire serve`` process is killed (SIGKILL) right after a client got
the acknowledgement (the opponent's board of a move, the result line of a resignation, the
confirmation of a message or a note), or while the SQLite database is locked by another
connection so that nothing could be written; after a restart, everything is in the
database: every ply, the result and both ratings, the message, the note.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path

import pytest

from icswire.protocol.datagrams import DG
from icswire.server.core.storage.store import SQLITE_FILE, Store, database_url
from icswire.server.core.storage.writelog import JOURNAL_FILE

from .client import Client
from .support import bits, locked
from .test_crash import ServerProcess

pytestmark = pytest.mark.sockets

WANTED = (15, 16, 24, 33)
#: Knights out and back: a game as long as a test wants (nobody claims the repetition).
SHUFFLE = ["Nf3", "Nf6", "Ng1", "Ng8"]
NAMES = ("Killa", "Killb", "Killc", "Killd")


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerProcess]:
    process = ServerProcess(tmp_path / "data")
    with Store(database_url(process.data_dir, None)) as store:
        for name in NAMES:
            store.add_user(name, "pw")
    process.start()
    yield process
    process.stop()


async def login(server: ServerProcess, name: str) -> Client:
    client = await Client.connect(server.port, WANTED)
    await client.login(name, "pw", f"level2settings={bits(*WANTED)}")
    return client


async def pair(a: Client, b: Client) -> tuple[Client, Client]:
    """A challenges B to a rated blitz game; returns (white, black)."""
    await a.send(f"match {b.name} 5 0 rated white")
    await b.expect_text(f"Challenge: {a.name}")
    await b.send(f"accept {a.name}")
    await a.expect_dg(DG.MY_GAME_STARTED)
    return a, b


async def play(white: Client, black: Client, plies: int, first: int = 0) -> list[str]:
    """``plies`` moves of the shuffle, each acknowledged: the opponent got it."""
    moves = [SHUFFLE[ply % 4] for ply in range(first, first + plies)]
    for ply, san in enumerate(moves, first):
        mover, other = (white, black) if ply % 2 == 0 else (black, white)
        await mover.send(san)
        await other.expect_dg(DG.SEND_MOVES, algebraic=san)
    return moves


def shuffle(plies: int) -> tuple[str, ...]:
    return tuple(SHUFFLE[ply % 4] for ply in range(plies))


async def close(*clients: Client) -> None:
    for client in clients:
        with contextlib.suppress(OSError):
            await client.close()


async def test_a_move_acknowledged_and_killed_at_once_is_kept(server: ServerProcess) -> None:
    white, black = await pair(await login(server, "Killa"), await login(server, "Killb"))
    await play(white, black, 41)
    server.kill()  # at once: the opponent has just seen ply 41
    await close(white, black)

    server.start()
    with Store(database_url(server.data_dir, None)) as store:
        (adjourned,) = store.adjourned("Killa")
    assert adjourned.moves == shuffle(41)


async def test_a_resignation_acknowledged_and_killed_at_once_is_in_the_history_rated(
    server: ServerProcess,
) -> None:
    white, black = await pair(await login(server, "Killa"), await login(server, "Killb"))
    await play(white, black, 10)
    await white.send("resign")
    await white.expect_dg(DG.MY_GAME_RESULT, score="0-1")
    server.kill()  # at once: White has just been told the result
    await close(white, black)

    server.start()
    with Store(database_url(server.data_dir, None)) as store:
        (game,) = store.history("Killa")
        assert (game.moves, game.status, game.score) == (shuffle(10), 0, "0-1")
        assert store.adjourned("Killa") == []
        for name, wins in (("Killa", 0), ("Killb", 1)):
            rating = store.rating(name, "Blitz")
            assert (rating.games, rating.wins) == (1, wins)


async def test_a_message_and_a_note_confirmed_and_killed_at_once_are_kept(
    server: ServerProcess,
) -> None:
    white, black = await pair(await login(server, "Killa"), await login(server, "Killb"))
    await play(white, black, 4)
    await black.send("set 2 noted just before the crash")
    await black.expect_text("Note 2 set: noted just before the crash")
    await play(white, black, 1, first=4)  # the game's save holds the queue a tick
    await white.send("message killc the journal keeps this")
    await white.expect_text("The following message was sent to Killc:")
    server.kill()  # at once: Killa has just been told the message was sent
    await close(white, black)

    server.start()
    with Store(database_url(server.data_dir, None)) as store:
        (message,) = store.messages("Killc")
        assert (message.sender, message.text) == ("Killa", "the journal keeps this")
        account = store.load("Killb")
        assert account is not None and account.settings["2"] == "noted just before the crash"


async def locked_and_killed(server: ServerProcess) -> None:
    """Two games, a note and a channel: everything after the first plies is acknowledged
    while the database is locked, then the server is killed. (A message is not taken
    then: finding its receiver reads the database, and the sender is told to try again.)"""
    a, b, c, d = [await login(server, name) for name in NAMES]
    first = await pair(a, b)
    second = await pair(c, d)
    await play(*first, 2)
    await play(*second, 2)
    with locked(server.data_dir / SQLITE_FILE):
        await play(*first, 12, first=2)
        await play(*second, 4, first=2)
        await c.send("resign")
        await c.expect_dg(DG.MY_GAME_RESULT, score="0-1")
        await b.send("set 1 a note kept through a crash")
        await b.expect_text("Note 1 set: a note kept through a crash")
        await d.send("+channel 50")
        await d.expect_text("[50] added to your channel list.")
        server.kill()
    await close(a, b, c, d)


def assert_all_kept(data_dir: Path) -> None:
    with Store(database_url(data_dir, None)) as store:
        (adjourned,) = store.adjourned("Killa")
        assert adjourned.moves == shuffle(14)
        (ended,) = store.history("Killc")
        assert (ended.moves, ended.status, ended.score) == (shuffle(6), 0, "0-1")
        for name, wins in (("Killc", 0), ("Killd", 1)):
            rating = store.rating(name, "Blitz")
            assert (rating.games, rating.wins) == (1, wins)
        account = store.load("Killb")
        assert account is not None and account.settings["1"] == "a note kept through a crash"
        account = store.load("Killd")
        assert account is not None and 50 in account.channels


async def test_what_was_acknowledged_while_the_database_was_locked_survives_a_sigkill(
    server: ServerProcess,
) -> None:
    await locked_and_killed(server)
    server.start()
    assert_all_kept(server.data_dir)


async def test_a_torn_last_line_of_the_journal_is_skipped(server: ServerProcess) -> None:
    await locked_and_killed(server)
    with (server.data_dir / JOURNAL_FILE).open("a") as journal:
        journal.write('{"n": 1000, "kind": "progress", "args": [1, "Nf3 Nf')  # cut short
    server.start()
    assert_all_kept(server.data_dir)
    assert (server.data_dir / JOURNAL_FILE).stat().st_size == 0  # all written: emptied
