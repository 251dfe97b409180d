"""Two browser users play a game to mate with clicks (issue 25): one posts a seek with a
one-click button, the other answers it on the seek graph; the clocks run; both pages show
the result, and the server's stored game has the moves and the result."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

from tests.web.conftest import TelnetUser, WebServer, WebUser, wait_for

#: Fool's mate, as (from, to) clicks, white first.
FOOLS_MATE = [("f2", "f3"), ("e7", "e5"), ("g2", "g4"), ("d8", "h4")]
SAN = ["f3", "e5", "g4", "Qh4#"]


def _clock(user: WebUser, color: str) -> str:
    return user.page.locator(f'.gv-player[data-color="{color}"] .gv-clock').inner_text().strip()


def test_two_browser_users_play_a_seek_game_to_mate(
    web_user: Callable[..., WebUser],
    telnet_user: Callable[[], TelnetUser],
    web_server: WebServer,
) -> None:
    a, b, fan = web_user("a"), web_user("b"), web_user("fan")
    name_a, name_b = a.login_guest(), b.login_guest()
    # a third user follows A: A's next game opens on their page by itself
    fan.login_guest()
    fan.tab("watch")
    fan.page.fill('.follow-form input[name="player"]', name_a)
    fan.page.click('.follow-form button[type="submit"]')
    fan.page.locator("#notice").get_by_text(f"You will now be following {name_a}").wait_for()

    # A posts 3+0 with one click; B sees A's dot on the graph and clicks it
    a.page.click('.quick-seek[data-seek="3+0"]')
    dot = b.page.locator(f'.seek-graph .seek-dot[data-player="{name_a}"]')
    dot.wait_for()
    a.page.locator(f'.seek-graph .seek-dot.mine[data-player="{name_a}"]').wait_for()
    b.shot("seek-graph")
    dot.click()
    for user in (a, b):
        user.page.locator(".gv-board [data-square]").first.wait_for()
    label = a.page.locator('.board-tabs [data-tab^="game:"] .tab-label').inner_text()
    white_name = label.split(" – ")[0].strip()
    assert {white_name, label.split(" – ")[1].strip()} == {name_a, name_b}, label
    white, black = (a, b) if white_name == name_a else (b, a)
    white.shot("game-started")
    start = _clock(white, "w")

    for ply, (origin, target) in enumerate(FOOLS_MATE):
        mover = white if ply % 2 == 0 else black
        mover.page.click(f'.gv-board [data-square="{origin}"]')
        mover.page.click(f'.gv-board [data-square="{target}"]')
        other = black if mover is white else white
        other.page.locator(".gv-moves").get_by_text(SAN[ply], exact=True).wait_for()
        if ply == 1:
            # white has moved twice by now: its clock ran while it thought
            wait_for(
                "white's clock to run",
                lambda: _clock(white, "w") != start,
                10,
                lambda: f"white's clock still shows {start}",
            )
    for user in (a, b, fan):
        user.page.locator(".gv-banner").get_by_text(re.compile("0-1")).wait_for()
        user.shot("mated")
    fan_moves = fan.page.locator(".gv-moves .mv").all_inner_texts()
    assert [move.strip() for move in fan_moves] == SAN
    banner = a.page.locator(".gv-banner").inner_text()
    assert "0-1" in banner, banner

    # the server stored it: history and its moves, read by a telnet user
    telnet = telnet_user()
    telnet.login_guest()
    telnet.send(f"history {name_a}")
    telnet.expect(rf"History for {name_a}:[\s\S]*?\d+: [-+] ")
    telnet.send(f"smoves {name_a} -1")
    moves = telnet.expect(r"1\.\s+f3\s.*\n.*2\.\s+g4\s.*Qh4#[\s\S]*?\{[^}]*\} 0-1")
    assert moves
    # and the page's "My games" replays it
    black.tab("games")
    black.page.click("#show-history")
    row = black.page.locator(".history-row").first
    row.wait_for()
    assert "0-1" in row.locator(".result").inner_text()
    row.locator("button.replay").click()
    black.page.locator('.board-tabs [data-tab^="replay:"]').wait_for()
    black.shot("replay")
    # or downloads its PGN
    with black.page.expect_download() as downloading:
        row.locator("button.download").click()
    pgn = Path(downloading.value.path()).read_text("latin-1")
    assert re.search(r"1\. f3\s.*\se5\s.*2\. g4\s.*\sQh4#", pgn, re.S), pgn
    assert '[Result "0-1"]' in pgn, pgn
    assert downloading.value.suggested_filename.endswith(".pgn")
    # or examines it on the server: a board of its own, moved through by the server
    row.locator("button.examine").click()
    black.page.locator('.board-panel [data-role="examine"]').wait_for()
    black.shot("examine")
    assert web_server.process.poll() is None
