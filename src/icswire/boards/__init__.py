"""The chess meaning of the wire's records, on python-chess (docs/design.md, ``boards/``).

:mod:`~icswire.boards.variants` names every variant FICS and ICC play (wild numbers,
spellings, rating types, PGN tags, board classes, starting positions);
:mod:`~icswire.boards.positions` turns style 12, style 10, DG_JBOARD, 64-character boards
and FEN into boards of the variant's class and positions back into style 12 / style 10
records; :mod:`~icswire.boards.moves` reads and writes moves in SMITH (DG_MOVE_SMITH),
style 12's verbose notation, SAN and what clients type, always checked by python-chess;
:mod:`~icswire.boards.illegal` says why a move is refused (DG_ILLEGAL_MOVE's reasons).
The variant boards python-chess lacks are in :mod:`~icswire.boards.wilds`,
:mod:`~icswire.boards.losers`, :mod:`~icswire.boards.suicide`,
:mod:`~icswire.boards.atomic` and :mod:`~icswire.boards.bughouse`; the wild starting
positions in :mod:`~icswire.boards.setups`.

The names here are imported on first use (PEP 562): a program that needs one module
loads only that one.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from icswire.protocol.lazy import lazy_getattr

if TYPE_CHECKING:
    from icswire.boards.illegal import illegal_reason
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
    from icswire.boards.variants import (
        VARIANTS,
        UnsupportedVariantError,
        Variant,
        rating_type,
        variant_from_spelling,
        variant_from_wild,
        variant_of,
    )

#: Each name of ``__all__``, by the module that defines it.
_MODULE_OF = {
    "illegal_reason": "illegal",
    "IllegalMoveError": "moves",
    "move_from_san": "moves",
    "move_from_smith": "moves",
    "move_from_verbose": "moves",
    "move_from_wire": "moves",
    "san_from_move": "moves",
    "smith_from_move": "moves",
    "verbose_from_move": "moves",
    "BUGHOUSE": "positions",
    "CHESS960": "positions",
    "CRAZYHOUSE": "positions",
    "board_from_64": "positions",
    "board_from_fen": "positions",
    "board_from_jboard": "positions",
    "board_from_style10": "positions",
    "board_from_style12": "positions",
    "board_to_64": "positions",
    "new_board": "positions",
    "strength": "positions",
    "style10_from_board": "positions",
    "style12_from_board": "positions",
    "VARIANTS": "variants",
    "UnsupportedVariantError": "variants",
    "Variant": "variants",
    "rating_type": "variants",
    "variant_from_spelling": "variants",
    "variant_from_wild": "variants",
    "variant_of": "variants",
}

__all__ = [
    "BUGHOUSE",
    "CHESS960",
    "CRAZYHOUSE",
    "VARIANTS",
    "IllegalMoveError",
    "UnsupportedVariantError",
    "Variant",
    "board_from_64",
    "board_from_fen",
    "board_from_jboard",
    "board_from_style10",
    "board_from_style12",
    "board_to_64",
    "illegal_reason",
    "move_from_san",
    "move_from_smith",
    "move_from_verbose",
    "move_from_wire",
    "new_board",
    "rating_type",
    "san_from_move",
    "smith_from_move",
    "strength",
    "style10_from_board",
    "style12_from_board",
    "variant_from_spelling",
    "variant_from_wild",
    "variant_of",
    "verbose_from_move",
]


__getattr__ = lazy_getattr(__name__, _MODULE_OF, globals())


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
