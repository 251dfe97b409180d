"""Simuls (features.simuls): lasker-2.2.3's ``simmatch`` family and ICC's ``startsimul``,
played in memory: a giver against three opponents to the end, and the texts of
``simnext``, ``simprev``, ``simpass``, ``simabort`` and ``simadjourn``."""

from __future__ import annotations

import asyncio

from icswire.protocol.datagrams import DG
from icswire.protocol.events import UnitStart
from icswire.protocol.level1 import CommandNumber as CN
from icswire.server.app import Server
from icswire.server.core.model.names import name_key
from icswire.server.core.model.users import User
from icswire.server.features.pairing.state import Pairing
from icswire.server.features.simuls import Simuls

from .client import Client
from .support import bits, boards, connect, grams, has_text, texts, until


async def player(server: Server, name: str) -> Client:
    client = await connect(server)
    await asyncio.to_thread(server.store.add_user, name, "pw")
    await client.login(name, "pw")
    await client.settle()
    return client


async def said(client: Client, line: str) -> list[str]:
    """What ``line`` answers (what came before it read first)."""
    await client.settle(0.05)
    return texts(await client.command(line))


async def simul_of(server: Server, giver: Client, *opponents: Client) -> None:
    """``giver`` opens to simuls, each opponent asks, the giver accepts each."""
    assert "You are now open to receive simul requests." in await said(giver, "set simopen 1")
    for opponent in opponents:
        assert await said(opponent, f"simmatch {giver.name}") == ["Simul match request sent."]
        await giver.expect(has_text(f"{opponent.name} requests to join a simul match with you."))
    for opponent in opponents:
        await giver.command(f"simmatch {opponent.name}")
        await opponent.expect(has_text("Creating:"))


def seated(server: Server, client: Client) -> int:
    table = server.core.tables.seated(server.core.world.online[name_key(client.name)])
    assert table is not None
    return table.number


async def test_a_giver_plays_three_opponents_to_the_end(server: Server) -> None:
    giver = await player(server, "Giver")
    ann, bob, cat = [await player(server, n) for n in ("Ann", "Bob", "Cat")]
    assert await said(ann, "simmatch Giver") == ["Giver is not open to receiving simul requests."]
    await simul_of(server, giver, ann, bob)
    # ICC's startsimul takes every request still waiting
    assert await said(cat, "simmatch Giver") == ["Simul match request sent."]
    await giver.command("startsimul")
    await cat.expect(has_text("Creating:"))
    assert await said(giver, "simgames") == ["You are playing 3 simultaneous games."]
    assert await said(ann, "simgames Giver") == ["Giver is playing 3 simultaneous games."]
    assert (await said(ann, "simwho"))[0] == "Simuls being given:"
    boards = [seated(server, c) for c in (ann, bob, cat)]
    assert seated(server, giver) == boards[0]  # at the first board
    giving = server.core.world.online["giver"]
    assert (giving.state, giving.state_game) == ("S", boards[0])
    # an opponent of the simul is playing: he asks for no other simul
    assert await said(bob, "simmatch Giver") == ["You are already playing a game."]
    # board 1: the giver moves; Ann answers; on to board 2
    await giver.command("e4")
    await ann.command("e5")
    await giver.command("sn")
    await ann.expect(has_text("Giver is moving away from your board."))
    await bob.expect(has_text("Giver is at your board!"))
    await cat.expect(has_text("Giver will be at your board NEXT!"))
    assert seated(server, giver) == boards[1]
    await giver.command("f3")
    await bob.command("e5")
    await giver.command("simnext")
    assert seated(server, giver) == boards[2]
    # Cat passes: the giver goes on to board 1
    assert await said(cat, "simpass") == [
        "You have passed and have 2 pass(es) left.",
        "Giver is 2 boards away.",  # lasker's player_goto_board tells every opponent
    ]
    await giver.expect(has_text("Cat has decided to pass and has 2 pass(es) left."))
    await ann.expect(has_text("Giver is at your board!"))
    assert seated(server, giver) == boards[0]
    assert await said(bob, "simpass") == ["You cannot pass until the simul holder arrives!"]
    assert await said(giver, "simpass") == ["You are the simul holder and cannot pass!"]
    for white, black in (("Bc4", "Nc6"), ("Qh5", "Nf6")):
        await giver.command(white)
        await ann.command(black)
    await giver.command("Qxf7#")  # board 1 is won; the giver goes on to board 2
    await giver.expect(has_text("There are 2 boards left."))
    assert any("Board 1 has completed." in t for t in texts(giver.events))
    assert seated(server, giver) == boards[1]
    await giver.command("g4")
    await bob.command("Qh4#")  # board 2 is lost
    await giver.expect(has_text("There are 1 boards left."))
    assert seated(server, giver) == boards[2]
    # one board left (of three): simnext finds no other and he stays there, as lasker's
    assert "You are only playing one board!" not in await said(giver, "simnext")
    await cat.expect(has_text("Giver is at your board!"))
    assert seated(server, giver) == boards[2]
    await giver.command("d4")
    await cat.command("resign")
    await giver.expect(has_text("That was the last board, thanks for playing."))
    shown = texts(giver.events)
    assert "{Simul (Giver vs. 3) is over.}" in shown
    assert "Results: 2 Wins, 1 Losses, 0 Draws, 0 Aborts" in shown
    assert await said(giver, "simgames") == ["You are playing 0 simultaneous games."]
    assert await said(giver, "simnext") == ["You are not giving a simul."]
    assert server.core.tables.seated(giving) is None
    assert giving.state == "X"
    # each board was an ordinary game, stored with its result
    await server.core.play.flush()
    stored = await asyncio.to_thread(server.store.history, "Giver")
    assert sorted((r.black, r.score) for r in stored) == [
        ("Ann", "1-0"),
        ("Bob", "0-1"),
        ("Cat", "1-0"),
    ]
    assert all(r.white == "Giver" and not r.rated for r in stored)


