"""A user and its connection: a replica is a plain User, with nothing of a connection."""

from __future__ import annotations

import pytest

from icswire.server.core.model.users import User
from icswire.server.core.net.session import Session


class _Node:
    def deliver(self, batch: object, entries: list[object]) -> None:
        raise AssertionError("not sent here")


def test_a_replica_has_no_connection_and_is_never_sent_bytes() -> None:
    replica = User(name="Fred", remote=_Node())
    assert not hasattr(replica, "transport") and not hasattr(replica, "__dict__")
    assert replica.closed is False
    with pytest.raises(AttributeError):
        replica.closed = True  # type: ignore[misc]
    with pytest.raises(RuntimeError, match="another node"):
        replica.send_unit(b"x")


def test_a_session_is_a_user_with_a_connection() -> None:
    session = Session(name="Fred")
    assert isinstance(session, User) and not hasattr(session, "__dict__")
    session.closed = True
    session.send_unit(b"dropped: the connection is closed")
    assert session.prompt_bytes() == User(name="Fred").prompt_bytes() == b"fics% "
