"""``who`` and ``finger`` byte for byte as freechess.org (lasker's ``com_who`` and
``com_stats``) prints them to a FICS session: interfaces cut fixed columns, so a rating one
column off costs a name its first letter.

The room: an administrator (``(*)``), a computer (``(C)``), two players in a game, one
examining, a registered player rated under 1000, a guest not open and an idle guest."""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import AsyncIterator
from datetime import UTC, datetime

import pytest

from icswire.protocol.level1 import CommandNumber as CN
from icswire.server.app import Server
from icswire.server.core.model.tables import Terms
from icswire.server.core.render.batch import Batch

from .client import Client
from .support import bits, connect, registered
from .support import text_lines as texts

TODAY = datetime.now(UTC).strftime("%d-%b-%Y")
GONE = 400  # seconds without input: idle (``.``) in who, 6 minutes in who v


async def login(server: Server, name: str, password: str | None = "pw") -> Client:
    client = await connect(server)
    await client.login(name, password)
    return client


@pytest.fixture
async def room(server: Server) -> AsyncIterator[dict[str, Client]]:
    await registered(server, "Boss", Blitz=(2100, 30, 10, 0))
    await asyncio.to_thread(server.store.set_admin, "Boss", True)
    await registered(server, "Deep", Blitz=(1950, 40, 2, 1))
    await registered(server, "Anna", Blitz=(1800, 10, 5, 5), Standard=(1500, 1, 0, 0))
    await registered(server, "Bert", Standard=(1900, 3, 0, 0))
    await registered(server, "Carl", Blitz=(950, 0, 3, 0))
    clients = {name: await login(server, name) for name in ("Boss", "Deep", "Anna", "Bert")}
    clients["Carl"] = await login(server, "Carl")
    clients["Ugo"] = await login(server, "Ugo", None)
    clients["Zoe"] = await login(server, "Zoe", None)
    await clients["Boss"].command("+computer Deep")
    await clients["Ugo"].command("set open 0")
    await clients["Anna"].command("set rated 1")
    online = server.world.online
    batch = Batch(CN.CN_MATCH, None)
    await server.games.start(online["anna"], online["bert"], Terms(initial=5), batch)
    batch.flush()
    await clients["Carl"].command("examine")
    for session in online.values():
        session.connected_at = time.monotonic()  # "On for" 0 minutes for everybody
    online["zoe"].last_input = online["zoe"].connected_at = time.monotonic() - GONE
    yield clients
    for client in clients.values():
        await client.close()


# -- who -------------------------------------------------------------------------------------


async def test_who_terse_columns_by_blitz(room: dict[str, Client]) -> None:
    # by blitz rating, registered before guests at a tie, then by name; down, then across;
    # the rating in four columns (" 950"), then ^ playing, # examining, : closed, . idle
    assert texts(await room["Boss"].command("who")) == [
        "",
        "2100 Boss(*)  1800^Anna     ----^Bert     ++++.Zoe(U)   ",
        "1950 Deep(C)   950#Carl     ++++:Ugo(U)   ",
        "",
        " 7 players displayed (of 7). (*) indicates system administrator.",
    ]


async def test_who_sorts_selections_and_no_ratings(room: dict[str, Client]) -> None:
    boss = room["Boss"]
    assert texts(await boss.command("who s"))[1:3] == [
        "1900^Bert     ---- Boss(*)  ---- Deep(C)  ++++.Zoe(U)   ",
        "1500^Anna     ----#Carl     ++++:Ugo(U)   ",
    ]
    assert texts(await boss.command("who A"))[1:3] == [
        "1800^Anna     2100 Boss(*)  1950 Deep(C)  ++++.Zoe(U)   ",
        "----^Bert      950#Carl     ++++:Ugo(U)   ",
    ]
    assert texts(await boss.command("who l"))[1:3] == [
        "     Anna          Boss(*)       Deep(C)       Zoe(U)   ",
        "     Bert          Carl          Ugo(U)   ",
    ]
    # r: open for rated games (set rated 1), not "registered"; f free; a open and free
    assert texts(await boss.command("who r"))[1:] == [
        "1800^Anna  ",
        "",
        " 1 players displayed (of 7). (*) indicates system administrator.",
    ]
    assert texts(await boss.command("who aU"))[1] == "++++.Zoe(U)  "
    assert texts(await boss.command("who U3"))[1] == "++++.Zoe(U)  "  # the last third


