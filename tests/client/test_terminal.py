"""The terminal client's parts that need no terminal: clocks, the text pane's scrolling,
tabs, input history, completion, premoves, the board and move list, what an event shows.
(tests/client/test_terminal_tmux.py drives the whole client in tmux.)"""

from __future__ import annotations

from pathlib import Path

import chess
import pytest

from icswire.boards.game import Game
from icswire.client.state import MyGame
from icswire.client.terminal import history
from icswire.client.terminal.app import fit
from icswire.client.terminal.clocks import GameClocks, format_clock
from icswire.client.terminal.completion import COMMANDS, Completer, candidates, common_prefix
from icswire.client.terminal.games import Games, board_lines, move_columns, move_pairs
from icswire.client.terminal.lines import lines_of, result_text_game, told
from icswire.client.terminal.premove import Premoves, looks_like_move, parse
from icswire.client.terminal.scrollback import Scrollback, wrap
from icswire.client.terminal.tabs import Tabs
from icswire.protocol import dgrecords
from icswire.protocol.events import Text
from icswire.server.app import Server
from icswire.server.core.storage.store import Store


def test_clock_format() -> None:
    assert [format_clock(ms) for ms in (None, 299_400, 3_725_000, -2_500)] == [
        "-:--",
        "4:59",
        "1:02:05",
        "-0:02",
    ]


def test_clocks_run_from_the_last_report_and_stop_where_they_are() -> None:
    clocks = GameClocks()
    clocks.set("W", 299_489, True, now=100.0)
    clocks.set("B", 298_799, False, now=100.0)
    assert clocks.ms("W", 100.61) == 298_879 and clocks.ms("B", 105.0) == 298_799
    clocks.stop(now=100.61)  # the game ends 0.61 s after White's clock began to run
    assert clocks.ms("W", 200.0) == 298_879 and not clocks.running("W")
    clocks.set("W", 299_489, False, now=101.0)  # a late report changes nothing now
    assert clocks.ms("W", 300.0) == 298_879
    assert GameClocks().ms("W", 1.0) is None


def test_scrollback_pages_and_keeps_its_place() -> None:
    text = Scrollback()
    for n in range(30):
        text.append(f"line {n}")
    assert text.view(20, 5) == [f"line {n}" for n in range(25, 30)]
    text.page_up()
    assert text.view(20, 5) == [f"line {n}" for n in range(21, 26)] and text.below() == 4
    text.append("new")  # a new line: the view stays where the reader is
    assert text.view(20, 5)[0] == "line 21" and text.below() == 5
    for _ in range(20):
        text.page_up()
    assert text.view(20, 5)[0] == "line 0"  # not past the oldest
    for _ in range(20):
        text.page_down()
    assert text.below() == 0 and text.view(20, 5)[-1] == "new"
    text.scroll(3)
    text.bottom()
    assert text.below() == 0


def test_scrollback_wraps_long_lines() -> None:
    assert wrap("abcdefgh", 3) == ["abc", "def", "gh"] and wrap("", 3) == [""]
    text = Scrollback()
    text.append("x" * 25)
    text.append("end")
    assert text.view(10, 3) == ["x" * 10, "x" * 5, "end"]
    text.scroll(10)
    assert text.view(10, 3) == ["x" * 10, "x" * 10, "x" * 5]


def test_tabs_mark_what_came_while_not_shown() -> None:
    tabs = Tabs()
    tabs.add("tells", "Ann tells you: hi")
    tabs.add("ch7", "Ben(7): hello")
    assert [label for label, _, unread in tabs.labels() if unread] == ["2:tells", "4:ch7"]
    tabs.show(3)
    assert tabs.shown.name == "ch7" and not tabs.shown.unread
    tabs.step(1)
    assert tabs.current == 0
    tabs.show(9)  # no such tab
    assert tabs.current == 0


def test_history_walks_back_and_searches_by_what_is_typed(tmp_path: Path) -> None:
    lines = history.InputHistory()
    for line in ("finger Ann", "who", "finger Ben", "who", "who"):
        lines.add(line)
    assert lines.lines == ["finger Ann", "who", "finger Ben", "who"]
    assert lines.older("") == "who" and lines.older("who") == "finger Ben"
    assert lines.newer() == "who" and lines.newer() == "" and lines.newer() is None
    lines.reset()
    assert lines.older("fi") == "finger Ben"
    assert lines.older("finger Ben") == "finger Ann" and lines.older("finger Ann") is None
    assert lines.newer() == "finger Ben" and lines.newer() == "fi"

    path = tmp_path / "state" / "history"
    lines.add("password old new")
    history.save(lines, path)
    kept = history.load(path)
    assert kept.lines == ["finger Ann", "who", "finger Ben", "who"]
    assert history.load(tmp_path / "none").lines == []
    small = history.InputHistory(limit=2)
    for line in "abc":
        small.add(line)
    assert small.lines == ["b", "c"]


