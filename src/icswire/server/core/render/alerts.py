"""What ``set bell`` and ``set highlight`` add to the text a user is sent.

``bell``: FICS's ``Bell()``, a control-G before a challenge and a notification (the
terminal beeps); DG_SOUND (53) says the reason to clients that have it on (:func:`sound`).
``highlight``: FICS's ``pprintf_highlight``, the names that matter in a line (the
challenger in ``Challenge:``, the arrival in a notification) wrapped in ANSI attributes,
one per bit of the value: 1 reverse, 2 bold, 4 underline, 8 dim.

>>> highlighted("Fred", 3)
'\\x1b[7m\\x1b[1mFred\\x1b[0m'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from icswire.protocol import datagrams as dg
from icswire.protocol.codes import Sound
from icswire.protocol.datagrams import DG, encode_datagram
from icswire.protocol.level1 import Level1
from icswire.server.core.render.batch import Data

if TYPE_CHECKING:
    from icswire.server.core.model.users import User

__all__ = ["BELL", "Ring", "highlighted", "name_for", "sound"]

_ATTRIBUTES = ((1, "\x1b[7m"), (2, "\x1b[1m"), (4, "\x1b[4m"), (8, "\x1b[2m"))
_RESET = "\x1b[0m"


def highlighted(text: str, style: int) -> str:
    """``text`` in the ANSI attributes of highlight ``style`` (as it is when 0)."""
    if not style:
        return text
    codes = "".join(code for bit, code in _ATTRIBUTES if style & bit)
    return f"{codes}{text}{_RESET}"


def name_for(receiver: User, name: str) -> str:
    """A name as ``receiver`` reads it, highlighted if it set ``highlight``."""
    return highlighted(name, receiver.variables["highlight"])


@dataclass(frozen=True, eq=False)
class Ring(Data):
    """A control-G for receivers who set ``bell`` (nothing for the others)."""

    def render(self, receiver: User) -> bytes:
        return b"\x07" if receiver.variables["bell"] and not receiver.level1 & Level1.UNITS else b""

    def text(self, receiver: User) -> Sequence[str]:
        return ()

    def key(self, receiver: User) -> Any:
        return bool(receiver.variables["bell"])


#: The one bell every feature adds before what it rings for.
BELL = Ring()


def sound(receiver: User, code: Sound) -> bytes:
    """DG_SOUND (53) ``code`` to a receiver who has it on, nothing to the others. It
    "accompanies some or all bells": it goes with what the server rings for (a
    challenge, an offer, a game's start and end, a notification...) whether or not the
    receiver set ``bell``: which sound to make is its client's choice."""
    return encode_datagram(dg.Sound(code)) if DG.SOUND in receiver.level2 else b""
