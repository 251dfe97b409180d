"""Seeks, challenges and resuming adjourned games, end to end (users connected in memory)."""

from __future__ import annotations

import asyncio
from typing import Any

from icswire.protocol.datagrams import DG
from icswire.protocol.events import IvarLine, Style12Line, Text
from icswire.protocol.ivars import format_ivar
from icswire.server.app import Server
from icswire.server.core.render.batch import Batch
from icswire.server.features.pairing import removing, shown, state

from .client import Client
from .support import bits, connect, has_text, is_text, text_lines

ACCEPT_HELP = 'You can "accept" or "decline", or propose different parameters.'


async def player(server: Server, name: str, *datagrams: int, password: str | None = None) -> Client:
    """A logged-in client; ``password`` registers the name first."""
    if password is not None:
        await asyncio.to_thread(server.store.add_user, name, password)
    client = await connect(server, datagrams)
    setup = [f"level2settings={bits(*datagrams)}"] if datagrams else []
    await client.login(name, password, *setup)
    await client.command("set style 12")  # boards as XBoard asks for them (FICS's default: 1)
    await client.command("iset nowrap 1")  # long answers whole, as interfaces ask
    await client.settle(0.05)
    return client


def is_ivar_line(line: str) -> Any:
    """A FICS interface variable line (``<s>``, ``<sr>`` ...) decoded, that is ``line``."""
    return lambda e: isinstance(e, IvarLine) and format_ivar(e.record) == line


def has_ivar_line(start: str) -> Any:
    return lambda e: isinstance(e, IvarLine) and format_ivar(e.record).startswith(start)


async def board(client: Client) -> Any:
    line = await client.expect(lambda e: isinstance(e, Style12Line))
    return line.record


# -- challenges ------------------------------------------------------------------------------


async def test_challenge_and_issuing_lines_are_what_zippy_reads(server: Server) -> None:
    alpha = await player(server, "Alpha")
    beta = await player(server, "Beta")
    await alpha.send("match Beta 3 0")
    await beta.expect(is_text("Challenge: Alpha (----) Beta (----) unrated blitz 3 0."))
    assert (await beta.expect(lambda e: isinstance(e, Text))).text == ACCEPT_HELP
    await alpha.expect(is_text("Issuing: Alpha (----) Beta (----) unrated blitz 3 0."))
    await alpha.send("match Beta 1 1 white")  # a new offer replaces the old one
    await alpha.expect(is_text("Updating offer already made to Beta."))
    # FICS calls these games lightning (PyChess looks its types up by FICS's names)
    await alpha.expect(is_text("Issuing: Alpha (----) [white] Beta (----) unrated lightning 1 1."))
    await beta.expect(is_text("Challenge: Alpha (----) [white] Beta (----) unrated lightning 1 1."))
    await alpha.send("match Beta 1 1 white")
    await alpha.expect(is_text("You are already offering an identical match to Beta."))
    await alpha.send("match Beta")  # no terms: the time and inc variables, FICS's 2 12
    await alpha.expect(is_text("Issuing: Alpha (----) Beta (----) unrated blitz 2 12."))
    for line, answer in (
        ("match Alpha", "You can't match yourself."),
        ("match Nobody", 'No user named "Nobody" is logged in.'),
        (
            "match Beta 3 0 wild 9",
            "Wild 9 is not played here: two kings: python-chess has no board whose royal king"
            " changes during the game.",
        ),
        ("match Beta 1000 0", "The time must be from 0 to 999 minutes."),
        ("match Beta 3 0 sideways", 'Unknown option "sideways".'),
        # time odds are four numbers, no more (test_game_terms.py plays them)
        (
            "match Beta 5 0 3 0 1",
            "Give the time control as TIME INC, or with time odds WTIME WINC BTIME BINC.",
        ),
    ):
        await alpha.send(line)
        await alpha.expect(is_text(answer))
    assert not alpha.errors() and not beta.errors()


