"""Who gets in, and for how long: one session per account, password throttling, reserved
names, the login and idle timeouts, and the connection caps. Over real sockets."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator

import pytest

from icswire.protocol.events import Prompt, Text
from icswire.server.app import Server
from icswire.server.core.session import Session
from icswire.server.core.store import Store
from icswire.server.core.tables import Terms
from icswire.server.features import pairing

from .client import Client

KICKED = "**** Dan has arrived - you can't both be logged in. ****"
KICKING = "**** Dan is already logged in - kicking them out. ****"


@pytest.fixture
async def server(database_url: str) -> AsyncIterator[Server]:
    store = Store(database_url)
    running = Server(store, "127.0.0.1", 0)
    await running.start()
    yield running
    await running.stop()
    store.close()


def texts(client: Client) -> list[str]:
    return [e.text for e in client.events if isinstance(e, Text)]


async def closed(client: Client, timeout: float = 10.0) -> bool:
    """Wait until the server closes the connection; False if it stays open."""
    with contextlib.suppress(ConnectionError, TimeoutError):
        await client.expect(lambda e: False, timeout)
    return client.reader.at_eof()


async def connect(server: Server) -> Client:
    return await Client.connect(server.port)


async def who(client: Client) -> list[str]:
    return [e.text for e in await client.command("who") if isinstance(e, Text) and e.text]


# -- one session per account -----------------------------------------------------------------


async def test_two_logins_of_one_account_at_once_leave_one_session(server: Server) -> None:
    await asyncio.to_thread(server.store.add_user, "Dan", "secret")
    first, second = await connect(server), await connect(server)
    await first.send("Dan secret")  # both passwords are checked at once (~0.3 s each)
    await second.send("Dan secret")
    await first.expect_text("**** Starting FICS session as Dan ****")
    await second.expect_text("**** Starting FICS session as Dan ****")
    # the later one took over: the other was told why and cut off
    done = {await closed(first, 1.0), await closed(second, 1.0)}
    assert done == {True, False}
    winner, loser = (second, first) if first.reader.at_eof() else (first, second)
    assert KICKED in texts(loser)
    assert KICKING in texts(winner)
    assert await who(winner) == ["---- Dan", "1 players displayed (of 1)."]
    assert list(server.world.online) == ["dan"]


async def test_a_second_login_takes_over_and_the_first_ones_seeks_go(server: Server) -> None:
    await asyncio.to_thread(server.store.add_user, "Dan", "secret")
    watcher = await connect(server)
    await watcher.login("Watcher")
    first = await connect(server)
    await first.login("Dan", "secret")
    await first.command("seek 5 0")
    await watcher.expect_text('Dan (----) seeking 5 0 unrated blitz ("play 1" to respond)')
    await watcher.expect(lambda e: isinstance(e, Prompt))
    second = await connect(server)
    await second.login("Dan", "secret")
    assert await closed(first)
    assert KICKED in texts(first)
    assert [e.text for e in await watcher.command("sought") if isinstance(e, Text)] == [
        "0 ad(s) displayed."
    ]
    assert await who(watcher) == ["---- Dan", "++++ Watcher(U)", "2 players displayed (of 2)."]


async def test_an_unregistered_name_taken_meanwhile_is_refused(server: Server) -> None:
    first, second = await connect(server), await connect(server)
    await first.send("Fred")
    await second.send("Fred")
    await first.expect_text('"Fred" is not a registered name.')
    await second.expect_text('"Fred" is not a registered name.')
    await first.send("")
    await second.send("")
    await first.expect_text("**** Starting FICS session as Fred(U) ****")
    assert await closed(second)
    assert "Fred, whose name matches yours, is already logged in. Sorry." in texts(second)
    assert not any("Starting FICS session" in text for text in texts(second))
    assert await who(first) == ["++++ Fred(U)", "1 players displayed (of 1)."]


def test_pairing_compares_players_by_name_not_by_session() -> None:
    """Two sessions of one name never pair (the one-session rule makes them rare: a
    takeover while a game is being created, say), nor do a seek and its own seeker."""
    one = Session(None, None, name="Dan")  # type: ignore[arg-type]
    two = Session(None, None, name="dan")  # type: ignore[arg-type]
    ads = [
        pairing.Seek(i, s, Terms(initial=5), None, 0, 9999, False, False)
        for i, s in ((1, one), (2, two))
    ]
    assert pairing.same_player(one, two)
    assert not pairing._pairs_with(*ads)
    ads[1].seeker = Session(None, None, name="Eve")  # type: ignore[arg-type]
    assert pairing._pairs_with(*ads)
