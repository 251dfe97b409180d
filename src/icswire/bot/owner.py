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
from typing import Final

from icswire.client.tells import tell_of

__all__ = ["HELP", "Command", "parse_command", "tell_of"]

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
