"""Who gets in, and for how long: one session per account, password throttling, reserved
names, the login and idle timeouts, and the connection caps. Over real sockets."""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import socket
import threading
import time

import pytest

from icswire.protocol.events import Prompt, Text
from icswire.server.app import Server
from icswire.server.core.dispatch.hub import PASSWORD_WORKERS
from icswire.server.core.model.tables import Terms
from icswire.server.core.net.limits import Backoff, Limits
from icswire.server.core.net.session import Session
from icswire.server.features.pairing import shown, state

from .client import Client
from .support import text_lines, until

pytestmark = pytest.mark.sockets  # the wire is what these tests are about

KICKED = "**** Dan has arrived - you can't both be logged in. ****"
KICKING = "**** Dan is already logged in - kicking them out. ****"


async def closed(client: Client, timeout: float = 10.0) -> bool:
    """Wait until the server closes the connection (or resets it: lines sent after the
    server closed it); False if it stays open."""
    try:
        await client.expect(lambda e: False, timeout)
    except ConnectionError:
        return True
    except TimeoutError:
        return False
    raise AssertionError("unreachable")


async def connect(server: Server) -> Client:
    return await Client.connect(server.port)


#: The last line of FICS's ``who`` (FICS pads each entry but a full row's last).
ADMINS = " {} players displayed (of {}). (*) indicates system administrator."


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
    first_closed, second_closed = await closed(first, 1.0), await closed(second, 1.0)
    assert first_closed != second_closed
    loser, winner = (first, second) if first_closed else (second, first)
    assert KICKED in text_lines(loser.events)
    assert KICKING in text_lines(winner.events)
    assert await who(winner) == ["---- Dan  ", ADMINS.format(1, 1)]
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
    assert KICKED in text_lines(first.events)
    assert [e.text for e in await watcher.command("sought") if isinstance(e, Text)] == [
        "0 ad(s) displayed."
    ]
    assert await who(watcher) == ["---- Dan         ++++ Watcher(U)  ", ADMINS.format(2, 2)]


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
    assert "Fred, whose name matches yours, is already logged in. Sorry." in text_lines(
        second.events
    )
    assert not any("Starting FICS session" in text for text in text_lines(second.events))
    assert await who(first) == ["++++ Fred(U)  ", ADMINS.format(1, 1)]


def test_pairing_compares_players_by_name_not_by_session() -> None:
    """Two sessions of one name never pair (the one-session rule makes them rare: a
    takeover while a game is being created, say), nor do a seek and its own seeker."""
    one = Session(name="Dan")
    two = Session(name="dan")
    ads = [
        state.Seek(i, s, Terms(initial=5), None, 0, 9999, False, False)
        for i, s in ((1, one), (2, two))
    ]
    assert state.same_player(one, two)
    assert not shown.pairs_with(*ads)
    ads[1].seeker = Session(name="Eve")
    assert shown.pairs_with(*ads)


# -- passwords and names ---------------------------------------------------------------------


async def test_wrong_passwords_on_one_connection_end_it_before_the_right_one(
    server: Server,
) -> None:
    await asyncio.to_thread(server.store.add_user, "Dan", "secret")
    client = await connect(server)
    await client.send(*(f"Dan guess{n}" for n in range(5)), "Dan secret")
    assert await closed(client)
    said = text_lines(client.events)
    assert said.count("**** Invalid password! ****") == 3
    assert "**** Too many failed logins; disconnecting. ****" in said
    assert not any("Starting FICS session" in text for text in said)


@pytest.mark.parametrize(
    "name", ["admin", "Administrator", "root", "Server", "ROOT", "GuestABCD", "who", "tell", "quit"]
)
async def test_reserved_names_and_command_words_are_refused_to_guests(
    server: Server, name: str
) -> None:
    client = await connect(server)
    await client.send(name)
    await client.expect_text(f'Sorry, "{name}" is a reserved name; please choose another.')
    assert await client.login("Fred") == "Fred"


async def from_address(server: Server, address: str) -> Client:
    """A connection from another loopback address (all of 127/8 is this machine)."""
    reader, writer = await asyncio.open_connection(
        "127.0.0.1", server.port, local_addr=(address, 0)
    )
    return Client(reader, writer, ())


async def attempt(client: Client, line: str) -> str:
    """What the server says to one ``name password`` line."""
    await client.send(line)
    return await heard(client)


async def heard(client: Client) -> str:
    """What the server said to a ``name password`` line: in, wrong, or refused."""
    outcome = await client.expect(
        lambda e: (
            isinstance(e, Text)
            and any(
                word in e.text
                for word in ("Starting FICS session", "Invalid password", "Too many failed logins")
            )
        )
    )
    return str(outcome.text)


