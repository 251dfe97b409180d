"""A private game (``set private 1``) is its players' and the administrators' to read,
by number or id as much as by name.

``observe`` refused it, but ``smoves #1``, ``sposition #1`` and ``examine #1`` read the
stored row of the game in progress (ids are sequential), and once it ended anybody could
read it from its players' history or a journal it was saved in. FICS refuses ``smoves``,
``sposition`` and ``moves`` of it with "Sorry, that is a private game.", ``observe`` and
``refresh`` with "Sorry, game N is a private game.", and lets administrators see it.
"""

from __future__ import annotations

import asyncio
import re

from icswire.server.app import Server

from .client import Client
from .support import connect, texts, until

PRIVATE = "Sorry, that is a private game."
GAME_1 = "Sorry, game 1 is a private game."


async def member(server: Server, name: str, admin: bool = False) -> Client:
    await asyncio.to_thread(server.store.add_user, name, "pw")
    if admin:
        await asyncio.to_thread(server.store.set_admin, name, True)
    client = await connect(server)
    await client.login(name, "pw")
    await client.command("set style 13")  # replies only, no board lines
    return client


async def game_between(server: Server, white: Client, black: Client) -> None:
    await white.command(f"match {black.name} 5 0 white")
    await black.command("accept")
    await white.expect_text("Creating: ")
    await white.command("e4")
    await black.command("e5")
    await until(lambda: (g := server.store.game(1)) is not None and len(g.moves) == 2)


async def said(client: Client, line: str) -> list[str]:
    """The text answer to ``line`` (what came before it read first)."""
    await client.settle()
    return texts(await client.command(line))


async def test_a_private_game_in_progress_is_not_read_by_number(server: Server) -> None:
    ann, bob, eve = [await member(server, name) for name in ("Ann", "Bob", "Eve")]
    boss = await member(server, "Boss", admin=True)
    await ann.command("set private 1")
    await game_between(server, ann, bob)
    for line in ("smoves #1", "sposition #1", "examine #1", "moves 1", "moves Ann"):
        assert await said(eve, line) == [PRIVATE], line
    for line in ("observe 1", "refresh 1", "allobservers 1", "observe Bob"):
        assert await said(eve, line) == [GAME_1], line
    # FICS lists it all the same, flagged "p" (FICS help games, private)
    row, count = await said(eve, "games")
    assert re.fullmatch(
        r"  1 ---- Ann         ---- Bob        \[pbu  5   0\]   [45]:\d\d -  "
        r"[45]:\d\d \(39-39\) W:  2",
        row,
    ), row
    assert count == "  1 game displayed."
    assert await said(eve, "allobservers") == ["No games are being observed."]
    assert not any("e4" in line for line in texts(eve.events))
    # its players read it; so does an administrator, as in FICS
    assert any(line.startswith("  1.  e4") for line in await said(bob, "smoves #1"))
    assert any(line.startswith("  1.  e4") for line in await said(boss, "smoves #1"))
    assert any(line.startswith("  1.  e4") for line in await said(boss, "moves 1"))
    assert await said(boss, "observe 1") == [
        "You are now observing game 1.",
        "Game 1: Ann (----) Bob (----) unrated blitz 5 0",
    ]
    assert (await said(boss, "games"))[0].startswith("  1 ")


async def test_a_private_game_stays_private_once_stored(server: Server) -> None:
    ann, bob, eve = [await member(server, name) for name in ("Ann", "Bob", "Eve")]
    await bob.command("set private 1")
    await game_between(server, ann, bob)
    await ann.command("resign")
    await until(lambda: (g := server.store.game(1)) is not None and g.status is not None)
    assert (await said(bob, "jsave a Ann 0")) == ["Game Ann 0 saved in slot A in journal."]
    for line in ("smoves Ann", "smoves Bob 0", "sposition Ann -1", "examine Ann 0", "smoves #1"):
        assert await said(eve, line) == [PRIVATE], line
    assert await said(eve, "smoves Bob %a") == [PRIVATE]  # a journal shows it no more
    assert await said(eve, "examine Bob %a") == [PRIVATE]
    assert any(line.startswith("  1.  e4") for line in await said(ann, "smoves Bob %a"))
    assert (await said(ann, "examine #1"))[0].startswith("Starting game 1 in examine mode")


async def test_a_game_nobody_made_private_is_anybodys_to_read(server: Server) -> None:
    ann, bob, eve = [await member(server, name) for name in ("Ann", "Bob", "Eve")]
    await game_between(server, ann, bob)
    assert any(line.startswith("  1.  e4") for line in await said(eve, "smoves #1"))
    assert (await said(eve, "observe 1"))[0] == "You are now observing game 1."
