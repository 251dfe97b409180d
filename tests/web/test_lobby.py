"""Accounts and challenges in the browser (issue 25): register on a server that opened
registration, log in again with the password (a wrong one refused with the server's
words); challenge a player by name, who declines, then accepts the next challenge."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tests.web.conftest import WebUser


@pytest.fixture
def serve_options() -> list[str]:
    return ["--open-registration"]


def test_register_log_in_and_challenge(web_user: Callable[..., WebUser]) -> None:
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
