"""One PGN file per finished game, written from the client's rebuilt game
(:func:`icswire.boards.pgn.pgn_text`).

The file is named ``YYYYMMDD-HHMMSS-WHITE-BLACK-gN.pgn`` (the time the game ended, the
server's game number), with ``-2``, ``-3``... before ``.pgn`` should that name be taken.
The ``Site`` tag is the server's address and ``Date`` the day the game ended, unless the
server sent its own tags (DG_PGN_TAG).
"""

from __future__ import annotations

import re
from datetime import datetime
from pathlib import Path
from typing import Final

from icswire.boards.game import Game
from icswire.boards.pgn import pgn_text

__all__ = ["save_game"]

_UNSAFE: Final = re.compile(r"[^A-Za-z0-9_-]+")


def save_game(directory: str | Path, game: Game, site: str, when: datetime | None = None) -> Path:
    """Write ``game`` as PGN into ``directory`` (made if missing); the file's path."""
    when = when or datetime.now()
    folder = Path(directory)
    folder.mkdir(parents=True, exist_ok=True)
    game.tags.setdefault("Site", site)
    game.tags.setdefault("Date", when.strftime("%Y.%m.%d"))
    stem = "-".join(
        (when.strftime("%Y%m%d-%H%M%S"), _safe(game.white), _safe(game.black), f"g{game.number}")
    )
    path = folder / f"{stem}.pgn"
    count = 1
    while True:
        try:
            with path.open("x", encoding="utf-8") as out:
                out.write(pgn_text(game))
            return path
        except FileExistsError:
            count += 1
            path = folder / f"{stem}-{count}.pgn"


def _safe(name: str) -> str:
    return _UNSAFE.sub("_", name) or "_"
