"""Starting the game of two paired players (bughouse: of four), and the Glicko-2 changes
DG_MATCH's assessment shows.

Colours: as requested; else the player whose last game here was played with Black gets
White (the colour they had less recently), and a coin decides when that does not. A
resumed game keeps its colours.
"""

from __future__ import annotations

import asyncio
import random
from dataclasses import replace
from typing import TYPE_CHECKING

import chess

from icswire.boards.variants import BUGHOUSE
from icswire.protocol.datagrams import DG
from icswire.server.core.model.names import name_key
from icswire.server.core.model.partners import partner_of
from icswire.server.core.model.ratings import assess
from icswire.server.core.model.tables import Table, Terms
from icswire.server.core.render.batch import Batch, lines
from icswire.server.core.render.boards import BLACK, WHITE
from icswire.server.core.storage.records import GameRecord
from icswire.server.core.storage.store import StoreUnavailable
from icswire.server.features.pairing.removing import players_busy
from icswire.server.features.pairing.state import Challenge, Pairing, bughouse_problem, same_player

if TYPE_CHECKING:
    from icswire.server.core.dispatch.hub import Core
    from icswire.server.core.model.users import User


def colors(
    state: Pairing,
    first: User,
    first_wants: bool | None,
    second: User,
    second_wants: bool | None = None,
) -> tuple[User, User]:
    """(white, black): as either player asked, else whoever had White less recently."""
    if first_wants is None and second_wants is not None:
        first_wants = not second_wants
    if first_wants is not None:
        return (first, second) if first_wants == WHITE else (second, first)

    def white_claim(player: User) -> int:  # 1: played Black last, 0: unknown, -1: White
        last = state.last_color.get(name_key(player.name))
        return 0 if last is None else (1 if last == BLACK else -1)

    claims = white_claim(first), white_claim(second)
    # a fair coin, not a secret
    first_white = random.random() < 0.5 if claims[0] == claims[1] else claims[0] > claims[1]  # noqa: S311
    return (first, second) if first_white else (second, first)


async def start_game(
    core: Core,
    batch: Batch,
    white: User,
    black: User,
    terms: Terms,
    resumed: GameRecord | None = None,
) -> Table | None:
    """Clear both players' seeks and challenges, then start the game (None when it could
    not be stored: then it did not start, and the seeks and challenges stay gone)."""
    if same_player(white, black):
        raise ValueError(f"{white.name} cannot play himself")
    state = core.state(Pairing)
    if terms.game_variant is BUGHOUSE:
        return await _start_bughouse(core, batch, white, black, terms)
    players_busy(core, (white, black), batch)
    state.starting |= {white, black}
    start: chess.Board | None = None
    if resumed is not None and resumed.start_fen:
        start = resumed.game_variant.new_board(fen=resumed.start_fen)
    elif resumed is None:
        start = terms.game_variant.new_board(random.Random())  # noqa: S311  (a setup, not a secret)
    try:
        game = await core.play.start(white, black, terms, batch, start=start, resumed=resumed)
    except StoreUnavailable:  # the game could not be stored: it did not start, both were told
        return None
    finally:
        state.starting -= {white, black}
    state.last_color[name_key(white.name)] = WHITE
    state.last_color[name_key(black.name)] = BLACK
    plain = replace(terms, event="", director="")  # a rematch is no longer the event's
    state.last_game[name_key(white.name)] = (black.name, plain)
    state.last_game[name_key(black.name)] = (white.name, plain)
    for player in (white, black):  # left while the game was being made
        if not player.logged_in and core.play.by_player.get(player) is game:
            core.play.player_gone(player, batch)
    return game


async def _start_bughouse(
    core: Core, batch: Batch, white: User, black: User, terms: Terms
) -> Table | None:
    """Start a bughouse game: ``white`` vs. ``black`` on one board, ``black``'s partner
    (White) vs. ``white``'s partner (Black) on the other (lasker's matchproc.c gives the
    partners the other colours); the first board, or None when it did not start."""
    problem = bughouse_problem(core, terms, white, black)
    if problem is not None:  # a partnership ended or a partner began a game meanwhile
        batch.add_all((white, black), lines(f"The bughouse game cannot start: {problem}"))
        return None
    state = core.state(Pairing)
    white_partner, black_partner = partner_of(core, white), partner_of(core, black)
    if white_partner is None:
        raise RuntimeError("white_partner is None")
    if black_partner is None:
        raise RuntimeError("black_partner is None")
    four = (white, black, black_partner, white_partner)
    players_busy(core, four, batch)
    state.starting |= set(four)
    try:
        first, second = await core.play.start_bughouse(
            (white, black), (black_partner, white_partner), terms, batch
        )
    except StoreUnavailable:
        return None
    finally:
        state.starting -= set(four)
    for player, other, color in zip(
        four, (black, white, white_partner, black_partner), (WHITE, BLACK) * 2, strict=True
    ):
        state.last_color[name_key(player.name)] = color
        state.last_game[name_key(player.name)] = (other.name, terms)
    for player, game in zip(four, (first, first, second, second), strict=True):
        if not player.logged_in and core.play.by_player.get(player) is game:
            core.play.player_gone(player, batch)
    return first


async def assess_challenge(core: Core, challenge: Challenge) -> None:
    """Glicko-2 changes (loss, draw, win) for each player, for DG_MATCH's assessment."""
    players = (challenge.challenger, challenge.receiver)
    if not any(DG.MATCH_ASSESSMENT in p.level2 for p in players):
        return
    t = challenge.terms
    if not (t.rated and all(p.registered for p in players)):
        return
    changes = await rating_changes(core, players, t.rating_type)
    challenge.assessment.update(zip(players, changes, strict=True))


async def rating_changes(
    core: Core, players: tuple[User, User], kind: str
) -> list[tuple[int, int, int]]:
    """Each player's Glicko-2 change for a loss, a draw and a win against the other."""
    store = core.store
    records = [await asyncio.to_thread(store.rating, p.name, kind) for p in players]
    found = []
    for index in (0, 1):
        change = assess(records[index].glicko, records[1 - index].glicko)
        found.append((change.loss, change.draw, change.win))
    return found


def resume_colors(record: GameRecord, one: User, two: User) -> tuple[User, User]:
    return (one, two) if name_key(record.white) == name_key(one.name) else (two, one)
