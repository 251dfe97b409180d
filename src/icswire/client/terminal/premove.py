"""Premoves: moves typed while it is the opponent's turn, kept in order and sent one at a
time, each when my turn comes, if it is legal then (an illegal one drops the rest)."""

from __future__ import annotations

import re

import chess

#: A move as a player types one: SAN (``Nf3``, ``exd5``, ``e8=Q+``, ``O-O``, ``P@e4``) or
#: coordinates (``e2e4``, ``e2-e4``, ``e7e8q``).
MOVE = re.compile(
    r"""(?x)
    (?: [KQRBNkqrn]?[a-h]?[1-8]?x?[a-h][1-8](?:=?[QRBNKqrbnk])?
      | [a-h][1-8]-?[a-h][1-8][qrbnk]?
      | [PNBRQK]?@[a-h][1-8]
      | [O0]-[O0](?:-[O0])?
    )[+#!?]*"""
)


def looks_like_move(line: str) -> bool:
    """Whether a line typed is a move rather than a command."""
    return MOVE.fullmatch(line.strip()) is not None


def parse(board: chess.Board, text: str) -> chess.Move:
    """The move ``text`` means on ``board``; ValueError if it is not legal there."""
    text = text.strip().rstrip("+#!?").replace("0-0", "O-O")
    if text[:1] in ("k", "q", "r", "n") and len(text) > 2:  # nf3: a knight, as ICS takes it
        text = text[0].upper() + text[1:]
    coordinates = text.replace("-", "") if not text.startswith("O-O") else text
    if re.fullmatch(r"[a-h][1-8][a-h][1-8][qrbnk]?", coordinates):
        move = chess.Move.from_uci(coordinates)
        if move in board.legal_moves:
            return move
        raise ValueError(f"{text} is not legal here")
    return board.parse_san(text)


class Premoves:
    """The queue of premoves of my game."""

    def __init__(self) -> None:
        self.moves: list[str] = []

    def add(self, text: str) -> None:
        self.moves.append(text.strip())

    def cancel(self) -> list[str]:
        """Drop them all; the ones dropped."""
        dropped, self.moves = self.moves, []
        return dropped

    def take(self, board: chess.Board) -> tuple[chess.Move | None, str | None]:
        """The first premove if it is legal on ``board`` (my turn now), removed from the
        queue, with None; else None and why, the queue emptied."""
        if not self.moves:
            return None, None
        text = self.moves.pop(0)
        try:
            return parse(board, text), None
        except ValueError:
            dropped = [text, *self.cancel()]
            return None, f"premove {' '.join(dropped)} dropped: {text} is not legal"

    def __bool__(self) -> bool:
        return bool(self.moves)
