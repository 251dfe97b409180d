"""Ratings after a rated game (Glicko-2, one rating per rating type) and what is sent.

Each player gets the text FICS prints (``Blitz rating adjustment: 1500 --> 1518``) and
DG_NEW_MY_RATING (87, every rating type in DG_RATING_TYPE_KEY order); those who follow
players (DG_PLAYER_ARRIVED on) get the game's rating DG (DG_BLITZ, 4, ...) if they have it on.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

from icswire.protocol import datagrams as dg
from icswire.protocol.datagrams import DG
from icswire.protocol.level1 import CommandNumber as CN
from icswire.server.core.ratings import RATING_TYPES, update
from icswire.server.core.records import RatingRecord, shown_rating
from icswire.server.core.render import Batch, Datagram, lines
from icswire.server.core.world import RATING_TYPES as RATING_DG_BY_TYPE

if TYPE_CHECKING:
    from icswire.server.core.hub import Core

RATING_DG: dict[str, int] = dict(RATING_DG_BY_TYPE)


async def update_ratings(core: Core, game: Any, score: str) -> None:
    """A rated game ended: Glicko-2 for both players, then DG_NEW_MY_RATING to each
    and the game's rating DG to those who follow ratings (DG_PLAYER_ARRIVED on)."""
    white, black = game.white, game.black
    if not (white.registered and black.registered):
        return
    kind = game.terms.rating_type
    store = core.store
    before = [await asyncio.to_thread(store.rating, p.name, kind) for p in (white, black)]
    white_score = {"1-0": 1.0, "0-1": 0.0}.get(score, 0.5)
    scores = (white_score, 1.0 - white_score)
    batch = Batch(CN.SCN_AUTOMATIC, None)
    for index, player in enumerate((white, black)):
        mine, theirs = before[index], before[1 - index]
        glicko = update(mine.glicko, [(theirs.glicko, scores[index])])
        won, drawn = scores[index] == 1.0, scores[index] == 0.5
        after = RatingRecord(
            player.name,
            kind,
            glicko,
            mine.games + 1,
            mine.wins + won,
            mine.losses + (not won and not drawn),
            mine.draws + drawn,
        )
        await asyncio.to_thread(store.save_rating, after)
        old = round(mine.glicko.rating) if mine.games else 0
        player.ratings[kind] = shown_rating(after)
        batch.add(player, lines(f"{kind} rating adjustment: {old} --> {round(glicko.rating)}"))
        values = tuple(player.ratings.get(k, (0, 0))[0] for k in RATING_TYPES)
        batch.add(player, Datagram(dg.NewMyRating(values)))
        number = RATING_DG.get(kind)
        if number is not None:
            rating, note = player.ratings[kind]
            record = dg.RECORDS[number](player.name, rating, note)  # type: ignore[call-arg]
            for watcher in core.world.online.values():
                if DG.PLAYER_ARRIVED in watcher.level2:
                    batch.add(watcher, Datagram(record))
    batch.flush()
