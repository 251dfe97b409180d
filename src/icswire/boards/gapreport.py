"""Why a game has gaps, in words, for ``icswire pgn``'s summary.

A game has a gap where the moves it was told stop fitting its position: a style 12 board
that the last one's move does not lead to (boards missing), or a datagram's move that is
not legal there. The usual cause of the second is datagrams read in the wrong form: the
receiver had other move parts on (DGs 33-36, 113) than ``--datagrams`` says, so a
DG_SEND_MOVES comes with fields past its form, or too few to be read at all. A
:class:`GapReport` fed the same events as the tracker counts those datagrams per game
(from the game number that is their first field) and says them beside each gap.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Iterable

from icswire.boards.game import Game, Gap
from icswire.protocol.datagrams import DatagramRecord
from icswire.protocol.events import Error, Event

_BAD_DATAGRAM = re.compile(r"bad datagram: (DG_\w+)")


class GapReport:
    """The datagrams of each game (by number; None: no game) that could not be read, and
    those that had fields past their form, by DG name."""

    def __init__(self) -> None:
        self.unread: defaultdict[int | None, Counter[str]] = defaultdict(Counter)
        self.longer: defaultdict[int | None, Counter[str]] = defaultdict(Counter)

    def feed(self, event: Event) -> None:
        if isinstance(event, Error):
            match = _BAD_DATAGRAM.match(event.message)
            if match is not None:
                self.unread[_game_number(event.data)][match.group(1)] += 1
        elif isinstance(event, DatagramRecord) and getattr(event, "extra", None):
            number = getattr(event, "gamenumber", None)
            self.longer[number if isinstance(number, int) else None][event.spec_name] += 1

    def lines(self, games: Iterable[Game]) -> list[str]:
        """One line per game with gaps: which game, where, why."""
        out = []
        for game in games:
            if not game.gaps:
                continue
            why = _gap_words(game, game.gaps[0])
            if len(game.gaps) > 1:
                why += f" ({len(game.gaps) - 1} more after it)"
            dgs = self._dg_words(game.number)
            if dgs:
                why += f"; {dgs} (is --datagrams what the session had on?)"
            out.append(f"game {game.number} ({game.white} vs. {game.black}): {why}")
        return out

    def _dg_words(self, number: int) -> str:
        words = [
            f"{count} {name} could not be read"
            for name, count in sorted(self.unread.get(number, Counter()).items())
        ]
        words += [
            f"{count} {name} had fields past its form"
            for name, count in sorted(self.longer.get(number, Counter()).items())
        ]
        return ", ".join(words)


def _gap_words(game: Game, gap: Gap) -> str:
    where = f"moves missing after ply {gap.after_ply}"
    if game.source == "style12":
        move = f" ({gap.verbose_move})" if gap.verbose_move else ""
        return f"{where}: the next style 12 board{move} does not follow from the last one"
    if not gap.verbose_move:
        return f"{where}: DG_SET_BOARD gave another position"
    return (
        f"{where}: the next move did not fit ({gap.verbose_move}): a DG_SEND_MOVES before"
        " it is missing or could not be read"
    )


def _game_number(data: bytes) -> int | None:
    """The first field of a datagram's bytes (``^Y(24 175 ...``), when it is a number."""
    tokens = data[2:].split(maxsplit=2)
    if len(tokens) >= 2 and tokens[1].isdigit():
        return int(tokens[1])
    return None
