"""Interop: the real eboard (Debian ``eboard``), with its default "FICS" setting (through its
zseal timeseal helper), logs in as a guest and plays a game to mate, under Xvfb.

The server runs in the test's event loop on a free port of 127.0.0.1 with a fresh database;
eboard gets a display of its own and a bookmark for that port (see ``eboard.py``, which
drives it with xdotool and reads back its LOG.eboard, DEBUG.eboard and PGN file). The
opponent is a plain socket client (``tests/server/client.py``).

eboard seeks (``seek 5 0 white``, typed), the opponent answers ``play N``, and the game is
the scholar's mate: eboard's moves alternate between typed (``e4``, ``Bc4``) and made with
two mouse clicks on the board (``Qh5``, ``Qxf7#``, a capture). Then the PGN eboard wrote
and the game the server stored must hold the same players, moves and result, and the server
must have seen eboard as a timeseal 2 client (and eboard's status bar its timeseal icon lit).

A failure names the folder with eboard's files and one screenshot per step (under the
test's ``tmp_path``). Skipped without eboard, Xvfb, xdotool, x11-utils or imagemagick
(Debian packages; ``.ci/run`` installs them when it can).
"""

from __future__ import annotations

import asyncio
import io
import re
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import chess.pgn
import pytest

from icswire.protocol.events import Style12Line, Text
from icswire.server.app import Server
from icswire.server.core.net.session import Session
from icswire.server.core.storage import store

from ..server.client import Client
from .eboard import HELPER, WAIT_LIMIT, Eboard, requires_eboard, running_eboard

pytestmark = requires_eboard

#: The game: eboard (white) types the moves at even plies 0 and 4 and clicks 2 and 6.
SCHOLARS_MATE = ["e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6", "Qxf7#"]
CLICKS = {"Qh5": ("d1", "h5"), "Qxf7#": ("h5", "f7")}


def text_matching(pattern: str) -> Callable[[object], bool]:
    return lambda event: isinstance(event, Text) and re.search(pattern, event.text) is not None


def board_after(move: str) -> Callable[[object], bool]:
    return lambda event: isinstance(event, Style12Line) and event.record.pretty_move == move


async def sees(client: Client, what: str, predicate: Callable[[object], bool]) -> Any:
    """The next event of ``client`` for which ``predicate`` holds, within WAIT_LIMIT."""
    try:
        return await client.expect(predicate, WAIT_LIMIT)
    except TimeoutError:
        last = "\n".join(repr(event) for event in client.events[-8:])
        raise AssertionError(f"{client.name} did not get {what}; last events:\n{last}") from None


