"""Numbers typed by users: ASCII digits only, read by one helper at every command.

``str.isdigit()`` holds for ``²`` (input is read as latin-1, so ``¹²³`` arrive as typed) but
``int()`` refuses it: every command that took a number that way failed with a traceback
("Sorry, that command failed on the server."), and ``level1=²`` at ``login:`` killed the
connection. ``int()`` also reads ``1_0`` as 10 and ``" 7"`` as 7, which nobody types as a
number.
"""

from __future__ import annotations

import logging

import pytest

from icswire.protocol.events import Prompt
from icswire.server.app import Server
from icswire.server.core.dispatch.numbers import parse_number

from .client import Client
from .support import connect, texts

FAILED = "Sorry, that command failed on the server."
#: Not numbers: superscripts, a double sign, an exponent, an underscore (int() reads "1_0"
#: as 10), and a number too long to be one.
ODD = ("²", "³", "--1", "+-2", "1e3", "1_0", "9" * 40)

#: Every command that reads a number, with {n} where it goes.
ANYBODY = (
    "tell {n} hello",
    "+channel {n}",
    "-channel {n}",
    "inchannel {n}",
    "observe {n}",
    "unobserve {n}",
    "allobservers {n}",
    "refresh {n}",
    "seek {n} 0",
    "seek 5 {n}",
    "seek 5 0 wild {n}",
    "seek 5 0 wild{n}",
    "seek 5 0 {n}-{n}",
    "seek 5 0 1000-{n}",
    "unseek {n}",
    "play {n}",
    "match Bravo {n} 0",
    "match Bravo 5 {n} white",
    "set-2 {n} 1",
    "set style {n}",
    "set width {n}",
    "style {n}",
    "iset ms {n}",
    "smoves Alpha {n}",
    "sposition Alpha {n}",
    "examine #{n}",
    "smoves #{n}",
    "who {n}",
    "who 1 1 w{n}",
    "who {n}1",
)
PLAYER = ("moretime {n}", "takeback {n}")
EXAMINER = ("forward {n}", "backward {n}", "boardinfo {n} a1 b2", "boardinfo 4 a1 b2 {n}")


async def typed(client: Client, line: str) -> list[str]:
    """The text replies to ``line``, sent as typed (Client.command would show ``set-2 ²``
    to the client's own decoder, whose ``isdigit`` check is the decoder's business)."""
    start = client._seen = len(client.events)
    client.writer.write(line.encode("latin-1") + b"\n")
    await client.expect(lambda e: isinstance(e, Prompt))
    return texts(client.events[start:])


async def user(server: Server, name: str) -> Client:
    client = await connect(server)
    await client.login(name)
    await client.command("set style 13")  # replies only, no board lines
    return client


async def play(white: Client, black: Client) -> None:
    """A game between the two, both told of it."""
    await white.command(f"match {black.name} 5 0")
    await black.command("accept")
    await white.expect_text("Creating: ")
    await white.expect(lambda e: isinstance(e, Prompt))


def test_the_helper_reads_ascii_digits_only() -> None:
    assert [parse_number(text) for text in ("0", "7", "042", "999999999")] == [0, 7, 42, 999999999]
    not_numbers = (*ODD, "", "-1", "+1", " 1", "1 ", "1\n", "٣")
    assert [parse_number(text) for text in not_numbers] == [None] * len(not_numbers)
    assert [parse_number(text, signed=True) for text in ("-1", "+1", "-0")] == [-1, 1, 0]
    assert [parse_number(text, signed=True) for text in ("--1", "-", "- 1", "-²")] == [None] * 4


async def test_odd_numbers_get_usage_or_errors_never_a_failed_command(
    server: Server, caplog: pytest.LogCaptureFixture
) -> None:
    alpha = await user(server, "Alpha")
    bravo = await user(server, "Bravo")
    charlie = await user(server, "Charlie")
    await play(alpha, bravo)
    await charlie.command("examine")
    await charlie.command("e4")
    caplog.set_level(logging.ERROR, "icswire.server")
    failures: list[str] = []
    for client, lines in ((alpha, ANYBODY + PLAYER), (charlie, EXAMINER)):
        for line in lines:
            for odd in ODD:
                command = line.format(n=odd)
                replies = await typed(client, command)
                if not replies or FAILED in replies:
                    failures.append(f"{command!r}: {replies}")
    assert failures == []
    assert [r.getMessage() for r in caplog.records] == []


async def test_what_int_would_read_is_not_a_number(server: Server) -> None:
    alpha = await user(server, "Alpha")
    bravo = await user(server, "Bravo")
    assert texts(await alpha.command("+channel 1_0")) == [
        "The channel must be a number from 0 to 255."
    ]
    assert await typed(alpha, "set-2 1_0 1") == ["Usage: set-2 <datagram number> <0|1>"]
    assert texts(await alpha.command("set width 4_0")) == ["Bad value given for variable width."]
    assert texts(await alpha.command("seek 1_0 0")) == ['Unknown option "1_0".']
    await play(alpha, bravo)
    assert texts(await alpha.command("moretime 1_0")) == ["Usage: moretime <seconds> (1 to 36000)"]
    assert texts(await alpha.command("moretime 3")) == [
        "3 seconds were added to your opponent's clock."
    ]


async def test_odd_level1_at_the_login_prompt_keeps_the_connection(server: Server) -> None:
    client = await connect(server)
    await client.send("level1=²")
    await client.expect_text("Sorry, a name must begin with a letter")
    assert await client.login("Delta", None, "level1=1_5") == "Delta"
    assert server.world.online["delta"].level1 == 0
