"""Bughouse from the lobby (issue 25): two pairs of browser users become partners with
the partner form, one posts a bughouse seek with the custom form, a player of the other
pair answers it on the seek graph, and all four get their board, and their partner's behind it."""

from __future__ import annotations

import re
from collections.abc import Callable

from tests.web.conftest import WebUser


def _partner(asker: WebUser, asked: WebUser) -> None:
    asked.page.check('input[name="bugopen"]')  # one asks only those open for bughouse
    asked.page.locator("#notice").get_by_text(re.compile("bughouse", re.I)).wait_for()
    asker.page.fill('.partner-form input[name="partner"]', asked.name)
    asker.page.click('.partner-form button[type="submit"]')
    asker.page.locator("#notice").get_by_text(re.compile("bughouse|partner")).wait_for()
    asked.page.fill('.partner-form input[name="partner"]', asker.name)  # asking back accepts
    asked.page.click('.partner-form button[type="submit"]')
    asked.page.locator("#notice").get_by_text(f"You agree to be {asker.name}'s partner").wait_for()


def test_two_pairs_of_partners_start_a_bughouse_game(web_user: Callable[..., WebUser]) -> None:
    a, b, c, d = (web_user(label, width=1100, height=800) for label in "abcd")
    for user in (a, b, c, d):
        user.login_guest()
    _partner(a, c)
    _partner(b, d)
    page = a.page
    page.click(".custom-seek summary")
    page.fill('.seek-form input[name="minutes"]', "2")
    page.fill('.seek-form input[name="increment"]', "0")
    page.select_option('.seek-form select[name="variant"]', label="Bughouse (with a partner)")
    page.click('.seek-form button[type="submit"]')
    dot = b.page.locator(f'.seek-dot.variant[data-player="{a.name}"]')
    dot.wait_for()
    dot.click()
    for user in (a, b, c, d):
        user.page.locator(".gv-board [data-square]").first.wait_for()
        label = user.page.locator('.board-tabs [data-tab^="game:"] .tab-label').first.inner_text()
        assert user.name in label, (user.name, label)
    # each player also watches the partner's board, behind their own
    for user in (a, b, c, d):
        user.page.locator('.board-tabs [data-tab^="game:"]').nth(1).wait_for()
        own = user.page.locator(".board-tabs .tab.active .tab-label").inner_text()
        assert user.name in own, (user.name, own)
    a.shot("bughouse")
    assert a.page.locator(".gv-holding").count() >= 1