async def test_simnext_simprev_simabort_simadjourn_texts(server: Server) -> None:
    giver = await player(server, "Holder")
    await giver.command("set style 12")
    ann, bob = [await player(server, n) for n in ("Ann", "Bob")]
    for line in ("simnext", "simprev", "simabort", "simallabort", "simadjourn", "simalladjourn"):
        assert await said(giver, line) == ["You are not giving a simul."], line
    assert await said(giver, "goboard 1") == ["You are not giving a simul."]
    assert await said(ann, "simpass") == ["You are not playing a game."]
    assert await said(giver, "simmatch Holder") == ["You can't simmatch yourself!"]
    assert await said(giver, "simmatch Nobody") == ['No user named "Nobody" is logged in.']
    await simul_of(server, giver, ann)
    assert await said(giver, "simnext") == ["You are only playing one board!"]
    assert await said(ann, "simpass") == ["This is the only game, so passing is futile."]
    # a giver joins no other simul
    assert await said(giver, "simmatch Bob") == [
        "You cannot be the simul giver and request to join another simul.",
        "That would just be too confusing for me and you.",
    ]
    assert await said(ann, "simmatch Bob") == ["You are already playing a game."]
    assert await said(bob, "simmatch Holder") == ["Simul match request sent."]
    await giver.command("simmatch Bob")
    await bob.expect(has_text("Creating:"))
    first, second = seated(server, ann), seated(server, bob)
    assert await said(giver, f"goboard {first}") == ["You are already at that board!"]
    assert await said(giver, "goboard Holder") == ["You can't goboard yourself!"]
    await giver.command("simprev")
    await ann.expect(has_text("Holder is moving back to the previous board."))
    await bob.expect(has_text("Holder is at your board!"))
    assert seated(server, giver) == second
    await giver.command("goboard Ann")
    await bob.expect(has_text("Holder has moved away from your board."))
    assert seated(server, giver) == first
    assert await said(giver, "goboard 99") == ["You are not playing that game/person."]
    await giver.command("e4")
    await giver.command("simnext")
    # a move on a board the giver is away from reaches him when he comes to it (lasker's
    # send_boards)
    await ann.command("e5")
    await giver.settle(0.1)
    mark = len(giver.events)
    await giver.command("goboard Ann")
    assert [b.game_number for b in boards(giver.events[mark:])] == [first]
    away = [b for b in boards(giver.events[:mark]) if b.game_number == first]
    assert away and all(b.pretty_move != "e5" for b in away)  # e4's, not Ann's answer
    assert boards(giver.events[mark:])[0].pretty_move == "e5"
    shown = await said(giver, "simadjourn")  # Ann's board: adjourned
    adjourned = f"{{Game {first} (Holder vs. Ann) Game adjourned by mutual agreement}} *"
    assert adjourned in shown
    assert shown[-1] == "There are 1 boards left."
    await ann.expect(has_text("adjourned by mutual agreement"))
    assert seated(server, giver) == second
    shown = await said(giver, "sab")  # lasker's alias of simabort
    assert shown[-4:] == [
        "Board 2 has completed.",
        "{Simul (Holder vs. 2) is over.}",
        "Results: 0 Wins, 0 Losses, 0 Draws, 2 Aborts",
        "That was the last board, thanks for playing.",
    ]
    await bob.expect(has_text("aborted by mutual agreement"))
    # the adjourned board goes on when Ann asks again and the giver accepts
    assert await said(ann, "simmatch Holder") == [
        "Request to resume simul sent. Adjourned game found."
    ]
    await giver.expect(has_text("Ann requests to continue an adjourned simul game."))
    await giver.command("simmatch Ann")
    await ann.expect(has_text("Creating:"))
    assert await said(giver, "simgames") == ["You are playing 1 simultaneous games."]
    assert "That was the last board, thanks for playing." in await said(giver, "saa")
    await ann.expect(has_text("aborted by mutual agreement"))


