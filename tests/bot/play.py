"""What the bot's end-to-end tests share: the engines, a bot run in the test's loop,
robots (scripted players on :mod:`icswire.client`) and the server's stored games.

Nothing here sleeps to synchronise: :func:`until` waits for a condition on the state
the clients keep, with a timeout.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import random
import shutil
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import chess
import chess.pgn
import chess.variant
import pytest

from icswire.boards.moves import move_from_san
from icswire.bot.config import BotConfig, EngineConfig, default_config
from icswire.bot.engine import EnginePlayer
from icswire.bot.owner import tell_of
from icswire.bot.session import BotSession
from icswire.client import Connection, MyGame, connect
from icswire.protocol.events import Text
from icswire.server.app import Server
from icswire.server.core.storage.records import GameRecord

TIMEOUT = 30.0
PASSWORD = "secret"


def engine_path(name: str) -> str | None:
    """The engine's program on PATH or in /usr/games, None if missing."""
    return shutil.which(name) or shutil.which(name, path="/usr/games")


STOCKFISH = engine_path("stockfish")
SJENG = engine_path("sjeng")
needs_stockfish = pytest.mark.skipif(STOCKFISH is None, reason="stockfish is not installed")
needs_sjeng = pytest.mark.skipif(SJENG is None, reason="sjeng is not installed")

logging.getLogger("chess.engine").setLevel(logging.ERROR)  # sjeng's chatter


def stockfish(nodes: int = 800, **settings: Any) -> EngineConfig:
    """Stockfish with a small node limit (a move in milliseconds)."""
    assert STOCKFISH is not None
    options = {"Threads": 1, "Hash": 16}
    return EngineConfig(command=(STOCKFISH,), nodes=nodes, options=options, **settings)


def sjeng(cwd: Path, depth: int = 2) -> EngineConfig:
    """Sjeng (XBoard) searching ``depth`` plies, writing its files in ``cwd``."""
    assert SJENG is not None
    return EngineConfig(
        command=(SJENG,), protocol="xboard", depth=depth, movetime=0.05, cwd=str(cwd)
    )


def bot_config(server: Server, user: str, engine: EngineConfig, **settings: Any) -> BotConfig:
    """A registered bot ``user`` (password :data:`PASSWORD`) of ``server``."""
    config = default_config(engine.command, engine.protocol, host="127.0.0.1", port=server.port)
    return dataclasses.replace(config, engine=engine, user=user, password=PASSWORD, **settings)


async def register(server: Server, *names: str) -> None:
    for name in names:
        await asyncio.to_thread(server.store.add_user, name, PASSWORD)


async def until(condition: Callable[[], object], timeout: float = TIMEOUT) -> None:
    """Wait until ``condition()`` is true (the clients' state follows their streams)."""
    async with asyncio.timeout(timeout):
        while not condition():
            await asyncio.sleep(0.01)


# -- a bot ---------------------------------------------------------------------------------


@contextlib.asynccontextmanager
async def running(config: BotConfig) -> AsyncIterator[BotSession]:
    """A bot playing in this loop, logged in; stopped (and its run awaited) at the end."""
    engine = await EnginePlayer.open(config.engine)
    session = BotSession(config, engine)
    stop = asyncio.Event()
    task = asyncio.create_task(session.run(stop))
    try:
        waiting = asyncio.ensure_future(session.logged_in.wait())
        done, _ = await asyncio.wait(
            {task, waiting}, timeout=TIMEOUT, return_when="FIRST_COMPLETED"
        )
        waiting.cancel()
        if task in done:
            task.result()  # its error
        assert session.logged_in.is_set(), "the bot did not log in"
        yield session
    finally:
        stop.set()
        try:
            await asyncio.wait_for(task, TIMEOUT)
        finally:
            await session.engine.close()


# -- robots --------------------------------------------------------------------------------


