"""Level 1 units are labelled with the command as it ran (icc-formats.txt section 3 and
Appendix 1): the "0" form of a command typed without arguments ("CN_FOLLOW0 is for follow
with no arguments. Similarly CN_OBSERVE0 etc."), CN_CHANNELQTELL for a qtell to a channel."""

from __future__ import annotations

import asyncio

import pytest

from icswire.protocol.events import UnitStart
from icswire.protocol.level1 import CommandNumber as CN
from icswire.server.app import Server

from .client import Client
from .support import connect


async def icc_user(server: Server, name: str, password: str | None = None) -> Client:
    client = await connect(server)
    await client.login(name, password, "level1=1")
    await client.settle()
    return client


async def label(client: Client, line: str) -> int:
    """The command number of the unit of ``line``'s output to its issuer."""
    events = await client.command(line)
    starts = [e for e in events if isinstance(e, UnitStart) and e.depth == 1]
    return starts[0].command


@pytest.mark.parametrize(
    ("word", "bare", "with_args", "full"),
    [
        ("help", CN.CN_HELP0, "help tell", CN.CN_HELP),
        ("news", CN.CN_NEWS0, "news all", CN.CN_NEWS),
        ("observe", CN.CN_OBSERVE0, "observe 99", CN.CN_OBSERVE),
        ("follow", CN.CN_FOLLOW0, "follow nobody", CN.CN_FOLLOW),
        ("messages", CN.CN_MESSAGE0, "messages nobody", CN.CN_MESSAGE),
        ("partner", CN.CN_PARTNER0, "partner nobody", CN.CN_PARTNER),
        ("shout", CN.CN_SHOUT0, "shout hello", CN.CN_SHOUT),
        ("match", CN.CN_MATCH0, "match nobody", CN.CN_MATCH),
    ],
)
async def test_a_command_without_arguments_runs_as_its_0_form(
    server: Server, word: str, bare: int, with_args: str, full: int
) -> None:
    await asyncio.to_thread(server.store.add_user, "Iccy", "pw")
    client = await icc_user(server, "Iccy", "pw")
    assert await label(client, word) == bare
    assert await label(client, f"{word}  ") == bare  # blanks are no arguments
    assert await label(client, with_args) == full


async def test_a_qtell_to_a_channel_is_a_channel_qtell(server: Server) -> None:
    await asyncio.to_thread(server.store.add_user, "Tomato", "pw")
    await asyncio.to_thread(server.store.set_on_server_list, "td", "Tomato", True)
    tomato = await icc_user(server, "Tomato", "pw")
    member = await icc_user(server, "Member")
    await member.command("+channel 64")
    assert await label(tomato, "qtell 64 pairings are out") == CN.CN_CHANNELQTELL
    heard = await member.expect(lambda e: isinstance(e, UnitStart) and e.issuer == "Tomato")
    assert heard.command == CN.CN_CHANNELQTELL
    assert await label(tomato, "qtell member hi") == CN.CN_QTELL
