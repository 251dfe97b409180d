"""The client's FICS mode against a real server over 127.0.0.1: FICS logins, block mode
(each command its own block, concurrent ones too), the live state kept from style 12 and
the interface variable lines (agreeing with the server and with an ICC-mode client), seeks,
challenges, timeseal, and the README robot in both modes playing each other.

Waiting is on events only: ``sync(client)`` runs a command and returns once its block
came, after everything the server had sent that client before it."""

from __future__ import annotations

import asyncio
import contextlib
import sys
import time
from pathlib import Path

import chess
import pytest

from icswire.boards.game import Game
from icswire.boards.positions import style12_from_board
from icswire.client import (
    FICS_SETTINGS,
    Block,
    Connection,
    FicsConnection,
    LoginError,
    MyGame,
    connect,
)
from icswire.client.fics import parse_movelist, prepend_moves
from icswire.client.state import State
from icswire.protocol.block import BlockCode
from icswire.protocol.decoder import Decoder
from icswire.protocol.events import Style12Line, Text
from icswire.protocol.ivars import PendingFrom, Seek
from icswire.protocol.style12 import Style12
from icswire.server.app import Server
from icswire.server.core.storage.records import GameRecord

from .support import until

ROOT = Path(__file__).resolve().parents[2]


async def stored(server: Server, game_id: int) -> GameRecord:
    """The stored record of a game once its result is stored (writes may be queued)."""
    async with asyncio.timeout(10):
        while True:
            record = await asyncio.to_thread(server.store.game, game_id)
            if record is not None and record.status is not None:
                return record
            await asyncio.sleep(0.02)


async def sync(client: Connection) -> None:
    """Everything the server sent ``client`` so far has been read and applied."""
    await client.run("date")


def fics(server: Server, user: str = "guest", password: str | None = None) -> FicsConnection:
    return connect("127.0.0.1", server.port, user, password, dialect="fics")


# -- logging in, blocks --------------------------------------------------------------------


async def test_guests_and_registered_users_log_in_as_fics_clients_do(server: Server) -> None:
    async with fics(server) as guest:
        assert guest.name.startswith("Guest")
        assert guest.confirmed_settings == set(FICS_SETTINGS)
        session = server.world.online[guest.name.lower()]
        assert session.level1 == 0 and not session.level2  # no ICC settings
        assert session.variables["style"] == 12
        ivariables = ("block", "ms", "seekinfo", "seekremove", "showownseek", "pendinfo")
        for name in (*ivariables, "gameinfo", "defprompt", "nowrap"):
            assert session.ivariables[name], name
        assert guest.name in guest.state.players  # from who
    await asyncio.to_thread(server.store.add_user, "Owner", "secret")
    async with fics(server, "Owner", "secret") as owner:
        assert owner.name == "Owner" and server.world.online["owner"].registered
        assert owner.state.players["Owner"].titles == ""
    with pytest.raises(LoginError, match="Invalid password"):
        async with fics(server, "Owner", "wrong"):
            pass
    with pytest.raises(LoginError, match="password is needed"):
        async with fics(server, "Owner"):
            pass
    with pytest.raises(LoginError, match="not a registered name"):
        async with fics(server, "Stranger", "secret"):
            pass
    async with fics(server, "Ann"):
        with pytest.raises(LoginError, match="already logged in"):
            async with fics(server, "Ann"):
                pass


async def test_five_concurrent_commands_each_get_their_own_block(server: Server) -> None:
    async with fics(server, "Ann") as ann:
        commands = ("who", "date", "help", "finger", "vars")
        blocks = await asyncio.gather(*(ann.run(c) for c in commands))
        assert all(isinstance(b, Block) and b.ok for b in blocks)
        assert len({b.id for b in blocks}) == 5
        assert [b.code for b in blocks] == [
            BlockCode.BLKCMD_WHO,
            BlockCode.BLKCMD_DATE,
            BlockCode.BLKCMD_HELP,
            BlockCode.BLKCMD_FINGER,
            BlockCode.BLKCMD_VARIABLES,
        ]
        firsts = [b.texts[0] for b in blocks]
        assert firsts[0] == "++++ Ann(U)  " and firsts[1].startswith("Local time")
        assert firsts[2].startswith("This is icswire") and firsts[3].startswith("Finger of Ann")
        assert firsts[4].startswith("Variable settings of Ann")
        wrong = await ann.run("frobnicate")
        assert wrong.code == BlockCode.BLKCMD_ERROR_BADCOMMAND and not wrong.ok
        assert wrong.texts == ["frobnicate: Command not found."]


