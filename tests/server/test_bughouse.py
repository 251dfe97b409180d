"""Bughouse end to end: a match between two partnerships starts two linked boards, a
capture passes its piece to the partner board (``<b1> ... <- BP``, DG_BUGHOUSE_PASS,
DG_BUGHOUSE_HOLDINGS), drops, illegal drops' DG_ILLEGAL_MOVE reasons, a board's end ends
the other with the partner result, observing one board observes both, ``ptime``,
``games``, ``<g1>``'s ``pt=``, stored boards that ``smoves`` replays, and rated bughouse
for all four players. Robots of the client library play a game that observers rebuild
from datagrams and from style 12 with ``<b1>``."""

from __future__ import annotations

import asyncio
import re

import pytest

from icswire import client as icswire_client
from icswire.client import Connection
from icswire.protocol.bughouse import format_b1
from icswire.protocol.codes import IllegalMoveReason
from icswire.protocol.datagrams import DG
from icswire.protocol.events import BughouseLine, IvarLine, Style12Line, Text
from icswire.protocol.ivars import format_ivar
from icswire.server.app import Server
from icswire.server.core.storage.store import Store

from .client import Client
from .support import bits, connect, is_text, texts, until


async def user(server: Server, name: str, *datagrams: int, password: str | None = None) -> Client:
    client = await connect(server, datagrams)
    setup = [f"level2settings={bits(*datagrams)}"] if datagrams else []
    await client.login(name, password, *setup)
    return client


async def partners(one: Client, two: Client) -> None:
    await two.command("set bugopen 1")  # FICS: one offers only to a player open for bughouse
    await one.command(f"partner {two.name}")
    await two.command(f"partner {one.name}")
    await one.expect(is_text(f"{two.name} agrees to be your partner."))


async def teams(server: Server, *datagrams: int) -> tuple[Client, Client, Client, Client]:
    """Ann and Ben partners, Cal and Dot partners; Ann (White) vs. Cal on game 1, Dot
    (White) vs. Ben on game 2."""
    ann, ben, cal, dot = [await user(server, n, *datagrams) for n in ("Ann", "Ben", "Cal", "Dot")]
    for client in (ann, ben, cal, dot):
        await client.command("set style 12")
    await partners(ann, ben)
    await partners(cal, dot)
    assert texts(await ann.command("match Cal 2 0 bughouse white")) == [
        "Issuing: Ann (----) [white] Cal (----) unrated bughouse 2 0."
    ]
    await cal.expect(is_text("Challenge: Ann (----) [white] Cal (----) unrated bughouse 2 0."))
    accepted = texts(await cal.command("accept"))
    assert accepted[:4] == [
        "You accept the match offer from Ann.",
        "Creating: Ann (++++) Cal (++++) unrated bughouse 2 0",
        "{Game 1 (Ann vs. Cal) Creating unrated bughouse match.}",
        "Your partner is playing game 2 (Dot vs. Ben).",
    ]
    for client, line in (
        (ann, "Your partner is playing game 2 (Dot vs. Ben)."),
        (dot, "Your partner is playing game 1 (Ann vs. Cal)."),
        (ben, "Your partner is playing game 1 (Ann vs. Cal)."),
    ):
        await client.expect(is_text(line))
    return ann, ben, cal, dot


async def test_bughouse_needs_two_partnerships(server: Server) -> None:
    alpha, beta, gamma = [await user(server, name) for name in ("Alpha", "Beta", "Gamma")]
    assert texts(await alpha.command("match Beta 3 0 bughouse")) == [
        "You have no partner for bughouse."
    ]
    await partners(alpha, gamma)
    assert texts(await alpha.command("match Beta 3 0 bughouse")) == [
        "Beta has no partner for bughouse."
    ]
    assert texts(await alpha.command("match Gamma 3 0 bughouse")) == [
        "You cannot play bughouse against your own partner."
    ]
    assert texts(await beta.command("seek 3 0 bughouse")) == [
        "You need a partner who is not playing to seek bughouse."
    ]


