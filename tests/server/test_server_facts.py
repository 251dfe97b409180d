"""The commands of issues 22 and 23 about the server and its players: ``hbest``,
``hrank``, ``wildrank``, ``statistics`` (rankings.py), ``handles``, ``showadmins``,
``yfinger`` (people.py), ``limits``, ``whenshut``, ``servers``, ``boards``
(serverinfo.py), ``index``, ``info`` (help.py), ``toggle`` (lists.py), ``close`` and
``variables`` (settings.py): FICS's texts (lasker-2.2.3) for a FICS session, ICC's
command numbers for an ICC one."""

from __future__ import annotations

import asyncio
from typing import Any

from icswire.protocol.events import UnitEnd, UnitStart
from icswire.protocol.level1 import CommandNumber as CN
from icswire.server.app import Server

from .client import Client
from .support import connect, registered
from .support import text_lines as texts
from .support import texts as shown


async def user(server: Server, name: str, password: str | None = None, *setup: str) -> Client:
    client = await connect(server)
    await client.login(name, password, *setup)
    await client.settle()
    return client


def unit(events: list[Any]) -> int:
    """The command number of the first level 1 unit of ``events``."""
    return next(e.command for e in events if isinstance(e, UnitStart))


def inside(events: list[Any]) -> list[str]:
    """The text lines of the first level 1 unit of ``events``."""
    start = next(i for i, e in enumerate(events) if isinstance(e, UnitStart))
    end = next(i for i, e in enumerate(events) if isinstance(e, UnitEnd) and i > start)
    return texts(events[start:end])


# -- rankings --------------------------------------------------------------------------------


async def test_hbest_and_hrank_leave_the_computers_out(server: Server) -> None:
    await registered(server, "Deep", Blitz=(2400, 30, 0, 0))
    await registered(server, "Anna", Blitz=(1800, 20, 0, 0))
    await registered(server, "Bert", Blitz=(1900, 15, 5, 0))
    await asyncio.to_thread(server.store.set_on_server_list, "computer", "Deep", True)
    guest = await user(server, "Zoe")
    assert texts(await guest.command("best b")) == [
        "         Blitz",
        "",
        "   1. Deep         2400",
        "   2. Bert         1900",
        "   3. Anna         1800",
    ]
    assert texts(await guest.command("hbest b")) == [
        "         Blitz",
        "",
        "   1. Bert         1900",
        "   2. Anna         1800",
    ]
    assert texts(await guest.command("hrank anna b")) == texts(await guest.command("hbest b"))
    assert texts(await guest.command("hrank 2-2 b")) == [
        "         Blitz",
        "",
        "   2. Anna         1800",
    ]
    assert texts(await guest.command("rank 2-2 b")) == [
        "         Blitz",
        "",
        "   2. Bert         1900",
    ]
    assert texts(await guest.command("hrank deep b")) == [
        "         Blitz",
        "",
        "----  Deep         2400",
    ]
    assert shown(await guest.command("hbest x")) == ["Usage: hbest [b][s][w]"]
    assert shown(await guest.command("hrank 3x")) == [
        "Usage: hrank [name [b][s][w]] | hrank m-n [b][s][w]"
    ]


async def test_wildrank_ranks_the_wild_rating(server: Server) -> None:
    await registered(server, "Anna", Wild=(1700, 10, 10, 0), Blitz=(2000, 20, 0, 0))
    await registered(server, "Bert", Wild=(1750, 20, 0, 0))
    fics = await user(server, "Zoe")
    assert texts(await fics.command("wildrank anna")) == [
        "          Wild",
        "",
        "   1. Bert         1750",
        "   2. Anna         1700",
    ]
    assert texts(await fics.command("wildrank 2-5")) == [
        "          Wild",
        "",
        "   2. Anna         1700",
    ]
    assert shown(await fics.command("wildrank nobody")) == ["No ratings to show."]
    assert shown(await fics.command("wildrank a b")) == ["Usage: wildrank [name | m-n]"]
    icc = await user(server, "Iccy", None, "level1=1")
    assert unit(await icc.command("wildrank")) == CN.CN_WILDRANK


