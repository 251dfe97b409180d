"""DGs a client turns on with ``set-2 N 1`` and then gets on their events (issue 22):
DG_FEN (70), DG_GAME_MESSAGE (77), DG_IDLE (74), DG_SUGGESTION (63) and DG_QRETRACT (99),
DG_DISABLE_PREMOVE (141) and DG_UNACCENTED (78), each against its text in
icc-formats.txt Appendix 2."""

from __future__ import annotations

import asyncio

import chess
import pytest

from icswire.boards.variants import CHESS
from icswire.protocol.datagrams import DG
from icswire.protocol.level1 import CommandNumber as CN
from icswire.server.app import Server
from icswire.server.core.model.tables import Terms
from icswire.server.core.render.batch import Batch
from icswire.server.features import info
from icswire.server.features.play.games import Game

from .client import Client
from .support import bits, connect, grams, texts


async def user(server: Server, name: str, *datagrams: int) -> Client:
    client = await connect(server, datagrams)
    await client.login(name, None, f"level2settings={bits(*datagrams)}" if datagrams else "")
    await client.command("set style 13")
    return client


async def start(server: Server, white: str = "whitey", black: str = "blacky") -> Game:
    """An unrated 5 0 game of chess between two users online."""
    batch = Batch(CN.CN_MATCH, None)
    online = server.world.online
    game = await server.games.start(
        online[white], online[black], Terms.of(CHESS, False, 5, 0), batch
    )
    batch.flush()
    return game


# -- DG_FEN (70) --------------------------------------------------------------------------


async def test_fen_comes_where_a_move_list_would(server: Server) -> None:
    """DG_FEN: "(gamenumber {FEN-string}) Presents the current position ... not sent on
    every move, but only on the same occasions that DG_MOVE_LIST might be sent": a game's
    start, observing it (and examining, ``smoves``); never with a move."""
    white = await user(server, "Whitey", DG.FEN, DG.MY_GAME_STARTED, DG.SEND_MOVES)
    black = await user(server, "Blacky")
    watcher = await user(server, "Watcher", DG.FEN, DG.STARTED_OBSERVING)
    game = await start(server)
    first = await white.expect_dg(DG.FEN)
    assert (first.gamenumber, first.fen) == (game.number, chess.STARTING_FEN)
    await white.send("e4")
    await white.expect_dg(DG.SEND_MOVES)
    await black.send("e5")
    await white.expect_dg(DG.SEND_MOVES)
    await white.settle()
    assert len(white.received(DG.FEN)) == 1  # the moves brought none
    [seen] = grams(await watcher.command("observe whitey"), DG.FEN)
    after = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2"
    assert (seen.gamenumber, seen.fen) == (game.number, after)
    assert chess.Board(seen.fen) == game.board
    assert not white.errors() and not watcher.errors()


# -- DG_UNACCENTED (78) ----------------------------------------------------------------------


async def test_unaccented_folds_latin1_letters_for_who_turns_it_on(server: Server) -> None:
    """DG_UNACCENTED: "output to you should only contain US ASCII ... Chars 191-254 in the
    ISO Latin-1 set, which are allowed in messages and so forth, are replaced some similar
    US ASCII character." Text and datagrams alike; others still get the letters."""
    plain = await user(server, "Plain", DG.PERSONAL_TELL)
    accented = await user(server, "Accented", DG.PERSONAL_TELL)
    teller = await user(server, "Teller")
    await plain.command(f"set-2 {DG.UNACCENTED} 1")
    for name in ("Plain", "Accented"):
        await teller.command(f"tell {name} Ça va, Müller? Æsir ¿Qué?")
    said = await plain.expect_dg(DG.PERSONAL_TELL)
    assert said.text == "Ca va, Muller? Asir ?Que?"
    kept = await accented.expect_dg(DG.PERSONAL_TELL)
    assert kept.text == "Ça va, Müller? Æsir ¿Qué?"
    await plain.command(f"set-2 {DG.PERSONAL_TELL} 0")  # the text form is folded too
    await teller.command("tell Plain Ñandú")
    line = await plain.expect_text("tells you:")
    assert line.text.endswith("Nandu")
    await plain.settle()
    assert all(text.isascii() for text in texts(plain.events))
    await plain.command(f"set-2 {DG.UNACCENTED} 0")
    await teller.command("tell Plain Ñandú")
    assert (await plain.expect_text("tells you:")).text.endswith("Ñandú")


