"""FICS's lists by name (lasker-2.2.3's lists.c ``ListArray``), and who may see or
change which: what ``addlist``, ``showlist`` (features/lists.py) and ``ltell``
(features/chat.py) find a list by. Each list's members are kept elsewhere: a user's own
lists on :class:`~icswire.server.core.model.users.User`, the server's in the store.

>>> find_list("gm", admin=False, change=False), find_list("c", admin=False, change=False)
('gm', 'computer')
>>> find_list("c", admin=False, change=True).text
'"c" is not an appropriate list name or you have insufficient rights.'
>>> find_list("zz", admin=True, change=False).text
'"zz" does not match any list name.'
"""

from __future__ import annotations

from dataclasses import dataclass

from icswire.server.core.model.titles import ADMIN_LIST, TITLE_LISTS

__all__ = [
    "ADMIN_LISTS",
    "ALIASES",
    "ALL_LISTS",
    "KEPT_LISTS",
    "PERSONAL_LISTS",
    "PUBLIC_LISTS",
    "ListRefused",
    "allowed",
    "find_list",
]

#: FICS's lists a user may see, in FICS's order (lists.c): the public ones first, with
#: ICC's ``wim`` and ``wfm`` after ``wgm``.
PUBLIC_LISTS = ("fm", "im", "gm", "wgm", "wim", "wfm", "blind", "teams", "computer", "td")
PERSONAL_LISTS = ("censor", "gnotify", "noplay", "notify", "channel")
#: Lists FICS has that only administrators may see (``admin`` but to read).
ADMIN_LISTS = (
    ADMIN_LIST,
    "removedcom",
    "filter",
    "ban",
    "abuser",
    "muzzle",
    "cmuzzle",
    "c1muzzle",
    "c24muzzle",
    "c46muzzle",
    "c49muzzle",
    "c50muzzle",
    "c51muzzle",
)
ALL_LISTS = (*ADMIN_LISTS, *PUBLIC_LISTS, *PERSONAL_LISTS)
#: Short names of lists that a prefix would not name alone (``+c NAME``: a computer).
ALIASES = {"c": "computer"}
#: The lists administrators keep: the server's own and the administrator flag.
KEPT_LISTS = frozenset({*TITLE_LISTS, ADMIN_LIST})


def allowed(admin: bool, which: str, change: bool) -> bool:
    """May a user (an administrator or not) see, or change, the list ``which``?"""
    if which in PERSONAL_LISTS:
        return True
    if which in KEPT_LISTS:
        return admin or not change
    if which == "ban":
        return admin
    return which in PUBLIC_LISTS and not change  # blind, teams: kept by nobody here


@dataclass(frozen=True)
class ListRefused:
    """Why a word names no list the user may use: FICS's words."""

    text: str


def find_list(word: str, admin: bool, change: bool) -> str | ListRefused:
    """The list ``word`` names (a unique prefix will do) that a user (an administrator or
    not) may see, or change."""
    prefix = word.lower()
    alias = ALIASES.get(prefix)
    matches = [alias] if alias else [n for n in ALL_LISTS if n.startswith(prefix)] if word else []
    if len(matches) != 1:
        return ListRefused(f'"{word}" does not match any list name.')
    found = matches[0]
    if not allowed(admin, found, change):
        return ListRefused(
            f'"{word}" is not an appropriate list name or you have insufficient rights.'
        )
    return found
