"""FICS's ``set`` variables end to end: what ``set`` answers, ``vars`` in FICS's layout,
what each variable changes (match defaults, ropen, open, private games, time zones,
wrapping, bell, highlight, notifiedby, flip), and that a registered user keeps them."""

from __future__ import annotations

import asyncio

from icswire.protocol.events import Style12Line, Text
from icswire.server.app import Server
from icswire.server.core.net.session import Session
from icswire.server.core.render.wrap import wrap_line

from .client import Client
from .support import connect, is_text, quiet, until
from .support import text_lines as texts


async def player(
    server: Server, name: str, password: str | None = None, nowrap: bool = True
) -> Client:
    """A logged-in client; ``password`` registers the name first (once)."""
    if password is not None and await asyncio.to_thread(server.store.load, name) is None:
        await asyncio.to_thread(server.store.add_user, name, password)
    client = await connect(server)
    await client.login(name, password)
    if nowrap:
        await client.command("iset nowrap 1")
    return client


async def test_vars_are_shown_in_ficss_layout(server: Server) -> None:
    guest = await player(server, "Visitor")
    shown = texts(await guest.command("vars"))
    assert shown[0] == "Variable settings of Visitor(U):"
    assert shown[2:4] == [
        "time=2       private=0     shout=1         pin=0           style=1",
        "inc=12       jprivate=0    cshout=1        notifiedby=0    flip=0",
    ]
    assert "ropen=1                    tell=1          availmax=0      width=79" in shown
    assert "                           sshout=1        showownseek=0   tzone=SERVER" in shown
    assert shown[-2:] == ["", "Prompt: fics%"]
    await guest.command("set interface icswire-tests 1.0")
    assert texts(await guest.command("vars"))[-2:] == [
        "Prompt: fics%",
        "Interface: icswire-tests 1.0",
    ]
    await guest.close()


SET_ANSWERS = [
    ("set time 10", "Default time set to 10."),
    ("set inc 5", "Default increment set to 5."),
    ("set rated 1", "rated set to 1."),
    ("set ropen 0", "ropen set to 0."),
    ("set bell 1", "Bell on."),
    ("set bell", "Bell off."),  # a boolean without a value toggles
    ("set highlight 0", "Highlight is off."),
    ("set tzone cet", "Time zone set to CET."),
    ("set tzone america/new_york", "Time zone set to America/New_York."),
    ("set notifiedby 1", "You will now hear if people notify you, but you don't notify them."),
    ("set mailmess 1", "Your messages will be mailed to you."),
    ("set private 1", "Your games will be private."),
    ("set jprivate 1", "Your journal will be private."),
    ("set flip 1", "Flip on."),
    ("set width 100", "Width set to 100."),
    ("set height 40", "Height set to 40."),
    ("set autoflag 0", "Auto flag disabled."),
    ("set open 0", "You are no longer receiving match requests."),
    ("set open 1", "You are now open to receive match requests."),
    ("set availmin 1200", "availmin set to 1200."),
    ("set provshow 1", "provshow set to 1."),
    ("set showownseek 1", "showownseek set to 1."),
    ("set tzone Mars", "Bad value given for variable tzone."),
    ("set width 10", "Bad value given for variable width."),
    ("set highlight 16", "Bad value given for variable highlight."),
    ("set f", "Ambiguous variable name f."),
]


