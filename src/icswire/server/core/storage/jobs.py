"""The writes the write queue takes, as data: what the journal keeps and reads back.

A :class:`Write` is a kind and a list of JSON values; :func:`perform` makes it the store call
it stands for. Nothing else is ever done with what the journal (:mod:`.writelog`) reads
back: a kind that is not one of these, or arguments of the wrong shape, is an error, never
code to run. Every kind is idempotent, because a write the database took just before a
crash may be written again from the journal:

- ``progress``: a game's moves and clocks so far, a snapshot (only a game still in
  progress takes it: a replayed older snapshot never undoes an end).
- ``finish``: a game's end, its final moves and both ratings (a game that has ended is
  left as it is and not rated again).
- ``seat``: who plays which colour (``switch``).
- ``message``: a message; the same sender, receiver, time and text is kept once.
- ``logout``: when a player left.
- ``logon``: a login or logout for ``logons`` and ``llogons``; the same name, kind
  and time is kept once.
- the account writes (:data:`ACCOUNT_WRITES`): a setting, an alias, a channel, a list's
  name, a journal slot, messages read or cleared (by id), each the store method of that
  name called with the user's name first; each sets what it says, so twice is once.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Callable, Hashable, Sequence
from datetime import datetime
from typing import Any

from icswire.server.core.storage.games import Progress
from icswire.server.core.storage.records import GameRecord
from icswire.server.core.storage.store import Store

__all__ = [
    "ACCOUNT_WRITES",
    "BadWrite",
    "Write",
    "finish",
    "known",
    "logon",
    "logout",
    "message",
    "perform",
    "perform_progress",
    "progress",
    "seat",
]

log = logging.getLogger("icswire.server")

ACCOUNT_WRITES = frozenset(
    {
        "save_setting",
        "save_alias",
        "add_channel",
        "remove_channel",
        "add_notify",
        "remove_notify",
        "add_to_list",
        "remove_from_list",
        "journal_save",
        "journal_kill",
        "journal_annotate",
        "mark_messages_read",
        "clear_messages",
    }
)
"""The store methods ``method(name, *args)`` a user's change of his account is saved with."""

_GAME_RECORD_FIELDS = tuple(field.name for field in dataclasses.fields(GameRecord))


class BadWrite(ValueError):
    """Not a write this server makes (a journal's line of another kind or shape)."""


@dataclasses.dataclass(frozen=True, eq=False, slots=True)
class Write:
    """One write: its kind and its arguments, plain JSON values."""

    kind: str
    args: list[Any]

    @property
    def key(self) -> Hashable | None:
        """The row it snapshots: a game's progress and end replace each other's waiting
        write (:class:`~icswire.server.core.storage.writes.WriteQueue`)."""
        if self.kind in ("progress", "finish") and self.args:
            return ("game", self.args[0])
        return None

    @property
    def account(self) -> bool:
        """Whether it changes what a login loads of the account of ``args[0]``."""
        return self.kind in ACCOUNT_WRITES or self.kind == "message"

    def __str__(self) -> str:
        shown = ", ".join(repr(arg) for arg in self.args[:4])
        return f"{self.kind}({shown}{', ...' if len(self.args) > 4 else ''})"


def account(method: str, name: str, *args: Any) -> Write:
    """A user's change of his account: the store's ``method(name, *args)``."""
    if method not in ACCOUNT_WRITES:
        raise BadWrite(f"not an account write: {method}")
    return Write(method, [name, *args])


def progress(save: Progress) -> Write:
    return Write("progress", list(save))


def finish(
    game_id: int,
    status: int,
    mode: int,
    color: int | None,
    score: str,
    eco: str,
    white_clock: int,
    black_clock: int,
    final: GameRecord | None,
    rate: bool,
) -> Write:
    """:meth:`Store.finish_game <icswire.server.core.storage.games.Games.finish_game>`."""
    record = None if final is None else _record_json(final)
    args = [game_id, status, mode, color, score, eco, white_clock, black_clock, record, rate]
    return Write("finish", args)


