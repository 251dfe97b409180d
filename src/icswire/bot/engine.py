"""The bot's engine: a UCI or xboard program run through python-chess's ``chess.engine``,
with an opening book and endgame tablebases in front of it.

:meth:`EnginePlayer.choose` takes a book move while the game is young enough, else a
tablebase move when the pieces are few enough (both for chess only), else the engine's.
The engine searches with the game's clocks (python-chess's ``Limit``) and the configured
node and depth limits, and never longer than :func:`time_cap` allows: a tenth of its
clock plus the increment, never more than half of what is left once :data:`LAG` is kept
back for the network, and at least :data:`FLOOR`. A UCI engine gets that cap as
``movetime``, which Stockfish takes as a ceiling on its own time management (an engine
that takes movetime as the exact time thinks that long every move). An xboard engine
manages its clock itself (python-chess sends ``level``, ``time`` and ``otim``) and gets
``st`` only for the configured ``movetime``, in whole seconds (Sjeng reads ``st 0.5`` as
no limit at all); node limits are refused for xboard engines, which python-chess cannot
combine with clocks. Either way a search that runs :data:`GRACE` past its cap ends in
:class:`EngineError`.

python-chess's ``chess.engine`` logger is set to ERROR when the first engine opens, if
nobody set its level before: Sjeng writes many lines python-chess reports as warnings
("Unexpected engine output"). That is a choice for the whole process, made here because
this is where engines are opened.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Final, Literal, TypeVar

import chess
import chess.engine

from icswire.boards.variants import Variant, variant_of
from icswire.boards.wilds import WildCastleBoard
from icswire.bot.config import EngineConfig
from icswire.bot.engineboards import engine_boards, winning_move
from icswire.bot.tables import Book, Tablebases

__all__ = [
    "FLOOR",
    "GRACE",
    "LAG",
    "MATE_SCORE",
    "OPEN_TIMEOUT",
    "UNTIMED_MOVETIME",
    "Choice",
    "Clocks",
    "EngineError",
    "EnginePlayer",
    "search_limit",
    "time_cap",
]

LAG: Final = 0.3
"""Seconds of its clock the bot keeps back for the network, never given to the engine."""
FLOOR: Final = 0.05
"""The least time a search is allowed (seconds)."""
GRACE: Final = 2.0
"""Seconds past its cap after which a search has failed (the engine hangs)."""
UNTIMED_MOVETIME: Final = 5.0
"""Seconds a move takes in an untimed game (both clocks and the increment 0) when
``movetime`` does not say."""
OPEN_TIMEOUT: Final = 30.0
"""Seconds an engine has to start and answer its protocol's handshake."""
MATE_SCORE: Final = 100000
"""A mate in n moves scores ``MATE_SCORE - n`` (``-(MATE_SCORE - n)`` being mated)."""

T = TypeVar("T")
Table = TypeVar("Table")

INFO: Final = chess.engine.INFO_BASIC | chess.engine.INFO_SCORE | chess.engine.INFO_PV


class EngineError(RuntimeError):
    """The engine failed (did not start, quit, hung, refused a setting) or cannot play
    the position it was given; the message says which."""


@dataclass(frozen=True)
class Clocks:
    """The server's clocks as they stand, in milliseconds."""

    white_ms: int
    black_ms: int
    increment_ms: int = 0

    @property
    def untimed(self) -> bool:
        """Whether the game has no clock (ICS shows 0 0 for an untimed game)."""
        return self.white_ms == self.black_ms == self.increment_ms == 0

    def seconds(self, color: chess.Color) -> float:
        """``color``'s clock in seconds (0 when flagged)."""
        return max(0, self.white_ms if color == chess.WHITE else self.black_ms) / 1000


@dataclass(frozen=True)
class Choice:
    """A move and why: ``score`` in centipawns from the mover's (the bot's) view, a mate
    in n ``±(MATE_SCORE - n)``, a tablebase win ``±(TABLEBASE_WIN - plies to its next
    zeroing move)``; None when unknown (a book move)."""

    move: chess.Move
    score: int | None
    source: Literal["book", "tablebase", "engine"]
    depth: int | None = None
    pv: tuple[chess.Move, ...] = ()