async def test_accept_starts_the_game_for_both(server: Server) -> None:
    alpha = await player(server, "Alpha")
    beta = await player(server, "Beta")
    await alpha.send("match Beta 3 0 white")
    await beta.expect(has_text("Challenge: Alpha"))
    await beta.send("$accept Alpha")  # XBoard's form
    await beta.expect(is_text("You accept the match offer from Alpha."))
    await alpha.expect(is_text("Beta accepts the match offer."))
    created = "{Game 1 (Alpha vs. Beta) Creating unrated blitz match.}"
    for client, relation in ((alpha, 1), (beta, -1)):
        await client.expect(is_text(created))
        record = await board(client)
        assert (record.white_name, record.black_name) == ("Alpha", "Beta")
        assert record.relation == relation
        assert (record.initial_time, record.increment) == (3, 0)
    assert server.games.by_number[1].white.name == "Alpha"
    await beta.send("match Alpha 3 0")
    await beta.expect(is_text("You are playing a game."))
    await alpha.send("abort")  # before move 2: at once
    await beta.expect(has_text("{Game 1 (Alpha vs. Beta)"))
    # No colour asked: Alpha had White last time, so Beta gets it now.
    await alpha.send("match Beta 3 0")
    await beta.expect(has_text("Challenge: Alpha"))
    await beta.send("accept")
    await alpha.expect(is_text("{Game 1 (Beta vs. Alpha) Creating unrated blitz match.}"))
    assert (await board(alpha)).relation == -1


async def test_decline_withdraw_and_pending(server: Server) -> None:
    alpha = await player(server, "Alpha", DG.MATCH, DG.MATCH_REMOVED)
    beta = await player(server, "Beta", DG.MATCH, DG.MATCH_REMOVED)
    await alpha.command("match Beta 2 12")
    await beta.expect_dg(DG.MATCH, challenger="Alpha")
    listing = [e.text for e in await alpha.command("pending") if isinstance(e, Text)]
    offer = "Alpha (----) Beta (----) unrated blitz 2 12."
    assert listing == [
        "Offers to other players:",
        "",
        f"   1: You are offering Beta a challenge: {offer}",
        "",
        'If you wish to withdraw any of these offers type "withdraw number".',
        "",
        "There are no offers pending from other players.",
    ]
    listing = [e.text for e in await beta.command("pending") if isinstance(e, Text)]
    assert listing == [
        "There are no offers pending to other players.",
        "",
        "Offers from other players:",
        "",
        f"   1: Alpha is offering a challenge: {offer}",
        "",
        'If you wish to accept any of these offers type "accept number".',
        'If you wish to decline any of these offers type "decline number".',
    ]
    await beta.send("decline")
    await beta.expect(is_text("You decline the match offer from Alpha."))
    await alpha.expect(is_text("Beta declines the match offer."))
    for client in (alpha, beta):
        removed = await client.expect_dg(DG.MATCH_REMOVED)
        assert (removed.challenger, removed.receiver) == ("Alpha", "Beta")
        assert removed.explanation == "Beta declined the challenge."
    await alpha.command("match Beta 2 12")
    await beta.send("withdraw")
    await beta.expect(is_text("You have no pending offers to other players."))
    await alpha.send("withdraw Be")
    await alpha.expect(is_text("You withdraw the match offer to Beta."))
    await beta.expect(is_text("Alpha withdraws the match offer."))
    removed = await beta.expect_dg(DG.MATCH_REMOVED)
    assert removed.explanation == "Alpha withdrew the challenge."
    await beta.send("accept Alpha")  # FICS: none at all, whoever is named
    await beta.expect(is_text("You have no pending offers to accept."))
    listing = [e.text for e in await alpha.command("pending") if isinstance(e, Text)]
    assert "There are no offers pending to other players." in listing
    assert not alpha.errors() and not beta.errors()


async def test_dg_match_fields_with_and_without_assessment(server: Server) -> None:
    ann = await player(server, "Ann", DG.MATCH, DG.MATCH_ASSESSMENT, password="pw")
    bob = await player(server, "Bob", DG.MATCH, password="pw")
    guest = await player(server, "Gus", DG.MATCH, DG.MATCH_ASSESSMENT)
    await ann.send("match Bob 5 0 rated black")
    for client in (ann, bob):
        record = await client.expect_dg(DG.MATCH)
        assert record[:17] == (
            "Ann",
            0,
            0,
            "",
            "Bob",
            0,
            0,
            "",
            0,
            "Blitz",
            True,
            False,
            5,
            0,
            5,
            0,
            0,
        )
        assert record.fancy_timecontrol == ""
    mine = ann.received(DG.MATCH)[0]
    loss, draw, win = mine.assess_loss, mine.assess_draw, mine.assess_win
    assert loss < 0 < win and draw == 0 and win == -loss  # equal new ratings
    theirs = bob.received(DG.MATCH)[0]
    assert (theirs.assess_loss, theirs.assess_draw, theirs.assess_win) == (None, None, None)
    await guest.send("match Ann 2 12 white wild 23")
    record = await guest.expect_dg(DG.MATCH, receiver="Ann")
    assert (record.challenger_titles, record.wild_number, record.rating_type) == (
        "U",
        23,
        "Crazyhouse",
    )
    assert (record.rated, record.color_request) == (False, 1)
    assert (record.assess_loss, record.assess_draw, record.assess_win) == (0, 0, 0)
    await ann.expect_dg(DG.MATCH, challenger="Gus")
    for client in (ann, bob, guest):
        assert not client.errors()


