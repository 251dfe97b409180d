"""The games on screen: the ones I play, observe or examine (one shown at a time, Ctrl-G
for the next), each with its clocks; and how a game is drawn: the board with a clock line
above and below, and the move list beside it in as many columns as fit."""

from __future__ import annotations

from dataclasses import dataclass, field

import chess
from prompt_toolkit.formatted_text import StyleAndTextTuples

from icswire.client.state import MyGame
from icswire.client.terminal.clocks import GameClocks, format_clock

Row = StyleAndTextTuples  # a row of styled text

BOARD_WIDTH = 28
BOARD_HEIGHT = 11  # a clock line, 8 ranks, the files, a clock line
BIG_CELL = 5  # columns of a square of the big board (two rows high)
BIG_WIDTH = 2 + 8 * BIG_CELL + 2
BIG_HEIGHT = 2 + 8 * 2 + 1
MOVE_COLUMN = 22  # "123. Nxf7+ Qxf7+" and a gap
NAME_WIDTH = 17


def board_lines(board: chess.Board, black_at_bottom: bool = False) -> list[str]:
    """Eight rank lines (``8 r n b q k b n r``) and the file line, White at the bottom
    unless ``black_at_bottom``."""
    ranks = range(8) if black_at_bottom else range(7, -1, -1)
    files = list(range(7, -1, -1)) if black_at_bottom else list(range(8))
    lines = []
    for rank in ranks:
        cells = []
        for file in files:
            piece = board.piece_at(chess.square(file, rank))
            cells.append(piece.symbol() if piece else ".")
        lines.append(f"{rank + 1} " + " ".join(cells))
    lines.append("  " + " ".join(chess.FILE_NAMES[f] for f in files))
    return lines


def big_board_rows(board: chess.Board, black_at_bottom: bool = False) -> list[Row]:
    """The board with squares two rows high, shaded (styles ``class:light`` and
    ``class:dark``), the files below."""
    ranks = range(8) if black_at_bottom else range(7, -1, -1)
    files = list(range(7, -1, -1)) if black_at_bottom else list(range(8))
    rows: list[Row] = []
    for rank in ranks:
        top: Row = [("", f"{rank + 1} ")]
        bottom: Row = [("", "  ")]
        for file in files:
            square = chess.square(file, rank)
            piece = board.piece_at(square)
            dark = (chess.square_file(square) + chess.square_rank(square)) % 2 == 0  # a1 is
            shade = "class:dark" if dark else "class:light"
            symbol = piece.symbol() if piece else " "
            top.append((shade, symbol.center(BIG_CELL)))
            bottom.append((shade, " " * BIG_CELL))
        rows += [top, bottom]
    files_line = "".join(chess.FILE_NAMES[f].center(BIG_CELL) for f in files)
    rows.append([("", "  " + files_line)])
    return rows


def move_pairs(mine: MyGame) -> list[str]:
    """``1. e4 e5`` lines from the game's moves (SAN)."""
    game = mine.game
    number, black_first = game.start.fullmove_number, game.start.turn == chess.BLACK
    sans = [m.san for m in game.moves]
    lines = []
    if black_first and sans:
        lines.append(f"{number}. ... {sans.pop(0)}")
        number += 1
    for i in range(0, len(sans), 2):
        lines.append(f"{number}. " + " ".join(sans[i : i + 2]))
        number += 1
    return lines


