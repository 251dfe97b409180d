"""Examined games and stored games.

Its modules, each with the commands of one job:

- ``games``: the examined games (:class:`~icswire.server.features.examine.games.ExaminedGame`,
  :class:`~icswire.server.features.examine.games.Examinations`), starting and stopping
  examining, a stored game replayed;
- ``stored``: ``history``, ``stored``, ``smoves``, ``sposition``;
- ``search``: ICC's ``search`` of the stored games;
- ``examining``: ``examine``, ``unexamine``, ``mexamine``, ``forward``, ``backward``,
  ``revert`` and the moves examiners type;
- ``marks``: ``circle``, ``uncircle``, ``arrow``, ``unarrow``, ``boardinfo``;
- ``setup``: ``bsetup``, ``clrsquare``, ``clearboard``, ``tomove``, ``loadfen``;
- ``headers``: ``wname``, ``bname``, ``tag``, ``result``, ``setclock``, ``setwhiteclock``,
  ``setblackclock``;
- ``copying``: ``copygame``, ``loadgame``;
- ``goto``: ``goto`` (ICC: a half-move; FICS: ``goboard``) (``goboard`` is ``features.simuls``'s);
- ``fen``: ``fen``, ``sfen``;
- ``pgn``: ``pgn``, ``spgn``.
"""

from __future__ import annotations

from icswire.server.core.dispatch.hub import Core
from icswire.server.features.examine import (
    copying,
    examining,
    fen,
    goto,
    headers,
    marks,
    pgn,
    search,
    setup,
    stored,
)
from icswire.server.features.examine.examining import move
from icswire.server.features.examine.games import Examinations, session_left
from icswire.server.features.examine.search import forget_search


def install(core: Core) -> None:
    """Examining and stored games on ``core``: the commands, examiners' moves, and the
    examined games among the tables."""
    state = core.state(Examinations)
    core.tables.add_source(state.games, state.by_examiner)
    registry = core.registry
    for module in (stored, search, examining, marks, setup, headers, goto, copying, fen, pgn):
        registry.add_commands(module.COMMANDS)
    registry.moves.append(lambda session, text, batch: move(core, session, text, batch))
    registry.left.append(lambda session: session_left(core, session))
    registry.left.append(lambda session: forget_search(core, session))