async def test_failed_logins_make_the_address_wait_never_the_owner(server: Server) -> None:
    limits = server.limits
    limits.free_failures, limits.failure_delay = 3, 30.0
    for name, password in (("Dan", "secret"), ("Eve", "secret2")):
        await asyncio.to_thread(server.store.add_user, name, password)
    guesser = await from_address(server, "127.0.0.2")
    for n in range(3):
        assert await attempt(guesser, f"Dan guess{n}") == "**** Invalid password! ****"
    assert await closed(guesser)  # three wrong passwords on one connection
    # the guessing address waits, for this account and any other
    again = await from_address(server, "127.0.0.2")
    assert (await attempt(again, "Dan secret")).startswith(
        '**** Too many failed logins for "Dan" from your address; try again in '
    )
    assert (await attempt(again, "Eve secret2")).startswith(
        "**** Too many failed logins from your address; try again in "
    )
    # the owner, elsewhere, is not locked out
    dan = await from_address(server, "127.0.0.3")
    assert await attempt(dan, "Dan secret") == "**** Starting FICS session as Dan ****"
    limits.failure_delay = 0.01  # as if the wait were over
    assert await attempt(again, "Eve secret2") == "**** Starting FICS session as Eve ****"


async def test_wrong_passwords_sent_at_once_get_only_the_free_ones_checked(
    server: Server,
) -> None:
    """30 connections from one address send a wrong password at the same instant: the
    free three are checked, the rest refused unchecked, and the owner, from another
    address, logs in at once."""
    await asyncio.to_thread(server.store.add_user, "Victim", "right")
    guessers = [await from_address(server, "127.0.0.2") for _ in range(30)]
    for guesser in guessers:
        await guesser.expect(lambda e: isinstance(e, Prompt))  # login:
    for n, guesser in enumerate(guessers):  # written before any is read by the server
        guesser.writer.write(f"Victim guess{n}\n".encode())
    await asyncio.gather(*(guesser.writer.drain() for guesser in guessers))
    outcomes = await asyncio.gather(*(heard(guesser) for guesser in guessers))
    assert outcomes.count("**** Invalid password! ****") == 3
    refused = '**** Too many failed logins for "Victim" from your address; try again in '
    assert sum(outcome.startswith(refused) for outcome in outcomes) == 27
    owner = await from_address(server, "127.0.0.3")
    assert await attempt(owner, "Victim right") == "**** Starting FICS session as Victim ****"


async def test_right_passwords_sent_at_once_from_one_address_all_get_in(
    server: Server,
) -> None:
    """Eight members of a club behind one address log in at the same instant: tries
    beyond the free three wait for those being checked instead of being refused."""
    names = [f"Member{n}" for n in range(8)]
    for name in names:
        await asyncio.to_thread(server.store.add_user, name, f"pw{name}")
    members = [await from_address(server, "127.0.0.2") for _ in names]
    for member in members:
        await member.expect(lambda e: isinstance(e, Prompt))  # login:
    for name, member in zip(names, members, strict=True):
        member.writer.write(f"{name} pw{name}\n".encode())
    await asyncio.gather(*(member.writer.drain() for member in members))
    outcomes = await asyncio.gather(*(heard(member) for member in members))
    assert outcomes == [f"**** Starting FICS session as {name} ****" for name in names]


async def test_failures_from_many_addresses_slow_an_account_but_let_its_owner_in(
    server: Server,
) -> None:
    limits = server.limits
    limits.account_failures, limits.failure_delay, limits.max_account_delay = 4, 0.01, 0.05
    await asyncio.to_thread(server.store.add_user, "Dan", "secret")
    for address in ("127.0.0.4", "127.0.0.5", "127.0.0.6"):
        guesser = await from_address(server, address)
        for n in range(3):
            assert await attempt(guesser, f"Dan guess{n}") == "**** Invalid password! ****"
    backoff, now = server.core.state(Backoff), time.monotonic()
    assert backoff.delay("account dan", limits, now, 4, 0.05) == 0.05  # held back, 9 failed
    dan = await from_address(server, "127.0.0.3")
    assert await attempt(dan, "Dan secret") == "**** Starting FICS session as Dan ****"


def test_the_waits_grow_to_a_cap_and_are_forgotten() -> None:
    limits = Limits(free_failures=3, failure_delay=2.0, max_failure_delay=60.0)
    limits.forget_failures = 3600.0
    backoff = Backoff()
    waits = []
    for second in range(10):
        waits.append(backoff.wait("address 10.0.0.1", limits, float(second)))
        backoff.failed("address 10.0.0.1", limits, float(second))
    assert waits == [0.0] * 3 + [1.0, 3.0, 7.0, 15.0, 31.0, 59.0, 59.0]  # 2, 4, 8, ... s after
    assert backoff.wait("address 10.0.0.1", limits, 9.0) == 60.0  # the cap
    assert backoff.wait("address 10.0.0.2", limits, 9.0) == 0.0
    backoff.succeeded("address 10.0.0.1")  # a counted try that was right is no failure
    assert backoff.delay("address 10.0.0.1", limits, 9.0, 3, 60.0) == 60.0  # 8 failures
    assert backoff.wait("address 10.0.0.1", limits, 9.0 + 3601) == 0.0


