"""The list of events (DG_TOURNEY 103, DG_REMOVE_TOURNEY 104): ``qaddevent`` and
``qremoveevent`` for TDs and administrators with the spec's syntax, limits and indices,
``events`` for everybody, the DGs to whoever has them on (the list when turned on and at
login), and the list kept across a restart."""

from __future__ import annotations

import asyncio

from icswire.protocol.datagrams import DG
from icswire.server.app import Server
from icswire.server.core.model.tourneys import ListedEvent
from icswire.server.core.storage.store import Store
from icswire.server.features.events import parse_event

from .client import Client
from .support import bits, connect, grams, texts
from .test_td_commands import login, td

TOMATO = (
    "qaddevent 100 4 Blitz tournament! Tomato 5 0 Swiss, have 3 players, looking for 8..16."
    " | tell tomato join & tell 46 Hi, I'm in | | tell tomato info | This tournament will"
    " take an hour or two, are you reasonably sure you will have time to complete it?"
)


async def test_a_td_posts_and_removes_an_event_and_the_dgs_follow(server: Server) -> None:
    mamer = await td(server)
    fan = await login(server, "Fan", True, DG.TOURNEY, DG.REMOVE_TOURNEY)
    assert texts(await mamer.command(TOMATO)) == ["Event 100 added."]
    posted = await fan.expect_dg(DG.TOURNEY, index=100)
    assert posted.bitfield == 4
    assert posted.description.startswith("Blitz tournament! Tomato 5 0 Swiss")
    assert posted.join_command == "tell tomato join & tell 46 Hi, I'm in"
    assert posted.watch_command == "" and posted.info_command == "tell tomato info"
    assert posted.confirm_text.startswith("This tournament will take an hour")
    # everybody lists it as text, FICS's face and ICC's alike
    guest = await login(server, "Visitor", False)
    assert texts(await guest.command("events")) == [
        "Events:",
        " 100  Blitz tournament! Tomato 5 0 Swiss, have 3 players, looking for 8..16.",
        "        Join: tell tomato join & tell 46 Hi, I'm in",
        "        Info: tell tomato info",
    ]
    # the same index supersedes it
    assert texts(await mamer.command("qaddevent 100 4 Blitz Swiss, 5 players now | x")) == [
        "Event 100 replaced."
    ]
    await fan.expect_dg(DG.TOURNEY, index=100, description="Blitz Swiss, 5 players now")
    assert texts(await mamer.command("qremoveevent 100")) == ["Event 100 removed."]
    await fan.expect_dg(DG.REMOVE_TOURNEY, index=100)
    assert texts(await guest.command("events")) == ["There are no events."]
    assert texts(await mamer.command("qremoveevent 100")) == ["There is no event 100."]
    for client in (mamer, fan, guest):
        await client.close()


async def test_turning_the_dg_on_or_logging_in_with_it_sends_the_list(server: Server) -> None:
    mamer = await td(server)
    await mamer.command("qaddevent 40 1 Simul by Mamer | tell mamer join")
    await mamer.command("qaddevent 41 0 Club championship, round 3 | | observe 1")
    early = await login(server, "Early", True, DG.TOURNEY)
    await early.expect_dg(DG.TOURNEY, index=41)
    assert [g.index for g in grams(early.events, DG.TOURNEY)] == [40, 41]
    late = await login(server, "Late")
    await late.command("set-2 103 1")
    assert [g.index for g in grams(late.events, DG.TOURNEY)] == [40, 41]
    for client in (mamer, early, late):
        await client.close()


async def test_nobody_but_a_td_or_an_administrator_posts(server: Server) -> None:
    alice = await login(server, "Alice")
    assert texts(await alice.command("qaddevent 100 0 Mine | x")) == [
        "Only TDs and administrators may use qaddevent."
    ]
    assert texts(await alice.command("qremoveevent 100")) == [
        "Only TDs and administrators may use qremoveevent."
    ]
    await asyncio.to_thread(server.store.add_user, "Boss", "pw")
    await asyncio.to_thread(server.store.set_admin, "Boss", True)
    boss = await login(server, "Boss")
    assert texts(
        await boss.command("qaddevent 1 7 Kasparov - Leko | | observe 1 | finger L |")
    ) == ["Event 1 added."]
    mamer = await td(server)
    assert texts(await mamer.command("qremoveevent 1")) == ["Event indices are 40-999 for you."]
    for client in (alice, boss, mamer):
        await client.close()


