"""The rating DGs (3-7, 88, 121, 125, 126, 140, 145, 149-151) and DG_NEW_MY_RATING (87)
carry the players' real ratings, whether a game's end sends them or turning them on
lists them (icc-formats.txt, DG_BULLET and DG_NEW_MY_RATING)."""

from __future__ import annotations

import asyncio

from icswire.protocol.datagrams import DG
from icswire.protocol.level1 import CommandNumber as CN
from icswire.server.app import Server
from icswire.server.core.model.tables import Terms
from icswire.server.core.render.batch import Batch

from .client import Client
from .support import bits, connect, grams

FOOLS_MATE = ["f3", "e5", "g4", "Qh4#"]


async def rated_blitz_game(server: Server) -> tuple[Client, Client]:
    """Whitey (registered) is mated by Blacky (registered) in a rated blitz game."""
    for name in ("Whitey", "Blacky"):
        await asyncio.to_thread(server.store.add_user, name, "pw")
    white, black = await connect(server), await connect(server)
    await white.login("Whitey", "pw")
    await black.login("Blacky", "pw")
    online = server.world.online
    batch = Batch(CN.CN_MATCH, None)
    terms = Terms(rated=True, initial=5, rating_type="Blitz")
    await server.games.start(online["whitey"], online["blacky"], terms, batch)
    batch.flush()
    for ply, san in enumerate(FOOLS_MATE):
        mover = white if ply % 2 == 0 else black
        await mover.send(san)
        await mover.settle()
    await black.expect_text("Blitz rating adjustment: 0 --> ")
    await white.settle()
    await black.settle()
    return white, black


async def test_turning_a_rating_dg_on_lists_the_real_ratings(server: Server) -> None:
    await rated_blitz_game(server)
    blitz = {
        name: server.world.online[name.lower()].ratings["Blitz"] for name in ("Whitey", "Blacky")
    }
    assert blitz["Blacky"][0] > 1500 > blitz["Whitey"][0]
    guest = await connect(server)
    await guest.login("Visitor")
    watcher = await connect(server, (DG.PLAYER_ARRIVED, DG.SET2))
    await watcher.login("Watcher", None, f"level2settings={bits(DG.PLAYER_ARRIVED, DG.SET2)}")
    await watcher.settle()
    for number in (DG.BLITZ, DG.FIVEMINUTE):
        await watcher.send(f"set-2 {number} 1")
        watcher.decoder.set_datagrams((DG.PLAYER_ARRIVED, DG.SET2, number))
        await watcher.expect_dg(DG.SET2, dg_code=number, on=True)
    await watcher.settle()
    listed = {e.playername: (e.rating, e.annotation) for e in watcher.received(DG.BLITZ)}
    # a provisional rating after one game (annotation 1); guests get no rating DG
    assert listed == {name: (rating, 1) for name, (rating, _) in blitz.items()}
    # a type the server never rates: each registered player has none in it (0 0)
    unrated = {e.playername: (e.rating, e.annotation) for e in watcher.received(DG.FIVEMINUTE)}
    assert unrated == {"Blacky": (0, 0), "Whitey": (0, 0)}
    assert not watcher.errors()


async def test_new_my_rating_turned_on_gives_my_ratings(server: Server) -> None:
    white, _ = await rated_blitz_game(server)
    [mine] = grams(await white.command(f"set-2 {DG.NEW_MY_RATING} 1"), DG.NEW_MY_RATING)
    blitz = server.world.online["whitey"].ratings["Blitz"][0]
    assert mine.ratings[:3] == (0, blitz, 0)  # Wild, Blitz, Standard (DG_RATING_TYPE_KEY)
    guest = await connect(server)
    await guest.login("Visitor")
    [theirs] = grams(await guest.command(f"set-2 {DG.NEW_MY_RATING} 1"), DG.NEW_MY_RATING)
    assert set(theirs.ratings) == {-1}  # unregistered


async def test_my_rating_turned_on_and_after_a_rated_game(server: Server) -> None:
    """DG_MY_RATING (52): "(bullet-rating blitz-rating standard-rating wild-rating
    bughouse-rating) Your ratings. -1 if unregistered, 0 if registered but played no
    games. Sent when turned on, and when rating changes."""
    await asyncio.to_thread(server.store.add_user, "Newcomer", "pw")
    early = await connect(server, (DG.MY_RATING,))
    await early.login("Newcomer", "pw", f"level2settings={bits(DG.MY_RATING)}")
    await early.settle()
    [at_login] = early.received(DG.MY_RATING)  # on from the login: turned on then
    assert tuple(at_login[:5]) == (0, 0, 0, 0, 0)  # registered, no games
    await early.close()
    white, _ = await rated_blitz_game(server)
    [after] = grams(await white.command(f"set-2 {DG.MY_RATING} 1"), DG.MY_RATING)
    blitz = server.world.online["whitey"].ratings["Blitz"][0]
    assert 0 < blitz < 1500
    assert (after.bullet, after.blitz, after.standard, after.wild, after.bughouse) == (
        0, blitz, 0, 0, 0,
    )  # fmt: skip
    guest = await connect(server)
    await guest.login("Visitor")
    [theirs] = grams(await guest.command(f"set-2 {DG.MY_RATING} 1"), DG.MY_RATING)
    assert tuple(theirs[:5]) == (-1, -1, -1, -1, -1)  # unregistered


async def test_my_rating_comes_when_the_rating_changes(server: Server) -> None:
    for name in ("Whitey", "Blacky"):
        await asyncio.to_thread(server.store.add_user, name, "pw")
    on = (DG.MY_RATING, DG.NEW_MY_RATING)
    white, black = await connect(server, on), await connect(server, on)
    await white.login("Whitey", "pw", f"level2settings={bits(*on)}")
    await black.login("Blacky", "pw", f"level2settings={bits(*on)}")
    batch = Batch(CN.CN_MATCH, None)
    online = server.world.online
    terms = Terms(rated=True, initial=5, rating_type="Blitz")
    await server.games.start(online["whitey"], online["blacky"], terms, batch)
    batch.flush()
    for ply, san in enumerate(FOOLS_MATE):
        await (white if ply % 2 == 0 else black).send(san)
    for client, name in ((white, "whitey"), (black, "blacky")):
        mine = await client.expect_dg(DG.MY_RATING)
        rating = online[name].ratings["Blitz"][0]
        assert (mine.bullet, mine.blitz, mine.standard, mine.wild, mine.bughouse) == (
            0, rating, 0, 0, 0,
        )  # fmt: skip
        await client.settle()
        [new] = client.received(DG.NEW_MY_RATING)
        assert new.ratings[1] == rating  # the two say the same
    assert not white.errors() and not black.errors()
