"""The evening's second half (issue 22): every command added since the first half was
written, typed by an ICC level 1 client and checked by its Appendix 1 number
(``Icc.do``), its key line and its DGs; an untimed game (DG_DISABLE_PREMOVE), a game at
time odds, a premove, ECO codes in game results, a TD's commands (Carol is put on the td
list) and adjourned games settled without playing on."""

from __future__ import annotations

import os
import re
from typing import Any

from icswire.protocol.datagrams import DG
from icswire.protocol.level1 import CommandNumber as CN
from icswire.server.app import Server

from ..support import grams, texts
from .clients import Icc

SHOW = bool(os.environ.get("EVENING_SHOW"))  # print each unit (to write new checks)
ECO = re.compile(r"[A-E]\d\d")


def shown(said: list[Any]) -> list[str]:
    """The unit's text lines (printed with its DGs when ``EVENING_SHOW`` is set)."""
    lines = texts(said)
    if SHOW:
        print("----")
        for e in said:
            if hasattr(e, "dg"):
                print("  DG", DG(e.dg).name, tuple(e)[:8])
        for line in lines:
            print("  |", line)
    return lines


async def now(client: Icc) -> int:
    """Where ``client``'s events end once all sent to it so far is read (see ``marks``)."""
    await client.do("date", CN.CN_DATE)
    return client.mark


async def said_line(client: Icc, line: str, number: int, key: str) -> list[Any]:
    """``line`` typed by ``client``: a unit of command ``number`` with a line holding
    ``key``; its events."""
    said = await client.do(line, number)
    assert any(key in text for text in shown(said)), (line, key, texts(said))
    return said


async def run(server: Server, c: dict[str, Icc]) -> None:
    game_id = await untimed_game(c)
    await odds_and_premove(c)
    await adjourned_games(c)
    await server.core.writes.drained()  # the games' ends are in the database
    await lists_and_settings(c)
    await td_commands(c)
    await examined_games(c, game_id)


async def untimed_game(c: dict[str, Icc]) -> str:
    """Alice and Bob play ``0 0``: DG_DISABLE_PREMOVE, Bob's premove refused, the opening
    named (eco), the game's id, FEN and PGN (fen, pgn, logpgn: DG_LOG_PGN), assess, and
    the ECO code in DG_MY_GAME_RESULT / DG_GAME_RESULT."""
    alice, bob, carol, boss = (c[name] for name in ("Alice", "Bob", "Carol", "Boss"))
    await bob.do("set style 13", CN.CN_SET)  # Bob came back: boards as DGs again
    await said_line(boss, "+td Carol", CN.CN_PLUS, "[Carol] added to the td list.")
    said = await said_line(bob, "iset premove 1", CN.CN_SET, "premove set.")
    assert grams(said, DG.MY_VARIABLE)[0][:2] == ("premove", 1)
    mark = await now(carol)
    await said_line(alice, "match Bob 0 0 white unrated", CN.CN_MATCH, "unrated untimed")
    said = await said_line(bob, "accept", CN.CN_ACCEPT, "Creating unrated untimed match.")
    [started] = grams(said, DG.MY_GAME_STARTED)
    number = started.gamenumber
    assert (started.white_initial, started.white_increment) == (0, 0)
    # 141 DG_DISABLE_PREMOVE "(gamenumber) This means don't allow premove during this
    # game": sent at the start of an untimed one
    assert [e.gamenumber for e in grams(said, DG.DISABLE_PREMOVE)] == [number]
    await said_line(carol, "xobserve Boss Alice", CN.CN_XOBSERVE, "Boss is now observing game")
    await boss.dg(DG.STARTED_OBSERVING, gamenumber=number)
    await alice.do("e4", CN.SCN_MOVE)
    await said_line(alice, "time", CN.CN_TIME, "Alice 0:00, Bob 0:00 (Bob to move).")
    await bob.do("e5", CN.SCN_MOVE)
    said = await bob.do("Nc6", CN.SCN_ILLEGAL_MOVE)  # no premove in an untimed game
    assert [e.reason for e in grams(said, DG.ILLEGAL_MOVE)] == [4]
    await alice.do("Nf3", CN.SCN_MOVE)
    await said_line(alice, "eco", CN.CN_ECO, "C40 King's Knight Opening")
    said = await said_line(alice, "gameid", CN.CN_GAMEID, f"Game {number}: #")
    game_id = texts(said)[0].rsplit("#", 1)[1]
    said = await alice.do("fen", CN.CN_FEN)
    fen = "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2"
    assert shown(said) == [fen] and grams(said, DG.FEN)[0].fen == fen
    await said_line(alice, "pgn", CN.CN_PGN, "1. e4 e5 2. Nf3 *")
    said = await alice.do("logpgn", CN.CN_LOGPGN)
    # 86 DG_LOG_PGN "The contents are the PGN form of the game, one ^Y{quoted^Y}
    # argument per line" (and no text: the client logs it)
    [log] = grams(said, DG.LOG_PGN)
    assert log.lines[0].startswith("[Event ") and '[ECO "C40"]' in log.lines
    assert log.lines[-1] == "1. e4 e5 2. Nf3 *" and shown(said) == []
    await said_line(alice, "assess", CN.CN_ASSESS, "Alice: win +")
    mark = await now(carol)
    said = await alice.do("resign", CN.CN_RESIGN)
    # 16 DG_MY_GAME_RESULT / 13 DG_GAME_RESULT "Form: (gamenumber become-examined
    # game_result_code score_string2 description-string ECO)": the opening's code
    [result] = grams(said, DG.MY_GAME_RESULT)
    assert (result.score, result.eco) == ("0-1", "C40")
    listed = await carol.dg(DG.GAME_RESULT, mark, gamenumber=number)
    assert ECO.fullmatch(listed.eco) and listed.eco == "C40"
    return game_id


