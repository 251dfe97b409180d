"""Build ``src/icswire/boards/openings/openings.tsv`` from lichess's chess-openings.

Usage: ``python tools/build_openings.py DIR`` where DIR holds ``a.tsv`` ... ``e.tsv`` of
https://github.com/lichess-org/chess-openings (CC0). Each line of the output is the
source's ``eco``, ``name`` and ``pgn`` and the EPD of the position the moves reach (the
en passant square only where a capture is legal, as lichess's ``dist/`` files give it),
so the server indexes positions without replaying some 3,500 lines at start.
"""

from __future__ import annotations

import sys
from pathlib import Path

import chess

OUT = Path(__file__).resolve().parent.parent / "src/icswire/boards/openings/openings.tsv"


def _board(pgn: str) -> chess.Board:
    board = chess.Board()
    for token in pgn.split():
        if not token[0].isdigit():
            board.push_san(token)
    return board


def build(source: Path) -> list[str]:
    """The output lines, header first; a repeated position is an error."""
    lines, seen = ["eco\tname\tpgn\tepd"], set()
    for volume in "abcde":
        rows = (source / f"{volume}.tsv").read_text(encoding="utf-8").splitlines()
        if rows[0].split("\t") != ["eco", "name", "pgn"]:
            raise SystemExit(f"{volume}.tsv: expected the columns eco, name, pgn")
        for number, row in enumerate(rows[1:], 2):
            eco, name, pgn = row.split("\t")
            epd = _board(pgn).epd()
            if epd in seen:
                raise SystemExit(f"{volume}.tsv:{number}: a position listed twice: {epd}")
            seen.add(epd)
            lines.append(f"{eco}\t{name}\t{pgn}\t{epd}")
    return lines


def main() -> None:
    if len(sys.argv) != 2:
        raise SystemExit(__doc__)
    OUT.write_text("\n".join(build(Path(sys.argv[1]))) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