# -- DG_IDLE (74) ------------------------------------------------------------------------------


async def test_idle_goes_to_the_opponent_at_30_60_120_and_on_unidling(
    server: Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    """DG_IDLE: "(name idle-time time-since-read) ... sent ... when idle time goes about 30
    seconds, then again if it goes over 60 seconds, then 120, etc (keeps doubling). Soon
    I'll have it sent to the opponent in a game too. It is also sent when the player
    unidles (by typing or something) after having been idle for more than 30 seconds."
    The looks come every few milliseconds here, and the player's clock of input is set
    back instead of waiting."""
    monkeypatch.setattr(info, "IDLE_PING", 0.02)
    white = await user(server, "Whitey")
    black = await user(server, "Blacky", DG.IDLE)
    watcher = await user(server, "Watcher", DG.IDLE)
    await start(server)
    await watcher.command("observe whitey")
    whitey = server.world.online["whitey"]
    whitey.last_input -= 31
    first = await black.expect_dg(DG.IDLE, playername="Whitey")
    assert 31 <= first.idle_time < 40 and 0 <= first.time_since_read < 40
    await black.settle(0.1)
    assert len(black.received(DG.IDLE)) == 1  # once for 30 seconds
    whitey.last_input -= 30  # 61 seconds
    second = await black.expect_dg(DG.IDLE, playername="Whitey")
    assert 61 <= second.idle_time < 70
    whitey.last_input -= 60  # 121 seconds
    assert (await black.expect_dg(DG.IDLE)).idle_time >= 121
    await white.command("date")  # typing again: it unidles
    back = await black.expect_dg(DG.IDLE, playername="Whitey")
    assert back.idle_time < 5 and back.time_since_read < 5
    await black.settle(0.1)
    assert len(black.received(DG.IDLE)) == 4
    assert watcher.received(DG.IDLE) == []  # the opponent's, not an observer's
    assert not black.errors()


# -- DG_DISABLE_PREMOVE (141) -------------------------------------------------------------------


async def test_disable_premove_cannot_be_turned_off(server: Server) -> None:
    """DG_DISABLE_PREMOVE: "(gamenumber) This means don't allow premove during this game.
    (This DG cannot be turned off, once you've turned it on.)" ``set-2 141 0`` leaves it
    on and DG_SET2 says so; other DGs still turn off."""
    client = await user(server, "Robot", DG.SET2)
    [on] = grams(await client.command(f"set-2 {DG.DISABLE_PREMOVE} 1"), DG.SET2)
    assert (on.dg_code, on.on) == (DG.DISABLE_PREMOVE, True)
    [still] = grams(await client.command(f"set-2 {DG.DISABLE_PREMOVE} 0"), DG.SET2)
    assert (still.dg_code, still.on) == (DG.DISABLE_PREMOVE, True)
    assert DG.DISABLE_PREMOVE in server.world.online["robot"].level2
    await client.command(f"set-2 {DG.FEN} 1")
    [off] = grams(await client.command(f"set-2 {DG.FEN} 0"), DG.SET2)
    assert (off.dg_code, off.on) == (DG.FEN, False)


# -- DG_GAME_MESSAGE (77) -----------------------------------------------------------------------


async def test_game_message_carries_what_a_request_says(server: Server) -> None:
    """DG_GAME_MESSAGE: "(gamenumber string) Encapsulates the text generated by
    miscellaneous commands that affect a particular game, e.g. mexamine, setwhiteclock,
    draw": to the opponent and observers who have it on, each its own words; the text still
    comes, and receivers without it get no datagram."""
    white = await user(server, "Whitey")
    black = await user(server, "Blacky", DG.GAME_MESSAGE)
    watcher = await user(server, "Watcher", DG.GAME_MESSAGE)
    plain = await user(server, "Plain")
    game = await start(server)
    for client in (watcher, plain):
        await client.command("observe whitey")
    await white.command("draw")
    offer = await black.expect_dg(DG.GAME_MESSAGE)
    assert (offer.gamenumber, offer.message) == (game.number, "Whitey offers you a draw.")
    await black.expect_text("offers you a draw")
    seen = await watcher.expect_dg(DG.GAME_MESSAGE)
    assert seen.message == "Whitey offers a draw."
    await watcher.expect_text(f"Game {game.number}: Whitey offers a draw.")
    await black.command("decline")
    answered = await watcher.expect_dg(DG.GAME_MESSAGE, gamenumber=game.number)
    assert "declines the draw" in answered.message
    await white.command("pause")
    await black.command("accept")
    paused = await watcher.expect_dg(DG.GAME_MESSAGE, message="Game clock paused.")
    assert paused.gamenumber == game.number
    await black.expect_dg(DG.GAME_MESSAGE, message="Game clock paused.")
    await plain.settle()
    assert plain.received(DG.GAME_MESSAGE) == []
    assert any("offers a draw" in line for line in texts(plain.events))
    assert not black.errors() and not watcher.errors()


# -- DG_SUGGESTION (63) and DG_QRETRACT (99) ------------------------------------------------


async def adjourned(server: Server, watcher_dgs: tuple[int, ...]) -> tuple[Client, int]:
    """Ann and Bob (registered) adjourn a game when Ann disconnects; Bob, with
    ``watcher_dgs`` on, stays."""
    for name in ("Ann", "Bob"):
        await asyncio.to_thread(server.store.add_user, name, "pw")
    ann = await connect(server)
    await ann.login("Ann", "pw")
    bob = await connect(server, watcher_dgs)
    await bob.login("Bob", "pw", f"level2settings={bits(*watcher_dgs)}")
    await ann.command("match Bob 3 0 white")
    await bob.command("accept")
    await ann.command("e4")
    await ann.close()
    await bob.expect_text("Game adjourned when Ann disconnected")
    await server.games.flush()
    [record] = await asyncio.to_thread(server.store.adjourned, "Ann")
    assert record.id is not None
    return bob, record.id


async def test_suggestion_to_resume_when_the_opponent_arrives(server: Server) -> None:
    """DG_SUGGESTION: "(command-string text-string priority suggester subject id) Sent ...
    sometimes by server to encourage resumption of adjourned games", to both players;
    DG_QRETRACT "(id) Retract the DG_SUGGESTION ... with the same id" once the game
    resumes."""
    on = (DG.SUGGESTION, DG.RETRACT)
    bob, game_id = await adjourned(server, on)
    ann = await connect(server, on)
    await ann.login("Ann", "pw", f"level2settings={bits(*on)}")
    told = await bob.expect_dg(DG.SUGGESTION)
    ident = f"adjourned-{game_id}"
    assert (told.command, told.priority, told.suggester, told.subject, told.id) == (
        "resume Ann", 0, "$server$", "Adjourned game", ident,
    )  # fmt: skip
    assert "Ann" in told.text and "adjourned game" in told.text
    mine = await ann.expect_dg(DG.SUGGESTION)
    assert (mine.command, mine.id) == ("resume Bob", ident)
    await ann.send(mine.command)  # what the client sends when its user says yes
    await bob.command("resume Ann")
    for client in (ann, bob):
        assert (await client.expect_dg(DG.RETRACT)).id == ident
    await bob.settle()
    assert len(bob.received(DG.RETRACT)) == 1
    assert not ann.errors() and not bob.errors()


async def test_suggestion_retracted_when_the_opponent_leaves(server: Server) -> None:
    on = (DG.SUGGESTION, DG.RETRACT)
    bob, game_id = await adjourned(server, on)
    ann = await connect(server)  # takes no suggestions: Bob still gets his
    await ann.login("Ann", "pw")
    told = await bob.expect_dg(DG.SUGGESTION, command="resume Ann")
    await ann.send("quit")
    gone = await bob.expect_dg(DG.RETRACT)
    assert gone.id == told.id == f"adjourned-{game_id}"
    await ann.settle()
    assert ann.received(DG.SUGGESTION) == []
