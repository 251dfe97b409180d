"""Where commands run in a cluster: each declares its route, and those declarations give
every command the node the lists of ``cluster/routes.py`` used to give it."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from icswire.server.app import Server
from icswire.server.core.dispatch.hub import Registry, Route
from icswire.server.core.storage.store import Store, database_url

#: What ``routes.py`` kept as lists before commands declared their routes.
IN_GAME = {
    "draw", "abort", "adjourn", "pause", "unpause", "switch", "resign", "flag",
    "moretime", "takeback", "ptime", "accept", "decline", "withdraw", "pending",
    "flip", "kibitz", "whisper", "refresh", "moves", "allobservers", "pstat",
    "time", "assess", "fen", "pgn", "eco", "gameid", "logpgn", "mailmoves",
}  # fmt: skip
OF_A_GAME = {
    "observe", "unobserve", "allobservers", "moves", "refresh", "time", "assess", "fen", "pgn",
    "eco", "gameid", "logpgn", "mailmoves",
}  # fmt: skip
OBSERVED_GAME = {"kibitz", "whisper", "unobserve"}
TO_A_PLAYER = {"match", "resume"}
TO_A_SEEK = {"play"}


@pytest.fixture(scope="module")
def registry(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Registry]:
    """The registry of a server with every feature installed (never started)."""
    store = Store(database_url(tmp_path_factory.mktemp("routes"), None))
    yield Server(store, "127.0.0.1", 0).core.registry
    store.close()


def test_every_command_runs_where_the_lists_said(registry: Registry) -> None:
    lists = {
        Route.OF_A_GAME: OF_A_GAME,
        Route.IN_GAME: IN_GAME,
        Route.OBSERVED_GAME: OBSERVED_GAME,
        Route.TO_A_PLAYER: TO_A_PLAYER,
        Route.TO_A_SEEK: TO_A_SEEK,
    }
    for name, command in registry.commands.items():
        expected = Route.HERE
        for kind, names in lists.items():
            if name in names:
                expected |= kind
        assert command.route == expected, name
    routed = {name for name, command in registry.commands.items() if command.route}
    assert routed == set().union(*lists.values())


def test_routes_are_tried_in_the_order_routes_py_tried_its_lists() -> None:
    """A game named comes before the game played, and that before the game observed."""
    assert list(Route) == [
        Route.OF_A_GAME,
        Route.IN_GAME,
        Route.OBSERVED_GAME,
        Route.TO_A_PLAYER,
        Route.TO_A_SEEK,
    ]