async def test_a_game_or_a_departure_removes_challenges(server: Server) -> None:
    alpha = await player(server, "Alpha", DG.MATCH_REMOVED)
    beta = await player(server, "Beta", DG.MATCH_REMOVED)
    gamma = await player(server, "Gamma", DG.MATCH_REMOVED)
    await alpha.command("match Beta 3 0")
    await gamma.command("match Alpha 3 0")
    await alpha.send("accept Gamma")
    removed = await beta.expect_dg(DG.MATCH_REMOVED)
    assert (removed.challenger, removed.receiver) == ("Alpha", "Beta")
    assert removed.explanation == "Alpha started another game."
    await gamma.expect_dg(DG.MATCH_REMOVED, explanation="Alpha accepted the challenge.")
    await beta.command("match Gamma 3 0")  # Gamma is playing
    assert "Gamma is playing a game." in text_lines(beta.events)
    delta = await player(server, "Delta", DG.MATCH_REMOVED)
    await beta.command("match Delta 3 0")
    session = server.world.find("Beta")
    assert session is not None
    removing.player_left(server.core, session)  # what the server does when Beta disconnects
    await delta.expect(is_text("Beta, who was challenging you, has departed."))
    removed = await delta.expect_dg(DG.MATCH_REMOVED)
    assert (removed.challenger, removed.explanation) == ("Beta", "Beta left.")
    assert server.core.state(state.Pairing).challenges == []


async def test_guests_cannot_seek_or_match_rated(server: Server) -> None:
    guest = await player(server, "Gus")
    member = await player(server, "Member", password="pw")
    await guest.send("seek 3 0 rated")
    await guest.expect(is_text(state.GUESTS_UNRATED))
    await guest.send("match Member 3 0 rated")
    await guest.expect(is_text(state.GUESTS_UNRATED))
    await member.send("match Gus 3 0 r")
    await member.expect(is_text("Gus is unregistered and cannot play rated games."))
    await member.send("seek 3 0 rated")
    await member.expect(has_text("Your seek has been posted with index 1."))
    await guest.send("play 1")
    await guest.expect(is_text(state.GUESTS_UNRATED))
    assert not [t for t in text_lines(guest.events) if "seeking" in t]
    assert server.core.state(state.Pairing).challenges == []


# -- seeks -----------------------------------------------------------------------------------


async def test_seeks_are_announced_and_matching_seeks_pair_at_once(server: Server) -> None:
    alpha = await player(server, "Alpha", DG.SEEK, DG.SEEK_REMOVED)
    beta = await player(server, "Beta")
    watcher = await player(server, "Watcher", DG.SEEK, DG.SEEK_REMOVED)
    await alpha.send("seek 3 0")
    await alpha.expect(is_text("Your seek has been posted with index 1."))
    own = await alpha.expect_dg(DG.SEEK, index=1)
    await alpha.expect(is_text("(2 player(s) saw the seek.)"))
    await beta.expect(is_text('Alpha (++++) seeking 3 0 unrated blitz ("play 1" to respond)'))
    seen = await watcher.expect_dg(DG.SEEK, index=1)
    assert seen == own
    assert seen[:16] == (
        1, "Alpha", "U", 0, 0, 0, "Blitz", 3, 0, False, -1, 0, 9999, True, False, ""
    )  # fmt: skip
    assert not [t for t in text_lines(watcher.events) if "seeking" in t]  # the DG replaces the text
    rows = [e.text for e in await beta.command("sought") if isinstance(e, Text)]
    assert rows[0].split() == ["1", "++++", "Alpha", "3", "0", "unrated", "blitz", "0-9999"]
    assert rows[1] == "1 ad(s) displayed."
    await beta.send("seek 3 0")
    await beta.expect(is_text("Your seek matches one already posted by Alpha."))
    await alpha.expect(is_text("Your seek 1 matches one posted by Beta."))
    for client in (alpha, watcher):
        removed = await client.expect_dg(DG.SEEK_REMOVED)
        assert (removed.index, removed.reason) == (1, state.SEEKER_PLAYING)
    for client in (alpha, beta):
        await client.expect(has_text("Creating unrated blitz match.}"))
        assert abs((await board(client)).relation) == 1
    assert server.core.state(state.Pairing).seeks == {}
    await watcher.settle()
    assert len(watcher.received(DG.SEEK)) == 1  # Beta's seek was never posted
    assert not alpha.errors() and not watcher.errors()


