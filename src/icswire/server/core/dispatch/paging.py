"""Long text a page at a time, as FICS's ``pmore_text`` sends it: ``height - 1`` lines
(``set height``), then ``Type [next] to see next page.``; ``next`` sends the following
page. A feature sends long text (a help file, a list) with
:meth:`Context.page <icswire.server.core.dispatch.hub.Context.page>`; ICC sessions get it whole,
as ICC's clients scroll it themselves.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from icswire.server.core.model.users import User

__all__ = ["MORE", "NO_MORE", "first_page", "next_page"]

MORE = "Type [next] to see next page."
NO_MORE = "There is no more."


def _page(session: User, text: Sequence[str]) -> list[str]:
    room = max(session.variables["height"] - 1, 1)
    if session.talks_icc or len(text) <= room:
        session.more = ()
        return list(text)
    session.more = text[room:]
    return [*text[:room], MORE]


def first_page(session: User, text: list[str]) -> list[str]:
    """What ``session`` is sent of ``text`` now; the rest waits for ``next`` (a new long
    text replaces what was waiting)."""
    return _page(session, text)


def next_page(session: User) -> list[str]:
    """The next page of what waits for ``session``, or FICS's ``There is no more.``"""
    if not session.more:
        return [NO_MORE]
    return _page(session, session.more)
