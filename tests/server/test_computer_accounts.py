"""Computer accounts: the server's ``computer`` list (``icswire user computer NAME``), read at
login as the user's titles, shown as FICS and ICC show them (``Name(C)`` in text, ``C`` in
DG titles fields, bit 0x02 in ``<s>`` and ``<wa>``), and the formula's ``computer``."""

from __future__ import annotations

import asyncio
from typing import Any

from click.testing import CliRunner

from icswire.protocol import ivars
from icswire.protocol.datagrams import DG
from icswire.protocol.events import IvarLine, Text
from icswire.server.admin import user
from icswire.server.app import Server
from icswire.server.core.model.fitting import Proposal, facts
from icswire.server.core.model.tables import Terms
from icswire.server.core.model.titles import flags, marks, title_field
from icswire.server.core.model.users import User
from icswire.server.core.storage.store import Store

from .client import Client
from .support import bits, connect, grams
from .support import texts as shown


async def computer(server: Server, name: str = "Deep") -> None:
    """Register ``name`` and put it on the computer list."""
    await asyncio.to_thread(server.store.add_user, name, "pw")
    await asyncio.to_thread(server.store.set_on_server_list, "computer", name, True)


async def login(
    server: Server, name: str, password: str | None = None, grams: tuple[int, ...] = ()
) -> Client:
    client = await connect(server, grams)
    setup = (f"level2settings={bits(*grams)}",) if grams else ()
    await client.login(name, password, *setup)
    return client


# -- the table -----------------------------------------------------------------------------


def test_titles_field_marks_and_bits() -> None:
    assert title_field(True, frozenset({"computer", "td"})) == "C TD"
    assert title_field(True, frozenset()) == ""
    assert title_field(False, frozenset({"computer"})) == "U"  # a guest is on no list
    assert (marks("C"), marks("U"), marks(""), marks("GM C")) == ("(C)", "(U)", "", "(GM)(C)")
    assert (flags(True, "C"), flags(False, "U"), flags(True, "")) == (2, 1, 0)


def test_the_formula_variable_computer_is_the_other_players() -> None:
    me = User(name="Me", registered=True)
    deep = User(name="Deep", registered=True, title_lists=frozenset({"computer"}))
    terms = Terms(initial=5, increment=0, rated=False)
    assert facts(Proposal(me, deep, terms)).values["computer"] == 1
    assert facts(Proposal(deep, me, terms)).values["computer"] == 0


# -- the list from the shell ---------------------------------------------------------------


def test_icswire_user_computer_puts_a_user_on_the_list_and_off(database_url: str) -> None:
    def run(*args: str) -> Any:
        return CliRunner().invoke(user, [*args, "--database", database_url])

    assert run("add", "Deep", "--password", "pw").exit_code == 0
    result = run("computer", "deep")
    assert result.exit_code == 0 and result.output == "deep added to the computer list.\n"
    assert run("computer", "Deep").output == "Deep: nothing to change.\n"
    with Store(database_url) as store:
        assert store.server_list("computer") == ["Deep"]
        account = store.load("Deep")
        assert account is not None and account.server_lists == ("computer",)
    result = run("computer", "Deep", "--remove")
    assert result.output == "Deep removed from the computer list.\n"
    result = run("computer", "Nobody1")
    assert result.exit_code == 1 and "no such user: Nobody1" in result.output
    with Store(database_url) as store:
        assert store.server_list("computer") == []


# -- how others see a computer -------------------------------------------------------------


async def test_who_finger_showlist_and_tells_show_c(server: Server) -> None:
    await computer(server)
    await asyncio.to_thread(server.store.add_user, "Human", "pw")
    deep = await login(server, "Deep", "pw")
    assert deep.name == "Deep"  # the greeting keeps the bare name clients read
    human = await login(server, "Human", "pw")
    guest = await login(server, "Zoe")
    entries = " ".join(shown(await guest.command("who"))[:-1]).split()
    assert entries == ["----", "Deep(C)", "----", "Human", "++++", "Zoe(U)"]
    assert "Deep(C)" in " ".join(shown(await guest.command("who v")))
    assert shown(await guest.command("finger Deep"))[0] == "Finger of Deep(C):"
    assert shown(await guest.command("finger Human"))[0] == "Finger of Human:"
    assert shown(await guest.command("showlist computer")) == [
        "-- computer list: 1 names --",
        "Deep",
    ]
    assert shown(await guest.command("=computer"))[1] == "Deep"
    await deep.command("tell Zoe hello")
    await guest.expect(lambda e: isinstance(e, Text) and e.text == "Deep(C) tells you: hello")
    await deep.close()
    # offline, finger reads the list from the store
    lines = shown(await guest.command("finger Deep"))
    assert lines[0] == "Finger of Deep(C):"
    for client in (human, guest):
        await client.close()


async def test_sought_and_seekinfo_mark_a_computers_seek(server: Server) -> None:
    await computer(server)
    deep = await login(server, "Deep", "pw")
    guest = await login(server, "Zoe")
    await guest.command("iset seekinfo 1")
    await deep.command("seek 3 0 u")
    seek = await guest.expect(
        lambda e: isinstance(e, IvarLine) and isinstance(e.record, ivars.Seek)
    )
    assert seek.record.name == "Deep" and seek.record.titles == "02"
    await guest.settle()
    (row, total) = shown(await guest.command("sought"))
    assert row.split()[:3] == ["1", "----", "Deep(C)"] and total == "1 ad(s) displayed."
    icc = await login(server, "Icky", None, (DG.SEEK,))
    (record,) = grams(icc.events, DG.SEEK)
    assert (record.playername, record.titles) == ("Deep", "C")
    for client in (deep, guest, icc):
        await client.close()


