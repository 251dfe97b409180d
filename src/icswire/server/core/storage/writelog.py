"""The write journal: what the write queue holds, in a local file, so a crash loses none of it.

Every write the server queues (:mod:`.writes`) is appended here, as one line of JSON, before
the user hears that it is done: a move before its board goes out, a resignation before its
result line, a note before its confirmation. The line is written to the kernel at once (one
``write`` to a file opened ``O_APPEND``), so a SIGKILL, a crash or an out-of-memory kill of
the server loses nothing; it is flushed to the disk (``fdatasync``) at most one tick later
(:meth:`WriteLog.sync`, run by the queue off the event loop), the same promise SQLite's WAL
with ``synchronous=NORMAL`` makes for the database itself against a power cut.

The file (:data:`JOURNAL_FILE` in the data directory, one per server: a cluster's nodes each
have their own) holds two kinds of lines::

    {"n": 12, "kind": "progress", "args": [...]}   a write (see :mod:`.jobs`)
    {"done": [10, 11, 12]}                          these writes are in the database

A newer snapshot of a row (a game's progress) is a new line; the queue knows which lines
its jobs stand for. When the queue is empty the file is emptied (:meth:`WriteLog.clear`);
while the database does not answer it grows, and is rewritten with only what still waits
when it has grown large (:meth:`WriteLog.compact`).

At start (:meth:`WriteLog.open`) the lines not marked done are read back, in order, for the
queue to write again; they are data for known kinds of writes, never code. A last line cut
short by the crash (a torn write) is skipped; a bad line elsewhere is logged and skipped.
A write that was in the database but not yet marked done is written again: each kind of
write is idempotent (:mod:`.jobs`). A second server on the same file is refused
(:class:`JournalBusy`): the file is locked (``flock``) while a server has it open.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import logging
import os
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = [
    "JOURNAL_FILE",
    "NODE_JOURNALS",
    "JournalBusy",
    "JournalError",
    "Pending",
    "WriteLog",
    "node_journal",
]

log = logging.getLogger("icswire.server")

JOURNAL_FILE = "writes.journal"
"""The journal's name in the data directory (a cluster's node: :func:`node_journal`)."""

#: The journals of a cluster's nodes in a data directory.
NODE_JOURNALS = "writes.*.journal"

#: The journal is rewritten (:meth:`WriteLog.compact`) once it is this large and more than
#: twice what was live at the last rewrite.
COMPACT_AT = 4 << 20


def node_journal(node: str) -> str:
    """The journal's name of the cluster's node ``node`` (its id made a safe file name)."""
    safe = "".join(c if c.isascii() and (c.isalnum() or c in "-_") else "_" for c in node)
    return f"writes.{safe}.journal"


class JournalError(Exception):
    """The journal cannot be opened (a folder that cannot be written, say)."""


class JournalBusy(JournalError):
    """Another server has this journal open."""


@dataclass(frozen=True, slots=True)
class Pending:
    """A write read back from the journal: its line number, kind and arguments."""

    n: int
    kind: str
    args: list[Any]


class WriteLog:
    """An open journal, locked for this process. Use :meth:`open`."""

    def __init__(self, path: Path, fd: int, last: int) -> None:
        self.path = path
        self._fd = fd
        self._last = last  # the last line number used
        self._size = os.fstat(fd).st_size
        self._live_size = 0  # at the last rewrite
        #: Lines written since the last :meth:`sync`.
        self.dirty = False

    @classmethod
    def open(cls, path: Path) -> tuple[WriteLog, list[Pending]]:
        """Open (create) and lock the journal at ``path``; return it with the writes it
        holds that are not done, oldest first. :class:`JournalBusy` if another server
        has it, :class:`JournalError` if it cannot be opened."""
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_APPEND | os.O_CLOEXEC, 0o600)
        except OSError as exc:
            raise JournalError(f"cannot open the write journal {path}: {exc.strerror}") from exc
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            raise JournalBusy(f"another server has the write journal {path} open") from None
        try:
            with open(fd, "rb", closefd=False) as file:
                data = file.read()
            pending, last = _read(data, path)
            if data and not data.endswith(b"\n"):  # a torn last line: what follows starts afresh
                os.ftruncate(fd, data.rfind(b"\n") + 1)
        except BaseException:
            os.close(fd)
            raise
        return cls(path, fd, last), pending

    def append(self, kind: str, args: list[Any]) -> int:
        """Write one write's line (to the kernel: it survives the process); its number."""
        self._last += 1
        line = json.dumps({"n": self._last, "kind": kind, "args": args}, separators=(",", ":"))
        self._write(line)
        return self._last

    def done(self, numbers: Iterable[int]) -> None:
        """Mark the writes of these lines as in the database."""
        numbers = sorted(numbers)
        if numbers:
            self._write(json.dumps({"done": numbers}, separators=(",", ":")))

    def clear(self) -> None:
        """Nothing waits any more: empty the file."""
        if self._size:
            os.ftruncate(self._fd, 0)
            self._size = self._live_size = 0
            self.dirty = True

    def too_large(self) -> bool:
        """Whether the file has grown enough to be worth :meth:`compact`."""
        return self._size >= COMPACT_AT and self._size > 2 * self._live_size

    def compact(self, live: Iterable[tuple[str, list[Any]]]) -> list[int]:
        """Rewrite the file with only ``live`` (what still waits, in the queue's order);
        returns their new line numbers. The new file is complete on the disk before it
        takes the old one's place."""
        lines, numbers = [], []
        for kind, args in live:
            self._last += 1
            numbers.append(self._last)
            lines.append(json.dumps({"n": self._last, "kind": kind, "args": args}) + "\n")
        data = "".join(lines).encode()
        temporary = self.path.with_name(self.path.name + ".new")
        flags = os.O_RDWR | os.O_CREAT | os.O_TRUNC | os.O_APPEND | os.O_CLOEXEC
        fd = os.open(temporary, flags, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)  # a new file: nobody has it
            os.write(fd, data)
            os.fsync(fd)
            os.replace(temporary, self.path)
            _sync_folder(self.path.parent)
        except BaseException:
            os.close(fd)
            temporary.unlink(missing_ok=True)
            self._live_size = self._size  # tried again once it has doubled
            raise
        os.close(self._fd)
        self._fd = fd
        self._size = self._live_size = len(data)
        self.dirty = False
        return numbers

    def sync_handle(self) -> int:
        """A duplicate of the file's descriptor, for :func:`sync` in another thread (it
        closes it): a rewrite meanwhile cannot close it under the sync."""
        self.dirty = False
        return os.dup(self._fd)

    def close(self, remove: bool = False) -> None:
        """Flush to the disk and let go of the file (what waits stays in it); with
        ``remove``, delete it first (it holds nothing that waits)."""
        if remove:
            self.path.unlink(missing_ok=True)
        with contextlib.suppress(OSError):
            os.fdatasync(self._fd)
        os.close(self._fd)

    def sync_now(self) -> None:
        """Flush to the disk now, on this thread."""
        os.fdatasync(self._fd)
        self.dirty = False

    def _write(self, line: str) -> None:
        """Append ``line`` whole, or raise OSError (a full disk) with nothing of it left."""
        data = (line + "\n").encode()
        try:
            written = os.write(self._fd, data)
            while written < len(data):  # a regular file takes it whole, but to be sure
                written += os.write(self._fd, data[written:])
        except OSError:
            with contextlib.suppress(OSError):
                os.ftruncate(self._fd, self._size)  # no torn line for the next to follow
            raise
        self._size += len(data)
        self.dirty = True


