"""A browser user and a telnet user talk: tells both ways, and a channel (issue 25)."""

from __future__ import annotations

from collections.abc import Callable

from tests.web.conftest import TelnetUser, WebUser


def test_a_browser_user_chats_with_a_telnet_user(
    web_user: Callable[..., WebUser], telnet_user: Callable[[], TelnetUser]
) -> None:
    web = web_user("web")
    web.shot("login")
    me = web.login_guest()
    telnet = telnet_user()
    them = telnet.login_guest()
    page = web.page

    # a tell from telnet opens a conversation tab in the browser
    telnet.send(f"tell {me} hello from telnet")
    web.tab("talk")
    page.click(f'.chat-tabs [data-tab="tell:{them.lower()}"]')
    log = page.locator(f'.chat-log[data-log="tell:{them.lower()}"]')
    log.get_by_text("hello from telnet").wait_for()
    # the answer, typed in that tab
    page.locator(".chat-panel:visible .chat-input").fill("hi from the browser")
    page.locator(".chat-panel:visible .chat-input").press("Enter")
    telnet.expect(rf"{me}(\(U\))? tells you: hi from the browser")
    log.get_by_text("hi from the browser").wait_for()  # the echo, as what I said
    web.shot("tells")

    # a channel: both join 77, each hears the other
    telnet.send("+channel 77")
    telnet.expect(r"\[77\] added to your channel list")
    page.fill('input[name="talk-to"]', "77")
    page.press('input[name="talk-to"]', "Enter")
    channel = page.locator('.chat-log[data-log="channel:77"]')
    channel.wait_for()
    telnet.send("tell 77 anyone in 77?")
    channel.get_by_text("anyone in 77?").wait_for()
    page.locator(".chat-panel:visible .chat-input").fill("me, from the browser")
    page.locator(".chat-panel:visible .chat-input").press("Enter")
    telnet.expect(rf"{me}(\(U\))?\(77\): me, from the browser")
    channel.get_by_text(f"{me}: me, from the browser").wait_for()  # what I said, once
    web.shot("channel")
    assert "anyone in 77?" in channel.inner_text()

    # the console: any command, and what the server says
    page.click('.chat-tabs [data-tab="console"]')
    page.locator(".chat-panel:visible .chat-input").fill(f"finger {them}")
    page.locator(".chat-panel:visible .chat-input").press("Enter")
    page.locator('.chat-log[data-log="console"]').get_by_text(f"Finger of {them}").wait_for()

    # a guest may not shout: the server's refusal shows in the Shouts tab
    page.click('.chat-tabs [data-tab="shouts"]')
    page.locator(".chat-panel:visible .chat-input").fill("hello all")
    page.locator(".chat-panel:visible .chat-input").press("Enter")
    page.locator('.chat-log[data-log="shouts"] .chat-line.server').get_by_text("guest").wait_for()