async def test_play_answers_a_seek(server: Server) -> None:
    alpha = await player(server, "Alpha", DG.SEEK, DG.SEEK_REMOVED)
    beta = await player(server, "Beta")
    await alpha.command("seek 5 0 white")
    await alpha.command("seek 15 0")
    await beta.expect(has_text('seeking 5 0 unrated blitz [white] ("play 1" to respond)'))
    await beta.expect(has_text('seeking 15 0 unrated standard ("play 2" to respond)'))
    await beta.send("play 1")
    await beta.expect(is_text("You accept the seek of Alpha."))
    await alpha.expect(is_text("Beta accepts your seek 1."))
    reasons = {(await alpha.expect_dg(DG.SEEK_REMOVED)).index for _ in range(2)}
    assert reasons == {1, 2}
    assert {e.reason for e in alpha.received(DG.SEEK_REMOVED)} == {state.SEEKER_PLAYING}
    await alpha.expect(is_text("{Game 1 (Alpha vs. Beta) Creating unrated blitz match.}"))
    assert (await board(alpha)).relation == 1
    await beta.expect(is_text("{Game 1 (Alpha vs. Beta) Creating unrated blitz match.}"))
    assert (await board(beta)).relation == -1
    await beta.send("play 1")
    await beta.expect(is_text("That seek is not available."))


async def test_unseek_replace_manual_seeks_and_seekinfo(server: Server) -> None:
    alpha = await player(server, "Alpha", DG.SEEK, DG.SEEK_REMOVED)
    beta = await player(server, "Beta")
    watcher = await player(server, "Watcher", DG.SEEK, DG.SEEK_REMOVED)
    await beta.command("iset seekinfo 1")
    await alpha.command("seek 3 0 m 0-2000")
    await beta.expect(has_text('Alpha (++++) seeking 3 0 unrated blitz 0-2000 m ("play 1"'))
    await beta.expect(
        is_ivar_line("<s> 1 w=Alpha ti=01 rt=0P t=3 i=0 r=u tp=blitz c=? rr=0-2000 a=f f=f")
    )
    await alpha.send("seek 3 0 m 0-2000")  # the same ad again replaces it
    removed = await alpha.expect_dg(DG.SEEK_REMOVED)
    assert (removed.index, removed.reason) == (1, state.SEEK_REPLACED)
    await alpha.expect_dg(DG.SEEK, index=1)
    await beta.expect(is_ivar_line("<sr> 1"))
    await beta.send("play 1")  # a manual seek: a challenge instead of a game
    await beta.expect(is_text("Issuing match request since the seek was set to manual."))
    await alpha.expect(is_text("Challenge: Beta (----) Alpha (----) unrated blitz 3 0."))
    await alpha.command("decline")
    await alpha.command("seek 2 12")
    await alpha.command("seek 2 12 black")
    await alpha.send("seek 4 0")
    await alpha.expect(is_text("You can only have 3 active seeks."))
    await alpha.send("unseek 3")
    removed = await alpha.expect_dg(DG.SEEK_REMOVED, index=3)
    assert removed.reason == state.SEEK_REMOVED
    await alpha.expect(is_text("Your seek 3 has been removed."))
    await alpha.send("unseek")
    for index in (1, 2):
        assert (await alpha.expect_dg(DG.SEEK_REMOVED, index=index)).reason == 3
    await alpha.expect(is_text("Your seeks have been removed."))
    await alpha.send("unseek")
    await alpha.expect(is_text("You have no active seeks."))
    await alpha.command("seek 1 0")
    await beta.expect(has_ivar_line("<s> 1 w=Alpha ti=01 rt=0P t=1 i=0 r=u tp=lightning"))
    await watcher.expect_dg(DG.SEEK, index=1, time=1)
    session = server.world.find("Alpha")
    assert session is not None
    removing.player_left(server.core, session)  # what the server does when Alpha disconnects
    await beta.expect(is_ivar_line("<sr> 1"))
    removed = await watcher.expect_dg(DG.SEEK_REMOVED, index=1)
    assert removed.reason == state.SEEKER_LEFT
    assert server.core.state(state.Pairing).seeks == {}
    assert not alpha.errors() and not beta.errors() and not watcher.errors()