async def odds_and_premove(c: dict[str, Icc]) -> None:
    """Bob gives Carol time odds (5 0 against 3 0) and premoves; Boss follows Bob's games
    because Carol (TD) said so (qfollow, qunfollow); Alice asks the clocks (time)."""
    alice, bob, carol, boss = (c[name] for name in ("Alice", "Bob", "Carol", "Boss"))
    await said_line(carol, "qfollow Boss Bob", CN.CN_QFOLLOW, "Boss will now be following Bob's")
    await said_line(bob, "match Carol 5 0 3 0 white", CN.CN_MATCH, "5 0 : 3 0")
    mark = await now(boss)
    said = await said_line(carol, "accept", CN.CN_ACCEPT, "Creating:")
    # 15 DG_MY_GAME_STARTED "white-initial white-increment black-initial black-increment"
    [started] = grams(said, DG.MY_GAME_STARTED)
    number = started.gamenumber
    assert (
        started.white_initial, started.white_increment,
        started.black_initial, started.black_increment,
    ) == (5, 0, 3, 0)  # fmt: skip
    # the follower observes it at once: DG_STARTED_OBSERVING with the same clocks
    watching = await boss.dg(DG.STARTED_OBSERVING, mark, gamenumber=number)
    assert (watching.white_initial, watching.black_initial) == (5, 3)
    await bob.do("e4", CN.SCN_MOVE)
    await said_line(bob, "Nf3", CN.SCN_MOVE, "Premove stored: Nf3")
    mark = await now(carol)
    await carol.do("c5", CN.SCN_MOVE)
    # the premove is played as Carol's move lands: Carol sees Nf3 and her turn
    await carol.dg(DG.SEND_MOVES, mark, gamenumber=number, algebraic="Nf3")
    await carol.dg(DG.MY_TURN, mark, gamenumber=number)
    await said_line(alice, "time Bob", CN.CN_TIME, "(Carol to move).")
    await said_line(carol, "qunfollow Boss", CN.CN_QFOLLOW, "Boss will not follow any")
    await bob.do("adjourn", CN.CN_ADJOURN)
    said = await carol.do("accept", CN.CN_ACCEPT)
    [result] = grams(said, DG.MY_GAME_RESULT)
    assert result.eco == "B27"  # 1. e4 c5 2. Nf3


