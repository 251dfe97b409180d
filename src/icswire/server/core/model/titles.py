"""Titles: what the server's lists of accounts give their members, and how each face
shows them.

A title comes from one of the server's own lists (``+gm NAME`` by an administrator, or
``icswire user title NAME gm`` from the shell), read when the user logs in and changed at
once by ``addlist``/``sublist`` (:attr:`User.title_lists
<icswire.server.core.model.users.User.title_lists>`); an administrator's ``*`` comes from
the administrator flag (the ``admin`` list is that flag: :data:`ADMIN_LIST`). It is shown
three ways, all made from :data:`TITLES`: FICS's mark after the name in text
(``alice(GM)``, ``Stockfish(C)`` in ``who``, ``finger``, ``sought``, tells), ICC's word in
the titles fields of datagrams (``GM``; several are ``{GM TD}``), and FICS's title bits in
``<s>`` and ``<wa>`` (``ti=04``). A guest has the one pseudo-title ``U`` (unregistered),
never one of a list.

>>> title_field(True, frozenset({"computer"}))
'C'
>>> title_field(True, frozenset({"td", "gm", ADMIN_LIST}))
'* GM TD'
>>> marks("C"), marks("U"), marks("* GM TD"), flags(True, "C"), flags(False, "U")
('(C)', '(U)', '(*)(GM)(TD)', 2, 1)
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

__all__ = [
    "ADMIN",
    "ADMIN_LIST",
    "CHESS_TITLES",
    "COMPUTER",
    "TITLES",
    "TITLE_LISTS",
    "UNREGISTERED",
    "Title",
    "flags",
    "held",
    "marks",
    "title_field",
]


@dataclass(frozen=True, slots=True)
class Title:
    """One title: ``mark`` is its word in ICC's titles fields and, in parentheses, FICS's
    mark after a name; ``bit`` FICS's title flag (``<s> ti=``, ``<wa>``); ``list`` the
    server list whose members hold it (None: not from a list)."""

    mark: str
    bit: int
    list: str | None


#: A guest's pseudo-title (FICS's ``(U)``, ICC's ``U``, bit 0x01).
UNREGISTERED = Title("U", 0x01, None)
#: The list that is the administrator flag (``asetadmin``, ``icswire user admin``): not a
#: server list of its own, so that the flag stays the one record of who administers.
ADMIN_LIST = "admin"
#: The titles, in the order text shows their marks (lasker's ``AddPlayerLists``: ``(*)``,
#: ``(C)``, ``(FM)``, ``(IM)``, ``(GM)``, ``(WGM)``, then ICC's ``WIM`` and ``WFM``, and
#: ``(TD)``). The bits are FICS's (help ``iv_seekinfo``: 0x02 computer, 0x04 GM, 0x08 IM,
#: 0x10 FM, 0x20 WGM, 0x40 WIM, 0x80 WFM); ``*`` and ``TD`` have none.
#: An administrator's title, and a computer's.
ADMIN = Title("*", 0x00, ADMIN_LIST)
COMPUTER = Title("C", 0x02, "computer")
TITLES: tuple[Title, ...] = (
    ADMIN,
    COMPUTER,
    Title("FM", 0x10, "fm"),
    Title("IM", 0x08, "im"),
    Title("GM", 0x04, "gm"),
    Title("WGM", 0x20, "wgm"),
    Title("WIM", 0x40, "wim"),
    Title("WFM", 0x80, "wfm"),
    Title("TD", 0x00, "td"),
)
#: The server lists that give a title (the administrator flag is not one of them).
TITLE_LISTS: tuple[str, ...] = tuple(
    t.list for t in TITLES if t.list is not None and t.list != ADMIN_LIST
)
#: The marks of the chess titles (FICS's kibitz shows the first instead of a rating).
CHESS_TITLES = frozenset({"GM", "IM", "FM", "WGM", "WIM", "WFM"})

_BY_MARK = {t.mark: t for t in (UNREGISTERED, *TITLES)}


def held(lists: Collection[str], admin: bool) -> frozenset[str]:
    """The lists whose titles a user holds: its server lists ``lists``, and
    :data:`ADMIN_LIST` for an administrator."""
    return frozenset(lists) | {ADMIN_LIST} if admin else frozenset(lists)


def title_field(registered: bool, lists: Collection[str]) -> str:
    """ICC's titles field of a user on the lists ``lists`` (:func:`held`): ``U`` for a
    guest, else the marks of its titles separated by spaces (``""`` for none)."""
    if not registered:
        return UNREGISTERED.mark
    if not lists:
        return ""
    return " ".join(t.mark for t in TITLES if t.list in lists)


def marks(field: str) -> str:
    """FICS's marks after a name for the titles field ``field``: ``(C)``, ``(*)(GM)``,
    ``(U)``."""
    return "".join(f"({word})" for word in field.split() if word in _BY_MARK)


def flags(registered: bool, field: str) -> int:
    """FICS's title bits for the titles field ``field`` (``<s>``'s ``ti``, ``<wa>``)."""
    bits = 0 if registered else UNREGISTERED.bit
    for word in field.split():
        title = _BY_MARK.get(word)
        if title is not None:
            bits |= title.bit
    return bits
