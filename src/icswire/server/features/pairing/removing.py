"""Seeks and challenges going away: DG_SEEK_REMOVED (with its reason: 1 the seeker left,
2 the seeker is playing, 3 ``unseek``, 4 replaced) and ``<sr>``, DG_MATCH_REMOVED (30) and
``<pr>``; when a game starts (:func:`players_busy`) and when a player leaves
(:func:`player_left`).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from icswire.protocol.datagrams import DG
from icswire.protocol.level1 import CommandNumber as CN
from icswire.server.core.events.pairing import ChallengeRemoved, SeeksRemoved
from icswire.server.core.render.batch import Batch, lines
from icswire.server.core.render.pairing import told_removed
from icswire.server.features.pairing.state import (
    SEEKER_LEFT,
    SEEKER_PLAYING,
    Challenge,
    Pairing,
    Seek,
)

if TYPE_CHECKING:
    from icswire.server.core.dispatch.hub import Core
    from icswire.server.core.model.users import User


def remove_seek(core: Core, state: Pairing, seek: Seek, reason: int, batch: Batch) -> None:
    remove_seeks(core, state, [seek], reason, batch)


def remove_seeks(
    core: Core, state: Pairing, seeks: Iterable[Seek], reason: int, batch: Batch
) -> None:
    """Seeks are gone: DG_SEEK_REMOVED each, and one ``<sr> N...`` line to those with
    ``iset seekinfo`` or ``iset seekremove`` (FICS help ``iv_seekremove``)."""
    gone = [seek for seek in seeks if state.seeks.get(seek.index) is seek]
    if not gone:
        return
    for seek in gone:
        del state.seeks[seek.index]
        core.seek_claims.release(seek.index)
    seeker = gone[0].seeker
    removed = SeeksRemoved(seeker.name, tuple(seek.index for seek in gone), reason)
    for other in core.world.online.values():
        if other is seeker and reason == SEEKER_LEFT:
            continue
        if DG.SEEK_REMOVED in other.level2 or told_removed(other, seeker.name):
            batch.add(other, removed)


def remove_challenge(
    state: Pairing, challenge: Challenge, why: str, batch: Batch, to: Iterable[User] = ()
) -> None:
    """Take a challenge away: DG_MATCH_REMOVED with ``why`` to both (or to ``to``), and
    ``<pr>`` for its offer number."""
    if challenge not in state.challenges:
        return
    state.challenges.remove(challenge)
    state.offers.close(challenge.offer, batch)
    removed = ChallengeRemoved(challenge.challenger.name, challenge.receiver.name, why)
    batch.add_all(list(to) or [challenge.challenger, challenge.receiver], removed)


def players_busy(core: Core, players: Iterable[User], batch: Batch) -> None:
    """A game is starting for ``players``: their seeks go (reason 2) and so do the
    challenges to and from them."""
    state = core.state(Pairing)
    players = list(players)
    for player in players:
        remove_seeks(core, state, state.seeks_of(player), SEEKER_PLAYING, batch)
    for player in players:
        for challenge in state.challenges_of(player):
            other = challenge.other(player)
            if other in players:
                why = f"{player.name} and {other.name} started a game."
            else:
                why = f"{player.name} started another game."
                batch.add(other, lines(f"Challenge {_between(challenge)} removed: {why}"))
            remove_challenge(state, challenge, why, batch)


def _between(challenge: Challenge) -> str:
    return f"from {challenge.challenger.name} to {challenge.receiver.name}"


def player_left(core: Core, session: User) -> None:
    """``session`` is leaving: its seeks (DG_SEEK_REMOVED reason 1) and challenges go.

    It runs while the session is still in the world (before ``world.depart``), also for
    a player who was in a game; not at shutdown.
    """
    if not session.logged_in or core.stopping:
        return
    state = core.state(Pairing)
    state.starting.discard(session)
    if not state.seeks_of(session) and not state.challenges_of(session):
        return
    batch = Batch(CN.SCN_LOGOUT, None, issuer_name=session.name)
    remove_seeks(core, state, state.seeks_of(session), SEEKER_LEFT, batch)
    for challenge in state.challenges_of(session):
        other = challenge.other(session)
        if session is challenge.challenger:
            said = f"{session.name}, who was challenging you, has departed."
        else:
            said = f"{session.name}, whom you were challenging, has departed."
        batch.add(other, lines(said))
        remove_challenge(state, challenge, f"{session.name} left.", batch, to=[other])
    batch.flush()
