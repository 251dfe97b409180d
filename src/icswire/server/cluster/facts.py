"""A user's facts: what other nodes of a cluster keep of a user connected elsewhere.

The user's own node (its *home*) writes them to the registry (a JetStream key-value
bucket, one key per name) at login and whenever they change; every other node keeps a
replica :class:`~icswire.server.core.model.users.User` made from them, so that ``who``,
``finger``, DG_PLAYER_ARRIVED's parts, a tell's checks (censor, ``tell``, busy, away) and the
rendering of what that user is sent (level 1, level 2 DGs, style, width) read the same
values as on its home. Clocks are sent as wall-clock times (``time.time()``) and kept as
the replica node's ``time.monotonic()`` equivalents.

Facts other nodes own (the game a user plays on another node, the games it observes
there, the ratings a game there changed) are sent to the home as
:class:`~icswire.server.cluster.wire.Changes` when they change and written by the home
only, with ``acks``: the last change of each node the write includes (docs/cluster.md,
"One writer per fact"). :func:`apply` sets only the fields named here; any other key of
an entry is no field of a session.
"""

from __future__ import annotations

import json
import math
import time
from typing import Any

from icswire.protocol.level1 import Level1
from icswire.server.core.model.users import User
from icswire.server.core.model.variables import IVARIABLES, VARIABLES

#: The facts a node other than the home may change (a game it holds, observing there):
#: a registry write older than that node's last change does not set them there.
CHANGEABLE = ("state", "state_game", "observing", "ratings")
#: The facts :func:`apply` sets as they are.
PLAIN = frozenset({"name", "registered", "admin", "level1", "state", "state_game", "timeseal"})


def facts_of(session: User, node: str, epoch: int = 0) -> dict[str, Any]:
    """Everything other nodes need of ``session``, whose home is ``node`` (writing under
    ``epoch``: a node that declares it dead removes only the entries of that epoch), as
    JSON data."""
    now_wall, now = time.time(), time.monotonic()
    return {
        "node": node,
        "epoch": epoch,
        "name": session.name,
        "registered": session.registered,
        "admin": session.admin,
        "title_lists": sorted(session.title_lists),
        "level1": session.level1,
        "level2": sorted(session.level2),
        "variables": dict(session.variables),
        "ivariables": dict(session.ivariables),
        "channels": sorted(session.channels),
        "notify": session.notify,
        "lists": session.lists,
        "state": session.state,
        "state_game": session.state_game,
        "observing": sorted(session.observing),
        "ratings": {kind: list(value) for kind, value in session.ratings.items()},
        "timeseal": session.timeseal,
        # whole seconds: the wall and monotonic clocks drift apart by microseconds between
        # two calls, and a float that differs each time would rewrite the facts each time
        "connected": round(now_wall - (now - session.connected_at)),
        "input": now_wall - (now - session.last_input),
        "away": session.away_line(),  # cleared here once he types: written again then
    }


def encode(facts: dict[str, Any]) -> bytes:
    return json.dumps(facts, separators=(",", ":")).encode()


def decode(data: bytes) -> dict[str, Any]:
    found: dict[str, Any] = json.loads(data)
    return found


def stable(facts: dict[str, Any]) -> bytes:
    """The facts but the idle clock, encoded: the same bytes for two writes that would
    say the same (the idle clock alone is not worth a write)."""
    return encode({key: value for key, value in facts.items() if key != "input"})


def apply(session: User, facts: dict[str, Any]) -> None:
    """Set a replica's fields from ``facts``."""
    now_wall, now = time.time(), time.monotonic()
    for key, value in facts.items():
        if key in ("level2", "channels", "observing", "title_lists"):
            setattr(session, key, frozenset(value))
        elif key == "variables":
            session.variables = VARIABLES.shared(value)
        elif key == "ivariables":
            session.ivariables = IVARIABLES.shared(value)
        elif key == "level1":
            session.level1 = Level1(value)
        elif key == "ratings":
            session.ratings = {kind: (rating, note) for kind, (rating, note) in value.items()}
        elif key == "connected":
            session.connected_at = now - (now_wall - value)
        elif key == "input":
            session.last_input = now - (now_wall - value)
        elif key == "away":
            session.away, session.away_set = str(value), math.inf
        elif key in ("notify", "lists"):
            setattr(session, key, dict(value))
        elif key in PLAIN:
            setattr(session, key, value)
