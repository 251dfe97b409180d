"""Accounts from inside the server: ``password``, ``register``, the administrators'
commands (hidden from everybody else), the ban list, ``nuke`` and the news."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

import icswire.server
from icswire.protocol.datagrams import DG
from icswire.protocol.events import Text
from icswire.server.app import Server
from icswire.server.core.dispatch.commands import block_code
from icswire.server.core.storage.store import Store

from .client import Client
from .support import connect, texts

HELP = Path(icswire.server.__file__).parent / "help"


@pytest.fixture
async def open_server(database_url: str) -> AsyncIterator[Server]:
    store = Store(database_url)
    running = Server(store, "127.0.0.1", 0, open_registration=True)
    await running.start(listen=False)
    yield running
    await running.stop()
    store.close()


async def guest(server: Server, name: str = "guest") -> Client:
    client = await connect(server)
    await client.login(name)
    await client.command("iset nowrap 1")  # long lines whole, as interfaces ask
    return client


async def member(server: Server, name: str, password: str = "pw", admin: bool = False) -> Client:
    await asyncio.to_thread(server.store.add_user, name, password)
    if admin:
        await asyncio.to_thread(server.store.set_admin, name, True)
    client = await connect(server)
    await client.login(name, password)
    return client


async def refused(server: Server, name: str, password: str) -> str:
    """What the login of ``name`` with ``password`` is told when it is refused."""
    client = await connect(server)
    await client.send(f"{name} {password}")
    said = await client.expect(
        lambda e: isinstance(e, Text) and e.text.startswith(("****", "The administrators"))
    )
    await client.close()
    return str(said.text)


# -- password -----------------------------------------------------------------------------


async def test_password_changes_a_registered_users_password(server: Server) -> None:
    alice = await member(server, "Alice", "old")
    assert texts(await alice.command("password wrong new")) == [
        "Incorrect password, password not changed!"
    ]
    assert texts(await alice.command("password old")) == [
        "Usage: password <oldpassword> <newpassword>"
    ]
    assert texts(await alice.command("password old new")) == ['Password changed to "new".']
    await alice.close()
    assert await refused(server, "Alice", "old") == "**** Invalid password! ****"
    again = await connect(server)
    assert await again.login("Alice", "new") == "Alice"


async def test_a_password_change_sends_dg_password_to_who_has_it_on(server: Server) -> None:
    """DG_PASSWORD (114: new-password handle), "sent when you change your own password",
    before the text; nothing when the change is refused or the DG is off."""
    await asyncio.to_thread(server.store.add_user, "Alice", "old")
    alice = await connect(server, (DG.PASSWORD,))
    await alice.login("Alice", "old", "level2settings=" + "0" * DG.PASSWORD + "1")
    await alice.command("password wrong new")
    assert alice.received(DG.PASSWORD) == []
    said = await alice.command("password old new")
    assert [(e.password, e.handle) for e in said if getattr(e, "dg", None) == DG.PASSWORD] == [
        ("new", "Alice")
    ]
    assert texts(said) == ['Password changed to "new".']
    bob = await member(server, "Bob", "pw")
    await bob.command("password pw other")
    assert bob.received(DG.PASSWORD) == []


async def test_password_is_only_for_registered_players(server: Server) -> None:
    fred = await guest(server, "Fred")
    assert texts(await fred.command("password a b")) == [
        "Setting a password is only for registered players."
    ]


# -- register -----------------------------------------------------------------------------


async def test_register_says_how_accounts_are_made_when_registration_is_closed(
    server: Server,
) -> None:
    fred = await guest(server, "Fred")
    said = texts(await fred.command("register secret"))
    assert said[0] == "This server does not register players itself: its operator makes accounts"
    assert '"icswire user add NAME"' in said[1]
    assert await asyncio.to_thread(server.store.load, "Fred") is None


async def test_register_makes_the_account_at_once(open_server: Server) -> None:
    fred = await guest(open_server, "Fred")
    assert texts(await fred.command("register secret")) == [
        'You are now registered as "Fred".',
        "Log in with this name and your password next time.",
    ]
    assert open_server.world.online["fred"].registered
    assert texts(await fred.command("password secret other")) == ['Password changed to "other".']
    assert texts(await fred.command("register again")) == ["Fred is registered already."]
    await fred.close()
    back = await connect(open_server)
    assert await back.login("Fred", "other") == "Fred"


async def test_a_guest_registers_a_name_of_its_choice(open_server: Server) -> None:
    visitor = await guest(open_server)
    said = texts(await visitor.command("register secret"))
    assert said == [
        f'"{visitor.name}" cannot be registered; choose a name with "register <name> <password>".'
    ]
    other = await guest(open_server, "Taken")
    cases = {
        "register Taken pw": (
            '"Taken" is being used by somebody logged in now; please choose another.'
        ),
        "register admin7 pw": '"admin7" is a reserved name; please choose another.',
        "register who pw": '"who" is a reserved name; please choose another.',
        "register 9lives pw": (
            "Sorry, a name must begin with a letter and consist of letters and digits."
        ),
        "register a b c": "Usage: register [name] <password>",
    }
    for line, answer in cases.items():
        assert texts(await visitor.command(line)) == [answer], line
    assert texts(await visitor.command("register Newcomer pw")) == [
        'Registered "Newcomer". Log in as Newcomer with your password to use it.'
    ]
    assert texts(await other.command("register newcomer pw")) == [
        '"Newcomer" is registered already; please choose another name.'
    ]
    assert not open_server.world.online[visitor.name.lower()].registered
    back = await connect(open_server)
    assert await back.login("Newcomer", "pw") == "Newcomer"


# -- administrators -------------------------------------------------------------------------


ADMIN_COMMANDS = (
    "addplayer",
    "remplayer",
    "asetpasswd",
    "asetemail",
    "asetadmin",
    "nuke",
    "cnewsi",
    "cnewsf",
    "cnewst",
    "cnewse",
)


async def test_admin_commands_do_not_exist_for_others(server: Server) -> None:
    bob = await member(server, "Bob")
    for word in ADMIN_COMMANDS:
        assert texts(await bob.command(f"{word} Bob x")) == [f"{word}: Command not found."]
    refused = '"ban" is not an appropriate list name or you have insufficient rights.'
    for line in ("+ban Bob", "-ban Bob", "=ban"):  # addlist/sublist/showlist ban
        assert texts(await bob.command(line)) == [refused]
    assert texts(await bob.command("aset Bob 1")) == ["aset: Command not found."]
    assert texts(await bob.command("addp Bob x")) == ["addp: Command not found."]
    boss = await member(server, "Boss", admin=True)
    said = texts(await boss.command("aset Bob 1"))
    assert said == ["Ambiguous command. Matches: asetadmin asetemail asetpasswd"]  # lasker's
    assert texts(await boss.command("asetad Bob 1")) == ["Bob is an administrator now."]
    await bob.expect_text("Boss has made you an administrator.")
    assert server.world.online["bob"].admin
    assert texts(await bob.command("=ban")) == ["-- ban list: 0 names --"]


async def test_every_command_has_a_block_code(server: Server) -> None:
    for name in server.core.registry.commands:
        assert block_code(name) > 0, name


async def test_account_management_by_an_administrator(server: Server) -> None:
    boss = await member(server, "Boss", admin=True)
    assert texts(await boss.command("addplayer Carol pw1")) == [
        'Added "Carol" with password "pw1".'
    ]
    assert texts(await boss.command("addplayer carol pw2")) == [
        'A player named "Carol" is already registered.'
    ]
    assert texts(await boss.command("addplayer x pw")) == [
        "A name should be at least two characters long!"
    ]
    carol = await connect(server)
    assert await carol.login("Carol", "pw1") == "Carol"
    assert texts(await boss.command("asetpasswd carol pw3")) == [
        'Password of carol changed to "pw3".'
    ]
    await carol.expect_text("Boss has changed your password.")
    assert texts(await boss.command("asetpasswd Nobody7 pw")) == [
        'There is no player matching the name "Nobody7".'
    ]
    assert texts(await boss.command("remplayer Carol")) == ["Carol is logged in; nuke them first."]
    assert texts(await boss.command("nuke Carol")) == ["Nuked: Carol"]
    await carol.expect_text("**** You have been kicked out by Boss! ****")
    with pytest.raises(ConnectionError):
        await carol.expect(lambda e: False)
    assert "carol" not in server.world.online
    assert texts(await boss.command("remplayer carol")) == ['Removed the account of "carol".']
    assert await asyncio.to_thread(server.store.load, "Carol") is None
    assert texts(await boss.command("remplayer carol")) == [
        'There is no player matching the name "carol".'
    ]
    assert texts(await boss.command("nuke Carol")) == ['No user named "Carol" is logged in.']
    assert texts(await boss.command("nuke Boss")) == ["You cannot nuke yourself; use quit."]
    assert texts(await boss.command("asetadmin Boss 1")) == ["Boss is an administrator already."]


async def test_a_banned_name_cannot_log_in(server: Server) -> None:
    boss = await member(server, "Boss", admin=True)
    await asyncio.to_thread(server.store.add_user, "Dave", "pw")
    assert texts(await boss.command("+ban Dave")) == ["[Dave] added to the ban list."]
    assert texts(await boss.command("+ban dave")) == ["[dave] is already on the ban list."]
    assert texts(await boss.command("+ban Mallory")) == ["[Mallory] added to the ban list."]
    assert texts(await boss.command("+ban Boss")) == ["You cannot ban yourself."]
    listed = texts(await boss.command("=ban"))
    assert listed == ["-- ban list: 2 names --", "Dave     Mallory"]

    client = await connect(server, [DG.LOGIN_FAILED])
    bits = "".join("1" if n == DG.LOGIN_FAILED else "0" for n in range(DG.LOGIN_FAILED + 1))
    await client.send(f"level2settings={bits}", "dave pw")
    failed = await client.expect_dg(DG.LOGIN_FAILED)
    assert (failed.code, failed.explanation) == (
        12,
        "The administrators have banned you from using this chess server.",
    )
    with pytest.raises(ConnectionError):  # and disconnected
        await client.expect(lambda e: False)
    unregistered = await connect(server)
    await unregistered.send("mallory")
    await unregistered.expect_text("The administrators have banned you")

    assert texts(await boss.command("-ban DAVE")) == ["[DAVE] removed from the ban list."]
    assert texts(await boss.command("-ban dave")) == ["[dave] is not in the ban list."]
    back = await connect(server)
    assert await back.login("Dave", "pw") == "Dave"


# -- news -----------------------------------------------------------------------------------


async def test_news_posted_by_an_administrator(server: Server) -> None:
    reader = await guest(server, "Reader")
    assert texts(await reader.command("news")) == ["There are no news items."]
    boss = await member(server, "Boss", admin=True)
    assert texts(await boss.command("cnewsi Welcome to icswire")) == [
        "Created news item 1: Welcome to icswire"
    ]
    assert texts(await boss.command("cnewsf 1 Play nicely.")) == ["Added a line to news item 1."]
    assert texts(await boss.command("cnewsf 1 Have fun.")) == ["Added a line to news item 1."]
    assert texts(await boss.command("cnewsi Second")) == ["Created news item 2: Second"]
    assert texts(await boss.command("cnewst 2 Second item")) == [
        "News item 2 is now titled: Second item"
    ]
    assert texts(await boss.command("cnewsf 9 text")) == ["There is no news item 9."]
    assert texts(await boss.command("cnewsf x")) == ["Usage: cnewsf <number> [line of text]"]

    index = texts(await reader.command("news"))
    assert index[0] == "Index of the latest news items:"
    assert [row.split(") ", 1)[1] for row in index[1:]] == ["Second item", "Welcome to icswire"]
    assert index[1].startswith("   2 (")
    item = texts(await reader.command("news 1"))
    assert item[0].startswith("   1 (") and item[0].endswith(") Welcome to icswire")
    assert item[1:] == ["Play nicely.", "Have fun.", "Posted by Boss."]
    assert texts(await reader.command("news 7")) == ["There is no news item 7."]

    late = await connect(server)
    await late.login("Late")
    await late.expect_text('There are 2 news items; type "news" to see the latest.')

    assert texts(await boss.command("cnewsf 1")) == ["Cleared news item 1."]
    assert texts(await reader.command("news 1"))[1:] == ["Posted by Boss."]
    assert texts(await boss.command("cnewse 2")) == ["Deleted news item 2."]
    assert texts(await boss.command("cnewse 2")) == ["There is no news item 2."]
    assert len(texts(await reader.command("news all"))) == 2


def test_every_command_added_here_has_its_help_file() -> None:
    for name in ("password", "register", "news", "admin", *ADMIN_COMMANDS):
        if name[0] in "+-=":
            continue  # the ban list's commands are in the admin file
        text = (HELP / f"{name}.txt").read_text()
        lines = text.splitlines()
        assert lines[0].split()[0] == name and lines[1] == "", name
        assert all(len(line) <= 79 for line in lines), name
        assert lines[-1].startswith("See also: "), name
    assert all(f"{word} <name>" in (HELP / "admin.txt").read_text() for word in ("+ban", "-ban"))


async def test_help_lists_the_administrators_commands_only_to_them(server: Server) -> None:
    bob = await member(server, "Bob")
    boss = await member(server, "Boss", admin=True)
    for client in (bob, boss):  # the whole list on one page
        await client.command("set height 240")
    listed = " ".join(texts(await bob.command("help commands"))).split()
    assert "password" in listed and "news" in listed
    assert not set(ADMIN_COMMANDS) & set(listed)
    assert texts(await bob.command("help nuke"))[0] == 'No help available on "nuke".'
    await boss.command("set height 240")  # the whole list on one page
    listed = " ".join(texts(await boss.command("help commands"))).split()
    assert set(ADMIN_COMMANDS) <= set(listed)


async def test_the_news_count_at_login_is_read_when_the_server_starts(database_url: str) -> None:
    store = Store(database_url)
    await asyncio.to_thread(store.add_news, "Stored before the start", "Boss")
    running = Server(store, "127.0.0.1", 0)
    await running.start(listen=False)
    try:
        client = await connect(running)
        await client.login("Early")
        await client.expect_text('There is 1 news item; type "news" to see the latest.')
    finally:
        await running.stop()
        store.close()


async def test_who_marks_administrators(server: Server) -> None:
    boss = await member(server, "Boss", admin=True)
    bob = await member(server, "Bob")
    shown = " ".join(texts(await bob.command("who")))
    await boss.close()
    assert "Boss(*)" in shown and "Bob(*)" not in shown and "Bob" in shown
