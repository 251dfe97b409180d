"""FICS's system aliases: the short forms every user has, as lasker-2.2.3 (the server
freechess.org runs) lists them in ``g_alias_list`` (command_list.h), and FICS's names of
the commands icswire names otherwise.

An alias is a line's first word; the line's rest follows its expansion (``p`` is ``who
a``, ``more`` is ``next``, ``r`` and ``re`` are ``refresh``, "so r/re doesn't resign").
The user's own aliases come first: what they expand to is looked up here too, as lasker
substitutes the user's list and then the global one. The punctuation forms (``.``,
``!``, ``+``, ``?`` ...) are :data:`~icswire.server.core.dispatch.commands.PUNCTUATION`.

``goto`` is a command here (ICC's; for a FICS session it is ``goboard``, as the alias
makes it on FICS). ``saab`` is lasker's ``simallaabort``, a misspelling of
``simallabort``: here it is ``simallabort``. Left out, because their command does not
exist here: ``comment`` (addcomment), ``sc`` (showcomment), and ``follow`` (``toggle
follow``: FICS's own ``follow`` command is kept). ``ch`` is lasker's ``channel``, itself
``toggle channel``: both are ``toggle channel`` here. ``vars`` is a command here, not an alias.
"""

from __future__ import annotations

from typing import Final

#: lasker's global aliases whose commands exist here: word -> expansion.
SYSTEM_ALIASES: Final = {
    "a": "accept",
    "b": "backward",
    "bye": "quit",
    "ch": "toggle channel",
    "channel": "toggle channel",
    "egg": "tell eggoi",
    "exit": "quit",
    "f": "finger",
    "g": "games",
    "go": "goboard",
    "gonum": "goboard",
    "hi": "history",
    "in": "inchannel",
    "logout": "quit",
    "m": "match",
    "ma": "match",
    "mam": "xtell mamer",
    "more": "next",
    "n": "next",
    "o": "observe",
    "p": "who a",
    "pl": "who a",
    "player": "who a",
    "players": "who a",
    "r": "refresh",
    "re": "refresh",
    "saa": "simallabort",
    "saab": "simallabort",
    "sab": "simabort",
    "sadj": "simadjourn",
    "saadj": "simalladjourn",
    "setup": "bsetup",
    "sh": "shout",
    "sn": "simnext",
    "sp": "simprev",
    "t": "tell",
    "tom": "tell tomato",
    "v": "vars",  # FICS's help on alias lists "v variables" among the system aliases
    "w": "who",
    "znotl": "znotify",
    # icswire's own short forms, beside FICS's
    "ranks": "rank",
}

#: FICS's names of commands icswire names otherwise (ICC's names): FICS clients type
#: them, and their beginnings, as freechess.org takes them.
FICS_NAMES: Final = {
    "variables": "vars",
    "ivariables": "ivars",
    "it": "i",
}


def expand_system_alias(line: str) -> str:
    """``line`` with its first word spelled out when it is a system alias."""
    word, _, rest = line.partition(" ")
    expansion = SYSTEM_ALIASES.get(word.lower())
    if expansion is None:
        return line
    return f"{expansion} {rest.strip()}".strip()


def alias_command(word: str) -> str:
    """The command word a system alias (or FICS's name of a command) stands for; the word
    itself when it is neither (``p`` -> ``who``, ``variables`` -> ``vars``)."""
    word = word.lower()
    word = SYSTEM_ALIASES.get(word, word).partition(" ")[0]
    return FICS_NAMES.get(word, word)
