"""The chess meaning of the wire's records, on python-chess (DESIGN.md, ``boards/``).

:mod:`~icswire.boards.positions` turns style 12, style 10, DG_JBOARD, 64-character boards
and FEN into :class:`chess.Board` positions (chess960 for wild 22, crazyhouse pockets for
wild 23 and 24) and positions back into style 12 / style 10 records;
:mod:`~icswire.boards.moves` reads and writes moves in SMITH (DG_MOVE_SMITH), style 12's
verbose notation, SAN and what clients type, always checked by python-chess.
"""

from icswire.boards.moves import (
    IllegalMoveError,
    move_from_san,
    move_from_smith,
    move_from_verbose,
    move_from_wire,
    san_from_move,
    smith_from_move,
    verbose_from_move,
)
from icswire.boards.positions import (
    BUGHOUSE,
    CHESS960,
    CRAZYHOUSE,
    board_from_64,
    board_from_fen,
    board_from_jboard,
    board_from_style10,
    board_from_style12,
    board_to_64,
    new_board,
    strength,
    style10_from_board,
    style12_from_board,
)

__all__ = [
    "BUGHOUSE",
    "CHESS960",
    "CRAZYHOUSE",
    "IllegalMoveError",
    "board_from_64",
    "board_from_fen",
    "board_from_jboard",
    "board_from_style10",
    "board_from_style12",
    "board_to_64",
    "move_from_san",
    "move_from_smith",
    "move_from_verbose",
    "move_from_wire",
    "new_board",
    "san_from_move",
    "smith_from_move",
    "strength",
    "style10_from_board",
    "style12_from_board",
    "verbose_from_move",
]