async def test_a_giver_who_leaves_ends_every_board_as_a_player_who_leaves(
    server: Server,
) -> None:
    giver = await player(server, "Leaver")
    ann, bob = [await player(server, n) for n in ("Ann", "Bob")]
    await simul_of(server, giver, ann, bob)
    await giver.send("quit")
    # registered players' games are adjourned when one of them leaves
    await ann.expect(has_text("adjourned"))
    await bob.expect(has_text("adjourned"))
    await until(lambda: not server.core.play.by_player)
    assert server.core.state(Simuls).given == {}


async def test_simopen_toggles_and_set_simopen_0_removes_the_requests(server: Server) -> None:
    giver = await player(server, "Opener")
    ann = await player(server, "Ann")
    assert await said(giver, "simopen") == ["You are now open to receive simul requests."]
    assert await said(ann, "simmatch Opener") == ["Simul match request sent."]
    assert await said(giver, "simopen") == ["You are no longer receiving simul requests."]
    await ann.expect(has_text("Opener is no longer open to simul requests"))
    assert await said(giver, "startsimul") == ["Nobody has asked to join your simul."]
    assert await said(ann, "simmatch Opener crazyhouse") == [
        "Opener is not open to receiving simul requests."
    ]
    await giver.command("set simopen 1")
    assert await said(ann, "simmatch Opener nosuchthing") == ["No such category/board: nosuchthing"]
    await ann.command("seek 5 0")
    pairing = server.core.state(Pairing)
    assert pairing.seeks_of(server.core.world.online["ann"])
    assert await said(ann, "simmatch Opener crazyhouse") == ["Simul match request sent."]
    await giver.expect(has_text("Ann requests to join a crazyhouse simul match with you."))
    await giver.command("simmatch Ann")
    await ann.expect(has_text("Creating:"))
    assert not pairing.seeks_of(server.core.world.online["ann"])  # a game began: it went
    assert await said(ann, "simwho") == [
        "Simuls being given:",
        f"  Opener              1 of   1 boards left, at game {seated(server, giver)}",
        "1 simul displayed.",
    ]


async def test_icc_startsimul_unit_and_dg_state_s(server: Server) -> None:
    """ICC's ``startsimul`` answers in a unit of CN_STARTSIMUL; the giver's DG_STATE is
    ``S`` with the game he is at, as he moves from board to board."""
    on = (DG.PLAYER_ARRIVED, DG.STATE, DG.PLAYERS_IN_MY_GAME)
    watcher = await connect(server, on)
    await watcher.login("Watcher", None, f"level2settings={bits(*on)}")
    await watcher.settle()
    giver = await connect(server)
    await asyncio.to_thread(server.store.add_user, "Icc", "pw")
    await giver.login("Icc", "pw", "level1=1")
    await giver.command("set simopen 1")
    ann, bob = [await player(server, n) for n in ("Ann", "Bob")]
    for opponent in (ann, bob):
        await said(opponent, "simmatch Icc")
    await giver.settle(0.1)  # the requests' units
    events = await giver.command("startsimul")
    [start] = [e for e in events if isinstance(e, UnitStart) and e.depth == 1]
    assert start.command == CN.CN_STARTSIMUL
    await bob.expect(has_text("Creating:"))
    first, second = seated(server, ann), seated(server, bob)
    await watcher.expect_dg(DG.STATE, playername="Icc", state="S", state_game=first)
    await giver.command("simnext")
    await watcher.expect_dg(DG.STATE, playername="Icc", state="S", state_game=second)
    # the spec's DG_PLAYERS_IN_MY_GAME: SW away from the board, PW at it
    for number, symbol in ((first, "SW"), (second, "PW")):
        events = await watcher.command(f"observe {number}")
        [seat] = [g for g in grams(events, DG.PLAYERS_IN_MY_GAME) if g.playername == "Icc"]
        assert (seat.gamenumber, seat.symbol) == (number, symbol)
    assert not watcher.errors()


class _Node:
    """Another node of a cluster: nothing of a refused simul is sent there."""

    def deliver(self, batch: object, entries: list[object]) -> None:
        raise AssertionError("not sent to the other node")


async def test_a_simul_across_cluster_nodes_is_refused(server: Server) -> None:
    """A giver connected to another node (a replica here) gets no request: a simul is
    played on one node, never half across two."""
    far = User(name="Far", registered=True, logged_in=True, remote=_Node())
    far.set_variable("simopen", 1)
    server.core.world.add_replica(far)
    ann = await player(server, "Ann")
    assert await said(ann, "simmatch Far") == [
        "Far is connected to another server of this cluster.",
        "A simul is played on one server.",
    ]
    assert server.core.state(Simuls).requests == {}


async def test_an_opponent_who_leaves_ends_his_board_and_the_giver_moves_on(
    server: Server,
) -> None:
    giver = await player(server, "Stayer")
    ann, bob = [await player(server, n) for n in ("Ann", "Bob")]
    await simul_of(server, giver, ann, bob)
    second = seated(server, bob)
    await ann.send("quit")  # at the board the giver is at: adjourned (both registered)
    await giver.expect(has_text("Board 1 has completed."))
    await giver.expect(has_text("There are 1 boards left."))
    assert seated(server, giver) == second
    assert await said(giver, "simgames") == ["You are playing 1 simultaneous games."]