def time_cap(clocks: Clocks, turn: chess.Color, movetime: float | None = None) -> float:
    """The most seconds the side ``turn`` may think (module docstring)."""
    if clocks.untimed:
        return movetime if movetime is not None else UNTIMED_MOVETIME
    own = clocks.seconds(turn)
    cap = max(FLOOR, min(own / 10 + clocks.increment_ms / 1000, (own - LAG) / 2))
    return min(cap, movetime) if movetime is not None else cap


def search_limit(
    config: EngineConfig, clocks: Clocks, turn: chess.Color
) -> tuple[chess.engine.Limit, float]:
    """The engine's limit for a search by the side ``turn``, and its time cap."""
    cap = time_cap(clocks, turn, config.movetime)
    limit = chess.engine.Limit(depth=config.depth, nodes=config.nodes)
    if config.protocol == "uci":
        limit.time = cap
    elif config.movetime is not None or clocks.untimed:
        whole = int(cap)  # xboard's st: whole seconds
        limit.time = float(whole) if whole >= 1 else None
    if clocks.untimed:
        return limit, cap
    white, black = clocks.seconds(chess.WHITE), clocks.seconds(chess.BLACK)
    if turn == chess.WHITE:
        white = max(0.001, white - LAG)
    else:
        black = max(0.001, black - LAG)
    increment = clocks.increment_ms / 1000
    limit.white_clock, limit.black_clock = white, black
    limit.white_inc = limit.black_inc = increment
    return limit, cap


def _score(info: chess.engine.InfoDict, turn: chess.Color) -> int | None:
    pov = info.get("score")
    return None if pov is None else pov.pov(turn).score(mate_score=MATE_SCORE)


