"""Titles: the lists that give them (``gm``, ``im``, ``fm``, ``wgm``, ``wim``, ``wfm``,
``computer`` or ``c``, ``td``, and ``admin``, the administrator flag), kept by administrators
with ``+LIST NAME`` / ``-LIST NAME`` and from the shell (``icswire user title``), read by
everybody with ``=LIST`` (DG_STRINGLIST_BEGIN/ITEM for an ICC client that has 79 on), and
shown in every form: ``who``, ``finger``, tells, shouts, channel tells, kibitzes,
``sought``, ``<s>``, ``<wa>``, and the titles fields of datagrams with DG_TITLES on a
change."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from click.testing import CliRunner

from icswire.protocol import ivars
from icswire.protocol.datagrams import DG
from icswire.protocol.events import IvarLine, Text
from icswire.server.admin import user
from icswire.server.app import Server
from icswire.server.core.model.titles import flags, held, marks, title_field
from icswire.server.core.storage.store import Store

from .client import Client
from .support import bits, connect, grams, has_text, is_text
from .support import texts as shown

LISTS = ("gm", "im", "fm", "wgm", "wim", "wfm", "computer", "td")
MARKS = {"gm": "GM", "im": "IM", "fm": "FM", "wgm": "WGM", "wim": "WIM", "wfm": "WFM"}
MARKS |= {"computer": "C", "td": "TD"}
REFUSED = '"{}" is not an appropriate list name or you have insufficient rights.'


async def login(
    server: Server, name: str, password: str | None = "pw", grams: tuple[int, ...] = ()
) -> Client:
    """``name`` logged in (registered first unless ``password`` is None: a guest)."""
    if password is not None and await asyncio.to_thread(server.store.load, name) is None:
        await asyncio.to_thread(server.store.add_user, name, password)
    client = await connect(server, grams)
    setup = (f"level2settings={bits(*grams)}",) if grams else ()
    await client.login(name, password, *setup)
    return client


async def boss(server: Server, grams: tuple[int, ...] = ()) -> Client:
    """An administrator, Boss."""
    await asyncio.to_thread(server.store.add_user, "Boss", "pw")
    await asyncio.to_thread(server.store.set_admin, "Boss", True)
    return await login(server, "Boss", grams=grams)


def who_entries(lines: list[str]) -> list[str]:
    """The names of a ``who`` reply (its ratings and status marks left out)."""
    return [word for word in " ".join(lines[:-1]).split() if word[0].isalpha()]


# -- the table -----------------------------------------------------------------------------


def test_each_list_gives_its_mark_and_fics_bit() -> None:
    for which, mark in MARKS.items():
        assert title_field(True, frozenset({which})) == mark
    assert title_field(True, held({"td", "gm", "computer"}, admin=True)) == "* C GM TD"
    assert marks("* C GM TD") == "(*)(C)(GM)(TD)"
    bits_of = {mark: flags(True, mark) for mark in ("C", "GM", "IM", "FM", "WGM", "WIM", "WFM")}
    assert bits_of == {
        "C": 0x02, "GM": 0x04, "IM": 0x08, "FM": 0x10, "WGM": 0x20, "WIM": 0x40, "WFM": 0x80
    }  # fmt: skip
    assert (flags(True, "* TD"), flags(True, "GM TD")) == (0, 0x04)
    assert title_field(False, held({"gm"}, admin=True)) == "U"  # a guest holds none


# -- kept by administrators ----------------------------------------------------------------


@pytest.mark.parametrize("which", LISTS)
async def test_an_administrator_keeps_each_list(server: Server, which: str) -> None:
    admin = await boss(server)
    alice = await login(server, "Alice")
    mark = f"Alice({MARKS[which]})"
    assert shown(await admin.command(f"+{which} alice")) == [f"[Alice] added to the {which} list."]
    await alice.expect(is_text(f"You have been added to the {which} list by Boss."))
    assert shown(await admin.command(f"+{which} Alice")) == [
        f"[Alice] is already on the {which} list."
    ]
    assert shown(await alice.command(f"showlist {which}")) == [
        f"-- {which} list: 1 names --",
        "Alice",
    ]
    assert mark in who_entries(shown(await admin.command("who")))  # at once
    assert shown(await admin.command("finger Alice"))[0] == f"Finger of {mark}:"
    assert shown(await admin.command(f"-{which} Alice")) == [
        f"[Alice] removed from the {which} list."
    ]
    await alice.expect(is_text(f"You have been removed from the {which} list by Boss."))
    assert shown(await admin.command(f"sublist {which} Alice")) == [
        f"[Alice] is not in the {which} list."
    ]
    assert "Alice" in who_entries(shown(await admin.command("who")))
    assert shown(await alice.command(f"={which}")) == [f"-- {which} list: 0 names --"]
    for client in (admin, alice):
        await client.close()


async def test_c_names_the_computer_list_and_the_list_is_kept(server: Server) -> None:
    admin = await boss(server)
    await asyncio.to_thread(server.store.add_user, "Deep", "pw")
    assert shown(await admin.command("+c Deep")) == ["[Deep] added to the computer list."]
    assert await asyncio.to_thread(server.store.server_list, "computer") == ["Deep"]
    deep = await login(server, "Deep")  # offline when added: the title at login
    assert "Deep(C)" in who_entries(shown(await admin.command("who")))
    assert shown(await admin.command("finger Deep"))[0] == "Finger of Deep(C):"
    assert shown(await admin.command("=c")) == ["-- computer list: 1 names --", "Deep"]
    for client in (admin, deep):
        await client.close()


async def test_anybody_else_is_refused_with_ficss_words(server: Server) -> None:
    alice = await login(server, "Alice")
    zoe = await login(server, "Zoe", None)
    for client in (alice, zoe):
        for line in ("+gm Alice", "-im Alice", "addlist wfm Alice", "+c Alice", "+admin Alice"):
            which = line.split()[1] if line.startswith("addlist") else line[1:].split()[0]
            assert shown(await client.command(line)) == [REFUSED.format(which)]
        assert shown(await client.command("=gm")) == ["-- gm list: 0 names --"]
    assert await asyncio.to_thread(server.store.server_list, "gm") == []
    for client in (alice, zoe):
        await client.close()


async def test_guests_and_strangers_are_on_no_list(server: Server) -> None:
    admin = await boss(server)
    zoe = await login(server, "Zoe", None)
    assert shown(await admin.command("+gm Zoe")) == [
        "Only registered players can be on the gm list."
    ]
    assert shown(await admin.command("+admin Zoe")) == [
        "Only registered players can be on the admin list."
    ]
    assert shown(await admin.command("+im Nobody")) == [
        'There is no player matching the name "Nobody".'
    ]
    assert shown(await admin.command("-im Nobody")) == ["[Nobody] is not in the im list."]
    assert shown(await admin.command("+td 9lives")) == ['"9lives" is not a valid handle.']
    assert "Zoe(U)" in who_entries(shown(await admin.command("who")))
    for client in (admin, zoe):
        await client.close()


async def test_the_admin_list_is_the_administrator_flag(server: Server) -> None:
    admin = await boss(server)
    alice = await login(server, "Alice")
    assert shown(await alice.command("=admin")) == ["-- admin list: 1 names --", "Boss"]
    assert shown(await admin.command("+admin Alice")) == ["[Alice] added to the admin list."]
    await alice.expect(is_text("You have been added to the admin list by Boss."))
    account = await asyncio.to_thread(server.store.load, "Alice")
    assert account is not None and account.admin
    assert shown(await alice.command("=ban")) == ["-- ban list: 0 names --"]  # at once
    assert shown(await alice.command("=admin")) == ["-- admin list: 2 names --", "Alice  Boss"]
    assert {"Alice(*)", "Boss(*)"} <= set(who_entries(shown(await alice.command("who"))))
    assert shown(await admin.command("-admin Alice")) == ["[Alice] removed from the admin list."]
    await alice.expect(is_text("You have been removed from the admin list by Boss."))
    assert shown(await alice.command("=ban")) == [REFUSED.format("ban")]
    assert await asyncio.to_thread(server.store.list_admins) == ["Boss"]
    for client in (admin, alice):
        await client.close()


# -- shown in each form --------------------------------------------------------------------


async def test_fics_text_shows_the_marks_in_each_form(server: Server) -> None:
    admin = await boss(server)
    await asyncio.to_thread(server.store.add_user, "Alice", "pw")
    for which in ("gm", "td"):
        await admin.command(f"+{which} Alice")
    alice = await login(server, "Alice")
    zoe = await login(server, "Zoe", None)
    assert "Alice(GM)(TD)" in who_entries(shown(await zoe.command("who")))
    assert "Alice(GM)(TD)" in " ".join(shown(await zoe.command("who v")))
    assert "Boss(*)" in who_entries(shown(await zoe.command("who")))
    await alice.command("tell Zoe hello")
    await zoe.expect(is_text("Alice(GM)(TD) tells you: hello"))
    await admin.command("tell Zoe hi")
    await zoe.expect(is_text("Boss(*) tells you: hi"))
    await alice.command("shout hi all")
    await zoe.expect(is_text("Alice(GM)(TD) shouts: hi all"))
    await zoe.command("+channel 50")
    await alice.command("+channel 50")
    await alice.command("tell 50 hi fifty")
    await zoe.expect(is_text("Alice(GM)(TD)(50): hi fifty"))
    await zoe.command("iset seekinfo 1")
    await alice.command("seek 3 0 u")
    seek = await zoe.expect(lambda e: isinstance(e, IvarLine) and isinstance(e.record, ivars.Seek))
    assert (seek.record.name, seek.record.titles) == ("Alice", "04")
    await zoe.settle()
    (row, _total) = shown(await zoe.command("sought"))
    assert row.split()[2] == "Alice(GM)(TD)"
    await zoe.command(f"play {row.split()[0]}")  # the seek: a game, for a kibitz
    await alice.expect(has_text("Creating:"))
    await alice.command("kibitz good luck")
    said = await zoe.expect(lambda e: isinstance(e, Text) and "kibitzes" in e.text)
    assert said.text.startswith("Alice(GM)[")  # lasker: the title, not the rating
    await alice.close()
    await zoe.expect(has_text("Game aborted when Alice disconnected"))
    await zoe.command("who")  # Alice's logout has been run by now
    assert shown(await zoe.command("finger Alice"))[0] == "Finger of Alice(GM)(TD):"  # offline
    for client in (admin, zoe):
        await client.close()


async def test_wa_carries_the_title_bits(server: Server) -> None:
    admin = await boss(server)
    await admin.command("+wim Wanda")  # not registered yet: no player
    await asyncio.to_thread(server.store.add_user, "Wanda", "pw")
    await admin.command("+wim Wanda")
    pinned = await login(server, "Pinny", None)
    await pinned.command("iset pin 1")
    wanda = await login(server, "Wanda")
    wa = await pinned.expect(
        lambda e: isinstance(e, IvarLine) and isinstance(e.record, ivars.PlayerArrived)
    )
    assert (wa.record.name, wa.record.titles) == ("Wanda", "40")
    for client in (admin, pinned, wanda):
        await client.close()


async def test_icc_datagrams_carry_the_titles_and_dg_titles_tells_a_change(server: Server) -> None:
    watching = (DG.PLAYER_ARRIVED, DG.TITLES, DG.PERSONAL_TELL, DG.SHOUT, DG.CHANNEL_TELL)
    admin = await boss(server, (DG.WHO_AM_I,))
    (me,) = grams(admin.events, DG.WHO_AM_I)
    assert (me.myname, me.titles) == ("Boss", "*")
    await admin.command("+fm Fred")
    await asyncio.to_thread(server.store.add_user, "Fred", "pw")
    await admin.command("+fm Fred")
    icky = await login(server, "Icky", None, watching)
    fred = await login(server, "Fred", grams=(DG.WHO_AM_I, DG.PLAYER_ARRIVED, DG.TITLES))
    (me,) = grams(fred.events, DG.WHO_AM_I)
    assert me.titles == "FM"
    arrived = await icky.expect_dg(DG.PLAYER_ARRIVED, playername="Fred")
    assert arrived.titles == "FM"
    await fred.command("tell Icky hi")
    told = await icky.expect_dg(DG.PERSONAL_TELL)
    assert (told.playername, told.titles) == ("Fred", "FM")
    await fred.command("shout all")
    shout = await icky.expect_dg(DG.SHOUT)
    assert (shout.playername, shout.titles) == ("Fred", "FM")
    await icky.command("+channel 50")
    await fred.command("+channel 50")
    await fred.command("tell 50 fifty")
    channel = await icky.expect_dg(DG.CHANNEL_TELL)
    assert (channel.playername, channel.titles) == ("Fred", "FM")
    await admin.command("+gm Fred")  # online: DG_TITLES at once, to Fred too
    changed = await icky.expect_dg(DG.TITLES, playername="Fred")
    assert changed.titles == "FM GM"
    assert (await fred.expect_dg(DG.TITLES)).titles == "FM GM"
    await admin.command("-fm Fred")
    await admin.command("-gm Fred")
    await icky.expect_dg(DG.TITLES, playername="Fred", titles="")
    await admin.command("asetadmin Fred 1")  # the administrator's "*" is a title too
    await icky.expect_dg(DG.TITLES, playername="Fred", titles="*")
    for client in (admin, icky, fred):
        await client.close()


async def test_dg_titles_needs_dg_player_arrived(server: Server) -> None:
    admin = await boss(server)
    alice = await login(server, "Alice")
    lone = await login(server, "Lone", None, (DG.TITLES,))
    await admin.command("+gm Alice")
    await lone.command("who")  # after the change's unit
    assert grams(lone.events, DG.TITLES) == []
    for client in (admin, alice, lone):
        await client.close()


async def test_a_seek_dg_carries_the_titles(server: Server) -> None:
    admin = await boss(server)
    await admin.command("+wgm Wendy")
    await asyncio.to_thread(server.store.add_user, "Wendy", "pw")
    await admin.command("+wgm Wendy")
    wendy = await login(server, "Wendy")
    await wendy.command("seek 5 0 u")
    icc = await login(server, "Icky", None, (DG.SEEK,))
    (record,) = grams(icc.events, DG.SEEK)
    assert (record.playername, record.titles) == ("Wendy", "WGM")
    for client in (admin, wendy, icc):
        await client.close()


# -- showlist as DG_STRINGLIST_BEGIN and DG_STRINGLIST_ITEM --------------------------------


async def test_stringlist_datagrams_replace_the_columns(server: Server) -> None:
    admin = await boss(server)
    for name in ("Zed", "amy"):
        await asyncio.to_thread(server.store.add_user, name, "pw")
        await admin.command(f"+gm {name}")
    icc = await login(server, "Icky", None, (DG.STRINGLIST_BEGIN,))
    events = await icc.command("=gm")
    begin = grams(events, DG.STRINGLIST_BEGIN)
    assert [(b.nhits, b.description) for b in begin] == [(2, "-- gm list: 2 names --")]
    assert [item.item for item in grams(events, DG.STRINGLIST_ITEM)] == ["amy", "Zed"]
    assert not any("gm list" in line or "amy" in line for line in shown(events))
    plain = await login(server, "Plain", None, (DG.LIST,))  # 79 off: the text
    events = await plain.command("showlist gm")
    assert shown(events) == ["-- gm list: 2 names --", "amy  Zed"]
    assert grams(events, DG.STRINGLIST_BEGIN) == []
    assert [g.items for g in grams(events, DG.LIST)] == [("amy", "Zed")]
    for client in (admin, icc, plain):
        await client.close()


# -- from the shell ------------------------------------------------------------------------


def test_icswire_user_title_keeps_each_list(database_url: str) -> None:
    def run(*args: str) -> Any:
        return CliRunner().invoke(user, [*args, "--database", database_url])

    assert run("add", "Alice", "--password", "pw").exit_code == 0
    for which in (*LISTS, "c"):
        result = run("title", "alice", which)
        expected = "computer" if which == "c" else which
        if which == "c":  # the computer list has Alice already
            assert result.output == "alice: nothing to change.\n"
        else:
            assert result.output == f"alice added to the {expected} list.\n"
    assert run("title", "Alice", "admin").output == "Alice added to the admin list.\n"
    with Store(database_url) as store:
        account = store.load("Alice")
        assert account is not None and account.admin
        assert sorted(account.server_lists) == sorted(LISTS)
        assert store.list_admins() == ["Alice"]
    assert run("title", "Alice", "GM", "--remove").output == "Alice removed from the gm list.\n"
    assert run("title", "Alice", "admin", "--remove").exit_code == 0
    assert run("td", "Alice", "--remove").output == "Alice removed from the td list.\n"
    with Store(database_url) as store:
        account = store.load("Alice")
        assert account is not None and not account.admin
        assert "gm" not in account.server_lists and "td" not in account.server_lists
    result = run("title", "Alice", "blind")
    assert result.exit_code == 2 and "Invalid value for 'LIST'" in result.output
    result = run("title", "Nobody1", "gm")
    assert result.exit_code == 1 and "no such user: Nobody1" in result.output
