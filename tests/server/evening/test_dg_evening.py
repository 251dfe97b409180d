"""An evening on a real server (issue 22's proof): four ICC clients over sockets of
127.0.0.1, level1=1 and every DG bit on from the login prompt (``level2settings=1...1``,
icc-formats.txt section 2), Carol through timeseal, Boss an administrator. They play rated
and unrated games in several variants, make and answer offers, take back, examine, keep
lists, talk, seek, change a password and give titles. Each DG that Appendix 2 defines for
something that happened is checked where it happens against its form in icc-formats.txt
(quoted beside the check), each command's level 1 unit against its Appendix 1 number
(``Icc.do``), and at the end every record of every client: no field more than its form
(``extra``), no field less (the decoder's errors), the DGs the evening covered, and
:data:`coverage.TABLE`'s account of the others. Waits are for DGs and units, never sleeps.
The evening's second half (:mod:`.commands`) types each command added since.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

import pytest

from icswire.protocol.datagrams import DG
from icswire.protocol.level1 import CommandNumber as CN
from icswire.server.app import Server
from icswire.server.features import info

from ..support import grams
from . import commands
from .clients import Icc
from .coverage import NOT_IN_EVENING, SENT, TABLE

pytestmark = pytest.mark.sockets  # the wire is what this test is about

PLAYERS = ("Alice", "Bob", "Carol", "Boss")


def fields_ok(record: Any) -> None:
    """No field beyond the documented form (fields after it land in ``extra``)."""
    assert getattr(record, "extra", ()) == (), record


def of(events: list[Any], number: int, **fields: Any) -> list[Any]:
    return [e for e in grams(events, number) if all(getattr(e, k) == v for k, v in fields.items())]


async def marks(c: dict[str, Icc]) -> dict[str, int]:
    """Where each client's events end once everything sent to it so far is read: each
    runs ``date``, whose unit comes after all the server sent it before."""
    for client in c.values():
        await client.do("date", CN.CN_DATE)
    return {name: client.mark for name, client in c.items()}


async def people(server: Server) -> dict[str, Icc]:
    for name in PLAYERS:
        await asyncio.to_thread(server.store.add_user, name, "pw")
    await asyncio.to_thread(server.store.set_admin, "Boss", True)
    clients: dict[str, Icc] = {}
    for name in PLAYERS:
        client = await Icc.open(server.port, sealed=name == "Carol")
        await client.enter(name, "pw")
        await client.do("set style 13", CN.CN_SET)  # boards come as DGs (NOTES.md)
        clients[name] = client
    return clients


async def test_an_evening_with_every_dg_on(server: Server, monkeypatch: pytest.MonkeyPatch) -> None:
    c = await people(server)
    alice, bob, carol, boss = (c[name] for name in PLAYERS)
    assert server.world.online["carol"].timeseal == 1

    # -- logging in --------------------------------------------------------------------
    # 0 DG_WHO_AM_I "(myname titles) This is sent right after I login."
    for name, client in c.items():
        [me] = client.received(DG.WHO_AM_I)
        assert me.myname == name
    assert boss.received(DG.WHO_AM_I)[0].titles == "*"
    # 1 DG_PLAYER_ARRIVED "(playername <ratings> <open> <state>)": "A rating will be sent
    # for each rating datagram that has been turned on" (all 14, in DG order), titles (9),
    # open (10), state (11) and uid (131) since they are on too.
    arrived = {name: await alice.dg(DG.PLAYER_ARRIVED, playername=name) for name in PLAYERS}
    bobs = arrived["Bob"]
    assert [r.dg for r in bobs.ratings] == [
        3,
        4,
        5,
        6,
        7,
        88,
        121,
        125,
        126,
        140,
        145,
        149,
        150,
        151,
    ]
    assert all((r.rating, r.annotation) == (0, 0) for r in bobs.ratings)  # no games yet
    assert (bobs.titles, bobs.open, bobs.state, bobs.state_game) == ("", True, "X", 0)
    assert isinstance(bobs.uid, int)
    # 55 DG_PLAYER_ARRIVED_SIMPLE "(name)"
    for name in ("Bob", "Carol", "Boss"):
        await alice.dg(DG.PLAYER_ARRIVED_SIMPLE, playername=name)
    # 45 DG_SEES_SHOUTS "(playername bitvector) ... if I connect (in which case I get the
    # list of people who see either)": shout and sshout are on by default, 3
    await alice.dg(DG.SEES_SHOUTS, playername="Bob", bitvector=3)
    # 47/48 DG_MY_VARIABLE / DG_MY_STRING_VARIABLE "All of them sent when this DG is
    # turned on"; 76 DG_RATING_TYPE_KEY "(0 Wild)(1 Blitz) etc"; 116 DG_WILD_KEY
    # "(0 {Chess}) (1 {Shuffle both})"; 81 DG_DUMMY_RESPONSE "when you turn it on";
    # 52 DG_MY_RATING "0 if registered but played no games. Sent when turned on";
    # 87 DG_NEW_MY_RATING "Sent when turned on".
    variables = {e.variable: e.value for e in alice.received(DG.MY_VARIABLE)}
    assert variables["open"] == 1 and variables["style"] == 13
    assert alice.received(DG.MY_STRING_VARIABLE)
    keys = {e.index: e.label for e in alice.received(DG.RATING_TYPE_KEY)}
    assert (keys[0], keys[1]) == ("Wild", "Blitz")
    wilds = {e.index: e.label for e in alice.received(DG.WILD_KEY)}
    assert wilds[0] == "Chess"
    assert len(alice.received(DG.DUMMY_RESPONSE)) == 1
    [rating] = alice.received(DG.MY_RATING)
    assert tuple(rating[:5]) == (0, 0, 0, 0, 0)
    [new_rating] = alice.received(DG.NEW_MY_RATING)
    assert set(new_rating.ratings) == {0}
    # 136 DG_COMMAND "(command all-arguments) Echoes the command being done"
    said = await alice.do("set-2 8 1", CN.CN_SET2)
    # 124 DG_SET2 "(dg-code off/on) Sent in acknowledgement of a set-2 command."
    [echo] = grams(said, DG.COMMAND)
    assert (echo.command, echo.arguments) == ("set-2", "8 1")
    [ack] = grams(said, DG.SET2)
    assert (ack.dg_code, ack.on) == (8, True)

    # -- titles and lists --------------------------------------------------------------
    mark = await marks(c)
    await boss.do("+gm Alice", CN.CN_PLUS)
    # 9 DG_TITLES "(playername titles) ... only sent when somebody's titles change"
    titled = await bob.dg(DG.TITLES, mark["Bob"], playername="Alice")
    assert titled.titles == "GM"
    said = await bob.do("=gm", CN.CN_LIST)
    # 79/80 DG_STRINGLIST_BEGIN "(nhits {description}) ... such as the output of "=gm"",
    # "followed by a series of nhits DG_STRING_ITEMs"; 96 DG_LIST (header rowstart items)
    [begin] = grams(said, DG.STRINGLIST_BEGIN)
    assert begin.nhits == 1 and [e.item for e in grams(said, DG.STRINGLIST_ITEM)] == ["Alice"]
    [listed] = grams(said, DG.LIST)
    assert listed.items == ("Alice",)
    said = await alice.do("+notify Bob", CN.CN_PLUS)
    # 68 DG_MY_NOTIFY_LIST "(name yes/no) Sent when the user adds or removes a player"
    [notified] = grams(said, DG.MY_NOTIFY_LIST)
    assert (notified.playername, notified.present) == ("Bob", True)

    # -- channels, tells, shouts ---------------------------------------------------------
    said = await alice.do("+channel 77", CN.CN_PLUS)
    # 27 DG_PEOPLE_IN_MY_CHANNEL "(channel playername come/go) ... I do get one for myself"
    assert of(said, DG.PEOPLE_IN_MY_CHANNEL, channel=77, playername="Alice", present=True)
    mark = await marks(c)
    await bob.do("+channel 77", CN.CN_PLUS)
    await alice.dg(
        DG.PEOPLE_IN_MY_CHANNEL, mark["Alice"], channel=77, playername="Bob", present=True
    )
    await bob.do("tell 77 hello all", CN.CN_CHANNELTELL)
    # 28 DG_CHANNEL_TELL "(channel playername titles ^Y{tell string^Y} type) Type is ...
    # 1 normally"
    told = await alice.dg(DG.CHANNEL_TELL, mark["Alice"])
    assert (told.channel, told.playername, told.titles, told.text, told.type) == (
        77, "Bob", "", "hello all", 1,
    )  # fmt: skip
    said = await bob.do("tell Alice hi there", CN.CN_TELL)
    # 62 DG_PERSONAL_TELL_ECHO "(receivername type ^Y{string^Y})", type 1 for "tell"
    [sent] = grams(said, DG.PERSONAL_TELL_ECHO)
    assert (sent.receiver, sent.type, sent.text) == ("Alice", 1, "hi there")
    # 31 DG_PERSONAL_TELL "(playername titles ^Y{tell string^Y} type) ... 1 for "tell""
    told = await alice.dg(DG.PERSONAL_TELL, mark["Alice"])
    assert (told.playername, told.titles, told.text, told.type) == ("Bob", "", "hi there", 1)
    await bob.do("tell Alice Müller's café", CN.CN_TELL)
    # 78 DG_UNACCENTED (on, as all): "output to you should only contain US ASCII ...
    # Chars 191-254 in the ISO Latin-1 set ... are replaced some similar US ASCII character"
    folded = await alice.dg(DG.PERSONAL_TELL, mark["Alice"], where=lambda e: "caf" in e.text)
    assert folded.text == "Muller's cafe"
    await alice.do("shout good evening", CN.CN_SHOUT)
    # 32 DG_SHOUT "(playername titles type ^Y{shout string^Y}) The type is 0 for regular"
    shouted = await carol.dg(DG.SHOUT, mark["Carol"])
    assert (shouted.playername, shouted.titles, shouted.type, shouted.text) == (
        "Alice", "GM", 0, "good evening",
    )  # fmt: skip
    await alice.do("i waves", CN.CN_I)  # "1 for "I" type shouts"
    assert (await carol.dg(DG.SHOUT, mark["Carol"], type=1)).text == "waves"
    await alice.do("sshout quietly", CN.CN_SSHOUT)  # "2 for sshouts"
    assert (await carol.dg(DG.SHOUT, mark["Carol"], type=2)).text == "quietly"
    # 45 DG_SEES_SHOUTS "Sent whenever somebody changes their shout or sshout variable":
    # "2 if player sees sshouts but not shouts"
    await carol.do("set shout 0", CN.CN_SET)
    await alice.dg(DG.SEES_SHOUTS, mark["Alice"], playername="Carol", bitvector=2)
    await carol.do("set shout 1", CN.CN_SET)
    await alice.dg(DG.SEES_SHOUTS, mark["Alice"], playername="Carol", bitvector=3)
    await alice.do("shout", CN.CN_SHOUT0)  # "CN_FOLLOW0 is for follow with no arguments.
    await alice.do("observe", CN.CN_OBSERVE0)  # Similarly CN_OBSERVE0 etc."
    await alice.do("match", CN.CN_MATCH0)
    await alice.do("follow", CN.CN_FOLLOW0)
    await alice.do("help", CN.CN_HELP0)
    await alice.do("news", CN.CN_NEWS0)
    await boss.do("+td Boss", CN.CN_PLUS)
    await boss.do("qtell Alice first\\nsecond", CN.CN_QTELL)
    # 83 DG_PERSONAL_QTELL "(playername titles ^Y{qtell-string^Y})"
    qtold = await alice.dg(DG.PERSONAL_QTELL, mark["Alice"])
    assert (qtold.playername, qtold.text) == ("Boss", "first\\nsecond")
    await boss.do("qtell 77 to the channel", CN.CN_CHANNELQTELL)
    # 82 DG_CHANNEL_QTELL "(channel name titles ^Y{qtell-string^Y})"
    qtold = await bob.dg(DG.CHANNEL_QTELL, mark["Bob"])
    assert (qtold.channel, qtold.playername, qtold.text) == (77, "Boss", "to the channel")
    await carol.do("message Alice see you at the board", CN.CN_MESSAGE)
    said = await alice.do("messages", CN.CN_MESSAGE0)
    # 94/95 DG_MESSAGELIST_BEGIN "(command-string)", DG_MESSAGELIST_ITEM "(index sender
    # time date message)"
    [mbegin] = grams(said, DG.MESSAGELIST_BEGIN)
    assert mbegin.command == "messages"
    [item] = grams(said, DG.MESSAGELIST_ITEM)
    assert (item.index, item.sender, item.message) == (1, "Carol", "see you at the board")

    # -- variables, seeks ---------------------------------------------------------------
    mark = await marks(c)
    said = await alice.do("set open 0", CN.CN_SET)
    # 47 DG_MY_VARIABLE "(variable-name value) ... Sent when one changes."
    assert of(said, DG.MY_VARIABLE, variable="open", value=0)
    # 10 DG_OPEN "0 or 1" (a player-info DG, as DG_TITLES)
    await bob.dg(DG.OPEN, mark["Bob"], playername="Alice", open=False)
    await alice.do("set open 1", CN.CN_SET)
    await bob.dg(DG.OPEN, mark["Bob"], playername="Alice", open=True)
    said = await bob.do("set formula !wild", CN.CN_SET)
    # 48 DG_MY_STRING_VARIABLE "(variable-name value) ... such as formula"
    assert of(said, DG.MY_STRING_VARIABLE, variable="formula", value="!wild")
    await bob.do("set formula", CN.CN_SET)
    said = await alice.do("seek 5 0", CN.CN_SEEKING)
    # 50 DG_SEEK "(index name titles rating provisional-status wild rating-type time inc
    # rated color minrating maxrating autoaccept formula fancy-time-control)"
    seek = await carol.dg(DG.SEEK, mark["Carol"], playername="Alice")
    assert (seek.titles, seek.rating, seek.provisional, seek.wild_number) == ("GM", 0, 0, 0)
    assert (seek.rating_type, seek.time, seek.increment, seek.rated) == ("Blitz", 5, 0, False)
    assert (seek.color, seek.minrating, seek.maxrating) == (-1, 0, 9999)
    await alice.do("unseek", CN.CN_UNSEEKING)
    # 51 DG_SEEK_REMOVED "(index reasoncode) ... 3 Seeker removed ad"
    await carol.dg(DG.SEEK_REMOVED, mark["Carol"], index=seek.index, reason=3)

    # -- game 1: rated blitz chess, Alice (White) against Bob ---------------------------
    await game_one(c)

    # -- the rest of the evening -----------------------------------------------------------
    await game_two(c)
    await game_three(c)
    await game_four(server, c, monkeypatch)
    await rated_round(c)
    await examining(c)
    await lists_of_games(server, c)
    first_bob = await password_and_logout(server, c)
    await commands.run(server, c)

    # -- every record of the evening ------------------------------------------------------
    seen: set[int] = set()
    for name, client in [*c.items(), ("Bob before quit", first_bob)]:
        assert not client.errors(), (name, client.errors()[:3])
        for event in client.events:
            if hasattr(event, "dg"):
                fields_ok(event)
                seen.add(event.dg)
    assert seen - {DG.TIMESTAMP} == seen, "DG_TIMESTAMP: 'these are never sent'"
    assert seen >= SENT, sorted(DG(n).spec_name for n in SENT - seen)
    assert not (seen & set(NOT_IN_EVENING)), sorted(seen & set(NOT_IN_EVENING))
    # the table accounts for every DG of Appendix 2, once
    assert set(TABLE) == {int(n) for n in DG}
    for client in c.values():
        await client.close()


#: The fields of DG_GAME_STARTED's form (12) that say which game it is.
GAME_FIELDS = (
    "gamenumber",
    "whitename",
    "blackname",
    "wild_number",
    "rating_type",
    "rated",
    "white_initial",
    "white_increment",
    "black_initial",
    "black_increment",
    "played_game",
)


def game_of(record: Any) -> tuple[Any, ...]:
    return tuple(getattr(record, name) for name in GAME_FIELDS)


async def game_one(c: dict[str, Icc]) -> None:
    """Rated blitz chess: offers made and declined, a takeback, an observer who comes,
    refreshes, goes and comes back, and fool's mate (Bob wins)."""
    alice, bob, carol, boss = (c[name] for name in PLAYERS)
    mark = await marks(c)
    said = await alice.do("match Bob 5 0 rated white", CN.CN_MATCH)
    # 29 DG_MATCH "(challenger-name challenger-rating challenger-titles receiver-name
    # receiver-rating receiver-titles wild-number rating-type is-it-rated
    # is-it-adjourned challenger-time-control receiver-time-control
    # challenger-color-request [assess-loss assess-draw assess-win] fancy-time-control)
    # ... color-request is -1 normally, 0=Black, 1=White. The assessment data is only
    # included if DG_MATCH_ASSESSMENT is on" (85 is: the three are there)
    [match] = grams(said, DG.MATCH)
    assert (match.challenger, match.challenger_titles, match.receiver) == ("Alice", "GM", "Bob")
    assert (match.wild_number, match.rating_type, match.rated, match.adjourned) == (
        0, "Blitz", True, False,
    )  # fmt: skip
    assert (match.challenger_time, match.challenger_increment) == (5, 0)
    assert (match.receiver_time, match.receiver_increment, match.color_request) == (5, 0, 1)
    assert None not in (match.assess_loss, match.assess_draw, match.assess_win)
    assert match.assess_loss < 0 < match.assess_win
    assert (await bob.dg(DG.MATCH, mark["Bob"])).challenger == "Alice"
    await bob.dg(DG.SOUND, mark["Bob"], code=4)  # "#define SOUND_CHALLENGE 4"
    said = await bob.do("accept", CN.CN_ACCEPT)
    # 30 DG_MATCH_REMOVED "(challenger-name receiver-name ^Y{Explanation string^Y})"
    [removed] = grams(said, DG.MATCH_REMOVED)
    assert (removed.challenger, removed.receiver) == ("Alice", "Bob") and removed.explanation
    # 15 DG_MY_GAME_STARTED, "exactly like DG_GAME_STARTED" (12): "(gamenumber whitename
    # blackname wild-number rating-type rated white-initial white-increment black-initial
    # black-increment played-game {ex-string} white-rating black-rating game-id
    # white-titles black-titles irregular-legality irregular-semantics uses-plunkers
    # fancy-timecontrol promote-to-king)"
    [started] = grams(said, DG.MY_GAME_STARTED)
    number = started.gamenumber
    assert game_of(started) == (number, "Alice", "Bob", 0, "Blitz", True, 5, 0, 5, 0, True)
    assert (started.white_titles, started.black_titles) == ("GM", "")
    assert not (started.irregular_legality or started.irregular_semantics)
    assert not (started.uses_plunkers or started.promote_to_king)
    # 12 DG_GAME_STARTED to everybody else: the same form
    listed = await carol.dg(DG.GAME_STARTED, mark["Carol"], gamenumber=number)
    assert listed._replace(extra=()) == started._replace(extra=())
    # 11 DG_STATE "(playername P 23) ... indicates that this player is now playing game 23"
    await carol.dg(DG.STATE, mark["Carol"], playername="Bob", state="P", state_game=number)
    # 39 DG_FLIP "flip=1 means I am Black"; 43 DG_MY_RELATION_TO_GAME "(gamenumber symbol)";
    # 20 DG_PLAYERS_IN_MY_GAME "(gamenumber playername symbol kibvalue)"; 110
    # DG_POSITION_BEGIN2 "(gamenumber {initial-FEN} nmoves-to-follow)"; 70 DG_FEN; 56
    # DG_MSEC "(gamenumber color msec running) ... (3) when a played game starts";
    # 112 DG_PGN_TAG "(gamenumber tagname value) ... only the seven required tags";
    # 142 DG_PSTAT "(initiated, kind, p1, p2, ...) initiated: 0 - by the start of a game
    # ... If the player receiving the DG is either player then they are always p1 ...
    # Game start records only have one record"; 53 DG_SOUND 6 SOUND_START; 49 DG_JBOARD
    # (64-char-board side ... status: played (1) ... flip)
    assert of(said, DG.FLIP, gamenumber=number, flip=True)
    assert of(said, DG.MY_RELATION_TO_GAME, gamenumber=number, symbol="PB")
    assert {(e.playername, e.symbol) for e in of(said, DG.PLAYERS_IN_MY_GAME)} == {
        ("Alice", "PW"), ("Bob", "PB"),
    }  # fmt: skip
    [begin] = grams(said, DG.POSITION_BEGIN2)
    assert (begin.gamenumber, begin.nmoves) == (number, 0)
    assert of(said, DG.FEN, gamenumber=number)[0].fen.startswith("rnbqkbnr/pppppppp/8/8/8/8/")
    assert {(e.color, e.msec, e.running) for e in of(said, DG.MSEC, gamenumber=number)} == {
        ("W", 300000, True), ("B", 300000, False),
    }  # fmt: skip
    tags = [e.tag for e in of(said, DG.PGN_TAG, gamenumber=number)]
    assert tags == ["Event", "Site", "Date", "Round", "White", "Black", "Result"]
    [pstat] = grams(said, DG.PSTAT)
    assert (pstat.initiated, pstat.p1, pstat.p2, len(pstat.records)) == (0, "Bob", "Alice", 1)
    assert of(said, DG.SOUND, code=6)
    [board] = grams(said, DG.JBOARD)
    assert (board.board[:8], board.side_to_move, board.status, board.flip) == (
        "rnbqkbnr", "W", 1, True,
    )  # fmt: skip
    # 139 DG_MY_TURN "(gamenumber) Sent when it becomes my turn to play"
    await alice.dg(DG.MY_TURN, mark["Alice"], gamenumber=number)

    mark = await marks(c)
    said = await bob.do("say good luck", CN.CN_SAY)
    # 62 "Type is 0 for "say""; 31 "The type is 0 for "say""
    assert of(said, DG.PERSONAL_TELL_ECHO, receiver="Alice", type=0, text="good luck")
    await alice.dg(DG.PERSONAL_TELL, mark["Alice"], playername="Bob", type=0, text="good luck")
    said = await alice.do("flip", CN.CN_FLIP)
    # 39 DG_FLIP "Also sent in response to the flip command, in which case a dg_refresh
    # follows"
    flips = [e for e in said if getattr(e, "dg", None) in (DG.FLIP, DG.REFRESH)]
    assert [(e.dg, e.gamenumber) for e in flips] == [(DG.FLIP, number), (DG.REFRESH, number)]
    assert flips[0].flip is True
    await alice.do("flip", CN.CN_FLIP)
    said = await boss.do("observe Alice", CN.CN_OBSERVE)
    # 18 DG_STARTED_OBSERVING "exactly the same as DG_MY_GAME_STARTED, but I'm an observer"
    [watching] = grams(said, DG.STARTED_OBSERVING)
    assert game_of(watching) == game_of(started)
    assert of(said, DG.MY_RELATION_TO_GAME, gamenumber=number, symbol="O")
    # 21 DG_OFFERS_IN_MY_GAME "(gamenumber wdraw bdraw wadjourn badjourn wabort babort
    # wtakeback btakeback)", none yet
    [offers] = grams(said, DG.OFFERS_IN_MY_GAME)
    assert tuple(offers[1:9]) == (False,) * 6 + (0, 0)
    await alice.dg(DG.PLAYERS_IN_MY_GAME, mark["Alice"], playername="Boss", symbol="O")

    mark = await marks(c)
    said = await alice.do("f3", CN.SCN_MOVE)
    # 24 DG_SEND_MOVES "(gamenumber algebraic-move smith-move time clock is-variation)";
    # 113 DG_IS_VARIATION "1 MOVE_PLAYED Main line, play mode"
    [moved] = grams(said, DG.SEND_MOVES)
    assert (moved.gamenumber, moved.algebraic, moved.smith, moved.variation) == (
        number, "f3", "f2f3", 1,
    )  # fmt: skip
    assert 0 <= moved.time <= 2 and 297 <= moved.clock <= 300
    seen = await boss.dg(DG.SEND_MOVES, mark["Boss"], gamenumber=number)
    assert seen.algebraic == "f3"
    await bob.dg(DG.MY_TURN, mark["Bob"], gamenumber=number)
    await bob.do("e5", CN.SCN_MOVE)
    await alice.dg(DG.SEND_MOVES, mark["Alice"], algebraic="e5")
    said = await carol.do(f"refresh {number}", CN.CN_REFRESH)
    # 40 DG_ISOLATED_BOARD "I'm not observing the game, I just asked for an isolated peek
    # (with "refresh <game>")"; 49 DG_JBOARD "sent in approximately (maybe exactly) the
    # same places as a style 12 board would be generated": "played (1)"
    assert game_of(grams(said, DG.ISOLATED_BOARD)[0]) == game_of(started)
    [board] = grams(said, DG.JBOARD)
    assert (board.algebraic, board.smith, board.status, board.side_to_move) == (
        "e5", "e7e5", 1, "W",
    )  # fmt: skip
    said = await bob.do("Nf6", CN.SCN_ILLEGAL_MOVE)
    # 42 DG_ILLEGAL_MOVE "(gamenumber movestring reason) ... 4 Not your move"
    [illegal] = grams(said, DG.ILLEGAL_MOVE)
    assert (illegal.gamenumber, illegal.move, illegal.reason) == (number, "Nf6", 4)
    said = await alice.do("Ke3", CN.SCN_ILLEGAL_MOVE)
    assert of(said, DG.ILLEGAL_MOVE, move="Ke3", reason=2)  # "2 Illegal"

    mark = await marks(c)
    await bob.do("kibitz nice opening", CN.CN_KIBITZ)
    # 26 DG_KIBITZ "(gamenumber playername titles kib/whi ^Y{kib string^Y}) kib/whi is 1
    # if it's a kibitz"
    kib = await boss.dg(DG.KIBITZ, mark["Boss"])
    assert (kib.gamenumber, kib.playername, kib.titles, kib.kibitz, kib.text) == (
        number, "Bob", "", True, "nice opening",
    )  # fmt: skip
    await alice.do("whisper to the audience", CN.CN_WHISPER)  # "0 if whisper"
    whispered = await boss.dg(DG.KIBITZ, mark["Boss"], kibitz=False)
    assert (whispered.playername, whispered.titles, whispered.text) == (
        "Alice", "GM", "to the audience",
    )  # fmt: skip

    # offers: draw, abort, adjourn made and declined; a takeback made and accepted
    for offer, word, field in (
        ("draw", CN.CN_DRAW, "wdraw"),
        ("abort", CN.CN_ABORT, "wabort"),
        ("adjourn", CN.CN_ADJOURN, "wadjourn"),
    ):
        mark = await marks(c)
        said = await alice.do(offer, word)
        [made] = grams(said, DG.OFFERS_IN_MY_GAME)
        assert getattr(made, field) is True, (offer, made)
        # 77 DG_GAME_MESSAGE "(gamenumber string) Encapsulates the text generated by
        # miscellaneous commands that affect a particular game, e.g. ... draw"
        message = await bob.dg(DG.GAME_MESSAGE, mark["Bob"], gamenumber=number)
        assert message.message
        # 53 DG_SOUND "5 SOUND_OFFER"
        await bob.dg(DG.SOUND, mark["Bob"], code=5)
        seen = await boss.dg(DG.OFFERS_IN_MY_GAME, mark["Boss"])
        assert getattr(seen, field) is True
        said = await bob.do("decline", CN.CN_DECLINE)
        [gone] = grams(said, DG.OFFERS_IN_MY_GAME)
        assert tuple(gone[1:9]) == (False,) * 6 + (0, 0)
    mark = await marks(c)
    said = await alice.do("takeback 2", CN.CN_TAKEBACK)
    assert of(said, DG.OFFERS_IN_MY_GAME, wtakeback=2, btakeback=0)
    said = await bob.do("accept", CN.CN_ACCEPT)
    # 22 DG_TAKEBACK "(gamenumber takeback-count) A takeback occurred in the game that
    # I'm observing or playing"; 56 DG_MSEC "(5) on a takeback"
    assert of(said, DG.TAKEBACK, gamenumber=number, count=2)
    assert of(said, DG.MSEC, gamenumber=number)
    await boss.dg(DG.TAKEBACK, mark["Boss"], gamenumber=number, count=2)
    said = await bob.do("moretime 30", CN.CN_MORETIME)
    # 61 DG_MORETIME "(gamenumber color seconds) Number of seconds added to color's
    # clock"; 38 DG_SET_CLOCK "(gamenumber white-clock black-clock) Sent when a game I'm
    # involved in has a clock adjusted, say by the moretime command"
    assert of(said, DG.MORETIME, gamenumber=number, color="W", seconds=30)
    [clock] = of(said, DG.SET_CLOCK, gamenumber=number)
    assert clock.white_clock > 300 >= clock.black_clock

    # the observer refreshes, goes, comes back
    said = await boss.do("refresh Alice", CN.CN_REFRESH)
    # 41 DG_REFRESH "(gamenumber) ... the only DG I might get when you do "refresh
    # <game>" for a game which I am already observing"
    assert of(said, DG.REFRESH, gamenumber=number)
    said = await boss.do("unobserve Alice", CN.CN_OBSERVE)
    # 19 DG_STOP_OBSERVING "(gamenumber) I just stopped observing a game"; 43 "X"
    assert of(said, DG.STOP_OBSERVING, gamenumber=number)
    assert of(said, DG.MY_RELATION_TO_GAME, gamenumber=number, symbol="X")
    await boss.do("observe Alice", CN.CN_OBSERVE)

    # fool's mate: Bob wins, both ratings change
    mark = await marks(c)
    for mover, san in ((alice, "f3"), (bob, "e5"), (alice, "g4")):
        await mover.do(san, CN.SCN_MOVE)
    said = await bob.do("Qh4#", CN.SCN_MOVE)
    # 16 DG_MY_GAME_RESULT, "Same as DG_GAME_RESULT" (13): "(gamenumber become-examined
    # game_result_code score_string2 description-string ECO) ... e.g. "Mat" ... "0-1" ...
    # "White checkmated""; 43 "X"; 53 DG_SOUND 7 SOUND_END
    [result] = grams(said, DG.MY_GAME_RESULT)
    assert (result.gamenumber, result.become_examined, result.result_code, result.score) == (
        number, False, "Mat", "0-1",
    )  # fmt: skip
    assert "checkmated" in result.description and result.eco is not None
    assert of(said, DG.MY_RELATION_TO_GAME, gamenumber=number, symbol="X")
    assert of(said, DG.SOUND, code=7)
    assert (await boss.dg(DG.MY_GAME_RESULT, mark["Boss"], gamenumber=number)).score == "0-1"
    listed = await carol.dg(DG.GAME_RESULT, mark["Carol"], gamenumber=number)
    assert listed._replace(extra=()) == result._replace(extra=())
    await carol.dg(DG.STATE, mark["Carol"], playername="Bob", state="X", state_game=0)
    # 4 DG_BLITZ "(playername rating annotation) ... I get a rating DG any time
    # someone's rating changes (i.e. when their game ends)": 1 provisional
    for name in ("Alice", "Bob"):
        changed = await carol.dg(DG.BLITZ, mark["Carol"], playername=name)
        assert changed.annotation == 1 and (changed.rating > 1500) == (name == "Bob")
    # 52 DG_MY_RATING "(bullet blitz standard wild bughouse) ... Sent ... when rating
    # changes"; 87 DG_NEW_MY_RATING "in the order specified by DG_RATING_TYPE_KEY"
    mine = await bob.dg(DG.MY_RATING, mark["Bob"])
    assert mine.blitz > 1500 and (mine.bullet, mine.standard) == (0, 0)
    new = await bob.dg(DG.NEW_MY_RATING, mark["Bob"])
    assert new.ratings[1] == mine.blitz  # (1 Blitz)
    for client in (alice, bob, boss):
        assert not [e for e in client.events if getattr(e, "dg", None) == DG.MY_GAME_ENDED]


