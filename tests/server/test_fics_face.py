"""The FICS face of the server, end to end (users connected in memory): the board styles 1 to 13,
the interface variables' lines (decoded by icswire's own decoder into records), how
``set`` and ``iset`` read names, ``moves``, and the texts FICS clients parse.

The expected boards are FICS's ``board.c`` (styles 1-9 and 11; see
:mod:`icswire.server.core.render.diagrams`); the ivar lines are FICS's forms as
:mod:`icswire.protocol.ivars` reads them.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from icswire.protocol import ivars
from icswire.protocol.events import IvarLine, Prompt, Style12Line, Text
from icswire.protocol.level1 import CommandNumber as CN
from icswire.server.app import Server
from icswire.server.core.model.tables import Terms
from icswire.server.core.model.variables import IVARIABLE_NAMES
from icswire.server.core.render.batch import Batch
from icswire.server.core.render.boards import BLACK, WHITE
from icswire.server.features.play.games import Game

from .client import Client
from .support import connect, records
from .support import text_lines as texts

E4_TIME_MS = 1200  # what the tests make White's 1.e4 take


async def user(server: Server, name: str, *setup: str) -> Client:
    client = await connect(server)
    await client.login(name)
    for line in setup:
        await client.command(line)
    return client


async def start(server: Server, terms: Terms | None = None) -> Game:
    batch = Batch(CN.CN_MATCH, None)
    online = server.world.online
    terms = terms or Terms(initial=5)
    game = await server.games.start(online["whitey"], online["blacky"], terms, batch)
    batch.flush()
    return game


async def after_e4(server: Server) -> tuple[Client, Client, Game]:
    """Whitey and Blacky (style 12) in game 1 after 1.e4, which took 1.2 seconds."""
    white = await user(server, "Whitey", "set style 12")
    black = await user(server, "Blacky", "set style 12")
    game = await start(server)
    await moved(white, black, "e4")
    game.moves[-1] = dataclasses.replace(game.moves[-1], time_ms=E4_TIME_MS)
    return white, black, game


async def moved(mover: Client, other: Client, san: str) -> None:
    """``mover`` plays ``san``; both have seen its board (and the mover its prompt)."""
    await mover.send(san)
    for client in (mover, other):
        await heard(client, lambda e: isinstance(e, Style12Line) and e.record.pretty_move == san)


async def heard(client: Client, predicate: Any) -> Any:
    """The next event ``predicate`` takes, and the prompt that ends its unit (so that the
    client's next ``command`` gets only its own output)."""
    found = await client.expect(predicate)
    await client.expect(lambda e: isinstance(e, Prompt))
    return found


def challenged(e: Any) -> bool:
    return isinstance(e, Text) and e.text.startswith("Challenge:")


# -- styles ---------------------------------------------------------------------------------

BLANK = ""
STYLES: dict[int, list[str]] = {
    1: [
        "Game 1 (Whitey vs. Blacky)",
        BLANK,
        "        ---------------------------------",
        "     8  | *R| *N| *B| *Q| *K| *B| *N| *R|     Move # : 1 (Black)",
        "        |---+---+---+---+---+---+---+---|",
        "     7  | *P| *P| *P| *P| *P| *P| *P| *P|     White Moves : 'e4      (0:01)'",
        "        |---+---+---+---+---+---+---+---|",
        "     6  |   |   |   |   |   |   |   |   |",
        "        |---+---+---+---+---+---+---+---|",
        "     5  |   |   |   |   |   |   |   |   |     Black Clock : 5:00",
        "        |---+---+---+---+---+---+---+---|",
        "     4  |   |   |   |   | P |   |   |   |     White Clock : 5:00",
        "        |---+---+---+---+---+---+---+---|",
        "     3  |   |   |   |   |   |   |   |   |     Black Strength : 39",
        "        |---+---+---+---+---+---+---+---|",
        "     2  | P | P | P | P |   | P | P | P |     White Strength : 39",
        "        |---+---+---+---+---+---+---+---|",
        "     1  | R | N | B | Q | K | B | N | R |",
        "        ---------------------------------",
        "          a   b   c   d   e   f   g   h",
    ],
    2: [
        "Game 1 (Whitey vs. Blacky)",
        BLANK,
        "     8  r' n' b' q' k' b' n' r'      Move # : 1 (Black)",
        "     7  p' p' p' p' p' p' p' p'      White Moves : 'e4      (0:01)'",
        "     6  +  -  +  -  +  -  +  -  ",
        "     5  -  +  -  +  -  +  -  +       Black Clock : 5:00",
        "     4  +  -  +  -  P  -  +  -       White Clock : 5:00",
        "     3  -  +  -  +  -  +  -  +       Black Strength : 39",
        "     2  P  P  P  P  +  P  P  P       White Strength : 39",
        "     1  R  N  B  Q  K  B  N  R  ",
        "        a  b  c  d  e  f  g  h",
    ],
    3: [
        "Game 1 (Whitey vs. Blacky)",
        BLANK,
        "        +------------------------+",
        "     8  |\x1b[7m *R\x1b[0m *N\x1b[7m *B\x1b[0m *Q\x1b[7m *K\x1b[0m *B\x1b[7m *N"
        "\x1b[0m *R\x1b[0m|     Move # : 1 (Black)",
        "     7  |\x1b[0m *P\x1b[7m *P\x1b[0m *P\x1b[7m *P\x1b[0m *P\x1b[7m *P\x1b[0m *P"
        "\x1b[7m *P\x1b[0m|     White Moves : 'e4      (0:01)'",
        "     6  |\x1b[7m   \x1b[0m   \x1b[7m   \x1b[0m   \x1b[7m   \x1b[0m   \x1b[7m   "
        "\x1b[0m   \x1b[0m|",
        "     5  |\x1b[0m   \x1b[7m   \x1b[0m   \x1b[7m   \x1b[0m   \x1b[7m   \x1b[0m   "
        "\x1b[7m   \x1b[0m|     Black Clock : 5:00",
        "     4  |\x1b[7m   \x1b[0m   \x1b[7m   \x1b[0m   \x1b[7m P \x1b[0m   \x1b[7m   "
        "\x1b[0m   \x1b[0m|     White Clock : 5:00",
        "     3  |\x1b[0m   \x1b[7m   \x1b[0m   \x1b[7m   \x1b[0m   \x1b[7m   \x1b[0m   "
        "\x1b[7m   \x1b[0m|     Black Strength : 39",
        "     2  |\x1b[7m P \x1b[0m P \x1b[7m P \x1b[0m P \x1b[7m   \x1b[0m P \x1b[7m P "
        "\x1b[0m P \x1b[0m|     White Strength : 39",
        "     1  |\x1b[0m R \x1b[7m N \x1b[0m B \x1b[7m Q \x1b[0m K \x1b[7m B \x1b[0m N "
        "\x1b[7m R \x1b[0m|",
        "        +------------------------+",
        "          a  b  c  d  e  f  g  h",
    ],
    5: [
        "Game 1 (Whitey vs. Blacky)",
        BLANK,
        "        .   .   .   .   .   .   .   .   .",
        "     8   |r| :n: <b> {q} =k= <b> :n: |r|     Move # : 1 (Black)",
        "        .   .   .   .   .   .   .   .   .",
        "     7    p   p   p   p   p   p   p   p      White Moves : 'e4      (0:01)'",
        "        .   .   .   .   .   .   .   .   .",
        "     6                                  ",
        "        .   .   .   .   .   .   .   .   .",
        "     5                                       Black Clock : 5:00",
        "        .   .   .   .   .   .   .   .   .",
        "     4                    o                  White Clock : 5:00",
        "        .   .   .   .   .   .   .   .   .",
        "     3                                       Black Strength : 39",
        "        .   .   .   .   .   .   .   .   .",
        "     2    o   o   o   o       o   o   o      White Strength : 39",
        "        .   .   .   .   .   .   .   .   .",
        "     1   |R| :N: <B> {Q} =K= <B> :N: |R|",
        "        .   .   .   .   .   .   .   .   .",
        "          a   b   c   d   e   f   g   h",
    ],
    6: [
        "Game 1 (Whitey vs. Blacky)",
        BLANK,
        "        -----------------------------------------",
        "     8  | BR | BN | BB | BQ | BK | BB | BN | BR |     Move # : 1 (Black)",
        "        -----------------------------------------",
        "     7  | bp | bp | bp | bp | bp | bp | bp | bp |     White Moves : 'e4      (0:01)'",
        "        -----------------------------------------",
        "     6  |    |    |    |    |    |    |    |    |",
        "        -----------------------------------------",
        "     5  |    |    |    |    |    |    |    |    |     Black Clock : 5:00",
        "        -----------------------------------------",
        "     4  |    |    |    |    | wp |    |    |    |     White Clock : 5:00",
        "        -----------------------------------------",
        "     3  |    |    |    |    |    |    |    |    |     Black Strength : 39",
        "        -----------------------------------------",
        "     2  | wp | wp | wp | wp |    | wp | wp | wp |     White Strength : 39",
        "        -----------------------------------------",
        "     1  | WR | WN | WB | WQ | WK | WB | WN | WR |",
        "        -----------------------------------------",
        "          A    B    C    D    E    F    G    H",
    ],
    7: [
        "Game 1 (Whitey vs. Blacky)",
        BLANK,
        "        :::::::::::::::::::::",
        "     8  .. r n b q k b n r ..     Move # : 1 (Black)",
        "     7  .. p p p p p p p p ..     White Moves : 'e4      (0:01)'",
        "     6  ..   -   -   -   - ..",
        "     5  .. -   -   -   -   ..     Black Clock : 5:00",
        "     4  ..   -   - P -   - ..     White Clock : 5:00",
        "     3  .. -   -   -   -   ..     Black Strength : 39",
        "     2  .. P P P P   P P P ..     White Strength : 39",
        "     1  .. R N B Q K B N R ..",
        "        :::::::::::::::::::::",
        "           a b c d e f g h",
    ],
    8: [
        "Game 1 (Whitey vs. Blacky)",
        BLANK,
        "#@#001Whitey          *Blacky          :RNBQKBNRPPPP PPP            P        "
        "           pppppppprnbqkbnr001B39390030000300e4     (0:01)@#@",
    ],
    9: [
        "Game 1 (Whitey vs. Blacky)",
        BLANK,
        BLANK,
        "Move     Whitey                 Blacky",
        "----     --------------         --------------",
        "   1     e4      (0:01)         ",
    ],
    11: [
        "#@#000Whitey          *Blacky          :RNBQKBNRPPPP PPP            P        "
        "           pppppppprnbqkbnr001B39390030000300P/e2-e4(0:01)@#@",
    ],
}
# style 4 is style 3 with the two kinds of squares the other way round
STYLES[4] = [
    line.replace("\x1b[0m|", "\x02")
    .replace("\x1b[7m", "\x00")
    .replace("\x1b[0m", "\x1b[7m")
    .replace("\x00", "\x1b[0m")
    .replace("\x02", "\x1b[0m|")
    for line in STYLES[3]
]


@pytest.mark.parametrize("style", sorted(STYLES))
async def test_each_fics_style_draws_a_known_position(server: Server, style: int) -> None:
    players = await after_e4(server)  # kept: a player who leaves ends the game
    watcher = await user(server, "Watcher", f"set style {style}")
    events = await watcher.command("observe 1")
    assert texts(events) == [
        "You are now observing game 1.",
        "Game 1: Whitey (++++) Blacky (++++) unrated blitz 5 0",
        BLANK,  # FICS's send_board_to: "\n" then the board
        *STYLES[style],
    ]
    assert isinstance(events[-1], Prompt)
    assert not watcher.errors() and players[2].board.fullmove_number == 1


async def test_style_1_is_the_default_and_turns_with_flip(server: Server) -> None:
    players = await after_e4(server)  # kept: a player who leaves ends the game
    watcher = await user(server, "Watcher")
    assert server.world.online["watcher"].variables["style"] == 1
    await watcher.command("observe 1")
    flipped = texts(await watcher.command("flip"))
    assert flipped[:5] == [
        BLANK,
        "Game 1 (Whitey vs. Blacky)",
        BLANK,
        "        ---------------------------------",
        "     1  | R | N | B | K | Q | B | N | R |     Move # : 1 (Black)",
    ]
    assert flipped[5:8] == [
        "        |---+---+---+---+---+---+---+---|",
        "     2  | P | P | P |   | P | P | P | P |     White Moves : 'e4      (0:01)'",
        "        |---+---+---+---+---+---+---+---|",
    ]
    assert flipped[-3:] == [
        "     8  | *R| *N| *B| *K| *Q| *B| *N| *R|",
        "        ---------------------------------",
        "          h   g   f   e   d   c   b   a",
    ]
    assert players[2].number == 1


async def test_style_1_with_ms_shows_milliseconds(server: Server) -> None:
    players = await after_e4(server)  # kept: a player who leaves ends the game
    watcher = await user(server, "Watcher", "iset ms 1")
    shown = texts(await watcher.command("observe 1"))
    assert "     7  | *P| *P| *P| *P| *P| *P| *P| *P|     White Moves : 'e4      (0:01.200)'" in (
        shown
    )
    clocks = [line for line in shown if "Clock :" in line]
    assert len(clocks) == 2 and all(line[-4] == "." for line in clocks)
    assert players[2].number == 1


async def test_style_10_12_13_and_the_empty_line_before_the_first_board(server: Server) -> None:
    white = await user(server, "Whitey", "set style 12")
    black = await user(server, "Blacky", "set style 1")
    ten = await user(server, "Tenner", "style 10")
    none = await user(server, "Nothing", "style 13")
    await white.send("match blacky 5 0 black")
    await heard(black, challenged)
    await black.command("accept")
    creating = "Creating: Blacky (++++) Whitey (++++) unrated blitz 5 0"
    started = "{Game 1 (Blacky vs. Whitey) Creating unrated blitz match.}"
    await white.expect(lambda e: isinstance(e, Text) and e.text == creating)
    following = [await white.expect(lambda e: True) for _ in range(3)]
    assert [getattr(e, "text", None) for e in following[:2]] == [started, BLANK]
    assert isinstance(following[2], Style12Line) and following[2].record.relation == -1
    shown = texts(black.events)
    at = shown.index(creating)
    assert shown[at : at + 5] == [creating, started, BLANK, "Game 1 (Blacky vs. Whitey)", BLANK]
    events = await ten.command("observe 1")
    assert [type(e).__name__ for e in events if not isinstance(e, Text)][-2:] == [
        "Style10Block",
        "Prompt",
    ]
    events = await none.command("observe 1")
    assert texts(events) == [
        "You are now observing game 1.",
        "Game 1: Blacky (++++) Whitey (++++) unrated blitz 5 0",
    ]


async def test_set_style_takes_1_to_13(server: Server) -> None:
    client = await user(server, "Styler")
    for style in range(1, 14):
        assert texts(await client.command(f"set style {style}")) == [f"Style {style} set."]
    for bad in ("0", "14", "x"):
        assert texts(await client.command(f"set style {bad}")) == [
            "Bad value given for variable style."
        ]
    assert texts(await client.command("style 3")) == ["Style 3 set."]


# -- moves ----------------------------------------------------------------------------------


async def test_moves_lists_a_played_and_an_observed_game(server: Server) -> None:
    white, black, game = await after_e4(server)
    await moved(black, white, "e5")
    game.moves[-1] = dataclasses.replace(game.moves[-1], time_ms=3400)
    await moved(white, black, "Nf3")
    game.moves[-1] = dataclasses.replace(game.moves[-1], time_ms=65_000)
    date = f"{game.started:%a %b} {game.started.day:2d}, {game.started:%H:%M} UTC"
    expected = [
        BLANK,
        "Movelist for game 1:",
        BLANK,
        f"Whitey (UNR) vs. Blacky (UNR) --- {date} {game.started.year}",
        "Unrated blitz match, initial time: 5 minutes, increment: 0 seconds.",
        BLANK,
        "Move  Whitey             Blacky             ",
        "----  ----------------   ----------------",
        "  1.  e4      (0:01)     e5      (0:03)  ",
        "  2.  Nf3     (1:05)  ",
        "      {Still in progress} *",
        BLANK,
    ]
    assert texts(await white.command("moves")) == expected
    watcher = await user(server, "Watcher", "style 12")
    await watcher.command("observe 1")
    assert texts(await watcher.command("moves 1")) == expected
    assert texts(await watcher.command("moves whitey")) == expected
    await watcher.command("iset ms 1")
    precise = texts(await watcher.command("moves"))
    assert precise[6:10] == [
        "Move  Whitey" + " " * 18 + "Blacky" + " " * 18,
        "----  ---------------------   ---------------------",
        "  1.  e4      (0:01.200)      e5      (0:03.400)   ",
        "  2.  Nf3     (1:05.000)   ",
    ]
    nobody = await user(server, "Bystander")
    assert texts(await nobody.command("moves")) == [
        "You are neither playing, observing nor examining a game."
    ]
    assert texts(await nobody.command("moves 7")) == ["There is no such game."]


async def test_moves_with_startpos_shows_a_fischer_random_start(server: Server) -> None:
    white = await user(server, "Whitey", "set style 12")
    black = await user(server, "Blacky", "set style 12", "iset startpos 1")
    await white.send("match blacky 3 0 white fr")
    await heard(black, challenged)
    await black.command("accept")
    first = await white.expect(lambda e: isinstance(e, Style12Line))
    events = await black.command("moves")
    shown = texts(events)
    assert shown[4] == "Unrated wild/fr match, initial time: 3 minutes, increment: 0 seconds."
    (start,) = [e.record for e in events if isinstance(e, Style12Line)]
    assert start.relation == -4 and start.ranks == first.record.ranks
    assert start.verbose_move == "none" and start.game_number == 1


# -- set and iset ----------------------------------------------------------------------------


async def test_iset_reads_names_as_fics_does_and_answers_in_its_words(server: Server) -> None:
    client = await user(server, "Setter")
    assert texts(await client.command("iset pin 1")) == ["pin set."]  # exact name first
    assert texts(await client.command("iset pi 1")) == ["pin set."]  # pinginfo is refused
    assert texts(await client.command("iset s 1")) == [
        'Ambiguous ivariable "s". Matches: seekremove startpos seekinfo showownseek'
    ]
    assert texts(await client.command("iset pingi 1")) == ['No such ivariable "pingi".']
    assert texts(await client.command("iset xml 1")) == ['No such ivariable "xml".']
    assert texts(await client.command("iset ms 2")) == ['Bad value given for ivariable "ms".']
    assert texts(await client.command("iset nowrap")) == ["nowrap set."]  # no value: toggle
    assert texts(await client.command("iset nowrap")) == ["nowrap unset."]
    framing = ("lock", "block")  # these change how the next commands are read
    for name in IVARIABLE_NAMES:
        if name not in framing:
            assert texts(await client.command(f"iset {name} 1")) == [f"{name} set."]
    session = server.world.online["setter"]
    assert all(session.ivariables[name] for name in IVARIABLE_NAMES if name not in framing)
    assert texts(await client.command("iset lock 1")) == ["lock set."]
    assert texts(await client.command("iset ms 0")) == ["Cannot alter: Interface setting locked."]
    assert texts(await client.command("iset lock 0")) == ["Cannot alter: Interface setting locked."]
    shown = " ".join(texts(await client.command("ivars")))
    assert "premove=1" in shown and "allresults=1" in shown


async def test_set_reads_names_as_fics_does(server: Server) -> None:
    client = await user(server, "Setter")
    assert texts(await client.command("set st 7")) == ["Style 7 set."]
    assert texts(await client.command("set s 1")) == ["Ambiguous variable name s."]
    assert texts(await client.command("set frob 1")) == ["No such variable name frob."]
    assert texts(await client.command("set open maybe")) == ["Bad value given for variable open."]
    assert texts(await client.command("set gin 1")) == ["You will now hear game results."]
    assert texts(await client.command("set gin")) == ["You will not hear game results."]
    assert texts(await client.command("set seek 0")) == [
        "You will not hear ads."
    ]  # lasker: seek is ads
    assert texts(await client.command("set availinfo 1")) == [
        "availinfo set to 1.",
        "You will receive info on who is available to play.",
    ]


# -- interface variable lines ---------------------------------------------------------------


async def test_seekinfo_seekremove_and_showownseek(server: Server) -> None:
    alpha = await user(server, "Alpha")
    beta = await user(server, "Beta", "set seek 0")
    await alpha.command("seek 3 0")
    await alpha.command("seek 1 0 white m 0-1800")
    events = await beta.command("iset seekinfo 1")
    assert records(events) == [
        ivars.SeeksCleared(),
        ivars.Seek(1, "Alpha", "01", 0, "P", 3, 0, False, "blitz", "?", 0, 9999, True, False),
        ivars.Seek(1 + 1, "Alpha", "01", 0, "P", 1, 0, False, "lightning", "W", 0, 1800, False,
                   False),
    ]  # fmt: skip
    assert texts(events) == ["seekinfo set."]
    await alpha.command("iset seekinfo 1")
    events = await alpha.command("iset showownseek 1")
    assert records(events) == []
    events = await alpha.command("seek 5 5")
    (own,) = records(events)
    assert own.own and own.number == 3 and own.time == 5
    assert ivars.format_ivar(own).startswith("<sn> 3 w=Alpha ti=01 rt=0P t=5 i=5 r=u tp=blitz")
    line = await beta.expect(lambda e: isinstance(e, IvarLine) and getattr(e.record, "number", 0))
    assert line.record == own._replace(own=False)
    assert not [t for t in texts(beta.events) if "seeking" in t]  # set seek 0: no text ads
    events = await alpha.command("unseek")
    assert records(events) == [ivars.SeeksRemoved((1, 2, 3))]
    assert texts(events) == ["Your seeks have been removed."]  # after the <sr> line
    removed = await beta.expect(lambda e: isinstance(e, IvarLine) and e.record != own)
    assert removed.record == ivars.SeeksRemoved((1, 2, 3))


async def test_pendinfo_numbers_match_and_game_offers(server: Server) -> None:
    white = await user(server, "Whitey", "style 12", "iset pendinfo 1")
    black = await user(server, "Blacky", "style 12", "iset pendinfo 1")
    events = await white.command("match blacky 5 0 white")
    params = "Whitey (----) [white] Blacky (----) unrated blitz 5 0"
    assert records(events) == [ivars.PendingTo(1, "Blacky", "match", params)]
    offered = await heard(black, lambda e: isinstance(e, IvarLine))
    assert offered.record == ivars.PendingFrom(1, "Whitey", "match", params)
    events = await black.command("decline 1")
    assert texts(events)[0] == "You decline the match offer from Whitey."
    assert records(events) == [ivars.PendingRemoved((1,))]
    await heard(white, lambda e: isinstance(e, IvarLine) and e.record == ivars.PendingRemoved((1,)))
    await white.command("match blacky 5 0 white")
    await heard(black, lambda e: isinstance(e, IvarLine) and e.record.number == 1)
    await black.command("accept 1")
    await heard(white, lambda e: isinstance(e, Style12Line))
    await moved(white, black, "e4")
    events = await black.command("takeback 1")
    assert records(events) == [ivars.PendingTo(1, "Whitey", "takeback", "1")]
    await heard(
        white,
        lambda e: (
            isinstance(e, IvarLine) and e.record == ivars.PendingFrom(1, "Blacky", "takeback", "1")
        ),
    )
    events = await white.command("decline 1")
    assert texts(events)[0] == "You decline the takeback request from Blacky."
    assert records(events) == [ivars.PendingRemoved((1,))]
    await heard(
        black, lambda e: isinstance(e, Text) and e.text == "Whitey declines the takeback request."
    )
    events = await black.command("draw")
    assert records(events) == [ivars.PendingTo(1, "Whitey", "draw", "#")]
    await heard(
        white,
        lambda e: (
            isinstance(e, IvarLine) and e.record == ivars.PendingFrom(1, "Blacky", "draw", "#")
        ),
    )
    events = await white.command("accept 1")  # as FICS: the same as typing "draw"
    assert "{Game 1 (Whitey vs. Blacky) Game drawn by mutual agreement} 1/2-1/2" in texts(events)
    assert ivars.PendingRemoved((1,)) in records(events)


async def test_gameinfo_comes_before_the_first_board(server: Server) -> None:
    white = await user(server, "Whitey", "style 12", "iset gameinfo 1")
    black = await user(server, "Blacky", "style 12")
    await white.send("match blacky 5 2 black")
    await heard(black, challenged)
    await black.command("accept")
    line = await white.expect(lambda e: isinstance(e, IvarLine))
    assert line.record == ivars.GameInfo(
        1, False, "blitz", False, (False, False), (300, 2), (300, 2), 0, ((0, "P"), (0, "P")),
        (False, False), ("m=2", "n=0"),
    )  # fmt: skip
    assert ivars.format_ivar(line.record) == (
        "<g1> 1 p=0 t=blitz r=0 u=0,0 it=300,2 i=300,2 pt=0 rt=0P,0P ts=0,0 m=2 n=0"
    )
    after = [await white.expect(lambda e: True) for _ in range(2)]
    assert getattr(after[0], "text", None) == BLANK and isinstance(after[1], Style12Line)
    assert not [e for e in black.events if isinstance(e, IvarLine)]
    watcher = await user(server, "Watcher", "iset gameinfo 1")
    events = await watcher.command("observe 1")
    assert records(events) == [line.record]


async def test_pin_gin_allresults_and_availinfo(server: Server) -> None:
    pinned = await user(server, "Pinned", "iset pin 1", "set pin 1", "set gin 1", "set availinfo 1")
    results = await user(server, "Results", "iset allresults 1")
    white = await user(server, "Whitey", "style 12")
    arrived = await pinned.expect(
        lambda e: isinstance(e, IvarLine) and getattr(e.record, "name", "") == "Whitey"
    )
    assert arrived.record == ivars.PlayerArrived("Whitey", " ", "01", ((0, "P"),) * 9)
    assert ivars.format_ivar(arrived.record) == "<wa> Whitey 010P0P0P0P0P0P0P0P0P"
    assert "[Whitey has connected.]" in texts(pinned.events)  # set pin 1: FICS's text
    black = await user(server, "Blacky", "style 12")
    await white.send("match blacky 1 0 black")
    await heard(black, challenged)
    await black.command("accept")
    started = "{Game 1 (Blacky vs. Whitey) Creating unrated lightning match.}"
    await pinned.expect(lambda e: isinstance(e, Text) and e.text == started)
    for name in ("Whitey", "Blacky"):
        gone = f"{name}(U) is no longer available for matches."
        assert gone in texts(pinned.events) or await pinned.expect(
            lambda e, gone=gone: isinstance(e, Text) and e.text == gone
        )
    await heard(white, lambda e: isinstance(e, Style12Line))
    await white.command("resign")
    ended = "{Game 1 (Blacky vs. Whitey) Whitey resigns} 1-0"
    await pinned.expect(lambda e: isinstance(e, Text) and e.text == ended)
    await results.expect(lambda e: isinstance(e, Text) and e.text == ended)
    assert started not in texts(results.events)  # allresults: results only
    await pinned.expect(
        lambda e: (
            isinstance(e, Text)
            and e.text == "Whitey(U) Blitz (++++), Std (++++), Wild (++++), Light(++++), Bug(++++)"
        )
    )
    await pinned.expect(
        lambda e: isinstance(e, Text) and e.text == "  is now available for matches."
    )
    await black.close()
    left = await pinned.expect(lambda e: isinstance(e, IvarLine) and e.record != arrived.record)
    assert left.record == ivars.PlayerDeparted("Blacky")
    assert "[Blacky has disconnected.]" in texts(pinned.events)  # just before <wd>


async def test_compressmove_sends_delta_boards_after_moves(server: Server) -> None:
    white = await user(server, "Whitey", "style 12")
    black = await user(server, "Blacky", "style 12", "iset compressmove 1")
    game = await start(server)
    first = await black.expect(lambda e: isinstance(e, Style12Line))  # the first board is whole
    assert first.record.move_number == 1
    await white.send("e4")
    delta = await black.expect(lambda e: isinstance(e, IvarLine))
    made = game.moves[-1]
    assert delta.record == ivars.DeltaBoard(1, 1, "e4", "e2e4", made.time_ms, made.clock_ms, ("0",))
    await black.settle()
    assert not [e for e in black.events[-3:] if isinstance(e, Style12Line)]
    assert game.clock_ms[WHITE] == made.clock_ms and game.clock_ms[BLACK] == 300_000


# -- texts FICS clients read ----------------------------------------------------------------


async def test_texts_pychess_reads_around_games(server: Server) -> None:
    alpha = await user(server, "Alpha", "style 12")
    beta = await user(server, "Beta", "style 12")
    await alpha.command("seek 5 0")
    await beta.expect_text("Alpha (++++) seeking 5 0 unrated blitz")
    events = await beta.command("seek 5 0")
    shown = [getattr(e, "text", type(e).__name__) for e in events]
    # PyChess: from "Your seek matches ..." to the board, the Creating lines 4th and 3rd
    # from the end, then the empty line
    at = shown.index("Your seek matches one already posted by Alpha.")
    assert shown[-5:-1] == [
        shown[-5],
        "{Game 1 (" + shown[-5].split(" ")[1] + " vs. " + shown[-5].split(" ")[3] + ")"
        " Creating unrated blitz match.}",
        BLANK,
        "Style12Line",
    ] and shown[-5].startswith("Creating: ")
    assert at < len(shown) - 5
    await heard(alpha, lambda e: isinstance(e, Style12Line))
    white, black = (alpha, beta) if "Creating: Alpha" in shown[-5] else (beta, alpha)
    assert texts(await black.command("takeback")) == ["There are no moves in your game."]
    assert texts(await black.command("flag")) == [  # lasker's com_flag
        "You cannot flag before both players have moved.",
        "Use abort instead.",
    ]
    await moved(white, black, "d4")
    assert texts(await white.command("takeback 2")) == ["There are only 1 half moves in your game."]
