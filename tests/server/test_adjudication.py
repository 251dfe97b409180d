"""Adjourned games settled without playing on: lasker's ``adjudicate`` (administrators),
ICC's ``request-win/-draw/-abort`` (a queue administrators list with ``adjrequests``),
and ICC's ``resignadj``, ``drawadj``, ``abortadj`` agreed by the players."""

from __future__ import annotations

import asyncio

from icswire.protocol.codes import ResultStatus
from icswire.protocol.events import Prompt
from icswire.server.app import Server

from .client import Client
from .support import connect, has_text, is_text, texts


async def login(server: Server, name: str) -> Client:
    if await asyncio.to_thread(server.store.load, name) is None:
        await asyncio.to_thread(server.store.add_user, name, "pw")
    client = await connect(server)
    await client.login(name, "pw")
    await client.command("set width 240")  # a message's line in one piece
    return client


async def adjourned(server: Server, rated: bool = False) -> tuple[Client, Client]:
    """Ann (White) and Bob with an adjourned game; Ann logged in again."""
    ann, bob = await login(server, "Ann"), await login(server, "Bob")
    await ann.command(f"match Bob 3 0 white {'rated' if rated else 'unrated'}")
    await bob.command("accept")
    await ann.expect(has_text("match.}"))
    await ann.command("e4")
    await bob.command("e5")
    await ann.close()
    await bob.expect(has_text("Game adjourned when Ann disconnected}"))
    await server.games.flush()
    ann = await login(server, "Ann")
    for client in (ann, bob):
        await caught_up(client)
    return ann, bob


async def caught_up(client: Client) -> None:
    """Read up to the prompt after a ``date``: what came unasked before it (a login's
    unread messages notice, a message from the other player, each with its own prompt)
    is read, and the tests' next command starts clean."""
    await client.send("date")
    await client.expect(has_text("Server time"))
    await client.expect(lambda event: isinstance(event, Prompt))


async def boss(server: Server) -> Client:
    await asyncio.to_thread(server.store.add_user, "Boss", "pw")
    await asyncio.to_thread(server.store.set_admin, "Boss", True)
    return await login(server, "Boss")


async def test_adjudicate_with_laskers_words(server: Server) -> None:
    ann, bob = await adjourned(server, rated=True)
    admin = await boss(server)
    assert texts(await ann.command("adjudicate Ann Bob white"))[0].endswith("Command not found.")
    assert texts(await admin.command("adjudicate Bob Ann white")) == [
        "There is no stored game Bob vs. Ann"
    ]
    assert texts(await admin.command("adjudicate Ann Bob maybe")) == [
        "Result must be one of:  abort  draw  white  black"
    ]
    assert texts(await admin.command("adjudicate Ann Bob wh")) == ["Game adjudicated."]
    await ann.expect(has_text('Your game "Ann vs. Bob" has been adjudicated as a win'))
    await bob.expect(has_text('Your game "Ann vs. Bob" has been adjudicated as a loss'))
    assert await asyncio.to_thread(server.store.adjourned, "Ann") == []
    [record] = await asyncio.to_thread(server.store.history, "Ann")
    assert (record.status, record.mode, record.color, record.score) == (
        ResultStatus.WIN,
        3,
        0,
        "1-0",
    )
    rating = await asyncio.to_thread(server.store.rating, "Ann", record.rating_type)
    assert rating.glicko.rating > 1500  # rated as a win
    assert texts(await admin.command("adjudicate Ann Bob draw")) == [
        "There is no stored game Ann vs. Bob"
    ]
    for client in (ann, bob, admin):
        await client.close()


async def test_requests_wait_for_an_administrator(server: Server) -> None:
    ann, bob = await adjourned(server)
    admin = await boss(server)
    assert texts(await admin.command("adjrequests")) == ["There are no requests for adjudication."]
    assert texts(await ann.command("request-win Carl")) == ["You have no adjourned game with Carl."]
    assert texts(await ann.command("request-win")) == ["Usage: request-win <name> [reason]"]
    assert texts(await ann.command("request-win Bob he left a lost position")) == [
        'Your request for a win in "Ann vs. Bob" has been sent to the administrators.'
    ]
    await admin.expect(
        is_text('Ann asks for a win in the adjourned game Ann vs. Bob (see "adjrequests").')
    )
    await bob.command("request-draw Ann")
    await admin.expect(has_text("Bob asks for a draw in the adjourned game Ann vs. Bob"))
    await admin.expect(lambda e: type(e).__name__ == "Prompt")
    listed = texts(await admin.command("adjrequests"))
    assert listed[0] == "Requests for adjudication:"
    assert listed[1].startswith("  1. Ann asks for a win in Ann vs. Bob (")
    assert listed[1].endswith("): he left a lost position")
    assert listed[2].startswith("  2. Bob asks for a draw in Ann vs. Bob (")
    assert texts(await admin.command("adjudicate Ann Bob abort")) == ["Game adjudicated."]
    await ann.expect(has_text('Your game "Ann vs. Bob" has been aborted.'))
    assert texts(await admin.command("adjrequests")) == ["There are no requests for adjudication."]
    for client in (ann, bob, admin):
        await client.close()


async def test_players_resign_draw_or_abort_an_adjourned_game(server: Server) -> None:
    ann, bob = await adjourned(server)
    assert texts(await ann.command("drawadj Bob")) == [
        'You offer a draw in the adjourned game "Ann vs. Bob".'
    ]
    await bob.expect(has_text('type "drawadj Ann" to agree.'))
    assert texts(await ann.command("drawadj Bob")) == [
        'You have already offered a draw in "Ann vs. Bob".'
    ]
    await bob.send("drawadj Ann")
    await bob.expect(is_text('The adjourned game "Ann vs. Bob" is drawn by agreement.'))
    await ann.expect(has_text('I agree: our adjourned game "Ann vs. Bob" is drawn.'))
    [record] = await asyncio.to_thread(server.store.history, "Ann")
    assert (record.status, record.score) == (ResultStatus.DRAW, "1/2-1/2")
    assert texts(await ann.command("resignadj Bob")) == ["You have no adjourned game with Bob."]
    for client in (ann, bob):
        await client.close()
    ann, bob = await adjourned(server)
    assert texts(await bob.command("resignadj Ann")) == [
        'You resign your adjourned game "Ann vs. Bob".'
    ]
    await ann.expect(has_text('I resign our adjourned game "Ann vs. Bob".'))
    records = await asyncio.to_thread(server.store.history, "Ann")
    assert (records[-1].status, records[-1].color, records[-1].score) == (
        ResultStatus.WIN,
        0,
        "1-0",
    )
    for client in (ann, bob):
        await client.close()
    ann, bob = await adjourned(server)
    await ann.command("abortadj Bob")
    await bob.expect(has_text('type "abortadj Ann" to agree.'))
    assert texts(await bob.command("abortadj Ann")) == [
        'The adjourned game "Ann vs. Bob" is aborted by agreement.'
    ]
    assert await asyncio.to_thread(server.store.adjourned, "Ann") == []
    for client in (ann, bob):
        await client.close()
