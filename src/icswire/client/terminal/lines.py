"""What the text pane's tabs show for each event, and the names an event or a typed line
mentions (for completion)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from icswire.client.terminal.tabs import CONSOLE, TELLS, channel_tab
from icswire.protocol.datagrams import DG
from icswire.protocol.events import Text

#: The fields of datagrams that hold a player's name.
NAME_FIELDS = (
    "playername", "whitename", "blackname", "challenger", "receiver", "name1", "name2",
)  # fmt: skip
_NAME = re.compile(r"[A-Za-z][A-Za-z0-9]{1,16}")
_RESULT_TEXT = re.compile(r"\{Game (\d+) \(")
_TELL = re.compile(r"(?i)(?:tell|t|xtell|message)\s+(\S+)\s+(.+)")


def lines_of(event: Any) -> list[tuple[str, str]]:
    """``(tab, line)`` for each line the event puts in a tab: everything in the console,
    a personal tell in ``tells`` too, a channel tell in its channel's tab too. A game's
    result datagram shows nothing: the server's ``{Game N (...) ...}`` line says it."""
    if isinstance(event, Text):
        return [(CONSOLE, event.text)] if event.text.strip() else []
    dg = getattr(event, "dg", None)
    if dg == DG.PERSONAL_TELL:
        line = f"{event.playername} tells you: {event.text}"
        return [(CONSOLE, line), (TELLS, line)]
    if dg == DG.CHANNEL_TELL:
        line = f"{event.playername}({event.channel}): {event.text}"
        return [(CONSOLE, line), (channel_tab(event.channel), line)]
    if dg == DG.SHOUT:
        return [(CONSOLE, f"{event.playername} shouts: {event.text}")]
    if dg == DG.KIBITZ:
        verb = "kibitzes" if event.kibitz else "whispers"
        return [(CONSOLE, f"{event.playername}[{event.gamenumber}] {verb}: {event.text}")]
    return []


def result_line(event: Any) -> str:
    """The line for DG_MY_GAME_RESULT when the server sent no text line for it."""
    return f"{{Game {event.gamenumber} {event.description}}} {event.score}"


def result_text_game(event: Any) -> int | None:
    """The game a ``{Game N (A vs. B) ...} score`` text line ends, else None."""
    if isinstance(event, Text) and (m := _RESULT_TEXT.match(event.text)):
        return int(m[1])
    return None


def names_in(event: Any) -> Iterator[str]:
    for name in NAME_FIELDS:
        value = getattr(event, name, None)
        if isinstance(value, str) and _NAME.fullmatch(value):
            yield value


def told(line: str, me: str) -> tuple[str, str] | None:
    """A tell I typed (``tell Ben hi``, ``t 7 hi``): its tab and the line it shows there
    (the server does not send my own tells back to me)."""
    m = _TELL.fullmatch(line.strip())
    if m is None:
        return None
    if m[1].isdigit():
        return channel_tab(int(m[1])), f"{me}({m[1]}): {m[2]}"
    if not _NAME.fullmatch(m[1]):
        return None
    return TELLS, f"{me} -> {m[1]}: {m[2]}"
