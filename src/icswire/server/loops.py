"""The event loop ``icswire serve`` runs on: uvloop's where it is installed (the optional
extra ``icswire[speed]``), else asyncio's own; ``--loop asyncio`` forces asyncio's and
``--loop uvloop`` insists on uvloop's. Both run the same server (the tests run it on
asyncio's): uvloop's loop and transports take a move, a login and a shout less CPU
(issue 27, ``bench/peer-results``)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

__all__ = ["LOOPS", "LoopUnavailable", "loop_factory", "run", "running_loop_name"]

T = TypeVar("T")

#: ``--loop``'s choices; ``auto`` (the default) is uvloop's if it imports.
LOOPS = ("auto", "uvloop", "asyncio")

LoopFactory = Callable[[], asyncio.AbstractEventLoop]


class LoopUnavailable(RuntimeError):
    """``--loop uvloop`` where uvloop is not installed."""


def loop_factory(choice: str) -> LoopFactory | None:
    """The factory of ``choice``'s loop; None for asyncio's own."""
    if choice not in LOOPS:
        raise ValueError(f"no event loop {choice!r}: one of {', '.join(LOOPS)}")
    if choice == "asyncio":
        return None
    try:
        import uvloop
    except ModuleNotFoundError:
        if choice == "uvloop":
            raise LoopUnavailable(
                "uvloop is not installed (pip install 'icswire[speed]')"
            ) from None
        return None
    return uvloop.new_event_loop


def running_loop_name() -> str:
    """``uvloop`` or ``asyncio``: the running loop's, for the log."""
    return type(asyncio.get_running_loop()).__module__.partition(".")[0]


def run(main: Coroutine[Any, Any, T], factory: LoopFactory | None) -> T:
    """``asyncio.run(main)`` on ``factory``'s loop (asyncio's own if None)."""
    with asyncio.Runner(loop_factory=factory) as runner:
        return runner.run(main)