def test_completion_of_commands_and_names() -> None:
    names = ["Ben", "Bert", "Ann"]
    assert candidates("obs", 3, names) == ["observe"]
    assert candidates("help unob", 9, names) == ["unobserve"]
    assert candidates("tell b", 6, names) == ["Ben", "Bert"]
    assert common_prefix(["Bert", "ben"]) == "Be"
    completer = Completer()
    one = completer.complete("obs", 3, names)
    assert one is not None and (one.text, one.cursor, one.choices) == ("observe ", 8, [])
    first = completer.complete("tell b hi", 6, names)
    assert first is not None and first.text == "tell Be hi" and first.choices == ["Ben", "Bert"]
    second = completer.complete(first.text, first.cursor, names)
    assert second is not None and second.text == "tell Ben hi"
    third = completer.complete(second.text, second.cursor, names)
    assert third is not None and third.text == "tell Bert hi"
    again = completer.complete(third.text, third.cursor, names)
    assert again is not None and again.text == "tell Ben hi"
    assert completer.complete("tell zz", 7, names) is None


def test_what_a_premove_is_and_when_it_goes() -> None:
    for move in ("e4", "Nf3", "exd5", "e8=Q+", "O-O", "0-0-0", "e2e4", "e2-e4", "e7e8q", "P@e4"):
        assert looks_like_move(move), move
    for command in ("who", "observe 1", "tell Ben e4", "draw", "a", "e9"):
        assert not looks_like_move(command), command
    board = chess.Board()
    assert parse(board, "e2-e4") == chess.Move.from_uci("e2e4")
    assert parse(board, "nf3") == chess.Move.from_uci("g1f3")
    with pytest.raises(ValueError):
        parse(board, "e2e5")

    queue = Premoves()
    queue.add("e4")
    queue.add("Nf3")
    move, why = queue.take(board)
    assert move == chess.Move.from_uci("e2e4") and why is None and queue.moves == ["Nf3"]
    board.push(move)
    board.push_san("e5")
    assert queue.take(board) == (chess.Move.from_uci("g1f3"), None)
    queue.add("Qh5")
    queue.add("Qxf7")
    blocked = chess.Board()
    move, why = queue.take(blocked)
    assert move is None and why == "premove Qh5 Qxf7 dropped: Qh5 is not legal"
    assert not queue and queue.take(blocked) == (None, None)
    queue.add("e4")
    assert queue.cancel() == ["e4"] and not queue


def test_board_and_move_list() -> None:
    board = chess.Board()
    board.push_uci("e2e4")
    lines = board_lines(board, black_at_bottom=True)
    assert lines[0] == "1 R N B K Q B N R" and lines[3] == "4 . . . P . . . ."
    assert lines[8] == "  h g f e d c b a"
    game = Game(1)
    for san in ("e4", "e5", "Nf3", "Nc6", "Bb5"):
        game.push(san, None)
    pairs = move_pairs(MyGame(game))
    assert pairs == ["1. e4 e5", "2. Nf3 Nc6", "3. Bb5"]
    assert move_columns(pairs, 50, 2) == ["1. e4 e5              3. Bb5", "2. Nf3 Nc6"]
    # too many for the room: whole columns of the oldest go
    assert move_columns(pairs, 30, 2) == ["3. Bb5"]
    assert move_columns(pairs, 30, 0) == []


def test_games_shown_switched_and_ended() -> None:
    games = Games()
    one = games.started(1, MyGame(Game(1, "Ann", "Ben"), "O"))
    two = games.started(2, MyGame(Game(2, "Cid", "Dan"), "O"))
    assert games.shown is two and games.cycle() == [one, two]
    games.next()
    assert games.shown is one
    mine = games.started(3, MyGame(Game(3, "Me", "Ben"), "PW"))
    games.started(4, MyGame(Game(4, "Eve", "Fay"), "O"))
    assert games.shown is mine  # a game I begin to observe does not hide the one I play
    games.gone(2, now=1.0)
    assert two.over and games.cycle() == [one, mine, games.live[4]]
    one.mine.game.result = "1-0"
    games.shown = one
    games.gone(1, now=1.0)
    assert games.shown is one and games.cycle()[0] is one  # ended with a result: it stays


def test_lines_of_events() -> None:
    assert lines_of(Text("")) == [] and lines_of(Text("hello")) == [("console", "hello")]
    tell = dgrecords.PersonalTell("Ann", "", "hi there", 1)
    line = "Ann tells you: hi there"
    assert lines_of(tell) == [("console", line), ("tells", line)]
    assert result_text_game(Text("{Game 12 (Ann vs. Ben) Ann resigns} 0-1")) == 12
    assert result_text_game(Text("Game 12 is over")) is None
    assert told("t Ben see you", "Me") == ("tells", "Me -> Ben: see you")
    assert told("tell 7 hello all", "Me") == ("ch7", "Me(7): hello all")
    assert told("who", "Me") is None


def test_fit_leaves_out_the_last_parts_first() -> None:
    assert fit(["one", "two", "three"], 80) == "one  two  three"
    assert fit(["one", "two", "three"], 9) == "one  two"
    assert fit(["a long first part"], 6) == "a long"


def test_every_command_a_player_types_is_completed(tmp_path: Path) -> None:
    """The server's commands, but the administrators' and those only programs send."""
    store = Store(f"sqlite:///{tmp_path / 'commands.sqlite3'}")
    try:
        commands = set(Server(store, "127.0.0.1", 0).core.registry.commands)
    finally:
        store.close()
    administrators = {
        "addplayer", "adjrequests", "adjudicate", "asetadmin", "asetemail", "asetpasswd",
        "cnewse", "cnewsf", "cnewsi", "cnewst", "nuke", "remplayer",
    }  # fmt: skip
    assert commands - set(COMMANDS) == administrators | {"i", "set-2"}