def count_pongs(session: Session, monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The time stamps of the answers to the ``[G]`` pings the server sends ``session``
    from now on, in a list that grows as they come."""
    stamps: list[int] = []
    ping = Session.timeseal_ping

    def counted(self: Session, answered: Callable[[int], None]) -> bytes:
        if self is not session:
            return ping(self, answered)

        def note(stamp: int) -> None:
            stamps.append(stamp)
            answered(stamp)

        return ping(self, note)

    monkeypatch.setattr(Session, "timeseal_ping", counted)  # sessions have slots
    return stamps


@pytest.fixture
async def server(tmp_path: Path) -> AsyncIterator[Server]:
    data = store.Store(store.database_url(tmp_path / "data", None))
    running = Server(data, "127.0.0.1", 0)
    await running.start()
    yield running
    await running.stop()
    data.close()


@pytest.fixture
async def opponent(server: Server) -> AsyncIterator[Client]:
    client = await Client.connect(server.port)
    yield client
    await client.close()


async def test_eboard_logs_in_with_timeseal_and_plays_a_game_to_mate(
    server: Server, opponent: Client, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with running_eboard(tmp_path / "eboard", server.port) as eboard:
        me, them, pgn = await play(server, eboard, opponent, monkeypatch)
        assert "DirectConnection" not in eboard.log.text(), "eboard fell back to plain TCP"

    # -- the PGN eboard wrote, from the positions it parsed
    game = chess.pgn.read_game(io.StringIO(pgn))
    assert game is not None and not game.errors, pgn
    assert (game.headers["White"], game.headers["Black"]) == (me, them), pgn
    assert (game.headers["Result"], game.headers["TimeControl"]) == ("1-0", "300+0"), pgn
    board = game.board()
    played = []
    for move in game.mainline_moves():
        played.append(board.san(move))
        board.push(move)
    assert played == SCHOLARS_MATE, pgn
    assert board.is_checkmate(), pgn
    assert f"{them} checkmated" in game.end().comment, pgn

    # -- the game the server stored is the same game
    await server.games.flush()
    (stored,) = await asyncio.to_thread(server.store.history, me)
    assert (stored.white, stored.black) == (me, them)
    assert list(stored.moves) == played
    assert (stored.status, stored.mode, stored.score) == (0, 1, "1-0")  # a win by mate
    assert (stored.initial, stored.increment, stored.rated) == (5, 0, False)


async def play(
    server: Server, eboard: Eboard, opponent: Client, monkeypatch: pytest.MonkeyPatch
) -> tuple[str, str, str]:
    """eboard connects, logs in, seeks and mates the opponent; its name, the opponent's and
    the PGN eboard appended."""
    # -- connect with the default "FICS" bookmark, log in as a guest
    opened = await eboard.connect()
    assert opened.endswith(f"PipeConnection::open({HELPER})"), opened
    me = await eboard.login_guest()
    session = server.world.find(me)
    assert session is not None, f"{me} is not online"
    assert session.timeseal == 2, f"{me} logged in without zseal's timeseal"
    assert await eboard.timeseal_icon_lit(), "eboard's timeseal icon is not lit"
    pongs = count_pongs(session, monkeypatch)

    them = await opponent.login()
    await opponent.send("style 12")

    # -- eboard seeks, the opponent takes the seek
    await eboard.type_line("seek 5 0 white")
    seek = rf'^{me}\S* \(.*\) seeking .*\("play (\d+)" to respond\)'
    seen = await sees(opponent, "eboard's seek", text_matching(seek))
    eboard.mark()
    await opponent.send(f"play {re.findall(seek, seen.text)[0]}")
    # eboard starts a game on "Creating: ..." then "{Game N (A vs. B) Creating ...}"
    await eboard.wait_log(rf"\{{Game \d+ \({me} vs\. {them}\) Creating unrated blitz match\.\}}")
    await eboard.wait_debug(r"FicsProtocol::createGame")
    await eboard.wait_debug(r"Board::setInfo \[0\. startpos\]")
    await eboard.wait_debug(r"Board::setCanMove")
    await eboard.shot("game-started")

    # -- the game: eboard's moves typed or clicked, the opponent's from its socket
    for ply, move in enumerate(SCHOLARS_MATE):
        number = ply // 2 + 1
        if ply % 2 == 0:
            if move in CLICKS:
                await eboard.move_by_clicks(*CLICKS[move])
            else:
                await eboard.move_by_keys(move)
            await sees(opponent, f"the board after {move}", board_after(move))
        else:
            eboard.mark()
            await opponent.send(move)
            await eboard.wait_turn(number, move, white=False)
        await eboard.shot(f"{number}-{move.strip('#')}")

    mated = rf"\{{Game \d+ \({me} vs\. {them}\) {them} checkmated\}} 1-0"
    await eboard.wait_log(mated)
    await eboard.wait_debug(r"FicsProtocol::gameOver")
    await sees(opponent, "the end of the game", text_matching(mated))
    # the server sent a [G] ping with the board of each of eboard's four turns; zseal
    # answered each (before eboard's move, on the same connection)
    assert len(pongs) == 4, pongs
    pgn = await eboard.wait_pgn(r"\} 1-0\s*$")
    await eboard.shot("game-over")
    return me, them, pgn
