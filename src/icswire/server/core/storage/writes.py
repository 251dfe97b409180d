"""Writes that must not be lost: queued in order and retried until the database takes them.

Everything the server must keep (a game's moves as they are played, its result and the
ratings it changes, a registered user's settings, channels, notify list and aliases) goes
through one :class:`WriteQueue`. Its jobs are plain store calls; one task runs them one
after the other, in a thread, in the order they were queued, so the writes of one game or
one account are never reordered.

When the database does not answer (:class:`~icswire.server.core.storage.store.StoreUnavailable`:
locked, stopped, unreachable, out of space) the job stays at the head of the queue and is
tried again after a pause that doubles from :attr:`WriteQueue.first_delay` up to
:attr:`WriteQueue.max_delay`, for as long as the server runs. The jobs behind it wait:
nothing is dropped and nothing overtakes. A write a cluster's node makes after it was
declared dead (:class:`~icswire.server.core.storage.fencing.Fenced`) will never be taken:
it is dropped and logged, the users it concerns are told (:data:`FENCED`), and the node,
told by its store, ends its games as the cluster did. Any other error
is a defect of the job itself (it would fail again the same way): it is logged with its
traceback and dropped, so it cannot hold everything else back forever.

A job may carry a ``key``: a later job with the same key carries everything the earlier one
would write (a newer snapshot of the same row), so it takes the waiting job's place in the
queue instead of queuing behind it, and a job that failed is given up for the newer one.
Under load the saves of one game thus shrink to its latest state; none is cleared before a
write that contains it succeeded.

A job may also belong to a ``group``, a store call that takes a list: the jobs of one group
that stand together at the head of the queue are written by one call, in one transaction
(:meth:`WriteQueue.put_grouped`). Every game's progress is such a job, so the moves of all
games played in the last tick (:attr:`WriteQueue.group_tick`, or while the last write
ran when it took longer) go to the database together: one transaction per tick, not one
per move, and each is still written before what was queued after it.

The users a job concerns are told once when their writes wait (:data:`KEPT`), and once
when the last of them is written (:data:`SAVED`). The server's stop waits a bounded time
for the queue (:meth:`WriteQueue.close`); what it could not write is logged.

The server's writes are data (:class:`~.jobs.Write`, :meth:`WriteQueue.put_write`), and
with a journal (:meth:`WriteQueue.open_journal`, :mod:`.writelog`) each is appended to a
local file before the caller goes on to tell the user, and read back at the next start:
what was acknowledged, or promised with :data:`KEPT`, survives a crash of the process and
a stop that could not wait for the database.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import itertools
import logging
import math
import time
from collections import Counter, deque
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from icswire.server.core.model.names import name_key
from icswire.server.core.storage import jobs
from icswire.server.core.storage.jobs import Write
from icswire.server.core.storage.store import Fenced, Store, StoreUnavailable
from icswire.server.core.storage.writelog import WriteLog, sync

__all__ = ["FENCED", "KEPT", "NOT_ANSWERING", "NOT_SAVED", "SAVED", "WriteQueue"]

log = logging.getLogger("icswire.server")

NOT_ANSWERING = "The database is not answering; try again in a moment."
"""What a user is told when something they asked for needs a database that does not answer."""

KEPT = (
    "The database is not answering; what you did is kept and will be saved as soon as it is back."
)
"""Told once to each user whose writes wait for the database."""

SAVED = "The database is back; everything you did is saved."
"""Told when the last waiting write of a user who was told :data:`KEPT` is written."""

NOT_SAVED = "Sorry, something you did could not be saved; the server logged why."
"""Told when a write failed for another reason than the database not answering."""

FENCED = (
    "This server was cut off from its cluster, which adjourned its games: "
    "what was played here since is not saved."
)
"""Told when a write of a cluster's node declared dead was refused (a game's moves or end)."""

#: Seconds between two log lines saying the database still does not answer.
LOG_EVERY = 60.0

Tell = Callable[[Iterable[str], str], None]


@dataclass(eq=False)
class _Job:
    run: Callable[[], Any]
    what: str
    concerns: frozenset[str]
    key: Hashable | None
    done: Callable[[Any], None] | None
    seq: int
    account: bool = False
    tries: int = 0
    #: A grouped job: the call that writes a list of items, and this job's item.
    group: Callable[[Sequence[Any]], Any] | None = None
    item: Any = None
    #: The write it makes, as data (None: a plain call, not journaled) ...
    write: Write | None = None
    #: ... and the journal's lines it stands for (a newer snapshot adds its own).
    lines: list[int] = field(default_factory=list)


@dataclass(eq=False)
class _Barrier:
    seq: int
    future: asyncio.Future[None] = field(repr=False)


class WriteQueue:
    """Store calls that must happen, run in order, retried until the database answers.

    ``tell(name_keys, text)`` tells users (those online) how their writes are doing;
    ``store`` is where :meth:`put_write`'s writes go.
    """

    def __init__(self, tell: Tell | None = None, store: Store | None = None) -> None:
        self.tell = tell
        self.store = store
        #: The group of the games' progress writes (one object: the queue groups by it).
        self._progress_group = functools.partial(self._write_progress, store)
        #: Seconds before the first try again, doubled after each failure...
        self.first_delay = 0.05
        #: ... up to this.
        self.max_delay = 5.0
        #: Seconds at least between the starts of two group writes: under load the saves
        #: of a group gather for this long (each game's newest replacing its older), so
        #: the database takes one transaction per tick, not one per move. A group job
        #: that finds the last such write longer ago runs at once.
        self.group_tick = 0.1
        self._group_started = -math.inf
        self._jobs: deque[_Job] = deque()
        self._waiting: dict[Hashable, _Job] = {}  # by key, jobs not started yet
        self._pending: Counter[str] = Counter()  # queued jobs per concerned name key
        self._told: set[str] = set()  # told KEPT, not told SAVED yet
        self._barriers: list[_Barrier] = []
        self._settling: dict[str, list[asyncio.Future[None]]] = {}  # by name key
        self._account_writes: Counter[str] = Counter()  # queued account jobs per name key
        self._seq = 0
        self._worker: asyncio.Task[None] | None = None
        self._failing_since: float | None = None
        self._logged_at = 0.0
        self._closed = False
        self._journal: WriteLog | None = None
        self._journal_failing = False  # it could not be written; logged once
        self._done: list[int] = []  # journal lines written since it was last told
        self._syncing: asyncio.Task[None] | None = None
        self._drained: list[asyncio.Future[None]] = []

    def __len__(self) -> int:
        """Jobs not written yet."""
        return len(self._jobs)

    @property
    def failing(self) -> bool:
        """Whether the database did not answer the last try (until a write succeeds)."""
        return self._failing_since is not None

    def put(
        self,
        run: Callable[[], Any],
        what: str,
        concerns: Iterable[str] = (),
        key: Hashable | None = None,
        done: Callable[[Any], None] | None = None,
        account: bool = False,
    ) -> None:
        """Queue ``run`` (called in a thread; ``what`` names it in the log). ``done`` gets
        its result, on the event loop, once it succeeded. ``concerns``: the names of the
        users to tell while it waits. ``key``: see the module's documentation.
        ``account``: it changes the accounts of ``concerns`` (their saved settings), which
        :meth:`settled` waits for."""
        self._put(run, what, concerns, key, done, account)

    def put_write(
        self,
        write: Write,
        what: str | None = None,
        concerns: Iterable[str] = (),
        done: Callable[[Any], None] | None = None,
    ) -> None:
        """Queue ``write`` for :attr:`store` (journaled first, when there is a journal).
        Its key and whether it is an account's are the write's own; a game's progress is
        grouped with the others. ``what``, ``concerns`` and ``done`` as for :meth:`put`."""
        line = None
        if self._journal is not None:
            try:
                line = self._journal.append(write.kind, write.args)
            except OSError as exc:
                self._journal_failed(exc)
        self._put_write(write, what or str(write), concerns, done, line)
        if line is not None:
            self._journal_failing = False
            self._compact_if_large()
            self._sync_soon()

    def _put_write(
        self,
        write: Write,
        what: str,
        concerns: Iterable[str],
        done: Callable[[Any], None] | None,
        line: int | None,
    ) -> None:
        if self.store is None:
            raise RuntimeError("a write queue without a store takes no writes")
        if write.kind == "progress":
            run = functools.partial(self._progress_group, [write])
            group: Callable[[Sequence[Any]], Any] | None = self._progress_group
        else:
            run, group = functools.partial(jobs.perform, self.store, write), None
        account = write.account
        self._put(run, what, concerns, write.key, done, account, group, write, write, line)

    @staticmethod
    def _write_progress(store: Store | None, writes: Sequence[Write]) -> None:
        if store is None:
            raise RuntimeError("a write queue without a store takes no writes")
        jobs.perform_progress(store, writes)

    def open_journal(self, path: Path) -> int:
        """Keep every :meth:`put_write` in the journal at ``path`` from now on, and queue
        again the writes it holds that were not written (a crash, a stop that could not
        wait); how many. :class:`~.writelog.JournalBusy` if another server has it."""
        journal, pending = WriteLog.open(path)
        self._journal = journal
        for entry in pending:
            write = Write(entry.kind, entry.args)
            if not jobs.known(write):
                log.error("the write journal holds an unknown write, skipped: %s", write)
                self._done.append(entry.n)
                continue
            self._put_write(write, f"{write} (from the journal)", (), None, entry.n)
        self._settle_journal()
        return len(pending)

    def adopt_journal(self, path: Path) -> int:
        """Take the writes waiting in another server's journal at ``path`` (a cluster's
        node that is not running: else :class:`~.writelog.JournalBusy`) into this queue
        and this queue's journal, then delete that file; how many."""
        if self._journal is None:
            raise RuntimeError("open this queue's own journal first")
        journal, pending = WriteLog.open(path)
        try:
            for entry in pending:
                write = Write(entry.kind, entry.args)
                if jobs.known(write):
                    self.put_write(write, f"{write} (from {path.name})")
                else:
                    log.error("the write journal %s holds an unknown write: %s", path, write)
            self._journal.sync_now()  # they are in this journal, on the disk ...
        except BaseException:
            journal.close()
            raise
        # ... before they leave that one (kept when this journal could not take them)
        journal.close(remove=not self._journal_failing)
        return len(pending)

    async def drained(self) -> None:
        """Return once the queue is empty, however long the database takes."""
        if not self._jobs:
            return
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._drained.append(future)
        await future

    def put_grouped(
        self,
        group: Callable[[Sequence[Any]], Any],
        item: Any,
        what: str,
        concerns: Iterable[str] = (),
        key: Hashable | None = None,
    ) -> None:
        """Queue ``item`` for ``group`` (called in a thread with the items of the jobs of
        the same group that stand together at the head of the queue). ``key`` and
        ``concerns`` as for :meth:`put`."""
        run = functools.partial(group, [item])
        self._put(run, what, concerns, key, None, False, group, item)

    def _put(
        self,
        run: Callable[[], Any],
        what: str,
        concerns: Iterable[str],
        key: Hashable | None,
        done: Callable[[Any], None] | None,
        account: bool,
        group: Callable[[Sequence[Any]], Any] | None = None,
        item: Any = None,
        write: Write | None = None,
        line: int | None = None,
    ) -> None:
        if self._closed:
            log.error("the server has stopped: %s is not saved", what)
            return
        names = frozenset(name_key(name) for name in concerns)
        lines = [] if line is None else [line]
        waiting = self._waiting.get(key) if key is not None else None
        if waiting is not None:  # the newer snapshot takes the waiting one's place
            waiting.run, waiting.what, waiting.done = run, what, done
            waiting.group, waiting.item, waiting.write = group, item, write
            waiting.lines += lines
            added = names - waiting.concerns
            waiting.concerns |= added
            self._pending.update(added)
        else:
            self._seq += 1
            job = _Job(
                run, what, names, key, done, self._seq, account, 0, group, item, write, lines
            )
            self._jobs.append(job)
            if account:
                self._account_writes.update(names)
            if key is not None:
                self._waiting[key] = job
            self._pending.update(names)
            added = names
        if self.failing:
            self._tell_kept(added)
        if self._worker is None or self._worker.done():
            self._worker = asyncio.get_running_loop().create_task(self._work())
            self._worker.add_done_callback(_worker_done)

    async def barrier(self) -> None:
        """Return once every job queued before this call is written.

        Raises :class:`StoreUnavailable` at once, or as soon as it happens, when the
        database does not answer: what the caller would then read is not there yet.
        """
        if self.failing:
            raise StoreUnavailable("the database is not answering")
        if not self._jobs:
            return
        barrier = _Barrier(self._seq, asyncio.get_running_loop().create_future())
        self._barriers.append(barrier)
        await barrier.future

    async def settled(self, name: str) -> None:
        """Return once no queued account job concerns ``name``: what that user saved is in
        the database for the next read (a login loading the account). Raises
        :class:`StoreUnavailable` like :meth:`barrier` while some wait and it fails."""
        key = name_key(name)
        if not self._account_writes.get(key):
            return
        if self.failing:
            raise StoreUnavailable("the database is not answering")
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._settling.setdefault(key, []).append(future)
        await future

    async def close(self, timeout: float) -> list[str]:
        """Stop: wait up to ``timeout`` seconds for the queue to be written, then give up
        what is left. Returns what was given up (also logged as an error); with a journal
        nothing is: what is left stays in it for the next start (logged)."""
        worker = self._worker
        if worker is not None and not worker.done():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(asyncio.shield(worker), timeout)
            worker.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await worker
        self._closed = True
        lost = [job.what for job in self._jobs]
        journal, self._journal = self._journal, None
        if journal is not None:
            if self._syncing is not None:
                self._syncing.cancel()
            kept = [job.what for job in self._jobs if job.write is not None]
            if kept:
                log.warning(
                    "the server stops with %d writes the database did not take (or not yet);"
                    " they are kept in the write journal %s for the next start: %s",
                    len(kept),
                    journal.path,
                    "; ".join(kept),
                )
            lost = [job.what for job in self._jobs if job.write is None]
            journal.close(remove=not kept)
        if lost:
            log.error(
                "the server stops with %d writes the database did not take (or not yet): %s",
                len(lost),
                "; ".join(lost),
            )
        self._jobs.clear()
        self._waiting.clear()
        for barrier in self._barriers:
            if not barrier.future.done():
                barrier.future.set_exception(StoreUnavailable("the server has stopped"))
        self._barriers.clear()
        for future in self._drained:
            if not future.done():
                future.set_exception(StoreUnavailable("the server has stopped"))
        self._drained.clear()
        return lost

    def close_journal(self) -> None:
        """Let go of the journal without writing anything (a start that failed)."""
        journal, self._journal = self._journal, None
        if journal is not None:
            journal.close()

    # -- the worker ------------------------------------------------------------------------

    async def _work(self) -> None:
        delay = self.first_delay
        while self._jobs:
            job = self._jobs[0]
            if job.group is not None:
                wait = self._group_started + self.group_tick - time.monotonic()
                if wait > 0:  # gather: newer snapshots replace this one meanwhile
                    await asyncio.sleep(wait)
                    continue
                self._group_started = time.monotonic()
            if job.key is not None:
                newest = self._waiting.get(job.key)
                if newest is job:  # it runs now: a newer one queues behind it
                    del self._waiting[job.key]
                elif newest is not None:  # it failed, and a newer snapshot waits
                    self._finish(job)
                    self._settle_journal()
                    continue
            batch = self._batch(job)
            job.tries += 1
            run = job.run if len(batch) == 1 else self._group_run(batch)
            try:
                result = await asyncio.to_thread(run)
            except Fenced as exc:  # never taken: the cluster decided without it
                log.warning("%s is not saved: %s", _what(batch), exc)
                for written in batch:
                    self._finish(written)
                self._say(frozenset().union(*(written.concerns for written in batch)), FENCED)
                self._settle_journal()
                continue
            except StoreUnavailable as exc:
                self._not_answering(exc)
                await asyncio.sleep(delay)
                delay = min(delay * 2, self.max_delay)
                continue
            except Exception:
                log.exception("could not save %s; it is dropped", _what(batch))
                for written in batch:
                    self._finish(written)
                    self._say(written.concerns, NOT_SAVED)
                self._settle_journal()
                continue
            delay = self.first_delay
            if self._failing_since is not None:
                log.warning(
                    "the database answers again after %.1f s; %d writes to go",
                    time.monotonic() - self._failing_since,
                    len(self._jobs) - len(batch),
                )
                self._failing_since = None
            for written in batch:
                if written.done is not None:
                    try:
                        written.done(result)
                    except Exception:
                        log.exception("after saving %s", written.what)
                self._finish(written)
            self._settle_journal()

    def _batch(self, head: _Job) -> list[_Job]:
        """``head``, and the jobs of its group that stand behind it (they run now: a newer
        snapshot of one of them queues behind them)."""
        if head.group is None:
            return [head]
        batch = [head]
        for job in itertools.islice(self._jobs, 1, None):
            if job.group is not head.group:
                break
            if job.key is not None and self._waiting.get(job.key) is job:
                del self._waiting[job.key]
            batch.append(job)
        return batch

    @staticmethod
    def _group_run(batch: list[_Job]) -> Callable[[], Any]:
        group = batch[0].group
        if group is None:
            raise RuntimeError("group is None")
        return functools.partial(group, [job.item for job in batch])

    def _finish(self, job: _Job) -> None:
        """``job`` leaves the queue: written, given up for a newer one, or dropped."""
        self._jobs.popleft()
        self._done += job.lines
        for name in job.concerns:
            if job.account:
                self._account_writes[name] -= 1
                if self._account_writes[name] <= 0:
                    del self._account_writes[name]
                    for future in self._settling.pop(name, ()):
                        if not future.done():
                            future.set_result(None)
            self._pending[name] -= 1
            if self._pending[name] <= 0:
                del self._pending[name]
                if name in self._told:
                    self._told.discard(name)
                    self._say((name,), SAVED)
        first = self._jobs[0].seq if self._jobs else self._seq + 1
        ready = [b for b in self._barriers if b.seq < first]
        for barrier in ready:
            self._barriers.remove(barrier)
            if not barrier.future.done():
                barrier.future.set_result(None)
        if not self._jobs:
            drained, self._drained = self._drained, []
            for future in drained:
                if not future.done():
                    future.set_result(None)

    # -- the journal -----------------------------------------------------------------------

    def _settle_journal(self) -> None:
        """Tell the journal what was written: emptied when nothing waits, the lines done
        marked otherwise (rewritten with what waits when it has grown large)."""
        journal = self._journal
        if journal is None:
            return
        try:
            if not self._jobs:
                journal.clear()
            elif self._done:
                journal.done(self._done)
                self._compact_if_large()
        except OSError as exc:  # not marked: written again after a crash, and idempotent
            self._journal_failed(exc)
        self._done.clear()
        self._sync_soon()

    def _journal_failed(self, exc: OSError) -> None:
        if not self._journal_failing:
            self._journal_failing = True
            log.error(
                "the write journal cannot be written (%s): what waits for the database is"
                " kept in memory only until it can",
                exc,
            )

    def _compact_if_large(self) -> None:
        """Rewrite the journal with only what waits, once it has grown large (the newer
        snapshots of the rows while the database does not answer)."""
        journal = self._journal
        if journal is None or not journal.too_large():
            return
        waiting = [(job, job.write) for job in self._jobs if job.write is not None]
        try:
            lines = journal.compact([(write.kind, write.args) for _, write in waiting])
        except OSError as exc:  # the old file stays as it was
            self._journal_failed(exc)
            return
        for (job, _), line in zip(waiting, lines, strict=True):
            job.lines = [line]
        self._done.clear()  # what was done is no longer in the file

    def _sync_soon(self) -> None:
        """Flush the journal to the disk now, off the event loop, and then at most once a
        tick (:attr:`group_tick`) while lines come."""
        if self._syncing is None or self._syncing.done():
            self._syncing = asyncio.get_running_loop().create_task(self._sync())

    async def _sync(self) -> None:
        while self._journal is not None and self._journal.dirty:
            try:
                await asyncio.to_thread(sync, self._journal.sync_handle())
            except OSError:
                log.exception("the write journal could not be flushed to the disk")
            await asyncio.sleep(self.group_tick)

    def _not_answering(self, exc: StoreUnavailable) -> None:
        now = time.monotonic()
        if self._failing_since is None:
            self._failing_since = self._logged_at = now
            log.warning(
                "the database is not answering (%s); %d writes wait and are tried again",
                exc,
                len(self._jobs),
            )
        elif now - self._logged_at >= LOG_EVERY:
            self._logged_at = now
            log.warning(
                "the database is still not answering after %.0f s (%s); %d writes wait",
                now - self._failing_since,
                exc,
                len(self._jobs),
            )
        self._tell_kept(self._pending)
        barriers, self._barriers = self._barriers, []
        for barrier in barriers:
            if not barrier.future.done():
                barrier.future.set_exception(StoreUnavailable(str(exc)))
        settling, self._settling = self._settling, {}
        for future in (f for futures in settling.values() for f in futures):
            if not future.done():
                future.set_exception(StoreUnavailable(str(exc)))

    def _tell_kept(self, names: Iterable[str]) -> None:
        new = [name for name in names if name not in self._told]
        if not new:
            return
        self._told.update(new)
        self._say(new, KEPT)

    def _say(self, names: Iterable[str], text: str) -> None:
        """Tell users; a failure to tell never stops the queue."""
        names = list(names)
        if self.tell is None or not names:
            return
        try:
            self.tell(names, text)
        except Exception:
            log.exception("could not tell %s: %s", ", ".join(names), text)


def _what(batch: list[_Job]) -> str:
    return batch[0].what if len(batch) == 1 else f"{batch[0].what} and {len(batch) - 1} more"


def _worker_done(task: asyncio.Task[None]) -> None:
    if not task.cancelled() and task.exception() is not None:
        log.error("the write queue stopped", exc_info=task.exception())
