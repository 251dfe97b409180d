"""Tells from the bot's owner: the personal tells it reads in either dialect (ICC's
DG_PERSONAL_TELL, FICS's ``NAME tells you: TEXT`` line) and the commands they give.

The owner (``[bot] owner`` in the settings) tells the bot

- ``pause``: take no new games (challenges declined, seeks removed); games go on;
- ``resume``: take games again;
- ``quit``: finish the games in progress, then log out;
- ``quit now``: resign the games in progress and log out at once;
- ``status``: the bot tells back what it is doing.

Anything else is answered with the list of commands. Tells from anyone else are not
commands; a ``say`` is not a tell.
"""

from __future__ import annotations

import enum
import re
from typing import Any, Final

from icswire.protocol.datagrams import DG
from icswire.protocol.events import Text

__all__ = ["HELP", "Command", "parse_command", "tell_of"]

#: DG_PERSONAL_TELL's type of a ``tell`` (0 is a ``say``, 2 a partner's ``ptell``).
TELL: Final = 1
_FICS_TELL: Final = re.compile(r"([A-Za-z][A-Za-z0-9]*)(?:\([A-Z*]{1,3}\))* tells you: (.*)")

HELP: Final = "commands: pause, resume, quit, quit now, status"


class Command(enum.Enum):
    """What the owner asks."""

    PAUSE = "pause"
    RESUME = "resume"
    QUIT = "quit"
    QUIT_NOW = "quit now"
    STATUS = "status"


def parse_command(text: str) -> Command | None:
    """The command a tell gives (case and spaces do not matter), None if none.

    >>> parse_command("  Quit   NOW "), parse_command("hello")
    (<Command.QUIT_NOW: 'quit now'>, None)
    """
    words = " ".join(text.lower().split())
    try:
        return Command(words)
    except ValueError:
        return None


def tell_of(event: Any) -> tuple[str, str] | None:
    """The (teller, text) of a personal tell to the bot, None for any other event."""
    if getattr(event, "dg", None) == DG.PERSONAL_TELL:
        if event.type != TELL:
            return None
        return str(event.playername), str(event.text)
    if isinstance(event, Text) and (m := _FICS_TELL.fullmatch(event.text)):
        return m[1], m[2]
    return None