async def test_set_answers_in_ficss_words_and_a_registered_user_keeps_them(
    server: Server,
) -> None:
    fred = await player(server, "Fred", "secret")
    for line, answer in SET_ANSWERS:
        assert texts(await fred.command(line))[0] == answer, line
    assert texts(await fred.command("set highlight 2")) == [
        "Highlight is now style \x1b[1m2\x1b[0m."
    ]
    await fred.close()
    await server.core.writes.settled("Fred")
    visitor = await player(server, "Visitor")  # Fred is away: his saved variables
    away = texts(await visitor.command("vars fred"))
    assert away[:3] == [
        "Variable settings of Fred:",
        "",
        "time=10      private=1     shout=1         pin=0           style=1",
    ]
    assert any(row.endswith("tzone=America/New_York") for row in away)
    assert texts(await visitor.command("vars nobodyhere")) == [
        'There is no player matching the name "nobodyhere".'
    ]
    await visitor.close()
    again = await player(server, "Fred", "secret")
    shown = texts(await again.command("vars"))
    assert shown[2:6] == [
        "time=10      private=1     shout=1         pin=0           style=1",
        "inc=5        jprivate=1    cshout=1        notifiedby=1    flip=1",
        "rated=1      automail=0    kibitz=1        availinfo=0     highlight=2",
        "open=1       pgn=0         kiblevel=0      availmin=1200   bell=0",
    ]
    assert any(row.endswith("tzone=America/New_York") for row in shown)
    await again.close()


async def test_guests_cannot_set_what_needs_an_account(server: Server) -> None:
    guest = await player(server, "Visitor")
    for line, answer in (
        ("set rated 1", "You cannot change your rated status."),
        ("set jprivate 1", "Unregistered players may not keep a journal."),
        ("set mailmess 1", "Unregistered players may not receive messages."),
    ):
        assert texts(await guest.command(line)) == [answer]
    await guest.close()


async def test_match_takes_the_time_inc_and_rated_variables(server: Server) -> None:
    ann = await player(server, "Ann", "one")
    bob = await player(server, "Bob", "two")
    guest = await player(server, "Visitor")
    await ann.command("set time 7")
    await ann.command("set inc 3")
    assert texts(await ann.command("match Bob")) == [
        "Issuing: Ann (----) Bob (----) unrated blitz 7 3."
    ]
    await ann.command("set rated 1")
    assert texts(await ann.command("match Bob 4")) == [  # FICS: match NAME 5 is 5 0
        "Updating offer already made to Bob.",
        "Issuing: Ann (----) Bob (----) rated blitz 4 0.",
    ]
    assert texts(await ann.command("match Visitor 4")) == [  # a guest: unrated
        "Issuing: Ann (----) Visitor (----) unrated blitz 4 0."
    ]
    assert texts(await ann.command("seek"))[0] == "Your seek has been posted with index 1."
    await bob.expect(lambda e: isinstance(e, Text) and "seeking 7 3 rated" in e.text)
    (row,) = [line for line in texts(await bob.command("sought")) if "Ann" in line]
    assert row.split()[3:6] == ["7", "3", "rated"]
    for client in (ann, bob, guest):
        await client.close()


async def test_ropen_and_open_refuse_requests(server: Server) -> None:
    ann = await player(server, "Ann", "one")
    bob = await player(server, "Bob", "two")
    await bob.command("set ropen 0")  # Bob's rated is 0: only unrated requests
    assert texts(await ann.command("match Bob 5 0 rated")) == [
        "Bob only wants to play unrated games."
    ]
    await bob.expect(is_text("Ignoring rated match request from Ann."))
    assert texts(await ann.command("match Bob 5 0"))[0].startswith("Issuing: Ann")
    await bob.expect(lambda e: isinstance(e, Text) and e.text.startswith("Challenge: Ann"))
    closing = texts(await bob.command("set open 0"))
    assert closing == ["You are no longer receiving match requests."]
    await ann.expect(is_text("Bob declines the match offer."))
    assert "There are no offers pending to other players." in texts(await ann.command("pending"))
    assert texts(await ann.command("match Bob 5 0")) == ["Bob is not open to match requests."]
    for client in (ann, bob):
        await client.close()


async def start_game(white: Client, black: Client) -> None:
    await white.command(f"match {black.name} 5 0 white")
    await black.expect(lambda e: isinstance(e, Text) and e.text.startswith("Challenge:"))
    await black.command("accept")
    await white.expect(lambda e: isinstance(e, Text) and "Creating" in e.text)


