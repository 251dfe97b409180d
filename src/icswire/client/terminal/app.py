"""The screen and what drives it: :class:`TerminalClient` lays the panes out for the
terminal's size, binds the keys, and follows the connection's events (the state is kept by
the connection; the screen keeps its own clocks, tabs, history and premoves).

Rows, top to bottom: the header (me, the game shown, the games to switch between); the
board with its clocks and the move list, while there is a game to show; the tab bar; the
text of the tab shown; a status line (premoves, completions, notices) when there is one;
the input line. From 116 columns the seek list stands on the right.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from pathlib import Path
from typing import Any

from prompt_toolkit.application import Application
from prompt_toolkit.buffer import Buffer
from prompt_toolkit.document import Document
from prompt_toolkit.filters import Condition
from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent
from prompt_toolkit.layout import ConditionalContainer, HSplit, Layout, VSplit, Window
from prompt_toolkit.layout.controls import BufferControl
from prompt_toolkit.layout.processors import BeforeInput

from icswire.client.connection import Connection
from icswire.client.dialects import connect
from icswire.client.terminal.completion import Completer
from icswire.client.terminal.games import (
    BIG_HEIGHT,
    BIG_WIDTH,
    BOARD_HEIGHT,
    BOARD_WIDTH,
    Games,
    move_columns,
    move_pairs,
)
from icswire.client.terminal.history import InputHistory, default_path, load, save
from icswire.client.terminal.lines import lines_of, names_in, result_line, result_text_game, told
from icswire.client.terminal.premove import Premoves, looks_like_move
from icswire.client.terminal.screen import STYLE, Lines, Pane, fit, plain
from icswire.client.terminal.seeks import seek_lines
from icswire.client.terminal.tabs import CONSOLE, SEEKS, Tabs
from icswire.protocol.datagrams import DG

REFRESH = 0.25  # seconds: clocks are redrawn at least this often
WIDE = 120  # columns from which the seek list stands on the right
SIDE_WIDTH = 44
BIG_ROWS, BIG_COLUMNS = 40, 100  # the size from which the board is the big one
WHEEL_ROWS = 3
QUIT = ("quit", "exit")

KEYS = """\
Keys:
  Enter            send the line (a move typed on the opponent's turn is a premove)
  Up / Down        input history (with text typed: the lines that begin with it)
  Tab              complete a command word or a player's name (again: the next one)
  PageUp/PageDown  scroll the text pane (the mouse wheel too); Enter goes back down
  Alt-1..9         show tab 1..9; Alt-Left/Right or Ctrl-P/Ctrl-N: previous/next tab
  Ctrl-G           show the next game (of those I play, observe or examine)
  Ctrl-F           turn the board shown round
  Ctrl-X           cancel my premoves
  F2               hide or show the board (the text pane takes its rows)
  F1               this list;  Ctrl-L  redraw the screen
  quit, Ctrl-C, Ctrl-D (on an empty line)  leave"""


class TerminalClient:
    """The screen for one :class:`Connection`; :meth:`run` until the user quits."""

    def __init__(
        self,
        connection: Connection,
        label: str = "",
        history_file: Path | None = None,
        bell: bool = True,
    ) -> None:
        self.connection = connection
        self.label = label
        self.bell = bell
        self.history_file = history_file
        self.history = load(history_file) if history_file is not None else InputHistory()
        self.games = Games()
        self.tabs = Tabs()
        self.premoves = Premoves()
        self.completer = Completer()
        self.seen: set[str] = set()  # names met in this session, for completion
        self.results: set[int] = set()  # games whose result line the server sent as text
        self.choices: list[str] = []  # what the last Tab could complete to
        self.notice = ""
        self._premove_ply = -1  # the position (ply) a premove was last sent at
        self._setting = False  # the input line is being set by a key, not typed
        self.board_hidden = False  # F2: the text pane takes the board's rows
        self.input = Buffer(multiline=False, accept_handler=self._accept)
        self.input.on_text_changed += self._typed
        self.app: Application[None] = Application(
            layout=Layout(self._layout(), focused_element=self.input),
            key_bindings=self._keys(),
            style=STYLE,
            full_screen=True,
            mouse_support=True,
            refresh_interval=REFRESH,
        )

    # -- layout ------------------------------------------------------------------------

    def _layout(self) -> HSplit:
        has_game = Condition(lambda: self.games.shown is not None and not self.board_hidden)
        wide = Condition(lambda: self.app.output.get_size().columns >= WIDE)
        has_status = Condition(lambda: bool(self._status()))
        game_row = VSplit(
            [
                Window(Pane(self._board_pane), width=lambda: self._game_size()[0]),
                Window(Pane(self._moves_pane)),
            ],
            height=lambda: self._game_size()[1],
        )
        middle = HSplit(
            [
                ConditionalContainer(game_row, filter=has_game),
                Window(Pane(self._tab_bar), height=1, style="class:bar"),
                Window(Pane(self._text_pane, wheel=self._scroll)),
            ]
        )
        side = Window(Pane(self._side_pane), width=SIDE_WIDTH)
        return HSplit(
            [
                Window(Pane(self._header), height=1, style="class:header"),
                VSplit(
                    [
                        middle,
                        ConditionalContainer(Window(width=1, char="|"), filter=wide),
                        ConditionalContainer(side, filter=wide),
                    ]
                ),
                ConditionalContainer(
                    Window(Pane(self._status_pane), height=1, style="class:status"),
                    filter=has_status,
                ),
                Window(BufferControl(self.input, input_processors=[BeforeInput("> ")]), height=1),
            ]
        )

    # -- what is shown -----------------------------------------------------------------

    def _header(self, width: int, height: int) -> Lines:
        me = f" icswire  {self.connection.name}@{self.label}"
        watch = self.games.shown
        if watch is None:
            hint = "no game: observe N, match NAME 5 0, seek 5 0"
            return plain([fit([me, hint, "F1: keys"], width)])
        game = watch.mine.game
        what = f"game {game.number} {game.white}-{game.black} ({watch.relation()})"
        if game.result:
            what += f" {game.result}"
        others = self.games.cycle()
        switch = ""
        if len(others) > 1:
            numbers = " ".join(f"[{w.number}]" if w is watch else str(w.number) for w in others)
            switch = f"games {numbers} (Ctrl-G)"
        playing = self.games.playing()
        alert = ""
        if playing is not None and playing is not watch and playing.my_turn():
            alert = f"YOUR MOVE in game {playing.number}"
        return plain([fit([me, what, alert, switch], width)])

    def _game_size(self) -> tuple[int, int]:
        return (BIG_WIDTH, BIG_HEIGHT) if self._big() else (BOARD_WIDTH, BOARD_HEIGHT)

    def _big(self) -> bool:
        """Room for the big board: it leaves the text pane as many rows as at 80x24."""
        size = self.app.output.get_size()
        return size.rows >= BIG_ROWS and size.columns >= BIG_COLUMNS

    def _board_pane(self, width: int, height: int) -> Lines:
        watch = self.games.shown
        if watch is None:
            return []
        return watch.board_pane(self.connection.name, time.monotonic(), self._big())

    def _moves_pane(self, width: int, height: int) -> Lines:
        watch = self.games.shown
        if watch is None:
            return []
        head = [watch.title()[:width], watch.status()[:width]]
        if self.premoves and watch is self.games.playing():
            head.append(f"premove: {' '.join(self.premoves.moves)} (Ctrl-X cancels)"[:width])
        pairs = move_pairs(watch.mine)
        return plain(head + move_columns(pairs, width, height - len(head)))

    def _tab_bar(self, width: int, height: int) -> Lines:
        fragments: StyleAndTextTuples = []
        used = 0
        for label, shown, unread in self.tabs.labels():
            text = f" {label}{'*' if unread else ''} "
            style = "class:bar.shown" if shown else "class:bar.unread" if unread else ""
            fragments.append((style, text))
            used += len(text)
        below = self.tabs.shown.text.below()
        if below and self.tabs.shown.name != SEEKS:
            more = f" {below} more below (PageDown) "
            if used + len(more) <= width:
                fragments.append(("", " " * (width - used - len(more))))
                fragments.append(("bold", more))
        return [fragments]

    def _text_pane(self, width: int, height: int) -> Lines:
        if self.tabs.shown.name == SEEKS:
            return plain(seek_lines(self.connection.state.seeks.values())[:height])
        return plain(self.tabs.shown.text.view(width, height))

    def _side_pane(self, width: int, height: int) -> Lines:
        return plain(
            line[:width] for line in seek_lines(self.connection.state.seeks.values())[:height]
        )

    def _status(self) -> str:
        parts = []
        if self.choices:
            parts.append(" ".join(self.choices))
        if self.notice:
            parts.append(self.notice)
        return "  |  ".join(parts)

    def _status_pane(self, width: int, height: int) -> Lines:
        return plain([self._status()[:width]])

    def say(self, line: str, tab: str = CONSOLE) -> None:
        self.tabs.add(tab, line)

    # -- keys --------------------------------------------------------------------------

    def _keys(self) -> KeyBindings:
        keys = KeyBindings()
        keys.add("c-c")(self._quit)
        keys.add("c-d")(self._quit)
        keys.add("up")(lambda e: self._browse(older=True))
        keys.add("down")(lambda e: self._browse(older=False))
        keys.add("tab")(lambda e: self._complete())
        keys.add("pageup")(lambda e: self._page(up=True))
        keys.add("pagedown")(lambda e: self._page(up=False))
        keys.add("escape", "left")(lambda e: self.tabs.step(-1))
        keys.add("escape", "right")(lambda e: self.tabs.step(1))
        keys.add("c-p")(lambda e: self.tabs.step(-1))
        keys.add("c-n")(lambda e: self.tabs.step(1))
        for digit in range(1, 10):
            keys.add("escape", str(digit))(lambda e, i=digit - 1: self.tabs.show(i))
        keys.add("c-g")(lambda e: self.games.next())
        keys.add("c-f")(lambda e: self._flip())
        keys.add("c-x")(lambda e: self._cancel_premoves())
        keys.add("f1")(lambda e: self._show_keys())
        keys.add("c-l")(lambda e: self.app.renderer.clear())
        keys.add("f2")(lambda e: self._toggle_board())
        return keys

    def _quit(self, event: KeyPressEvent) -> None:
        if event.key_sequence[0].key == "c-d" and self.input.text:
            self.input.delete()
            return
        self.app.exit()

    def _browse(self, older: bool) -> None:
        line = self.history.older(self.input.text) if older else self.history.newer()
        if line is not None:
            self._set_input(line)

    def _set_input(self, text: str, cursor: int | None = None) -> None:
        position = len(text) if cursor is None else cursor
        self._setting = True
        try:
            self.input.set_document(Document(text, position), bypass_readonly=True)
        finally:
            self._setting = False

    def _typed(self, buffer: Buffer) -> None:
        """Text changed by hand: the completion list shown is stale, and Up searches
        the history from the newest line again, for what is typed now."""
        if not self._setting:
            self.choices = []
            self.history.reset()

    def _complete(self) -> None:
        document = self.input.document
        names = self._names()
        done = self.completer.complete(document.text, document.cursor_position, names)
        if done is None:
            self.choices = []
            return
        self._set_input(done.text, done.cursor)
        self.choices = done.choices

    def _names(self) -> set[str]:
        """Names to complete: the players online, and those met this session."""
        return set(self.connection.state.players) | self.seen

    def _page(self, up: bool) -> None:
        text = self.tabs.shown.text
        text.page_up() if up else text.page_down()

    def _scroll(self, rows: int) -> None:
        self.tabs.shown.text.scroll(rows)
        self.app.invalidate()

    def _flip(self) -> None:
        if self.games.shown is not None:
            self.games.shown.flipped = not self.games.shown.flipped

    def _toggle_board(self) -> None:
        self.board_hidden = not self.board_hidden

    def _cancel_premoves(self) -> None:
        dropped = self.premoves.cancel()
        if dropped:
            self.notice = f"premove {' '.join(dropped)} cancelled"

    def _show_keys(self) -> None:
        self.tabs.show(0)
        for line in KEYS.splitlines():
            self.say(line)
        self.tabs.shown.text.bottom()

    # -- input -------------------------------------------------------------------------

    def _accept(self, buffer: Buffer) -> bool:
        line = buffer.text.strip()
        buffer.set_document(Document(""))
        self.history.reset()
        self.choices = []
        self.tabs.shown.text.bottom()
        if not line:
            return True
        self.notice = ""
        self.history.add(line)
        if line.lower() in QUIT:
            self.app.exit()
            return True
        playing = self.games.playing()
        if playing is not None and not playing.my_turn() and looks_like_move(line):
            self.premoves.add(line)
            self.say(f"> {line} (premove)")
            return True
        self.say(f"> {line}")
        mine = told(line, self.connection.name)
        if mine is not None:
            self.say(mine[1], mine[0])
        self.seen.update(w for w in line.split()[1:2] if w.isalnum() and w[0].isalpha())
        self._send(line)
        return True

    def _send(self, line: str) -> None:
        self.app.create_background_task(self.connection.send(line))

    # -- events ------------------------------------------------------------------------

    def take(self, event: Any) -> None:
        """One event of the connection, in order (the state has taken it already)."""
        now = time.monotonic()
        self.seen.update(names_in(event))
        dg = getattr(event, "dg", None)
        number = getattr(event, "gamenumber", None)
        state = self.connection.state
        if dg in (DG.MY_GAME_STARTED, DG.STARTED_OBSERVING) and number is not None:
            self.results.discard(number)
            mine = state.my_games.get(number)
            if mine is not None:
                self.games.started(number, mine)
        elif dg == DG.MSEC:
            watch = self.games.live.get(event.gamenumber)
            if watch is not None:
                watch.clocks.set(event.color, event.msec, event.running, now)
        elif dg == DG.MY_GAME_RESULT:
            self.games.result(event.gamenumber, now)
            if self.games.playing() is None:
                self.premoves.cancel()
            if event.gamenumber not in self.results:
                self.say(result_line(event))
        elif dg == DG.STOP_OBSERVING or (dg == DG.MY_RELATION_TO_GAME and event.symbol == "X"):
            self.games.gone(event.gamenumber, now)
        elif dg == DG.MATCH and event.receiver.lower() == self.connection.name.lower():
            self.ring()
        elif dg == DG.SEND_MOVES:
            playing = self.games.playing()
            if playing is not None and playing.number == event.gamenumber and playing.my_turn():
                self.ring()
        if (game := result_text_game(event)) is not None:
            self.results.add(game)
        for tab, line in lines_of(event):
            self.say(line, tab)
        self._premove()

    def _premove(self) -> None:
        """My turn in my game: send the first premove, if it is legal now."""
        playing = self.games.playing()
        if playing is None or not self.premoves or not playing.my_turn():
            return
        board = playing.mine.game.board
        if board.ply() == self._premove_ply:
            return  # sent at this position already; the server's answer is on its way
        move, why = self.premoves.take(board)
        if move is None:
            self.notice = why or ""
            self.ring()
            return
        self._premove_ply = board.ply()
        san = board.san(move)
        self.say(f"> {san} (premove sent)")
        self._send(san)

    def ring(self) -> None:
        if self.bell and self.app.is_running:
            self.app.output.bell()

    async def _follow(self) -> None:
        async for event in self.connection.events():
            self.take(event)
            self.app.invalidate()
        self.say("(the connection closed)")
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
            if self.history_file is not None:
                save(self.history, self.history_file)


async def run_terminal(
    host: str,
    port: int,
    user: str,
    password: str | None,
    history_file: Path | None = None,
    bell: bool = True,
) -> None:
    """Log in and run the screen until the user quits; the input history is kept in
    ``history_file`` (by default :func:`~.history.default_path`)."""
    async with connect(host, port, user, password) as connection:
        path = history_file if history_file is not None else default_path()
        await TerminalClient(connection, f"{host}:{port}", path, bell).run()