async def test_datagrams_carry_c_and_wa_has_bit_2(server: Server) -> None:
    await computer(server)
    watcher = await login(server, "Icky", None, (DG.WHO_AM_I, DG.PLAYER_ARRIVED, DG.TITLES))
    pinned = await login(server, "Pinny")
    await pinned.command("iset pin 1")
    deep = await login(server, "Deep", "pw", (DG.WHO_AM_I, DG.PERSONAL_TELL))
    (me,) = grams(deep.events, DG.WHO_AM_I)
    assert (me.myname, me.titles) == ("Deep", "C")
    arrived = await watcher.expect_dg(DG.PLAYER_ARRIVED, playername="Deep")
    assert arrived.titles == "C"
    guest_arrival = [g for g in grams(watcher.events, DG.PLAYER_ARRIVED) if g.playername == "Pinny"]
    assert [g.titles for g in guest_arrival] == ["U"]
    wa = await pinned.expect(
        lambda e: isinstance(e, IvarLine) and isinstance(e.record, ivars.PlayerArrived)
    )
    assert (wa.record.name, wa.record.titles) == ("Deep", "02")
    await pinned.command("tell Deep hi")
    told = await deep.expect_dg(DG.PERSONAL_TELL)
    assert (told.playername, told.titles) == ("Pinny", "U")
    for client in (watcher, pinned, deep):
        await client.close()


async def test_the_formula_computer_picks_computers_seeks(server: Server) -> None:
    await computer(server)
    await asyncio.to_thread(server.store.add_user, "Human", "pw")
    deep = await login(server, "Deep", "pw")
    human = await login(server, "Human", "pw")
    picky = await login(server, "Picky")
    await deep.command("seek 3 0 u")
    await human.settle()  # the seek's announcement, with a prompt
    await human.command("seek 5 0 u")
    await picky.settle()
    await picky.command("set formula !computer")
    rows = shown(await picky.command("sought"))
    assert [row.split()[2] for row in rows[:-1]] == ["Human"]
    await picky.command("set formula computer")
    rows = shown(await picky.command("sought"))
    assert [row.split()[2] for row in rows[:-1]] == ["Deep(C)"]
    refused = shown(await human.command("match Picky 5 0 u"))
    assert refused[0] == "Match request does not fit formula for Picky:"
    for client in (deep, human, picky):
        await client.close()


async def test_taken_off_the_list_the_title_goes_at_the_next_login(server: Server) -> None:
    await computer(server)
    deep = await login(server, "Deep", "pw")
    guest = await login(server, "Zoe")
    await asyncio.to_thread(server.store.set_on_server_list, "computer", "Deep", False)
    assert "Deep(C)" in " ".join(shown(await guest.command("who")))
    await deep.close()
    await guest.command("who")  # Deep's logout has been run by now
    deep = await login(server, "Deep", "pw")
    entries = " ".join(shown(await guest.command("who"))[:-1]).split()
    assert "Deep" in entries and "Deep(C)" not in entries
    assert shown(await guest.command("showlist computer"))[0] == "-- computer list: 0 names --"
    for client in (deep, guest):
        await client.close()


async def test_a_challenge_with_a_computer_says_so(server: Server) -> None:
    await computer(server)
    deep = await login(server, "Deep", "pw")
    zoe = await login(server, "Zoe")
    assert shown(await zoe.command("match Deep 5 0 u")) == [
        "Issuing: Zoe (----) Deep (----) unrated blitz 5 0.",
        "--** Deep is a computer **--",
    ]
    await deep.expect(lambda e: isinstance(e, Text) and e.text.startswith("Challenge: Zoe"))
    await zoe.command("withdraw")
    await deep.command("match Zoe 3 0 u")
    await zoe.expect(lambda e: isinstance(e, Text) and e.text.startswith("Challenge: Deep"))
    notice = await zoe.expect(lambda e: isinstance(e, Text) and e.text.startswith("--**"))
    assert notice.text == "--** Deep is a computer **--"
    await zoe.command("accept")
    await deep.command("kibitz good luck")
    said = await zoe.expect(lambda e: isinstance(e, Text) and "kibitzes" in e.text)
    assert said.text == "Deep(----)(C)[1] kibitzes: good luck"  # FICS: the rating, then (C)
    for client in (deep, zoe):
        await client.close()


async def test_a_computer_keeps_twelve_seeks_counted_on_no_address(server: Server) -> None:
    await computer(server)
    server.limits.seeks_per_address = 2
    deep = await login(server, "Deep", "pw")
    for minutes in range(1, 13):  # at once: no seek rate for a computer
        assert shown(await deep.command(f"seek {minutes} 0 u"))[0].startswith("Your seek has")
    assert shown(await deep.command("seek 20 0 u")) == ["You can only have 12 active seeks."]
    zoe = await login(server, "Zoe")  # from the same address
    await zoe.settle()
    assert shown(await zoe.command("seek 30 0"))[0].startswith("Your seek has been posted")
    assert shown(await zoe.command("seek 40 0"))[0].startswith("Your seek has been posted")
    assert shown(await zoe.command("seek 50 0")) == [
        "Sorry, there are already 2 seeks from your address; try again later."
    ]
    for client in (deep, zoe):
        await client.close()


async def test_a_computer_never_idles_out(server: Server) -> None:
    await computer(server)
    server.limits.idle_timeout = 0.3
    deep = await login(server, "Deep", "pw")
    idler = await login(server, "Idler")
    await idler.expect(lambda e: isinstance(e, Text) and "Auto-logout" in e.text)
    await asyncio.sleep(0.6)  # twice the idle time
    assert list(server.world.online) == ["deep"]
    await deep.close()
