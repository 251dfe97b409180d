"""The server's list of events (icc-formats.txt, DG_TOURNEY 103): what users can join or
watch, posted by TDs and administrators with ``qaddevent``, removed with
``qremoveevent``, listed by ``events`` and sent as DG_TOURNEY / DG_REMOVE_TOURNEY (104).

An event has an index (its key: a new one of the same index supersedes it), a bitfield
(1: guests may watch or join; 2, 4, 8: no new window for the join, watch, info
commands), a description, the join, watch and info commands (``&`` between commands,
a backslash quoting the character after it: kept as typed, the client reads them), a
confirm text and a group: only its members see the event. This server has no groups of
its own, so a group names one of the server's lists (``td``, ``gm``, ``computer``...,
``admin`` the administrators); administrators see every event.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from icswire.protocol import datagrams as dg
from icswire.protocol.datagrams import DG
from icswire.server.core.render.batch import Batch, Datagram

if TYPE_CHECKING:
    from icswire.server.core.model.users import User
    from icswire.server.core.model.world import World

__all__ = ["EventList", "ListedEvent"]


@dataclass(frozen=True, slots=True)
class ListedEvent:
    """One event of the list (DG_TOURNEY's fields, the group and who posted it)."""

    index: int
    bitfield: int
    description: str
    join: str = ""
    watch: str = ""
    info: str = ""
    confirm: str = ""
    group: str = ""
    added_by: str = ""

    def record(self) -> dg.Tourney:
        """DG_TOURNEY (103): index bitfield description join watch info confirm-text."""
        return dg.Tourney(
            self.index, self.bitfield, self.description, self.join, self.watch, self.info,
            self.confirm,
        )  # fmt: skip

    def seen_by(self, user: User) -> bool:
        """Whether ``user`` sees this event: no group, a member of its group (a server
        list), or an administrator."""
        if not self.group or user.admin:
            return True
        return user.registered and self.group in user.title_lists


#: Who hears of a change of the list made on this node: (index, the event or None when
#: removed). The cluster writes it to its registry, for the other nodes.
Shared = Callable[[int, "ListedEvent | None"], None]


@dataclass
class EventList:
    """The events by index, as this node knows them (the store keeps them; in a cluster,
    the registry's ``events`` bucket tells every node of each change, and each node tells
    its own users)."""

    events: dict[int, ListedEvent] = field(default_factory=dict)
    shared: list[Shared] = field(default_factory=list)

    def put(
        self, event: ListedEvent, world: World, batch: Batch, share: bool = True
    ) -> ListedEvent | None:
        """Add ``event`` (superseding the one of its index, which is returned) and tell
        this node's users with DG_TOURNEY on who see it; those who saw the old one but
        not this get DG_REMOVE_TOURNEY. ``share``: a change made here (not one another
        node made)."""
        old = self.events.get(event.index)
        self.events[event.index] = event
        if old != event:
            for user in _listening(world):
                if event.seen_by(user):
                    batch.add(user, Datagram(event.record()))
                elif old is not None and old.seen_by(user):
                    batch.add(user, Datagram(dg.RemoveTourney(event.index)))
        if share:
            for hook in self.shared:
                hook(event.index, event)
        return old

    def remove(
        self, index: int, world: World, batch: Batch, share: bool = True
    ) -> ListedEvent | None:
        """Remove the event ``index`` (returned; None if there was none) and send
        DG_REMOVE_TOURNEY to this node's users who saw it."""
        old = self.events.pop(index, None)
        if old is None:
            return None
        for user in _listening(world):
            if old.seen_by(user):
                batch.add(user, Datagram(dg.RemoveTourney(index)))
        if share:
            for hook in self.shared:
                hook(index, None)
        return old

    def seen_by(self, user: User) -> list[ListedEvent]:
        """The events ``user`` sees, by index."""
        return [e for _, e in sorted(self.events.items()) if e.seen_by(user)]


def _listening(world: World) -> list[User]:
    """This node's users with DG_TOURNEY (103) on (another node tells its own)."""
    return [u for u in world.listening.with_dg(DG.TOURNEY) if u.remote is None]
