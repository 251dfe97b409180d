"""An examined game's names, squares, tags, result, clocks and place (users connected in
memory): FICS's ``wname``, ``bname``, ``clrsquare``, ``goboard`` and ``goto``; ICC's
``clearboard``, ``tag``, ``result``, ``setclock`` (``setwhiteclock``,
``setblackclock``) and ``goto``."""

from __future__ import annotations

from icswire.protocol.datagrams import DG
from icswire.protocol.events import Text
from icswire.server.app import Server

from .support import boards, grams, texts
from .test_examine_setup import fen_of, user

#: An ICC session: level 2 on (these DGs), so it gets ICC's texts.
ICC = (DG.PGN_TAG, DG.SEND_MOVES, DG.BACKWARD, DG.MOVE_ALGEBRAIC)


async def test_wname_and_bname_rename_the_sides_on_every_board(server: Server) -> None:
    coach = await user(server, "Coach", "set style 12")
    watcher = await user(server, "Watcher", "set style 12")
    assert texts(await coach.command("wname Carlsen")) == [
        "You are not examining or setting up a game."
    ]
    await coach.command("examine")
    await watcher.command("observe coach")
    events = await coach.command("wname Capablanca")
    assert texts(events) == []
    assert boards(events)[-1].white_name == "Capablanca"
    board = await watcher.expect(lambda e: getattr(e, "record", None) is not None)
    assert board.record.white_name == "Capablanca"
    events = await coach.command("bname")
    assert (boards(events)[-1].white_name, boards(events)[-1].black_name) == ("Capablanca", "Coach")
    assert texts(await coach.command("bname Aaaaaaaaaaaaaaaaaaaaaaaa")) == [
        "The maximum length of a name is 17 characters."
    ]
    events = await coach.command("games")
    assert any("Capablanca" in line for line in texts(events))


async def test_clrsquare_empties_a_square_in_setup_mode_only(server: Server) -> None:
    coach = await user(server, "Coach", "set style 12")
    assert texts(await coach.command("clrsquare e2")) == ["You are not setting up a position."]
    await coach.command("examine")
    assert texts(await coach.command("clrsquare e2")) == [
        'This game is active - type "bsetup" to allow editing.'
    ]
    await coach.command("bsetup")
    assert texts(await coach.command("clrsquare e9")) == ["You must specify a square."]
    events = await coach.command("clrsquare e2")
    assert fen_of(boards(events)[-1]) == "rnbqkbnr/pppppppp/8/8/8/8/PPPP1PPP/RNBQKBNR"


async def test_clearboard_empties_the_board_into_setup_mode(server: Server) -> None:
    coach = await user(server, "Coach", "set style 12", grams=ICC)
    watcher = await user(server, "Watcher", "set style 12")
    assert texts(await coach.command("clearboard")) == ["You are not examining a game."]
    await coach.command("examine")
    await watcher.command("observe coach")
    await coach.command("e4")
    events = await coach.command("clearboard")
    assert texts(events) == ["Entering setup mode.", "Board cleared."]
    assert fen_of(boards(events)[-1]) == "8/8/8/8/8/8/8/8"
    await watcher.expect(
        lambda e: isinstance(e, Text) and e.text == "Game 1: Coach enters setup mode."
    )
    for drop in ("K@e1", "k@e8", "Q@d1"):
        await coach.command(drop)
    assert texts(await coach.command("bsetup done")) == [
        "Game is validated - entering examine mode."
    ]
    exam = server.core.tables.find(1)
    assert exam is not None
    assert exam.board.board_fen() == "4k3/8/8/8/8/8/8/3QK3"


async def test_tag_and_result_go_into_the_pgn_and_dg_pgn_tag(server: Server) -> None:
    coach = await user(server, "Coach", "set style 12", grams=ICC)
    watcher = await user(server, "Watcher", "set style 12", grams=(DG.PGN_TAG,))
    assert texts(await coach.command("tag Event X")) == ["You are not examining a game."]
    await coach.command("examine")
    await watcher.command("observe coach")
    await coach.command("e4")
    events = await coach.command("tag Event Club  championship")
    assert texts(events) == ['Tag Event of game 1 set to "Club championship".']
    (tag,) = grams(events, DG.PGN_TAG)
    assert (tag.gamenumber, tag.tag, tag.value) == (1, "Event", "Club championship")
    await watcher.expect(lambda e: getattr(e, "dg", None) == DG.PGN_TAG)
    assert texts(await coach.command("tag 9lives x"))[0].startswith("Usage: tag")
    assert texts(await coach.command("result 2-0")) == [
        "Usage: result <1-0|0-1|1/2-1/2|*> [description]"
    ]
    events = await coach.command("result 1-0 Black resigns")
    assert texts(events) == ["Game 1: result set to 1-0 (Black resigns)."]
    pgn = texts(await coach.command("pgn"))
    assert '[Event "Club championship"]' in pgn
    assert '[Result "1-0"]' in pgn
    assert pgn[-1].endswith("1-0")
    assert texts(await coach.command("tag Site")) == ["There is no tag Site in game 1."]
    late = await user(server, "Late", grams=(DG.PGN_TAG,))
    events = await late.command("observe 1")  # a new observer gets the tags set
    assert [(t.tag, t.value) for t in grams(events, DG.PGN_TAG)] == [("Event", "Club championship")]
    assert texts(await coach.command("tag event")) == ["Tag Event removed from game 1."]
    assert '[Event "Club championship"]' not in texts(await coach.command("pgn"))