async def adjourned_games(c: dict[str, Icc]) -> None:
    """Bob and Carol ask the administrators (request-win/-draw/-abort) and Boss
    adjudicates; Alice and Carol draw, resign and abort three adjourned games."""
    alice, bob, carol, boss = (c[name] for name in ("Alice", "Bob", "Carol", "Boss"))
    game = '"Bob vs. Carol" has been sent to the administrators.'
    await said_line(bob, "request-win Carol time", CN.CN_REQUEST_WIN, f"for a win in {game}")
    await boss.expect(lambda e: "Bob asks for a win" in getattr(e, "text", ""))
    await said_line(carol, "request-draw Bob", CN.CN_REQUEST_DRAW, f"for a draw in {game}")
    await said_line(bob, "request-abort Carol", CN.CN_REQUEST_ABORT, f"for an abort in {game}")
    await said_line(boss, "adjudicate Bob Carol white", CN.SCN_MISCELLANEOUS, "Game adjudicated.")
    await bob.expect(lambda e: "has been adjudicated as a win" in getattr(e, "text", ""))
    game = '"Alice vs. Carol"'
    for verb, mine, theirs in (
        ("drawadj", "You offer a draw in the adjourned game", f"{game} is drawn by agreement."),
        ("resignadj", f"You resign your adjourned game {game}.", ""),
        ("abortadj", "You offer an abort in the adjourned game", f"{game} is aborted by"),
    ):
        await alice.do("match Carol 1 0 white unrated", CN.CN_MATCH)
        await carol.do("accept", CN.CN_ACCEPT)
        await alice.do("d4", CN.SCN_MOVE)
        await carol.do("d5", CN.SCN_MOVE)
        await alice.do("adjourn", CN.CN_ADJOURN)
        said = await carol.do("accept", CN.CN_ACCEPT)
        assert grams(said, DG.MY_GAME_RESULT)[0].eco == "D00"
        number = getattr(CN, f"CN_{verb.upper()}")
        await said_line(alice, f"{verb} Carol", number, mine)
        if theirs:
            await said_line(carol, f"{verb} Alice", number, theirs)


async def lists_and_settings(c: dict[str, Icc]) -> None:
    """Alice's lists (lhistory, search by ECO, logons, llogons, info, bugwho, wildrank,
    statistics, yfinger, isregname, lasttells, pstat) and settings (promote, open, rated,
    bell, away: Bob's tell meets her away message)."""
    alice, bob = c["Alice"], c["Bob"]
    said = await said_line(alice, "lhistory 5", CN.CN_LHISTORY, "The last 5 games ended")
    # a time-odds game is unrated and shows no ratings (lasker)
    assert any("Bob          ---- Carol" in line and " Adj " in line for line in texts(said))
    said = await said_line(alice, "search eco=C40", CN.CN_SEARCH, "Alice")
    # 72 DG_GAMELIST_BEGIN "(command {parameters} nhits first last {summary})"
    [begin] = grams(said, DG.GAMELIST_BEGIN)
    assert (begin.command, begin.parameters, begin.nhits) == ("search", "eco=C40", 1)
    [item] = grams(said, DG.GAMELIST_ITEM)
    assert (item.white_name, item.black_name, item.eco) == ("Alice", "Bob", "C40")
    for line, number, key in (
        ("logons", CN.CN_LOGONS, "Alice             login"),
        ("llogons", CN.CN_LLOGONS, "Bob               logout"),
        ("info", CN.CN_INFO, "timeseal"),
        ("bugwho", CN.CN_BUGWHO, "Bughouse games in progress"),
        ("wildrank", CN.CN_WILDRANK, "No ratings to show."),
        ("statistics", CN.CN_STATISTICS, "Rating statistics (players with rated games):"),
        ("yfinger Carol", CN.CN_YFINGER, "Titles TD"),
        ("isregname Carol", CN.CN_ISREGNAME, "Carol is a registered name."),
        ("lasttells", CN.CN_LASTTELLS, "Bob tells you: hi there"),
        ("pstat Alice Carol", CN.CN_PSTAT, "Record for Alice vs. Carol:"),
    ):
        await said_line(alice, line, number, key)
    said = await alice.do("pstat Alice Carol", CN.CN_PSTAT)
    [pstat] = grams(said, DG.PSTAT)  # 142: one unrated draw and loss (Alice White)
    assert (pstat.p1, pstat.p2) == ("Alice", "Carol")
    assert {(r.white_losses, r.white_draws) for r in pstat.records} >= {(1, 1)}
    said = await said_line(alice, "promote n", CN.CN_PROMOTE, "Promotion piece set to KNIGHT.")
    assert grams(said, DG.MY_STRING_VARIABLE)[0][:2] == ("promote", "n")
    for line, number, key, variable, value in (
        ("open", CN.CN_OPEN, "You are no longer receiving match requests.", "open", 0),
        ("open", CN.CN_OPEN, "You are now open to receive match requests.", "open", 1),
        ("rated", CN.CN_RATED, "rated set to 1.", "rated", 1),
        ("rated", CN.CN_RATED, "rated set to 0.", "rated", 0),
        ("bell", CN.CN_BELL, "Bell on.", "bell", 1),
        ("bell", CN.CN_BELL, "Bell off.", "bell", 0),
    ):
        said = await said_line(alice, line, number, key)
        assert grams(said, DG.MY_VARIABLE)[0][:2] == (variable, value)
    await said_line(alice, "away at the bar", CN.CN_AWAY, "(told Alice, who is at the bar)")
    await said_line(bob, "tell Alice are you there", CN.CN_TELL, "(told Alice, who is at the bar)")
    await alice.do("away", CN.CN_AWAY)


