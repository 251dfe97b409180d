"""The client: an asyncio connection that logs in, runs commands and keeps live state.

``connect`` and :class:`Connection` are in :mod:`icswire.client.connection`, the state
model in :mod:`icswire.client.state`; ``icswire connect`` is the terminal client.
"""

from icswire.client.connection import Connection, LoginError, connect
from icswire.client.state import STATE_DATAGRAMS, MyGame, Player, State

__all__ = ["STATE_DATAGRAMS", "Connection", "LoginError", "MyGame", "Player", "State", "connect"]
