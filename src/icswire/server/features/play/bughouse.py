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

from icswire.protocol.codes import AbortMode, DrawMode, ResultStatus, WinMode

if TYPE_CHECKING:
    pass

__all__ = ["partner_result"]


#: A board's (status, mode) -> its partner board's, in DG_GAMELIST_ITEM's codes: the
#: partner's resignation, checkmate, flag, forfeit, agreed draw, both flags, abort for a
#: disconnection or at move 1 (icc-formats.txt, DG_GAMELIST_ITEM's status/mode table).
_PARTNER_MODES: dict[tuple[int, int], int] = {
    (ResultStatus.WIN, WinMode.RESIGNS): WinMode.PARTNER_RESIGNS,
    (ResultStatus.WIN, WinMode.CHECKMATED): WinMode.PARTNER_CHECKMATED,
    (ResultStatus.WIN, WinMode.FORFEITS_ON_TIME): WinMode.PARTNER_FORFEITS_ON_TIME,
    (ResultStatus.WIN, WinMode.DISCONNECTED): WinMode.PARTNER_DISCONNECTED,
    (ResultStatus.WIN, WinMode.GOT_DISCONNECTED): WinMode.PARTNER_DISCONNECTED,
    (ResultStatus.WIN, WinMode.GUEST_DISCONNECTED): WinMode.PARTNER_DISCONNECTED,
    (ResultStatus.WIN, WinMode.DISCONNECTED_OBSOLETE): WinMode.PARTNER_DISCONNECTED,
    (ResultStatus.DRAW, DrawMode.AGREEMENT): DrawMode.PARTNER_AGREEMENT,
    (ResultStatus.DRAW, DrawMode.BOTH_OUT_OF_TIME): DrawMode.PARTNER_BOTH_OUT_OF_TIME,
    (ResultStatus.ABORTED, AbortMode.DISCONNECTED): AbortMode.PARTNER_DISCONNECTED,
    (ResultStatus.ABORTED, AbortMode.GOT_DISCONNECTED): AbortMode.PARTNER_DISCONNECTED,
    (ResultStatus.ABORTED, AbortMode.AT_MOVE_1): AbortMode.PARTNER_AT_MOVE_1,
}
#: The code of an end the table has no partner's words for, by status.
_UNKNOWN = {ResultStatus.WIN: WinMode.WINS, ResultStatus.DRAW: DrawMode.DRAWN}


def partner_result(status: int, mode: int) -> tuple[int, int]:
    """The (status, mode) of the partner board of a board that ended with ``status`` and
    ``mode``; the side that loses there is the other colour (partners play opposite
    colours).

    >>> partner_result(ResultStatus.WIN, WinMode.CHECKMATED) == (0, WinMode.PARTNER_CHECKMATED)
    True
    """
    found = _PARTNER_MODES.get((status, mode))
    if found is not None:
        return status, found
    return status, _UNKNOWN.get(ResultStatus(status), mode)
