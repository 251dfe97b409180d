"""Follow every game in a stream of decoder events (what ``icswire pgn`` reads).

Games are told apart by number; a number is used again once its game has ended.
Datagram-built games ignore the style 12 boards of the same game (the datagrams say
more); games seen only as boards are built from the boards and the end-of-game line.
"""

from __future__ import annotations

from typing import Any

import chess.variant

from icswire.boards.game import RESULT_DGS, STARTED_DGS, Game, Gap, parse_game_end
from icswire.boards.moves import IllegalMoveError
from icswire.boards.variants import CRAZYHOUSE
from icswire.protocol.datagrams import DG, DatagramRecord
from icswire.protocol.events import BughouseLine, Style12Line, Text


class GameTracker:
    """Feed it events; :attr:`games` lists every game seen, in order of appearance."""

    def __init__(self) -> None:
        self.games: list[Game] = []
        self._open: dict[int, Game] = {}

    def feed(self, event: Any) -> None:
        if isinstance(event, DatagramRecord):
            self._datagram(event)
        elif isinstance(event, Style12Line):
            self._board(event)
        elif isinstance(event, BughouseLine):
            game = self._open.get(event.record.game_number)
            if game is not None and game.source == "style12":
                _make_crazyhouse(game)
                game.set_holdings_from(event.record)
        elif isinstance(event, Text) and event.text.startswith("{Game "):
            self._game_end(event.text)

    def _start(self, game: Game) -> None:
        self.games.append(game)
        self._open[game.number] = game

    def _datagram(self, record: Any) -> None:
        if record.dg in STARTED_DGS:
            self._start(Game.from_started(record))
            return
        number = getattr(record, "gamenumber", None)
        if not isinstance(number, int) or number not in self._open:
            return
        game = self._open[number]
        try:
            game.apply(record)
        except IllegalMoveError as exc:
            # the server's move does not fit what we know: a gap, not an invented game
            game.gaps.append(Gap(len(game.moves), str(exc), game.board.fen()))
        if (record.dg in RESULT_DGS and not record.become_examined) or (
            record.dg == DG.MY_RELATION_TO_GAME and record.symbol == "X"
        ):
            del self._open[number]

    def _board(self, event: Style12Line) -> None:
        record = event.record
        game = self._open.get(record.game_number)
        if game is None:
            self._start(Game.from_style12(record))
        elif game.source == "style12":
            game.apply_style12(record)

    def _game_end(self, text: str) -> None:
        end = parse_game_end(text)
        if end is None:
            return
        number, white, black, description, score = end
        game = self._open.get(number)
        if (
            game is not None
            and game.source == "style12"
            and (game.white, game.black)
            == (
                white,
                black,
            )
        ):
            game.end_from_text(description, score)
            del self._open[number]


def _make_crazyhouse(game: Game) -> None:
    """A style 12 game turns out to have holdings (``<b1>``): replay it with pockets."""
    if isinstance(game.board, chess.variant.CrazyhouseBoard):
        return
    game.wild, game.variant = CRAZYHOUSE.wild, CRAZYHOUSE
    start = CRAZYHOUSE.new_board(fen=game.start.fen())
    board = start.copy()
    for played in game.moves:
        if played.move is not None:
            board.push(played.move)
    game.start, game.board = start, board
