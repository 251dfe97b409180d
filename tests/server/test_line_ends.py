"""Line ends on the wire (issue 23): a FICS-dialect session gets every line ended
``\\n\\r``, as lasker's ``net_send_string`` sends each ``\\n`` (NOTES.md, "Line endings");
a session that turned level 1 or level 2 on talks ICC and keeps ``\\r\\n``."""

from __future__ import annotations

import asyncio

import pytest

from icswire.protocol.telnet import fics_newlines
from icswire.server.app import Server

pytestmark = pytest.mark.sockets


async def _session(server: Server, *login: bytes, commands: bytes) -> bytes:
    """Every byte a connection gets, up to its prompt after ``commands`` ran."""
    reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
    try:
        writer.write(b"".join(line + b"\n" for line in login) + commands + b"date\n")
        received = b""
        async with asyncio.timeout(10):
            while b"Local time" not in received or not received.endswith(b"% "):
                data = await reader.read(65536)
                assert data, received[-200:]
                received += data
        return received
    finally:
        writer.close()


def test_fics_newlines_turns_each_line_end_into_lf_cr_once() -> None:
    assert fics_newlines(b"a\r\nb\nc\n\rd") == b"a\n\rb\n\rc\n\rd"
    assert fics_newlines(b"\r\n\r\nx\r\n") == b"\n\r\n\rx\n\r"
    assert fics_newlines(b"[G]\n\r") == b"[G]\n\r"  # timeseal's ping stays as it is
    assert fics_newlines(b"fics% ") == b"fics% "
    once = fics_newlines(b"\r\n\r\na\nb\r\n")
    assert fics_newlines(once) == once


async def test_a_fics_session_gets_every_line_ended_lf_cr(server: Server) -> None:
    wire = await _session(server, b"Fred", b"", commands=b"set shout 0\nvars\n")
    assert b"\n\r**** Starting FICS session as Fred(U) ****\n\r" in wire
    assert b"fics% You will not hear shouts.\n\rfics% " in wire
    bare = wire.replace(b"\n\r", b"")
    assert b"\n" not in bare and b"\r" not in bare  # no "\r\n", no lone "\n"


async def test_an_icc_session_keeps_cr_lf(server: Server) -> None:
    wire = await _session(server, b"level1=0", b"level2settings=1", b"Gina", b"", commands=b"")
    greeting = wire.index(b"**** Starting ICC session as Gina(U) ****")
    after = wire[greeting:]
    assert b"\n\r" not in after.replace(b"\r\n", b"")
    assert after.count(b"\r\n") >= 2
