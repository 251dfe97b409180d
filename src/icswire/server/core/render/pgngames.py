"""Games as :func:`icswire.boards.pgn.pgn_text` writes them: a table's game rebuilt as a
client would rebuild it (:class:`icswire.boards.game.Game`), dated when it began, with its
opening's ``ECO`` and ``Opening`` tags; the ``pgn`` and ``spgn`` commands' text."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime

from icswire.boards.game import Game
from icswire.boards.openings import Classified, classify_board
from icswire.protocol import datagrams as dg
from icswire.protocol.datagrams import DG
from icswire.server.core.model.openings import is_chess
from icswire.server.core.model.tables import Table

_RESULTS = ("1-0", "0-1", "1/2-1/2")


def dated(game: Game, started: datetime) -> None:
    """The PGN ``Date`` and ``Time`` tags of a game that began at ``started``."""
    game.tags["Date"] = started.strftime("%Y.%m.%d")
    game.tags["Time"] = started.strftime("%H:%M:%S")


def named(game: Game, found: Classified | None) -> None:
    """The PGN ``ECO`` and ``Opening`` tags of a game whose opening is ``found``."""
    if found is not None:
        game.eco, game.opening = found.opening.eco, found.opening.name


def table_game(table: Table) -> Game:
    """``table``'s game up to the position shown, as a client rebuilds it."""
    game = Game.from_started(dg.record_as(DG.ISOLATED_BOARD, table.game_record()))
    shown = table.movelist()
    game.reset(shown.start)
    for san, _ in shown.moves:
        game.push(san, None)
    dated(game, shown.started)
    if is_chess(table):
        named(game, classify_board(game.board))
    if table.event:
        game.tags["Event"] = table.event
    if shown.score in _RESULTS:
        game.result, game.result_description = shown.score, shown.result
    game.tags.update(shown.tags)
    for ply, comment in shown.comments:
        if 0 < ply <= len(game.moves):
            game.moves[ply - 1] = replace(game.moves[ply - 1], comment=comment)
    return game