async def game_two(c: dict[str, Icc]) -> None:
    """Unrated crazyhouse, Carol (timeseal) against Bob, Bob with DG_MATCH_ASSESSMENT off;
    adjourned by agreement."""
    alice, bob, carol, _boss = (c[name] for name in PLAYERS)
    await bob.do("set-2 85 0", CN.CN_SET2)
    mark = await marks(c)
    await carol.do("match Bob 3 0 zh white", CN.CN_MATCH)
    # 85 DG_MATCH_ASSESSMENT "Not a DG -- just modifies the semantics of DG_MATCH": off,
    # "The assessment data is only included if DG_MATCH_ASSESSMENT is on"
    offered = await bob.dg(DG.MATCH, mark["Bob"], challenger="Carol")
    assert (offered.assess_loss, offered.assess_draw, offered.assess_win) == (None, None, None)
    assert (offered.wild_number, offered.rated) == (23, False)
    await bob.do("set-2 85 1", CN.CN_SET2)
    said = await bob.do("accept", CN.CN_ACCEPT)
    [started] = grams(said, DG.MY_GAME_STARTED)
    number = started.gamenumber
    # "uses-plunkers is 0 normally, 1 for bughouse and similar variants": drops
    assert (started.wild_number, started.rating_type, started.rated) == (23, "Crazyhouse", False)
    assert started.uses_plunkers and started.irregular_legality
    # 67 DG_NOTIFY_STATE "Like DG_STATE but only for people on your notify list"
    await alice.dg(DG.NOTIFY_STATE, mark["Alice"], playername="Bob", state="P", state_game=number)
    for mover, san in ((carol, "e4"), (bob, "d5"), (carol, "exd5"), (bob, "Qxd5")):
        await mover.do(san, CN.SCN_MOVE)
    # 37 DG_BUGHOUSE_HOLDINGS "(gamenumber {white-holding} {black-holding})"
    holding = await carol.dg(
        DG.BUGHOUSE_HOLDINGS, mark["Carol"], white_holding="P", black_holding="P"
    )
    assert holding.gamenumber == number
    said = await carol.do("P@e4", CN.SCN_MOVE)
    [drop] = grams(said, DG.SEND_MOVES)
    # 34 "bughouse plunks are the same in all move formats, e.g. "Q@f7+""
    assert (drop.algebraic, drop.smith) == ("P@e4", "P@e4")
    assert of(said, DG.BUGHOUSE_HOLDINGS, white_holding="", black_holding="P")
    # 144 DG_MOVE_LAG "(player lag) ... Only goes to the two players ... only sent if
    # timestamping is on": Carol's moves, through timeseal
    lag = await bob.dg(DG.MOVE_LAG, mark["Bob"], playername="Carol")
    assert lag.lag >= 0
    assert not of(bob.events, DG.MOVE_LAG, playername="Bob")
    await carol.do("adjourn", CN.CN_ADJOURN)
    said = await bob.do("accept", CN.CN_ACCEPT)
    # 13/16 "score_string2 ... "*"" for an adjourned game
    [result] = grams(said, DG.MY_GAME_RESULT)
    assert (result.gamenumber, result.become_examined, result.score) == (number, False, "*")
    await alice.dg(DG.GAME_RESULT, mark["Alice"], gamenumber=number, score="*")