async def test_setclock_sets_the_clocks_the_board_shows(server: Server) -> None:
    coach = await user(server, "Coach", "set style 12", grams=ICC)
    await coach.command("examine")
    assert texts(await coach.command("setclock 5")) == [
        "Usage: setclock <white time> <black time>  (minutes, M:SS or H:MM:SS)"
    ]
    assert texts(await coach.command("setwhiteclock 4:75")) == [
        "Usage: setwhiteclock <time>  (minutes, M:SS or H:MM:SS)"
    ]
    events = await coach.command("setclock 5 4:30")
    assert texts(events) == ["Game 1: White's clock 5:00, Black's clock 4:30."]
    board = boards(events)[-1]
    assert (board.white_time, board.black_time) == (300, 270)
    events = await coach.command("setblackclock 1:00:00")
    assert texts(events) == ["Game 1: Black's clock 1:00:00."]
    assert boards(events)[-1].black_time == 3600
    events = await coach.command("e4")  # the move starts from the clock set
    assert boards(events)[-1].white_time == 300
    assert boards(events)[-1].black_time == 3600


async def test_goto_jumps_to_a_half_move_for_icc_and_is_goboard_for_fics(server: Server) -> None:
    coach = await user(server, "Coach", "set style 12", grams=ICC)
    fics = await user(server, "Ficsy", "set style 12")
    await coach.command("examine")
    for move in ("e4", "e5", "Nf3", "Nc6", "Bb5"):
        await coach.command(move)
    events = await coach.command("goto 2")
    (back,) = grams(events, DG.BACKWARD)
    assert back.count == 3
    assert boards(events)[-1].pretty_move == "e5"
    events = await coach.command("goto 2w")
    assert len(grams(events, DG.SEND_MOVES)) == 1
    assert boards(events)[-1].pretty_move == "Nf3"
    events = await coach.command("goto end")
    assert boards(events)[-1].pretty_move == "Bb5"
    assert texts(await coach.command("goto 9")) == ["There are only 5 half-moves in game 1."]
    assert texts(await coach.command("goto 5")) == ["Game 1 is at half-move 5 already."]
    assert texts(await coach.command("goto start")) == ["Game 1: Coach backs up 5 moves."]
    assert texts(await coach.command("goto x"))[0].startswith("Usage: goto")
    assert texts(await fics.command("goto 2")) == ["You are not giving a simul."]
    assert texts(await fics.command("go 2")) == ["You are not giving a simul."]
    assert texts(await fics.command("goboard")) == ["Usage: goboard <game number|name>"]


async def test_logpgn_sends_dg_log_pgn_or_the_pgn_text(server: Server) -> None:
    coach = await user(server, "Coach", grams=(DG.LOG_PGN,))
    plain = await user(server, "Plain")
    assert texts(await coach.command("logpgn")) == [
        "You are neither playing, observing nor examining a game."
    ]
    await coach.command("examine")
    await coach.command("e4")
    await coach.command("tag Site Boston")
    events = await coach.command("logpgn")
    (log,) = grams(events, DG.LOG_PGN)
    assert '[Site "Boston"]' in log.lines
    assert log.lines[-1].startswith("1. e4")
    assert texts(events) == []
    said = texts(await plain.command("logpgn coach"))
    assert '[Site "Boston"]' in said
    assert said == [line for line in log.lines if line]


async def test_annotate_puts_a_note_on_a_move_into_the_pgn(server: Server) -> None:
    coach = await user(server, "Coach", "set style 12", grams=ICC)
    watcher = await user(server, "Watcher", "set style 12")
    assert texts(await coach.command("annotate hi")) == ["You are not examining a game."]
    await coach.command("examine")
    await watcher.command("observe coach")
    assert texts(await coach.command("annotate x")) == [
        "There is no move here to annotate; go forward to the move first."
    ]
    for move in ("e4", "e5", "Nf3"):
        await coach.command(move)
    await coach.command("backward")
    assert texts(await coach.command("annotate The {classical} reply")) == [
        "Note on 1... e5: The (classical) reply"
    ]
    await watcher.expect(
        lambda e: (
            isinstance(e, Text)
            and e.text == "Game 1: Coach annotates 1... e5: The (classical) reply"
        )
    )
    await coach.command("forward")
    await coach.command("annotate Develops")
    pgn = texts(await coach.command("pgn"))
    assert pgn[-1] == "1. e4 e5 { The (classical) reply } 2. Nf3 { Develops } *"
    await coach.command("backward 2")
    await coach.command("d5")  # another line: no note on it
    assert texts(await coach.command("pgn"))[-1] == "1. e4 d5 *"
    assert texts(await coach.command("annotate")) == ["There is no note on 1... d5."]
    await coach.command("revert")
    await coach.command("forward")
    assert texts(await coach.command("annotate")) == ["The note on 1... e5 is removed."]
