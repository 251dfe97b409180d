"""Boards for the wild setups whose castling is not chess's: python-chess subclasses.

:class:`WildCastleBoard` (FICS wild 0 and wild 1, ICC wild 1): a king may start on the d
file, and then castles the mirror image of chess. FICS help ``wild``: "The white king
starts on d1 or e1 and the black king starts on d8 or e8, and the rooks are in their usual
positions ... Castling is done similarly to normal chess: o-o-o indicates long castling and
o-o short castling" (ICC help ``wild`` and Sleator's 1993 description of ICS wild 1 say the
same). Short castling is towards the nearer corner, so a king on d1 castles short with the
a1 rook (king to b1, rook to c1) and long with the h1 rook (king to f1, rook to e1), as
Raptor, a FICS client, plays FICS wild 0 and 1. A king on e1 castles as in chess.

:class:`NoCastleBoard` (wild 2, 3 and 4): "Castling is not allowed" (FICS help ``wild``,
styles 2 and 3; wild 4 comes from the same generator, FICS's ``wild_update``).

Both build on python-chess's move generation: a d-file king's castlings are python-chess's
own castlings of the board mirrored left to right, mirrored back.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import ClassVar, Final

import chess

__all__ = ["NoCastleBoard", "WildCastleBoard"]

_D_FILE: Final = 3
_BACK_RANKS: Final = {chess.WHITE: 0, chess.BLACK: 7}
_CORNERS: Final = chess.BB_A1 | chess.BB_H1 | chess.BB_A8 | chess.BB_H8


def _flip_square(square: chess.Square) -> chess.Square:
    """The square mirrored left to right (a1 <-> h1)."""
    return square ^ 7


class WildCastleBoard(chess.Board):
    """Chess in which a king on the d file castles the mirror image of chess (ICS "wild"
    castling). Always in python-chess's chess960 mode, which keeps castling rights for a
    king that is not on the e file; castling moves are king-takes-rook (``d1a1``), and
    :meth:`is_kingside_castling` means *short* castling (``O-O``, style 12's "castle
    short"), which for a d-file king is towards the a file.

    >>> board = WildCastleBoard("rnbkqbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1")
    >>> board.set_piece_map({sq: p for sq, p in board.piece_map().items()
    ...                      if sq not in (chess.B8, chess.C8, chess.E8, chess.F8, chess.G8)})
    >>> [board.san(move) for move in board.generate_castling_moves()]
    ['O-O', 'O-O-O']
    >>> board.push_san("O-O")
    Move.from_uci('d8a8')
    >>> board.board_fen()[:8]
    '1kr4r/pp'
    """

    aliases: ClassVar[list[str]] = ["Wildcastle", "Wild castle"]
    uci_variant = "wildcastle"
    xboard_variant = "wildcastle"

    def __init__(self, fen: str | None = chess.STARTING_FEN, chess960: bool = True) -> None:
        super().__init__(fen, chess960=True)

    # -- which king castles how --------------------------------------------------------

    def _on_d_file(self, square: chess.Square) -> bool:
        """Whether ``square`` holds an unpromoted king on the d file of its back rank."""
        piece = self.piece_at(square)
        return (
            piece is not None
            and piece.piece_type == chess.KING
            and not self.promoted & chess.BB_SQUARES[square]
            and chess.square_file(square) == _D_FILE
            and chess.square_rank(square) == _BACK_RANKS[piece.color]
        )

    def _king_on_d_file(self, color: chess.Color) -> bool:
        king = self.king(color)
        return king is not None and self._on_d_file(king)

    def clean_castling_rights(self) -> chess.Bitboard:
        """Rights only for rooks in the corners, with the king on d or e of its back rank."""
        rights = super().clean_castling_rights() & _CORNERS
        for color, rank in _BACK_RANKS.items():
            king = self.king(color)
            if (
                king is None
                or chess.square_rank(king) != rank
                or chess.square_file(king)
                not in (
                    3,
                    4,
                )
            ):
                rights &= ~chess.BB_RANKS[rank]
        return rights

    def set_castling_flags(
        self, white_short: bool, white_long: bool, black_short: bool, black_long: bool
    ) -> None:
        """Castling rights from style 12's four flags (short is towards the nearer corner)."""
        rights = chess.BB_EMPTY
        for color, short, long in (
            (chess.WHITE, white_short, white_long),
            (chess.BLACK, black_short, black_long),
        ):
            rank = _BACK_RANKS[color]
            short_file, long_file = (0, 7) if self._king_on_d_file(color) else (7, 0)
            if short:
                rights |= chess.BB_SQUARES[chess.square(short_file, rank)]
            if long:
                rights |= chess.BB_SQUARES[chess.square(long_file, rank)]
        self.castling_rights = rights
        self.castling_rights = self.clean_castling_rights()

    def has_kingside_castling_rights(self, color: chess.Color) -> bool:
        """Whether ``color`` may still castle short (towards the a file from d)."""
        if self._king_on_d_file(color):
            return super().has_queenside_castling_rights(color)
        return super().has_kingside_castling_rights(color)

    def has_queenside_castling_rights(self, color: chess.Color) -> bool:
        """Whether ``color`` may still castle long (towards the h file from d)."""
        if self._king_on_d_file(color):
            return super().has_kingside_castling_rights(color)
        return super().has_queenside_castling_rights(color)

    def is_kingside_castling(self, move: chess.Move) -> bool:
        """Whether ``move`` castles short (``O-O``)."""
        if not self.is_castling(move):
            return False
        towards_h = chess.square_file(move.to_square) > chess.square_file(move.from_square)
        return towards_h != self._on_d_file(move.from_square)

    def is_queenside_castling(self, move: chess.Move) -> bool:
        """Whether ``move`` castles long (``O-O-O``)."""
        return self.is_castling(move) and not self.is_kingside_castling(move)

    # -- moves ------------------------------------------------------------------------

    def generate_castling_moves(
        self, from_mask: chess.Bitboard = chess.BB_ALL, to_mask: chess.Bitboard = chess.BB_ALL
    ) -> Iterator[chess.Move]:
        """python-chess's castlings; for a d-file king those of the mirrored board."""
        if not self._king_on_d_file(self.turn):
            yield from super().generate_castling_moves(from_mask, to_mask)
            return
        if not self.clean_castling_rights() & chess.BB_RANKS[_BACK_RANKS[self.turn]]:
            return
        mirrored = self.transform(chess.flip_horizontal)
        for move in mirrored.generate_castling_moves(
            chess.flip_horizontal(from_mask), chess.flip_horizontal(to_mask)
        ):
            yield chess.Move(_flip_square(move.from_square), _flip_square(move.to_square))

    def push(self, move: chess.Move) -> None:
        """python-chess's push; a d-file king's castling then lands one file nearer the a
        file than chess960's (b1 and c1, or f1 and e1)."""
        mirrored = self._on_d_file(move.from_square) and self.is_castling(move)
        super().push(move)
        if not mirrored:
            return
        color = not self.turn
        rank = _BACK_RANKS[color]
        a_side = chess.square_file(move.to_square) < _D_FILE
        # chess960's squares (king c, rook d) or (king g, rook f), each moved one file left
        king_file, rook_file = (2, 3) if a_side else (6, 5)
        order = ((king_file, chess.KING), (rook_file, chess.ROOK))
        for file, piece_type in order if a_side else reversed(order):
            self._remove_piece_at(chess.square(file, rank))
            self._set_piece_at(chess.square(file - 1, rank), piece_type, color)

    def _algebraic_without_suffix(self, move: chess.Move, *, long: bool = False) -> str:
        if not move.drop and move and self.is_castling(move):
            return "O-O" if self.is_kingside_castling(move) else "O-O-O"
        return super()._algebraic_without_suffix(move, long=long)


class NoCastleBoard(chess.Board):
    """Chess without castling (wild 2, 3 and 4): no castling rights ever.

    >>> NoCastleBoard("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1").fen()
    'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1'
    """

    aliases: ClassVar[list[str]] = ["Nocastle", "No castle"]
    uci_variant = "nocastle"
    xboard_variant = "nocastle"
    starting_fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1"

    def __init__(self, fen: str | None = starting_fen, chess960: bool = False) -> None:
        super().__init__(fen, chess960=chess960)

    def reset(self) -> None:
        self.set_fen(type(self).starting_fen)

    def clean_castling_rights(self) -> chess.Bitboard:
        return chess.BB_EMPTY
