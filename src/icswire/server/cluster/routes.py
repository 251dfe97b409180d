"""Which node of a cluster a line runs on.

A line runs where it is typed, unless what it acts on lives on one other node:

- a move, and a command about the game one plays (``IN_GAME``), go to the game's node;
- ``observe``, ``unobserve``, ``allobservers``, ``moves`` and ``refresh`` of a game
  (by number, or by a player's name) go to that game's node, and ``kibitz``/``whisper``
  of an observer to the node of the game observed;
- ``match NAME`` and ``resume NAME`` go to NAME's node: the offer lives with the one who
  answers it (``accept``, ``decline`` are then where they are typed), and so does the game;
- ``play N`` goes to the node of seek N.

Everything else (talking, lists, variables, ``who``, ``finger``, history and examining)
runs where it is typed, on the replicas of the other nodes' users.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from icswire.server.core.dispatch.commands import looks_like_move
from icswire.server.core.dispatch.hub import Command, Core
from icswire.server.core.dispatch.numbers import parse_number
from icswire.server.core.net.session import Session

if TYPE_CHECKING:
    from icswire.server.cluster.node import Cluster

#: Commands about the game one plays: they run where the game is.
IN_GAME = frozenset(
    {
        "draw", "abort", "adjourn", "pause", "unpause", "switch", "resign", "flag",
        "moretime", "takeback", "ptime", "accept", "decline", "withdraw", "pending",
        "flip", "kibitz", "whisper", "refresh", "moves", "allobservers",
    }
)  # fmt: skip
#: Commands naming a game (by number or by a player's name) as their first word.
OF_A_GAME = frozenset({"observe", "unobserve", "allobservers", "moves", "refresh"})
#: Commands naming a player whose node holds what they make (an offer, a game).
TO_A_PLAYER = frozenset({"match", "resume"})


def route(core: Core, cluster: Cluster, session: Session, text: str) -> str | None:
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
    name = found.name
    if name in OF_A_GAME and words:
        return _named_game_node(core, cluster, words[0])
    if name in IN_GAME and playing is not None:
        return playing
    if name in ("kibitz", "whisper", "unobserve"):
        nodes = {_game_node(cluster, number) for number in session.observing}
        return nodes.pop() if len(nodes) == 1 else None
    if name in TO_A_PLAYER and words:
        player = core.world.find(words[0])
        return None if player is None or player.remote is None else cluster.node_of(player)
    if name == "play" and words and (index := parse_number(words[0])) is not None:
        node = cluster.seeks.get(index)
        return node if node is not None and node in cluster.alive else None
    return None


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
