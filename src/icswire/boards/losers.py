"""Losers chess (FICS ``losers``, ICC wild 17) on python-chess's chess rules.

ICC's announcement of wild 17 (news 638) gives the three differences from chess, which
FICS's help ``losers_chess`` and PyChess (a FICS client) follow:

1. "If it is possible to make a capture move, then you must make a capture move" (any of
   them: "If you have more than one capture available, you can choose which to make").
   Only legal captures count: the king keeps its role, "checks must be honored" (ICC help
   ``wild``), so a capture that leaves one's king in check does not force anything.
2. "If all of your pieces are taken (you have a lone king), you win the game."
3. "If you are stalemated or checkmated (in the sense of ordinary chess) you win the game."

Castling, en passant and promotion are chess's (no promotion to king).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import ClassVar

import chess

__all__ = ["LosersBoard"]


class LosersBoard(chess.Board):
    """Chess with compulsory captures, won by losing every piece but the king or by being
    checkmated or stalemated.

    >>> board = LosersBoard("4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1")
    >>> [board.san(move) for move in board.legal_moves]
    ['exd5#']
    >>> board.push_san("exd5")
    Move.from_uci('e4d5')
    >>> board.is_variant_win(), board.outcome().winner
    (True, False)
    """

    aliases: ClassVar[list[str]] = ["Losers", "Losers chess", "Loser's chess"]
    uci_variant = "losers"
    xboard_variant = "losers"

    def _chess_captures(self) -> Iterator[chess.Move]:
        """The captures legal by chess's rules (en passant included)."""
        yield from chess.Board.generate_legal_moves(
            self, chess.BB_ALL, self.occupied_co[not self.turn]
        )
        yield from chess.Board.generate_legal_ep(self)

    def must_capture(self) -> bool:
        """Whether the side to move has a capture, and so may play nothing else."""
        return any(self._chess_captures())

    def generate_legal_moves(
        self, from_mask: chess.Bitboard = chess.BB_ALL, to_mask: chess.Bitboard = chess.BB_ALL
    ) -> Iterator[chess.Move]:
        if self.is_variant_end():
            return
        if self.must_capture():
            for move in self._chess_captures():
                if chess.BB_SQUARES[move.from_square] & from_mask and (
                    chess.BB_SQUARES[move.to_square] & to_mask
                ):
                    yield move
        else:
            yield from super().generate_legal_moves(from_mask, to_mask)

    def is_legal(self, move: chess.Move) -> bool:
        return super().is_legal(move) and (self.is_capture(move) or not self.must_capture())

    def _lone_king(self, color: chess.Color) -> bool:
        return not self.occupied_co[color] & ~self.kings

    def is_variant_end(self) -> bool:
        return self._lone_king(chess.WHITE) or self._lone_king(chess.BLACK)

    def is_variant_win(self) -> bool:
        """The side to move has won: a lone king, or no legal move (mated or stalemated)."""
        if self._lone_king(self.turn):
            return True
        return not self.is_variant_end() and not any(self.generate_legal_moves())

    def is_variant_loss(self) -> bool:
        return self._lone_king(not self.turn) and not self._lone_king(self.turn)

    def is_variant_draw(self) -> bool:
        return False

    def has_insufficient_material(self, color: chess.Color) -> bool:
        """Never: the game is won by losing material, not by mating with it."""
        return False
