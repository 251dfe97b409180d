"""``help``, ``index`` and ``info``: the help files (``server/help/NAME.txt``) and the
topics made from the server's own tables (``commands``, ``abbreviations``,
``block_codes``, ``channel_list``). ``info`` lists (and shows) the topics that are not
commands, FICS's information files; ``index`` every topic.

``help NAME`` finds its topic as a command line finds its command: the short forms
(``help t`` is ``help tell``), then an exact topic, then a unique prefix of a command or
a topic. The list commands' signs go to the file of the command they stand for
(``+ch`` to ``addlist``, ``-`` to ``sublist``, ``=`` to ``showlist``), and so do
``.``, ``,`` and ``!`` (``tell``, FICS's ``tell ,`` too, and ``shout``); ``iv_NAME`` of
an interface variable that changes nothing here goes to ``iv_list``. An ICC session gets
the same text in help's level 1 unit; the batch frames it.
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from icswire.protocol.block import BlockCode
from icswire.protocol.level1 import CommandNumber as CN
from icswire.server.core.dispatch.aliases import SYSTEM_ALIASES, alias_command
from icswire.server.core.dispatch.commands import block_code
from icswire.server.core.dispatch.hub import CommandSet, Context, Registry
from icswire.server.core.model.channels import CHANNELS, TOPICS
from icswire.server.core.model.variables import IVARIABLE_NAMES
from icswire.server.core.render import helpfiles

if TYPE_CHECKING:
    from icswire.server.core.dispatch.hub import Core

COMMANDS = CommandSet()
command = COMMANDS.command

#: The file documenting a command whose name starts with a list sign (FICS's ``+x``,
#: ``-x`` and ``=x`` are addlist, sublist and showlist).
LIST_SIGNS = {"+": "addlist", "-": "sublist", "=": "showlist"}
#: The files documenting FICS's one-character commands.
PUNCTUATION = {".": "tell", ",": "tell", "!": "shout", "?": "help"}
WIDTH = 79


def columns(words: Iterable[str]) -> list[str]:
    """``words`` in rows of equal columns, each row at most :data:`WIDTH` wide."""
    items = list(words)
    width = max((len(w) for w in items), default=0) + 2
    per_row = max(1, (WIDTH + 2) // width)
    rows = [items[i : i + per_row] for i in range(0, len(items), per_row)]
    return ["".join(f"{w:<{width}}" for w in row).rstrip() for row in rows]


def topic_of(name: str) -> str:
    """The topic documenting the command ``name``."""
    if name[:1] in LIST_SIGNS:
        return LIST_SIGNS[name[0]]
    return PUNCTUATION.get(name, name)


def commands_topic(registry: Registry, admin: bool = False) -> list[str]:
    return [
        "commands",
        "",
        "The commands of this server. Any unique beginning of a command's name works",
        'too (see "help abbreviations"); "help NAME" tells what one does.',
        "",
        *columns(sorted(c.name for c in registry.visible(admin))),
        "",
        "See also: abbreviations, alias, intro",
    ]


def abbreviations_topic(registry: Registry, admin: bool = False) -> list[str]:
    shorts = sorted(SYSTEM_ALIASES.items(), key=lambda item: (item[1], item[0]))
    return [
        "abbreviations",
        "",
        'Any unique beginning of a command\'s name runs that command: "fi" is finger,',
        '"obs" is observe. When a beginning fits several commands the server lists',
        'them ("Ambiguous command"). A leading "$" is ignored. FICS\'s system aliases,',
        "which every user has, win over the beginnings of commands:",
        "",
        *(f"  {short:<8} {name}" for short, name in shorts),
        "",
        'Your own short forms are aliases (see "help alias"). "help" itself takes the',
        'same forms: "help t" shows the help of tell.',
        "",
        "See also: alias, commands",
    ]


def channel_list_topic(registry: Registry, admin: bool = False) -> list[str]:
    """The channels with a purpose (core.channels), one ``N  purpose`` line each between
    the two lines PyChess's FICS mode reads the list by."""
    return [
        "channel_list",
        "",
        f"Anyone may join a channel from {CHANNELS.start} to {CHANNELS.stop - 1}"
        ' ("+channel N") and talk in it',
        '("tell N message"); a number not listed here is free for any use. These',
        "are the channels of this server with a purpose; please use the",
        "channels only for their designated topics.",
        "",
        *(f"{number:<6} {purpose}" for number, purpose in sorted(TOPICS.items())),
        "",
        "SPECIAL NOTE: everyone in a channel reads what is said there, guests too;",
        "never give a password or other private details in a channel.",
        "",
        "See also: addlist, channels, inchannel, sublist, tell",
    ]