async def test_the_specs_limits_and_syntax(server: Server) -> None:
    mamer = await td(server)
    await mamer.command("set width 240")  # the usage line, unwrapped
    usage = (
        "Usage: qaddevent <index> <bitfield> <description> | <join-commands> |"
        " <watch-commands> | <info-commands> | <confirm-text> [| <group>]"
    )
    for line, said in (
        ("qaddevent", usage),
        ("qaddevent 100", usage),
        ("qaddevent 100 x text", usage),
        ("qaddevent 100 0 | join", usage),
        ("qaddevent 100 0 a | b | c | d | e | f | g", usage),
        ("qaddevent 39 0 text", "Event indices are 40-999 for you."),
        ("qaddevent 1000 0 text", "Event indices are 40-999 for you."),
        ("qaddevent 100 16 text", "The bitfield is a number from 0 to 15."),
        (f"qaddevent 100 0 {'d' * 320}", "The description is limited to 319 characters."),
        (f"qaddevent 100 0 d | {'j' * 100}", "The join commands are limited to 99 characters."),
        (f"qaddevent 100 0 d | | | {'i' * 100}", "The info commands are limited to 99 characters."),
        (
            f"qaddevent 100 0 d | | | | {'c' * 320}",
            "The confirm text is limited to 319 characters.",
        ),
        ("qaddevent 100 0 d | | | | | nobody", None),
        ("qremoveevent x", "Usage: qremoveevent <index>"),
    ):
        answer = texts(await mamer.command(line))
        if said is None:
            assert answer[0].startswith('There is no group "nobody"'), answer
        else:
            assert answer == [said], line
    assert texts(await mamer.command(f"qaddevent 100 0 {'d' * 319} | {'j' * 99}")) == [
        "Event 100 added."
    ]
    await mamer.close()


def test_pipes_and_ampersands_are_quoted_with_a_backslash() -> None:
    class Td:
        admin = False
        name = "Mamer"

    found = parse_event(Td(), r"50 2 Pipes \| and \& | tell m join \& more & +ch 5 | | | Sure\|?")  # type: ignore[arg-type]
    assert found == ListedEvent(
        50, 2, "Pipes | and &", r"tell m join \& more & +ch 5", "", "", "Sure|?", "", "Mamer"
    )


async def test_a_groups_event_is_seen_by_its_members_only(server: Server) -> None:
    mamer = await td(server)
    other = await login(server, "Other", True, DG.TOURNEY, DG.REMOVE_TOURNEY)
    await mamer.command("set-2 103 1")
    assert texts(await mamer.command("qaddevent 60 0 TDs' meeting | | | | | TD")) == [
        "Event 60 added."
    ]
    assert texts(await other.command("events")) == ["There are no events."]
    assert grams(other.events, DG.TOURNEY) == []
    assert texts(await mamer.command("events"))[1] == "  60  TDs' meeting"
    # made public: the others get it; back to the group: they are told it went
    await mamer.command("qaddevent 60 0 Everybody's meeting")
    await other.expect_dg(DG.TOURNEY, index=60)
    await mamer.command("qaddevent 60 0 TDs' meeting | | | | | td")
    await other.expect_dg(DG.REMOVE_TOURNEY, index=60)
    for client in (mamer, other):
        await client.close()


async def test_the_list_survives_a_restart(database_url: str) -> None:
    store = Store(database_url)
    await asyncio.to_thread(store.add_user, "Mamer", "pw")
    await asyncio.to_thread(store.set_on_server_list, "td", "Mamer", True)
    for round_ in (1, 2):
        server = Server(store, "127.0.0.1", 0)
        await server.start(listen=False)
        try:
            client: Client = await connect(server, (DG.TOURNEY,))
            await client.login("Mamer", "pw", f"level2settings={bits(DG.TOURNEY)}")
            if round_ == 1:
                await client.command("qaddevent 77 0 Kept | tell mamer join")
            else:
                assert [g.index for g in grams(client.events, DG.TOURNEY)] == [77]
                assert texts(await client.command("events"))[1] == "  77  Kept"
            await client.close()
        finally:
            await server.stop()
    store.close()