async def test_statistics_averages_the_ratings_of_each_type(server: Server) -> None:
    await registered(server, "Anna", Blitz=(1800, 20, 0, 0), Standard=(1500, 1, 0, 0))
    await registered(server, "Bert", Blitz=(1600, 2, 0, 0), Bullet=(1400, 0, 1, 0))
    fics = await user(server, "Zoe")
    assert texts(await fics.command("statistics")) == [
        "                Standard       Blitz   Lightning        Wild",
        "average:         1500.00     1700.00     1400.00        0.00",
        "std dev:            0.00      100.00        0.00        0.00",
        "number :            1           2           1           0",
    ]
    icc = await user(server, "Iccy", None, "level1=1")
    events = await icc.command("statistics")
    assert unit(events) == CN.CN_STATISTICS
    lines = inside(events)
    assert "Blitz              2    1700.0     100.0" in lines
    assert "Crazyhouse         0       0.0       0.0" in lines


# -- people ----------------------------------------------------------------------------------


async def test_handles_lists_the_registered_names_a_prefix_begins(server: Server) -> None:
    for name in ("Fred", "Freddy", "Frodo", "Anna"):
        await asyncio.to_thread(server.store.add_user, name, "pw")
    guest = await user(server, "Zoe")
    assert texts(await guest.command("handles fr")) == [
        "Found 3 names.",
        "fred    freddy  frodo   ",  # lasker's multicol pads every column
    ]
    assert texts(await guest.command("handles Q")) == ["Found 0 names."]
    assert texts(await guest.command("handles")) == ["Usage: handles <prefix>"]


async def test_showadmins_lists_the_administrators_online(server: Server) -> None:
    await registered(server, "Boss")
    await asyncio.to_thread(server.store.set_admin, "Boss", True)
    guest = await user(server, "Zoe")
    empty = [
        "  Administrator Name                                 Idle Time",
        "  ------------------                                 ---------",
    ]
    assert texts(await guest.command("showadmins")) == empty
    await user(server, "Boss", "pw")
    shown_now = texts(await guest.command("showadmins"))
    assert shown_now[:2] == empty
    assert shown_now[2].startswith(f"  {'boss':<50} ") and shown_now[2].endswith("secs")
    icc = await user(server, "Iccy", None, "level1=1")
    assert unit(await icc.command("showadmins")) == CN.CN_SHOWADMIN


async def test_yfinger_gives_key_value_lines_for_programs(server: Server) -> None:
    await registered(server, "Anna", Blitz=(1812, 12, 7, 1), Bullet=(1500, 3, 1, 0))
    await asyncio.to_thread(server.store.set_on_server_list, "gm", "Anna", True)
    icc = await user(server, "Iccy", None, "level1=1")
    events = await icc.command("yfinger anna")
    assert unit(events) == CN.CN_YFINGER
    lines = inside(events)
    assert lines[:2] == ["Name Anna", "Titles GM"]
    assert lines[2:6] == ["BliRat 1812", "BliWin 12", "BliLoss 7", "BliDraw 1"]
    assert "BulNeed 16" in lines and "BliNeed 0" not in lines
    assert all(" " in line for line in lines)  # PyChess splits each line at its first blank
    guest = inside(await icc.command("yfinger"))
    assert guest[0].startswith("Name Iccy") and guest[1:] == ["Titles U"]
    assert inside(await icc.command("yfinger nosuch")) == [
        'There is no player matching the name "nosuch".'
    ]


# -- the server ------------------------------------------------------------------------------


