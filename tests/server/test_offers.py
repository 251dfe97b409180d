"""Offers, end to end (users connected in memory): every request in a game (draw, abort, adjourn,
takeback, pause, unpause, switch) and every match offer is one numbered offer, listed by
``pending``, taken by ``accept``, refused by ``decline`` and taken back by ``withdraw``,
with FICS's texts (gameproc.c, pending.c), ``<pf>``/``<pt>``/``<pr>`` lines and, for ICC
sessions, DG_OFFERS_IN_MY_GAME (21). Also ``rematch`` and the clock stored after a flag.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from icswire.protocol import ivars
from icswire.protocol.block import BlockCode
from icswire.protocol.datagrams import DG
from icswire.protocol.events import IvarLine, Prompt, Style12Line, Text
from icswire.protocol.level1 import CommandNumber as CN
from icswire.server.app import Server
from icswire.server.core.dispatch.commands import block_code
from icswire.server.core.model.tables import Terms
from icswire.server.core.render.batch import Batch
from icswire.server.core.render.boards import BLACK, WHITE
from icswire.server.features.play.games import Game

from .client import Client
from .support import bits, connect, quiet, records, texts


async def user(server: Server, name: str, *setup: str, datagrams: tuple[int, ...] = ()) -> Client:
    client = await connect(server, datagrams)
    login = (f"level2settings={bits(*datagrams)}",) if datagrams else ()
    await client.login(name, None, *login)
    for line in setup:
        await client.command(line)
    return client


def all_texts(events: list[Any]) -> list[str]:
    return [e.text for e in events if isinstance(e, Text)]


def datagram(events: list[Any], number: int) -> Any:
    """The last datagram ``number`` among ``events``."""
    return [e for e in events if getattr(e, "dg", None) == number][-1]


def said(text: str) -> Callable[[Any], bool]:
    return lambda e: isinstance(e, Text) and e.text == text


def ivar(record: Any) -> Callable[[Any], bool]:
    return lambda e: isinstance(e, IvarLine) and e.record == record


async def start(server: Server, terms: Terms | None = None) -> Game:
    batch = Batch(CN.CN_MATCH, None)
    online = server.world.online
    game = await server.games.start(
        online["whitey"], online["blacky"], terms or Terms(initial=5), batch
    )
    batch.flush()
    return game


async def begun(*clients: Client) -> None:
    """Each player has had the game's first board (so a command's reply comes alone)."""
    for client in clients:
        await client.expect(lambda e: isinstance(e, Style12Line) and e.record.relation != 0)


async def moved(mover: Client, other: Client, san: str) -> None:
    await mover.send(san)
    for client in (mover, other):
        await client.expect(lambda e: isinstance(e, Style12Line) and e.record.pretty_move == san)


async def table(server: Server) -> tuple[Client, Client, Client, Game]:
    """Whitey (style 12, pendinfo), Blacky (style 12, pendinfo) and an observer, in game 1."""
    white = await user(server, "Whitey", "set style 12", "iset pendinfo 1")
    black = await user(server, "Blacky", "set style 12", "iset pendinfo 1")
    watcher = await user(server, "Watcher", "set style 12")
    game = await start(server)
    await begun(white, black)
    await watcher.command("observe 1")
    return white, black, watcher, game


async def test_a_draw_offer_is_taken_by_a_bare_accept(server: Server) -> None:
    white, black, watcher, _ = await table(server)
    events = await white.command("draw")
    assert texts(events) == ["Draw request sent."]
    assert records(events) == [ivars.PendingTo(1, "Blacky", "draw", "#")]
    await black.expect(said("Whitey offers you a draw."))
    await black.expect(ivar(ivars.PendingFrom(1, "Whitey", "draw", "#")))
    await watcher.expect(said("Game 1: Whitey offers a draw."))
    events = await black.command("accept")  # XBoard's Accept button
    assert texts(events)[:2] == [
        "You accept the draw request from Whitey.",
        "{Game 1 (Whitey vs. Blacky) Game drawn by mutual agreement} 1/2-1/2",
    ]
    assert ivars.PendingRemoved((1,)) in records(events)
    await white.expect(ivar(ivars.PendingRemoved((1,))))
    await white.expect(said("Blacky accepts the draw request."))
    await watcher.expect(said("Game 1: Blacky accepts the draw request."))
    await watcher.expect(
        said("{Game 1 (Whitey vs. Blacky) Game drawn by mutual agreement} 1/2-1/2")
    )
    assert texts(await black.command("accept")) == ["You have no pending offers to accept."]
    assert texts(await black.command("decline")) == [
        "You have no pending offers from other players."
    ]
    assert texts(await white.command("withdraw")) == [
        "You have no pending offers to other players."
    ]


async def test_pending_lists_requests_and_they_go_by_number_kind_and_name(server: Server) -> None:
    white, black, watcher, _ = await table(server)
    await moved(white, black, "e4")
    await moved(black, white, "e5")
    await white.command("draw")
    await white.command("takeback 2")
    await black.expect(said("Whitey would like to take back 2 half move(s)."))
    await black.command("abort")
    await white.expect(said('Blacky would like to abort the game; type "abort" to accept.'))
    assert all_texts(await black.command("pending")) == [
        "Offers to other players:",
        "",
        "   3: You are offering Whitey to abort the game.",
        "",
        'If you wish to withdraw any of these offers type "withdraw number".',
        "",
        "Offers from other players:",
        "",
        "   1: Whitey is offering a draw.",
        "",  # freechess.org: an empty line between two offers
        "   2: Whitey is offering to takeback the last 2 half moves.",
        "",
        'If you wish to accept any of these offers type "accept number".',
        'If you wish to decline any of these offers type "decline number".',
    ]
    assert texts(await black.command("accept")) == [
        "You have more than one offer to accept.",
        'Use "pending" to see them and "accept n" to choose which one.',
    ]
    assert texts(await black.command("accept t pause")) == ["There are no pause offers to accept."]
    assert texts(await black.command("accept 7")) == [
        'Out of range. Use "pending" to see the list of offers.'
    ]
    events = await black.command("decline t takeback")  # PyChess's form
    assert texts(events) == ["You decline the takeback request from Whitey."]
    assert records(events) == [ivars.PendingRemoved((2,))]
    await white.expect(ivar(ivars.PendingRemoved((2,))))
    await white.expect(said("Blacky declines the takeback request."))
    await watcher.expect(said("Game 1: Blacky declines the takeback request."))
    events = await white.command("withdraw draw")
    assert texts(events) == ["You withdraw the draw request to Blacky."]
    await black.expect(ivar(ivars.PendingRemoved((1,))))
    await black.expect(said("Whitey withdraws the draw request."))
    events = await white.command("decline blacky")
    assert texts(events) == ["You decline the abort request from Blacky."]
    await black.expect(said("Whitey declines the abort request."))
    assert all_texts(await white.command("pending")) == [
        "There are no offers pending to other players.",
        "",
        "There are no offers pending from other players.",
    ]


async def test_a_move_declines_the_requests_made_to_the_mover(server: Server) -> None:
    white, black, watcher, game = await table(server)
    await moved(white, black, "e4")
    await black.command("draw")
    await white.expect(said("Blacky offers you a draw."))
    await black.command("takeback 1")
    await white.expect(said("Blacky would like to take back 1 half move(s)."))
    await black.send("e5")  # Black's own requests stay
    await black.expect(lambda e: isinstance(e, Style12Line) and e.record.pretty_move == "e5")
    assert len(game.requests) == 2
    await white.send("Nf3")  # White moves: both requests to White are declined
    await white.expect(said("You decline the draw request from Blacky."))
    await white.expect(said("You decline the takeback request from Blacky."))
    await black.expect(ivar(ivars.PendingRemoved((1,))))
    await black.expect(said("Whitey declines the draw request."))
    await black.expect(ivar(ivars.PendingRemoved((2,))))
    await black.expect(said("Whitey declines the takeback request."))
    await black.expect(lambda e: isinstance(e, Style12Line) and e.record.pretty_move == "Nf3")
    await watcher.expect(said("Game 1: Whitey declines the draw request."))
    assert game.requests == {}
    assert texts(await black.command("pending"))[-1] == (
        "There are no offers pending from other players."
    )


async def test_offers_in_my_game_and_the_takeback_counter_request(server: Server) -> None:
    grams = (DG.OFFERS_IN_MY_GAME, DG.TAKEBACK, DG.MY_GAME_RESULT)
    white = await user(server, "Whitey", "set style 13", datagrams=grams)
    black = await user(server, "Blacky", "set style 12")
    await start(server)
    await begun(black)
    for ply, san in enumerate(("e4", "e5", "Nf3", "Nc6")):
        await (white if ply % 2 == 0 else black).send(san)
        await black.expect(
            lambda e, s=san: isinstance(e, Style12Line) and e.record.pretty_move == s
        )
    await white.send("abort")
    offers = await white.expect_dg(DG.OFFERS_IN_MY_GAME)
    assert tuple(offers)[1:9] == (False, False, False, False, True, False, 0, 0)
    await black.expect(said('Whitey would like to abort the game; type "abort" to accept.'))
    await black.command("decline")
    offers = await white.expect_dg(DG.OFFERS_IN_MY_GAME)
    assert tuple(offers)[1:9] == (False, False, False, False, False, False, 0, 0)
    events = await white.command("takeback 2")
    offers = datagram(events, DG.OFFERS_IN_MY_GAME)
    assert (offers.wtakeback, offers.btakeback) == (2, 0)
    await black.expect(said("Whitey would like to take back 2 half move(s)."))
    events = await black.command("takeback 1")
    assert texts(events) == [
        "You disagree on the number of half-moves to takeback.",
        "Alternate takeback request sent.",
    ]
    await white.expect(said("Blacky proposes a different number (1) of half-move(s)."))
    offers = await white.expect_dg(DG.OFFERS_IN_MY_GAME)
    assert (offers.wtakeback, offers.btakeback) == (0, 1)
    await white.send("accept 1")
    assert (await white.expect_dg(DG.TAKEBACK)).count == 1
    await white.expect(lambda e: isinstance(e, Prompt))
    await black.expect(said("Whitey accepts the takeback request."))
    await black.expect(lambda e: isinstance(e, Style12Line) and e.record.pretty_move == "Nf3")
    assert texts(await white.command("adjourn")) == [
        'Both players must be registered to adjourn a game.  Use "abort".'
    ]
    assert texts(await white.command("abort")) == ["Abort request sent."]
    await black.command("accept abort")
    result = await white.expect_dg(DG.MY_GAME_RESULT)
    assert result.score == "*"
    await black.expect(said("{Game 1 (Whitey vs. Blacky) Game aborted by mutual agreement} *"))


async def test_switch_sends_my_game_change_not_my_game_started(server: Server) -> None:
    """After ``switch``, players and observers get DG_MY_GAME_CHANGE (100) with the new
    colours (and each player DG_FLIP and DG_MY_RELATION_TO_GAME of its colour), not the
    game anew as DG_MY_GAME_STARTED or DG_STARTED_OBSERVING."""
    grams = (
        DG.MY_GAME_STARTED, DG.STARTED_OBSERVING, DG.MY_GAME_CHANGE, DG.FLIP,
        DG.MY_RELATION_TO_GAME,
    )  # fmt: skip
    white = await user(server, "Whitey", "set style 12", datagrams=grams)
    black = await user(server, "Blacky", "set style 12")
    watcher = await user(server, "Watcher", "set style 12", datagrams=grams)
    await start(server)
    await begun(white, black)
    await watcher.command("observe 1")
    await black.command("switch")
    await white.expect(said('Type "accept" to switch sides, or "decline" to refuse.'))
    events = await white.command("accept switch")
    numbers = [e.dg for e in events if hasattr(e, "dg")]
    assert DG.MY_GAME_STARTED not in numbers
    changed = datagram(events, DG.MY_GAME_CHANGE)
    assert (changed.whitename, changed.blackname) == ("Blacky", "Whitey")
    assert datagram(events, DG.FLIP).flip is True
    assert datagram(events, DG.MY_RELATION_TO_GAME).symbol == "PB"
    seen = await watcher.expect_dg(DG.MY_GAME_CHANGE)
    assert (seen.whitename, seen.blackname) == ("Blacky", "Whitey")
    await watcher.expect(lambda e: isinstance(e, Style12Line))


async def test_pause_stops_both_clocks_until_both_unpause(server: Server) -> None:
    white, black, watcher, game = await table(server)
    await moved(white, black, "e4")
    assert texts(await white.command("unpause")) == ["Game is not paused."]
    assert texts(await white.command("pause")) == ["Pause request sent."]
    await black.expect(said("Whitey requests to pause the game."))
    await watcher.expect(said("Game 1: Whitey requests to pause the game."))
    events = await black.command("pause")
    assert texts(events)[:2] == ["You accept the pause request from Whitey.", "Game clock paused."]
    board = next(e for e in events if isinstance(e, Style12Line))
    assert board.record.clock_ticking is False
    await white.expect(said("Blacky accepts the pause request."))
    await watcher.expect(said("Game 1: Game clock paused."))
    assert game.paused
    stopped = game.clock_now(BLACK)
    await asyncio.sleep(0.05)
    assert game.clock_now(BLACK) == stopped  # no clock runs
    assert texts(await black.command("e5")) == ['Game clock is paused, use "unpause" to resume.']
    assert texts(await black.command("pause")) == [
        'Game is already paused, use "unpause" to resume.'
    ]
    assert texts(await black.command("unpause")) == ["Unpause request sent."]
    await white.expect(ivar(ivars.PendingFrom(1, "Blacky", "unpause", "#")))
    events = await white.command("accept")
    assert texts(events)[:2] == [
        "You accept the unpause request from Blacky.",
        "Game clock resumed.",
    ]
    assert not game.paused
    await moved(black, white, "e5")


async def test_switch_before_the_first_move_swaps_the_players(server: Server) -> None:
    white, black, watcher, game = await table(server)
    await watcher.command("unobserve")
    assert texts(await black.command("switch")) == ["Switch request sent."]
    await white.expect(said("Blacky would like to switch sides."))
    await white.expect(said('Type "accept" to switch sides, or "decline" to refuse.'))
    events = await white.command("accept switch")
    assert texts(events)[0] == "You accept the switch request from Blacky."
    board = next(e for e in events if isinstance(e, Style12Line))
    assert (board.record.white_name, board.record.black_name) == ("Blacky", "Whitey")
    assert board.record.relation == -1  # Whitey now plays Black; White to move
    assert game.white.name == "Blacky"
    await moved(black, white, "d4")
    assert texts(await white.command("switch")) == [
        "You cannot switch sides once a game is underway."
    ]
    await server.games.flush()
    stored = await asyncio.to_thread(server.store.game, game.game_id)
    assert stored is not None and (stored.white, stored.black) == ("Blacky", "Whitey")


async def test_offers_go_when_a_player_leaves(server: Server) -> None:
    white = await user(server, "Whitey", "set style 12", "iset pendinfo 1")
    black = await user(server, "Blacky", "set style 12", "iset pendinfo 1")
    other = await user(server, "Other", "iset pendinfo 1")
    await other.command("match whitey 5 0")
    await white.expect(ivar(ivars.PendingFrom(1, "Other", "match", ANY_MATCH)))
    await white.command("match blacky 5 0 white")
    await black.expect(said('You can "accept" or "decline", or propose different parameters.'))
    await black.command("accept")  # the game takes Other's challenge away
    await white.expect(ivar(ivars.PendingRemoved((1,))))
    await other.expect(ivar(ivars.PendingRemoved((1,))))
    await begun(white)
    await moved(white, black, "e4")
    await black.command("draw")
    await white.expect(ivar(ivars.PendingFrom(1, "Blacky", "draw", "#")))
    await black.close()
    await white.expect(ivar(ivars.PendingRemoved((1,))))
    assert texts(await white.command("pending"))[-1] == (
        "There are no offers pending from other players."
    )


ANY_MATCH = "Other (----) Whitey (----) unrated blitz 5 0"


async def test_rematch_offers_the_last_terms_with_colours_reversed(server: Server) -> None:
    white = await user(server, "Whitey", "set style 12")
    black = await user(server, "Blacky", "set style 12")
    assert texts(await white.command("rematch")) == ["You have no previous opponent to play again."]
    await white.command("match blacky 2 12 white")
    await black.expect(said('You can "accept" or "decline", or propose different parameters.'))
    await black.command("accept")
    await begun(white)
    await white.command("resign")
    await black.expect(said("{Game 1 (Whitey vs. Blacky) Whitey resigns} 0-1"))
    events = await white.command("rematch")
    assert texts(events) == ["Issuing: Whitey (----) [black] Blacky (----) unrated blitz 2 12."]
    await black.expect(said("Challenge: Whitey (----) [black] Blacky (----) unrated blitz 2 12."))
    await black.command("accept")
    await white.expect(said("{Game 1 (Blacky vs. Whitey) Creating unrated blitz match.}"))
    await begun(white)
    await black.command("resign")
    await white.expect(said("{Game 1 (Blacky vs. Whitey) Blacky resigns} 0-1"))
    await black.close()
    await quiet(server)  # Blacky's connection is gone
    assert texts(await white.command("rematch")) == [
        "Your last opponent, Blacky, is not logged in."
    ]


async def test_a_time_forfeit_stores_the_clock_the_final_board_shows(server: Server) -> None:
    """The flagged side's clock is taken off once: a 1-minute game's flag stores about
    zero, as the last board showed it (once stored -60 seconds: the elapsed time was
    taken off in ``out_of_time`` and again in ``end``)."""
    white = await user(server, "Whitey", "set style 12", "iset ms 1")
    black = await user(server, "Blacky", "set style 12")
    game = await start(server, Terms(initial=1))
    await begun(white, black)
    await moved(white, black, "e4")
    white_left = game.clock_ms[WHITE]
    game.turn_started -= (game.clock_now(BLACK) - 150) / 1000  # Black used all but 150 ms
    server.games.rearm(game)
    result = "{Game 1 (Whitey vs. Blacky) Blacky forfeits on time.} 1-0"
    final = await white.expect(lambda e: isinstance(e, Style12Line))
    await white.expect(said(result))
    await black.expect(said(result))
    await server.games.flush()
    stored = await asyncio.to_thread(server.store.game, game.game_id)
    assert stored is not None
    assert stored.white_clock == white_left == final.record.white_time
    assert final.record.black_time - 10 <= stored.black_clock <= final.record.black_time <= 0
    assert stored.black_clock > -1000
    events = await white.command("sposition whitey")
    board = next(e for e in events if isinstance(e, Style12Line))
    assert (board.record.white_time, board.record.black_time) == (
        stored.white_clock,
        stored.black_clock,
    )


def test_the_commands_added_here_have_ficss_block_codes() -> None:
    codes = {name: block_code(name) for name in NEW_COMMANDS}
    assert codes == {
        "pause": BlockCode.BLKCMD_PAUSE,
        "unpause": BlockCode.BLKCMD_UNPAUSE,
        "switch": BlockCode.BLKCMD_SWITCH,
        "rematch": BlockCode.BLKCMD_REMATCH,
        "mexamine": BlockCode.BLKCMD_MEXAMINE,
        "bsetup": BlockCode.BLKCMD_BSETUP,
        "unfollow": BlockCode.BLKCMD_FOLLOW,
    }


NEW_COMMANDS = ("pause", "unpause", "switch", "rematch", "mexamine", "bsetup", "unfollow")
