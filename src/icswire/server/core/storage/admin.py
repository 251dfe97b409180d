"""The server's own part of the Store: the administrators, the ban list, the news items
(``cnewsi``), the server's lists of users (``td``) and the list of events
(``qaddevent``)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Row, bindparam, delete, func, insert, select, update
from sqlalchemy.exc import IntegrityError

from icswire.server.core.model.names import name_error, name_key
from icswire.server.core.model.tourneys import ListedEvent
from icswire.server.core.storage.accounts import user_id
from icswire.server.core.storage.database import Database
from icswire.server.core.storage.schema import (
    SERVER_LISTS,
    admins,
    bans,
    listed_events,
    news,
    server_lists,
    users,
)

__all__ = ["Admin", "Ban", "NewsItem"]


#: Whether a name is banned (every login asks): built once, not at each login.
_BANNED = select(bans.c.name).where(bans.c.name_key == bindparam("key"))


@dataclass(frozen=True, slots=True)
class Ban:
    """A name on the ban list: who put it there, and when."""

    name: str
    banned_by: str
    created: datetime


@dataclass(frozen=True, slots=True)
class NewsItem:
    """One news item: its number, title, text lines, author and date."""

    id: int
    title: str
    lines: tuple[str, ...]
    author: str
    posted: datetime


class Admin(Database):
    """Administrators, bans, news and the server's lists, set from the shell or by admins."""

    def set_admin(self, name: str, admin: bool) -> bool:
        """Give ``name`` the administrator flag or take it away; False when it already was
        so. UnknownUser for a name that is not registered."""
        with self._begin() as conn:
            uid = user_id(conn, name)
            found = conn.scalar(select(admins.c.user_id).where(admins.c.user_id == uid))
            if (found is not None) == admin:
                return False
            if admin:
                conn.execute(insert(admins).values(user_id=uid))
            else:
                conn.execute(delete(admins).where(admins.c.user_id == uid))
            return True

    def list_admins(self) -> list[str]:
        """The names of the administrators, sorted case-insensitively."""
        with self._begin() as conn:
            names = conn.scalars(
                select(users.c.name).join(admins, admins.c.user_id == users.c.id)
            ).all()
        return sorted((str(name) for name in names), key=name_key)

    def ban(self, name: str, banned_by: str) -> bool:
        """Put ``name`` on the ban list; False when it already was there. ValueError if it
        is not a valid name."""
        reason = name_error(name)
        if reason is not None:
            raise ValueError(f"invalid name {name!r}: {reason}")
        try:
            with self._begin() as conn:
                if conn.scalar(select(bans.c.name).where(bans.c.name_key == name_key(name))):
                    return False
                conn.execute(
                    insert(bans).values(
                        name_key=name_key(name),
                        name=name,
                        banned_by=banned_by,
                        created=datetime.now(UTC),
                    )
                )
        except IntegrityError:  # banned by another admin in the meantime
            return False
        return True

    def unban(self, name: str) -> bool:
        """Take ``name`` off the ban list; False when it was not there."""
        with self._begin() as conn:
            result = conn.execute(delete(bans).where(bans.c.name_key == name_key(name)))
            return result.rowcount > 0

    def is_banned(self, name: str) -> bool:
        """Asked at every login: its statement is built once (:data:`_BANNED`)."""
        with self._begin() as conn:
            found = conn.scalar(_BANNED, {"key": name_key(name)})
        return found is not None

    def list_bans(self) -> list[Ban]:
        """The ban list, sorted by name case-insensitively."""
        with self._begin() as conn:
            rows = conn.execute(select(bans).order_by(bans.c.name_key)).all()
        return [Ban(str(row.name), str(row.banned_by), row.created) for row in rows]

    def add_news(self, title: str, author: str) -> int:
        """Post a news item with ``title`` (and no text yet); its number."""
        if not title.strip():
            raise ValueError("a news item needs a title")
        with self._begin() as conn:
            number = conn.scalar(
                insert(news)
                .values(title=title, body="", author=author, posted=datetime.now(UTC))
                .returning(news.c.id)
            )
        if number is None:
            raise RuntimeError("number is None")
        return int(number)

    def news_items(self, limit: int | None = None) -> list[NewsItem]:
        """The last ``limit`` news items (every one with None), newest first."""
        query = select(news).order_by(news.c.id.desc()).limit(limit)
        with self._begin() as conn:
            rows = conn.execute(query).all()
        return [_news_item(row) for row in rows]

    def news_count(self) -> int:
        with self._begin() as conn:
            return int(conn.scalar(select(func.count()).select_from(news)) or 0)

    def news_item(self, number: int) -> NewsItem | None:
        with self._begin() as conn:
            row = conn.execute(select(news).where(news.c.id == number)).one_or_none()
        return None if row is None else _news_item(row)

    def edit_news(
        self, number: int, title: str | None = None, line: str | None = None, clear: bool = False
    ) -> bool:
        """Change news item ``number``: a new ``title``, its text cleared, ``line`` added to
        its text. False when there is no such item."""
        with self._begin() as conn:
            row = conn.execute(
                select(news.c.body).where(news.c.id == number).with_for_update()
            ).one_or_none()
            if row is None:
                return False
            values: dict[str, str] = {}
            if title is not None:
                values["title"] = title
            body = "" if clear else str(row.body)
            if line is not None:
                body = f"{body}\n{line}" if body else line
            if clear or line is not None:
                values["body"] = body
            if values:
                conn.execute(update(news).where(news.c.id == number).values(values))
            return True

    def remove_news(self, number: int) -> bool:
        """Delete news item ``number``; False when there is none."""
        with self._begin() as conn:
            result = conn.execute(delete(news).where(news.c.id == number))
            return result.rowcount > 0

    def set_on_server_list(self, which: str, name: str, on: bool) -> bool:
        """Put the registered ``name`` on the server's list ``which`` (or off it with
        ``on`` False); False when that changed nothing."""
        if which not in SERVER_LISTS:
            raise ValueError(f"unknown list {which!r}; one of {SERVER_LISTS}")
        with self._begin() as conn:
            uid = user_id(conn, name)
            where = (server_lists.c.list == which, server_lists.c.user_id == uid)
            found = conn.scalar(select(server_lists.c.user_id).where(*where)) is not None
            if found == on:
                return False
            if on:
                conn.execute(insert(server_lists).values(list=which, user_id=uid))
            else:
                conn.execute(delete(server_lists).where(*where))
            return True

    def server_list(self, which: str) -> list[str]:
        """The names on the server's list ``which``, sorted case-insensitively."""
        with self._begin() as conn:
            names = conn.scalars(
                select(users.c.name)
                .join(server_lists, server_lists.c.user_id == users.c.id)
                .where(server_lists.c.list == which)
            )
            return sorted((str(n) for n in names), key=name_key)

    def listed_events(self) -> list[ListedEvent]:
        """The list of events, by index."""
        with self._begin() as conn:
            rows = conn.execute(select(listed_events).order_by(listed_events.c.id)).all()
        return [
            ListedEvent(
                int(row.id),
                int(row.bitfield),
                str(row.description),
                str(row.join_commands),
                str(row.watch_commands),
                str(row.info_commands),
                str(row.confirm_text),
                str(row.group_name),
                str(row.added_by),
            )
            for row in rows
        ]

    def put_listed_event(self, event: ListedEvent) -> bool:
        """Keep ``event``, in place of the one of its index if any (True: there was one)."""
        values = {
            "bitfield": event.bitfield,
            "description": event.description,
            "join_commands": event.join,
            "watch_commands": event.watch,
            "info_commands": event.info,
            "confirm_text": event.confirm,
            "group_name": event.group,
            "added_by": event.added_by,
            "added": datetime.now(UTC),
        }
        with self._begin() as conn:
            where = listed_events.c.id == event.index
            if conn.execute(update(listed_events).where(where).values(values)).rowcount:
                return True
            conn.execute(insert(listed_events).values(id=event.index, **values))
            return False

    def remove_listed_event(self, index: int) -> bool:
        """Remove the event ``index``; False when there is none."""
        with self._begin() as conn:
            result = conn.execute(delete(listed_events).where(listed_events.c.id == index))
            return result.rowcount > 0


def _news_item(row: Row[*tuple[Any, ...]]) -> NewsItem:
    body = str(row.body)
    return NewsItem(
        id=int(row.id),
        title=str(row.title),
        lines=tuple(body.split("\n")) if body else (),
        author=str(row.author),
        posted=row.posted,
    )
