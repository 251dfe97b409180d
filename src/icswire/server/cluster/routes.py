"""Which node of a cluster a line runs on.

A line runs where it is typed, unless what it acts on lives on one other node: a move
goes to the node of the game its issuer plays or examines, and a command where its
declaration says (:class:`~icswire.server.core.dispatch.hub.Route`):

- a command about the game one plays (``IN_GAME``) goes to the game's node;
- ``observe``, ``unobserve``, ``allobservers``, ``moves`` and ``refresh`` of a game
  (by number, or by a player's name, ``OF_A_GAME``) go to that game's node, and
  ``kibitz``/``whisper``/``unobserve`` of an observer to the node of the game observed
  (``OBSERVED_GAME``);
- ``match NAME`` and ``resume NAME`` go to NAME's node (``TO_A_PLAYER``): the offer lives
  with the one who answers it (``accept``, ``decline`` are then where they are typed), and
  so does the game;
- ``play N`` goes to the node of seek N (``TO_A_SEEK``).

Everything else (talking, lists, variables, ``who``, ``finger``, history and examining)
runs where it is typed, on the replicas of the other nodes' users.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from icswire.server.core.dispatch.commands import looks_like_move
from icswire.server.core.dispatch.hub import Command, Core, Route
from icswire.server.core.dispatch.numbers import parse_number
from icswire.server.core.model.users import User

if TYPE_CHECKING:
    from icswire.server.cluster.node import Cluster

#: What a route found: it applies, and the node (None: this one); or it does not apply.
Found = tuple[bool, str | None]
NOT_APPLYING: Found = (False, None)


def route(core: Core, cluster: Cluster, session: User, text: str) -> str | None:
    """The node ``text`` of ``session`` runs on, None for this one."""
    word, _, args = text.partition(" ")
    words = args.split()
    playing = None
    if session.state in ("P", "E") and session.state_game:
        playing = _game_node(cluster, session.state_game)
    if playing is not None and looks_like_move(text):
        return playing
    found = core.registry.find_command(word, admin=session.admin)
    if not isinstance(found, Command):
        return None
    for kind in Route:  # in the order of their declaration
        if kind in found.route:
            applies, node = _resolve(kind, core, cluster, session, words, playing)
            if applies:
                return node
    return None


def _resolve(
    kind: Route,
    core: Core,
    cluster: Cluster,
    session: User,
    words: list[str],
    playing: str | None,
) -> Found:
    """Where route ``kind`` sends a command of ``session`` with arguments ``words``
    (``playing``: the node of the game it plays or examines, if another)."""
    if kind is Route.OF_A_GAME:
        return (True, _named_game_node(core, cluster, words[0])) if words else NOT_APPLYING
    if kind is Route.IN_GAME:
        return (True, playing) if playing is not None else NOT_APPLYING
    if kind is Route.OBSERVED_GAME:
        nodes = {_game_node(cluster, number) for number in session.observing}
        return True, nodes.pop() if len(nodes) == 1 else None
    if kind is Route.TO_A_PLAYER:
        if not words:
            return NOT_APPLYING
        player = core.world.find(words[0])
        if player is None or player.remote is None:
            return True, None
        return True, cluster.node_of(player)
    if kind is Route.TO_A_SEEK:
        if not words or (index := parse_number(words[0])) is None:
            return NOT_APPLYING
        node = cluster.seeks.get(index)
        return True, node if node is not None and node in cluster.alive else None
    return NOT_APPLYING


def _game_node(cluster: Cluster, number: int) -> str | None:
    """The node of game ``number`` if it is another, alive."""
    node = cluster.games.get(number, {}).get("node")
    return node if node is not None and node in cluster.alive else None


def _named_game_node(core: Core, cluster: Cluster, word: str) -> str | None:
    number = parse_number(word)
    if number is None:
        player = core.world.find(word)
        if player is None or player.state not in ("P", "E"):
            return None
        number = player.state_game
    return _game_node(cluster, number)
