"""``connect``: a connection of the dialect asked for, ICC's (:mod:`icswire.client.connection`)
or FICS's (:mod:`icswire.client.fics`), which both keep the same state.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal, overload

from icswire.client.connection import Connection
from icswire.client.fics import FicsConnection
from icswire.client.state import STATE_DATAGRAMS


@overload
def connect(
    host: str,
    port: int = ...,
    user: str = ...,
    password: str | None = ...,
    datagrams: Iterable[int] = ...,
    level1: int = ...,
    reconnect: bool = ...,
    login_settings: bool = ...,
    *,
    dialect: Literal["icc"] = ...,
) -> Connection: ...
@overload
def connect(
    host: str,
    port: int = ...,
    user: str = ...,
    password: str | None = ...,
    *,
    reconnect: bool = ...,
    dialect: Literal["fics"],
    timeseal: bool = ...,
) -> FicsConnection: ...
@overload
def connect(
    host: str,
    port: int = ...,
    user: str = ...,
    password: str | None = ...,
    *,
    reconnect: bool = ...,
    dialect: str,
    timeseal: bool = ...,
) -> Connection: ...
def connect(
    host: str,
    port: int = 5000,
    user: str = "guest",
    password: str | None = None,
    datagrams: Iterable[int] = STATE_DATAGRAMS,
    level1: int = 5,
    reconnect: bool = True,
    login_settings: bool = True,
    *,
    dialect: str = "icc",
    timeseal: bool = False,
) -> Connection:
    """A connection to use with ``async with``: it logs in on entry and quits on exit.

    ``dialect="icc"`` (the default) talks level 1 and level 2: ``login_settings=False``
    sets level 1 and the DGs after login instead of at ``login:`` (for servers that do not
    take them there). ``dialect="fics"`` talks FICS's block mode, style 12 and interface
    variables instead (:class:`~icswire.client.fics.FicsConnection`; ``datagrams``,
    ``level1`` and ``login_settings`` do not apply), sealing its lines with
    ``timeseal=True``. Both keep the same :attr:`Connection.state`.
    """
    if dialect == "fics":
        return FicsConnection(host, port, user, password, reconnect, timeseal)
    if dialect != "icc":
        raise ValueError(f"dialect must be 'icc' or 'fics', not {dialect!r}")
    if timeseal:
        raise ValueError("timeseal is FICS's: use dialect='fics'")
    return Connection(host, port, user, password, datagrams, level1, reconnect, login_settings)


__all__ = ["connect"]
