"""The ICC/FICS wire formats, sans-I/O and stdlib only: bytes in, typed events out, and back.

The names most programs need are here; each module documents its format. They are
imported on first use (PEP 562), so a program that needs one module loads only that one.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from icswire.protocol.lazy import lazy_getattr

if TYPE_CHECKING:
    from icswire.protocol.datagrams import DG, decode_datagram, encode_datagram
    from icswire.protocol.decoder import Decoder
    from icswire.protocol.encoder import encode_event, encode_events
    from icswire.protocol.events import Event
    from icswire.protocol.level1 import CommandNumber

#: Each name of ``__all__``, by the module that defines it.
_MODULE_OF = {
    "DG": "datagrams",
    "decode_datagram": "datagrams",
    "encode_datagram": "datagrams",
    "Decoder": "decoder",
    "encode_event": "encoder",
    "encode_events": "encoder",
    "Event": "events",
    "CommandNumber": "level1",
}

__all__ = [
    "DG",
    "CommandNumber",
    "Decoder",
    "Event",
    "decode_datagram",
    "encode_datagram",
    "encode_event",
    "encode_events",
]


__getattr__ = lazy_getattr(__name__, _MODULE_OF, globals())


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
