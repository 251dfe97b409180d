"""What does one message between two processes cost on this machine, at the least?

``python bench/transport_floor.py [--rate 250] [--count 1000] [--nats URL]`` sends
``--count`` messages of a delivered move's size (900 bytes) at ``--rate`` a second, the
pace of moves in ``bench/cluster.py``'s games (below saturation: every message wakes its
receiver), and reports, as CPU microseconds a message:

- ``raw write``: the sender's ``transport.write`` of a plain asyncio connection (one
  ``send`` system call: what any transport pays to send);
- ``raw receive``: a receiving process with a plain :class:`asyncio.Protocol` (its event
  loop wakes, reads, calls ``data_received``: what any transport pays to receive);
- ``nats receive``: a receiving process subscribed with nats-py, as a cluster node is
  (the same wake-up, then nats-py's parser, queue and subscription task).

Each receiver is a child process that times its own CPU from its first message to its last.
The sum ``raw write + raw receive`` is the floor of a message between two nodes: no
transport, format or design does with less. ``bench/cluster.py`` prints what it implies for
the cluster's ratio (``floor_ratio``): a move that reaches ``k`` other nodes costs at least
``k`` such messages more than on one node.

Exit status 0, or 2 if it could not run (no NATS, a receiver that never reported).
"""

from __future__ import annotations

import argparse
import asyncio
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from harness import HOST, SetupError, free_port

PAYLOAD_SIZE = 900
DONE = b"!"
REPORT_TIMEOUT = 60.0

#: A receiver on a plain asyncio connection: it prints its CPU a message at the end.
RAW_RECEIVER = """\
import asyncio, sys, time
seen = {"count": 0, "first": 0.0, "last": 0.0}
async def main():
    loop = asyncio.get_running_loop()
    done = loop.create_future()
    class Receiver(asyncio.Protocol):
        def data_received(self, data):
            now = time.process_time()
            if not seen["count"]:
                seen["first"] = now
            seen["count"] += 1
            seen["last"] = now
            if data.endswith(b"!") and not done.done():
                done.set_result(None)
    server = await loop.create_server(Receiver, "127.0.0.1", int(sys.argv[1]))
    print("listening", flush=True)
    await done
    server.close()
    print((seen["last"] - seen["first"]) / max(seen["count"] - 1, 1), flush=True)
asyncio.run(main())
"""

#: A receiver subscribed with nats-py, as a cluster node is.
NATS_RECEIVER = """\
import asyncio, sys, time
import nats
seen = {"count": 0, "first": 0.0, "last": 0.0}
async def main():
    nc = await nats.connect(sys.argv[1])
    done = asyncio.get_running_loop().create_future()
    async def received(msg):
        now = time.process_time()
        if not seen["count"]:
            seen["first"] = now
        seen["count"] += 1
        seen["last"] = now
        if msg.data.endswith(b"!") and not done.done():
            done.set_result(None)
    await nc.subscribe(sys.argv[2], cb=received)
    await nc.flush()
    print("listening", flush=True)
    await done
    await nc.close()
    print((seen["last"] - seen["first"]) / max(seen["count"] - 1, 1), flush=True)
asyncio.run(main())
"""


@dataclass(frozen=True)
class Floor:
    """CPU seconds a message: the raw write, the raw receive, the nats-py receive."""

    raw_write: float
    raw_receive: float
    nats_receive: float

    @property
    def message(self) -> float:
        """The least a message between two processes costs: written and received."""
        return self.raw_write + self.raw_receive


def floor_ratio(base: float, messages: float, floor: Floor) -> float:
    """The least ratio to one node's CPU a move (``base`` seconds) of a cluster where a
    move costs ``messages`` messages between nodes more."""
    return 1 + messages * floor.message / base


def _receiver(script: str, *argv: str) -> subprocess.Popen[str]:
    process = subprocess.Popen(
        [sys.executable, "-c", script, *argv], stdout=subprocess.PIPE, text=True
    )
    assert process.stdout is not None
    if process.stdout.readline().strip() != "listening":
        process.kill()
        raise SetupError("a floor receiver did not start")
    return process


def _reported(process: subprocess.Popen[str]) -> float:
    try:
        out, _ = process.communicate(timeout=REPORT_TIMEOUT)
    except subprocess.TimeoutExpired:
        process.kill()
        raise SetupError("a floor receiver never reported") from None
    return float(out.strip())


async def _paced(send: Callable[[bytes], Awaitable[None]], rate: float, count: int) -> float:
    """Call ``send(payload)`` ``count`` times at ``rate`` a second, the last payload
    marked; the CPU seconds the calls took, each."""
    payload = b"x" * (PAYLOAD_SIZE - 1)
    spent = 0.0
    start = time.monotonic()
    for i in range(count):
        data = payload + (DONE if i == count - 1 else b".")
        before = time.process_time()
        await send(data)
        spent += time.process_time() - before
        await asyncio.sleep(max(0.0, start + (i + 1) / rate - time.monotonic()))
    return spent / count


async def measure(rate: float, count: int, nats_url: str) -> Floor:
    import nats

    port = free_port()
    raw = _receiver(RAW_RECEIVER, str(port))
    _, writer = await asyncio.open_connection(HOST, port)

    async def write(data: bytes) -> None:
        writer.write(data)

    raw_write = await _paced(write, rate, count)
    await writer.drain()
    writer.close()
    raw_receive = _reported(raw)

    subject = f"floor.{free_port()}"
    receiver = _receiver(NATS_RECEIVER, nats_url, subject)
    nc = await nats.connect(nats_url)

    async def publish(data: bytes) -> None:
        await nc.publish(subject, data)

    await _paced(publish, rate, count)
    await nc.flush()
    await nc.close()
    return Floor(raw_write, raw_receive, _reported(receiver))


def describe(floor: Floor) -> str:
    return (
        f"a message between processes, CPU: raw write {floor.raw_write * 1e6:.0f} us + "
        f"raw receive {floor.raw_receive * 1e6:.0f} us = floor {floor.message * 1e6:.0f} us; "
        f"nats-py receive {floor.nats_receive * 1e6:.0f} us"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rate", type=float, default=250.0, help="messages a second")
    parser.add_argument("--count", type=int, default=1000)
    parser.add_argument("--nats", default="nats://127.0.0.1:4222", metavar="URL")
    args = parser.parse_args()
    try:
        floor = asyncio.run(measure(args.rate, args.count, args.nats))
    except (SetupError, OSError) as exc:
        print(f"transport_floor: {exc}", file=sys.stderr)
        return 2
    print(describe(floor))
    return 0


if __name__ == "__main__":
    sys.exit(main())
