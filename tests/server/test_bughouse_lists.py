"""Bughouse lists and partner watching: ``bugwho`` (FICS's three sections), ``set
bugopen``, ``pobserve`` and ``pfollow``; and the TD commands that act for others:
``qpartner``, ``qimpart``, ``xobserve``, ``qfollow``, ``qunfollow``."""

from __future__ import annotations

import asyncio

from icswire.server.app import Server

from .client import Client
from .support import connect, has_text, is_text, texts
from .test_bughouse import partners, teams, user


async def td(server: Server, name: str = "Tomato") -> Client:
    await asyncio.to_thread(server.store.add_user, name, "pw")
    await asyncio.to_thread(server.store.set_on_server_list, "td", name, True)
    client = await connect(server)
    await client.login(name, "pw")
    return client


async def test_bugwho_lists_games_partnerships_and_the_unpartnered(server: Server) -> None:
    ann, ben, cal, dot = await teams(server)
    eve, fay = await user(server, "Eve"), await user(server, "Fay")
    gus = await user(server, "Gus")
    assert texts(await gus.command("set bugopen 1")) == ["You are now open for bughouse."]
    await partners(eve, fay)
    shown = texts(await gus.command("bugwho"))
    assert shown[0] == "Bughouse games in progress"
    assert shown[1].startswith("  1 ++++ Ann") and shown[2].startswith("  2 ++++ Dot")
    assert shown[3:6] == [
        " 1 game displayed.",
        "Partnerships not playing bughouse",
        "++++ Eve(U) / ++++ Fay(U)",
    ]
    assert shown[6:8] == [" 1 partnership displayed.", "Unpartnered players with bugopen on"]
    assert shown[8].startswith("++++ Gus(U)")
    assert shown[9] == " 1 players displayed (of 7). (*) indicates system administrator."
    assert texts(await gus.command("bugwho p")) == [
        "Partnerships not playing bughouse",
        "++++ Eve(U) / ++++ Fay(U)",
        " 1 partnership displayed.",
    ]
    assert texts(await gus.command("bugwho x")) == ["Usage: bugwho [g][p][u]"]
    assert texts(await gus.command("set bugopen 0")) == ["You are not open for bughouse."]
    assert texts(await gus.command("bugwho u"))[-1].startswith(" 0 players displayed")
    for client in (ann, ben, cal, dot, eve, fay, gus):
        await client.close()


async def test_pobserve_and_pfollow(server: Server) -> None:
    ann, ben = await user(server, "Ann"), await user(server, "Ben")
    cal, dot = await user(server, "Cal"), await user(server, "Dot")
    fan = await user(server, "Fan")
    assert texts(await ann.command("pobserve")) == ["You do not have a partner at present."]
    await partners(ann, ben)
    await partners(cal, dot)
    assert texts(await fan.command("pobserve Ann")) == [
        "Ann's partner, Ben, is not playing a game."
    ]
    assert texts(await fan.command("pfollow Ann")) == [
        "You will now be following Ann's partner's games."
    ]
    await ann.send("match Cal 2 0 bughouse white")
    await cal.expect(has_text("Challenge: Ann"))
    await cal.send("accept")
    # Ben (Ann's partner) plays board 2: Fan observes it when it starts
    await fan.expect(has_text("Ann's partner, Ben, whom you are following, has started a game"))
    await fan.expect(is_text("You are now observing game 2."))
    observed = texts(await fan.command("pobserve Dot"))  # Dot's partner Cal: board 1
    assert observed[0] == "You are now observing game 1.", observed
    assert texts(await fan.command("pfollow")) == [
        "You will not follow any player's partner's games."
    ]
    assert texts(await fan.command("pfollow")) == ["You are not following any player's partner."]
    assert texts(await fan.command("pobserve Nobody")) == ['No user named "Nobody" is logged in.']
    await ann.send("pobserve Fan")
    await ann.expect(is_text("Fan has no partner."))
    for client in (ann, ben, cal, dot, fan):
        await client.close()


async def test_td_partners_and_watching_for_others(server: Server) -> None:
    tomato = await td(server)
    ann, ben, cal = await user(server, "Ann"), await user(server, "Ben"), await user(server, "Cal")
    for line in ("qpartner Ann Ben", "qimpart Ann", "xobserve Ann 1", "qfollow Ann Ben"):
        word = line.split()[0]
        assert texts(await cal.command(line)) == [f"Only TDs and administrators may use {word}."]
    assert texts(await tomato.command("qpartner Ann Ben")) == ["Ann and Ben are partners now."]
    await ann.expect(is_text("Tomato has made you Ben's partner."))
    await ben.expect(is_text("Tomato has made you Ann's partner."))
    assert texts(await ann.command("ptell hi")) == ["(told Ben)"]
    assert texts(await tomato.command("qpartner Ann Ben")) == ["Ann and Ben are partners already."]
    assert texts(await tomato.command("qpartner Ann Cal")) == ["Ann and Cal are partners now."]
    await ben.expect(is_text("Tomato has ended your partnership."))
    assert texts(await tomato.command("qimpart Cal")) == ["Cal and Ann are partners no more."]
    assert texts(await tomato.command("qimpart Cal")) == ["Cal has no bughouse partner."]
    assert texts(await tomato.command("qpartner Ann")) == ["Usage: qpartner <name> <name>"]
    # following and observing made for others
    assert texts(await tomato.command("qfollow Cal Ann")) == [
        "Cal will now be following Ann's games."
    ]
    await cal.expect(is_text("You will now be following Ann's games."))
    await ann.send("match Ben 5 0")
    await ben.expect(has_text("Challenge: Ann"))
    await ben.send("accept")
    await cal.expect(is_text("You are now observing game 1."))
    assert texts(await tomato.command("xobserve Cal 1")) == ["Cal is at game 1 already."]
    made = texts(await tomato.command("xobserve Tomato Ann"))
    assert made[0] == "You are now observing game 1." and made[-1] == (
        "Tomato is now observing game 1."
    ), made
    assert texts(await tomato.command("xobserve Nobody 1")) == [
        'No user named "Nobody" is logged in.'
    ]
    assert texts(await tomato.command("qunfollow Cal")) == [
        "Cal will not follow any player's games."
    ]
    await cal.expect(is_text("You will not follow any player's games."))
    assert texts(await tomato.command("qunfollow Cal")) == ["Cal is not following any player."]
    for client in (tomato, ann, ben, cal):
        await client.close()
