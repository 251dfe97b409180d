"""FICS's bytes for a client that reads a line at a time (issue 23): the login dialogue and
a game's end, over a real socket, byte for byte.

:class:`LineReader` is the simplest client there is: it splits what it receives at each
``\\n`` and, like ``telnetlib.read_until``-style scripts, knows a prompt only as the
unfinished line it waits on, matched exactly (``login: ``, ``password: ``, ``fics% ``).
Every other text must come as a whole line, or it waits forever.
"""

from __future__ import annotations

import asyncio
import re

import pytest

from icswire.server.app import Server

pytestmark = pytest.mark.sockets  # the wire is what these tests are about

TIMEOUT = 5.0


class LineReader:
    """A client that reads whole lines, and prompts as the exact unfinished line."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer
        self.buffer = b""
        self.lines: list[bytes] = []  # every whole line received, without its line end
        self.raw = b""  # every byte received

    @classmethod
    async def connect(cls, port: int) -> LineReader:
        return cls(*await asyncio.open_connection("127.0.0.1", port))

    def send(self, line: str) -> None:
        self.writer.write(line.encode("latin-1") + b"\n")

    async def _more(self) -> None:
        data = await self.reader.read(65536)
        if not data:
            raise ConnectionError(f"closed; last lines {self.lines[-3:]}")
        self.raw += data
        self.buffer += data
        *whole, self.buffer = self.buffer.split(b"\n")
        self.lines += [line.removesuffix(b"\r").removeprefix(b"\r") for line in whole]

    async def line(self, pattern: str) -> bytes:
        """The next whole line that ``pattern`` matches (all of it)."""

        async def wait() -> bytes:
            seen = 0
            while True:
                for line in self.lines[seen:]:
                    seen += 1
                    if re.fullmatch(pattern.encode("latin-1"), line):
                        del self.lines[:seen]
                        return line
                await self._more()

        return await asyncio.wait_for(wait(), TIMEOUT)

    async def prompt(self, prompt: str) -> None:
        """Until the unfinished line is exactly ``prompt`` (the lines before it are read)."""

        async def wait() -> None:
            while self.buffer.removeprefix(b"\r") != prompt.encode("latin-1"):
                await self._more()

        await asyncio.wait_for(wait(), TIMEOUT)

    async def close(self) -> None:
        self.writer.close()
        await self.writer.wait_closed()


async def test_a_guest_logs_in_reading_a_line_at_a_time(server: Server) -> None:
    client = await LineReader.connect(server.port)
    await client.prompt("login: ")
    client.send("guest")
    asked = await client.line(r'Press return to enter the server as "Guest[A-Z]{4}":')
    name = asked.split(b'"')[1].decode()
    client.send("")
    await client.line(rf"\*\*\*\* Starting FICS session as {name}\(U\) \*\*\*\*")
    await client.prompt("fics% ")
    await client.close()


async def test_a_registered_user_logs_in_reading_a_line_at_a_time(server: Server) -> None:
    await asyncio.to_thread(server.store.add_user, "Regis", "secret")
    client = await LineReader.connect(server.port)
    await client.prompt("login: ")
    client.send("regis")
    await client.line(r'"Regis" is a registered name\.  If it is yours, type the password\.')
    await client.prompt("password: ")  # the echo is off before it, not after
    assert client.raw.endswith(b"\xff\xfb\x01\n\rpassword: ")
    client.send("secret")
    await client.line(r"\*\*\*\* Starting FICS session as Regis \*\*\*\*")
    await client.prompt("fics% ")
    assert b"\xff\xfc\x01" in client.raw  # and on again once the password is in
    await client.close()


# -- a game's end ----------------------------------------------------------------------------


async def guest(server: Server, name: str) -> LineReader:
    """``name``, an unregistered user, logged in and at its first prompt."""
    client = await LineReader.connect(server.port)
    await client.prompt("login: ")
    client.send(name)
    await client.line(rf'Press return to enter the server as "{name}":')
    client.send("")
    await client.prompt("fics% ")
    return client


async def command(client: LineReader, line: str, answer: str) -> None:
    """Send ``line``; wait for the line ``answer`` and the prompt after it."""
    client.send(line)
    await client.line(answer)
    await client.prompt("fics% ")


async def playing(server: Server) -> tuple[LineReader, LineReader]:
    """Anna (White) and Bert in game 1, unrated, each at a prompt."""
    anna, bert = await guest(server, "Anna"), await guest(server, "Bert")
    # a command's own reply follows the prompt on its line, on FICS too ("fics% Issuing")
    await command(anna, "match Bert 5 0 white", r"(fics% )?Issuing: .*")
    await bert.line(r"Challenge: .*")
    bert.send("accept")
    for player in (anna, bert):
        await player.line(r"\{Game 1 \(Anna vs\. Bert\) Creating unrated blitz match\.\}")
        await player.prompt("fics% ")
    return anna, bert


@pytest.mark.parametrize(
    ("command_word", "result"),
    [("resign", "Anna resigns} 0-1"), ("abort", "Game aborted by Anna at move 1} *")],
)
async def test_the_end_of_an_unrated_game_starts_a_line_for_both_players(
    server: Server, command_word: str, result: str
) -> None:
    """The player whose command ended the game gets its end on a line of its own after
    its prompt, as the other player does; both are told no rating changed (FICS's bytes:
    ``fics% \\n{Game 107 (gbtami vs. ggbtami) gbtami checkmated} 0-1\\n\\nNo ratings
    adjustment done.\\nfics% ``, in our line ends)."""
    anna, bert = await playing(server)
    anna.raw = bert.raw = b""
    anna.send(command_word)
    ended = f"{{Game 1 (Anna vs. Bert) {result}"
    expected = f"fics% \n\r{ended}\n\r\n\rNo ratings adjustment done.\n\rfics% ".encode()
    for player in (anna, bert):
        await player.line(re.escape(ended))  # a line of its own, not after "fics% "
        await player.line("")
        await player.line(r"No ratings adjustment done\.")
        await player.prompt("fics% ")
        assert (b"fics% " + player.raw).endswith(expected)
    await anna.close()
    await bert.close()
