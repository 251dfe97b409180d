"""Every command PyChess (Debian's 1.0.3) sends at login, in its FICS mode and in its ICC
mode, in its order, is accepted: none is answered as unknown, ambiguous or a bad value.
The lists are what pychess_driver.py recorded PyChess sending to this server (its main
connection, then its helper connection), with the guest name it was given."""

from __future__ import annotations

import pytest

from icswire.protocol.events import Text
from icswire.server.app import Server

from .client import Client
from .support import connect

FICS_MAIN = [
    "iset defprompt 1", "iset ms 1", "set interface PyChess 1.0.3", "showlist",
    "iset seekinfo 1", "iset seekremove 1", "iset showownseek 1", "iset ms 1", "set style 12",
    "iset startpos 1", "iset movecase 1", "set unobserve 3", "set autoflag 1",
    "set Lang English", "set height 240", "inchannel {me}", "help channel_list", "stored",
    "history", "journal", "iset nowrap 1", "news", "iset pendinfo 1", "date",
]  # fmt: skip
FICS_HELPER = [
    "iset defprompt 1", "iset ms 1", "set open 1", "set seek 0", "set shout 0",
    "set cshout 0", "set tell 0", "set chanoff 1", "set gin 1", "set availinfo 1",
    "iset allresults 1", "iset pin 1", "who IbslwBzSLx", "games /bslwBzSLx", "date",
]  # fmt: skip
ICC_MAIN = [
    "set prompt 0", "iset defprompt 1", "iset ms 1", "set interface PyChess 1.0.3",
    *(f"set-2 {n} 1" for n in (42, 50, 51, 15, 18, 19, 16, 17, 33, 34, 35, 36, 101)),
    "set-2 113 0", "set-2 144 0",
    *(f"set-2 {n} 1" for n in (24, 40, 23, 22, 132, 84, 77)),
    "set style 13", "set unobserve 0", "set autoflag 1",
    *(f"set-2 {n} 1" for n in (20, 26, 31, 32, 28, 27, 46)),
    "set Lang English", "set height 240", "inchannel {me}", "help channel_list",
    *(f"set-2 {n} 1" for n in (76, 72, 73)),
    "stored", "history", "liblist",
    *(f"set-2 {n} 1" for n in (0, 21, 29, 30)),
    "set pin 1", "set open 1", "set gin 1", "set availinfo 1",
    *(f"set-2 {n} 1" for n in (55, 2, 103, 116)),
    "games *19", "iset lock 1", "date", "set open 0", "set gin 0", "set availinfo 0",
]  # fmt: skip

REFUSALS = ("Command not found", "Ambiguous", "No such variable", "Bad value", "Usage:")


async def refused(client: Client, commands: list[str]) -> list[tuple[str, str]]:
    found = []
    for command in commands:
        line = command.format(me=client.name)
        for event in await client.command(line):
            if isinstance(event, Text) and any(r in event.text for r in REFUSALS):
                found.append((line, event.text))
    return found


@pytest.mark.parametrize("commands", [FICS_MAIN, FICS_HELPER], ids=["main", "helper"])
async def test_pychess_fics_login_commands_are_all_accepted(
    server: Server, commands: list[str]
) -> None:
    client = await connect(server)
    await client.login("guest")
    assert await refused(client, commands) == []


async def test_pychess_icc_login_commands_are_all_accepted(server: Server) -> None:
    client = await connect(server)
    await client.login("guest")
    await client.command("set level1 5")
    assert await refused(client, ICC_MAIN) == []