def sync(fd: int) -> None:
    """Flush the journal to the disk, through a descriptor from
    :meth:`WriteLog.sync_handle`, and close that."""
    try:
        os.fdatasync(fd)
    finally:
        os.close(fd)


def _sync_folder(folder: Path) -> None:
    fd = os.open(folder, os.O_RDONLY | os.O_CLOEXEC)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _read(data: bytes, path: Path) -> tuple[list[Pending], int]:
    """The writes in ``data`` not marked done, and the last line number used."""
    writes: dict[int, Pending] = {}
    done: set[int] = set()
    last = 0
    lines = data.split(b"\n")
    for index, raw in enumerate(lines):
        if not raw.strip():
            continue
        entry = _entry(raw)
        if entry is None:
            if index == len(lines) - 1:  # no newline after it: cut short by the crash
                log.warning("the write journal %s ends with a torn line; it is skipped", path)
            else:
                log.error(
                    "line %d of the write journal %s is not a write; skipped", index + 1, path
                )
            continue
        if isinstance(entry, Pending):
            writes[entry.n] = entry
            last = max(last, entry.n)
        else:
            done.update(entry)
            last = max(last, *entry) if entry else last
    pending = [writes[n] for n in sorted(writes) if n not in done]
    return pending, last


def _entry(raw: bytes) -> Pending | list[int] | None:
    """A line: a write, the numbers of writes done, or None when it is neither."""
    try:
        value = json.loads(raw)
    except ValueError:  # UnicodeDecodeError and json's errors are ValueErrors
        return None
    if not isinstance(value, dict):
        return None
    if value.keys() == {"done"}:
        numbers = value["done"]
        if isinstance(numbers, list) and all(_number(n) for n in numbers):
            return numbers
        return None
    n, kind, args = value.get("n"), value.get("kind"), value.get("args")
    if value.keys() != {"n", "kind", "args"} or not _number(n):
        return None
    if isinstance(n, int) and isinstance(kind, str) and isinstance(args, list):
        return Pending(n, kind, args)
    return None


def _number(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value > 0
