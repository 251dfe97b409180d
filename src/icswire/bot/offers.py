"""The offers the opponent makes in one of the bot's games, read from the client's state in
either dialect, and the commands that answer them.

ICC: DG_OFFERS_IN_MY_GAME (:attr:`icswire.client.MyGame.offers`, a record with the draw,
adjourn and abort flags and the takeback half-moves of each side); an offer is accepted by
making it back (``draw``, ``abort``, ``adjourn``, ``takeback N``) and refused with
``decline KIND``. FICS: the ``<pf>`` records of the game's opponent (``t=draw``,
``t=takeback p=2``, ``t=abort``, ``t=adjourn``, also ``pause``, ``unpause``, ``switch``),
accepted and declined by their number (``accept 7``, ``decline 7``).
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from typing import Any

from icswire.client.state import MyGame
from icswire.protocol.ivars import PendingFrom

__all__ = ["Offer", "offers_to_me"]


@dataclass(frozen=True)
class Offer:
    """One standing offer of the opponent: ``kind`` is ``draw``, ``takeback`` (``plies``
    half-moves), ``abort``, ``adjourn`` or another request of the server's."""

    game: int
    kind: str
    plies: int
    key: Hashable
    accept_command: str
    decline_command: str


def offers_to_me(mine: MyGame, dialect: str) -> list[Offer]:
    """The offers the opponent makes now in ``mine`` (a game the bot plays)."""
    if mine.relation not in ("PW", "PB") or mine.offers is None:
        return []
    if dialect == "fics":
        return _fics_offers(mine)
    return _icc_offers(mine, mine.offers)


def _icc_offers(mine: MyGame, record: Any) -> list[Offer]:
    side = "b" if mine.relation == "PW" else "w"  # the opponent's flags
    number, ply = mine.game.number, len(mine.game.moves)
    found = []
    for kind in ("draw", "abort", "adjourn"):
        if getattr(record, f"{side}{kind}"):
            key = ("icc", number, kind, ply)
            found.append(Offer(number, kind, 0, key, kind, f"decline {kind}"))
    plies = int(getattr(record, f"{side}takeback") or 0)
    if plies > 0:
        key = ("icc", number, "takeback", plies, ply)
        found.append(Offer(number, "takeback", plies, key, f"takeback {plies}", "decline takeback"))
    return found


def _fics_offers(mine: MyGame) -> list[Offer]:
    game = mine.game
    opponent = (game.black if mine.relation == "PW" else game.white).lower()
    found = []
    for record in mine.offers:
        if not isinstance(record, PendingFrom) or record.name.lower() != opponent:
            continue
        plies = int(record.params) if record.type == "takeback" and record.params.isdigit() else 0
        n = record.number
        key = ("fics", n, record.type, record.params)
        found.append(Offer(game.number, record.type, plies, key, f"accept {n}", f"decline {n}"))
    return found
