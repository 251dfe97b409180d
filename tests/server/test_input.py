"""What a user's connection sends, as the server reads it: telnet commands taken out
across reads of any size (a window-size subnegotiation never reaches the command line, a
timing mark answer split in two still answers a ping), and control characters gone before
an overlong line is cut, so junk cannot push a command out of the part that is kept."""

from __future__ import annotations

import asyncio

from icswire.server.app import Server
from icswire.server.core.session import MAX_LINE

from .client import Client


async def send_in_pieces(client: Client, data: bytes) -> None:
    """``data`` one byte per write, each write read by the server on its own."""
    for byte in data:
        client.writer.write(bytes([byte]))
        await client.writer.drain()
        await asyncio.sleep(0.002)


async def test_telnet_commands_split_across_reads_never_reach_the_text(server: Server) -> None:
    listener = await Client.connect(server.port)
    await listener.login("Listener")
    talker = await Client.connect(server.port)
    await talker.login("Talker")
    naws = b"\xff\xfa\x1f\x00\x50\x00\x0a\xff\xf0"  # window 80x10: a newline in its data
    await send_in_pieces(talker, naws + b"tell Listener he\xff\xfb\x01llo \xff\xff\n")
    told = await listener.expect_text("Talker(U) tells you:")
    assert told.text.endswith("tells you: hello \xff"), told.text
    await talker.send("date")
    await talker.expect_text("Local time")
    assert not any("Command not found" in getattr(e, "text", "") for e in talker.events)


async def test_a_ping_answered_in_pieces_is_answered(server: Server) -> None:
    client = await Client.connect(server.port)
    await client.login("Pinger")
    client.writer.write(b"ping\n")
    await client.writer.drain()
    await client.expect(lambda e: getattr(e, "data", None) == b"\xff\xfd\x06")
    # The test client answers at once; this answer is one more, in pieces, and must not
    # be read as text either.
    await send_in_pieces(client, b"\xff\xfc\x06")
    await client.expect_text("Ping time for Pinger:")
    await client.send("date")
    await client.expect_text("Local time")


async def test_control_junk_around_a_command_does_not_cut_it_off(server: Server) -> None:
    client = await Client.connect(server.port)
    await client.login("Junker")
    junk = b"\x00\x07\x1b" * (MAX_LINE * 2)  # 6 KiB of control characters, no text
    client.writer.write(junk[:3000] + b"finger Junker" + junk + b"\n")
    await client.writer.drain()
    await client.expect_text("Finger of Junker")
