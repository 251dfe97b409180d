"""``ping`` never holds up the session that typed it: a client that does not answer telnet's
timing mark goes on with its next commands, and hears later that there was no answer. The
server pings a player who idles in a game, and tells his opponent (DG_ACK_PING)."""

from __future__ import annotations

import asyncio

import pytest

from icswire.protocol.datagrams import DG
from icswire.protocol.events import Text
from icswire.server.app import Server
from icswire.server.features import info

from .support import bits, connect


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


async def test_an_idle_player_is_pinged_and_the_opponent_gets_dg_ack_ping(
    server: Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    # "Sent ... when the server gets a ping back on a ping that it sent on its own
    # (because the player was idle for 10+ seconds). Also sent to opponents."
    monkeypatch.setattr(info, "IDLE_PING", 0.2)
    thinker = await connect(server)  # no DG_ACK_PING: its opponent is never pinged
    await thinker.login("Thinker")
    opponent = await connect(server, (DG.ACK_PING,))
    await opponent.login("Opponent", None, f"level2settings={bits(DG.ACK_PING)}")
    await thinker.send("match Opponent 5 0 white")
    await opponent.expect_text("Challenge:")
    await opponent.send("accept")
    await thinker.expect_text("Creating:")
    answering = asyncio.create_task(thinker._drain_forever())  # reads: answers the pings
    heard = await opponent.expect_dg(DG.ACK_PING, playername="Thinker")
    assert heard.lag >= 0 and heard.mean >= 0 and heard.variance >= 0
    assert not any(e.playername == "Opponent" for e in opponent.received(DG.ACK_PING))
    assert not [e for e in opponent.events if getattr(e, "data", b"") == b"\xff\xfd\x06"]
    # the game over, nobody is pinged for it any more
    answering.cancel()
    await thinker.send("resign")
    await opponent.expect_text("resigns}")
    await opponent.settle()
    assert not server.core.state(info.IdlePings).timers
    told = len(opponent.received(DG.ACK_PING))
    await asyncio.sleep(0.5)  # more than two looks' time
    await opponent.settle()
    assert len(opponent.received(DG.ACK_PING)) == told
