"""DG_SOUND (53), which "accompanies some or all bells" with its reason (icc-formats.txt):
a challenge, an offer, a game's start and end, a move to a client without DG_SEND_MOVES,
a notify list's arrivals and departures in their text form (a DG_NOTIFY_ARRIVED "implies
a SOUND_HELLO that usually isn't sent"; for a DG_NOTIFY_LEFT "please infer a
SOUND_GOODBYE, because one is not sent")."""

from __future__ import annotations

import asyncio

from icswire.protocol.codes import Sound
from icswire.protocol.datagrams import DG
from icswire.server.app import Server

from .client import Client
from .support import bits, connect, grams


async def user(server: Server, name: str, *datagrams: int, password: str | None = None) -> Client:
    client = await connect(server, datagrams)
    setup = (f"level2settings={bits(*datagrams)}",) if datagrams else ()
    await client.login(name, password, *setup)
    await client.command("set style 13")
    return client


def sounds(client: Client) -> list[int]:
    return [e.code for e in grams(client.events, DG.SOUND)]


async def test_challenge_offer_start_move_and_end(server: Server) -> None:
    alpha = await user(server, "Alpha", DG.SOUND)
    beta = await user(server, "Beta", DG.SOUND, DG.SEND_MOVES, DG.MOVE_ALGEBRAIC)
    watcher = await user(server, "Watcher", DG.SOUND)
    await alpha.command("match Beta 3 0 white")
    await beta.expect_dg(DG.SOUND, code=Sound.CHALLENGE)
    await beta.send("accept")
    for player in (alpha, beta):
        await player.expect_dg(DG.SOUND, code=Sound.START)
    await watcher.command("observe alpha")
    await alpha.send("e4")
    await beta.expect_dg(DG.SEND_MOVES, algebraic="e4")
    await beta.send("e5")
    # the player to move hears the move unless DG_SEND_MOVES brings it
    await alpha.expect_dg(DG.SOUND, code=Sound.MOVE)
    await alpha.send("draw")
    await beta.expect_dg(DG.SOUND, code=Sound.OFFER)
    await beta.send("resign")
    for player in (alpha, beta):
        await player.expect_dg(DG.SOUND, code=Sound.END)
    for client in (alpha, beta, watcher):
        await client.settle()
    assert sounds(alpha) == [Sound.START, Sound.MOVE, Sound.END]
    assert sounds(beta) == [Sound.CHALLENGE, Sound.START, Sound.OFFER, Sound.END]
    assert sounds(watcher) == []  # an observer's sounds are "not used yet" (codes 11, 15)


async def test_partnership_offer(server: Server) -> None:
    await user(server, "Alpha")
    beta = await user(server, "Beta", DG.SOUND)
    alpha = await user(server, "Gamma")
    await beta.command("set bugopen 1")
    await alpha.command("partner Beta")
    await beta.expect_dg(DG.SOUND, code=Sound.OFFER)


async def test_notifications_in_text_have_hello_and_goodbye(server: Server) -> None:
    await asyncio.to_thread(server.store.add_user, "Friend", "pw")
    text = await user(server, "Texty", DG.SOUND)
    await text.command("+notify Friend")
    grams_only = await user(server, "Grammy", DG.SOUND, DG.NOTIFY_ARRIVED, DG.NOTIFY_LEFT)
    await grams_only.command("+notify Friend")
    friend = await connect(server)
    await friend.login("Friend", "pw")
    await text.expect_text("Notification: Friend has arrived.")
    await grams_only.expect_dg(DG.NOTIFY_ARRIVED, playername="Friend")
    await friend.send("quit")
    await text.expect_text("Notification: Friend has departed.")
    await grams_only.expect_dg(DG.NOTIFY_LEFT, playername="Friend")
    await text.settle()
    await grams_only.settle()
    assert sounds(text) == [Sound.HELLO, Sound.GOODBYE]
    assert sounds(grams_only) == []
