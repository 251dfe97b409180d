"""A browser user watches a game between two XBoards (issue 25): XBoard A challenges
XBoard B (both zippy, playing fairymax: tests/interop/test_xboard.py's helpers), the web
user picks the game from the Watch tab's list, and its board follows the moves to the end:
the page's moves are the game XBoard saved, and the page shows its result."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path

import chess
import pytest

from tests.interop.test_xboard import (
    FAIRYMAX,
    GAME_LIMIT,
    RESULTS,
    START_LIMIT,
    XBOARD,
    XVFB,
    XBoard,
    display,
    running,
)
from tests.web.conftest import WebServer, WebUser, wait_for

__all__ = ["display"]  # the Xvfb fixture, used here

pytestmark = pytest.mark.skipif(
    None in (XBOARD, XVFB, FAIRYMAX),
    reason="watching XBoards needs xboard, Xvfb and fairymax "
    "(Debian: apt-get install xboard xvfb fairymax)",
)


@pytest.fixture
def xboards(tmp_path: Path, display: str, web_server: WebServer) -> Iterator[tuple[XBoard, XBoard]]:
    pair = XBoard("A", tmp_path / "xboard-a"), XBoard("B", tmp_path / "xboard-b")
    with running(pair, display, web_server.port):
        yield pair


def _page_moves(user: WebUser) -> list[str]:
    return [text.strip() for text in user.page.locator(".gv-moves .mv").all_inner_texts()]


def test_a_browser_user_watches_two_xboards_play(
    web_user: Callable[..., WebUser], xboards: tuple[XBoard, XBoard], web_server: WebServer
) -> None:
    a, b = xboards

    def explain() -> str:
        return "\n".join([a.explain(), b.explain(), web_server.tail()])

    wait_for("both XBoards to log in", lambda: a.ready() and b.ready(), START_LIMIT, explain)
    watcher = web_user("watcher")
    watcher.login_guest()
    watcher.tab("watch")
    a.send(f"match {b.name} 1 0")
    row = watcher.page.locator(".games-list .game-row").first
    row.wait_for(timeout=30000)
    assert a.name in row.inner_text() and b.name in row.inner_text(), row.inner_text()
    watcher.shot("games-list")
    row.locator("button.observe").click()
    watcher.page.locator(".gv-board [data-square]").first.wait_for()

    wait_for("six moves on the page", lambda: len(_page_moves(watcher)) >= 6, 60, explain)
    watcher.shot("watching")
    # a kibitz from the page reaches the players
    number = watcher.page.locator('.board-tabs [data-tab^="game:"]').get_attribute("data-tab")
    watcher.tab("talk")
    watcher.page.click(f'.chat-tabs [data-tab="{number}"]')
    watcher.page.locator(".chat-panel:visible .chat-input").fill("nice game")
    watcher.page.locator(".chat-panel:visible .chat-input").press("Enter")
    kibitzed = rf"{watcher.name}(?:\([^)]*\))*\[\d+\] kibitzes: nice game"
    wait_for("the kibitz", lambda: re.search(kibitzed, a.received()), 15, explain)
    board = chess.Board()
    for san in _page_moves(watcher):
        board.push_san(san)  # each move the page shows is legal where it stands

    wait_for("the game to end", lambda: a.finished() >= 1, GAME_LIMIT, explain)
    saved = a.games()[0]
    result = saved.headers["Result"]
    assert result in RESULTS
    watcher.page.locator(".gv-banner").get_by_text(result).wait_for()
    expected = []
    replay = saved.board()
    for move in saved.mainline_moves():
        expected.append(replay.san(move))
        replay.push(move)
    wait_for(
        "the page to show every move XBoard saved",
        lambda: _page_moves(watcher) == expected,
        15,
        lambda: f"page: {_page_moves(watcher)}\nXBoard: {expected}\n{explain()}",
    )
    watcher.shot("game-over")
