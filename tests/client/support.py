"""What the client tests share besides fixtures."""

from __future__ import annotations

import asyncio


async def until(condition: object, timeout: float = 10.0) -> None:
    """Wait until ``condition()`` is true (the state follows the stream)."""

    async def poll() -> None:
        while not condition():  # type: ignore[operator]
            await asyncio.sleep(0.02)

    await asyncio.wait_for(poll(), timeout)