# -- a game between the two modes ----------------------------------------------------------


async def test_a_fics_client_and_an_icc_client_play_a_game_and_agree_with_the_server(
    server: Server,
) -> None:
    async with (
        fics(server, "Ann") as ann,
        connect("127.0.0.1", server.port, "Ben") as ben,
        fics(server, "Obs") as obs,
    ):
        await ben.run("match Ann 5 0 black")
        await sync(ann)
        accepted = await ann.run("accept Ben")
        assert accepted.code == BlockCode.BLKCMD_ACCEPT
        assert any(isinstance(e, Style12Line) for e in accepted)  # the first board
        await until(lambda: 1 in ben.state.my_games)
        await obs.run("observe 1")
        clients = (ann, ben, obs)
        moves = ["f3", "e5", "g4"]
        for ply, san in enumerate(moves):
            await (ann if ply % 2 == 0 else ben).send(san)
            await until(lambda n=ply: all(len(c.state.my_games[1].game.moves) > n for c in clients))
        game = server.games.by_number[1]
        for client in clients:
            mine = client.state.my_games[1]
            assert [m.san for m in mine.game.moves] == [m.san for m in game.moves] == moves
            assert mine.game.board.fen() == game.board.fen()
            for color, side in (("W", chess.WHITE), ("B", chess.BLACK)):
                clock = mine.clock_ms(color)
                assert clock is not None and abs(clock - game.clock_now(side)) < 500
        assert (ann.state.my_games[1].relation, ben.state.my_games[1].relation) == ("PW", "PB")
        assert obs.state.my_games[1].relation == "O"
        assert ann.state.my_games[1].game.white_clock_ms == game.clock_ms[chess.WHITE]  # in ms
        assert {"Ann", "Ben", "Obs"} <= set(ann.state.players)
        assert ann.state.players["Ben"].state == "P" and ann.state.players["Ben"].game == 1
        await ben.send("Qh4#")
        await until(lambda: all(c.state.finished for c in clients))
        for client in clients:
            finished = client.state.finished[-1].game
            assert finished.result == "0-1" and finished.board.is_checkmate()
            assert [m.san for m in finished.moves] == [*moves, "Qh4#"]
            assert client.state.my_games == {}
        assert "checkmated" in (ann.state.finished[-1].game.result_description or "")
        assert game.game_id is not None
        record = await stored(server, game.game_id)  # stored once the result is
        assert record.score == "0-1"
        assert list(record.moves) == [*moves, "Qh4#"]
        # the stored game's moves, as FICS's moves/smoves list them, read back
        listed = await ann.run(f"smoves #{game.game_id}")
        assert [san for san, _ in parse_movelist(listed.texts)] == list(record.moves)
        assert ann.state.players["Ben"].state == "X"


async def test_an_observer_who_comes_midway_gets_the_earlier_moves(server: Server) -> None:
    async with (
        fics(server, "Ann") as ann,
        fics(server, "Ben") as ben,
        fics(server, "Obs") as obs,
    ):
        await ben.run("match Ann 5 0 black")
        await sync(ann)
        await ann.run("accept")
        await ann.run("e4")
        await ben.run("c5")
        await obs.run("observe 1")  # the board after 1. e4 c5: moves 1 is sent at once
        await sync(obs)  # its block came before this one
        game = obs.state.my_games[1].game
        assert [m.san for m in game.moves] == ["e4", "c5"] and game.start == chess.Board()


async def test_a_dropped_fics_observer_logs_in_again_and_observes_again(
    server: Server,
) -> None:
    async with (
        connect("127.0.0.1", server.port, "Ann") as ann,
        connect("127.0.0.1", server.port, "Ben") as ben,
        fics(server, "Obs") as obs,
    ):
        await ann.run("match Ben 5 0 white")
        await ben.run("accept Ann")
        await obs.run("observe 1")
        await ann.send("d4")
        await until(lambda: 1 in obs.state.my_games and len(obs.state.my_games[1].game.moves) == 1)
        server.world.online["obs"].abort()  # the connection drops
        await until(lambda: obs.reconnects == 1 and 1 in obs.state.my_games)
        game = server.games.by_number[1]
        assert obs.state.my_games[1].game.board.fen() == game.board.fen()
        assert server.world.online["obs"].ivariables["block"]  # set up again
        await ben.run("d5")  # the server has played it: its board is the one to reach
        await until(lambda: obs.state.my_games[1].game.board.fen() == game.board.fen())
        seen = [m.san for m in obs.state.my_games[1].game.moves]
        assert seen[-1:] == ["d5"]  # ["d4", "d5"] where the server has moves N


