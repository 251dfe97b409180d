"""Helpers of the cluster tests."""

from __future__ import annotations

from typing import Any

from icswire.protocol.events import Style12Line, Text
from icswire.server.app import Server
from tests.server.support import until


async def online_everywhere(nodes: list[Server], *names: str) -> None:
    """Wait until every node knows these users are online."""
    keys = [name.lower() for name in names]
    await until(lambda: all(all(k in n.world.online for k in keys) for n in nodes))


def board_stream(events: list[Any]) -> list[Any]:
    """The text lines, boards and datagrams of a client's stream, the clocks left out (they
    depend on how long each move took, on one node as on several)."""
    found: list[Any] = []
    for event in events:
        if isinstance(event, Style12Line):
            found.append(
                event.record._replace(white_time=0, black_time=0, move_time_ms=0, lag_ms=None)
            )
        elif isinstance(event, Text) and event.text:
            found.append(event.text)
        elif hasattr(event, "dg"):
            found.append(event)
    return found