class Robot:
    """A scripted player: a client connection and every event it got."""

    def __init__(self, ics: Connection) -> None:
        self.ics = ics
        self.events: list[Any] = []
        self._reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        async for event in self.ics.events():
            self.events.append(event)

    async def close(self) -> None:
        self._reader.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._reader

    @property
    def name(self) -> str:
        return self.ics.name

    @property
    def state(self) -> Any:
        return self.ics.state

    def texts(self) -> list[str]:
        return [e.text for e in self.events if isinstance(e, Text)]

    def tells_from(self, name: str) -> list[str]:
        """What ``name`` told this robot (tells and says)."""
        found = []
        for event in self.events:
            said = _said(event)
            if said is not None and said[0].lower() == name.lower():
                found.append(said[1])
        return found

    def game(self) -> MyGame | None:
        """The game this robot plays, if any."""
        for mine in self.state.my_games.values():
            if mine.relation in ("PW", "PB"):
                return mine  # type: ignore[no-any-return]
        return None

    def my_turn(self) -> bool:
        mine = self.game()
        return (
            mine is not None
            and mine.game.result is None
            and (mine.relation == "PW") == (mine.game.board.turn == chess.WHITE)
        )

    async def run(self, command: str) -> list[str]:
        events = await self.ics.run(command)
        return [e.text for e in events if isinstance(e, Text) and e.text]

    async def move(self, choose: Callable[[chess.Board], chess.Move]) -> None:
        """Wait for its turn, then play ``choose(board)``."""
        await until(lambda: self.my_turn() or self.over())
        mine = self.game()
        if mine is None or self.over():
            return
        ply = len(mine.game.moves)
        board = mine.game.board
        move = choose(board)
        await self.ics.send(wire(board, move))
        await until(lambda: self.over() or len(mine.game.moves) > ply)

    async def play_out(
        self, choose: Callable[[chess.Board], chess.Move], resign_at: int = 160
    ) -> None:
        """Play until the game is over; resign once it has ``resign_at`` half-moves."""
        while not self.over():
            mine = self.game()
            if mine is not None and len(mine.game.moves) >= resign_at:
                await self.ics.send("resign")
                await until(self.over)
                return
            await self.move(choose)

    def over(self) -> bool:
        """Its game ended (it is among the finished ones)."""
        return bool(self.state.finished) and self.game() is None


def random_move(board: chess.Board) -> chess.Move:
    return random.choice(list(board.legal_moves))


def san_move(*sans: str) -> Callable[[chess.Board], chess.Move]:
    """A chooser that plays ``sans`` in turn."""
    left = list(sans)
    return lambda board: board.parse_san(left.pop(0))


def prefer(*sans: str) -> Callable[[chess.Board], chess.Move]:
    """A chooser that plays ``sans`` in turn while they are legal, then random moves."""
    left = list(sans)

    def choose(board: chess.Board) -> chess.Move:
        if left:
            try:
                return board.parse_san(left.pop(0))
            except ValueError:
                left.clear()
        return random_move(board)

    return choose


def wire(board: chess.Board, move: chess.Move) -> str:
    if board.is_castling(move):
        return "o-o" if board.is_kingside_castling(move) else "o-o-o"
    return move.uci()


@contextlib.asynccontextmanager
async def robot(
    server: Server, name: str, dialect: str = "icc", password: str | None = PASSWORD
) -> AsyncIterator[Robot]:
    """A robot logged in as ``name`` (a guest with ``password=None`` and name "guest")."""
    async with connect("127.0.0.1", server.port, name, password, dialect=dialect) as ics:
        player = Robot(ics)
        try:
            yield player
        finally:
            await player.close()


def _said(event: Any) -> tuple[str, str] | None:
    told = tell_of(event)
    if told is not None:
        return told
    if getattr(event, "dg", None) == 31:  # DG_PERSONAL_TELL of a say
        return str(event.playername), str(event.text)
    if isinstance(event, Text) and " says: " in event.text:
        name, _, text = event.text.partition(" says: ")
        return name.split("(")[0], text
    return None


# -- the server's games ----------------------------------------------------------------------


async def stored(server: Server, name: str) -> list[GameRecord]:
    """The finished games of ``name`` as the server stored them, oldest first (once its
    queued writes are done)."""
    await server.games.flush()
    return await asyncio.to_thread(server.store.history, name)


def pgn_files(directory: Path) -> list[chess.pgn.Game]:
    """The games of the PGN files in ``directory``, in the order of their names."""
    games = []
    for path in sorted(directory.glob("*.pgn")):
        with path.open(encoding="utf-8") as handle:
            game = chess.pgn.read_game(handle)
        assert game is not None, path
        games.append(game)
    return games


def same_game(pgn: chess.pgn.Game, record: GameRecord) -> None:
    """The PGN's players, moves and result are the stored game's (the moves compared as
    moves: python-chess writes a pawn drop ``@e4``, the server ``P@e4``)."""
    assert (pgn.headers["White"], pgn.headers["Black"]) == (record.white, record.black)
    board = pgn.board()
    stored_moves = []
    for san in record.moves:
        move = move_from_san(board, san)
        stored_moves.append(move)
        board.push(move)
    assert list(pgn.mainline_moves()) == stored_moves
    assert pgn.headers["Result"] == record.score
