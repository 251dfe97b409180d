"""Style 1 as freechess.org sends it (issue 23): lasker's ``board.c`` writes the clocks
with ``tenth_str(t, 1)``, ``5 : 00``, but freechess.org (server version 1.25.20) writes
``0:00``, and where the two differ freechess.org wins. The board below is a real one of
freechess.org, examining 1.e4 e5 2.d4 exd4 3.Bc4 h5 4.Bxf7+ (its published copy lost one
leading blank of every line, put back here: lasker's ``"     %d  "`` and its tab)."""

from __future__ import annotations

import chess

from icswire.server.core.render.diagrams import RecentMove, diagram

FREECHESS = [
    "Game 145 (GuestFZSG vs. GuestFZSG)",
    "",
    "        ---------------------------------",
    "     8  | *R| *N| *B| *Q| *K| *B| *N| *R|     Move # : 4 (Black)",
    "        |---+---+---+---+---+---+---+---|",
    "     7  | *P| *P| *P| *P|   | B | *P|   |     White Moves : 'Bxf7+   (0:00)'",
    "        |---+---+---+---+---+---+---+---|",
    "     6  |   |   |   |   |   |   |   |   |",
    "        |---+---+---+---+---+---+---+---|",
    "     5  |   |   |   |   |   |   |   | *P|     Black Clock : 0:00",
    "        |---+---+---+---+---+---+---+---|",
    "     4  |   |   |   | *P| P |   |   |   |     White Clock : 0:00",
    "        |---+---+---+---+---+---+---+---|",
    "     3  |   |   |   |   |   |   |   |   |     Black Strength : 38",
    "        |---+---+---+---+---+---+---+---|",
    "     2  | P | P | P |   |   | P | P | P |     White Strength : 38",
    "        |---+---+---+---+---+---+---+---|",
    "     1  | R | N | B | Q | K |   | N | R |",
    "        ---------------------------------",
    "          a   b   c   d   e   f   g   h",
]


def test_style_1_is_freechess_orgs_byte_for_byte() -> None:
    board = chess.Board()
    for san in ("e4", "e5", "d4", "exd4", "Bc4", "h5", "Bxf7+"):
        board.push_san(san)
    lines = diagram(
        1,
        board,
        number=145,
        white="GuestFZSG",
        black="GuestFZSG",
        clocks=(0, 0),
        ply=7,
        recent=[RecentMove("Bxf7+", "B/c4-f7", 0)],
        flip=False,
        precise=False,
    )
    assert lines == FREECHESS