def move_columns(pairs: list[str], width: int, rows: int) -> list[str]:
    """The newest ``pairs`` that fit ``rows`` rows of as many columns as ``width`` holds,
    read down each column (so the last move is at the bottom of the last one used)."""
    if rows <= 0:
        return []
    columns = max(1, width // MOVE_COLUMN)
    excess = len(pairs) - columns * rows
    shown = pairs[-(-excess // rows) * rows :] if excess > 0 else pairs  # whole columns go
    lines = []
    for row in range(min(rows, len(shown))):
        cells = shown[row::rows]
        lines.append("".join(f"{cell:<{MOVE_COLUMN}}" for cell in cells).rstrip())
    return lines


def is_mine(mine: MyGame) -> bool:
    return mine.relation in ("PW", "PB")


def my_color(mine: MyGame) -> chess.Color | None:
    return {"PW": chess.WHITE, "PB": chess.BLACK}.get(mine.relation)


@dataclass
class Watch:
    """A game on screen: the state's game, its clocks as shown, whether it is over, and
    whether the viewer turned the board round."""

    number: int
    mine: MyGame
    clocks: GameClocks = field(default_factory=GameClocks)
    over: bool = False
    flipped: bool = False

    @property
    def live(self) -> bool:
        return not self.over and self.mine.game.result is None

    def my_turn(self) -> bool:
        color = my_color(self.mine)
        return self.live and color is not None and self.mine.game.board.turn == color

    def clock_ms(self, color: str, now: float) -> int | None:
        """The clock shown: from DG_MSEC as the screen got it; the state's before any."""
        ms = self.clocks.ms(color, now)
        return self.mine.clock_ms(color) if ms is None and not self.over else ms

    def black_at_bottom(self, me: str) -> bool:
        game = self.mine.game
        mine = game.black.lower() == me.lower() and game.white.lower() != me.lower()
        return mine != self.flipped

    def board_pane(self, me: str, now: float, big: bool = False) -> list[Row]:
        """The board (``big``: :func:`big_board_rows`) between the clock lines, the
        player at the top's above, the side to move marked ``*`` (style ``class:turn``)."""
        game = self.mine.game
        bottom_black = self.black_at_bottom(me)
        top, bottom = ("W", game.white), ("B", game.black)
        if not bottom_black:
            top, bottom = bottom, top
        if big:
            rows = big_board_rows(game.board, black_at_bottom=bottom_black)
        else:
            rows = [[("", line)] for line in board_lines(game.board, bottom_black)]
        return [self._clock_line(now, *top), *rows, self._clock_line(now, *bottom)]

    def _clock_line(self, now: float, color: str, name: str) -> Row:
        turn = self.live and self.mine.game.board.turn == (color == "W")
        clock = format_clock(self.clock_ms(color, now))
        line = f"{'*' if turn else ' '}{name[:NAME_WIDTH]:<{NAME_WIDTH}} {clock:>8}"
        return [("class:turn" if turn else "", line)]

    def title(self) -> str:
        """``Game 7: Ann (1500) vs Ben (1400)  5 0 rated blitz``."""
        game = self.mine.game

        def player(name: str, rating: int) -> str:
            return f"{name} ({rating})" if rating else name

        head = f"Game {game.number}: {player(game.white, game.white_rating)}"
        head += f" vs {player(game.black, game.black_rating)}"
        if game.initial_minutes is not None:
            head += f"  {game.initial_minutes} {game.increment_seconds or 0}"
        kind = "rated" if game.rated else "unrated"
        return f"{head} {kind} {game.rating_type.lower()}".rstrip()

    def status(self) -> str:
        game = self.mine.game
        if game.result:
            return f"{game.result} {game.result_description or ''}".rstrip()
        if self.over:
            return "no longer shown by the server"
        return "White to move" if game.board.turn else "Black to move"

    def relation(self) -> str:
        if self.over or self.mine.game.result:
            return "over"
        return {"PW": "playing", "PB": "playing", "O": "observing"}.get(
            self.mine.relation, "examining"
        )


class Games:
    """The games on screen by number, and the one shown."""

    def __init__(self) -> None:
        self.live: dict[int, Watch] = {}
        self.shown: Watch | None = None

    def started(self, number: int, mine: MyGame) -> Watch:
        """A game to show (a new one of mine, or one I begin to observe): it is shown,
        unless I play another one that is still on."""
        watch = self.live[number] = Watch(number, mine)
        playing = self.shown is not None and self.shown.live and is_mine(self.shown.mine)
        if not playing or is_mine(mine):
            self.shown = watch
        return watch

    def result(self, number: int, now: float) -> Watch | None:
        """Game ``number`` ended: its clocks stop where they are now."""
        watch = self.live.get(number)
        if watch is not None:
            watch.clocks.stop(now)
        return watch

    def gone(self, number: int, now: float) -> None:
        """The server no longer shows game ``number`` to me (ended, unobserved): it
        stays on screen if it ended with a result and is shown, else the next is."""
        watch = self.live.pop(number, None)
        if watch is None:
            return
        watch.clocks.stop(now)
        watch.over = True
        if watch is self.shown and watch.mine.game.result is None and self.live:
            self.shown = self.playing() or list(self.live.values())[-1]

    def playing(self) -> Watch | None:
        """My game that is on, if I play one."""
        for watch in self.live.values():
            if is_mine(watch.mine) and watch.live:
                return watch
        return None

    def cycle(self) -> list[Watch]:
        """The games Ctrl-G steps through: those on, and the one shown if it ended."""
        games = sorted(self.live.values(), key=lambda w: w.number)
        if self.shown is not None and self.shown not in games:
            games.insert(0, self.shown)
        return games

    def next(self) -> None:
        games = self.cycle()
        if not games:
            return
        index = games.index(self.shown) if self.shown in games else -1
        self.shown = games[(index + 1) % len(games)]
