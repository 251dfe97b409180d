"""Titles: what the server's lists of accounts give their members, and how each face
shows them.

A title comes from one of the server's own lists (``icswire user computer NAME``), read
when the user logs in (:attr:`User.title_lists
<icswire.server.core.model.users.User.title_lists>`). It is shown three ways, all made
from :data:`TITLES`: FICS's mark after the name in text (``Stockfish(C)`` in ``who``,
``finger``, ``sought``, tells), ICC's word in the titles fields of datagrams (``C``;
several are ``{GM C}``), and FICS's title bits in ``<s>`` and ``<wa>`` (``ti=02``).
A guest has the one pseudo-title ``U`` (unregistered), never one of a list. Another
title (``gm``, ``im`` ...) is one more entry of :data:`TITLES`: the server list, the
marks, the bits and ``showlist`` follow from it.

>>> title_field(True, frozenset({"computer"}))
'C'
>>> marks("C"), marks("U"), flags(True, "C"), flags(False, "U")
('(C)', '(U)', 2, 1)
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

__all__ = ["TITLES", "TITLE_LISTS", "UNREGISTERED", "Title", "flags", "marks", "title_field"]


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
#: The titles the server's lists give, in the order they are shown. FICS's other bits
#: (lasker's ``seek``: GM 0x04, IM 0x08, FM 0x10, WGM 0x20, WIM 0x40, WFM 0x80) are for
#: the titles a later list adds.
TITLES: tuple[Title, ...] = (Title("C", 0x02, "computer"),)
#: The server lists that give a title.
TITLE_LISTS: tuple[str, ...] = tuple(t.list for t in TITLES if t.list is not None)

_BY_MARK = {t.mark: t for t in (UNREGISTERED, *TITLES)}


def title_field(registered: bool, lists: Collection[str]) -> str:
    """ICC's titles field of a user on the server lists ``lists``: ``U`` for a guest,
    else the marks of its titles separated by spaces (``""`` for none)."""
    if not registered:
        return UNREGISTERED.mark
    if not lists:
        return ""
    return " ".join(t.mark for t in TITLES if t.list in lists)


def marks(field: str) -> str:
    """FICS's marks after a name for the titles field ``field``: ``(C)``, ``(U)``."""
    return "".join(f"({word})" for word in field.split() if word in _BY_MARK)


def flags(registered: bool, field: str) -> int:
    """FICS's title bits for the titles field ``field`` (``<s>``'s ``ti``, ``<wa>``)."""
    bits = 0 if registered else UNREGISTERED.bit
    for word in field.split():
        title = _BY_MARK.get(word)
        if title is not None:
            bits |= title.bit
    return bits
