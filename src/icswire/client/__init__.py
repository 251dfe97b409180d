"""The client: an asyncio connection that logs in, runs commands and keeps live state.

``connect`` (:mod:`icswire.client.dialects`) gives a :class:`Connection` (ICC: level 1
and level 2 datagrams), in :mod:`icswire.client.connection`, or a :class:`FicsConnection`
(FICS: block mode, style 12, interface variables; ``connect(..., dialect="fics")``), in
:mod:`icswire.client.fics`; the state model both keep is in :mod:`icswire.client.state`;
``icswire connect`` is the terminal client.
"""

from icswire.client.connection import Connection, LoginError
from icswire.client.dialects import connect
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
