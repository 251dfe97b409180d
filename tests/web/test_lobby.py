"""Accounts and challenges in the browser (issue 25): register on a server that opened
registration, log in again with the password (a wrong one refused with the server's
words); challenge a player by name, who declines, then accepts the next challenge."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tests.web.conftest import TelnetUser, WebUser


@pytest.fixture
def serve_options() -> list[str]:
    return ["--open-registration"]


def test_register_log_in_shout_and_challenge(
    web_user: Callable[..., WebUser], telnet_user: Callable[[], TelnetUser]
) -> None:
    alice = web_user("alice")
    page = alice.page
    page.fill("#login-name", "Alice")
    page.fill("#login-password", "sesame42")
    page.click("#login-register")
    page.wait_for_selector(".app")
    assert page.inner_text("#me") == "Alice"
    page.click(".logout")
    page.fill("#login-name", "Alice")
    page.fill("#login-password", "wrong")
    page.click("#login-submit")
    page.locator(".login-status").get_by_text("Invalid password").wait_for()
    alice.shot("wrong-password")
    page.fill("#login-password", "sesame42")
    page.click("#login-submit")
    page.wait_for_selector(".app")
    assert page.inner_text("#me") == "Alice"

    # registered, Alice shouts with a telnet user who registered too
    carol = telnet_user()
    carol.login_guest("Carol")
    carol.send("register sesame43")
    carol.expect(r'You are now registered as "Carol"')
    carol.send("shout hello from telnet")
    alice.tab("talk")
    page.click('.chat-tabs [data-tab="shouts"]')
    page.locator('.chat-log[data-log="shouts"]').get_by_text("hello from telnet").wait_for()
    page.locator(".chat-panel:visible .chat-input").fill("hello from the browser")
    page.locator(".chat-panel:visible .chat-input").press("Enter")
    carol.expect(r"Alice shouts: hello from the browser")
    shouts = page.locator('.chat-log[data-log="shouts"]')
    shouts.get_by_text("Alice: hello from the browser").wait_for()
    alice.shot("shouts")
    alice.tab("play")

    bob = web_user("bob")
    guest = bob.login_guest()

    def challenge() -> None:
        page.fill('.challenge-form input[name="opponent"]', guest)
        page.click('.challenge-form button[type="submit"]')

    challenge()
    page.locator(f'.challenge.outgoing[data-player="{guest}"]').wait_for()
    incoming = bob.page.locator('.challenge.incoming[data-player="Alice"]')
    incoming.wait_for()
    assert "5+3" in incoming.inner_text()
    bob.shot("challenged")
    incoming.locator("button.decline").click()
    page.locator(f'.challenge.outgoing[data-player="{guest}"]').wait_for(state="detached")
    incoming.wait_for(state="detached")

    challenge()
    incoming.wait_for()
    incoming.locator("button.accept").click()
    for user in (alice, bob):
        user.page.locator(".gv-board [data-square]").first.wait_for()
        tab = user.page.locator('.board-tabs [data-tab^="game:"] .tab-label').inner_text()
        assert "Alice" in tab and guest in tab, tab
    alice.shot("game")


def test_a_custom_seek_with_a_variant_is_listed_and_drawn_as_one(
    web_user: Callable[..., WebUser],
) -> None:
    poster, viewer = web_user("poster"), web_user("viewer")
    name = poster.login_guest()
    viewer.login_guest()
    page = poster.page
    page.click(".custom-seek summary")
    page.fill('.seek-form input[name="minutes"]', "10")
    page.fill('.seek-form input[name="increment"]', "5")
    page.select_option('.seek-form select[name="variant"]', label="Crazyhouse")
    page.select_option('.seek-form select[name="color"]', "white")
    page.click('.seek-form button[type="submit"]')
    dot = viewer.page.locator(f'.seek-dot.variant[data-player="{name}"]')
    dot.wait_for()
    row = viewer.page.locator(".seek-row", has_text=name)
    assert "10+5" in row.inner_text()
    assert "crazyhouse" in row.inner_text().lower() and "white" in row.inner_text()
    viewer.shot("variant-seek")
    # the seeker withdraws it from the graph
    page.locator(f'.seek-dot.mine[data-player="{name}"]').click()
    dot.wait_for(state="detached")
