"""Bughouse (FICS ``bughouse``, ICC wild 24): two crazyhouse boards whose captures feed the
partner's pockets.

FICS help ``bughouse``: "pieces you capture are transferred to your partner, who is playing
with the opposite color pieces from yourself. He may "drop" such a piece on an empty
square as a subsequent move in his game", so a captured piece keeps its colour; "Pawns
cannot be dropped onto your first or eighth rank"; "Pieces that had been promoted revert to
pawns when captured and passed to your partner"; and "checkmate is defined differently:
there must be no *possibility* of avoiding checkmate by a drop interposition. Even if your
opponent is holding no pieces that he can drop, he may later get a piece to interpose from
his partner. Thus, only contact and knight checks can give a "decisive" checkmate."

:class:`BughouseBoard` is python-chess's ``CrazyhouseBoard`` whose captures leave the
capturer's pocket alone, and whose only ends are decisive checkmates (a player without a
move waits for a piece); :func:`passed_piece` says what a capture passes, and
:class:`BughouseGame` plays the two boards together.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

import chess
import chess.variant

__all__ = ["BughouseBoard", "BughouseGame", "passed_piece", "replayed_move", "supply_drop"]


class BughouseBoard(chess.variant.CrazyhouseBoard):
    """One board of a bughouse game: crazyhouse, but captures go to the partner.

    >>> board = BughouseBoard()
    >>> for san in ("e4", "d5", "exd5"):
    ...     _ = board.push_san(san)
    >>> board.fen()
    'rnbqkbnr/ppp1pppp/8/3P4/8/8/PPPP1PPP/RNBQKBNR[] b KQkq - 0 2'
    """

    aliases: ClassVar[list[str]] = ["Bughouse", "Bug house"]
    uci_variant = "bughouse"
    xboard_variant = "bughouse"

    def is_checkmate(self) -> bool:
        """Checkmate that no dropped piece could ever block (contact or knight checks)."""
        return super().is_checkmate() and not self.legal_drop_squares_mask()

    def has_insufficient_material(self, color: chess.Color) -> bool:
        """Never: the partner can always pass more material."""
        return False

    def outcome(self, *, claim_draw: bool = False) -> chess.Outcome | None:
        """python-chess's outcome, except that a player with no move waits for a piece."""
        if not self.is_checkmate() and not any(self.generate_legal_moves()):
            return None
        return super().outcome(claim_draw=claim_draw)

    def _push_capture(
        self,
        move: chess.Move,
        capture_square: chess.Square,
        piece_type: chess.PieceType,
        was_promoted: bool,
    ) -> None:
        """The captured piece leaves this board: see :func:`passed_piece`."""


def passed_piece(board: chess.Board, move: chess.Move) -> chess.Piece | None:
    """The piece a legal ``move`` of ``board`` passes to the partner's board: the captured
    piece in its own colour, a pawn if it had been promoted; None if nothing is captured.

    >>> board = BughouseBoard("4k3/8/8/3n4/4P3/8/8/4K3 w - - 0 1")
    >>> passed_piece(board, chess.Move.from_uci("e4d5"))
    Piece.from_symbol('n')
    """
    if not board.is_capture(move):
        return None
    if board.is_en_passant(move):
        return chess.Piece(chess.PAWN, not board.turn)
    promoted = bool(board.promoted & chess.BB_SQUARES[move.to_square])
    piece_type = board.piece_type_at(move.to_square)
    if piece_type is None:
        raise RuntimeError("piece_type is None")
    return chess.Piece(chess.PAWN if promoted else piece_type, not board.turn)


@dataclass
class BughouseGame:
    """The two boards of a bughouse game. On board A one team's player has White; on board
    B his partner has Black."""

    a: BughouseBoard = field(default_factory=BughouseBoard)
    b: BughouseBoard = field(default_factory=BughouseBoard)

    def partner_of(self, board: BughouseBoard) -> BughouseBoard:
        if board is self.a:
            return self.b
        if board is self.b:
            return self.a
        raise ValueError("not a board of this game")

    def push(self, board: BughouseBoard, move: chess.Move) -> chess.Piece | None:
        """Play a legal ``move`` on ``board`` (``self.a`` or ``self.b``); the piece it
        captures goes to the pocket of its colour on the other board. Returns that piece."""
        partner = self.partner_of(board)
        if not board.is_legal(move):
            raise ValueError(f"illegal move {move.uci()} in {board.fen()}")
        piece = passed_piece(board, move)
        board.push(move)
        if piece is not None:
            partner.pockets[piece.color].add(piece.piece_type)
        return piece


def replayed_move(board: chess.Board, san: str) -> chess.Move:
    """``san`` parsed on ``board``, a board of one bughouse game replayed alone (a stored
    game, an examined one): a drop's piece came from the partner board, so it is put in
    the mover's holding first when it is not there. Raises ValueError as ``parse_san``.

    >>> board = BughouseBoard()
    >>> replayed_move(board, "N@e4").uci()
    'N@e4'
    """
    letter, at, _ = san.partition("@")
    if not isinstance(board, BughouseBoard) or not at or letter.upper() not in "PNBRQ":
        return board.parse_san(san)
    piece_type = chess.PIECE_SYMBOLS.index(letter.lower()) if letter else chess.PAWN
    pocket = board.pockets[board.turn]
    added = not pocket.count(piece_type)
    if added:
        pocket.add(piece_type)
    try:
        return board.parse_san(san)
    except ValueError:
        if added:
            pocket.remove(piece_type)
        raise


def supply_drop(board: chess.Board, move: chess.Move) -> None:
    """Before pushing a stored bughouse ``move`` on a board replayed alone: a drop's piece
    is put in the mover's holding when it is not there (the partner board passed it)."""
    if isinstance(board, BughouseBoard) and move.drop:
        pocket = board.pockets[board.turn]
        if not pocket.count(move.drop):
            pocket.add(move.drop)
