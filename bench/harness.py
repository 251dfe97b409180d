"""What the benches share: ``icswire serve`` in a child process, free ports, and the
file-descriptor limit (thousands of connections on each side of loopback)."""

from __future__ import annotations

import os
import resource
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

HOST = "127.0.0.1"
SERVER_START_TIMEOUT = 20.0
SHUTDOWN_TIMEOUT = 60.0

PROFILED_SERVER = """\
import cProfile, signal, sys, time
from icswire.cli import main
# wall: cProfile's own clock (low overhead; right on a quiet machine); cpu: the main
# thread's CPU time (right when other processes compete for the cores, but each call
# costs a system call, which inflates call-heavy Python code against system calls)
cpu = sys.argv[2] == "cpu"
profile = cProfile.Profile(time.thread_time) if cpu else cProfile.Profile()
signal.signal(signal.SIGUSR1, lambda *_: profile.enable())
def _dump(*_):
    profile.disable()
    profile.dump_stats(sys.argv[1])
signal.signal(signal.SIGUSR2, _dump)
main(sys.argv[3:], prog_name="icswire")
"""


#: The server's abuse limits, off: a bench is thousands of clients on one address, logging
#: in slowly under a profiler, shouting and pairing as fast as it can.
NO_LIMITS = [
    f"--limit={assignment}"
    for assignment in (
        "max_per_address=0",
        "login_timeout=0",
        "idle_timeout=0",
        "seeks_per_address=0",
        *(f"{kind}=off" for kind in ("tell", "channel", "shout", "seek", "match")),
    )
]


#: The line that ends a login: FICS's, or ICC's for a session that turned level 1 or 2 on
#: at the login prompt.
STARTING = ("**** Starting FICS session as ", "**** Starting ICC session as ")


def started_as(text: str) -> str | None:
    """The name a login's last line gives (``Name(U)`` of ``... session as Name(U) ****``),
    or None when ``text`` is no such line."""
    for prefix in STARTING:
        if text.startswith(prefix):
            return text.removeprefix(prefix).split(" ")[0]
    return None


