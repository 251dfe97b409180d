"""The daily commands of issue 22: ``time``, ``assess``, ``open``, ``rated``, ``bell`` and
``lasttells``, for an ICC session (level 1 on: the unit's command number is Appendix 1's)
and a FICS session (its text, and its block code in block mode), and their help."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from icswire.protocol.block import BlockCode
from icswire.protocol.datagrams import DG
from icswire.protocol.events import BlockEnd, BlockStart, UnitEnd, UnitStart
from icswire.protocol.level1 import CommandNumber as CN
from icswire.server.app import Server
from icswire.server.core.model.tables import Terms
from icswire.server.core.render.batch import Batch
from icswire.server.core.render.boards import WHITE
from icswire.server.features.chat import LAST_TELLS, Talk

from .client import Client
from .support import bits, connect, grams, texts


async def fics_user(server: Server, name: str, registered: bool = True) -> Client:
    client = await connect(server)
    if registered:
        await asyncio.to_thread(server.store.add_user, name, "pw")
    await client.login(name, "pw" if registered else None)
    await client.settle()
    return client


async def icc_user(server: Server, name: str, registered: bool = True) -> Client:
    client = await connect(server, (DG.MY_VARIABLE,))
    if registered:
        await asyncio.to_thread(server.store.add_user, name, "pw")
    setup = ("level1=1", f"level2settings={bits(DG.MY_VARIABLE)}")
    await client.login(name, "pw" if registered else None, *setup)
    await client.settle()
    return client


async def unit(client: Client, line: str) -> tuple[int, list[str], list[Any]]:
    """The command number of the level 1 unit of ``line``, its texts and its events."""
    events = await client.command(line)
    [start] = [e for e in events if isinstance(e, UnitStart) and e.depth == 1]
    inside = events[events.index(start) : events.index(UnitEnd(1))]
    return start.command, texts(inside), inside


async def block(client: Client, number: int, line: str) -> tuple[int, list[str]]:
    """The block code of ``number line`` in FICS's block mode, and its texts."""
    if not client.decoder.block_mode:
        await client.command("iset block 1")
        client.decoder.set_block_mode(True)
    events = await client.command(f"{number} {line}")
    [start] = [e for e in events if isinstance(e, BlockStart)]
    assert start.id == number
    return start.code, texts(events[events.index(start) : events.index(BlockEnd(number))])


async def game(server: Server, white: str, black: str, terms: Terms) -> int:
    online = server.world.online
    batch = Batch(CN.CN_MATCH, None)
    table = await server.games.start(online[white.lower()], online[black.lower()], terms, batch)
    batch.flush()
    return table.number


# -- time --------------------------------------------------------------------------------------


async def test_time_shows_the_clocks_in_each_face(server: Server) -> None:
    alice = await fics_user(server, "Alice")
    bob = await icc_user(server, "Bob")
    carol = await fics_user(server, "Carol")
    assert texts(await alice.command("time")) == ["You are not playing a game."]
    number = await game(server, "Alice", "Bob", Terms(initial=5))
    server.games.by_number[number].clock_ms[WHITE] += 500  # White's clock runs: time to ask
    await alice.settle()
    await bob.settle()
    assert texts(await alice.command("time")) == [
        "White (Alice) : 5 mins, 0 secs",
        "Black (Bob) : 5 mins, 0 secs",
    ]
    assert texts(await carol.command(f"time {number}")) == texts(await carol.command("time bo"))
    cn, said, events = await unit(bob, "time")
    assert cn == CN.CN_TIME and int(cn) == 167  # Appendix 1: "#define CN_TIME 167"
    assert said == [f"Game {number}: Alice 5:00, Bob 5:00 (Alice to move)."]
    assert not [e for e in events if getattr(e, "dg", None) is not None]  # text only
    assert texts(await carol.command("time 99")) == ["There is no such game."]
    assert texts(await carol.command("time nobody")) == ['No user named "nobody" is logged in.']
    assert texts(await alice.command("time carol")) == ["Carol is not playing a game."]
    code, said = await block(carol, 4, f"time {number}")
    assert code == BlockCode.BLKCMD_TIME and said[0] == "White (Alice) : 5 mins, 0 secs"