async def test_who_verbose_and_win_loss(room: dict[str, Client]) -> None:
    rule = " +---------------------------------------------------------------+"
    # game, X not open, u registered but not rated / U guest, 17 columns of name and marks
    assert texts(await room["Boss"].command("who v")) == [
        rule,
        " |      User              Standard    Blitz        On for   Idle |",
        rule,
        " |    u Boss(*)           ----        2100            0          |",
        " |    u Deep(C)           ----        1950            0          |",
        " |  1   Anna              1500        1800            0          |",
        " |  2 u Carl              ----         950            0          |",
        " |  1 u Bert              1900        ----            0          |",
        " |   XU Ugo(U)            ++++        ++++            0          |",
        " |    U Zoe(U)            ++++        ++++            6      6   |",
        " |                                                               |",
        " |      7 Players Displayed                                      |",
        rule,
    ]
    assert texts(await room["Boss"].command("who nR")) == [
        "Name               Stand     win loss draw   Blitz    win loss draw    idle",
        "----------------   -----     -------------   -----    -------------    ----",
        "Boss(*)            ----        0    0    0   2100      30   10    0        ",
        "Deep(C)            ----        0    0    0   1950      40    2    1        ",
        "Anna               1500        1    0    0   1800      10    5    5        ",
        "Carl               ----        0    0    0    950       0    3    0        ",
        "Bert               1900        3    0    0   ----       0    0    0        ",
        "      5 Players Displayed.",
    ]


async def test_who_highlights_the_viewers_own_name(room: dict[str, Client]) -> None:
    # lasker's psprintf_highlight: only the asker's own name; the columns ignore the codes
    await room["Carl"].command("set highlight 1")
    lines = texts(await room["Carl"].command("who"))
    assert lines[2] == "1950 Deep(C)   950#\x1b[7mCarl\x1b[0m     ++++:Ugo(U)   "
    lines = texts(await room["Carl"].command("who v"))
    assert (
        lines[6]
        == " |  2 u \x1b[7mCarl             \x1b[0m ----         950            0          |"
    )


# -- finger ----------------------------------------------------------------------------------


async def test_finger_filters_parts_and_freechess_lines(room: dict[str, Client]) -> None:
    zoe = room["Zoe"]
    await room["Anna"].command("set 1 Hello there")
    lines = texts(await zoe.command("finger Anna"))
    assert lines[0] == "Finger of Anna:"
    assert re.fullmatch(r"On for: \d+ secs?   Idle: \d+ secs?", lines[2])
    assert lines[3:] == [
        "(playing game 1: Anna vs. Bert)",
        "",
        "         rating     RD     win   loss   draw  total   best",
        f"Blitz     1800     80.0     10      5      5     20   1800 ({TODAY})",
        "Standard  1500     80.0      1      0      0      1",
        "",
        "Timeseal   : Off",
        "",
        " 1: Hello there",
    ]
    # "/s": only the standard rating (what PyChess's "finger NAME /sbl r" builds on)
    assert texts(await zoe.command("finger Anna /s"))[5:] == [
        "         rating     RD     win   loss   draw  total   best",
        "Standard  1500     80.0      1      0      0      1",
        "",
        "Timeseal   : Off",
        "",
        " 1: Hello there",
    ]
    assert texts(await zoe.command("finger Anna /sbl r"))[5:] == [
        "         rating     RD     win   loss   draw  total   best",
        f"Blitz     1800     80.0     10      5      5     20   1800 ({TODAY})",
        "Standard  1500     80.0      1      0      0      1",
        "",
        "Timeseal   : Off",
    ]
    assert texts(await zoe.command("finger Anna n"))[5:] == [
        "Timeseal   : Off",
        "",
        " 1: Hello there",
    ]
    assert texts(await zoe.command("finger Anna /q")) == [
        "Usage: finger [user] [/[b][B][l][L][s][S][w][x][z]] [r][n]"
    ]
    assert texts(await zoe.command("finger Anna x")) == [
        "Usage: finger [user] [/[b][B][l][L][s][S][w][x][z]] [r][n]"
    ]
    # a "/" filter alone is the asker's own finger
    assert texts(await zoe.command("finger /s"))[0] == "Finger of Zoe(U):"


async def test_finger_marks_examining_and_no_rated_games(
    server: Server, room: dict[str, Client]
) -> None:
    zoe = room["Zoe"]
    assert texts(await zoe.command("finger Deep"))[0] == "Finger of Deep(C):"
    assert texts(await zoe.command("finger Carl"))[3] == "(examining game 2: Carl vs. Carl)"
    await asyncio.to_thread(server.store.add_user, "Newbie", "pw")
    assert texts(await zoe.command("finger Newbie")) == [
        "Finger of Newbie:",
        "",
        "Newbie has never connected.",
        "",
        "Newbie has not played any rated games.",
        "",
    ]


async def test_icc_sessions_keep_icc_finger_lines(server: Server, room: dict[str, Client]) -> None:
    icc = await connect(server, (0,))
    await icc.login("Icky", None, f"level2settings={bits(0)}")
    await asyncio.to_thread(server.store.add_user, "Newbie", "pw")
    assert texts(await icc.command("finger Newbie"))[2] == "(Never connected.)"
    lines = texts(await icc.command("finger Anna /s"))
    assert lines[5:8] == [
        "                  rating [need] win  loss  draw total   best",
        "Standard            1500 [19]     1     0     0     1",
        "",
    ]
    assert lines[8] == "Timeseal: no"
    await icc.close()