#: Block codes the server sends for other things than a command's output.
OTHER_BLOCKS = {
    BlockCode.BLKCMD_NULL: "an empty line, or one that names no command",
    BlockCode.BLKCMD_GAME_MOVE: "a move",
    BlockCode.BLKCMD_ERROR_BADCOMMAND: "a word that is no command",
    BlockCode.BLKCMD_ERROR_AMBIGUOUS: "the beginning of several commands",
    BlockCode.BLKCMD_ERROR_NOSEQUENCE: "a line without an identifier (ID 0)",
}


def _block_rows(code: int, what: str) -> list[str]:
    """One code's line, its list of commands wrapped to the 79 columns help keeps to."""
    head = f"{code:>4}  {BlockCode(code).name:<28} "
    parts = textwrap.wrap(what, 79 - len(head), break_on_hyphens=False) or [""]
    return [f"{head}{parts[0]}", *(" " * len(head) + part for part in parts[1:])]


def block_codes_topic(registry: Registry, admin: bool = False) -> list[str]:
    """The block code of every command (core.commands.block_code), and the others."""
    named: dict[int, list[str]] = {}
    for name in sorted(c.name for c in registry.visible(admin)):
        named.setdefault(block_code(name), []).append(name)
    rows = [(code, ", ".join(names)) for code, names in named.items()]
    rows += [(int(code), what) for code, what in OTHER_BLOCKS.items()]
    return [
        "block_codes",
        "",
        'In block mode ("help iv_block") each block names what it answers with a',
        "number, its block code. These are the codes this server sends:",
        "",
        *(line for code, what in sorted(rows) for line in _block_rows(code, what)),
        "",
        "A client should accept codes it does not know.",
        "",
        "See also: commands, iv_block",
    ]


#: Topics made from the server's tables, so that they never go stale.
GENERATED: dict[str, Callable[[Registry, bool], list[str]]] = {
    "commands": commands_topic,
    "abbreviations": abbreviations_topic,
    "block_codes": block_codes_topic,
    "channel_list": channel_list_topic,
}


def topics(hidden: frozenset[str] = frozenset()) -> list[str]:
    """Every topic: the files and the generated ones, but the ``hidden``."""
    return sorted({*helpfiles.file_topics(), *GENERATED} - hidden)


def hidden_from(registry: Registry, admin: bool) -> frozenset[str]:
    """What a user who is not an administrator gets no help on: the administrators'
    commands, which do not exist for him, and their overview (``admin``)."""
    if admin:
        return frozenset()
    names = {command.name for command in registry.commands.values() if command.admin}
    return frozenset(names & set(helpfiles.file_topics())) | {"admin"}


def resolve(registry: Registry, word: str, admin: bool = False) -> str | list[str]:
    """The topic ``word`` names, or the (possibly empty) list of topics it could be."""
    word = word.lower()
    if word[:1] in LIST_SIGNS or word in PUNCTUATION:
        return topic_of(word)
    word = alias_command(word)
    known = topics(hidden_from(registry, admin))
    if word in known:
        return word
    if word.startswith("iv_") and word[3:] in IVARIABLE_NAMES:
        return "iv_list"
    commands = [command.name for command in registry.visible(admin)]
    if word in commands:
        return topic_of(word)
    found = {topic_of(name) for name in commands if name.startswith(word)}
    found |= {topic for topic in known if topic.startswith(word)}
    return found.pop() if len(found) == 1 else sorted(found)


def text_of(registry: Registry, topic: str, admin: bool = False) -> list[str] | None:
    """The lines of ``topic``; None when it has no help (a command documented in a file
    that does not exist)."""
    if topic in GENERATED:
        return GENERATED[topic](registry, admin)
    if topic in helpfiles.file_topics():
        return list(helpfiles.read(topic))
    return None


