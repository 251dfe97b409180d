"""The page itself (issue 25): it is ready in under a second, asks nothing of any host
but the server, and fits a phone's screen (one column, no sideways scrolling)."""

from __future__ import annotations

from collections.abc import Callable
from urllib.parse import urlsplit

from tests.web.conftest import WebServer, WebUser

#: Navigation to the login form, ready to use (ms).
READY_LIMIT_MS = 1000


def test_the_page_is_ready_in_a_second_from_the_server_alone(
    web_user: Callable[..., WebUser], web_server: WebServer
) -> None:
    user = web_user("desktop")
    ready = user.page.evaluate("window.icswire.ready")
    print(f"page ready {ready:.0f} ms after navigation")
    assert 0 < ready < READY_LIMIT_MS
    # every request went to the server (no CDN), and none failed
    hosts = user.page.evaluate(
        "performance.getEntriesByType('resource').map((e) => e.name)"
        ".concat(performance.getEntriesByType('navigation').map((e) => e.name))"
    )
    assert hosts
    assert {urlsplit(url).netloc for url in hosts} == {f"127.0.0.1:{web_server.ws_port}"}, hosts
    user.login_guest()


def test_a_phone_gets_one_column_that_fits(web_user: Callable[..., WebUser]) -> None:
    phone = web_user("phone", width=390, height=844)
    phone.shot("login")
    phone.login_guest()
    page = phone.page
    for tab in ("play", "watch", "talk", "games"):
        phone.tab(tab)
        overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
        assert overflow <= 0, f"the {tab} tab is {overflow}px wider than the phone"
        phone.shot(tab)
    board = page.locator(".board-area").bounding_box()
    side = page.locator(".side").bounding_box()
    assert board is not None and side is not None
    assert side["y"] >= board["y"] + board["height"], "the tabs are not below the board"
    assert side["width"] > 340

    # a game on the phone: the board fits the screen too
    phone.tab("play")
    page.click('.quick-seek[data-seek="5+3"]')
    page.locator(".seek-graph .seek-dot.mine").wait_for()
    opponent = web_user("desktop")
    opponent.login_guest()
    opponent.page.locator(".seek-graph .seek-dot").first.click()
    page.locator(".gv-board [data-square]").first.wait_for()
    squares = page.locator(".gv-board .cm-chessboard").bounding_box()
    assert squares is not None and squares["width"] >= 300, squares
    overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0, f"the game is {overflow}px wider than the phone"
    phone.shot("game")
