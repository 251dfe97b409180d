"""Why a move is refused, as DG_ILLEGAL_MOVE's reason code, in every variant.

icc-formats.txt, DG_ILLEGAL_MOVE (42): "Reason codes include: 1 Bad or ambiguous notation
2 Illegal (covers most of rules of chess) 3 King in check (don't ask why this is singled
out) 4 Not your move 5 Bughouse and don't have the piece you're trying to drop 6 Bughouse
and drop-square isn't empty 7 Bughouse and pawn drop attempted on first or eighth rank 8
Special restriction in some future wild game type".

:func:`illegal_reason` reads what a player typed the way the server does (coordinates,
castling words, drops, SAN; :func:`~icswire.boards.moves.move_from_wire`) but against the
moves a piece *could* make (python-chess's pseudo-legal moves), and says:

- 1 for text that is no move, or SAN that fits more than one legal move;
- 5, 6, 7 for drops (crazyhouse and bughouse alike) of a piece not held, onto an occupied
  square, or of a pawn onto the first or eighth rank;
- 3 for a move (or drop) that leaves or puts one's own king in check;
- 8 for a move the pieces could make but the variant forbids: a non-capture when a
  capture is compulsory (losers, suicide, giveaway: "You must capture", FICS help
  ``suicide_chess``), a capture that explodes one's own king (atomic);
- 2 for everything else: no such move.

"Not your move" (4) is the server's to say: a board only knows whose turn it is.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Final

import chess

from icswire.protocol.codes import IllegalMoveReason

__all__ = ["illegal_reason"]

_CASTLING: Final = re.compile(r"([oO0])-\1(-\1)?[+#]?")
_COORDINATES: Final = re.compile(r"([a-h][1-8])-?([a-h][1-8])=?([nbrqkNBRQK]?)")
_DROP: Final = re.compile(r"([PNBRQpnbrq]?)@([a-h][1-8])[+#]?")


def illegal_reason(board: chess.Board, text: str) -> IllegalMoveReason | None:
    """DG_ILLEGAL_MOVE's reason why ``text`` is not a legal move of ``board``; None if it
    is one.

    >>> illegal_reason(chess.Board(), "e2e5")
    <IllegalMoveReason.ILLEGAL: 2>
    >>> import chess.variant
    >>> illegal_reason(chess.variant.GiveawayBoard("4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1"), "e1d1")
    <IllegalMoveReason.WILD_RESTRICTION: 8>
    """
    if m := _DROP.fullmatch(text):
        return _drop_reason(board, chess.PIECE_SYMBOLS.index((m[1] or "p").lower()), m[2])
    if m := _CASTLING.fullmatch(text):
        short = m[2] is None
        return _reason(
            board, [c for c in board.generate_castling_moves() if _short(board, c) == short]
        )
    if m := _COORDINATES.fullmatch(text):
        return _coordinate_reason(board, m[1], m[2], m[3])
    return _san_reason(board, text)


def _far(from_square: chess.Square, to_square: chess.Square) -> bool:
    """Whether a king going from one square to the other is at least two files away: ICC
    help ``Fischer-random``, "If your king is moving two squares or more, you can just move
    the king and it will be understood that you intend to castle" (a one-square move is a
    king move)."""
    return abs(chess.square_file(from_square) - chess.square_file(to_square)) >= 2


def _short(board: chess.Board, move: chess.Move) -> bool:
    return board.is_kingside_castling(move)


def _reason(board: chess.Board, candidates: Iterable[chess.Move]) -> IllegalMoveReason | None:
    """The reason for the likeliest of the moves a player may have meant: none if one is
    legal, else check (3), else the variant's rule (8), else no such move (2)."""
    found = [move for move in candidates if board.is_pseudo_legal(move)]
    if any(board.is_legal(move) for move in found):
        return None
    if any(board.is_into_check(move) for move in found):
        return IllegalMoveReason.KING_IN_CHECK
    if found:
        return IllegalMoveReason.WILD_RESTRICTION
    return IllegalMoveReason.ILLEGAL


def _drop_reason(board: chess.Board, piece_type: int, square_name: str) -> IllegalMoveReason | None:
    pockets = getattr(board, "pockets", None)
    if pockets is None:
        return IllegalMoveReason.ILLEGAL
    square = chess.parse_square(square_name)
    if not pockets[board.turn].count(piece_type):
        return IllegalMoveReason.PIECE_NOT_HELD
    if board.piece_at(square) is not None:
        return IllegalMoveReason.DROP_SQUARE_OCCUPIED
    if piece_type == chess.PAWN and chess.BB_SQUARES[square] & chess.BB_BACKRANKS:
        return IllegalMoveReason.PAWN_DROP_ON_BACK_RANK
    return _reason(board, [chess.Move(square, square, drop=piece_type)])


def _coordinate_reason(
    board: chess.Board, from_name: str, to_name: str, promotion: str
) -> IllegalMoveReason | None:
    from_square, to_square = chess.parse_square(from_name), chess.parse_square(to_name)
    piece = None if not promotion else chess.PIECE_SYMBOLS.index(promotion.lower())
    candidates = [chess.Move(from_square, to_square, piece)]
    if (
        board.piece_type_at(from_square) == chess.KING
        and not promotion
        and _far(from_square, to_square)
    ):
        # a castling typed as the king's squares (e1g1, chess960's b1g1, wild 1's d1b1)
        for castling in board.generate_castling_moves(chess.BB_SQUARES[from_square]):
            after = board.copy(stack=False)
            after.push(castling)
            if after.king(board.turn) == to_square:
                candidates.append(castling)
    return _reason(board, candidates)


def _san_reason(board: chess.Board, text: str) -> IllegalMoveReason | None:
    try:
        move = board.parse_san(text)
    except chess.AmbiguousMoveError:
        return IllegalMoveReason.BAD_NOTATION
    except chess.InvalidMoveError:
        return IllegalMoveReason.BAD_NOTATION
    except chess.IllegalMoveError:
        pass
    else:
        return _reason(board, [move])
    m = chess.SAN_REGEX.match(text)
    if m is None:
        return IllegalMoveReason.BAD_NOTATION
    to_square = chess.parse_square(m[4])
    piece_type = chess.PAWN if m[1] is None else chess.PIECE_SYMBOLS.index(m[1].lower())
    promotion = None if not m[5] else chess.PIECE_SYMBOLS.index(m[5][-1].lower())
    from_file = chess.square_file(to_square) if m[1] is None and m[2] is None else None
    if m[2] is not None:
        from_file = chess.FILE_NAMES.index(m[2])
    from_rank = None if m[3] is None else int(m[3]) - 1
    candidates = [
        move
        for move in board.generate_pseudo_legal_moves(to_mask=chess.BB_SQUARES[to_square])
        if board.piece_type_at(move.from_square) == piece_type
        and move.promotion == promotion
        and from_file in (None, chess.square_file(move.from_square))
        and from_rank in (None, chess.square_rank(move.from_square))
    ]
    return _reason(board, candidates)