def seat(game_id: int, white: str, black: str, white_rating: int, black_rating: int) -> Write:
    return Write("seat", [game_id, white, black, white_rating, black_rating])


def message(sender: str, receiver: str, text: str, sent: datetime) -> Write:
    return Write("message", [sender, receiver, text, sent.isoformat()])


def logout(name: str, when: datetime) -> Write:
    return Write("logout", [name, when.isoformat()])


def logon(name: str, registered: bool, login: bool, when: datetime, host: str) -> Write:
    return Write("logon", [name, registered, login, when.isoformat(), host])


def known(write: Write) -> bool:
    """Whether ``write`` is of a kind this server makes."""
    return write.kind in ACCOUNT_WRITES or write.kind in _KINDS


def perform(store: Store, write: Write) -> Any:
    """Make ``write`` in ``store`` (in the write queue's thread); what the store returns.
    :class:`BadWrite` for a kind or arguments this server does not write."""
    if write.kind in ACCOUNT_WRITES:
        if not write.args or not isinstance(write.args[0], str):
            raise BadWrite(f"{write}: no user name")
        return getattr(store, write.kind)(*write.args)
    run = _KINDS.get(write.kind)
    if run is None:
        raise BadWrite(f"not a kind of write: {write.kind!r}")
    try:
        return run(store, *write.args)
    except (TypeError, KeyError, AttributeError) as exc:
        raise BadWrite(f"{write}: {exc}") from exc


def perform_progress(store: Store, writes: Sequence[Write]) -> None:
    """Several games' ``progress`` writes in one transaction."""
    saves = []
    for write in writes:
        if write.kind != "progress" or len(write.args) != len(Progress._fields):
            raise BadWrite(f"not a game's progress: {write}")
        saves.append(Progress(*write.args))
    missing = store.save_progress_many(saves)
    if missing:
        log.error("the progress of games %s was not saved: they are not stored", missing)


def _finish(
    store: Store,
    game_id: int,
    status: int,
    mode: int,
    color: int | None,
    score: str,
    eco: str,
    white_clock: int,
    black_clock: int,
    final: dict[str, Any] | None,
    rate: bool,
) -> Any:
    record = None if final is None else _record_from(final)
    return store.finish_game(
        game_id, status, mode, color, score, eco, white_clock, black_clock,
        final=record, rate=rate,
    )  # fmt: skip


def _record_json(record: GameRecord) -> dict[str, Any]:
    values = {name: getattr(record, name) for name in _GAME_RECORD_FIELDS}
    for name in ("moves", "clocks", "times"):
        values[name] = list(values[name])
    for name in ("started", "ended"):
        if values[name] is not None:
            values[name] = values[name].isoformat()
    return values


def _record_from(values: dict[str, Any]) -> GameRecord:
    if isinstance(values, dict) and "event" not in values:  # journaled before the field
        values = {**values, "event": ""}
    if not isinstance(values, dict) or set(values) != set(_GAME_RECORD_FIELDS):
        raise BadWrite("not a game record")
    values = dict(values)
    for name in ("moves", "clocks", "times"):
        values[name] = tuple(values[name])
    for name in ("started", "ended"):
        if values[name] is not None:
            values[name] = datetime.fromisoformat(values[name])
    return GameRecord(**values)


_KINDS: dict[str, Callable[..., Any]] = {
    "progress": lambda store, *args: perform_progress(store, [Write("progress", list(args))]),
    "finish": _finish,
    "seat": lambda store, *args: store.seat_players(*args),
    "message": lambda store, sender, receiver, text, sent: store.send_message(
        sender, receiver, text, datetime.fromisoformat(sent)
    ),
    "logon": lambda store, name, registered, login, when, host: store.save_logon(
        name, registered, login, datetime.fromisoformat(when), host
    ),
    "logout": lambda store, name, when: store.save_logout(name, datetime.fromisoformat(when)),
}
