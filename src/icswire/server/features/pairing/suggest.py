"""The server's suggestions to resume adjourned games: DG_SUGGESTION (63) and DG_QRETRACT
(99).

DG_SUGGESTION is "sent by TDs or admins with qsuggest, and sometimes by server to
encourage resumption of adjourned games" (icc-formats.txt): when a registered player
arrives, it and each opponent of one of its adjourned games who is online get, if they
have DG_SUGGESTION on, ``resume OTHER`` with a line of text, priority 0 (show it "only if
the user is not playing"), suggested by ``$server$`` (the name level 1 gives the
server's own output) about ``Adjourned game``, its id ``adjourned-GAMEID``. The
suggestion is taken back with DG_QRETRACT ("retract the DG_SUGGESTION ... with the same
id, if any such suggestion is still pending") once it is moot: the other player left, or
a game between the two started (the resumption itself, or any other).
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from icswire.protocol import datagrams as dg
from icswire.protocol.datagrams import DG
from icswire.protocol.level1 import CommandNumber as CN
from icswire.server.core.model.names import name_key
from icswire.server.core.render.batch import Batch, Datagram
from icswire.server.core.storage.store import StoreUnavailable

if TYPE_CHECKING:
    from icswire.server.core.dispatch.hub import Core
    from icswire.server.core.model.tables import Table
    from icswire.server.core.model.users import User

log = logging.getLogger(__name__)

#: Who DG_SUGGESTION says suggests it: the server (level 1's name for its own output).
SUGGESTER = "$server$"
SUBJECT = "Adjourned game"


@dataclass
class Suggestions:
    """The suggestions standing: each receiver's ids, and the name key of the other
    player each is about."""

    pending: dict[User, dict[str, str]] = field(default_factory=dict)

    def take(self, receiver: User, other: str) -> list[str]:
        """The ids of ``receiver``'s suggestions about ``other`` (a name key), forgotten."""
        mine = self.pending.get(receiver, {})
        ids = [i for i, about in mine.items() if about == other]
        for i in ids:
            del mine[i]
        if not mine:
            self.pending.pop(receiver, None)
        return ids


def arrived(core: Core, session: User, batch: Batch) -> None:
    """A registered player logged in: suggest its adjourned games, when anybody online
    takes suggestions (no look in the database otherwise)."""
    if session.registered and core.world.listening.with_dg(DG.SUGGESTION):
        core.spawn(_suggest(core, session))


async def _suggest(core: Core, session: User) -> None:
    try:
        records = await asyncio.to_thread(core.store.adjourned, session.name)
    except StoreUnavailable as exc:
        log.warning("adjourned games of %s at login: %s", session.name, exc)
        return
    online = core.world.online
    if online.get(name_key(session.name)) is not session:
        return  # gone meanwhile
    state = core.state(Suggestions)
    batch = Batch(CN.SCN_AUTOMATIC, None)
    for record in records:
        mine = name_key(session.name) == name_key(record.white)
        other = online.get(name_key(record.black if mine else record.white))
        if other is None or other is session:
            continue
        ident = f"adjourned-{record.id}"
        for receiver, about, verb in ((session, other, "is"), (other, session, "has arrived")):
            if DG.SUGGESTION not in receiver.level2:
                continue
            text = f"{about.name}, who has an adjourned game with you, {verb} here."
            record_ = dg.Suggestion(f"resume {about.name}", text, 0, SUGGESTER, SUBJECT, ident)
            batch.add(receiver, Datagram(record_))
            state.pending.setdefault(receiver, {})[ident] = name_key(about.name)
    batch.flush()


def _retract(receiver: User, ids: list[str], batch: Batch) -> None:
    for ident in ids:
        batch.add(receiver, Datagram(dg.Retract(ident)))


def left(core: Core, session: User) -> None:
    """``session`` is going: its suggestions are forgotten, and those about it taken back."""
    state = core.state(Suggestions)
    state.pending.pop(session, None)
    gone = name_key(session.name)
    batch = Batch(CN.SCN_AUTOMATIC, None)
    for receiver in list(state.pending):
        _retract(receiver, state.take(receiver, gone), batch)
    batch.flush()


def game_started(core: Core, table: Table, batch: Batch) -> None:
    """A game between two players takes back their suggestions about each other."""
    state = core.state(Suggestions)
    if table.examined or not state.pending:
        return
    seats = table.seats()
    for receiver in seats:
        for other in seats:
            if other is not receiver:
                _retract(receiver, state.take(receiver, name_key(other.name)), batch)