async def test_two_partnerships_play_linked_boards_in_fics_text(server: Server) -> None:
    lone = await user(server, "Lone")
    ann, ben, cal, dot = await teams(server)
    assert texts(await lone.command("match Ann 2 0 bughouse")) == ["Ann is playing a game."]
    assert texts(await lone.command("seek 2 0 bughouse")) == [
        "You need a partner who is not playing to seek bughouse."
    ]
    games = texts(await lone.command("games"))
    assert [g.split()[2] for g in games[:2]] == ["Ann", "Dot"]
    assert all(" [ Bu  2   0]" in g for g in games[:2])
    await ann.send("e4")
    await cal.expect(lambda e: isinstance(e, BughouseLine))
    await cal.send("d5")
    await ann.expect(lambda e: isinstance(e, BughouseLine))
    await ann.send("exd5")  # Black's pawn goes to Ben (Black on game 2)
    for client in (ben, dot):
        passed = await client.expect(lambda e: isinstance(e, BughouseLine) and e.record.passed_to)
        assert format_b1(passed.record) == "<b1> game 2 white [] black [P] <- BP"
    await dot.send("e4")
    await ben.expect(lambda e: isinstance(e, BughouseLine))
    assert texts(await ben.command("N@f6")) == ["Illegal move (N@f6)."]
    await ben.command("P@d5")
    await dot.expect(lambda e: isinstance(e, BughouseLine) and e.record.black_holding == "")
    clocks = texts(await ben.command("ptime"))
    assert [re.sub(r"\d+", "N", line) for line in clocks] == [
        "White (Ann) : N mins, N secs",
        "Black (Cal) : N mins, N secs",
    ]
    assert texts(await lone.command("ptime")) == ["You do not have a partner."]
    await ann.settle()
    assert texts(await ann.command("pause")) == ["You cannot pause a bughouse game."]
    assert texts(await ann.command("takeback")) == [
        "Takeback not implemented for bughouse games yet."
    ]
    assert "{Game 1 (Ann vs. Cal) Ann resigns} 0-1" in texts(await ann.command("resign"))
    await cal.expect(is_text("{Game 1 (Ann vs. Cal) Ann resigns} 0-1"))
    for client in (ben, dot):
        await client.expect(is_text("{Game 2 (Dot vs. Ben) Ben's partner resigns} 1-0"))
    assert not server.games.by_number
    for client in (lone, ann, ben, cal, dot):
        await client.close()


#: (board, mover, SAN): Ann (White) vs. Cal on game 1, Dot (White) vs. Ben on game 2;
#: every capture feeds the other board, and the pieces passed are dropped there.
PLAYED = (
    (1, "Ann", "e4"), (1, "Cal", "d5"), (1, "Ann", "exd5"), (2, "Dot", "e4"),
    (2, "Ben", "P@d5"), (2, "Dot", "exd5"), (1, "Cal", "Qxd5"), (1, "Ann", "Nc3"),
    (1, "Cal", "P@e4"), (2, "Ben", "Nf6"), (2, "Dot", "P@e4"), (2, "Ben", "Nxd5"),
    (1, "Ann", "P@d4"),
)  # fmt: skip