async def game_three(c: dict[str, Icc]) -> None:
    """Unrated Fischer random (wild 22), Alice against Carol, who knows its castlings
    (DG_KNOWS_FISCHER_RANDOM on) while Alice does not; they switch colours, then Alice
    aborts at move 1."""
    alice, _bob, carol, _boss = (c[name] for name in PLAYERS)
    await alice.do("set-2 132 0", CN.CN_SET2)
    await alice.do("match Carol 3 0 w22 white", CN.CN_MATCH)
    mark = await marks(c)
    said = await carol.do("accept", CN.CN_ACCEPT)
    [started] = grams(said, DG.MY_GAME_STARTED)
    number = started.gamenumber
    # "irregular-semantics is 0 normally, 1 for atomic chess and other variants where you
    # can't update the board based on the last move by usual rules"
    assert (started.wild_number, started.irregular_legality, started.irregular_semantics) == (
        22, True, True,
    )  # fmt: skip
    # 84 DG_SET_BOARD "(gamenumber 64-character-board side-to-move) ... only to be sent
    # for irregular-semantics games such as atomic chess or fischer-random"; 132 "Enable
    # this if your client knows the castling rules to Fischer Random Chess ... and can
    # therefore update the board just given DG_SEND_MOVE": Carol gets none
    board = await alice.dg(DG.SET_BOARD, mark["Alice"], gamenumber=number)
    assert len(board.board) == 64 and board.side_to_move == "W"
    assert not of(said, DG.SET_BOARD)
    # 25 DG_MOVE_LIST: "(2) I start playing ... unless ... it's a wild game", with 110
    # and 101 on it is DG_POSITION_BEGIN2 that comes (a FEN of the shuffled position)
    [begin] = of(said, DG.POSITION_BEGIN2, gamenumber=number)
    assert begin.fen.split()[0].replace("/", "").lower().count("k") == 2
    await alice.do("switch", CN.SCN_MISCELLANEOUS)
    said = await carol.do("accept", CN.CN_ACCEPT)
    # 100 DG_MY_GAME_CHANGE "same as DG_GAME_STARTED ... one or more parameters changed,
    # such as the name of the White player"
    [changed] = grams(said, DG.MY_GAME_CHANGE)
    assert (changed.gamenumber, changed.whitename, changed.blackname) == (number, "Carol", "Alice")
    said = await alice.do("abort", CN.CN_ABORT)
    [result] = grams(said, DG.MY_GAME_RESULT)
    # "score_string2, "0-1", "1-0", "1/2-1/2", "*", or "aborted""
    assert result.score in ("*", "aborted")
    await alice.do("set-2 132 1", CN.CN_SET2)


