"""FICS's texts byte for byte as lasker-2.2.3 writes them (issue 23), to FICS sessions:
``inchannel`` (``com_inchannel``) ..."""

from __future__ import annotations

from icswire.server.app import Server

from .client import Client
from .support import connect
from .support import text_lines as lines


async def user(server: Server, name: str, *setup: str) -> Client:
    client = await connect(server)
    await client.login(name)
    for line in setup:
        await client.command(line)
    return client


async def test_inchannel_as_lasker_writes_it(server: Server) -> None:
    await user(server, "Zed", "+channel 50", "+channel 4")
    await user(server, "Amy", "+channel 50")
    asker = await user(server, "Asker")
    assert lines(await asker.command("inchannel 50")) == [
        "Channel 50: Amy Zed",
        "2 people are in channel 50.",
    ]
    assert lines(await asker.command("inchannel 4")) == [
        "Channel 4: Zed",
        "1 person is in channel 4.",
    ]
    assert lines(await asker.command("inchannel 7")) == ["Channel 7 is empty."]
    assert lines(await asker.command("inchannel 256")) == [
        "No such channel; the largest channel number is 255."
    ]
    assert lines(await asker.command("inchannel")) == ["Channel 4: Zed", "Channel 50: Amy Zed"]
    assert lines(await asker.command("inchannel asker")) == [
        "Asker is in the following channels: No channels found for Asker."
    ]
    assert lines(await asker.command("inchannel zed")) == [
        "Zed is in the following channels:",
        "4     50",
    ]
