"""The computers a server runs in its own process (``icswire serve --computer``): one bot
(:func:`icswire.bot.run_bot`) per account, each an asyncio task that logs in over the
loopback to the server's own port, FICS dialect, once the server listens.

:class:`House` is what :func:`icswire.server.app.serve` starts after the listener is up
and stops before the server: it makes the accounts ready (:mod:`.accounts`), starts the
bots and says in the log what it started (``computer opponents: StockfishEasy, ...``) and
what it could not. A bot that fails (its engine dies, the login is refused) or leaves is
logged and started again after a wait that doubles from :attr:`House.first_retry` up to
:data:`LONGEST_RETRY` (back to the first after a run of :data:`STEADY` seconds); nothing
it does reaches the server but through its connection. Stopping asks every bot to log out
and waits (at most :attr:`House.patience` seconds) until the server has seen them go.

Each keeps seeks posted for FICS's common time controls (:data:`TIME_CONTROLS`), rated for
registered players and unrated for guests (a fresh server's visitors are guests), and
3 0 in each variant its engine seeks; it accepts challenges in the variants its engine
plays, 1 to 60 minutes and up to 60 seconds' increment, from anybody but another
computer, one game at a time. Its games are rated as anyone's: its ratings move with them.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import logging
import time
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import icswire.bot as bot
from icswire.bot.config import BotConfig, ChallengeRules, EngineConfig, Seek
from icswire.bot.engine import EngineError
from icswire.client import LoginError
from icswire.computers.accounts import AccountTaken, ready_account
from icswire.computers.engines import Computer, parse_computers
from icswire.server.core.model.names import name_key
from icswire.server.core.storage.store import StoreUnavailable

if TYPE_CHECKING:
    from icswire.server.app import Server

__all__ = ["LONGEST_RETRY", "STEADY", "TIME_CONTROLS", "House", "bot_config"]

log = logging.getLogger("icswire.computers")

#: The seeks each computer keeps in chess (minutes, seconds).
TIME_CONTROLS = ((1, 0), (3, 0), (5, 3), (15, 10))
#: The time control of its seeks in a variant.
VARIANT_TIME_CONTROL = (3, 0)
#: The longest wait before a failed bot is started again, in seconds.
LONGEST_RETRY = 300.0
#: A bot that ran this long (seconds) before it failed waits the first wait again.
STEADY = 60.0
Runner = Callable[..., Awaitable[None]]


def seeks_of(computer: Computer) -> tuple[Seek, ...]:
    """The seeks ``computer`` keeps posted."""
    controls = [("chess", *control) for control in TIME_CONTROLS]
    controls += [(variant, *VARIANT_TIME_CONTROL) for variant in computer.engine.seek_variants]
    return tuple(
        Seek(base, increment, rated=rated, variant=variant)
        for variant, base, increment in controls
        for rated in (True, False)
    )


def bot_config(
    computer: Computer, password: str, host: str, port: int, cwd: Path | None = None
) -> BotConfig:
    """The settings of ``computer``'s bot on the server at ``host``:``port``."""
    engine, level = computer.engine, computer.level
    return BotConfig(
        host=host,
        port=port,
        dialect="fics",
        user=computer.name,
        password=password,
        engine=EngineConfig(
            command=computer.command,
            protocol=engine.protocol,
            skill=level.skill,
            nodes=level.nodes,
            depth=level.depth,
            movetime=level.movetime,
            cwd=None if cwd is None else str(cwd),
        ),
        challenges=ChallengeRules(
            variants=engine.variants,
            min_base=1,
            max_base=60,
            max_increment=60,
            titles_refused=("C",),
            max_games=1,
        ),
        seeks=seeks_of(computer),
        reconnect=False,  # the house starts it again, with a wait, and says so
    )


def _loopback_if_any(host: str) -> str:
    """Where a bot connects to a server listening on ``host``: the loopback when that is
    every address (``0.0.0.0``, ``::``, ``""``)."""
    try:
        every = not host or ipaddress.ip_address(host).is_unspecified
    except ValueError:  # a host name
        every = False
    return "127.0.0.1" if every else host