async def test_private_games_are_listed_with_p_but_not_observed(server: Server) -> None:
    """FICS lists a private game with ``p`` in its flags (help ``private``); nobody but its
    players may observe it, and its result is not announced."""
    ann = await player(server, "Ann")
    bob = await player(server, "Bob")
    eve = await player(server, "Eve")
    await ann.command("set private 1")
    await eve.command("set gin 1")
    await start_game(ann, bob)
    listing = texts(await eve.command("games"))
    assert "[pbu  5   0]" in listing[1] and listing[-1] == "  1 game displayed."
    assert texts(await eve.command("observe 1")) == ["Sorry, game 1 is a private game."]
    assert texts(await eve.command("observe Ann")) == ["Sorry, game 1 is a private game."]
    assert texts(await ann.command("games"))[1].startswith("  1 ++++ Ann")
    await ann.command("resign")
    await eve.settle()
    assert not any(isinstance(e, Text) and "Game 1" in e.text for e in eve.events)
    for client in (ann, bob, eve):
        await client.close()


async def test_date_is_shown_in_your_time_zone(server: Server) -> None:
    guest = await player(server, "Visitor")
    await guest.command("set tzone America/Los_Angeles")
    local, _, gmt = texts(await guest.command("date"))
    assert local.startswith("Local time     - ")
    assert local.split()[-2] in ("PST", "PDT")
    assert gmt.startswith("GMT            - ") and gmt.split()[-2] == "GMT"
    await guest.close()


async def test_text_is_wrapped_at_the_width_unless_nowrap(server: Server) -> None:
    guest = await player(server, "Visitor", nowrap=False)
    await guest.command("set width 40")
    shown = texts(await guest.command("vars"))
    row = "time=2       private=0     shout=1         pin=0           style=1"
    assert wrap_line(row, 40) == [  # broken after the last blank within 40 columns
        "time=2       private=0     shout=1      ",
        "\\   pin=0           style=1",
    ]
    assert shown[2:4] == wrap_line(row, 40)
    await guest.command("iset nowrap 1")
    assert texts(await guest.command("vars"))[2] == row
    await guest.close()


async def test_bell_and_highlight_mark_a_challenge(server: Server) -> None:
    ann = await player(server, "Ann")
    bob = await player(server, "Bob")
    await bob.command("set bell 1")
    await bob.command("set highlight 1")
    await ann.command("match Bob 5 0")
    challenge = await bob.expect(lambda e: isinstance(e, Text) and "Challenge:" in e.text)
    assert challenge.text == "Challenge: \x1b[7mAnn\x1b[0m (----) Bob (----) unrated blitz 5 0."
    assert challenge.bells == (0,)  # a control-G before the line
    await bob.command("set bell 0")
    await bob.command("set highlight 0")
    await ann.command("match Bob 3 0")
    challenge = await bob.expect(lambda e: isinstance(e, Text) and "Challenge:" in e.text)
    assert challenge.text == "Challenge: Ann (----) Bob (----) unrated blitz 3 0."
    assert challenge.bells == ()
    for client in (ann, bob):
        await client.close()


async def test_notifiedby_tells_who_has_you_on_his_list(server: Server) -> None:
    ann = await player(server, "Ann", "one")
    bob = await player(server, "Bob", "two")
    await ann.command("+notify Bob")
    await bob.command("set notifiedby 1")
    await ann.close()
    await bob.expect(is_text("Notification: Ann has departed and isn't on your notify list."))
    await server.core.writes.barrier()  # what she saved is written
    ann = await player(server, "Ann", "one")
    await bob.expect(is_text("Notification: Ann has arrived and isn't on your notify list."))
    for client in (ann, bob):
        await client.close()


