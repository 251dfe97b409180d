"""``icswire connect HOST [PORT]``: a full-screen terminal client (prompt_toolkit) that fits
an 80x24 terminal, so it works over SSH.

The screen: a header line; the board of my current game (or the one I observe) drawn with
letters, White at the bottom unless I play Black, each player's clock above or below it
ticking down; the game's move list beside it; a pane of tells, channel chat and other
server text; and an input line. Whatever is typed is sent to the server as it is
(commands and moves alike); ``quit``, Ctrl-C or Ctrl-D leaves.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
from collections import deque
from typing import Any

import chess
from prompt_toolkit.application import Application
from prompt_toolkit.buffer import Buffer
from prompt_toolkit.data_structures import Point
from prompt_toolkit.document import Document
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent
from prompt_toolkit.layout import HSplit, Layout, VSplit, Window
from prompt_toolkit.layout.controls import BufferControl, FormattedTextControl
from prompt_toolkit.layout.processors import BeforeInput

from icswire.client.connection import Connection
from icswire.client.dialects import connect
from icswire.client.state import MyGame
from icswire.protocol.datagrams import DG
from icswire.protocol.events import Text

BOARD_WIDTH = 28
BOARD_HEIGHT = 11  # a clock line, 8 ranks, the files, a clock line
SCROLLBACK = 500
REFRESH = 0.25  # seconds: clocks are redrawn at least this often


def format_clock(ms: int | None) -> str:
    """``4:59`` / ``-0:03``; ``-:--`` when there is no clock yet."""
    if ms is None:
        return "-:--"
    sign = "-" if ms < 0 else ""
    seconds = abs(ms) // 1000
    hours, rest = divmod(seconds, 3600)
    minutes, seconds = divmod(rest, 60)
    if hours:
        return f"{sign}{hours}:{minutes:02d}:{seconds:02d}"
    return f"{sign}{minutes}:{seconds:02d}"


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


def move_list(mine: MyGame) -> list[str]:
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


def describe(event: Any) -> str | None:
    """The line the text pane shows for an event, or None."""
    if isinstance(event, Text):
        return event.text if event.text.strip() else None
    dg = getattr(event, "dg", None)
    if dg == DG.PERSONAL_TELL:
        return f"{event.playername} tells you: {event.text}"
    if dg == DG.CHANNEL_TELL:
        return f"{event.playername}({event.channel}): {event.text}"
    if dg == DG.SHOUT:
        return f"{event.playername} shouts: {event.text}"
    if dg == DG.KIBITZ:
        verb = "kibitzes" if event.kibitz else "whispers"
        return f"{event.playername}[{event.gamenumber}] {verb}: {event.text}"
    if dg == DG.MY_GAME_RESULT:
        return f"{{Game {event.gamenumber} {event.description}}} {event.score}"
    return None


class TerminalClient:
    """The screen for one :class:`Connection`; :meth:`run` until the user quits."""

    def __init__(self, connection: Connection, label: str = "") -> None:
        self.connection = connection
        self.label = label
        self.lines: deque[str] = deque(maxlen=SCROLLBACK)
        self.current: int | None = None  # the game shown
        self.input = Buffer(multiline=False, accept_handler=self._accept)
        keys = KeyBindings()
        keys.add("c-c")(self._quit)
        keys.add("c-d")(self._quit)
        text = FormattedTextControl(self._text_pane, get_cursor_position=self._last_line)
        self.app: Application[None] = Application(
            layout=Layout(
                HSplit(
                    [
                        Window(FormattedTextControl(self._header), height=1, style="reverse"),
                        VSplit(
                            [
                                Window(
                                    FormattedTextControl(self._board_pane),
                                    width=BOARD_WIDTH,
                                    height=BOARD_HEIGHT,
                                ),
                                Window(FormattedTextControl(self._moves_pane), height=BOARD_HEIGHT),
                            ]
                        ),
                        Window(height=1, char="-"),
                        Window(text, wrap_lines=True),
                        Window(
                            BufferControl(self.input, input_processors=[BeforeInput("> ")]),
                            height=1,
                        ),
                    ]
                ),
                focused_element=self.input,
            ),
            key_bindings=keys,
            full_screen=True,
            refresh_interval=REFRESH,
        )

    # -- what is shown ---------------------------------------------------------------

    def game(self) -> MyGame | None:
        """My game if I play one, else the game I observe or examine that started last,
        else the one that ended last."""
        games = self.connection.state.my_games
        played = [g for g in games.values() if g.relation in ("PW", "PB")]
        if played:
            return played[-1]
        if self.current in games:
            return games[self.current]
        if games:
            return list(games.values())[-1]
        finished = self.connection.state.finished
        return finished[-1] if finished else None

    def _header(self) -> str:
        mine = self.game()
        where = f"{self.connection.name} @ {self.label}"
        if mine is None:
            return f" icswire  {where}  (no game: try `observe N`, `match NAME 5 0`)"
        relation = {"PW": "playing", "PB": "playing", "O": "observing"}.get(
            mine.relation, "examining"
        )
        return f" icswire  {where}  game {mine.game.number} ({relation})"

    def _board_pane(self) -> str:
        mine = self.game()
        if mine is None:
            return "\n".join(board_lines(chess.Board()))
        game = mine.game
        me = self.connection.name.lower()
        flipped = game.black.lower() == me and game.white.lower() != me
        top, bottom = (("W", game.white), ("B", game.black))[:: 1 if flipped else -1]
        lines = [self._clock_line(mine, *top)]
        lines += board_lines(game.board, black_at_bottom=flipped)
        lines.append(self._clock_line(mine, *bottom))
        return "\n".join(lines)

    def _clock_line(self, mine: MyGame, color: str, name: str) -> str:
        turn = mine.game.board.turn == (color == "W") and mine.game.result is None
        mark = "*" if turn else " "
        return f"{mark}{name[:17]:<17} {format_clock(mine.clock_ms(color)):>8}"

    def _moves_pane(self) -> str:
        mine = self.game()
        if mine is None:
            return ""
        game = mine.game
        head = f"Game {game.number}: {game.white} vs {game.black}"
        if game.initial_minutes is not None:
            head += f"  {game.initial_minutes} {game.increment_seconds or 0}"
        status = game.result or ("White to move" if game.board.turn else "Black to move")
        if game.result and game.result_description:
            status += f" {game.result_description}"
        rows = BOARD_HEIGHT - 2
        lines = move_list(mine)[-2 * rows :]
        left, right = lines[:rows], lines[rows:]
        columns = [f"{a:<24}{b}" for a, b in itertools.zip_longest(left, right, fillvalue="")]
        return "\n".join([head[:52], status[:52], *columns])

    def _text_pane(self) -> str:
        return "\n".join(self.lines)

    def _last_line(self) -> Point:
        """The text pane keeps this "cursor" in view: it scrolls to the newest line."""
        return Point(x=0, y=max(0, len(self.lines) - 1))

    # -- input and events --------------------------------------------------------------

    def _accept(self, buffer: Buffer) -> bool:
        line = buffer.text.strip()
        buffer.set_document(Document(""))
        if not line:
            return True
        self.lines.append(f"> {line}")
        if line.lower() in ("quit", "exit"):
            self.app.exit()
            return True
        self.app.create_background_task(self.connection.send(line))
        return True

    def _quit(self, event: KeyPressEvent) -> None:
        if event.key_sequence[0].key == "c-d" and self.input.text:
            self.input.delete()
            return
        self.app.exit()

    async def _follow(self) -> None:
        async for event in self.connection.events():
            dg = getattr(event, "dg", None)
            if dg in (DG.MY_GAME_STARTED, DG.STARTED_OBSERVING):
                self.current = getattr(event, "gamenumber", None)
            line = describe(event)
            if line is not None:
                self.lines.append(line)
            self.app.invalidate()
        self.lines.append("(the connection closed)")
        if self.app.is_running:
            self.app.exit()

    async def run(self) -> None:
        follow = asyncio.get_running_loop().create_task(self._follow())
        try:
            await self.app.run_async()
        finally:
            follow.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await follow


async def run_terminal(host: str, port: int, user: str, password: str | None) -> None:
    """Log in and run the screen until the user quits."""
    async with connect(host, port, user, password) as connection:
        await TerminalClient(connection, f"{host}:{port}").run()
