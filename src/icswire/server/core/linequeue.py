"""A connection's queue of lines read and not yet run.

:class:`asyncio.Queue` would do, but it builds three deques and an event for every
connection (about 3 KiB, held for as long as the user is online); this does the same job,
a bounded queue that makes a reader and a writer wait, with two lists and the futures of
whoever waits.
"""

from __future__ import annotations

import asyncio
from typing import Generic, TypeVar

Item = TypeVar("Item")


class LineQueue(Generic[Item]):
    __slots__ = ("_getters", "_items", "_maxsize", "_putters")

    def __init__(self, maxsize: int) -> None:
        self._items: list[Item] = []
        self._maxsize = maxsize
        self._getters: list[asyncio.Future[None]] = []
        self._putters: list[asyncio.Future[None]] = []

    def empty(self) -> bool:
        return not self._items

    def put_nowait(self, item: Item) -> None:
        """Add ``item``; :class:`asyncio.QueueFull` if the queue is full."""
        if len(self._items) >= self._maxsize:
            raise asyncio.QueueFull
        self._items.append(item)
        _wake(self._getters)

    async def put(self, item: Item) -> None:
        """Add ``item``, waiting while the queue is full."""
        while len(self._items) >= self._maxsize:
            await _wait(self._putters)
        self._items.append(item)
        _wake(self._getters)

    async def get(self) -> Item:
        """The oldest item, waiting for one if there is none."""
        while not self._items:
            await _wait(self._getters)
        item = self._items.pop(0)
        _wake(self._putters)
        return item


async def _wait(waiters: list[asyncio.Future[None]]) -> None:
    future = asyncio.get_running_loop().create_future()
    waiters.append(future)
    try:
        await future
    finally:
        if future in waiters:
            waiters.remove(future)


def _wake(waiters: list[asyncio.Future[None]]) -> None:
    for future in waiters:
        if not future.done():
            future.set_result(None)
            return