@pytest.mark.sockets  # icswire's own client library, over its socket
async def test_robots_play_bughouse_and_observers_rebuild_both_boards(server: Server) -> None:
    port = server.port
    async with (
        icswire_client.connect("127.0.0.1", port, "Ann") as ann,
        icswire_client.connect("127.0.0.1", port, "Ben") as ben,
        icswire_client.connect("127.0.0.1", port, "Cal") as cal,
        icswire_client.connect("127.0.0.1", port, "Dot") as dot,
        icswire_client.connect("127.0.0.1", port, "Watcher") as grams,
        icswire_client.connect("127.0.0.1", port, "Looker", dialect="fics") as looker,
    ):
        robots: dict[str, Connection] = {"Ann": ann, "Ben": ben, "Cal": cal, "Dot": dot}
        for one, two in ((ann, ben), (cal, dot)):
            await two.run("set bugopen 1")
            await one.run(f"partner {two.name}")
            await two.run(f"partner {one.name}")
        await until(lambda: ann.state.partner == "Ben" and dot.state.partner == "Cal")
        await ann.run("match Cal 3 0 bughouse white")
        await cal.run("accept Ann")
        await until(lambda: all(len(r.state.my_games) == 1 for r in robots.values()))
        assert 2 in ben.state.my_games and 2 in dot.state.my_games
        await grams.run("observe 1")  # and game 2, its partner board
        await looker.run("observe 2")  # and game 1
        watchers = (grams, looker)
        await until(lambda: all({1, 2} <= w.state.my_games.keys() for w in watchers))
        for ply, (board, mover, san) in enumerate(PLAYED):
            await robots[mover].send(san)
            count = sum(1 for b, _, _ in PLAYED[: ply + 1] if b == board)

            def seen(board: int = board, count: int = count) -> bool:
                clients = (*robots.values(), *watchers)
                known = [c.state.my_games.get(board) for c in clients]
                return sum(len(m.game.moves) >= count for m in known if m) == 4

            await until(seen)
        for board in (1, 2):
            game = server.games.by_number[board]
            for client in (*watchers, *(r for r in robots.values() if board in r.state.my_games)):
                mine = client.state.my_games[board].game
                assert [m.san for m in mine.moves] == [m.san for m in game.moves]
                assert mine.board.fen() == game.board.fen()  # holdings included
        ids = [server.games.by_number[n].game_id for n in (1, 2)]
        await ann.run("resign")
        await until(lambda: not any({1, 2} & w.state.my_games.keys() for w in watchers))
        for watcher in watchers:
            done = {m.game.number: m.game for m in watcher.state.finished}
            assert done[1].result == "0-1" and done[2].result == "1-0"
        await server.games.flush()
        for number, game_id in zip((1, 2), ids, strict=True):
            assert game_id is not None
            record = await asyncio.to_thread(server.store.game, game_id)
            assert record is not None and record.wild == 24
            assert list(record.moves) == [san for b, _, san in PLAYED if b == number]
            for watcher in watchers:
                done = {m.game.number: m.game for m in watcher.state.finished}
                assert [m.san for m in done[number].moves] == list(record.moves)


async def test_passes_drops_illegal_drops_and_results_as_datagrams(server: Server) -> None:
    wanted = (
        DG.ILLEGAL_MOVE, DG.BUGHOUSE_PASS, DG.BUGHOUSE_HOLDINGS, DG.MY_GAME_RESULT,
        DG.SEND_MOVES, DG.MOVE_ALGEBRAIC,
    )  # fmt: skip
    ann, ben, cal, dot = await teams(server, *wanted)
    await ann.command("e4")
    await cal.command("d5")
    await ann.command("exd5")
    passed = await ben.expect_dg(DG.BUGHOUSE_PASS)
    assert (passed.gamenumber, passed.color, passed.piece) == (2, "B", "P")
    held = await ben.expect_dg(DG.BUGHOUSE_HOLDINGS, gamenumber=2)
    assert (held.white_holding, held.black_holding) == ("", "P")
    await dot.command("e4")
    for move, reason in (
        ("N@f6", IllegalMoveReason.PIECE_NOT_HELD),
        ("P@e4", IllegalMoveReason.DROP_SQUARE_OCCUPIED),
    ):
        await ben.send(move)
        assert (await ben.expect_dg(DG.ILLEGAL_MOVE)).reason == reason
    await ben.send("P@d5")
    await dot.expect_dg(DG.SEND_MOVES, gamenumber=2, algebraic="P@d5")
    await cal.command("abort")
    await ann.command("abort")
    ended = {}
    for client in (ann, ben, cal, dot):
        result = await client.expect_dg(DG.MY_GAME_RESULT)
        ended[result.gamenumber] = (result.result_code, result.score, result.description)
    assert ended == {
        1: ("Agr", "*", "Game aborted by mutual agreement"),
        2: ("Agr", "*", "Game aborted by mutual agreement"),
    }