def process_cpu_seconds(pid: int) -> float:
    """User + system CPU time of process ``pid`` so far (Linux /proc); NaN if it is gone."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return float("nan")
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class SetupError(Exception):
    """The bench could not run (exit status 2)."""


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        return int(sock.getsockname()[1])


def raise_fd_limit(needed: int) -> int:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and hard < needed:
        raise SetupError(f"{needed} file descriptors needed, the hard limit is {hard}")
    if soft != hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    return hard


class ServerProcess:
    """``icswire serve`` in a child process, its log in a file (never a pipe that fills);
    ``extra`` are more ``serve`` options (a cluster node's ``--cluster``, ``--node``...)."""

    def __init__(
        self,
        data_dir: Path,
        profile: Path | None,
        clock: str = "wall",
        extra: Sequence[str] = (),
    ) -> None:
        self.port = free_port()
        self.profile = profile
        self.log_path = data_dir / "server.log"
        args = [
            *("serve", "--host", HOST, "--port", str(self.port), "--data-dir", str(data_dir)),
            *NO_LIMITS,
            *extra,
        ]
        if profile is None:
            command = [sys.executable, "-m", "icswire", *args]
        else:
            command = [sys.executable, "-c", PROFILED_SERVER, str(profile), clock, *args]
        self._log = open(self.log_path, "wb")  # noqa: SIM115 (closed in stop())
        self.process = subprocess.Popen(
            command, stdin=subprocess.DEVNULL, stdout=self._log, stderr=subprocess.STDOUT
        )

    def log_tail(self, lines: int = 15) -> str:
        text = self.log_path.read_text("utf-8", "replace").splitlines()
        return "\n".join(text[-lines:])

    def wait_listening(self) -> None:
        deadline = time.monotonic() + SERVER_START_TIMEOUT
        while time.monotonic() < deadline:
            if "listening on" in self.log_path.read_text("utf-8", "replace"):
                return
            if self.process.poll() is not None:
                raise SetupError(
                    f"the server exited ({self.process.returncode}):\n{self.log_tail()}"
                )
            time.sleep(0.05)
        raise SetupError(f"no 'listening on' from the server in {SERVER_START_TIMEOUT:.0f} s")

    def cpu_seconds(self) -> float:
        """User + system CPU time of the server process so far (Linux /proc)."""
        return process_cpu_seconds(self.process.pid)

    def main_thread_cpu_seconds(self) -> float:
        """CPU time of the server's main thread (the event loop); the rest of
        :meth:`cpu_seconds` is its worker threads (the store's saves)."""
        pid = self.process.pid
        try:
            fields = Path(f"/proc/{pid}/task/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            return float("nan")
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def signal(self, signum: int) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signum)

    def stop(self) -> tuple[float, int | None]:
        """SIGTERM, wait (SIGKILL after SHUTDOWN_TIMEOUT); seconds taken and exit status."""
        started = time.perf_counter()
        self.signal(signal.SIGTERM)
        try:
            status: int | None = self.process.wait(SHUTDOWN_TIMEOUT)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
            status = None
        self._log.close()
        return time.perf_counter() - started, status


def start_server(
    data_dir: Path, profile: Path | None, clock: str = "wall", extra: Sequence[str] = ()
) -> ServerProcess:
    """A server that is listening (stopped again if it never gets there)."""
    server = ServerProcess(data_dir, profile, clock, extra)
    try:
        server.wait_listening()
    except SetupError:
        server.stop()
        raise
    return server


#: A floor for the login benches: the same login dialogue as icswire's (banner, ``login:``,
#: the guest's name, the session greeting, a prompt) on asyncio's streams, a task per
#: connection reading until it closes, and nothing else (no world, no store, no features).
FLOOR_SERVER = """\
import asyncio, itertools, sys
names = itertools.count(1)
async def serve(reader, writer):
    writer.write(b"Welcome to the floor server.\\r\\n\\r\\nlogin: ")
    await reader.readline()
    name = f"Guest{next(names):05d}"
    writer.write(f'Press return to enter the server as "{name}":\\r\\n'.encode())
    await reader.readline()
    writer.write(f"**** Starting FICS session as {name}(U) ****\\r\\n\\r\\nfics% ".encode())
    while await reader.read(4096):
        pass
    writer.close()
async def main():
    server = await asyncio.start_server(serve, "127.0.0.1", int(sys.argv[1]), backlog=4096)
    print("listening on", flush=True)
    async with server:
        await server.serve_forever()
asyncio.run(main())
"""


#: The same floor as an :class:`asyncio.Protocol` (what icswire's sessions are): no
#: stream and no task per connection, a transport and a protocol object with three slots.
PROTOCOL_FLOOR_SERVER = """\
import asyncio, itertools, sys
names = itertools.count(1)
class Floor(asyncio.Protocol):
    __slots__ = ("transport", "lines", "name")
    def connection_made(self, transport):
        self.transport, self.lines = transport, 0
        transport.write(b"Welcome to the floor server.\\r\\n\\r\\nlogin: ")
    def data_received(self, data):
        for _ in range(data.count(b"\\n")):
            self.lines += 1
            if self.lines == 1:
                self.name = f"Guest{next(names):05d}"
                self.transport.write(
                    f'Press return to enter the server as "{self.name}":\\r\\n'.encode()
                )
            elif self.lines == 2:
                self.transport.write(
                    f"**** Starting FICS session as {self.name}(U) ****\\r\\n\\r\\nfics% ".encode()
                )
async def main():
    loop = asyncio.get_running_loop()
    server = await loop.create_server(Floor, "127.0.0.1", int(sys.argv[1]), backlog=4096)
    print("listening on", flush=True)
    async with server:
        await server.serve_forever()
asyncio.run(main())
"""


def start_floor(script: str = FLOOR_SERVER) -> tuple[subprocess.Popen[bytes], int]:
    """A floor server (:data:`FLOOR_SERVER` unless ``script`` says another) in a child
    process, listening: (process, port)."""
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-c", script, str(port)],
        stdout=subprocess.PIPE,
        stdin=subprocess.DEVNULL,
    )
    assert process.stdout is not None
    if b"listening on" not in process.stdout.readline():
        process.kill()
        raise SetupError("the floor server did not start")
    return process, port
