"""The accounts part of the Store: registering, passwords (argon2id hashes), everything a
session saves (settings, channels, notify and personal lists, aliases) and when a user
last disconnected.

Passwords are kept as argon2id hashes (argon2-cffi's defaults, a memory-hard hash), never
as the password; a hash made with older parameters is replaced on the next good login.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import Connection, Table, bindparam, delete, insert, select, update
from sqlalchemy.exc import IntegrityError

from icswire.server.core.model.names import name_error, name_key, name_skeleton
from icswire.server.core.storage.database import Database
from icswire.server.core.storage.schema import (
    PERSONAL_LISTS,
    admins,
    server_lists,
    user_aliases,
    user_channels,
    user_lists,
    user_notify,
    user_presence,
    user_settings,
    users,
)

__all__ = ["Account", "Accounts", "LooksLike", "UnknownUser", "UserExists", "user_id"]


#: The user of a name (every login asks): built once, not at each login.
_USER = select(users.c.id, users.c.name).where(users.c.name_key == bindparam("key"))


class UnknownUser(LookupError):
    """No account has this name."""

    def __init__(self, name: str) -> None:
        super().__init__(f"no such user: {name}")
        self.name = name


class LooksLike(ValueError):
    """A new name would pass for an account's (:func:`~.names.name_skeleton`)."""

    def __init__(self, name: str, existing: str) -> None:
        super().__init__(f"{name} looks too much like {existing}")
        self.name = name
        self.existing = existing


class UserExists(ValueError):
    """An account with this name, in any case, already exists."""

    def __init__(self, name: str) -> None:
        super().__init__(f"{name} is already registered")
        self.name = name


@dataclass(frozen=True, slots=True)
class Account:
    """What a registered user brings to a session: saved settings and lists."""

    uid: int
    """The permanent user id (DG_UID, 131)."""
    name: str
    """As registered, case kept."""
    settings: dict[str, str]
    channels: tuple[int, ...]
    """Sorted."""
    notify: tuple[str, ...]
    """Sorted case-insensitively."""
    aliases: dict[str, str]
    admin: bool = False
    """Whether the account has the administrator flag."""
    lists: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """The :data:`PERSONAL_LISTS` that are not empty, each sorted case-insensitively."""
    server_lists: tuple[str, ...] = ()
    """The server's lists the account is on (:data:`~.schema.SERVER_LISTS`), sorted."""


def user_id(conn: Connection, name: str) -> int:
    """The id of the account ``name``; :class:`UnknownUser` when there is none."""
    uid = conn.scalar(select(users.c.id).where(users.c.name_key == name_key(name)))
    if uid is None:
        raise UnknownUser(name)
    return int(uid)