#: Rated games of the last round: the match line's terms and the rating DG its end sends.
RATED_ROUND = (
    ("1 0", DG.BULLET, "Bullet"),
    ("15 0", DG.STANDARD, "Standard"),
    ("3 0 w5", DG.WILD, "Wild"),
    ("3 0 w17", DG.LOSERS, "Losers"),
    ("3 0 zh", DG.CRAZYHOUSE, "Crazyhouse"),
    ("3 0 w22", DG.CHESS960, "Chess960"),
)


async def rated_round(c: dict[str, Icc]) -> None:
    """Carol and Boss play a rated game of each other rating type the server keeps; Carol
    resigns each. "I get a rating DG any time someone's rating changes (i.e. when their
    game ends)" (DG_BULLET, 3): Alice hears each of the two."""
    alice, _bob, carol, boss = (c[name] for name in PLAYERS)
    for turn, (terms, rating_dg, rating_type) in enumerate(RATED_ROUND):
        # they take turns to challenge (a player may send a few match requests at once,
        # then one every few seconds: core/net/limits.py)
        if turn % 2:
            await boss.do(f"match Carol {terms} rated black", CN.CN_MATCH)
            said = await carol.do("accept", CN.CN_ACCEPT)
        else:
            await carol.do(f"match Boss {terms} rated white", CN.CN_MATCH)
            said = await boss.do("accept", CN.CN_ACCEPT)
        [started] = grams(said, DG.MY_GAME_STARTED)
        assert (started.rating_type, started.rated) == (rating_type, True)
        mark = await marks(c)
        said = await carol.do("resign", CN.CN_RESIGN)
        assert of(said, DG.MY_GAME_RESULT, result_code="Res", score="0-1")
        for name, above in (("Carol", False), ("Boss", True)):
            changed = await alice.dg(rating_dg, mark["Alice"], playername=name)
            assert changed.annotation == 1 and (changed.rating > 1500) == above


