"""DG_TOURNEY_GAME_STARTED (137) and DG_TOURNEY_GAME_ENDED (138): the games a TD started
in an event (``rmatch``/``qmatch ... | LABEL``), to whoever has them on.

icc-formats.txt: 137 is "(event-label white black id gamenumber) Notification that a
tournament game has started or resumed. The server assumes it's a tournament game if
event-label is non-empty"; 138 "(event-label white black id score-string2) ... has ended
or been adjourned. scores-string2 is the same as in DG_GAME_RESULT: "0-1", "1-0",
"1/2-1/2", "*", or "aborted"". A private game's are told only to its players and the TD
who started it, as nobody else may know of it. DG_GAME_STARTED's form (12, 15, 18, 40,
100) has no field for the label, so those DGs carry none.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from icswire.protocol import datagrams as dg
from icswire.protocol.codes import ResultStatus
from icswire.protocol.datagrams import DG
from icswire.server.core.model.names import name_key
from icswire.server.core.render.batch import Batch, Datagram

if TYPE_CHECKING:
    from icswire.server.core.model.tables import Terms
    from icswire.server.core.model.users import User
    from icswire.server.core.model.world import World

__all__ = ["tourney_ended", "tourney_started"]


def _told(
    world: World, number: int, private: bool, players: tuple[User, User], terms: Terms
) -> list[User]:
    listening = world.listening.with_dg(number)
    if not private:
        return sorted(listening, key=lambda user: user.name.lower())
    director = world.online.get(name_key(terms.director)) if terms.director else None
    return [user for user in (*players, director) if user is not None and user in listening]


def tourney_started(
    world: World, number: int, game_id: int, players: tuple[User, User], terms: Terms,
    private: bool, batch: Batch,
) -> None:  # fmt: skip
    """DG_TOURNEY_GAME_STARTED of game ``number`` (White, Black in ``players``)."""
    if not terms.event:
        return
    white, black = players
    record = dg.TourneyGameStarted(terms.event, white.name, black.name, game_id, number)
    batch.add_all(_told(world, DG.TOURNEY_GAME_STARTED, private, players, terms), Datagram(record))


def tourney_ended(
    world: World, game_id: int, players: tuple[User, User], terms: Terms, private: bool,
    status: int, score: str, batch: Batch,
) -> None:  # fmt: skip
    """DG_TOURNEY_GAME_ENDED: ``score`` as DG_GAME_RESULT's, "aborted" for an aborted game."""
    if not terms.event:
        return
    white, black = players
    shown = "aborted" if status == ResultStatus.ABORTED else score
    record = dg.TourneyGameEnded(terms.event, white.name, black.name, game_id, shown)
    batch.add_all(_told(world, DG.TOURNEY_GAME_ENDED, private, players, terms), Datagram(record))