# -- timeouts --------------------------------------------------------------------------------


async def test_a_connection_that_does_not_log_in_in_time_is_closed(server: Server) -> None:
    server.limits.login_timeout = 0.5
    silent = await connect(server)
    slow = await connect(server)  # a slowloris: a blank line now and then, never a name
    for _ in range(8):
        with contextlib.suppress(ConnectionError):
            await slow.send("")
        await asyncio.sleep(0.1)
    assert await closed(silent)
    assert await closed(slow)
    for client in (silent, slow):
        assert "**** LOGIN TIMEOUT ****" in text_lines(client.events)
    fresh = await connect(server)
    assert await fresh.login("Fred") == "Fred"  # in time


async def test_idle_users_are_logged_out_unless_playing_or_examining(server: Server) -> None:
    server.limits.idle_timeout = 0.5
    white, black, examiner, idler = [await connect(server) for _ in range(4)]
    for client, name in (
        (white, "White"),
        (black, "Black"),
        (examiner, "Teacher"),
        (idler, "Idle"),
    ):
        await client.login(name)
    await white.command("match Black 5 0")
    await black.command("accept")
    await examiner.command("examine")
    assert await closed(idler)
    assert (
        text_lines(idler.events)[-1]
        == "**** Auto-logout because you were idle more than 0.5 seconds. ****"
    )
    assert "idle" not in server.world.online
    await asyncio.sleep(1.0)  # twice the idle time: players and examiners stay
    assert not any(client.reader.at_eof() for client in (white, black, examiner))
    await white.send("resign")  # the game is over: both idle out in time
    assert await closed(black) and await closed(white)
    assert list(server.world.online) == ["teacher"]


# -- connection caps -------------------------------------------------------------------------


async def welcomed(client: Client) -> bool:
    """Did the server greet the connection with the login prompt (not turn it away)?"""
    try:
        await client.expect(lambda e: isinstance(e, Prompt) and e.text == "login: ", 5.0)
    except ConnectionError:
        return False
    return True


async def test_connections_are_capped_per_address_and_in_all(server: Server) -> None:
    server.limits.max_per_address, server.limits.max_connections = 2, 4
    first = [await from_address(server, "127.0.0.1") for _ in range(2)]
    assert all([await welcomed(client) for client in first])
    third = await from_address(server, "127.0.0.1")
    with contextlib.suppress(ConnectionError):  # typed at once: the refusal is still read
        await third.send("guest", "")
    await asyncio.sleep(0.1)
    assert not await welcomed(third)
    assert text_lines(third.events) == [
        "Sorry, there are already 2 connections from your address; please try again later."
    ]
    others = [await from_address(server, "127.0.0.2") for _ in range(2)]
    assert all([await welcomed(client) for client in others])
    fifth = await from_address(server, "127.0.0.3")
    assert not await welcomed(fifth)
    assert text_lines(fifth.events) == ["Sorry, the chess server is full; please try again later."]
    await first[0].close()
    await until(lambda: server.connections == 3)
    again = await from_address(server, "127.0.0.1")
    assert await again.login("Fred") == "Fred"


async def test_accepted_connections_send_small_writes_at_once(server: Server) -> None:
    """TCP_NODELAY, as asyncio's own servers set it: without it, a reply written in two
    pieces waits for the client's delayed ACK (40 ms a command on Linux)."""
    client = await connect(server)
    await client.login("Fred")
    sock = server.world.online["fred"].transport.get_extra_info("socket")
    assert sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY)


async def test_password_checks_never_hold_up_everybody_elses_database_calls(
    server: Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Logins whose password checks hang take only the password threads: a user already
    online still gets what needs the database (finger of an offline account), and at most
    PASSWORD_WORKERS checks (argon2's memory each) run at once."""
    asyncio.get_running_loop().set_default_executor(
        concurrent.futures.ThreadPoolExecutor(4, "default")
    )
    server.store.add_user("Dan", "secret")
    server.limits.free_failures = 100  # beyond the free tries, the others would wait
    release, running, most = threading.Event(), [0], [0]
    lock = threading.Lock()
    check = server.store.check_password

    def slow_check(name: str, password: str) -> bool:
        assert threading.current_thread().name.startswith("icswire-passwords")
        with lock:
            running[0] += 1
            most[0] = max(most[0], running[0])
        release.wait(20)
        with lock:
            running[0] -= 1
        return check(name, password)

    monkeypatch.setattr(server.store, "check_password", slow_check)
    online = await connect(server)
    await online.login("Watcher")
    waiting = [await connect(server) for _ in range(8)]  # twice the default pool
    for client in waiting:
        await client.send("Dan secret")
    await asyncio.sleep(0.3)
    await online.send("finger Dan")
    await online.expect_text("Finger of Dan")
    release.set()
    await waiting[-1].expect_text("**** Starting FICS session as Dan ****")
    assert most[0] == PASSWORD_WORKERS
