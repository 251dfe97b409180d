"""Personal tells in either dialect: ICC's DG_PERSONAL_TELL (type 1, a ``tell``), FICS's
``NAME tells you: TEXT`` line (shared by the bot and the TD, which obey tells)."""

from __future__ import annotations

import re
from typing import Any, Final

from icswire.protocol.datagrams import DG
from icswire.protocol.events import Text

__all__ = ["TELL", "tell_of"]

#: DG_PERSONAL_TELL's type of a ``tell`` (0 is a ``say``, 2 a partner's ``ptell``).
TELL: Final = 1
_FICS_TELL: Final = re.compile(r"([A-Za-z][A-Za-z0-9]*)(?:\([A-Z*]{1,3}\))* tells you: (.*)")


def tell_of(event: Any) -> tuple[str, str] | None:
    """The (teller, text) of a personal tell to me, None for any other event."""
    if getattr(event, "dg", None) == DG.PERSONAL_TELL:
        if event.type != TELL:
            return None
        return str(event.playername), str(event.text)
    if isinstance(event, Text) and (m := _FICS_TELL.fullmatch(event.text)):
        return m[1], m[2]
    return None