class EnginePlayer:
    """One running engine with its book and tablebases; open with :meth:`open`."""

    def __init__(
        self,
        config: EngineConfig,
        transport: asyncio.SubprocessTransport,
        protocol: chess.engine.Protocol,
        book: Book | None,
        tablebases: Tablebases | None,
    ) -> None:
        self.config = config
        self.transport = transport
        self.protocol = protocol
        self.book = book
        self.tablebases = tablebases
        self.name: str = protocol.id.get("name") or Path(config.command[0]).name
        self._game = object()
        self.variants: frozenset[str] = _variants(config.protocol, protocol)
        """The variant names (UCI_Variant's or xboard's) the engine plays, chess's first
        name (``chess`` or ``normal``) included."""

    @classmethod
    async def open(cls, config: EngineConfig) -> EnginePlayer:
        """Start the engine, set its options and open the book and tablebases."""
        chess_logger = logging.getLogger("chess.engine")
        if chess_logger.level == logging.NOTSET:
            chess_logger.setLevel(logging.ERROR)
        program = config.command[0]
        popen = chess.engine.popen_uci if config.protocol == "uci" else chess.engine.popen_xboard
        try:
            transport, protocol = await asyncio.wait_for(
                popen(list(config.command), cwd=config.cwd), OPEN_TIMEOUT
            )
        except OSError as exc:
            raise EngineError(f"cannot start {program}: {exc.strerror or exc}") from exc
        except (chess.engine.EngineError, TimeoutError) as exc:
            detail = str(exc) or f"no answer in {OPEN_TIMEOUT:g} s"
            message = f"{program} is not a working {config.protocol} engine: {detail}"
            raise EngineError(message) from exc
        book: Book | None = None
        tablebases: Tablebases | None = None
        try:
            await _configure(config, protocol)
            if config.book is not None:
                book = _open_table("book", Book, config.book)
            if config.tablebases:
                tablebases = _open_table("tablebases", Tablebases, config.tablebases)
        except EngineError:
            await _quit(transport, protocol)
            if book is not None:
                book.close()
            raise
        return cls(config, transport, protocol, book, tablebases)

    def _knows(self, board: chess.Board) -> bool:
        """Whether the engine takes ``board`` as python-chess will give it."""
        if self.config.protocol == "uci":
            name, standard = type(board).uci_variant, "chess"
        else:
            name, standard = type(board).xboard_variant, "normal"
        if name is None or (name != standard and name not in self.variants):
            return False
        return not board.chess960 or self._chess960()

    def _chess960(self) -> bool:
        if self.config.protocol == "uci":
            return "UCI_Chess960" in self.protocol.options
        return "fischerandom" in self.variants

    def _engine_board(self, board: chess.Board) -> chess.Board | None:
        return next((found for found in engine_boards(board) if self._knows(found)), None)

    def plays(self, board: chess.Board) -> bool:
        """Whether the engine can play ``board``'s game from its position: chess always,
        chess960 with UCI_Chess960 (xboard: ``fischerandom``), other variants when the
        engine names them (UCI_Variant's list, xboard's ``variants`` feature)."""
        return self._engine_board(board) is not None

    def plays_variant(self, variant: Variant | str) -> bool:
        """Whether the engine can play every game of ``variant`` (a Variant or its name):
        :meth:`plays` of its start, and for wild 0 and 1, whose kings may start on the d
        file, an engine that names ``wildcastle``."""
        found = variant_of(variant)
        if issubclass(found.board_class, WildCastleBoard):
            return self._knows(found.board_class())
        return self.plays(found.new_board())

    async def choose(
        self, board: chess.Board, clocks: Clocks, *, game: object | None = None
    ) -> Choice:
        """The move to play in ``board`` (the game's board with its moves): the book's,
        the tablebases' or the engine's. ``game`` keys the engine's game (python-chess
        starts a new one, ``ucinewgame`` or ``new``, when it changes); None is the one
        :meth:`new_game` began. A position no engine board fits (ICC atomic with a king
        left attacked) gets a move that wins at once if there is one, else EngineError."""
        if not any(board.legal_moves):
            raise EngineError(f"no legal move in {board.fen()}")
        engine_board = self._engine_board(board)
        if engine_board is not None and type(engine_board).uci_variant == "chess":
            if self.book is not None and board.ply() < self.config.book_depth:
                move = self.book.move(engine_board)
                if move is not None:
                    move = _back(board, move)
                    return Choice(move, None, "book", pv=(move,))
            if self.tablebases is not None:
                found = self.tablebases.move(engine_board)
                if found is not None:
                    return Choice(_back(board, found.move), found.score, "tablebase")
        if engine_board is None:
            move = winning_move(board)
            if move is not None:
                return Choice(move, MATE_SCORE - 1, "engine")
            variant = type(board).uci_variant
            raise EngineError(f"{self.name} cannot play this position of {variant}")
        return await self._search(board, engine_board, clocks, game)

    async def _search(
        self, board: chess.Board, engine_board: chess.Board, clocks: Clocks, game: object | None
    ) -> Choice:
        limit, cap = search_limit(self.config, clocks, board.turn)
        try:
            result = await asyncio.wait_for(
                self.protocol.play(
                    engine_board,
                    limit,
                    game=self._game if game is None else game,
                    info=INFO,
                    ponder=self.config.ponder,
                ),
                cap + GRACE,
            )
        except TimeoutError:
            raise EngineError(f"{self.name} did not move within {cap + GRACE:.1f} s") from None
        except chess.engine.EngineTerminatedError as exc:
            raise EngineError(f"{self.name} quit: {exc}") from exc
        except chess.engine.EngineError as exc:
            raise EngineError(f"{self.name} failed: {exc}") from exc
        if result.move is None:
            raise EngineError(f"{self.name} gave no move (it resigned or claimed a draw)")
        info = result.info
        return Choice(
            _back(board, result.move),
            _score(info, board.turn),
            "engine",
            info.get("depth"),
            _line(board, info.get("pv", [])),
        )

    async def evaluate(self, board: chess.Board, seconds: float = 0.2) -> int | None:
        """The engine's evaluation of ``board`` in centipawns from the side to move's
        view (mates as in :class:`Choice`), after a search of at most ``seconds`` and the
        configured node and depth limits; None when it gives none."""
        engine_board = self._engine_board(board)
        if engine_board is None:
            return None
        nodes = self.config.nodes if self.config.protocol == "uci" else None
        limit = chess.engine.Limit(time=seconds, nodes=nodes, depth=self.config.depth)
        try:
            info = await asyncio.wait_for(
                self.protocol.analyse(engine_board, limit, game=self._game, info=INFO),
                seconds + GRACE,
            )
        except TimeoutError:
            message = f"{self.name} did not answer within {seconds + GRACE:.1f} s"
            raise EngineError(message) from None
        except chess.engine.EngineError as exc:
            raise EngineError(f"{self.name} failed: {exc}") from exc
        return _score(info, board.turn)

    async def new_game(self) -> None:
        """Begin a new game: the engine is told so before its next search."""
        self._game = object()

    async def close(self) -> None:
        """Quit the engine (killing it if it does not quit) and close the tables."""
        await _quit(self.transport, self.protocol)
        if self.book is not None:
            self.book.close()
        if self.tablebases is not None:
            self.tablebases.close()


