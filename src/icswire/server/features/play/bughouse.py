"""What bughouse adds to a game (FICS help ``bughouse``; ICC wild 24): the piece a capture
passes to the partner board, told to that board's players and observers, and the result
a board gets when its partner board ends.

A pass reaches a style 12 receiver as FICS's ``<b1> game N white [PN] black [] <- WN``
(the holdings after the pass and the piece received, with the colour of the holding it
joins), and a level 2 receiver as DG_BUGHOUSE_PASS (57: gamenumber, color W or B, piece)
and DG_BUGHOUSE_HOLDINGS (37), so that a client with only the holdings on still knows the
piece before it is dropped.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from icswire.protocol.codes import ResultStatus

if TYPE_CHECKING:
    pass

__all__ = ["partner_result"]


#: A board's (status, mode) -> its partner board's, in DG_GAMELIST_ITEM's codes: the
#: partner's resignation, checkmate, flag, forfeit, agreed draw, both flags, abort for a
#: disconnection or at move 1 (icc-formats.txt, DG_GAMELIST_ITEM's status/mode table).
_PARTNER_MODES: dict[tuple[int, int], int] = {
    (ResultStatus.WIN, 0): 7,
    (ResultStatus.WIN, 1): 8,
    (ResultStatus.WIN, 2): 9,
    (ResultStatus.WIN, 4): 10,
    (ResultStatus.WIN, 5): 10,
    (ResultStatus.WIN, 6): 10,
    (ResultStatus.WIN, 11): 10,
    (ResultStatus.DRAW, 0): 8,
    (ResultStatus.DRAW, 6): 9,
    (ResultStatus.ABORTED, 1): 6,
    (ResultStatus.ABORTED, 11): 6,
    (ResultStatus.ABORTED, 7): 8,
}
#: The code of an end the table has no partner's words for, by status.
_UNKNOWN = {ResultStatus.WIN: 12, ResultStatus.DRAW: 10}


def partner_result(status: int, mode: int) -> tuple[int, int]:
    """The (status, mode) of the partner board of a board that ended with ``status`` and
    ``mode``; the side that loses there is the other colour (partners play opposite
    colours).

    >>> partner_result(0, 1)
    (0, 8)
    """
    found = _PARTNER_MODES.get((status, mode))
    if found is not None:
        return status, found
    return status, _UNKNOWN.get(ResultStatus(status), mode)
