"""What a user's connection sends, as the server reads it: telnet commands taken out
across reads of any size (a window-size subnegotiation never reaches the command line, a
timing mark answer split in two still answers a ping), and control characters gone before
an overlong line is cut, so junk cannot push a command out of the part that is kept.
Lines run one at a time and in order, more of them at once than the queue holds too, and
the lines a client sent before closing its side all run; an idle user has no task."""

from __future__ import annotations

import asyncio
import socket

import pytest

from icswire.protocol.decoder import Decoder
from icswire.protocol.events import Prompt, Text
from icswire.server.app import Server
from icswire.server.core.net.session import MAX_LINE, MAX_QUEUED

from .client import Client

pytestmark = pytest.mark.sockets  # the wire is what these tests are about


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


async def test_more_lines_at_once_than_the_queue_holds_all_run_in_order(server: Server) -> None:
    client = await Client.connect(server.port)
    await client.login("Typist")
    count = MAX_QUEUED * 2 + 10
    client.writer.write(b"".join(f"set 1 n{i}\n".encode() for i in range(count)))
    await client.writer.drain()
    for i in range(count):
        await client.expect_text(f"Note 1 set: n{i}")
    await client.send("date")
    await client.expect_text("Local time")


async def test_the_lines_sent_before_the_client_closes_its_side_all_run(server: Server) -> None:
    sock = await asyncio.to_thread(socket.create_connection, ("127.0.0.1", server.port))
    sock.sendall(b"guest\n\nset 1 first\nset 1 second\n")
    sock.shutdown(socket.SHUT_WR)
    sock.settimeout(10)
    received = b""
    while data := await asyncio.to_thread(sock.recv, 65536):
        received += data
    sock.close()
    said = [e.text for e in Decoder().feed(received) if isinstance(e, Text)]
    assert "Note 1 set: first" in said and "Note 1 set: second" in said
    assert said.index("Note 1 set: first") < said.index("Note 1 set: second")


async def test_an_idle_user_has_no_task(server: Server) -> None:
    """A connection is its session's protocol: after the login a user's lines run in a
    task that ends with them, so idle users cost the server no task."""
    before = len(asyncio.all_tasks())
    clients = [await Client.connect(server.port) for _ in range(10)]
    for client in clients:
        await client.login()
        await client.command("date")
    async with asyncio.timeout(5):
        while len(asyncio.all_tasks()) > before:
            await asyncio.sleep(0.01)
    await clients[0].send("date")  # and a line still runs
    await clients[0].expect(lambda e: isinstance(e, Prompt))