# -- seeks, challenges ---------------------------------------------------------------------


async def test_seeks_are_seen_and_removed_in_both_modes(server: Server) -> None:
    async with (
        fics(server, "Ann") as ann,
        connect("127.0.0.1", server.port, "Ben") as ben,
        fics(server, "Cat") as cat,
    ):
        await ben.run("seek 5 0")
        await cat.run("seek 3 2 black")
        await sync(ann)
        await until(lambda: len(ben.state.seeks) == 2)  # DG_SEEK
        seeks = {s.name: s for s in ann.state.seeks.values()}
        assert set(seeks) == {"Ben", "Cat"}
        assert all(isinstance(s, Seek) for s in seeks.values())
        assert (seeks["Ben"].time, seeks["Ben"].increment, seeks["Ben"].color) == (5, 0, "?")
        assert (seeks["Cat"].time, seeks["Cat"].increment, seeks["Cat"].color) == (3, 2, "B")
        assert ann.state.players["Cat"].titles == "U"  # ti=01: unregistered
        assert {s.name for s in cat.state.seeks.values()} == {"Ben", "Cat"}  # showownseek
        await ben.run("unseek")
        await sync(ann)
        await sync(cat)
        assert {s.name for s in ann.state.seeks.values()} == {"Cat"}
        assert {s.name for s in cat.state.seeks.values()} == {"Cat"}
        await cat.run("unseek")
        await sync(ann)
        await until(lambda: not ben.state.seeks)
        assert ann.state.seeks == {} and cat.state.seeks == {}


async def test_seeks_posted_before_login_come_with_iset_seekinfo(server: Server) -> None:
    async with connect("127.0.0.1", server.port, "Ben") as ben:
        await ben.run("seek 5 0")
        async with fics(server, "Late") as late:
            assert {s.name for s in late.state.seeks.values()} == {"Ben"}


async def test_a_challenge_reaches_a_fics_client(server: Server) -> None:
    """What the server sends a FICS client for a challenge today: the ``Challenge:``
    line (FICS sends it too); the ``<pf>`` line is the next test."""
    async with fics(server, "Ann") as ann, connect("127.0.0.1", server.port, "Ben") as ben:
        events: list[object] = []
        reading = asyncio.create_task(_collect(ann, events))
        await ben.run("match Ann 3 0 white")
        await sync(ann)
        texts = [e.text for e in events if isinstance(e, Text)]
        assert "Challenge: Ben (----) [white] Ann (----) unrated blitz 3 0." in texts
        await ann.run("decline")
        await until(lambda: not ben.state.matches)
        reading.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await reading


async def test_a_challenge_is_a_pf_line_and_goes_with_pr(server: Server) -> None:
    async with fics(server, "Ann") as ann, connect("127.0.0.1", server.port, "Ben") as ben:
        await ben.run("match Ann 3 0 white")
        await sync(ann)
        offer = ann.state.matches["Ben", "Ann"]
        assert isinstance(offer, PendingFrom) and offer.type == "match"
        assert ann.state.pending == {offer.number: offer}
        await ben.run("withdraw")
        await sync(ann)
        assert ann.state.matches == {} and ann.state.pending == {}


async def _collect(client: Connection, into: list[object]) -> None:
    async for event in client.events():
        into.append(event)


# -- FICS lines the server does not send yet, as FICS writes them --------------------------


