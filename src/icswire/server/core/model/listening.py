"""Who listens for what: the online sessions by enabled DG, by the on/off variables that
decide who hears of arrivals and departures, and who has whom on their notify list.

Telling everybody who cares that somebody arrived must cost what the receivers cost, not
what everybody online costs: a login with 4000 users online visited all 4000 to find the
few with DG_PLAYER_ARRIVED or ``pin`` on. These sets answer that at once.

A session's settings change only through its own commands (``set``, ``iset``, ``set-2``,
``+notify`` ...) and its login, so :meth:`Listening.refresh` runs after each and compares
what it recorded: an identity check for the level 2 set (a new frozenset on each change),
a few values and the notify list's names.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Set
from dataclasses import dataclass
from typing import Literal, TypeVar

from icswire.server.core.model.users import User

#: The variables (``set``) and interface variables (``iset``) kept as sets of sessions.
SWITCHES: tuple[Literal["pin", "availinfo"], ...] = ("pin", "availinfo")
INTERFACE_SWITCHES: tuple[Literal["pin"], ...] = ("pin",)

_NOBODY: frozenset[User] = frozenset()
Key = TypeVar("Key", int, str)


_NO_NAMES: frozenset[str] = frozenset()
#: The switches' values as recorded, one tuple per combination (a few), not one a user.
_COMBINATIONS: dict[tuple[bool, ...], tuple[bool, ...]] = {}


def _shared(values: tuple[bool, ...]) -> tuple[bool, ...]:
    return _COMBINATIONS.setdefault(values, values)


@dataclass(frozen=True, slots=True)
class _Recorded:
    level2: frozenset[int]
    switches: tuple[bool, ...]
    interface_switches: tuple[bool, ...]
    notify: frozenset[str]


class Listening:
    """The indexes; :meth:`refresh` after a session's settings may have changed,
    :meth:`drop` when it leaves."""

    def __init__(self) -> None:
        self._by_dg: defaultdict[int, set[User]] = defaultdict(set)
        self._by_switch: defaultdict[str, set[User]] = defaultdict(set)
        self._by_interface_switch: defaultdict[str, set[User]] = defaultdict(set)
        self._notifying: defaultdict[str, set[User]] = defaultdict(set)
        self._recorded: dict[User, _Recorded] = {}

    def with_dg(self, number: int) -> Set[User]:
        """The sessions with DG ``number`` on."""
        return self._by_dg.get(number, _NOBODY)

    def with_variable(self, name: str) -> Set[User]:
        """The sessions whose variable ``name`` (one of :data:`SWITCHES`) is on."""
        return self._by_switch.get(name, _NOBODY)

    def with_ivariable(self, name: str) -> Set[User]:
        """The sessions whose interface variable ``name`` (:data:`INTERFACE_SWITCHES`) is on."""
        return self._by_interface_switch.get(name, _NOBODY)

    def notifying(self, key: str) -> Set[User]:
        """The sessions that have the user of name key ``key`` on their notify list."""
        return self._notifying.get(key, _NOBODY)

    def refresh(self, session: User) -> None:
        old = self._recorded.get(session)
        level2 = session.level2
        switches = _shared(tuple(bool(session.variables.get(n)) for n in SWITCHES))
        interface = _shared(tuple(bool(session.ivariables.get(n)) for n in INTERFACE_SWITCHES))
        if (
            old is not None
            and old.level2 is level2
            and old.switches == switches
            and old.interface_switches == interface
            and len(old.notify) == len(session.notify)
            and old.notify.issuperset(session.notify)
        ):
            return
        before = old or _Recorded(
            frozenset(), (False,) * len(SWITCHES), (False,) * len(INTERFACE_SWITCHES), frozenset()
        )
        notify = frozenset(session.notify) if session.notify else _NO_NAMES
        now = _Recorded(level2, switches, interface, notify)
        self._recorded[session] = now
        _move(self._by_dg, session, before.level2, now.level2)
        _move(self._by_switch, session, _on(SWITCHES, before.switches), _on(SWITCHES, switches))
        _move(
            self._by_interface_switch,
            session,
            _on(INTERFACE_SWITCHES, before.interface_switches),
            _on(INTERFACE_SWITCHES, interface),
        )
        _move(self._notifying, session, before.notify, now.notify)

    def drop(self, session: User) -> None:
        old = self._recorded.pop(session, None)
        if old is None:
            return
        _move(self._by_dg, session, old.level2, frozenset())
        _move(self._by_switch, session, _on(SWITCHES, old.switches), frozenset())
        _move(
            self._by_interface_switch,
            session,
            _on(INTERFACE_SWITCHES, old.interface_switches),
            frozenset(),
        )
        _move(self._notifying, session, old.notify, frozenset())


def _on(names: tuple[str, ...], values: tuple[bool, ...]) -> frozenset[str]:
    return frozenset(name for name, on in zip(names, values, strict=True) if on)


def _move(
    index: defaultdict[Key, set[User]], session: User, before: Set[Key], after: Set[Key]
) -> None:
    for key in before - after:
        members = index[key]
        members.discard(session)
        if not members:
            del index[key]
    for key in after - before:
        index[key].add(session)
