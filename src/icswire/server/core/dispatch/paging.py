"""Long text a page at a time, as FICS's ``pmore_text`` sends it: ``height - 1`` lines
(``set height``), then ``Type [next] to see next page.``; ``next`` sends the following
page. A feature sends long text (a help file, a list) with
:meth:`Context.page <icswire.server.core.dispatch.hub.Context.page>`; ICC sessions get it whole,
as ICC's clients scroll it themselves, unless it is longer than :data:`PAGE_CHARS`: a page
never holds more (in either face), so that a long listing fits the output limit
(:data:`~icswire.server.core.net.session.OUTPUT_LIMIT`) with room for the datagrams that
may come with it, and is never dropped for a control-Z.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from icswire.server.core.net.session import OUTPUT_LIMIT

if TYPE_CHECKING:
    from icswire.server.core.model.users import User

__all__ = ["MORE", "NO_MORE", "PAGE_CHARS", "first_page", "next_page"]

MORE = "Type [next] to see next page."
NO_MORE = "There is no more."
#: The most characters of text on one page.
PAGE_CHARS = OUTPUT_LIMIT * 2 // 5


def _page(session: User, text: Sequence[str]) -> list[str]:
    room = len(text) if session.talks_icc else max(session.variables["height"] - 1, 1)
    size, fits = 0, 0
    for line in text[:room]:
        size += len(line) + 2
        if size > PAGE_CHARS and fits:
            break
        fits += 1
    if fits == len(text):
        session.more = ()
        return list(text)
    session.more = text[fits:]
    return [*text[:fits], MORE]


def first_page(session: User, text: list[str]) -> list[str]:
    """What ``session`` is sent of ``text`` now; the rest waits for ``next`` (a new long
    text replaces what was waiting)."""
    return _page(session, text)


def next_page(session: User) -> list[str]:
    """The next page of what waits for ``session``, or FICS's ``There is no more.``"""
    if not session.more:
        return [NO_MORE]
    return _page(session, session.more)