async def test_time_reads_the_running_clock(server: Server) -> None:
    await fics_user(server, "Alice")
    await fics_user(server, "Bob")
    number = await game(server, "Alice", "Bob", Terms(initial=1))
    played = server.games.by_number[number]
    played.turn_started -= 3.5  # White has thought for three and a half seconds
    watcher = await icc_user(server, "Watcher", registered=False)
    _, said, _ = await unit(watcher, f"time {number}")
    assert said == [f"Game {number}: Alice 0:56, Bob 1:00 (Alice to move)."]


# -- open, rated, bell ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("word", "cn", "number", "off", "on"),
    [
        ("open", CN.CN_OPEN, 143, "You are no longer receiving match requests.",
         "You are now open to receive match requests."),
        ("bell", CN.CN_BELL, 142, "Bell off.", "Bell on."),
        ("rated", CN.CN_RATED, 148, "rated set to 0.", "rated set to 1."),
    ],
)  # fmt: skip
async def test_a_toggle_turns_its_variable_over(
    server: Server, word: str, cn: int, number: int, off: str, on: str
) -> None:
    iccy = await icc_user(server, "Iccy")
    first = iccy.session.variables[word]  # type: ignore[attr-defined]
    answers = (off, on) if first else (on, off)
    for answer, value in zip(answers, (1 - first, first), strict=True):
        got, said, events = await unit(iccy, word)
        assert (got, int(got)) == (cn, number)  # Appendix 1's number
        assert said == [answer]
        assert [(d.variable, d.value) for d in grams(events, DG.MY_VARIABLE)] == [(word, value)]
        assert iccy.session.variables[word] == value  # type: ignore[attr-defined]
    fics = await fics_user(server, "Ficsy")
    code, said = await block(fics, 7, word)
    blocks = {"open": BlockCode.BLKCMD_OPEN, "bell": BlockCode.BLKCMD_BELL}
    assert code == blocks.get(word, BlockCode.BLKCMD_SET)  # FICS has no "rated": "set rated"
    assert said == [answers[0]]
    assert (await block(fics, 8, f"set {word}"))[1] == [answers[1]]  # the same variable


async def test_a_guest_cannot_toggle_rated(server: Server) -> None:
    guest = await fics_user(server, "guest", registered=False)
    assert texts(await guest.command("rated")) == ["You cannot change your rated status."]
    assert texts(await guest.command("o")) != texts(await guest.command("open"))  # o: observe


# -- assess ------------------------------------------------------------------------------------

#: Two new players (1500, RD 350) meeting: lasker's table, for the first one's results.
NEW_PLAYERS_BLITZ = [
    "                      Blitz",
    "             Alice              Bob",
    "        (---- RD 350.0)   (---- RD 350.0)",
    "   Win:      162              -162",
    "  Draw:        0                 0",
    "  Loss:     -162               162",
    "New RD:     290.3             290.3",
]


async def test_assess_shows_the_changes_in_each_face(server: Server) -> None:
    await asyncio.to_thread(server.store.add_user, "Bob", "pw")  # offline: his account
    alice = await fics_user(server, "Alice")
    said = texts(await alice.command("assess alice bob blitz"))
    assert said == NEW_PLAYERS_BLITZ
    everything = texts(await alice.command("assess bob"))
    assert [line.strip() for line in everything if line.strip() in ORDINARY] == list(ORDINARY)
    code, said = await block(alice, 3, "assess alice bob standard")
    assert code == BlockCode.BLKCMD_ASSESS and said[0].strip() == "Standard"
    iccy = await icc_user(server, "Iccy")
    cn, said, events = await unit(iccy, "assess alice bob bullet")
    assert cn == CN.CN_ASSESS and int(cn) == 135  # Appendix 1: "#define CN_ASSESS 135"
    assert said == [
        "Bullet: Alice (----) vs. Bob (----)",
        "  Alice: win +162, draw +0, loss -162 (RD 350.0 -> 290.3)",
        "  Bob:   win +162, draw +0, loss -162 (RD 350.0 -> 290.3)",
    ]
    assert not grams(events, DG.MATCH_ASSESSMENT)


ORDINARY = ("Bullet", "Blitz", "Standard")


