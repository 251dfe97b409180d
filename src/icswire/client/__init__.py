"""The client: an asyncio connection that logs in, runs commands and keeps live state.

``connect`` and :class:`Connection` (ICC: level 1 and level 2 datagrams) are in
:mod:`icswire.client.connection`, :class:`FicsConnection` (FICS: block mode, style 12,
interface variables; ``connect(..., dialect="fics")``) in :mod:`icswire.client.fics`, the
state model both keep in :mod:`icswire.client.state`; ``icswire connect`` is the terminal
client.
"""

from icswire.client.connection import Connection, LoginError, connect
from icswire.client.fics import FICS_SETTINGS, Block, FicsConnection
from icswire.client.state import STATE_DATAGRAMS, MyGame, Player, State

__all__ = [
    "FICS_SETTINGS",
    "STATE_DATAGRAMS",
    "Block",
    "Connection",
    "FicsConnection",
    "LoginError",
    "MyGame",
    "Player",
    "State",
    "connect",
]
