"""A user: who is online, with its settings, lists, state and ratings.

What every node of a cluster knows of a user: a user connected here is a
:class:`~icswire.server.core.net.session.Session` (a user with its connection); one
connected to another node is a plain :class:`User` here, its *replica*, made and kept up to
date from that node's facts (:mod:`icswire.server.cluster.facts`). The core's model and
renderers read users; only the connection sends bytes.
"""

from __future__ import annotations

import math
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Protocol

from icswire.protocol.level1 import Level1
from icswire.server.core.model.names import name_key
from icswire.server.core.model.quotas import Bucket
from icswire.server.core.model.titles import held, marks, title_field
from icswire.server.core.model.variables import (
    IVARIABLES,
    VARIABLES,
    InterfaceVariables,
    SetVariables,
    Value,
)

#: ICC's prompt, where FICS's is ``fics%``.
ICC_PROMPT = "aics%"

_NOBODY: Mapping[str, str] = MappingProxyType({})


class RemoteNode(Protocol):
    """Another node of a cluster, where its users' messages go: ``render.Batch.flush``
    hands it the (receiver, is issuer, messages) of each of them, to resolve and ship."""

    def deliver(self, batch: Any, entries: list[Any]) -> None: ...


@dataclass(eq=False, slots=True)
class User:
    """An online user: identity, settings, lists, state; a replica when :attr:`remote`
    is set."""

    host: str = ""  # the address, which per-address limits count by
    name: str = ""
    registered: bool = False
    #: A registered user with the administrator flag (FICS shows ``(*)`` after the name).
    admin: bool = False
    #: The server lists giving a title that the registered user is on (read at login, kept
    #: by ``addlist``/``sublist``: :data:`~icswire.server.core.model.titles.TITLE_LISTS`).
    title_lists: frozenset[str] = frozenset()
    logged_in: bool = False
    leaving: bool = False  # quit: no prompt after the last unit
    level1: Level1 = Level1.OFF
    level2: frozenset[int] = frozenset()
    #: ``set`` and ``iset`` values, read-only and shared by every user that has the
    #: same (:meth:`VariableTable.shared`): change them with :meth:`set_variable`.
    variables: SetVariables = field(default_factory=lambda: VARIABLES.initial)
    ivariables: InterfaceVariables = field(default_factory=lambda: IVARIABLES.initial)
    aliases: dict[str, str] = field(default_factory=dict)
    more: Sequence[str] = ()  # long text waiting for ``next``
    channels: frozenset[int] = frozenset()
    #: The notify list: name key -> the name as added.
    notify: dict[str, str] = field(default_factory=dict)
    #: The personal lists ``censor``, ``gnotify`` and ``noplay``: name key -> name (a list
    #: nobody was put on is not there: read them with :meth:`listed`).
    lists: dict[str, dict[str, str]] = field(default_factory=dict)
    state: str = "X"  # DG_STATE: P playing, E examining, S simul, X none
    state_game: int = 0
    observing: frozenset[int] = frozenset()  # game numbers
    ratings: dict[str, tuple[int, int]] = field(default_factory=dict)  # type: (rating, note)
    connected_at: float = field(default_factory=time.monotonic)
    last_input: float = field(default_factory=time.monotonic)
    buckets: dict[str, Bucket] = field(default_factory=dict)  # rate limits, by kind
    #: 0 for a plain client, else the timeseal version it speaks (1, or 2 for zseal).
    timeseal: int = 0
    #: In a cluster, the node this user is connected to when it is another: this user is
    #: then its replica here, with no connection; what it is sent goes to that node.
    remote: RemoteNode | None = None
    #: ICC's ``away`` line (set by ``away``; shown to whoever tells this user) while he
    #: has typed nothing since :attr:`away_set` (his :attr:`last_input` then). A replica's
    #: never runs out here: its home clears it, and its facts say so.
    away: str = ""
    away_set: float = math.inf

    # -- identity ------------------------------------------------------------------------

    @property
    def titles(self) -> str:
        """The titles field of datagrams: guests are ``U`` (unregistered), a computer
        ``C``, an administrator grandmaster ``* GM``
        (:func:`~icswire.server.core.model.titles.title_field`)."""
        return title_field(self.registered, held(self.title_lists, self.admin))

    @property
    def is_computer(self) -> bool:
        """Whether this is a computer: a registered user on the server's computer list."""
        return self.registered and "computer" in self.title_lists

    @property
    def is_td(self) -> bool:
        """Whether this may use the TD commands (``rmatch``, ``getpi``, ``qset`` ...): a
        registered user on the server's td list, or an administrator."""
        return self.registered and ("td" in self.title_lists or self.admin)

    @property
    def title_marks(self) -> str:
        """FICS's marks of this user's titles after its name (``(C)``, ``(*)(GM)``), none
        for a guest."""
        return marks(self.titles) if self.registered else ""

    @property
    def display_name(self) -> str:
        """The name as text shows it: ``Name(U)`` for a guest, ``Name(C)`` for a computer,
        ``Name(GM)`` for a grandmaster."""
        if not self.registered:
            return f"{self.name}(U)"
        return self.name + self.title_marks if self.title_lists or self.admin else self.name

    def censors(self, other: User) -> bool:
        """Whether ``other`` is on this user's censor list (FICS ``help censor``: their
        tells, channel tells, shouts, match requests and messages are not shown)."""
        return name_key(other.name) in self.listed("censor")

    def listed(self, which: str) -> Mapping[str, str]:
        """The personal list ``which``: name key -> name."""
        return self.lists.get(which, _NOBODY)

    def away_line(self) -> str:
        """The :attr:`away` line, or ``""`` once this user has typed anything since."""
        if self.away and self.last_input > self.away_set:
            self.away, self.away_set = "", math.inf
        return self.away

    @property
    def talks_icc(self) -> bool:
        """Whether this is an ICC client: it turned level 1 or level 2 on (at login or
        later), which FICS clients never do. It gets ICC's text layouts and prompt where
        the two servers differ (README, "Two faces")."""
        return bool(self.level1 or self.level2)

    def set_variable(self, name: str, value: Value) -> None:
        self.variables = VARIABLES.with_value(self.variables, name, value)

    def set_ivariable(self, name: str, value: int) -> None:
        self.ivariables = IVARIABLES.with_value(self.ivariables, name, value)

    # -- output ------------------------------------------------------------------------

    @property
    def closed(self) -> bool:
        """Whether nothing more is sent to this user (its connection is closing): a
        replica is never closed here, its node says when it leaves."""
        return False

    def send_unit(self, data: bytes) -> None:
        """Send one unit. Only a connection sends: a replica's output goes to its node
        (:meth:`Batch.flush <icswire.server.core.render.batch.Batch.flush>` routes it)."""
        raise RuntimeError(f"{self.name} is connected to another node")

    def prompt_bytes(self) -> bytes:
        """The level 0 prompt. ``set prompt`` takes FICS's text or ICC's switch: ``0`` is
        no prompt at all (what PyChess asks for), ``1`` the default."""
        prompt = self.variables["prompt"]
        if self.leaving or prompt == "0":
            return b""
        if self.ivariables["defprompt"] or prompt == "1":
            prompt = VARIABLES.initial["prompt"]
        if prompt == VARIABLES.initial["prompt"] and self.talks_icc:
            prompt = ICC_PROMPT
        return (prompt + " ").encode("latin-1")

    @property
    def wrap_width(self) -> int:
        """The column FICS wraps this receiver's text at (``set width``); 0 for none:
        ``iset nowrap 1``, and ICC sessions (ICC's clients do their own wrapping)."""
        if self.talks_icc or self.ivariables["nowrap"]:
            return 0
        return self.variables["width"]

    def wrap_key(self, is_issuer: bool) -> Any:
        """What of this receiver's settings the wrapping of a unit depends on. Without
        level 1 that is the prompt and the width, which follow from the variables, the
        ivariables (shared by every session with the same values: their identities stand
        for them), whether this is an ICC client and whether the user is leaving."""
        level1 = self.level1
        if level1 & Level1.UNITS:
            return (level1, is_issuer)
        icc = bool(self.level2)
        return (level1, is_issuer, id(self.variables), id(self.ivariables), icc, self.leaving)