class House:
    """The computers ``--computer`` asks for (:func:`~.engines.parse_computers`), run
    beside a server; ``missing`` are the engines it named that are not installed (the
    start says so). ``work_dir`` holds a folder per engine to run in (sjeng writes files
    where it runs); ``runner`` runs one bot (:func:`icswire.bot.run_bot`; tests give
    another)."""

    def __init__(
        self,
        computers: Sequence[Computer],
        missing: Sequence[str] = (),
        work_dir: Path | None = None,
        runner: Runner | None = None,
    ) -> None:
        self.computers = tuple(computers)
        self.missing = tuple(missing)
        self.work_dir = work_dir
        self.runner = runner
        #: The first wait (seconds) before a failed bot starts again.
        self.first_retry = 2.0
        #: The longest :meth:`stop` waits for the bots to log out, in seconds.
        self.patience = 10.0
        #: The accounts started, in order.
        self.started: list[str] = []
        self._stop = asyncio.Event()
        self._tasks: dict[str, asyncio.Task[None]] = {}
        self._server: Server | None = None

    @classmethod
    def from_option(cls, text: str, work_dir: Path | None = None) -> House:
        """The house ``--computer TEXT`` asks for (:class:`~.engines.ComputerSpecError`
        when TEXT cannot be read)."""
        computers, missing = parse_computers(text)
        return cls(computers, missing, work_dir)

    async def start(self, server: Server) -> None:
        """Make the accounts ready and start a bot for each, on ``server``'s port."""
        self._server = server
        logging.getLogger("chess.engine").setLevel(logging.ERROR)  # sjeng talks a lot
        for line in self.missing:
            log.warning("computer opponents: %s", line)
        host = _loopback_if_any(server.host)
        configs = []
        for computer in self.computers:
            try:
                password = await asyncio.to_thread(ready_account, server.store, computer.name)
            except (AccountTaken, StoreUnavailable, ValueError) as exc:
                log.warning("computer opponents: %s not started: %s", computer.name, exc)
                continue
            configs.append(
                bot_config(computer, password, host, server.port, self._folder(computer))
            )
        self.started = [config.user for config in configs]
        log.info("computer opponents: %s", ", ".join(self.started) or "none started")
        loop = asyncio.get_running_loop()
        for config in configs:
            name = config.user
            self._tasks[name] = loop.create_task(self._keep(name, config), name=f"computer {name}")

    def _folder(self, computer: Computer) -> Path | None:
        if self.work_dir is None:
            return None
        folder = self.work_dir / computer.name.lower()
        folder.mkdir(parents=True, exist_ok=True)
        return folder

    async def _keep(self, name: str, config: BotConfig) -> None:
        """Run ``name``'s bot until the house stops, starting it again when it ends."""
        wait = self.first_retry
        while not self._stop.is_set():
            began = time.monotonic()
            try:
                await self._run(config)
            except (LoginError, OSError, EngineError) as exc:
                log.error("computer %s failed: %s", name, exc or type(exc).__name__)
            except Exception:  # a bug: logged whole, and the server plays on
                log.exception("computer %s failed", name)
            else:
                if not self._stop.is_set():
                    log.warning("computer %s left the server", name)
            if self._stop.is_set():
                break
            if time.monotonic() - began >= STEADY:
                wait = self.first_retry
            log.info("computer %s starts again in %g s", name, wait)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._stop.wait(), wait)
            wait = min(wait * 2, LONGEST_RETRY)

    async def _run(self, config: BotConfig) -> None:
        runner = self.runner if self.runner is not None else bot.run_bot
        await runner(config, stop=self._stop)

    async def stop(self) -> None:
        """Ask every bot to log out; wait until the server saw them go (or
        :attr:`patience` runs out: then what is left is cancelled, and logged)."""
        self._stop.set()
        tasks = list(self._tasks.values())
        deadline = time.monotonic() + self.patience
        if tasks:
            _, late = await asyncio.wait(tasks, timeout=self.patience)
            for task in late:
                log.warning("%s did not log out in time", task.get_name())
                task.cancel()
            await asyncio.gather(*late, return_exceptions=True)
        server = self._server
        if server is not None:
            keys = {name_key(name) for name in self.started}
            while keys & server.world.online.keys() and time.monotonic() < deadline:
                await asyncio.sleep(0.02)
        self._tasks.clear()