async def game_four(server: Server, c: dict[str, Icc], monkeypatch: pytest.MonkeyPatch) -> None:
    """Unrated atomic (wild 27), Bob against Alice, Boss watching with the move parts
    (33-36, 113) turned off one by one; Bob idles before his first move; Bob resigns."""
    alice, bob, carol, boss = (c[name] for name in PLAYERS)
    # the server looks at a game's idle players every IDLE_PING seconds (10): here 0.2,
    # and Bob's last input is set back 31 s instead of waiting (as test_new_dgs does)
    monkeypatch.setattr(info, "IDLE_PING", 0.2)
    await carol.do("+gnotify Bob", CN.CN_PLUS)
    mark = await marks(c)
    await bob.do("match Alice 3 0 w27 white", CN.CN_MATCH)
    said = await alice.do("accept", CN.CN_ACCEPT)
    [started] = grams(said, DG.MY_GAME_STARTED)
    number = started.gamenumber
    assert (started.wild_number, started.irregular_semantics) == (27, True)
    await carol.dg(DG.SOUND, mark["Carol"], code=3)  # "#define SOUND_GNOTIFY 3"
    await carol.do("-gnotify Bob", CN.CN_MINUS)
    idled = mark = await marks(c)
    server.world.online["bob"].last_input -= 31
    answering = asyncio.create_task(bob.drain())  # Bob's client answers the pings
    # 74 DG_IDLE "(name idle-time time-since-read) ... sent to TDs ... when idle time goes
    # about 30 seconds ... Soon I'll have it sent to the opponent in a game too"
    idle = await alice.dg(DG.IDLE, mark["Alice"], playername="Bob")
    assert 31 <= idle.idle_time < 60 and 0 <= idle.time_since_read < 60
    # 75 DG_ACK_PING "(name lag-in-ms mean variance) Sent to TD when the server gets a ping
    # back on a ping that it sent on its own (because the player was idle for 10+
    # seconds). Also sent to opponents."
    ack = await alice.dg(DG.ACK_PING, mark["Alice"], playername="Bob")
    assert ack.lag >= 0 and ack.mean >= 0 and ack.variance >= 0
    answering.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await answering
    await boss.do("observe Bob", CN.CN_OBSERVE)
    # each move part goes when its variable goes: 33 algebraic, 34 smith, 35 time, 36
    # clock, 113 is-variation ("last five fields are OPTIONAL, controlled by the variables")
    moves = [
        (bob, "e4"),
        (alice, "d5"),
        (bob, "exd5"),
        (alice, "Nf6"),
        (bob, "Nc3"),
        (alice, "Nh5"),
    ]
    for (mover, san), off in zip(moves, (None, 33, 34, 35, 36, 113), strict=True):
        if off is not None:
            await boss.do(f"set-2 {off} 0", CN.CN_SET2)
        mark = await marks(c)
        await mover.do(san, CN.SCN_MOVE)
        seen = await boss.dg(DG.SEND_MOVES, mark["Boss"], gamenumber=number)
        parts = (seen.algebraic, seen.smith, seen.time, seen.clock, seen.variation)
        gone = {33: 0, 34: 1, 35: 2, 36: 3, 113: 4}
        off_now = [
            n for n in (33, 34, 35, 36, 113) if moves.index((mover, san)) > list(gone).index(n)
        ]
        for dg_number, at in gone.items():
            assert (parts[at] is None) == (dg_number in off_now), (san, parts, off_now)
        if san == "exd5":
            # the explosion: "DG_SET_BOARD ... atomic chess"
            board = await alice.dg(DG.SET_BOARD, mark["Alice"], gamenumber=number)
            assert board.side_to_move == "B" and board.board[27] == "-"  # d5 is empty
    for dg_number in (33, 34, 35, 36, 113):
        await boss.do(f"set-2 {dg_number} 1", CN.CN_SET2)
    # "It is also sent when the player unidles (by typing or something)"
    unidled = await alice.dg(
        DG.IDLE, idled["Alice"], playername="Bob", where=lambda e: e.idle_time < 30
    )
    assert unidled.time_since_read < 30
    said = await bob.do("resign", CN.CN_RESIGN)
    [result] = grams(said, DG.MY_GAME_RESULT)
    assert (result.result_code, result.score) == ("Res", "0-1")
    monkeypatch.undo()


