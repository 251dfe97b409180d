"""The logons part of the Store: each login and logout, as FICS's ``logons`` files keep
them (lasker-2.2.3's ``player_write_login``): a registered user's own record holds his
last :data:`PLAYER_KEPT`, the server's record everybody's last :data:`SERVER_KEPT`
(guests' too). One table holds both: a row stays while either record still holds it.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import BindParameter, and_, bindparam, delete, insert, not_, or_, select

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


_KEY: BindParameter[str] = bindparam("key")
#: The statements of a save, built once (issue 27: building them anew, and their cache
#: keys, cost a login more than running them): the same one already kept, the row, and
#: the rows neither record holds any longer, among this name's and guests' (only those
#: can have left both records now).
_SAME = (
    select(logons.c.id)
    .where(
        logons.c.name_key == _KEY,
        logons.c.login == bindparam("login"),
        logons.c.at == bindparam("at"),
    )
    .limit(1)
)
_INSERT = insert(logons)
_SERVER_KEPT = select(logons.c.id).order_by(logons.c.id.desc()).limit(SERVER_KEPT)
_OWN_KEPT = (
    select(logons.c.id)
    .where(logons.c.name_key == _KEY, logons.c.registered)
    .order_by(logons.c.id.desc())
    .limit(PLAYER_KEPT)
)
_FORGET = delete(logons).where(
    or_(logons.c.name_key == _KEY, not_(logons.c.registered)),
    not_(
        or_(
            logons.c.id.in_(select(_SERVER_KEPT.subquery().c.id)),
            and_(logons.c.registered, logons.c.id.in_(select(_OWN_KEPT.subquery().c.id))),
        )
    ),
)


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
            if conn.execute(_SAME, {"key": key, "login": login, "at": at}).first() is not None:
                return
            row = dict(name=name, name_key=key, registered=registered, login=login, at=at)
            conn.execute(_INSERT, {**row, "host": host[:64]})
            conn.execute(_FORGET, {"key": key})

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