async def test_assess_alone_is_the_game_in_its_rating_type(server: Server) -> None:
    alice = await fics_user(server, "Alice")
    await fics_user(server, "Bob")
    assert texts(await alice.command("assess")) == ["You are not playing or examining a game."]
    number = await game(
        server, "Alice", "Bob", Terms(rated=True, initial=20, rating_type="Standard")
    )
    await alice.settle()
    said = texts(await alice.command("assess"))
    assert said[0].strip() == "Standard" and len(said) == len(NEW_PLAYERS_BLITZ)
    assert texts(await alice.command(f"assess {number}")) == said
    assert texts(await alice.command(f"assess {number} bob")) == [
        "Assess <game number> cannot use other parameters."
    ]


async def test_assess_refusals(server: Server) -> None:
    alice = await fics_user(server, "Alice")
    await fics_user(server, "guest", registered=False)
    guest = next(s.name for s in server.world.online.values() if not s.registered)
    for line, answer in (
        ("assess zed", 'No user named "zed" was found.'),
        ("assess alice", "You can't assess the same players."),
        (f"assess {guest}", "You can only assess games between registered players."),
        ("assess 42", "There is no game 42."),
        ("assess alice bob chess", "There is no game type chess."),
    ):
        assert texts(await alice.command(line)) == [answer], line


# -- lasttells ---------------------------------------------------------------------------------


async def test_lasttells_lists_the_tells_received_and_sent(server: Server) -> None:
    alice = await fics_user(server, "Alice")
    bob = await icc_user(server, "Bob")
    carol = await fics_user(server, "Carol")
    cn, said, _ = await unit(bob, "lasttells")
    assert cn == CN.CN_LASTTELLS and int(cn) == 288  # Appendix 1: "#define CN_LASTTELLS 288"
    assert said == ["You have no tells to show."]
    await alice.command("tell bob good luck")
    await bob.settle()
    await bob.command("tell alice thanks, you too")
    await carol.command("xtell bob hi")
    await bob.settle()
    _, said, _ = await unit(bob, "lasttells")
    assert said == [
        "Your last 3 tells, the most recent last:",
        "  [0 secs ago] Alice tells you: good luck",
        "  [0 secs ago] You told Alice: thanks, you too",
        "  [0 secs ago] Carol tells you: hi",
    ]
    _, said, _ = await unit(bob, "lasttells carol")
    assert said == ["Your last tell with carol, the most recent last:", said[1]]
    await alice.settle()
    code, said = await block(alice, 9, "lasttells")
    assert code == BlockCode.BLKCMD_TELL
    assert said[1:] == [
        "  [0 secs ago] You told Bob: good luck",
        "  [0 secs ago] Bob tells you: thanks, you too",
    ]
    for n in range(LAST_TELLS - 1):  # carol's tenth tell this second: the most she may
        await carol.command(f"tell alice {n}")
    await alice.settle()
    _, said = await block(alice, 10, "lasttells")
    assert said[0] == f"Your last {LAST_TELLS} tells, the most recent last:"
    assert len(said) == LAST_TELLS + 1 and said[-1].endswith("Carol tells you: 8")
    assert said[1].endswith("Bob tells you: thanks, you too")  # the oldest went


async def test_a_registered_players_tells_outlast_his_connection(server: Server) -> None:
    alice = await fics_user(server, "Alice")
    bob = await fics_user(server, "Bob")
    guest = await fics_user(server, "guest", registered=False)
    await alice.command("tell bob are you there?")
    await alice.command(f"tell {guest.name} welcome")
    for leaving in (bob, guest):
        await leaving.command("quit")
        await leaving.close()
    await alice.settle()
    again = await connect(server)
    await again.login("Bob", "pw")
    await again.settle()
    assert texts(await again.command("lasttells"))[1].endswith("Alice tells you: are you there?")
    assert guest.name.lower() not in server.core.state(Talk).tells  # a guest's go with him


# -- help --------------------------------------------------------------------------------------

DAILY = ("time", "assess", "open", "rated", "bell", "lasttells")


async def test_each_daily_command_has_help_and_is_listed(server: Server) -> None:
    client = await fics_user(server, "Reader")
    await client.command("set height 240")
    listed = " ".join(texts(await client.command("help commands"))).split()
    for name in DAILY:
        assert name in listed
        said = texts(await client.command(f"help {name}"))
        assert said[0].split()[0] == name, name  # its own file, not a list of matches
        assert said[-1].startswith("See also:"), name
    codes = texts(await client.command("help block_codes"))
    assert "  15  BLKCMD_ASSESS                assess" in codes
    assert " 133  BLKCMD_TIME                  time" in codes