async def test_turning_dg_seek_on_sends_the_sought_list(server: Server) -> None:
    alpha = await player(server, "Alpha")
    await alpha.command("seek 3 0")
    await alpha.command("seek 5 5 black")
    late = await player(server, "Late", DG.SEEK, DG.MATCH)
    await alpha.command("match Late 3 0")
    batch = Batch(0, None)
    session = server.world.find("Late")
    assert session is not None
    shown.send_lists(server.core, session, DG.SEEK, batch)
    shown.send_lists(server.core, session, DG.MATCH, batch)
    batch.flush()
    assert [s.index for s in [await late.expect_dg(DG.SEEK) for _ in range(2)]] == [1, 2]
    await late.expect_dg(DG.MATCH, challenger="Alpha")


# -- adjourned games -------------------------------------------------------------------------


async def test_an_adjourned_game_is_resumed(server: Server) -> None:
    ann = await player(server, "Ann", password="pw")
    bob = await player(server, "Bob", password="pw")
    await ann.command("match Bob 3 0 white")
    await bob.command("accept")
    await ann.expect(has_text("Creating unrated blitz match.}"))
    await ann.command("e4")
    await bob.command("e5")
    await ann.close()
    await bob.expect(has_text("{Game 1 (Ann vs. Bob) Game adjourned when Ann disconnected}"))
    await server.games.flush()
    [record] = await asyncio.to_thread(server.store.adjourned, "Ann")
    assert record.moves == ("e4", "e5")
    ann = await connect(server)
    await ann.login("Ann", "pw")
    await ann.send("resume Bob")
    offer = "Ann (----) [white] Bob (----) unrated blitz 3 0 (adjourned)."
    await ann.expect(is_text(f"Issuing: {offer}"))
    await bob.expect(is_text(f"Challenge: {offer}"))
    await bob.send("match Ann")  # without terms: the adjourned game, agreed by both
    continuing = "{Game 1 (Ann vs. Bob) Continuing unrated blitz match.}"
    for client, relation in ((ann, 1), (bob, -1)):
        await client.expect(is_text(continuing))
        position = await board(client)
        assert position.relation == relation
        assert position.ranks[3] == "----p---" and position.ranks[4] == "----P---"
        assert position.move_number == 2
    await bob.command("resign")
    await ann.expect(has_text("{Game 1 (Ann vs. Bob) Bob resigns} 1-0"))
    await server.games.flush()
    assert await asyncio.to_thread(server.store.adjourned, "Ann") == []
    history = await asyncio.to_thread(server.store.history, "Ann")
    assert history[-1].moves == ("e4", "e5") and history[-1].score == "1-0"
    await ann.send("resume")
    await ann.expect(is_text("You have no adjourned games."))


async def test_challenging_back_accepts_or_counters(server: Server) -> None:
    alpha = await player(server, "Alpha", DG.MATCH_REMOVED)
    beta = await player(server, "Beta", DG.MATCH_REMOVED)
    await alpha.command("match Beta 3 0")
    await beta.send("match Alpha 5 0")  # other terms: a counteroffer replaces Alpha's
    await beta.expect(is_text("Declining the offer from Alpha and proposing a counteroffer."))
    await alpha.expect(is_text("Beta declines your offer and proposes a counteroffer."))
    removed = await alpha.expect_dg(DG.MATCH_REMOVED)
    assert removed.explanation == "Beta proposed different terms."
    await alpha.expect(is_text("Challenge: Beta (----) Alpha (----) unrated blitz 5 0."))
    await alpha.send("match Beta 5 0 black")  # the same terms: Beta's offer is accepted
    await alpha.expect(is_text("You accept the match offer from Beta."))
    await beta.expect(is_text("{Game 1 (Beta vs. Alpha) Creating unrated blitz match.}"))
    assert server.core.state(state.Pairing).challenges == []


async def test_wild_games_start_from_their_positions(server: Server) -> None:
    alpha = await player(server, "Alpha")
    beta = await player(server, "Beta")
    await alpha.command("match Beta 3 0 white fr")
    await beta.command("accept")
    await alpha.expect(is_text("{Game 1 (Alpha vs. Beta) Creating unrated wild/fr match.}"))
    first = await board(alpha)
    assert first.ranks[0].upper() == first.ranks[7]  # the same pieces face each other
    assert sorted(first.ranks[7]) == sorted("RNBQKBNR")
    await alpha.command("abort")
    await alpha.command("match Beta 3 0 white wild 23")
    await beta.command("accept")
    await alpha.expect(is_text("{Game 1 (Alpha vs. Beta) Creating unrated crazyhouse match.}"))
    assert (await board(alpha)).ranks[7] == "RNBQKBNR"
