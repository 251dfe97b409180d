"""Any text after any command word gets an answer, never a failed command.

A command that raises is answered "Sorry, that command failed on the server." (and logged):
``who ²`` did, because ``str.isdigit()`` holds for ``²`` and ``int()`` refuses it. Here every
word of the server's command table is typed with arbitrary text after it, by a player in a
game, an examiner and an administrator, on one server in memory (one event loop for all the
examples, so that each costs a line, not a server).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Coroutine, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from icswire.server.app import Server
from icswire.server.core.storage.store import Store, database_url
from icswire.server.features.people import parse_who

from .support import MemoryClient, texts

T = TypeVar("T")
FAILED = "Sorry, that command failed on the server."
#: Words that end the session, which the next example needs.
LEAVING = frozenset({"quit"})


class _Failures(logging.Handler):
    """The server's errors logged while the examples run."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(record.getMessage())


@dataclass
class Stage:
    """A server in memory, its loop, and the users who type the lines."""

    loop: asyncio.AbstractEventLoop
    server: Server
    typists: list[MemoryClient] = field(default_factory=list)
    words: list[str] = field(default_factory=list)
    #: Administrators' commands, and the typists' names in lower case.
    admin_words: set[str] = field(default_factory=set)
    names: set[str] = field(default_factory=set)

    def run(self, work: Coroutine[Any, Any, T]) -> T:
        return self.loop.run_until_complete(work)


async def _user(server: Server, name: str, admin: bool = False) -> MemoryClient:
    await asyncio.to_thread(server.store.add_user, name, "pw")
    if admin:
        await asyncio.to_thread(server.store.set_admin, name, True)
    client = MemoryClient(server)
    await client.login(name, "pw")
    await client.command("set style 13")  # replies only, no board lines
    return client


async def _set_up(server: Server) -> list[MemoryClient]:
    await server.start(listen=False)
    alpha = await _user(server, "Alpha")
    bravo = await _user(server, "Bravo")
    await alpha.command("match Bravo 5 0")
    await bravo.command("accept")
    examiner = await _user(server, "Charlie")
    await examiner.command("examine")
    await examiner.command("e4")
    boss = await _user(server, "Boss", admin=True)
    return [alpha, examiner, boss]


@pytest.fixture(scope="module")
def stage(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stage]:
    loop = asyncio.new_event_loop()
    data = Store(database_url(Path(tmp_path_factory.mktemp("any")) / "data", None))
    server = Server(data, "127.0.0.1", 0)
    stage = Stage(loop, server)
    try:
        stage.typists = loop.run_until_complete(_set_up(server))
        commands = server.core.registry.commands
        stage.words = sorted(set(commands) - LEAVING)
        stage.admin_words = {word for word, command in commands.items() if command.admin}
        stage.names = {"alpha", "bravo", "charlie", "boss"}
        yield stage
    finally:
        loop.run_until_complete(server.stop())
        data.close()
        loop.close()


def _wire(text: str) -> bytes:
    """``text`` as a user's bytes: latin-1 where it can be (the server reads latin-1, so
    ``²`` arrives as typed), else UTF-8 (each byte a latin-1 character there)."""
    try:
        return text.encode("latin-1")
    except UnicodeEncodeError:
        return text.encode("utf-8")


async def _typed(client: MemoryClient, line: bytes) -> list[str]:
    start = len(client.events)
    client.writer.write(line + b"\n")
    await client.settle()
    return texts(client.events[start:])


#: Characters of one line; ``\xff`` is telnet's IAC, whose commands are the session's.
_CHARACTERS = st.characters(blacklist_categories=("Cs",), blacklist_characters="\r\n\xff")
#: What commands read, and look-alikes of it that only ``str`` methods take for it.
_TOKENS = st.sampled_from(
    [
        "0",
        "1",
        "2",
        "3",
        "12",
        "-1",
        "+1",
        "#1",
        "#",
        "²",
        "³",
        "¹",
        "٣",
        "①",
        "w",
        "w²",
        "Alpha",
        "Bravo",
        "Boss",
        "/",
        "-",
        "*",
        "1_0",
        "9" * 12,
        "e4",
        "a1",
        "b",
        "s",
        "%",
    ]
)
#: Words of either kind, or any text, after a command word.
ARGUMENTS = st.one_of(
    st.lists(st.one_of(_TOKENS, st.text(_CHARACTERS, min_size=1, max_size=6)), max_size=4).map(
        " ".join
    ),
    st.text(_CHARACTERS, max_size=24),
)


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(ARGUMENTS)
@example("²")  # who: str.isdigit() holds, int() refuses
@example("1 1 w³")
def test_any_arguments_to_any_command_get_an_answer(stage: Stage, arguments: str) -> None:
    """Each example types every command word with the same arguments, as each of the
    three users."""
    failures = _Failures()
    logging.getLogger("icswire.server").addHandler(failures)
    try:
        for word in stage.words:
            if word in stage.admin_words and set(arguments.lower().split()) & stage.names:
                continue  # nuke, remplayer, asetadmin... would take a typist away
            for client in stage.typists:
                line = _wire(f"{word} {arguments}")
                replies = stage.run(_typed(client, line))
                assert FAILED not in replies, (client.name, line)
                assert failures.messages == [], (client.name, line, failures.messages)
    finally:
        logging.getLogger("icswire.server").removeHandler(failures)


@pytest.mark.parametrize("flags", ["²", "³", "1 1 w²", "²1", "1²", "٣", "1 ³"])
def test_who_flags_int_refuses_are_no_flags(flags: str) -> None:
    """``who`` read a flag with ``str.isdigit()`` and then ``int()``, which refuses ``²``."""
    assert parse_who(flags) is None