class Accounts(Database):
    """Registered users and what their sessions save."""

    _hasher = PasswordHasher()  # holds only its parameters: one serves every thread

    def _hash(self, password: str) -> str:
        if not password:
            raise ValueError("the password must not be empty")
        return self._hasher.hash(password)

    def add_user(self, name: str, password: str) -> None:
        """Register ``name``; ValueError if the name is invalid or no password,
        :class:`UserExists` if it is taken, :class:`LooksLike` if it would pass for an
        account's (its :func:`~.names.name_skeleton` is another's: ``Bi1l`` for ``Bill``)."""
        reason = name_error(name)
        if reason is not None:
            raise ValueError(f"invalid name {name!r}: {reason}")
        password_hash = self._hash(password)
        skeleton = name_skeleton(name)
        try:
            with self._begin() as conn:
                existing = conn.scalar(
                    select(users.c.name).where(users.c.name_key == name_key(name))
                )
                if existing is not None:
                    raise UserExists(str(existing))
                alike = conn.scalar(select(users.c.name).where(users.c.skeleton == skeleton))
                if alike is not None:
                    raise LooksLike(name, str(alike))
                conn.execute(
                    insert(users).values(
                        name_key=name_key(name),
                        name=name,
                        password_hash=password_hash,
                        created=datetime.now(UTC),
                        skeleton=skeleton,
                    )
                )
        except IntegrityError:  # registered by someone else in the meantime
            raise UserExists(name) from None

    def registered_name(self, name: str) -> str | None:
        """The account ``name`` names, as registered (its case), or None."""
        with self._begin() as conn:
            found = conn.scalar(select(users.c.name).where(users.c.name_key == name_key(name)))
        return None if found is None else str(found)

    def set_password(self, name: str, password: str) -> None:
        """Replace the password of ``name``."""
        password_hash = self._hash(password)
        with self._begin() as conn:
            result = conn.execute(
                update(users)
                .where(users.c.name_key == name_key(name))
                .values(password_hash=password_hash)
            )
            if result.rowcount == 0:
                raise UnknownUser(name)

    def remove_user(self, name: str) -> None:
        """Delete the account of ``name`` and everything saved for it."""
        with self._begin() as conn:
            result = conn.execute(delete(users).where(users.c.name_key == name_key(name)))
            if result.rowcount == 0:
                raise UnknownUser(name)

    def list_users(self) -> list[str]:
        """Every registered name, case kept, sorted case-insensitively."""
        with self._begin() as conn:
            names = [str(name) for name in conn.scalars(select(users.c.name))]
        return sorted(names, key=name_key)

    def check_password(self, name: str, password: str) -> bool:
        """Whether ``password`` is the password of ``name``; False for an unknown name."""
        with self._begin() as conn:
            row = conn.execute(
                select(users.c.id, users.c.password_hash).where(users.c.name_key == name_key(name))
            ).one_or_none()
        if row is None or not password:
            return False
        stored = str(row.password_hash)
        try:
            self._hasher.verify(stored, password)
        except (VerificationError, InvalidHashError):
            return False
        if self._hasher.check_needs_rehash(stored):
            with self._begin() as conn:  # unless the password was changed meanwhile
                conn.execute(
                    update(users)
                    .where(users.c.id == row.id, users.c.password_hash == stored)
                    .values(password_hash=self._hasher.hash(password))
                )
        return True

    def load(self, name: str) -> Account | None:
        """Everything saved for ``name``, or None when it is not registered."""
        with self._begin() as conn:
            row = conn.execute(_USER, {"key": name_key(name)}).one_or_none()
            if row is None:
                return None
            uid = row.id
            settings = conn.execute(
                select(user_settings.c.key, user_settings.c.value).where(
                    user_settings.c.user_id == uid
                )
            )
            channels = conn.scalars(
                select(user_channels.c.channel)
                .where(user_channels.c.user_id == uid)
                .order_by(user_channels.c.channel)
            )
            notify = conn.execute(
                select(user_notify.c.name, user_notify.c.name_key).where(
                    user_notify.c.user_id == uid
                )
            )
            aliases = conn.execute(
                select(user_aliases.c.alias, user_aliases.c.expansion).where(
                    user_aliases.c.user_id == uid
                )
            )
            admin = conn.scalar(select(admins.c.user_id).where(admins.c.user_id == uid))
            on_lists = conn.scalars(
                select(server_lists.c.list).where(server_lists.c.user_id == uid)
            )
            listed: dict[str, list[tuple[str, str]]] = {}
            for which, member, key in conn.execute(
                select(user_lists.c.list, user_lists.c.name, user_lists.c.name_key).where(
                    user_lists.c.user_id == uid
                )
            ):
                listed.setdefault(str(which), []).append((str(key), str(member)))
            return Account(
                uid=int(uid),
                name=str(row.name),
                settings={str(k): str(v) for k, v in settings},
                channels=tuple(int(c) for c in channels),
                notify=tuple(str(n) for n, _ in sorted(notify, key=lambda r: str(r.name_key))),
                aliases={str(a): str(e) for a, e in aliases},
                admin=admin is not None,
                lists={k: tuple(m for _, m in sorted(v)) for k, v in sorted(listed.items())},
                server_lists=tuple(sorted(str(which) for which in on_lists)),
            )

    def _save_pair(
        self, table: Table, columns: tuple[str, str], name: str, key: str, value: str | None
    ) -> None:
        """Set (or with None delete) one keyed text value of ``name`` in ``table``."""
        key_column, value_column = columns
        with self._begin() as conn:
            uid = user_id(conn, name)
            where = (table.c.user_id == uid, table.c[key_column] == key)
            if value is None:
                conn.execute(delete(table).where(*where))
                return
            result = conn.execute(update(table).where(*where).values({value_column: value}))
            if result.rowcount == 0:
                conn.execute(
                    insert(table).values(user_id=uid, **{key_column: key, value_column: value})
                )

    def save_setting(self, name: str, key: str, value: str | None) -> None:
        """Save the variable ``key`` of ``name`` (``set``); None forgets it."""
        self._save_pair(user_settings, ("key", "value"), name, key, value)

    def save_alias(self, name: str, alias: str, expansion: str | None) -> None:
        """Save the alias ``alias`` of ``name``; None removes it."""
        self._save_pair(user_aliases, ("alias", "expansion"), name, alias, expansion)

    def add_channel(self, name: str, channel: int) -> bool:
        """Put ``name`` in ``channel``; False when it already was."""
        with self._begin() as conn:
            uid = user_id(conn, name)
            found = conn.scalar(
                select(user_channels.c.channel).where(
                    user_channels.c.user_id == uid, user_channels.c.channel == channel
                )
            )
            if found is not None:
                return False
            conn.execute(insert(user_channels).values(user_id=uid, channel=channel))
            return True

    def remove_channel(self, name: str, channel: int) -> bool:
        """Take ``name`` out of ``channel``; False when it was not in it."""
        with self._begin() as conn:
            uid = user_id(conn, name)
            result = conn.execute(
                delete(user_channels).where(
                    user_channels.c.user_id == uid, user_channels.c.channel == channel
                )
            )
            return result.rowcount > 0

    def add_notify(self, name: str, other: str) -> bool:
        """Put ``other`` on the notify list of ``name``; False when it already was there.

        ValueError if ``other`` is not a valid name.
        """
        reason = name_error(other)
        if reason is not None:
            raise ValueError(f"invalid name {other!r}: {reason}")
        with self._begin() as conn:
            uid = user_id(conn, name)
            found = conn.scalar(
                select(user_notify.c.name).where(
                    user_notify.c.user_id == uid, user_notify.c.name_key == name_key(other)
                )
            )
            if found is not None:
                return False
            conn.execute(
                insert(user_notify).values(user_id=uid, name=other, name_key=name_key(other))
            )
            return True

    def remove_notify(self, name: str, other: str) -> bool:
        """Take ``other`` (any case) off the notify list of ``name``; False if not there."""
        with self._begin() as conn:
            uid = user_id(conn, name)
            result = conn.execute(
                delete(user_notify).where(
                    user_notify.c.user_id == uid, user_notify.c.name_key == name_key(other)
                )
            )
            return result.rowcount > 0

    def add_to_list(self, name: str, which: str, other: str) -> bool:
        """Put ``other`` on the personal list ``which`` (:data:`PERSONAL_LISTS`) of
        ``name``; False when it already was there. ValueError for another list or an
        invalid name."""
        _check_list(which)
        reason = name_error(other)
        if reason is not None:
            raise ValueError(f"invalid name {other!r}: {reason}")
        with self._begin() as conn:
            uid = user_id(conn, name)
            where = (
                user_lists.c.user_id == uid,
                user_lists.c.list == which,
                user_lists.c.name_key == name_key(other),
            )
            if conn.scalar(select(user_lists.c.name).where(*where)) is not None:
                return False
            conn.execute(
                insert(user_lists).values(
                    user_id=uid, list=which, name=other, name_key=name_key(other)
                )
            )
            return True

    def remove_from_list(self, name: str, which: str, other: str) -> bool:
        """Take ``other`` (any case) off the list ``which`` of ``name``; False if not there."""
        _check_list(which)
        with self._begin() as conn:
            uid = user_id(conn, name)
            result = conn.execute(
                delete(user_lists).where(
                    user_lists.c.user_id == uid,
                    user_lists.c.list == which,
                    user_lists.c.name_key == name_key(other),
                )
            )
            return result.rowcount > 0

    def save_logout(self, name: str, when: datetime) -> None:
        """Keep when ``name`` last disconnected (``finger`` of a player not logged in)."""
        with self._begin() as conn:
            uid = user_id(conn, name)
            where = user_presence.c.user_id == uid
            result = conn.execute(update(user_presence).where(where).values(last_logout=when))
            if result.rowcount == 0:
                conn.execute(insert(user_presence).values(user_id=uid, last_logout=when))

    def last_logout(self, name: str) -> datetime | None:
        """When ``name`` last disconnected; None if never (or not registered)."""
        with self._begin() as conn:
            found = conn.scalar(
                select(user_presence.c.last_logout)
                .select_from(user_presence.join(users, users.c.id == user_presence.c.user_id))
                .where(users.c.name_key == name_key(name))
            )
        return found if isinstance(found, datetime) else None


def _check_list(which: str) -> None:
    if which not in PERSONAL_LISTS:
        raise ValueError(f"unknown list {which!r}; one of {PERSONAL_LISTS}")