async def examining(c: dict[str, Icc]) -> None:
    """Alice examines a new game with Boss watching: moves, backward, forward, revert,
    circles, arrows and board marks; Carol refreshes it from outside; then unexamine."""
    alice, bob, carol, boss = (c[name] for name in PLAYERS)
    said = await alice.do("examine", CN.CN_EXAMINE)
    [started] = grams(said, DG.MY_GAME_STARTED)
    number = started.gamenumber
    # "played-game is 1 for real games and 0 for examined games"
    assert started.played_game is False
    assert of(said, DG.MY_RELATION_TO_GAME, gamenumber=number, symbol="E")
    # 49 DG_JBOARD "status: played (1), examined (0), or stored (-1)"
    assert [b.status for b in grams(said, DG.JBOARD)] == [0]
    # 12 "It includes both regular and examined games"; 11 "E=examining"
    listed = await carol.dg(DG.GAME_STARTED, gamenumber=number, played_game=False)
    assert (listed.whitename, listed.blackname) == (started.whitename, started.blackname)
    await carol.dg(DG.STATE, playername="Alice", state="E", state_game=number)
    await boss.do("observe Alice", CN.CN_OBSERVE)
    for san in ("e4", "e5", "Nf3"):
        said = await alice.do(san, CN.SCN_MOVE)
        # 113 "3 MOVE_EXAMINE A move in examine mode"
        assert of(said, DG.SEND_MOVES, gamenumber=number, algebraic=san, variation=3)
        [board] = grams(said, DG.JBOARD)
        assert (board.algebraic, board.status) == (san, 0)
    assert board.smith == "g1f3" and board.side_to_move == "B" and board.move_number == 2
    mark = await marks(c)
    said = await alice.do("backward 2", CN.CN_BACK)
    # 23 DG_BACKWARD "(gamenumber backup-count) A player backed up in an examined game";
    # 56 DG_MSEC "Examine-mode cases: ... for now running=0 for these (8) move in examined
    # game ... (10) backward or revert (11) forward"
    assert of(said, DG.BACKWARD, gamenumber=number, count=2)
    assert {(e.color, e.running) for e in of(said, DG.MSEC, gamenumber=number)} == {
        ("W", False), ("B", False),
    }  # fmt: skip
    await boss.dg(DG.BACKWARD, mark["Boss"], gamenumber=number, count=2)
    said = await alice.do("forward 1", CN.CN_FORWARD)
    # 24 "Also sent when an examiner uses "forward""; 113 "2 MOVE_FORWARD"
    assert of(said, DG.SEND_MOVES, gamenumber=number, algebraic="e5", variation=2)
    assert len(of(said, DG.MSEC, gamenumber=number, running=False)) == 2
    await alice.do("Nc3", CN.SCN_MOVE)  # off the main line (e4 e5 Nf3)
    said = await alice.do("revert", CN.CN_REVERT)
    # 23 "Also generated by the "revert" command"
    assert of(said, DG.BACKWARD, gamenumber=number, count=1)
    mark = await marks(c)
    for line, number_cn, dg_number, fields in (
        # 59 DG_CIRCLE "(gamenumber examiner coordinate)"; 89 DG_UNCIRCLE the same
        ("circle e4", CN.CN_CIRCLE, DG.CIRCLE, {"square": "e4"}),
        ("uncircle e4", CN.CN_CIRCLE, DG.UNCIRCLE, {"square": "e4"}),
        # 60 DG_ARROW "(gamenumber examiner origin destination)"; 90 DG_UNARROW
        ("arrow e2 e4", CN.CN_ARROW, DG.ARROW, {"origin": "e2", "destination": "e4"}),
        ("unarrow e2 e4", CN.CN_ARROW, DG.UNARROW, {"origin": "e2", "destination": "e4"}),
        # 143 DG_BOARDINFO "(game-number examiner-name type coord1 coord2 color)"
        ("boardinfo 4 a1 h8 8", CN.CN_BOARDINFO, DG.BOARDINFO,
         {"type": 4, "coord1": "a1", "coord2": "h8", "color": 8}),
    ):  # fmt: skip
        await alice.do(line, number_cn)
        await boss.dg(dg_number, mark["Boss"], gamenumber=number, examiner="Alice", **fields)
    said = await carol.do(f"refresh {number}", CN.CN_REFRESH)
    # 40 DG_ISOLATED_BOARD "the same as DG_STARTED_OBSERVING ..., but I'm not observing
    # the game, I just asked for an isolated peek (with "refresh <game>")"
    [peek] = grams(said, DG.ISOLATED_BOARD)
    assert (peek.gamenumber, peek.played_game) == (number, False)
    [board] = grams(said, DG.JBOARD)  # "examined (0)"
    assert (board.status, board.algebraic, board.smith) == (0, "e5", "e7e5")
    # 111 DG_PAST_MOVE, "Used only in conjunction with DG_POSITION_BEGIN2": its moves
    [begin] = grams(said, DG.POSITION_BEGIN2)
    past = grams(said, DG.PAST_MOVE)
    assert begin.nmoves == len(past) == 2 and [m.algebraic for m in past] == ["e4", "e5"]
    # 110 off: "DG_POSITION_BEGIN ... If you have this on and also have DG_SEND_MOVES on,
    # then you get this followed by nmoves-to-follow DG_SEND_MOVES"
    await carol.do("set-2 110 0", CN.CN_SET2)
    said = await carol.do(f"refresh {number}", CN.CN_REFRESH)
    [begin] = grams(said, DG.POSITION_BEGIN)
    assert begin.nmoves == len(grams(said, DG.SEND_MOVES)) == 2
    # 101 off too: "25 DG_MOVE_LIST ... (3) I use the "refresh <game>" command"
    # "(gamenumber initial-position {white-move1-info}{black-move1-info}...)", "*" for the
    # normal initial position
    await carol.do("set-2 101 0", CN.CN_SET2)
    said = await carol.do(f"refresh {number}", CN.CN_REFRESH)
    [listed] = grams(said, DG.MOVE_LIST)
    assert listed.initial_position == "*"
    assert [m.algebraic for m in listed.moves] == ["e4", "e5"]
    for turned in (101, 110):
        await carol.do(f"set-2 {turned} 1", CN.CN_SET2)
    mark = await marks(c)
    said = await alice.do("unexamine", CN.CN_UNEXAMINE)
    # 17 DG_MY_GAME_ENDED "Same as DG_EXAMINED_GAME_IS_GONE. I might be examining or
    # observing the game"; 14 DG_EXAMINED_GAME_IS_GONE "(gamenumber) The last step of the
    # life cycle of a game. Only generated for examined games."
    await boss.dg(DG.MY_GAME_ENDED, mark["Boss"], gamenumber=number)
    await bob.dg(DG.EXAMINED_GAME_IS_GONE, mark["Bob"], gamenumber=number)


