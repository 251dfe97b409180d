"""Playing games: moves, clocks, offers, endings, storage and ratings.

``games`` keeps the games being played and is what other features reach as
``core.play``; ``commands`` holds the commands of a game in progress; ``rated`` the rating
changes after a rated game.
"""

from __future__ import annotations

from icswire.server.core.dispatch.hub import Core
from icswire.server.core.model.users import User
from icswire.server.core.render.batch import Batch
from icswire.server.features.play.commands import COMMANDS
from icswire.server.features.play.games import Games


def install(core: Core) -> Games:
    """Play games on ``core``: its commands, its hooks, and ``core.play``."""
    games = Games(core)
    core.keep(games)
    core.provide_play(games)
    core.tables.add_source(games.by_number, games.by_player)
    registry = core.registry
    registry.add_commands(COMMANDS)
    registry.moves.append(games.take_move)
    registry.left.append(games.session_left)
    registry.dg_on.append(games.send_lists)

    def arrived(session: User, batch: Batch) -> None:
        """FICS's login (lasker's ``process_login``): a registered player who is open is
        announced as available for matches to those with ``availinfo`` on."""
        if session.registered and session.variables["open"]:
            core.world.availability_changed(session, True, batch, games.by_player.keys())

    registry.arrived.append(arrived)
    return games