def index(registry: Registry, admin: bool = False) -> list[str]:
    """``help`` alone: where to start, and the topics that are not commands."""
    commands = {topic_of(name) for name in registry.commands}
    hidden = hidden_from(registry, admin)
    return [
        "This is icswire, a chess server for the clients of FICS and ICC.",
        "",
        '"help NAME" shows the help on a command or a topic; "help commands" lists',
        'every command and "help intro" is the place to start. The beginning of a',
        'name is enough when it fits only one ("help obs" for observe).',
        "",
        "Topics besides the commands:",
        "",
        *columns(topic for topic in topics(hidden) if topic not in commands),
    ]


def unknown(word: str, hidden: frozenset[str] = frozenset()) -> list[str]:
    """FICS's answer to a topic there is no help on, with the topics sharing its longest
    beginning that any topic has."""
    answer = [f'No help available on "{word}".']
    for length in range(len(word) - 1, 0, -1):
        near = [t for t in topics(hidden) if t.startswith(word[:length].lower())]
        if near:
            return [*answer, f'Topics starting with "{word[:length]}":', *columns(near)]
    return answer


@command("help", CN.CN_HELP, "help [topic]", bare_cn=CN.CN_HELP0)
async def help_(ctx: Context, args: str) -> None:
    word = args.split()[0] if args.split() else ""  # what follows the topic is ignored
    registry, admin = ctx.core.registry, ctx.session.admin
    if not word:
        ctx.reply(*index(registry, admin))
        return
    found = resolve(registry, word, admin)
    hidden = hidden_from(registry, admin)
    if isinstance(found, list):
        if found:
            ctx.reply(f'Ambiguous help topic "{word}". Matches:', *columns(found))
        else:
            ctx.reply(*unknown(word, hidden))
        return
    text = text_of(registry, found, admin)
    if text is None:
        ctx.reply(*unknown(word, hidden))
        return
    ctx.page(*text)  # FICS sends a help file a page at a time (set height; next)


def information_topics(registry: Registry, admin: bool) -> list[str]:
    """FICS's information files: the topics that are not commands."""
    commands = {topic_of(name) for name in registry.commands}
    return [t for t in topics(hidden_from(registry, admin)) if t not in commands]


def _lookup(wanted: list[str], word: str) -> str | list[str]:
    """lasker's ``search_directory``: the one topic of ``wanted`` that ``word`` is or
    begins, else those it begins."""
    word = word.lower()
    if word in wanted:
        return word
    found = [topic for topic in wanted if topic.startswith(word)]
    return found[0] if len(found) == 1 else found


async def _show(ctx: Context, word: str, wanted: list[str], none: str) -> None:
    """A topic of ``wanted`` that ``word`` names, shown; its matches; or ``none``."""
    found = _lookup(wanted, word)
    if isinstance(found, list):
        ctx.reply(*([none] if not found else ["Matches:", *columns(found)]))
        return
    text = text_of(ctx.core.registry, found, ctx.session.admin)
    ctx.page(*(text if text is not None else [none]))


@command("info", CN.CN_INFO, "info [topic]")
async def info(ctx: Context, args: str) -> None:
    """FICS's ``info``: the general information files (the help topics that are not
    commands); ``info TOPIC`` shows one of them, as ICC's ``info`` does."""
    registry, admin = ctx.core.registry, ctx.session.admin
    wanted = information_topics(registry, admin)
    word = args.split()[0] if args.split() else ""
    if not word:
        ctx.reply(*columns(wanted))
        return
    await _show(ctx, word, wanted, f'No information available on "{word}".')


@command("index", CN.CN_HELP, "index [topic]")
async def index_(ctx: Context, args: str) -> None:
    """FICS's ``index``: every help topic, commands and others; ``index WORD`` shows the
    one WORD names or begins, or lists those it begins."""
    registry, admin = ctx.core.registry, ctx.session.admin
    wanted = topics(hidden_from(registry, admin))
    word = args.split()[0] if args.split() else ""
    if not word:
        ctx.reply("Index of help topics:", "", *columns(wanted))
        return
    await _show(ctx, word, wanted, f'No index entry for "{word}".')


def install(core: Core) -> None:
    core.registry.add_commands(COMMANDS)