async def lists_of_games(server: Server, c: dict[str, Icc]) -> None:
    """Alice's history and a search: DG_GAMELIST_BEGIN/ITEM."""
    alice = c["Alice"]
    # the games' ends are written to the database by a queue (core/storage/writes.py),
    # after the players were told; history and search read the database
    await server.core.writes.drained()
    said = await alice.do("history", CN.CN_HISTORY)
    # 72 DG_GAMELIST_BEGIN "(command {parameters} nhits first last {summary}) command is
    # one of search, history, liblist, or stored"
    [begin] = grams(said, DG.GAMELIST_BEGIN)
    items = grams(said, DG.GAMELIST_ITEM)
    assert (
        begin.command == "history" and begin.nhits == len(items) >= 2
    )  # the mate and the resignation
    # 73 DG_GAMELIST_ITEM "(index id event date time white-name white-rating black-name
    # black-rating rated rating-type wild init-time-W inc-W init-time-B inc-B eco status
    # color mode {note} here)"; fool's mate: "status 0 ... mode 1: (Mat) Black
    # checkmated" with color the side that lost (1 white)
    mated = [i for i in items if (i.status, i.mode) == (0, 1)]
    assert [(i.white_name, i.black_name, i.color, i.rated) for i in mated] == [
        ("Alice", "Bob", 1, True),
    ]  # fmt: skip
    assert mated[0].date.count(".") == 2 and mated[0].time.count(":") == 2
    said = await c["Carol"].do(f"sposition #{mated[0].id}", CN.CN_SPOSITION)
    # 40 DG_ISOLATED_BOARD: "The commands sposition and smoves can also generated one of
    # these, in which case the gamenumber will be -1"; 25 "gamenumber could be -1 in the
    # case of a stored position (spos or smoves)", here as DG_POSITION_BEGIN2 (110) and its
    # DG_PAST_MOVEs; 56 DG_MSEC "(13) spos"; 49 DG_JBOARD "stored (-1)"; 13 DG_GAME_RESULT
    # "may also be sent when you look at a game which isn't currently being played; i.e.,
    # with sposition"
    assert of(said, DG.ISOLATED_BOARD, gamenumber=-1, game_id=mated[0].id)
    [begin] = of(said, DG.POSITION_BEGIN2, gamenumber=-1)
    assert begin.nmoves == len(of(said, DG.PAST_MOVE, gamenumber=-1)) == 4
    assert {(m.color, m.running) for m in of(said, DG.MSEC, gamenumber=-1)} == {
        ("W", False), ("B", False),
    }  # fmt: skip
    [board] = grams(said, DG.JBOARD)
    assert (board.status, board.algebraic, board.smith, board.flip) == (-1, "Qh4#", "d8h4", False)
    assert of(said, DG.GAME_RESULT, gamenumber=-1, result_code="Mat", score="0-1")
    said = await alice.do("pstat Bob", CN.CN_PSTAT)
    # 142 DG_PSTAT "initiated: ... 1 - by a command ... If only one player is given to the
    # pstat command the other is defaulted to the giver of the command and will therefore
    # become p1": Alice lost to Bob once, as White
    [pstat] = grams(said, DG.PSTAT)
    assert (pstat.initiated, pstat.p1, pstat.p2) == (1, "Alice", "Bob")
    blitz = [r for r in pstat.records if r.rating_number == 1]
    assert [(r.white_wins, r.white_losses, r.white_draws) for r in blitz] == [(0, 1, 0)]
    said = await alice.do("search Bob", CN.CN_SEARCH)
    [begin] = grams(said, DG.GAMELIST_BEGIN)
    assert begin.command == "search" and begin.nhits == len(grams(said, DG.GAMELIST_ITEM))


