"""Ratings after a rated game (Glicko-2, one rating per rating type) and what is sent.

The store works out and saves the new ratings with the game's result, in one transaction
(:meth:`~icswire.server.core.storage.store.Store.finish_game`). Once that is written, each player
gets the text FICS prints (``Blitz rating adjustment: 1500 --> 1518``), DG_NEW_MY_RATING
(87, every ICC rating type in DG_RATING_TYPE_KEY order: FICS's suicide and atomic, which
ICC lacks, are not there) and DG_MY_RATING (52: bullet, blitz, standard, wild and
bughouse, "sent when turned on, and when rating changes"); those who follow players
(DG_PLAYER_ARRIVED on) get the game's rating DG (DG_BLITZ, 4, ...) if they have it on.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from icswire.protocol.datagrams import DG
from icswire.protocol.level1 import CommandNumber as CN
from icswire.server.core.events.presence import RatingChanged
from icswire.server.core.model.names import name_key
from icswire.server.core.render.batch import Batch, Datagram, lines
from icswire.server.core.render.presence import my_ratings, rating_dg
from icswire.server.core.storage.records import RatingChange, shown_rating

if TYPE_CHECKING:
    from icswire.server.core.dispatch.hub import Core


def announce_ratings(core: Core, game: Any, changes: Sequence[RatingChange]) -> None:
    """A rated game's end was stored with these rating changes (White's first; none for an
    unrated game): each player gets its adjustment, DG_NEW_MY_RATING and DG_MY_RATING,
    those who follow ratings (DG_PLAYER_ARRIVED on) the game's rating DG."""
    if not changes:
        return
    batch = Batch(CN.SCN_AUTOMATIC, None)
    for seated, change in zip((game.white, game.black), changes, strict=True):
        # the write may come long after the game (the database did not answer): the
        # player may have logged in again meanwhile, as another session
        player = core.world.online.get(name_key(seated.name), seated)
        before, after = change.before, change.after
        kind = after.rating_type
        old = round(before.glicko.rating) if before.games else 0
        player.ratings[kind] = shown_rating(after)
        core.world.touch(player)  # a cluster's other nodes learn it
        batch.add(
            player, lines(f"{kind} rating adjustment: {old} --> {round(after.glicko.rating)}")
        )
        for record in my_ratings(core.world.player(player)):
            batch.add(player, Datagram(record))
        if rating_dg(kind) is not None:
            rating, note = player.ratings[kind]
            event = RatingChanged(player.name, kind, rating, note)
            batch.add_all(core.world.listening.with_dg(DG.PLAYER_ARRIVED), event)
    batch.flush()
