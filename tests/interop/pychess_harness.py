"""Run PyChess's own ICS code against a server: the test side of ``pychess_driver.py``.

The driver runs with the system Python (``/usr/bin/python3``, where Debian's ``pychess``
package and its ``gi`` bindings live; override with ``ICSWIRE_PYCHESS_PYTHON``), in a
subprocess with a hard time limit, and prints one JSON object per event PyChess's managers
recognised. :func:`run_pychess` starts it against a port and returns those events as a
:class:`PyChessRun`; :data:`requires_pychess` skips a test when PyChess is not installed
(Debian: ``apt-get install pychess``).

A scenario is a built-in name (``login``, ``seek``, ``seek-play``, ``match``, ``observe``,
``chat``, ``lists``, ``games-list``) or a dict ``{"clients": {...}, "steps": [...]}``;
see the driver's docstring for the step language.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import os
import subprocess
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

DRIVER = Path(__file__).resolve().with_name("pychess_driver.py")
PYTHON = os.environ.get("ICSWIRE_PYCHESS_PYTHON", "/usr/bin/python3")
#: Seconds the driver gets on top of its own --timeout before it is killed.
KILL_MARGIN = 15.0


@functools.cache
def pychess_missing() -> str | None:
    """Why PyChess cannot be driven here, or None if it can."""
    if not Path(PYTHON).exists():
        return f"{PYTHON} does not exist"
    try:
        subprocess.run(
            [PYTHON, "-c", "import pychess.ic.FICSConnection"],
            check=True,
            capture_output=True,
            timeout=60,
        )
    except subprocess.CalledProcessError as error:
        last = error.stderr.decode(errors="replace").strip().splitlines()[-1:]
        return f"{PYTHON} cannot import pychess.ic ({' '.join(last)})"
    except subprocess.TimeoutExpired:
        return f"{PYTHON} took over a minute to import pychess.ic"
    return None


requires_pychess = pytest.mark.skipif(
    pychess_missing() is not None,
    reason=f"PyChess interop needs Debian's pychess for {PYTHON} "
    f"(apt-get install pychess): {pychess_missing()}",
)


@dataclass
class PyChessRun:
    """What the driver printed: ``events`` in order, its exit status and its stderr."""

    events: list[dict[str, Any]]
    returncode: int
    stderr: str = ""
    command: list[str] = field(default_factory=list)

    def of(self, event: str, client: str | None = None, **where: Any) -> list[dict[str, Any]]:
        """The events named ``event`` (of ``client``) whose fields equal ``where``; a
        dotted key looks inside, e.g. ``game__result="1-0"`` for ``game.result``."""
        found = []
        for record in self.events:
            if record.get("event") != event:
                continue
            if client is not None and record.get("client") != client:
                continue
            if all(_field(record, key.replace("__", ".")) == want for key, want in where.items()):
                found.append(record)
        return found

    def first(self, event: str, client: str | None = None, **where: Any) -> dict[str, Any]:
        found = self.of(event, client, **where)
        assert found, f"no {event} of {client or 'any client'} {where or ''}\n{self.explain()}"
        return found[0]

    def username(self, client: str = "a") -> str:
        return str(self.first("connected", client)["username"])

    @property
    def ok(self) -> bool:
        """Every step of the scenario happened (exit status 0)."""
        return self.returncode == 0

    def failures(self) -> list[dict[str, Any]]:
        kinds = {"wait_failed", "crash", "timeout", "killed", "action_failed", "error"}
        return [e for e in self.events if e.get("event") in kinds]

    def explain(self, last: int = 40) -> str:
        """The end of the run, for assertion messages: failures first, then the last events
        (without the raw trace) and the end of stderr."""
        quiet = {"recv", "matched", "connectingMsg"}
        tail = [e for e in self.events if e.get("event") not in quiet][-last:]
        lines = [f"driver exit status {self.returncode}; failures:"]
        lines += [json.dumps(e)[:400] for e in self.failures()]
        lines += ["last events:", *(json.dumps(e)[:400] for e in tail)]
        lines += ["stderr:", *self.stderr.strip().splitlines()[-15:]]
        return "\n".join(lines)


def _field(record: Mapping[str, Any], path: str) -> Any:
    value: Any = record
    for part in path.split("."):
        if not isinstance(value, Mapping) or part not in value:
            return KeyError(path)
        value = value[part]
    return value


async def run_pychess(
    port: int,
    scenario: str | Mapping[str, Any],
    *,
    mode: str = "fics",
    tmp_path: Path | None = None,
    timeout: float = 60.0,
    wait: float = 10.0,
    options: Iterable[str] = (),
) -> PyChessRun:
    """Run the driver against ``127.0.0.1:port`` and return its events.

    Await it from the test's event loop (the server under test keeps running meanwhile).
    ``options`` are extra driver options, e.g. ``("--trace",)``, ``("--user", "Fred",
    "--password", "pw")`` or ``("--proxy", "icc-newline")``. PyChess's config and log
    folders go under ``tmp_path`` (a fresh temporary folder of the driver's own if None).
    """
    script = scenario if isinstance(scenario, str) else json.dumps(scenario)
    command = [PYTHON, str(DRIVER), "--port", str(port), "--mode", mode]
    command += ["--timeout", str(timeout), "--wait", str(wait), *options, script]
    env = dict(os.environ)
    if tmp_path is not None:
        home = tmp_path / "pychess-home"
        for var in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME"):
            env[var] = str(home / var.lower())
            Path(env[var]).mkdir(parents=True, exist_ok=True)
        env["PYCHESS_DRIVER_KEEP_HOME"] = "1"
    process = await asyncio.create_subprocess_exec(
        *command,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
        env=env,
        start_new_session=True,
    )
    try:
        out, err = await asyncio.wait_for(process.communicate(), timeout + KILL_MARGIN)
    except TimeoutError:
        with contextlib.suppress(ProcessLookupError):
            process.kill()
        out, err = await process.communicate()
        err += b"\n[killed by run_pychess after %.0f s]" % (timeout + KILL_MARGIN)
    events = []
    for line in out.decode("utf-8", errors="replace").splitlines():
        with contextlib.suppress(ValueError):
            events.append(json.loads(line))
    returncode = process.returncode if process.returncode is not None else -1
    return PyChessRun(events, returncode, err.decode("utf-8", errors="replace"), command)