def test_the_state_follows_fics_interface_variable_lines() -> None:
    """``<pf>``/``<pt>``/``<pr>``, ``<g1>``, ``<sc>``, ``<wa>``/``<wd>`` in the forms of
    FICS's help files, decoded and applied as a FICS-mode connection does."""
    state = State(me="ggbtami")
    lines = (
        "<pf> 7 w=gbtami t=match p=gbtami (----) ggbtami (1708) unrated blitz 5 0",
        "<pt> 24 w=grosshirn t=match p=ggbtami (1708) grosshirn (----) rated blitz 2 12",
        "<s> 8 w=visar ti=02 rt=2194  t=4 i=0 r=r tp=suicide c=? rr=0-9999 a=t f=f",
        "<wa> fred 001222 1326P1169P0P0P0P0P0P0P",
        "<g1> 1 p=0 t=crazyhouse r=1 u=1,1 it=5,5 i=8,8 pt=0 rt=1586E,2100 ts=1,0",
        "<12> rnbqkbnr pppppppp -------- -------- -------- -------- PPPPPPPP RNBQKBNR W -1 1 1 1"
        " 1 0 1 ggbtami gbtami 1 5 8 39 39 300000 300000 1 none (0:00.000) none 0 1 0",
    )
    _feed(state, "".join(f"{line}\n" for line in lines).encode())
    assert set(state.pending) == {7, 24}
    assert state.matches["gbtami", "ggbtami"].number == 7
    assert state.matches["ggbtami", "grosshirn"].number == 24
    assert state.seeks[8].name == "visar" and state.players["visar"].titles == "C"
    assert state.players["visar"].fics_ratings["suicide"] == (2194, " ")
    assert state.players["fred"].fics_ratings["blitz"] == (1222, " ")
    assert state.players["fred"].fics_ratings["standard"] == (1326, "P")
    mine = state.my_games[1]
    assert mine.relation == "PW" and mine.game.rated and mine.game.rating_type == "crazyhouse"
    assert mine.game.variant is not None and mine.game.variant.name == "crazyhouse"
    assert (mine.game.white_rating, mine.game.black_rating) == (1586, 2100)
    assert mine.clock_ms("B") == 300000 and mine.msec["W"][1]  # White's clock runs
    assert mine.game.white_clock_ms == 300000
    _feed(
        state,
        b"<pf> 9 w=gbtami t=draw p=#\n<pr> 7\n<sc>\n<wd> fred\n"
        b"{Game 1 (ggbtami vs. gbtami) ggbtami resigns} 0-1\n",
    )
    assert set(state.pending) == {24, 9} and ("gbtami", "ggbtami") not in state.matches
    assert state.seeks == {} and "fred" not in state.players
    assert state.my_games == {} and state.finished[-1].game.result == "0-1"
    assert [o.number for o in state.finished[-1].offers] == [9]  # the draw offer


def _feed(state: State, data: bytes) -> None:
    decoder = Decoder()
    for event in [*decoder.feed(data), *decoder.close()]:
        state.apply_fics(event)


def test_a_game_first_seen_midway_gets_its_moves_from_the_movelist() -> None:
    board = chess.Board()
    for san in ("e4", "e5", "Nf3"):
        board.push_san(san)
    record = _style12(board, 7)
    state = State(me="Obs")
    state.apply_fics(Style12Line(record))
    game = state.my_games[7].game
    assert game.moves == [] and game.start.fen() == board.fen()
    movelist = [
        "Movelist for game 7:",
        "",
        "Ann (----) vs. Ben (----) --- Mon Jan 01, 00:00 UTC 2024",
        "Unrated blitz match, initial time: 5 minutes, increment: 0 seconds.",
        "",
        "Move  Ann                     Ben",
        "----  ---------------------   ---------------------",
        "  1.  e4      (0:00.000)      e5      (0:01.250)",
        "  2.  Nf3     (0:02.000)      Nc6     (0:00.500)",
        "      {Still in progress} *",
    ]
    moves = parse_movelist(movelist)
    assert moves == [("e4", 0), ("e5", 1250), ("Nf3", 2000), ("Nc6", 500)]
    board.push_san("Nc6")
    state.apply_fics(Style12Line(_style12(board, 7)))  # a board came before the list
    assert [m.san for m in game.moves] == ["Nc6"]
    assert prepend_moves(game, moves, 3)
    assert [m.san for m in game.moves] == ["e4", "e5", "Nf3", "Nc6"]
    assert game.start.fen() == chess.STARTING_FEN and game.board.fen() == board.fen()
    assert game.moves[1].time_ms == 1250
    assert not prepend_moves(Game.from_style12(_style12(board, 8)), moves[:3], 4)


def _style12(board: chess.Board, number: int) -> Style12:
    """An observer's board of game ``number`` (its last move from the move stack)."""
    return style12_from_board(
        board, game_number=number, white_name="Ann", black_name="Ben", relation=0,
        initial_time=5, increment=0, white_time=300000, black_time=300000,
        move_time_precise=True,
    )  # fmt: skip