async def td_commands(c: dict[str, Icc]) -> None:
    """Carol, on the td list, reads players (getpi, getpx), sets Alice's open (qset),
    makes and ends a partnership (qpartner, qimpart) and pairs Alice and Bob (qmatch)."""
    alice, bob, carol = c["Alice"], c["Bob"], c["Carol"]
    await said_line(carol, "getpi Alice", CN.CN_GETPI, "*getpi Alice 0 ")
    await said_line(carol, "getpx Alice", CN.CN_GETPX, "*getpx Alice GM 0 ")
    mark = await now(alice)
    await said_line(carol, "qset Alice open 0", CN.CN_QSET, "Alice's open set to 0.")
    await alice.dg(DG.MY_VARIABLE, mark, variable="open", value=0)
    await said_line(carol, "qset Alice open 1", CN.CN_QSET, "Alice's open set to 1.")
    mark = await now(bob)
    await said_line(carol, "qpartner Alice Bob", CN.CN_QPARTNER, "Alice and Bob are partners now.")
    await bob.dg(DG.PARTNERSHIP, mark, name1="Alice", name2="Bob", forming=True)
    await said_line(carol, "qimpart Alice", CN.CN_QIMPART, "Alice and Bob are partners no more.")
    await bob.dg(DG.PARTNERSHIP, mark, name1="Alice", name2="Bob", forming=False)
    # Bob challenges (Alice has issued four challenges lately: a fifth might meet the
    # server's rate of match requests, limits.py)
    mark = await now(alice)
    made = "Match request made for Bob to Alice."
    await said_line(carol, "qmatch Bob Alice 2 0 black unrated", CN.CN_QMATCH, made)
    # Bob's unit is the match Carol made for him: it names Carol, not "*" (section 3)
    await bob.expect(lambda e: getattr(e, "issuer", None) == "Carol" and e.command == CN.CN_MATCH)
    challenge = await alice.dg(DG.MATCH, mark, challenger="Bob")
    assert (challenge.challenger_time, challenge.color_request) == (2, 0)
    started = "Alice accepted Bob's match request: the game starts."
    await said_line(carol, "qmatch Alice Bob 2 0 white unrated", CN.CN_QMATCH, started)
    game = await alice.dg(DG.MY_GAME_STARTED, mark, whitename="Alice", blackname="Bob")
    await alice.do("abort", CN.CN_ABORT)
    await alice.dg(DG.MY_GAME_RESULT, mark, gamenumber=game.gamenumber)


