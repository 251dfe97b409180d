"""The base of every domain event, and the closed set of event kinds.

An event is a frozen dataclass whose fields are plain values: ``str``, ``int``, ``bool``,
``None``, tuples of them and other events' value types (such as
:class:`~icswire.server.core.events.games.GamePosition`). Nothing in it refers to a
session or a live object, so it means the same on every node of a cluster. A field whose
metadata says ``wire=False`` is a local convenience (a board already built from the FEN
the event carries) and is not shipped.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

#: Every event class and value type, by class name: the kinds a cluster accepts.
KINDS: dict[str, type[Any]] = {}

#: The metadata of a field that stays on the node that made the event.
LOCAL: dict[str, Any] = {"wire": False}


def kind(cls: type[Any]) -> type[Any]:
    """Register ``cls`` (an event or a value type of events) under its name."""
    KINDS[cls.__name__] = cls
    return cls


@dataclass(frozen=True, slots=True)
class Event:
    """Something other users see happen. Subclasses are registered with :func:`kind`;
    which DGs each produces is render/table.py's."""
