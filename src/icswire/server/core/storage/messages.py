"""The messages part of the Store: messages (FICS's ``message``) left for registered users,
kept until they are cleared."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import delete, func, insert, select, update

from icswire.server.core.model.names import name_key
from icswire.server.core.storage.accounts import user_id
from icswire.server.core.storage.database import Database
from icswire.server.core.storage.schema import user_lists, user_messages, users

__all__ = ["MessageTarget", "Messages", "StoredMessage"]


@dataclass(frozen=True, slots=True)
class StoredMessage:
    """One message to a user: ``number`` is its place in the user's list (from 1)."""

    id: int
    number: int
    sender: str
    sent: datetime
    text: str
    unread: bool


@dataclass(frozen=True, slots=True)
class MessageTarget:
    """The registered user a message goes to."""

    name: str
    """As registered."""
    censoring: bool
    """Whether the sender is on the receiver's censor list."""
    kept: int
    """The messages the receiver has now."""


class Messages(Database):
    """Messages to registered users, in the order they were sent."""

    def message_target(self, name: str, sender: str) -> MessageTarget | None:
        """Whom a message to ``name`` goes to; None when ``name`` is not registered."""
        with self._begin() as conn:
            row = conn.execute(
                select(users.c.id, users.c.name).where(users.c.name_key == name_key(name))
            ).one_or_none()
            if row is None:
                return None
            censored = conn.scalar(
                select(user_lists.c.name).where(
                    user_lists.c.user_id == row.id,
                    user_lists.c.list == "censor",
                    user_lists.c.name_key == name_key(sender),
                )
            )
            kept = conn.scalar(
                select(func.count())
                .select_from(user_messages)
                .where(user_messages.c.user_id == row.id)
            )
        return MessageTarget(str(row.name), censored is not None, int(kept or 0))

    def send_message(self, sender: str, receiver: str, text: str, sent: datetime) -> None:
        """Keep a message from ``sender`` to the registered ``receiver`` (unread). The same
        message (sender, receiver, time and text) is kept once: a write made again after
        a crash (:mod:`.jobs`) adds nothing."""
        with self._begin() as conn:
            uid = user_id(conn, receiver)
            same = select(user_messages.c.id).where(
                user_messages.c.user_id == uid,
                user_messages.c.sender_key == name_key(sender),
                user_messages.c.sent == sent,
                user_messages.c.text == text,
            )
            if conn.execute(same.limit(1)).first() is not None:
                return
            conn.execute(
                insert(user_messages).values(
                    user_id=uid,
                    sender=sender,
                    sender_key=name_key(sender),
                    sent=sent,
                    text=text,
                    unread=True,
                )
            )

    def messages(self, name: str) -> list[StoredMessage]:
        """Every message to ``name``, oldest first, numbered from 1 (none when ``name`` is
        not registered)."""
        with self._begin() as conn:
            rows = conn.execute(
                select(user_messages)
                .join(users, users.c.id == user_messages.c.user_id)
                .where(users.c.name_key == name_key(name))
                .order_by(user_messages.c.id)
            ).all()
        return [
            StoredMessage(
                int(row.id), number, str(row.sender), row.sent, str(row.text), bool(row.unread)
            )
            for number, row in enumerate(rows, start=1)
        ]

    def messages_sent(self, sender: str, receiver: str) -> list[StoredMessage]:
        """The messages ``sender`` left ``receiver`` that are still kept, numbered as in the
        receiver's list."""
        return [m for m in self.messages(receiver) if name_key(m.sender) == name_key(sender)]

    def mark_messages_read(self, name: str, ids: Sequence[int]) -> None:
        """The messages ``ids`` of ``name`` have been read."""
        with self._begin() as conn:
            uid = user_id(conn, name)
            conn.execute(
                update(user_messages)
                .where(user_messages.c.user_id == uid, user_messages.c.id.in_(list(ids)))
                .values(unread=False)
            )

    def clear_messages(self, name: str, ids: Sequence[int]) -> None:
        """Delete the messages ``ids`` of ``name``."""
        with self._begin() as conn:
            uid = user_id(conn, name)
            conn.execute(
                delete(user_messages).where(
                    user_messages.c.user_id == uid, user_messages.c.id.in_(list(ids))
                )
            )
