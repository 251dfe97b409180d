"""The ICC/FICS wire formats, sans-I/O and stdlib only: bytes in, typed events out, and back.

The names most programs need are here; each module documents its format.
"""

from icswire.protocol.datagrams import DG, decode_datagram, encode_datagram
from icswire.protocol.decoder import Decoder
from icswire.protocol.encoder import encode_event, encode_events
from icswire.protocol.events import Event
from icswire.protocol.level1 import CommandNumber

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
