"""Numbers and names that must be unique in a whole cluster (game numbers, seek indexes,
the guest names the server gives).

A single server has nothing to ask: :class:`Claims` then says every number is free. In a
cluster, the node's registry sets :attr:`Claims.elsewhere` (the numbers other nodes hold,
as it hears of them), :attr:`Claims.take` (take a number in the cluster's registry, False
when another node took it first) and :attr:`Claims.give_back`.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Container
from dataclasses import dataclass
from typing import Generic, TypeVar

Key = TypeVar("Key", int, str)


@dataclass
class Claims(Generic[Key]):
    elsewhere: Container[Key] = frozenset()
    take: Callable[[Key], Awaitable[bool]] | None = None
    give_back: Callable[[Key], None] | None = None

    async def claim(self, key: Key) -> bool:
        """Whether ``key`` is now ours (always, on a single server)."""
        return self.take is None or await self.take(key)

    def release(self, key: Key) -> None:
        """``key`` is no longer used here (a seek is gone, a guest left before logging in)."""
        if self.give_back is not None:
            self.give_back(key)
