"""The logons part of the Store: each login and logout, as FICS's ``logons`` files keep
them (lasker-2.2.3's ``player_write_login``): a registered user's own record holds his
last :data:`PLAYER_KEPT`, the server's record everybody's last :data:`SERVER_KEPT`
(guests' too). One table holds both: a row stays while either record still holds it.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import and_, delete, insert, not_, or_, select

from icswire.server.core.model.names import name_key
from icswire.server.core.storage.database import Database
from icswire.server.core.storage.schema import logons

__all__ = ["PLAYER_KEPT", "SERVER_KEPT", "Logon", "Logons"]

PLAYER_KEPT = 8
"""How many logins and logouts of one registered user ``logons NAME`` shows (FICS's 8)."""

SERVER_KEPT = 30
"""How many of the server's ``llogons`` shows (FICS's 30)."""


@dataclass(frozen=True, slots=True)
class Logon:
    """One login (``login`` True) or logout of ``name`` at ``at``, from ``host``."""

    name: str
    registered: bool
    login: bool
    at: datetime
    host: str


class Logons(Database):
    """Logins and logouts, oldest first."""

    def save_logon(
        self, name: str, registered: bool, login: bool, at: datetime, host: str = ""
    ) -> None:
        """Keep a login or logout, then forget what neither record holds any longer. The
        same one (name, kind and time) is kept once: a write made again after a crash
        (:mod:`.jobs`) adds nothing."""
        key = name_key(name)
        with self._begin() as conn:
            same = select(logons.c.id).where(
                logons.c.name_key == key, logons.c.login == login, logons.c.at == at
            )
            if conn.execute(same.limit(1)).first() is not None:
                return
            values = dict(name=name, name_key=key, registered=registered, login=login)
            conn.execute(insert(logons).values(**values, at=at, host=host[:64]))
            server = select(logons.c.id).order_by(logons.c.id.desc()).limit(SERVER_KEPT)
            own = (
                select(logons.c.id)
                .where(logons.c.name_key == key, logons.c.registered)
                .order_by(logons.c.id.desc())
                .limit(PLAYER_KEPT)
            )
            # only this name's rows and guests' can have left both records now
            concerned = or_(logons.c.name_key == key, not_(logons.c.registered))
            kept = or_(
                logons.c.id.in_(select(server.subquery().c.id)),
                and_(logons.c.registered, logons.c.id.in_(select(own.subquery().c.id))),
            )
            conn.execute(delete(logons).where(concerned, not_(kept)))

    def logons(self, name: str) -> list[Logon]:
        """The last :data:`PLAYER_KEPT` logins and logouts of the registered ``name``,
        oldest first (none for a guest)."""
        query = (
            select(logons)
            .where(logons.c.name_key == name_key(name), logons.c.registered)
            .order_by(logons.c.id.desc())
            .limit(PLAYER_KEPT)
        )
        return self._logons(query)

    def llogons(self) -> list[Logon]:
        """The server's last :data:`SERVER_KEPT` logins and logouts, oldest first."""
        return self._logons(select(logons).order_by(logons.c.id.desc()).limit(SERVER_KEPT))

    def _logons(self, query: object) -> list[Logon]:
        with self._begin() as conn:
            rows = conn.execute(query).all()  # type: ignore[call-overload]
        found = [
            Logon(str(r.name), bool(r.registered), bool(r.login), r.at, str(r.host))
            for r in reversed(rows)
        ]
        # in the order they happened: a cluster's nodes may write theirs a little late
        return sorted(found, key=lambda logon: logon.at)