# -- timeseal, robots ----------------------------------------------------------------------


async def test_a_timeseal_client_plays_with_its_lines_sealed(server: Server) -> None:
    async with (
        connect("127.0.0.1", server.port, "Ann", dialect="fics", timeseal=True) as ann,
        connect("127.0.0.1", server.port, "Ben") as ben,
    ):
        assert server.world.online["ann"].timeseal == 1
        await ben.run("match Ann 5 0 black")
        await sync(ann)
        await ann.run("accept")
        await until(lambda: 1 in ben.state.my_games)
        await ann.send("d4")
        await until(lambda: len(ben.state.my_games[1].game.moves) == 1)
        await ben.send("d5")
        await until(lambda: len(ann.state.my_games[1].game.moves) == 2)
        await sync(ann)
        assert ann.pings >= 1  # the [G] after the board of its turn, answered
        await ann.send("c4")
        await until(lambda: len(ben.state.my_games[1].game.moves) == 3)
        assert [m.san for m in ann.state.my_games[1].game.moves] == ["d4", "d5", "c4"]


async def test_two_robots_one_per_mode_play_a_game_to_its_end(server: Server) -> None:
    sys.path.insert(0, str(ROOT / "examples"))
    try:
        from robot import robot  # type: ignore[import-not-found]
    finally:
        sys.path.pop(0)
    results = await asyncio.wait_for(
        asyncio.gather(
            robot("127.0.0.1", server.port, "icc"), robot("127.0.0.1", server.port, "fics")
        ),
        120,
    )
    assert results[0] == results[1] and results[0] in ("1-0", "0-1", "1/2-1/2")


def test_a_game_end_stops_the_clocks_where_they_stand() -> None:
    """The clock that ran stops run down at the result, never back at the last value the
    server sent (a terminal client showed White's 4:41 jump back to 4:55)."""
    mine = MyGame(Game(1))
    now = time.monotonic()
    mine.msec = {"W": (295_000, True, now - 14.0), "B": (300_000, False, now - 14.0)}
    mine.stop_clocks()
    white = mine.clock_ms("W")
    assert white is not None and white <= 281_000
    assert mine.clock_ms("B") == 300_000
    assert not mine.msec["W"][1] and mine.clock_ms("W") == white  # stopped: it stays


#: What a FICS server sends, every line ended "\n\r" as lasker's net_send_string ends it: a
#: block (block mode), a board that starts a line of its own, a timeseal ping, prompts.
FICS_BYTES = (
    b"\x1552\x1611\x16You accept the match offer from Bert.\n\r\x17\n\rfics% "
    b"\n\r<12> rnbqkbnr pppppppp -------- -------- -------- -------- PPPPPPPP RNBQKBNR W -1 1"
    b" 1 1 1 0 1 Anna Bert 1 5 0 39 39 300 300 1 none (0:00) none 0 0 0\n\r"
    b"[G]\n\r\n\rBert(U) tells you: hi\n\r\n\rfics% "
)


def test_fics_line_ends_split_anywhere_read_as_one_line_each() -> None:
    """A chunk may end between a line's "\\n" and its "\\r": the "\\r" is the end of that
    line, not an empty line and not the start of the next one (the FICS client, timeseal
    on, reading the bytes cut at each place in turn)."""
    conn = FicsConnection("127.0.0.1", 1, "guest", timeseal=True)
    conn.decoder = conn._new_decoder()
    conn.decoder.set_block_mode(True)
    whole = conn.decoder.feed(conn._received(FICS_BYTES))
    texts = [e.text for e in whole if isinstance(e, Text)]
    assert texts == [
        "You accept the match offer from Bert.",
        "",
        "",
        "",
        "Bert(U) tells you: hi",
        "",
    ]
    assert sum(isinstance(e, Style12Line) for e in whole) == 1 and conn.pings == 0  # not connected
    assert all(e.end == "\n\r" for e in whole if isinstance(e, Text | Style12Line))
    for cut in range(1, len(FICS_BYTES)):
        conn.decoder = conn._new_decoder()
        conn.decoder.set_block_mode(True)
        events = [
            *conn.decoder.feed(conn._received(FICS_BYTES[:cut])),
            *conn.decoder.feed(conn._received(FICS_BYTES[cut:])),
        ]
        assert events == whole, cut
