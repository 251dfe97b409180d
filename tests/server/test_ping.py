"""``ping`` never holds up the session that typed it: a client that does not answer telnet's
timing mark goes on with its next commands, and hears later that there was no answer."""

from __future__ import annotations

import pytest

from icswire.protocol.events import Text
from icswire.server.app import Server
from icswire.server.features import info

from .support import connect


async def test_a_client_that_ignores_timing_marks_is_not_held_up(
    server: Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(info, "PING_TIMEOUT", 1.0)
    silent = await connect(server)
    silent.answers_pings = False
    await silent.login("Silent")
    await silent.send("ping", "date")
    first = await silent.expect(
        lambda e: isinstance(e, Text) and e.text.startswith(("Local time", "Silent did not"))
    )
    assert first.text.startswith("Local time")  # date ran before the ping was given up
    await silent.expect_text("Silent did not answer the ping.")
    other = await connect(server)
    await other.login("Other")
    await other.send("ping silent")
    await other.expect_text("Silent did not answer the ping.")
    await other.send("ping")
    await other.expect_text("Ping time for Other:")