async def test_limits_prints_the_servers_real_limits(server: Server) -> None:
    server.core.limits.set("max_aliases=7")
    server.core.limits.set("shout=2/30")
    server.core.limits.set("max_connections=500")
    guest = await user(server, "Zoe")
    assert texts(await guest.command("limits")) == [
        "",
        "Current hardcoded limits:",
        "  Max number of players: 500",
        "  Max number of channels and max capacity: 256",
        "  Max number of channels one can be in: 200",
        "  Max number of people on the notify list: 200",
        "  Max number of aliases: 7",
        "  Max number of people on the censor list: 200",
        "  Max number of messages one can receive: 40",
        "  Max number of seeks posted from one address: 10",
        "  Min number of games to be active: 20",
        "  Size of journal (entries): 26",
        "",
        "Admin settable limits:",
        "  Shout quota gives 2 shouts at once, then one per 30 seconds.",
        "  Idle logout after 3600 seconds (not while playing or examining).",
    ]
    server.core.limits.set("shout=off")
    assert "  Shouts have no quota." in texts(await guest.command("limits"))
    icc = await user(server, "Iccy", None, "level1=1")
    assert unit(await icc.command("limits")) == CN.CN_LIMITS


async def test_whenshut_servers_and_boards(server: Server) -> None:
    guest = await user(server, "Zoe")
    assert shown(await guest.command("whenshut")) == ["No shutdown currently in progress"]
    assert shown(await guest.command("servers")) == [
        "There are no other servers known to this server."
    ]
    assert shown(await guest.command("boards")) == ["Categories Available:", "wild"]
    assert shown(await guest.command("boards wild")) == [
        "Boards Available For Category wild:",
        *("0", "1", "2", "3", "4", "5", "8", "8a", "fr"),
    ]
    assert shown(await guest.command("boards odd")) == [
        "Boards Available For Category odd:",
        'No such category odd, try "boards".',
    ]


async def test_info_and_index_list_and_show_the_help_topics(server: Server) -> None:
    guest = await user(server, "Zoe")
    listed = " ".join(texts(await guest.command("info"))).split()
    assert {"intro", "style12", "iv_block"} <= set(listed) and "tell" not in listed
    intro = texts(await guest.command("info intr"))
    assert intro == texts(await guest.command("help intro"))
    assert shown(await guest.command("info tell")) == ['No information available on "tell".']
    assert shown(await guest.command("info sty"))[0] == "Matches:"
    index = " ".join(texts(await guest.command("index"))).split()
    assert {"intro", "tell", "who"} <= set(index)
    assert texts(await guest.command("index xtel")) == texts(await guest.command("help xtell"))
    assert shown(await guest.command("index 0q")) == ['No index entry for "0q".']
    icc = await user(server, "Iccy", None, "level1=1")
    assert unit(await icc.command("info")) == CN.CN_INFO


# -- lists and settings ----------------------------------------------------------------------


async def test_toggle_adds_a_name_that_is_off_and_removes_one_that_is_on(server: Server) -> None:
    await registered(server, "Fred")
    guest = await user(server, "Zoe")
    assert shown(await guest.command("toggle notify fred")) == ["[Fred] added to your notify list."]
    assert shown(await guest.command("toggle notify Fred")) == [
        "[Fred] removed from your notify list."
    ]
    assert shown(await guest.command("toggle ch 53")) == ["[53] added to your channel list."]
    assert shown(await guest.command("toggle ch 53")) == ["[53] removed from your channel list."]
    assert shown(await guest.command("ch 54")) == ["[54] added to your channel list."]  # lasker's
    assert shown(await guest.command("channel 54")) == ["[54] removed from your channel list."]
    assert shown(await guest.command("toggle zzz fred")) == ["'zzz' does not match any list name."]
    assert shown(await guest.command("toggle notify")) == ["Usage: toggle <list> <name>"]


async def test_close_is_set_open_0_and_variables_is_vars(server: Server) -> None:
    guest = await user(server, "Zoe")
    said = shown(await guest.command("set open 0"))
    await guest.command("set open 1")
    assert shown(await guest.command("close")) == said
    assert shown(await guest.command("close")) == said  # not a toggle
    assert not server.core.world.find("Zoe").variables["open"]  # type: ignore[union-attr]
    assert texts(await guest.command("variables")) == texts(await guest.command("vars"))
    assert texts(await guest.command("variables zoe")) == texts(await guest.command("vars zoe"))
