"""FICS's system aliases (lasker-2.2.3's ``g_alias_list``, command_list.h): each word
runs what lasker expands it to, where icswire has that command; the others are left out
because their command is not here yet (and must be added once it is)."""

from __future__ import annotations

import pytest

from icswire.protocol.events import Prompt, Text
from icswire.server.app import Server
from icswire.server.core.dispatch.aliases import expand_system_alias
from icswire.server.core.dispatch.commands import expand_punctuation
from icswire.server.core.dispatch.hub import Command

from .support import connect, texts

#: lasker-2.2.3's global aliases, as its command_list.h has them.
LASKER = {
    "comment": "addcomment",
    "setup": "bsetup",
    "sc": "showcomment",
    "b": "backward",
    "w": "who",
    "t": "tell",
    "m": "match",
    "go": "goboard",
    "goto": "goboard",
    "gonum": "goboard",
    "f": "finger",
    "hi": "history",
    "a": "accept",
    "saa": "simallabort",
    "saab": "simallaabort",
    "sab": "simabort",
    "sadj": "simadjourn",
    "saadj": "simalladjourn",
    "sh": "shout",
    "sn": "simnext",
    "sp": "simprev",
    "vars": "variables",
    "g": "games",
    "players": "who a",
    "player": "who a",
    "p": "who a",
    "pl": "who a",
    "o": "observe",
    "r": "refresh",
    "re": "refresh",
    "ch": "channel",
    "in": "inchannel",
    ".": "tell .",
    ",": "tell ,",
    "`": "tell .",
    "!": "shout",
    "I": "it",
    "i": "it",
    ":": "it",
    "exit": "quit",
    "logout": "quit",
    "bye": "quit",
    "*": "kibitz",
    "#": "whisper",
    "ma": "match",
    "more": "next",
    "n": "next",
    "znotl": "znotify",
    "+": "addlist",
    "-": "sublist",
    "=": "showlist",
    "mam": "xtell mamer",
    "tom": "tell tomato",
    "egg": "tell eggoi",
    "follow": "toggle follow",
    "channel": "toggle channel",
}
#: FICS's names of commands icswire names as ICC does.
OURS = {"variables": "vars", "ivariables": "ivars", "it": "i"}
#: Aliases whose expansion in lasker is misspelt: what they run here.
MEANT = {"saab": "simallabort"}  # lasker's "simallaabort" is no command
#: Aliases whose command is not here: left out (``follow`` stays FICS's own command).
LEFT_OUT = {"comment", "sc", "follow"}
#: ``goto`` is a command here (ICC's), which a FICS session runs as ``goboard``
#: (tests/server/test_examine_edits.py).
COMMANDS_HERE = {"goto"}


def resolved(server: Server, word: str) -> tuple[str, str]:
    """(the command ``word`` runs, its arguments), through the system aliases."""
    line = expand_system_alias(expand_punctuation(f"{word} x"))
    command, _, args = line.partition(" ")
    found = server.core.registry.find_command(command)
    assert isinstance(found, Command), (word, line, found)
    return found.name, args


@pytest.mark.parametrize("word", sorted(set(LASKER) - LEFT_OUT - COMMANDS_HERE))
async def test_each_alias_runs_what_lasker_expands_it_to(server: Server, word: str) -> None:
    expansion = LASKER[word]
    head = expansion.partition(" ")[0]
    if head in LASKER and head != word:  # "ch" is "channel", which is "toggle channel"
        expansion = LASKER[head] + expansion[len(head) :]
    command, _, args = expansion.partition(" ")
    expected = MEANT.get(word, OURS.get(command, command))
    assert resolved(server, word) == (expected, f"{args} x".strip())


@pytest.mark.parametrize("word", sorted(LEFT_OUT - {"follow"}))
async def test_the_aliases_left_out_have_no_command_here(server: Server, word: str) -> None:
    command = LASKER[word].partition(" ")[0]
    assert not isinstance(server.core.registry.find_command(command), Command)


@pytest.mark.parametrize(
    ("fics", "ours"), [*OURS.items(), ("variab", "vars"), ("ivariab", "ivars")]
)
async def test_ficss_names_of_commands_run_them(server: Server, fics: str, ours: str) -> None:
    assert resolved(server, fics)[0] == ours


async def test_more_r_and_players_work_as_on_fics(server: Server) -> None:
    """``more`` was ``moretime``, ``r`` ambiguous and ``players`` not found."""
    client = await connect(server)
    await client.login("Anna")
    said = texts(await client.command("players"))
    assert any("players displayed" in line for line in said), said
    said = texts(await client.command("r"))
    assert not any("Ambiguous" in line or "not found" in line for line in said), said
    said = texts(await client.command("more"))
    assert not any("moretime" in line.lower() for line in said), said
    events = await client.command("variables")
    assert any(
        isinstance(e, Text) and e.text.startswith("Variable settings of Anna") for e in events
    )
    assert isinstance(events[-1], Prompt)


async def test_a_dollar_runs_the_command_the_word_begins(server: Server) -> None:
    """lasker expands no alias after ``$`` (what XBoard puts before its commands)."""
    client = await connect(server)
    await client.login("Anna")
    said = texts(await client.command("$more"))  # moretime, not next
    assert said != texts(await client.command("more")), said
