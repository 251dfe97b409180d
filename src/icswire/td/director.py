"""The tournament's rules, apart from the wire: who may join, the next round's pairings
(Swiss, round robin) or the arena's next games, results and forfeits, when it is over.
:class:`~icswire.td.session.TdSession` calls these and says what they decided."""

from __future__ import annotations

import time

from icswire.td.arena import arena_pairs
from icswire.td.model import FORFEITS, Entrant, Pairing, Tournament
from icswire.td.roundrobin import berger_round, rounds_of
from icswire.td.scores import arena_points
from icswire.td.swiss import PairingError, pair_round, records

__all__ = ["join", "new_games", "next_round", "record_result", "round_over", "start", "withdraw"]


def join(t: Tournament, name: str, rating: int = 0) -> str:
    """Add ``name``; the answer to tell them."""
    known = t.entrant(name)
    if known is not None and not known.withdrawn:
        return f"You are already in {t.name}."
    if t.started and t.kind != "arena":
        return f"{t.name} has started; joining is closed."
    if t.finished:
        return f"{t.name} is over."
    if known is not None:
        known.withdrawn = False
    else:
        t.entrants.append(Entrant(name, rating))
    return f"You joined {t.name} ({len(t.active())} players)."


def withdraw(t: Tournament, name: str) -> str:
    """Take ``name`` out of future rounds (a game in progress is played on)."""
    known = t.entrant(name)
    if known is None or known.withdrawn:
        return f"You are not in {t.name}."
    if not t.started:
        t.entrants.remove(known)
    else:
        known.withdrawn = True
    return f"You withdrew from {t.name}."


def start(t: Tournament, now: float | None = None) -> None:
    """Close the entries: a round robin's rounds are its field's; an arena's clock starts."""
    t.started = True
    t.entrants.sort(key=lambda e: -e.rating)  # seeding (stable: then by joining)
    if t.kind == "roundrobin":
        t.rounds = rounds_of(len(t.entrants))
    if t.kind == "arena":
        t.ends_at = (now if now is not None else time.time()) + t.duration * 60


def round_over(t: Tournament) -> bool:
    return not t.playing()


def next_round(t: Tournament) -> list[Pairing]:
    """Pair the next round (Swiss or round robin) and record it; [] when the tournament
    is over (its rounds played, fewer than two players left, or no Swiss pairing left
    that repeats no game: a small field cannot always play every round it was given)."""
    if t.round >= t.rounds or len(t.active()) < 2:
        t.finished = True
        return []
    t.round += 1
    if t.kind == "roundrobin":
        boards, bye = berger_round([e.name for e in t.entrants], t.round)
        withdrawn = {e.name for e in t.entrants if e.withdrawn}
        games = []
        for white, black in boards:
            if white in withdrawn or black in withdrawn:  # the one still here wins
                result = "-+" if white in withdrawn else "+-"
                if white in withdrawn and black in withdrawn:
                    continue
                t.games.append(Pairing(t.round, white, black, result))
            else:
                games.append(Pairing(t.round, white, black))
        if bye is not None and bye not in withdrawn:
            t.byes[t.round] = bye
    else:
        finished = [
            (g.white, g.black, g.points(g.white), g.points(g.black), g.result not in FORFEITS)
            for g in t.games
            if g.result is not None
        ]
        recs = records([(e.name, e.rating) for e in t.active()], finished, list(t.byes.values()))
        try:
            paired = pair_round(list(recs.values()), t.round)
        except PairingError:  # every pairing would repeat a game: the arbiter ends it here
            t.round -= 1
            t.finished = True
            return []
        games = [Pairing(t.round, w, b) for w, b in paired.boards]
        if paired.bye is not None:
            t.byes[t.round] = paired.bye
    t.games.extend(games)
    return games


def new_games(t: Tournament, waiting: list[str], now: float | None = None) -> list[Pairing]:
    """Arena: pair those ``waiting`` while the clock runs."""
    if (now if now is not None else time.time()) >= t.ends_at:
        return []
    points = {k: float(v) for k, v in arena_points(t).items()}
    last_opponent: dict[str, str] = {}
    last_white: dict[str, bool] = {}
    for game in t.games:
        last_opponent[game.white], last_opponent[game.black] = game.black, game.white
        last_white[game.white], last_white[game.black] = True, False
    games = []
    for white, black in arena_pairs(waiting, points, last_opponent, last_white):
        t.round += 1
        berserk = [n for n in (white, black) if (e := t.entrant(n)) is not None and e.berserk]
        games.append(Pairing(t.round, white, black, berserk=berserk))
    t.games.extend(games)
    return games


def record_result(t: Tournament, game: Pairing, result: str, plies: int = 0) -> None:
    game.result = result
    game.plies = plies
    for name in game.berserk:
        entrant = t.entrant(name)
        if entrant is not None:
            entrant.berserk = False