def _open_table(what: str, opener: Callable[[T], Table], where: T) -> Table:
    """A book or tablebases opened, or EngineError saying which and why not."""
    try:
        return opener(where)
    except (OSError, ValueError) as exc:
        detail = exc.strerror if isinstance(exc, OSError) and exc.strerror else exc
        shown = where if isinstance(where, str) else ", ".join(map(str, where))  # type: ignore[call-overload]
        raise EngineError(f"cannot open the {what} {shown}: {detail}") from exc


def _line(board: chess.Board, moves: list[chess.Move]) -> tuple[chess.Move, ...]:
    """The engine's line as ``board`` writes it, as far as it replays there."""
    line: list[chess.Move] = []
    copy = board.copy(stack=False)
    for move in moves:
        try:
            move = copy.parse_uci(move.uci())
        except ValueError:
            break
        line.append(move)
        copy.push(move)
    return tuple(line)


def _back(board: chess.Board, move: chess.Move) -> chess.Move:
    """The engine's ``move`` as ``board`` writes it (castling as its mode does)."""
    try:
        return board.parse_uci(move.uci())
    except ValueError:
        raise EngineError(f"the move {move.uci()} is illegal in {board.fen()}") from None


def _variants(protocol_name: str, protocol: chess.engine.Protocol) -> frozenset[str]:
    if protocol_name == "uci":
        option = protocol.options.get("UCI_Variant")
        return frozenset(["chess", *(option.var or [] if option is not None else [])])
    features = getattr(protocol, "features", {})
    return frozenset(["normal", *str(features.get("variants", "")).split(",")]) - {""}


async def _configure(config: EngineConfig, protocol: chess.engine.Protocol) -> None:
    """Set the configured options, with the skill level; refuse what the engine lacks."""
    options = dict(config.options)
    if config.skill is not None:
        if "Skill Level" not in protocol.options:
            raise EngineError(f"{config.command[0]} has no 'Skill Level' option for engine.skill")
        options["Skill Level"] = config.skill
    if config.protocol == "xboard" and config.nodes is not None:
        raise EngineError(
            f"{config.command[0]}: engine.nodes cannot limit an xboard engine that plays "
            "on a clock; use engine.depth or engine.movetime"
        )
    try:
        await protocol.configure(options)
    except chess.engine.EngineError as exc:
        raise EngineError(f"{config.command[0]}: {exc}") from exc


async def _quit(transport: asyncio.SubprocessTransport, protocol: chess.engine.Protocol) -> None:
    try:
        await asyncio.wait_for(protocol.quit(), 5)
    except (chess.engine.EngineError, TimeoutError):
        pass
    finally:
        transport.close()
