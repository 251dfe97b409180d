"""The opening of a server's game: the ECO code that DG_GAME_RESULT (13),
DG_MY_GAME_RESULT (16), ``history``, ``search`` and PGN carry, and the name ``eco`` and
PGN's ``Opening`` tag give, both from lichess's table (:mod:`icswire.boards.openings`).

Only chess has openings: a variant's game (FICS's wild types, crazyhouse, bughouse ...)
has the ECO ``?``, as a game that never reached a named position does (DG_GAME_RESULT
allows ``?``: "It may be "?" in many cases", icc-formats.txt).
"""

from __future__ import annotations

from collections.abc import Iterable

import chess

from icswire.boards.openings import Classified, classify_board, classify_moves
from icswire.boards.variants import Variant
from icswire.server.core.model.tables import Table

__all__ = ["UNKNOWN", "board_opening", "eco_code", "is_chess", "moves_opening", "table_opening"]

UNKNOWN = "?"
"""The ECO code of a game without a named opening."""


def board_opening(board: chess.Board, variant: Variant) -> Classified | None:
    """The opening of a game of ``variant`` now at ``board`` (its moves on the stack)."""
    return classify_board(board) if variant.name == "chess" else None


def moves_opening(
    moves: Iterable[str], start_fen: str | None, variant: Variant
) -> Classified | None:
    """The opening of a game of ``variant`` that played the SAN ``moves`` from
    ``start_fen`` (a stored game's)."""
    return classify_moves(moves, start_fen) if variant.name == "chess" else None


def eco_code(found: Classified | None) -> str:
    """``B90``, or :data:`UNKNOWN`."""
    return found.opening.eco if found is not None else UNKNOWN


def is_chess(table: Table) -> bool:
    """Whether ``table``'s game is chess (DG_GAME_STARTED's wild number 0), the one game
    with openings; FICS's ``eco`` answers "That game is a wild game." of the others."""
    return table.game_record().wild_number == 0


def table_opening(table: Table) -> Classified | None:
    """The opening of a game being played or examined, up to the position shown (its
    moves from its start, so the ply counts from there)."""
    if not is_chess(table):
        return None
    shown = table.movelist()
    return classify_moves((san for san, _ in shown.moves), shown.start.fen())
