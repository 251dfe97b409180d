"""Pairing players: seeks, challenges and the resumption of adjourned games.

Its modules, each with the commands of one job (and the help it follows):

- ``state``: the seeks and challenges of the server (:class:`Pairing`), and who may be
  paired now;
- ``shown``: what players are shown of them (text, ``<s>`` lines, DG_SEEK, DG_MATCH);
- ``terms``: reading the terms of ``seek`` and ``match``;
- ``removing``: seeks and challenges going away (a game starts, a player leaves);
- ``starting``: starting the game of two paired players, the colours, the assessment;
- ``seeks``: ``seek``, ``unseek``, ``sought``, ``play``;
- ``offers``: a challenge as a pending offer, and ``accept``, ``decline``, ``withdraw``,
  ``pending`` for every offer;
- ``challenges``: ``match``, ``rematch``, ``set open 0``;
- ``resume``: ``resume`` and ``match NAME`` of an adjourned game;
- ``tourney``: ``rmatch`` and ``qmatch``, a TD's matches (with an event label);
- ``assess``: ``assess``, the rating changes a game between two players would make;
- ``suggest``: the server's DG_SUGGESTION to resume an adjourned game whose players are
  both online, and its DG_QRETRACT.

Hooks: :func:`~icswire.server.features.pairing.removing.player_left` (a session is going),
:func:`~icswire.server.features.pairing.shown.send_lists` (DG_SEEK / DG_MATCH just turned
on: the sought list, the pending challenges), and the variables (``iset seekinfo 1``,
``iset pendinfo 1``, ``set open 0``).
"""

from __future__ import annotations

from icswire.server.core.dispatch.hub import Core
from icswire.server.core.model.offers import Offers
from icswire.server.core.model.tables import Table
from icswire.server.core.render.batch import Batch
from icswire.server.features.pairing import (
    assess,
    challenges,
    offers,
    resume,
    seeks,
    suggest,
    tourney,
)
from icswire.server.features.pairing.challenges import closed
from icswire.server.features.pairing.removing import player_left, players_busy
from icswire.server.features.pairing.seeks import variable_set
from icswire.server.features.pairing.shown import send_lists
from icswire.server.features.pairing.state import Pairing


def install(core: Core) -> None:
    """Pairing on ``core``: its commands and hooks."""
    core.state(Pairing).offers = core.state(Offers)
    registry = core.registry
    for module in (seeks, challenges, offers, resume, assess, tourney):
        registry.add_commands(module.COMMANDS)
    registry.variable_set.append(
        lambda session, name, value, batch, interface: (
            variable_set(core, session, name, value, batch)
            if interface
            else closed(core, session, batch)
            if (name == "open" and not value) or (name == "tourney" and value)
            else None
        )
    )
    registry.dg_on.append(lambda session, number, batch: send_lists(core, session, number, batch))
    registry.left.append(lambda session: player_left(core, session))
    registry.arrived.append(lambda session, batch: suggest.arrived(core, session, batch))
    registry.left.append(lambda session: suggest.left(core, session))
    registry.game_started.append(lambda table, batch: suggest.game_started(core, table, batch))

    def game_started(table: Table, batch: Batch) -> None:
        """A game another feature started (a simul's board): its players' seeks and
        challenges go, as they go before pairing starts one (none are left then)."""
        if not table.examined:
            players_busy(core, table.seats(), batch)

    registry.game_started.append(game_started)