async def test_flip_turns_your_boards(server: Server) -> None:
    ann = await player(server, "Ann")
    bob = await player(server, "Bob")
    for client in (ann, bob):
        await client.command("set style 12")
    await ann.command("set flip 1")
    await start_game(ann, bob)
    ann_board = await ann.expect(lambda e: isinstance(e, Style12Line))
    (bob_board,) = [e for e in bob.events if isinstance(e, Style12Line)]
    # Ann plays White from Black's side; Bob plays Black from Black's side, as always
    assert (ann_board.record.flip, bob_board.record.flip) == (True, True)
    for client in (ann, bob):
        await client.close()


async def test_long_text_comes_a_page_at_a_time(server: Server) -> None:
    visitor = await player(server, "Visitor")
    await visitor.command("set height 240")
    whole = texts(await visitor.command("help set"))
    assert len(whole) > 20 and "Type [next] to see next page." not in whole
    await visitor.command("set height 5")
    pages = [texts(await visitor.command("help set"))]
    while pages[-1][-1] == "Type [next] to see next page.":
        assert len(pages[-1]) == 5  # height - 1 lines, then the prompt to go on
        pages.append(texts(await visitor.command("next")))
    assert [line for page in pages for line in page[:4]] == whole
    assert texts(await visitor.command("next")) == ["There is no more."]
    await visitor.close()


async def test_provshow_marks_provisional_ratings(server: Server) -> None:
    ann = await player(server, "Ann", "one")
    bob = await player(server, "Bob", "two")
    server.core.world.online["ann"].ratings["Blitz"] = (1612, 1)  # 1-19 games: provisional
    await ann.command("match Bob 5 0")
    await bob.expect(is_text("Challenge: Ann (1612) Bob (----) unrated blitz 5 0."))
    await bob.command("set provshow 1")
    await ann.command("match Bob 4 0")
    await bob.expect(is_text("Challenge: Ann (1612P) Bob (----) unrated blitz 4 0."))
    for client in (ann, bob):
        await client.close()


async def test_history_dates_are_in_your_time_zone(server: Server) -> None:
    ann = await player(server, "Ann", "one")
    bob = await player(server, "Bob", "two")
    await start_game(ann, bob)
    await ann.command("resign")
    await bob.expect(lambda e: isinstance(e, Text) and e.text.endswith("0-1"))
    await server.core.play.flush()
    await bob.command("set tzone GMT")
    utc = texts(await bob.command("history Ann"))
    assert utc[0] == "History for Ann:" and utc[2].split()[-2] == "UTC"
    await bob.command("set tzone America/Los_Angeles")
    pacific = texts(await bob.command("history Ann"))
    assert pacific[2].split()[-2] in ("PST", "PDT")
    for client in (ann, bob):
        await client.close()


async def test_finger_shows_the_last_disconnection_in_your_time_zone(server: Server) -> None:
    ann = await player(server, "Ann", "one")
    bob = await player(server, "Bob", "two")
    await ann.close()
    await quiet(server)
    # her session left the world: her logout time is queued (the left hooks ran first)
    await until(lambda: "ann" not in server.core.world.online)
    await server.core.writes.barrier()  # and written
    await bob.command("set tzone Asia/Tokyo")
    shown = texts(await bob.command("finger Ann"))
    assert shown[2].startswith("Last disconnected: ") and shown[2].split()[-2] == "JST"
    await bob.close()


def test_sessions_with_the_same_values_share_them_and_a_change_is_one_users() -> None:
    one, two = Session(), Session()
    assert one.variables is two.variables and one.ivariables is two.ivariables
    one.set_variable("style", 12)
    assert one.variables["style"] == 12 and two.variables["style"] == 1
    two.set_variable("style", 12)
    assert one.variables is two.variables
    two.set_variable("style", 1)
    assert two.variables is Session().variables and one.variables["style"] == 12
    one.set_ivariable("ms", 1)
    assert one.ivariables["ms"] == 1 and not two.ivariables["ms"]