async def examined_games(c: dict[str, Icc], game_id: str) -> None:
    """Alice loads the untimed game (loadgame) and works on it (goto, setclock, annotate,
    tag, result, logpgn), Bob examines another that Alice copies (copygame), Boss watches
    both (primary); stored games by id (sfen, spgn), a library note (libannotate), and a
    position of Alice's own (loadfen, tomove, clearboard)."""
    alice, bob, boss = c["Alice"], c["Bob"], c["Boss"]
    said = await alice.do("history", CN.CN_HISTORY)
    last = grams(said, DG.GAMELIST_ITEM)[-1].index
    saved = f"Game Alice {last} saved in slot A in journal."
    await said_line(alice, f"jsave a Alice {last}", CN.CN_LIBSAVE, saved)
    noted = 'Journal entry A annotated: "the last one".'
    await said_line(alice, "libannotate a the last one", CN.CN_LIBANNOTATE, noted)
    said = await alice.do("liblist", CN.CN_LIBLIST)
    # 73 DG_GAMELIST_ITEM's note: "the libannotate string"
    assert [i.note for i in grams(said, DG.GAMELIST_ITEM)] == ["the last one"]
    # DG_MOVE_LIST (25) once 101 and 110 are off (they supersede it)
    for turned in (101, 110):
        await alice.do(f"set-2 {turned} 0", CN.CN_SET2)
    said = await said_line(alice, f"loadgame #{game_id}", CN.CN_LOADGAME, "You load Alice vs. Bob.")
    [started] = grams(said, DG.MY_GAME_STARTED)
    number = started.gamenumber
    [listed] = grams(said, DG.MOVE_LIST)
    assert [m.algebraic for m in listed.moves] == ["e4", "e5", "Nf3"]
    for turned in (101, 110):
        await alice.do(f"set-2 {turned} 1", CN.CN_SET2)
    await said_line(bob, "examine", CN.CN_EXAMINE, "Starting a game in examine (scratch) mode.")
    await bob.do("c4", CN.SCN_MOVE)
    await boss.do("observe Alice", CN.CN_OBSERVE)
    await boss.do("observe Bob", CN.CN_OBSERVE)
    await said_line(
        boss, "primary Alice", CN.CN_PRIMARY, f"Game {number} is now your primary game."
    )
    said = await said_line(alice, "goto 1", CN.CN_GOTO, "Alice backs up 2 moves.")
    assert grams(said, DG.BACKWARD)[0][:2] == (number, 2)
    mark = await now(boss)
    for line, key, clocks in (
        ("setclock 5 4:30", "White's clock 5:00, Black's clock 4:30.", (300000, 270000)),
        ("setwhiteclock 3", "White's clock 3:00.", (180000, 270000)),
        ("setblackclock 0:45", "Black's clock 0:45.", (180000, 45000)),
    ):
        said = await said_line(alice, line, CN.CN_SETCLOCK, key)
        # 56 DG_MSEC "Examine-mode cases: ... (12) setwhiteclock/setblackclock"
        assert tuple(e.msec for e in grams(said, DG.MSEC)) == clocks
    await boss.dg(DG.MSEC, mark, gamenumber=number, color="B", msec=45000)
    await said_line(alice, "annotate The king's pawn", CN.CN_ANNOTATE, "Note on 1. e4:")
    said = await said_line(alice, "tag Event Evening", CN.CN_TAG, "Tag Event of game")
    # 112 DG_PGN_TAG "(gamenumber tagname value)", to the examiner and observers
    assert grams(said, DG.PGN_TAG)[0][:3] == (number, "Event", "Evening")
    await boss.dg(DG.PGN_TAG, mark, gamenumber=number, tag="Event", value="Evening")
    said = await said_line(alice, "result 1-0 Black resigns", CN.CN_RESULT, "result set to 1-0")
    assert grams(said, DG.PGN_TAG)[0][:3] == (number, "Result", "1-0")
    said = await alice.do("logpgn", CN.CN_LOGPGN)
    [log] = grams(said, DG.LOG_PGN)  # 86, the examined game as it stands: tags, note, result
    assert '[Event "Evening"]' in log.lines and '[Result "1-0"]' in log.lines
    assert ECO.fullmatch(next(x for x in log.lines if x.startswith("[ECO "))[6:9])
    assert any("The king's pawn" in x for x in log.lines)
    fen = "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2"
    await said_line(alice, f"sfen #{game_id}", CN.CN_SFEN, fen)
    await said_line(alice, f"spgn #{game_id}", CN.CN_SPGN, '[ECO "C40"]')
    said = await said_line(alice, "copygame Bob", CN.CN_COPYGAME, "You copy game")
    [begin] = grams(said, DG.POSITION_BEGIN2)  # 110 on: the moves copied as DG_PAST_MOVE
    assert begin.nmoves == 1 and [m.algebraic for m in grams(said, DG.PAST_MOVE)] == ["c4"]
    said = await said_line(alice, "loadfen 4k3/8/8/8/8/8/4P3/4K3", CN.CN_LOADFEN, "Position loaded")
    assert grams(said, DG.POSITION_BEGIN2)[0].fen == "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"
    said = await said_line(alice, "tomove black", CN.CN_TOMOVE, "It is now black's turn to move.")
    assert grams(said, DG.JBOARD)[0].side_to_move == "B"
    said = await said_line(alice, "clearboard", CN.CN_CLEARBOARD, "Board cleared.")
    assert grams(said, DG.JBOARD)[0].board == "-" * 64
    await alice.do("unexamine", CN.CN_UNEXAMINE)
    await bob.do("unexamine", CN.CN_UNEXAMINE)
