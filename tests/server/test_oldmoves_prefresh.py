"""FICS's ``oldmoves`` (the moves of a player's last game, as ``smoves NAME N``) and
``prefresh`` (the partner's board, as ``refresh PARTNER``), users connected in memory."""

from __future__ import annotations

from icswire.protocol.events import Style12Line
from icswire.server.app import Server
from icswire.server.core.model.tables import Terms

from .support import is_text, start_game, texts
from .test_examine_setup import stored_game, user

#: How stored_game ends its game here: White resigns (status 0, mode 0, color 1).
RESIGNED = (0, 0, 1, "0-1", "D06", 280_000, 290_000)


async def test_oldmoves_shows_the_moves_of_the_last_game(server: Server) -> None:
    viewer = await user(server, "Viewer")
    assert texts(await viewer.command("oldmoves")) == ["There is no old game for Viewer."]
    await stored_game(server, RESIGNED)
    events = await viewer.command("oldmoves anna")
    said = texts(events)
    assert said[0] == "Last game for Anna was history game 0."
    assert said[1].startswith("Anna (----) vs. Boris (----) --- ")
    assert "  1.  d4      (0:00)          d5      (0:00)" in said
    assert said[-1] == "      {Anna resigns} 0-1"
    assert texts(await viewer.command("smoves anna 0"))[1:] == said[2:]


async def test_prefresh_shows_the_partners_board(server: Server) -> None:
    alpha = await user(server, "Alpha", "set style 12")
    beta = await user(server, "Beta", "set style 12")
    await user(server, "Gamma")
    assert texts(await alpha.command("prefresh")) == ["You do not have a partner."]
    await beta.command("set bugopen 1")
    await alpha.command("partner beta")
    await beta.expect(is_text('Type "partner Alpha" or "accept" to accept.'))
    await beta.command("partner alpha")
    await alpha.expect(is_text("Beta agrees to be your partner."))
    await start_game(server, "Beta", "Gamma", Terms(initial=5))
    events = await alpha.command("prefresh")
    (board,) = [e for e in events if isinstance(e, Style12Line)]
    assert (board.record.white_name, board.record.black_name) == ("Beta", "Gamma")
