"""One game, rebuilt from what a client receives: level 2 datagrams or style 12 boards.

A :class:`Game` is built either

(a) from datagrams (icc-formats.txt section 4, "MY GAMES"): DG_MY_GAME_STARTED /
    DG_STARTED_OBSERVING / DG_ISOLATED_BOARD create it, DG_MOVE_LIST or DG_POSITION_BEGIN(2)
    give the start and the moves so far, DG_SEND_MOVES / DG_PAST_MOVE add moves, and
    DG_BACKWARD, DG_TAKEBACK, DG_SET_BOARD, DG_MSEC, DG_SET_CLOCK, DG_MORETIME, DG_FLIP,
    DG_BUGHOUSE_HOLDINGS, DG_PGN_TAG and DG_MY_GAME_RESULT / DG_GAME_RESULT apply as they come;

(b) from the style 12 boards of one game, which is all an observer without datagrams sees:
    the move between two boards is the second board's verbose move, checked against the
    change of position. A board that does not follow is a :class:`Gap`: the moves stop
    there, nothing is invented.

Every variant of :mod:`~icswire.boards.variants` is replayed on its own board class, also
those with irregular semantics (DG_GAME_STARTED's flag: atomic, Fischer random), whose
DG_SET_BOARD positions are then checked against the replay. A game of a wild number not
played here (:data:`~icswire.boards.variants.REFUSED_WILDS`, e.g. kriegspiel or shatranj)
cannot be replayed: its moves are kept as the server wrote them and its position follows
DG_SET_BOARD.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

import chess

import icswire.boards.variants as variants
from icswire.boards.bughouse import BughouseBoard
from icswire.boards.moves import (
    IllegalMoveError,
    move_from_san,
    move_from_smith,
    move_from_verbose,
    san_from_move,
    smith_from_move,
)
from icswire.boards.positions import board_from_64, board_from_style12
from icswire.boards.variants import UnsupportedVariantError, Variant, VariantLike
from icswire.protocol.bughouse import Bughouse
from icswire.protocol.datagrams import DG
from icswire.protocol.style12 import Style12

#: DGs with DG_GAME_STARTED's form that open a game record (section 4: "MY GAMES").
STARTED_DGS = frozenset({DG.MY_GAME_STARTED, DG.STARTED_OBSERVING, DG.ISOLATED_BOARD})
RESULT_DGS = frozenset({DG.MY_GAME_RESULT, DG.GAME_RESULT})

# What XBoard and every FICS client read at the end of a game (NOTES.md).
_GAME_END = re.compile(r"\{Game (\d+) \((\S+) vs\. (\S+)\) ([^}]*)\} (1-0|0-1|1/2-1/2|\*)")


@dataclass(frozen=True, slots=True)
class PlayedMove:
    """A move of the game with what the server said about it.

    ``move`` is None only in games with irregular semantics, which are not replayed.
    ``time_ms`` is the time the player took, ``clock_ms`` the mover's clock after it;
    ``comment`` a note on the move (an examiner's ``annotate``), PGN's ``{...}``.
    """

    move: chess.Move | None
    san: str
    smith: str | None = None
    time_ms: int | None = None
    clock_ms: int | None = None
    comment: str = ""


@dataclass(frozen=True, slots=True)
class Gap:
    """Boards are missing after ply ``after_ply``: ``seen`` is the position (FEN) of the
    board that came next, which ``verbose_move`` does not reach from the last one."""

    after_ply: int
    verbose_move: str
    seen: str


@dataclass
class Game:
    """A game as the client knows it. Times and clocks are in milliseconds.

    ``wild`` is the ICC wild number (None for a variant ICC does not play); ``variant`` is
    the game's variant, None for a wild number not played here (its moves are not replayed).
    """

    number: int
    white: str = "?"
    black: str = "?"
    white_rating: int = 0
    black_rating: int = 0
    white_titles: str = ""
    black_titles: str = ""
    wild: int | None = 0
    variant: Variant | None = variants.CHESS
    rating_type: str = ""
    rated: bool = False
    initial_minutes: int | None = None
    increment_seconds: int | None = None
    fancy_timecontrol: str = ""
    game_id: int | None = None
    played: bool = True
    irregular_semantics: bool = False
    source: str = "datagrams"
    start: chess.Board = field(default_factory=chess.Board)
    board: chess.Board = field(default_factory=chess.Board)
    moves: list[PlayedMove] = field(default_factory=list)
    white_clock_ms: int | None = None
    black_clock_ms: int | None = None
    clock_running: bool = False
    flip: bool = False
    result: str | None = None
    result_code: str | None = None
    result_description: str | None = None
    eco: str | None = None
    opening: str | None = None  # the opening's name (PGN's Opening tag)
    tags: dict[str, str] = field(default_factory=dict)
    gaps: list[Gap] = field(default_factory=list)

    # -- what the game is --------------------------------------------------------------

    @property
    def finished(self) -> bool:
        return self.result is not None

    @property
    def complete(self) -> bool:
        """Finished, and every move is known."""
        return self.finished and not self.gaps

    @property
    def replayed(self) -> bool:
        """Whether the moves are replayed by python-chess (every variant played here)."""
        return self.variant is not None

    def new_board(self, fen: str | None = None) -> chess.Board:
        """A board of this game's variant at ``fen`` (else at the variant's start); a plain
        chess board for a variant not played here."""
        if self.variant is None:
            return chess.Board() if fen is None else chess.Board(fen)
        return self.variant.new_board(fen=fen)

    def _kind(self) -> Variant:
        return self.variant or variants.CHESS

    # -- (a) datagrams -----------------------------------------------------------------

    @classmethod
    def from_started(cls, record: Any) -> Game:
        """A game from a record of DG_GAME_STARTED's form (DG 12, 15, 18, 40, 100)."""
        game = cls(record.gamenumber)
        game.update_facts(record)
        game.reset(game.new_board())
        return game

    def update_facts(self, record: Any) -> None:
        """Names, ratings, time control and flags from a DG_GAME_STARTED-form record
        (also DG_MY_GAME_CHANGE, 100, when the parameters change)."""
        self.white, self.black = record.whitename, record.blackname
        self.wild, self.rating_type, self.rated = (
            record.wild_number,
            record.rating_type,
            record.rated,
        )
        try:
            self.variant = variants.variant_from_wild(record.wild_number)
        except UnsupportedVariantError:
            self.variant = None
        self.initial_minutes, self.increment_seconds = record.white_initial, record.white_increment
        self.played = record.played_game
        self.white_rating, self.black_rating = record.white_rating, record.black_rating
        self.game_id = record.game_id
        self.white_titles = record.white_titles or ""
        self.black_titles = record.black_titles or ""
        self.irregular_semantics = bool(record.irregular_semantics)
        self.fancy_timecontrol = record.fancy_timecontrol or ""

    def reset(self, start: chess.Board) -> None:
        """Start again from ``start`` with no moves (a new move list is coming)."""
        self.start = start.copy(stack=False)
        self.board = start.copy(stack=False)
        self.moves = []

    def apply(self, record: Any) -> None:
        """Apply one datagram about this game. Raises IllegalMoveError for a move that is
        not legal in the current position (the game is left as it was)."""
        dg = record.dg
        if dg == DG.SEND_MOVES or dg == DG.PAST_MOVE:
            self.push(record.algebraic, record.smith, record.time, record.clock)
        elif dg == DG.MOVE_LIST:
            self._move_list(record)
        elif dg == DG.POSITION_BEGIN or dg == DG.POSITION_BEGIN2:
            self.reset(self.new_board(record.fen or None))
        elif dg == DG.BACKWARD or dg == DG.TAKEBACK:
            self.take_back(record.count)
        elif dg == DG.SET_BOARD:
            self._set_board(record.board, record.side_to_move)
        elif dg == DG.MSEC:
            self._set_clock(record.color, record.msec)
            self.clock_running = record.running
        elif dg == DG.SET_CLOCK:
            self.white_clock_ms = record.white_clock * 1000
            self.black_clock_ms = record.black_clock * 1000
        elif dg == DG.MORETIME:
            clock = self.white_clock_ms if record.color == "W" else self.black_clock_ms
            self._set_clock(record.color, (clock or 0) + record.seconds * 1000)
        elif dg == DG.FLIP:
            self.flip = record.flip
        elif dg == DG.BUGHOUSE_HOLDINGS:
            self.set_holdings(record.white_holding, record.black_holding)
        elif dg == DG.BUGHOUSE_PASS:
            pockets = getattr(self.board, "pockets", None)
            if pockets is not None:
                color = chess.WHITE if record.color == "W" else chess.BLACK
                pockets[color].add(chess.Piece.from_symbol(record.piece).piece_type)
        elif dg == DG.PGN_TAG:
            self.tags[record.tag] = record.value
        elif dg in RESULT_DGS:
            self.result = record.score
            self.result_code = record.result_code
            self.result_description = record.description
            self.eco = record.eco if record.eco not in (None, "?") else self.eco
        elif dg == DG.MY_GAME_CHANGE:
            self.update_facts(record)

    def push(
        self,
        algebraic: str | None,
        smith: str | None,
        time_s: int | None = None,
        clock_s: int | None = None,
    ) -> None:
        """Add a move given as the server sends it (SMITH preferred, else SAN; DG 33-36)."""
        time_ms = None if time_s is None else time_s * 1000
        clock_ms = None if clock_s is None else clock_s * 1000
        if not self.replayed:
            text = algebraic or smith or "?"
            self.moves.append(PlayedMove(None, text, smith, time_ms, clock_ms))
            return
        board = self.board
        if smith is not None:
            move = move_from_smith(board, smith)
        elif algebraic is not None:
            move = move_from_san(board, algebraic)
        else:
            raise IllegalMoveError("a move needs DG_MOVE_SMITH or DG_MOVE_ALGEBRAIC on")
        self._push_move(move, time_ms, clock_ms, algebraic, smith)

    def _push_move(
        self,
        move: chess.Move,
        time_ms: int | None,
        clock_ms: int | None,
        san: str | None = None,
        smith: str | None = None,
    ) -> None:
        """Play a legal ``move``; its SAN and SMITH are computed unless the server gave them."""
        board = self.board
        mover = board.turn
        san = san or san_from_move(board, move)
        smith = smith or smith_from_move(board, move)
        board.push(move)  # a bughouse capture goes to the partner's board (BughouseBoard)
        self.moves.append(PlayedMove(move, san, smith, time_ms, clock_ms))
        if clock_ms is not None:
            self._set_clock("W" if mover == chess.WHITE else "B", clock_ms)

    def _move_list(self, record: Any) -> None:
        if record.initial_position == "*":
            start = self.new_board()
        else:
            start = board_from_64(record.initial_position, "W", self._kind())
        self.reset(start)
        for info in record.moves:
            self.push(info.algebraic, info.smith, info.time, info.clock)

    def take_back(self, count: int) -> None:
        """DG_TAKEBACK / DG_BACKWARD: the last ``count`` moves are gone. The position is
        replayed from the start rather than popped: python-chess's crazyhouse boards share
        pocket objects with their move history, so popping one and pushing on is unsafe.
        A bughouse drop's piece came from the partner's board: the replay supplies it."""
        if count <= 0 or not self.moves:
            return
        del self.moves[-count:]
        if self.replayed:
            board = self.start.copy(stack=False)
            for played in self.moves:
                move = played.move
                if move is None:
                    raise RuntimeError("move is None")
                if isinstance(board, BughouseBoard) and move.drop:
                    pocket = board.pockets[board.turn]
                    if not pocket.count(move.drop):
                        pocket.add(move.drop)
                board.push(move)
            self.board = board

    def _set_board(self, board64: str, side_to_move: str) -> None:
        """DG_SET_BOARD (84): the position, for games that are not replayed; for replayed
        games a position that differs from the replay is a gap."""
        position = board_from_64(board64, side_to_move, self._kind())
        if not self.replayed:
            self.board = position
            return
        if (
            position.board_fen(promoted=False) != self.board.board_fen(promoted=False)
            or position.turn != self.board.turn
        ):
            self.gaps.append(Gap(len(self.moves), "", position.fen()))
            self.board = position

    def _set_clock(self, color: str, ms: int) -> None:
        if color == "W":
            self.white_clock_ms = ms
        else:
            self.black_clock_ms = ms

    def set_holdings(self, white: str, black: str) -> None:
        """Crazyhouse / bughouse pockets (DG_BUGHOUSE_HOLDINGS, ``<b1>``)."""
        pockets = getattr(self.board, "pockets", None)
        if pockets is None:
            return
        for pocket, letters in zip(pockets, (black, white), strict=True):
            pocket.reset()
            for letter in letters:
                pocket.add(chess.Piece.from_symbol(letter).piece_type)

    # -- (b) style 12 ------------------------------------------------------------------

    @classmethod
    def from_style12(cls, record: Style12, wild: VariantLike = 0) -> Game:
        """A game first seen as a style 12 board: it starts at that position. Style 12
        does not say the variant: ``wild`` does (default chess)."""
        variant = variants.variant_of(wild)
        game = cls(record.game_number, record.white_name, record.black_name, wild=variant.wild)
        game.variant = variant
        game.source = "style12"
        game.initial_minutes, game.increment_seconds = record.initial_time, record.increment
        game.reset(board_from_style12(record, variant))
        game._style12_clocks(record)
        return game

    def apply_style12(self, record: Style12, holdings: Bughouse | None = None) -> None:
        """The next board of this game: a move (checked), the same position again (a
        refresh: clocks only), a position from before (a takeback), or a gap."""
        seen = board_from_style12(record, self._kind(), holdings)
        if _same_position(seen, self.board):
            self._style12_clocks(record)
            return
        if record.verbose_move != "none" and not self.gaps:
            try:
                move = move_from_verbose(self.board, record.verbose_move)
            except IllegalMoveError:
                move = None
            if move is not None:
                after = self.board.copy()
                after.push(move)
                if _same_position(seen, after):
                    clock = (
                        record.white_time if self.board.turn == chess.WHITE else record.black_time
                    )
                    self._push_move(move, record.move_time_ms, self._ms(record, clock))
                    self._style12_clocks(record)
                    self.set_holdings_from(holdings)
                    return
        for back in range(1, len(self.moves) + 1):
            if self.gaps:
                break
            earlier = self.board.copy()
            for _ in range(back):
                earlier.pop()
            if _same_position(seen, earlier):
                self.take_back(back)
                self._style12_clocks(record)
                return
        if not self.gaps:
            self.gaps.append(Gap(len(self.moves), record.verbose_move, seen.fen()))
        self.board = seen
        self._style12_clocks(record)

    def set_holdings_from(self, holdings: Bughouse | None) -> None:
        if holdings is not None:
            self.set_holdings(holdings.white_holding, holdings.black_holding)

    @staticmethod
    def _ms(record: Style12, value: int) -> int:
        # NOTES.md: clocks are milliseconds exactly when the time field is (m:ss.mmm)
        return value if record.move_time_precise else value * 1000

    def _style12_clocks(self, record: Style12) -> None:
        self.white_clock_ms = self._ms(record, record.white_time)
        self.black_clock_ms = self._ms(record, record.black_time)
        self.flip = record.flip
        if record.clock_ticking is not None:
            self.clock_running = record.clock_ticking

    def end_from_text(self, description: str, score: str) -> None:
        """The ``{Game N (A vs. B) description} score`` line ends the game."""
        self.result = score
        self.result_description = description


def _same_position(a: chess.Board, b: chess.Board) -> bool:
    """Whether two boards show the same position as style 12 does (which marks no promoted
    pieces, as crazyhouse boards' FEN does with ``~``)."""
    return (
        a.board_fen(promoted=False) == b.board_fen(promoted=False)
        and a.turn == b.turn
        and a.clean_castling_rights() == b.clean_castling_rights()
        and a.fullmove_number == b.fullmove_number
    )


def parse_game_end(text: str) -> tuple[int, str, str, str, str] | None:
    """``{Game 12 (fred vs. joe) joe resigns} 1-0`` -> (12, fred, joe, description, score)."""
    m = _GAME_END.match(text)
    if m is None:
        return None
    return int(m[1]), m[2], m[3], m[4], m[5]
