"""The help system: a help file for every command, files that fit 79 columns and point
only to topics that exist, and ``help`` as users get it (exact text, short forms,
unknown and ambiguous topics, ICC's level 1 unit, FICS's block mode, the channel list as
PyChess reads it)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from icswire.protocol.block import BlockCode
from icswire.protocol.events import BlockEnd, BlockStart, UnitEnd, UnitStart
from icswire.protocol.level1 import CommandNumber
from icswire.server.app import Server
from icswire.server.core.dispatch.hub import Registry
from icswire.server.core.model.channels import CHANNELS, TOPICS
from icswire.server.core.model.variables import IVARIABLE_NAMES
from icswire.server.core.render import helpfiles
from icswire.server.core.storage.store import Store, database_url
from icswire.server.features import help as helping

from .client import Client
from .support import connect
from .support import text_lines as texts

#: Help files other branches write (vars: ``set``). Only while such a file is absent may a
#: command or a See also line name it; once it exists it is checked like every other.
WRITTEN_ELSEWHERE = frozenset({"set"})

SEE_ALSO = re.compile(r"See also: (.+)")


@pytest.fixture(scope="module")
def registry(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Registry]:
    """The registry of a server with every feature installed (never started)."""
    store = Store(database_url(tmp_path_factory.mktemp("help"), None))
    yield Server(store, "127.0.0.1", 0).core.registry
    store.close()


def help_file(topic: str) -> list[str]:
    """The file as it lies in the source tree (not through the code under test)."""
    path = Path(helping.__file__).parent.parent / "help" / f"{topic}.txt"
    return path.read_text(encoding="utf-8").rstrip().splitlines()


async def user(server: Server, name: str, *setup: str) -> Client:
    client = await connect(server)
    await client.login(name, None, *setup)
    await client.command("set height 240")  # whole files, as PyChess asks before help
    return client


# -- the files -------------------------------------------------------------------------------


def test_every_command_has_a_help_file(registry: Registry) -> None:
    known = set(helping.topics())
    missing = {
        name: helping.topic_of(name)
        for name in registry.commands
        if helping.topic_of(name) not in known and helping.topic_of(name) not in WRITTEN_ELSEWHERE
    }
    assert missing == {}, "write src/icswire/server/help/NAME.txt for these commands"


def test_every_ivariable_has_help(registry: Registry) -> None:
    for name in IVARIABLE_NAMES:
        topic = helping.resolve(registry, f"iv_{name}")
        assert isinstance(topic, str)
        assert helping.text_of(registry, topic), name
        if topic == "iv_list":  # those without a file of their own are named there
            assert name in " ".join(helpfiles.read("iv_list"))


def test_every_topic_fits_79_columns_and_sees_only_topics_that_exist(
    registry: Registry,
) -> None:
    known = set(helping.topics()) | WRITTEN_ELSEWHERE
    for topic in helping.topics():
        text = helping.text_of(registry, topic)
        assert text is not None and text[0].strip(), topic
        assert all(len(line) <= 79 for line in text), topic
        assert not any(line != line.rstrip() for line in text), f"{topic}: trailing blanks"
        [see] = [m.group(1) for line in text if (m := SEE_ALSO.fullmatch(line))]
        named = see.split(", ")
        assert named == sorted(named) and set(named) <= known - {topic}, topic


def test_a_command_file_begins_with_its_usage(registry: Registry) -> None:
    for name in registry.commands:
        topic = helping.topic_of(name)
        if topic == name and topic in helpfiles.file_topics():
            assert helpfiles.read(topic)[0].split()[0] == name


def test_short_forms_find_the_file_of_the_command_they_stand_for(registry: Registry) -> None:
    resolve = helping.resolve
    assert resolve(registry, "t") == "tell"
    assert resolve(registry, ".") == "tell"
    assert resolve(registry, ",") == "tell"  # FICS's "tell ," (the last channel)
    assert resolve(registry, "!") == "shout"
    assert resolve(registry, "?") == "help"
    assert resolve(registry, "+ch") == resolve(registry, "+notify") == "addlist"
    assert resolve(registry, "-channel") == "sublist"
    assert resolve(registry, "=notify") == "showlist"
    assert resolve(registry, "obs") == "observe"
    assert resolve(registry, "STYLE12") == "style12"
    assert resolve(registry, "iv_movecase") == "iv_list"
    assert resolve(registry, "un") == [t for t in helping.topics() if t.startswith("un")]
    assert {"unalias", "unobserve", "unseek"} <= set(resolve(registry, "un"))
    assert resolve(registry, "xyzzy") == []


def test_the_channel_list_is_the_servers_own() -> None:
    assert set(TOPICS) <= set(CHANNELS)
    assert all(TOPICS.values())


# -- as users get it ---------------------------------------------------------------------------


async def test_help_shows_the_file_and_its_short_forms_the_same(server: Server) -> None:
    client = await user(server, "Reader")
    tell = help_file("tell")
    assert texts(await client.command("help tell")) == tell
    assert texts(await client.command("help t")) == tell
    assert texts(await client.command("help .")) == tell
    assert texts(await client.command("$help   TELL me more")) == tell
    assert texts(await client.command("? obs")) == help_file("observe")
    assert texts(await client.command("help iv_seekinfo")) == help_file("iv_seekinfo")
    assert not client.errors()


async def test_unknown_and_ambiguous_topics(server: Server) -> None:
    client = await user(server, "Puzzled")
    # no topic begins with a digit: the word shares no beginning with any
    assert texts(await client.command("help 0zzyx")) == ['No help available on "0zzyx".']
    assert texts(await client.command("help stylo")) == [
        'No help available on "stylo".',
        'Topics starting with "styl":',
        "style    style10  style12",
    ]
    starting_un = [t for t in helping.topics() if t.startswith("un")]
    assert len(starting_un) > 1
    assert texts(await client.command("help un")) == [
        'Ambiguous help topic "un". Matches:',
        *helping.columns(starting_un),
    ]


async def test_help_alone_and_the_topics_made_from_the_tables(server: Server) -> None:
    client = await user(server, "Newcomer")
    index = texts(await client.command("help"))
    assert index[0] == "This is icswire, a chess server for the clients of FICS and ICC."
    listed = " ".join(index[index.index("Topics besides the commands:") :]).split()
    assert {"intro", "style12", "iv_block", "channel_list"} <= set(listed)
    assert "tell" not in listed  # commands are in "help commands"
    commands = texts(await client.command("help commands"))
    public = {c.name for c in server.core.registry.visible()}
    assert set(" ".join(commands[4:-2]).split()) == public
    codes = texts(await client.command("help block_codes"))
    assert "  50  BLKCMD_HELP                  help" in codes
    assert "  12  BLKCMD_ADDLIST               addlist, toggle" in codes
    shorts = texts(await client.command("help abbreviations"))
    assert "  t        tell" in shorts


async def test_an_icc_session_gets_the_text_in_helps_unit(server: Server) -> None:
    client = await user(server, "Iccy", "level1=1")
    await client.settle()
    events = await client.command("help tell")
    starts = [e for e in events if isinstance(e, UnitStart)]
    assert starts == [UnitStart(CommandNumber.CN_HELP, "*", None, 1)]
    inside = events[events.index(starts[0]) : events.index(UnitEnd(1))]
    assert texts(inside) == help_file("tell")


async def test_a_block_mode_client_gets_the_text_in_helps_block(server: Server) -> None:
    client = await user(server, "Blocker")
    await client.command("iset block 1")
    client.decoder.set_block_mode(True)
    events = await client.command("12 help t")
    start = events.index(BlockStart(12, BlockCode.BLKCMD_HELP))
    inside = events[start : events.index(BlockEnd(12))]
    assert [t for t in texts(inside) if t] == [t for t in help_file("tell") if t]


def pychess_channel_list(lines: list[str]) -> list[tuple[str, str]]:
    """What PyChess's FICS mode (pychess/ic/managers/ChatManager.py, onChannelList) takes
    from ``help channel_list``: the lines from one matching its start to one matching its
    end, each ``numbers description`` line between them; it removes each number from
    range(256), so a number twice or out of range would raise."""
    start = re.compile("channels only for their designated topics.")
    end = re.compile("SPECIAL NOTE")
    item = re.compile(r"((?:\d+,?)+)\s*(.*)")
    first = next(i for i, line in enumerate(lines) if start.match(line))
    last = next(i for i, line in enumerate(lines) if i > first and end.match(line))
    numbers = set(range(256))
    channels = []
    for line in lines[first + 1 : last]:
        found = item.match(line)
        if found:
            ids, description = found.groups()
            for number in ids.split(","):
                numbers.remove(int(number))
                channels.append((number, description))
    return channels


async def test_pychess_reads_the_channel_list(server: Server) -> None:
    client = await user(server, "Pychessy")
    said = texts(await client.command("help channel_list"))
    assert said[0] == "channel_list"
    assert pychess_channel_list(said) == [(str(n), text) for n, text in sorted(TOPICS.items())]


async def test_administrators_commands_have_help_only_for_administrators(server: Server) -> None:
    server.store.add_user("Boss", "secret")
    server.store.set_admin("Boss", True)
    guest = await user(server, "Nosy")
    assert texts(await guest.command("help addplayer"))[0] == 'No help available on "addplayer".'
    assert texts(await guest.command("help admin"))[0] == 'No help available on "admin".'
    assert "addplayer" not in " ".join(texts(await guest.command("help commands")))
    boss = await connect(server)
    await boss.login("Boss", "secret")
    await boss.command("set height 240")
    assert texts(await boss.command("help addplayer")) == help_file("addplayer")
    assert texts(await boss.command("help admin")) == help_file("admin")