async def password_and_logout(server: Server, c: dict[str, Icc]) -> Icc:
    """A partnership, a password change, Bob's open and departure and return: what the
    others hear of it (notify list, channels, the adjourned game's suggestion)."""
    alice, bob, carol, boss = (c[name] for name in PLAYERS)
    mark = await marks(c)
    await boss.do("set bugopen 1", CN.CN_SET)
    await alice.do("partner Boss", CN.CN_PARTNER)
    await boss.do("accept", CN.CN_ACCEPT)
    # 44 DG_PARTNERSHIP "(name name forming) ... forming is 1 or 0"
    formed = await alice.dg(DG.PARTNERSHIP, mark["Alice"], forming=True)
    assert {formed.name1, formed.name2} == {"Alice", "Boss"}
    said = await alice.do("password pw pw2", CN.CN_PASSWORD)
    # 114 DG_PASSWORD "(new-password handle) Sent when you change your own password"
    [changed] = grams(said, DG.PASSWORD)
    assert (changed.password, changed.handle) == ("pw2", "Alice")
    await bob.do("set open 0", CN.CN_SET)
    # 66 DG_NOTIFY_OPEN "Like DG_OPEN but only for people on your notify list"
    await alice.dg(DG.NOTIFY_OPEN, mark["Alice"], playername="Bob", open=False)
    await bob.do("set open 1", CN.CN_SET)
    for turned in (9, 10, 11, 131, 150):
        await boss.do(f"set-2 {turned} 0", CN.CN_SET2)
    await bob.send("quit")
    # 2 DG_PLAYER_LEFT "(playername)"; 65 DG_NOTIFY_LEFT "Like DG_PLAYER_LEFT but only for
    # players on your notify list"
    await carol.dg(DG.PLAYER_LEFT, mark["Carol"], playername="Bob")
    await alice.dg(DG.NOTIFY_LEFT, mark["Alice"], playername="Bob")
    await bob.close()
    first_bob = bob
    bob = c["Bob"] = await Icc.open(server.port)
    await bob.enter("Bob", "pw")
    # 64 DG_NOTIFY_ARRIVED "Same form as DG_PLAYER_ARRIVED (with all of the same optional
    # fields)"; 131 DG_UID "Adds a field to DG_PLAYER_ARRIVED": Boss turned it off
    back = await alice.dg(DG.NOTIFY_ARRIVED, mark["Alice"], playername="Bob")
    assert isinstance(back.uid, int) and len(back.ratings) == 14
    again = await alice.dg(DG.PLAYER_ARRIVED, mark["Alice"], playername="Bob")
    assert again.uid == back.uid
    # and 9, 10, 11 ("these are only sent if you also have DG_PLAYER_ARRIVED") and the
    # rating DG 150 ("A rating will be sent for each rating datagram that has been turned
    # on"), which Boss turned off too: none of their fields
    seen = await boss.dg(DG.PLAYER_ARRIVED, mark["Boss"], playername="Bob")
    assert (seen.titles, seen.open, seen.state, seen.state_game, seen.uid) == (None,) * 5
    assert [r.dg for r in seen.ratings] == [r.dg for r in back.ratings if r.dg != 150]
    for turned in (9, 10, 11, 131):
        await boss.do(f"set-2 {turned} 1", CN.CN_SET2)
    said = await boss.do("set-2 150 1", CN.CN_SET2)
    # 150 DG_FORTYFIVEMINUTE, as DG_BULLET: "If level2setting[DG_PLAYER_ARRIVED]=1, and I
    # do a set-2 to enable DG_BULLET ratings, I get a list of bullet rating messages"
    # (a type nobody is rated in here: "0 if the player has no rating in that category")
    assert {(e.playername, e.rating, e.annotation) for e in grams(said, DG.FORTYFIVEMINUTE)} == {
        (name, 0, 0) for name in PLAYERS
    }
    # 46 DG_CHANNELS_SHARED "(playername channels) ... Sent only when someone connects"
    shared = await alice.dg(DG.CHANNELS_SHARED, mark["Alice"], playername="Bob")
    assert 77 in shared.channels
    # 63 DG_SUGGESTION "(command-string text-string priority suggester subject id) ...
    # sometimes by server to encourage resumption of adjourned games"
    suggested = await carol.dg(DG.SUGGESTION, mark["Carol"])
    assert suggested.command == "resume Bob" and suggested.priority == 0
    mark = await marks(c)
    said = await bob.do("resume Carol", CN.CN_RESUME)
    await carol.dg(DG.MATCH, mark["Carol"], challenger="Bob", adjourned=True)
    said = await carol.do("accept", CN.CN_ACCEPT)
    # 99 DG_QRETRACT "(id) Retract the DG_SUGGESTION ... with the same id": the game between
    # them started
    retracted = await carol.dg(DG.RETRACT, mark["Carol"], id=suggested.id)
    assert retracted.id == suggested.id
    [started] = grams(said, DG.MY_GAME_STARTED)
    assert (started.wild_number, started.whitename) == (23, "Carol")
    # 25 "(2) I start playing ... unless I'm resuming an adjourned game": its moves, here
    # in the DG_POSITION_BEGIN2 form (110) with its DG_PAST_MOVEs
    [begin] = grams(said, DG.POSITION_BEGIN2)
    past = [m.algebraic for m in grams(said, DG.PAST_MOVE)]
    assert begin.nmoves == 5 and past == ["e4", "d5", "exd5", "Qxd5", "P@e4"]
    assert of(said, DG.BUGHOUSE_HOLDINGS, white_holding="", black_holding="P")
    await carol.do("abort", CN.CN_ABORT)
    await bob.do("accept", CN.CN_ACCEPT)
    await carol.dg(DG.MY_GAME_RESULT, mark["Carol"], gamenumber=started.gamenumber)
    said = await alice.do("ptell over to you", CN.CN_PTELL)
    # 31 "2 for "ptell" (from bughouse partner)"
    await boss.dg(DG.PERSONAL_TELL, mark["Boss"], playername="Alice", type=2)
    said = await alice.do("partner", CN.CN_PARTNER0)
    await boss.dg(DG.PARTNERSHIP, mark["Boss"], forming=False)
    await alice.do("search", CN.CN_SEARCH0)
    said = await alice.do("-notify Bob", CN.CN_MINUS)
    assert of(said, DG.MY_NOTIFY_LIST, playername="Bob", present=False)  # "or removes"
    said = await alice.do("-channel 77", CN.CN_MINUS)
    # 27 "I do get one for myself when I enter or leave a channel": 0
    assert of(said, DG.PEOPLE_IN_MY_CHANNEL, channel=77, playername="Alice", present=False)
    await bob.dg(DG.PEOPLE_IN_MY_CHANNEL, mark["Bob"], playername="Alice", present=False)
    await marks(c)  # everything sent is read
    return first_bob