async def test_rated_bughouse_observed_stored_and_replayed(server: Server) -> None:
    for name in ("Ann", "Ben", "Cal", "Dot"):
        await asyncio.to_thread(server.store.add_user, name, "secret")
    ann, ben, cal, dot = [
        await user(server, name, password="secret") for name in ("Ann", "Ben", "Cal", "Dot")
    ]
    seer = await user(server, "Seer")
    await seer.command("set style 12")
    await ben.command("iset gameinfo 1")
    await partners(ann, ben)
    await partners(cal, dot)
    await ann.command("match Cal 2 0 rated bughouse white")
    await cal.expect(is_text("Challenge: Ann (----) [white] Cal (----) rated bughouse 2 0."))
    await cal.command("accept")
    info = await ben.expect(lambda e: isinstance(e, IvarLine))
    assert format_ivar(info.record).startswith(
        "<g1> 2 p=0 t=bughouse r=1 u=1,1 it=120,0 i=120,0 pt=1 "
    )
    seen = texts(await seer.command("observe 2"))
    assert "You are now observing game 2." in seen and "You are now observing game 1." in seen
    listed = texts(await seer.command("allobservers"))
    assert listed[:2] == ["Observing  1 [Ann vs. Cal]: Seer(U) (1 user)",
                          "Observing  2 [Dot vs. Ben]: Seer(U) (1 user)"]  # fmt: skip
    for client, move in ((ann, "e4"), (cal, "d5"), (ann, "exd5"), (dot, "d4"), (ben, "P@e5")):
        await client.send(move)
        await seer.expect(
            lambda e, m=move: isinstance(e, Style12Line) and e.record.pretty_move == m
        )
    await seer.settle()
    await cal.send("resign")
    await seer.expect(is_text("{Game 1 (Ann vs. Cal) Cal resigns} 1-0"))
    await seer.expect(is_text("{Game 2 (Dot vs. Ben) Dot's partner resigns} 0-1"))
    await server.games.flush()
    for name, score in (("Ann", 1), ("Ben", 1), ("Cal", 0), ("Dot", 0)):
        rating = await asyncio.to_thread(server.store.rating, name, "Bughouse")
        assert (rating.games, rating.wins) == (1, score)
    history = texts(await seer.command("history Ben"))
    assert history[-1].startswith(" 0: + ---- B ---- Dot           [ Br  2   0] --- Res ")
    moves = texts(await seer.command("smoves Ben 0"))  # the drop replays on its own board
    assert [re.sub(r"\(\d+:\d+\)", "(T)", line) for line in moves[-2:]] == [
        "  1.  d4      (T)          P@e5    (T)",
        "      {Dot's partner resigns} 0-1",
    ]


async def test_two_bughouse_seeks_pair_two_partnerships(server: Server) -> None:
    ann, ben, cal, dot = [await user(server, name) for name in ("Ann", "Ben", "Cal", "Dot")]
    await partners(ann, ben)
    await partners(cal, dot)
    await ann.command("seek 2 0 bughouse")
    await cal.send("seek 2 0 bughouse")
    await cal.expect(is_text("Your seek matches one already posted by Ann."))
    for client in (ann, ben, cal, dot):
        await client.expect(lambda e: isinstance(e, Text) and e.text.startswith("Your partner is"))
    boards = server.games.by_number
    assert sorted(boards) == [1, 2]
    assert {p.name for g in boards.values() for p in g.players} == {"Ann", "Ben", "Cal", "Dot"}
    assert boards[1].partner is boards[2] and boards[2].partner is boards[1]


async def test_a_stop_aborts_bughouse_boards_at_the_next_start(database_url: str) -> None:
    store = Store(database_url)
    first = Server(store, "127.0.0.1", 0)
    await first.start(listen=False)
    try:
        clients = await teams(first)
        await clients[0].command("e4")
        ids = [g.game_id for g in first.games.by_number.values()]
        await first.games.flush()
    finally:
        await first.stop()  # the games are left in progress, as by a crash
    for client in clients:
        await client.close()
    second = Server(store, "127.0.0.1", 0)
    await second.start(listen=False)
    try:
        for game_id in ids:
            assert game_id is not None
            record = await asyncio.to_thread(store.game, game_id)
            assert record is not None
            assert (record.status, record.mode, record.score) == (3, 2, "*")
        assert await asyncio.to_thread(store.adjourned, "Ann") == []
    finally:
        await second.stop()
        store.close()


async def test_a_player_leaving_forfeits_both_boards(server: Server) -> None:
    ann, ben, cal, _dot = await teams(server)
    await ann.command("e4")
    await cal.command("e5")
    await cal.close()
    await ann.expect(
        is_text("{Game 1 (Ann vs. Cal) Unregistered player Cal disconnected and forfeits} 1-0")
    )
    await ben.expect(is_text("{Game 2 (Dot vs. Ben) Dot's partner disconnected and forfeits} 0-1"))
