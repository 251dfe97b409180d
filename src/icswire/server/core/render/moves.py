"""Played games' events for each receiver: a move, the board shown again, a takeback, the
clocks changed, a piece passed in bughouse.

A move reaches a receiver as the DGs it has on: DG_SEND_MOVES (24) with exactly the parts
asked for (33-36, 113), both clocks as DG_MSEC (56), DG_MY_TURN (55) to the player to move,
DG_SOUND's (53) SOUND_MOVE to the player to move if DG_SEND_MOVES is off ("SOUND_MOVE should
probably not be sent if you get DG_SEND_MOVES"),
DG_BUGHOUSE_HOLDINGS (37) in games with holdings, DG_MOVE_LAG (144) to both players when
the mover has timestamping, DG_SET_BOARD (84) after the move in games of irregular
semantics, and DG_JBOARD (49) where a style 12 board goes; then the board in the
receiver's style (or FICS's delta board, ``iset compressmove``).
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import TYPE_CHECKING, Any

import chess

from icswire.boards.variants import variant_of
from icswire.protocol import datagrams as dg
from icswire.protocol.bughouse import Bughouse, format_b1
from icswire.protocol.codes import Sound
from icswire.protocol.datagrams import DG, encode_datagram
from icswire.protocol.ivars import DeltaBoard, format_delta_board
from icswire.server.core.events.games import (
    BoardShown,
    ClocksChanged,
    GamePosition,
    MovePlayed,
    PiecePassed,
    TakenBack,
)
from icswire.server.core.render.batch import NEWLINE, EventMessage, render_parts
from icswire.server.core.render.boards import BoardFacts, PositionBoard, set_board_record
from icswire.server.core.render.diagrams import RecentMove

if TYPE_CHECKING:
    from icswire.server.core.model.users import User

COLOR_LETTER = {chess.WHITE: "W", chess.BLACK: "B"}
#: What the player to move gets besides the others: DG_MY_TURN, DG_SOUND's SOUND_MOVE.
_TO_MOVE = frozenset({DG.MY_TURN, DG.SOUND})
#: DG_JBOARD's status: a played game (icc-formats.txt, DG_JBOARD).
PLAYED = 1
#: Style 12's last move before the first.
NO_MOVE = ("none", "none")


def position_board(position: GamePosition) -> PositionBoard:
    """``position`` as a board message, with each receiver's relation and flip."""
    facts = BoardFacts(
        position.game, position.white, position.black, position.initial,
        position.increment, position.white_ms, position.black_ms, position.move_time_ms,
        position.ticking, ply=position.ply,
        recent=tuple([RecentMove(*move) for move in position.recent]),
        last_move=position.last[:2] if position.last is not None else NO_MOVE,
    )  # fmt: skip
    return PositionBoard(
        None,
        facts,
        lambda receiver: position.relation(receiver.name),
        lambda receiver: position.flipped_for(receiver.name, bool(receiver.variables["flip"])),
        view=position.view,
        make_board=position.position,
    )


def jboard(position: GamePosition, receiver: User) -> Any:
    """DG_JBOARD (49) for ``receiver``: the position (its view) as a 64-character board,
    side to move, castling rights, the last move and both clocks in seconds."""
    view = position.view
    last = position.last
    return dg.Jboard(
        "".join(view.ranks),
        view.side_to_move,
        view.double_push_file,
        *view.castling,
        view.move_number,
        last[1] if last is not None else "",
        last[2] if last is not None else "",
        position.white_ms // 1000,
        position.black_ms // 1000,
        PLAYED,
        position.flipped_for(receiver.name, bool(receiver.variables["flip"])),
    )


class ShowsBoard(EventMessage):
    """An event that shows the board: DG_JBOARD for those who have it on, then the board
    in the receiver's style."""

    position: GamePosition

    def __init__(self, event: Any) -> None:
        super().__init__(event)
        self.position = event.position
        self._board: PositionBoard | None = None

    @property
    def board(self) -> PositionBoard:
        if self._board is None:
            self._board = position_board(self.position)
        return self._board

    def board_key(self, receiver: User) -> Hashable:
        if DG.JBOARD not in receiver.level2:  # most receivers: the board's key is all
            return self.board.key(receiver), False, False
        flip = self.position.flipped_for(receiver.name, bool(receiver.variables["flip"]))
        return self.board.key(receiver), flip, True

    def board_bytes(self, receiver: User) -> bytes:
        data = self.board.render(receiver)
        if DG.JBOARD in receiver.level2:
            return encode_datagram(jboard(self.position, receiver)) + data
        return data

    def key(self, receiver: User) -> Hashable:
        return self.board_key(receiver)

    def render(self, receiver: User) -> bytes:
        return self.board_bytes(receiver)


def position_set_board(position: GamePosition, on: frozenset[int]) -> Any | None:
    """DG_SET_BOARD (84) of ``position`` for a receiver with the DGs ``on``, in a game of
    irregular semantics (:func:`~icswire.server.core.render.boards.set_board_record`)."""
    variant = variant_of(position.variant)
    if DG.SET_BOARD not in on or not variant.irregular_semantics:
        return None
    view = position.view
    board64 = "".join(view.ranks)
    return set_board_record(position.game, board64, view.side_to_move, variant.chess960, on)


def _clocks(position: GamePosition) -> tuple[Any, Any]:
    """DG_MSEC of both clocks, the side to move's running if the clock ticks."""
    white_runs = position.ticking and position.white_to_move
    black_runs = position.ticking and not position.white_to_move
    return (
        dg.Msec(position.game, "W", position.white_ms, white_runs),
        dg.Msec(position.game, "B", position.black_ms, black_runs),
    )


class MoveMessage(ShowsBoard):
    """:class:`MovePlayed` for one receiver (see the module's docstring)."""

    event: MovePlayed

    def __init__(self, event: MovePlayed) -> None:
        super().__init__(event)
        # FICS's delta board (iset compressmove) is for games without holdings
        self._delta: bytes | None = None

    def _compressed(self, receiver: User) -> bool:
        return (
            receiver.variables["style"] == 12
            and bool(receiver.ivariables["compressmove"])
            and self.position.holdings is None
        )

    def key(self, receiver: User) -> Hashable:
        on = receiver.level2 & self.datagram_kinds
        if on:
            to_move = self.position.relation(receiver.name) == 1
            told = to_move and bool(on & _TO_MOVE)
            dgs: Hashable = (on, told, self._is_player(receiver))
        else:  # most observers: no DG at all
            dgs = on
        if self._compressed(receiver):
            return dgs, ("d1", receiver.level1 & 1)
        return dgs, self.board_key(receiver)

    def _is_player(self, receiver: User) -> bool:
        name = receiver.name
        return name == self.position.white or name == self.position.black

    def render(self, receiver: User) -> bytes:
        data = render_parts(self._datagrams(receiver), (), receiver)
        if not self._compressed(receiver):
            return data + self.board_bytes(receiver)
        if self._delta is None:
            self._delta = (self._delta_line() + NEWLINE).encode("latin-1")
        blank = b"" if receiver.level1 & 1 else NEWLINE.encode()
        return data + blank + self._delta

    def _datagrams(self, receiver: User) -> list[Any]:
        on, event, position = receiver.level2, self.event, self.position
        found: list[Any] = []
        if not on & self.datagram_kinds:
            return found
        number = position.game
        if DG.SEND_MOVES in on:
            found.append(
                dg.SendMoves(
                    number,
                    event.san if DG.MOVE_ALGEBRAIC in on else None,
                    event.smith if DG.MOVE_SMITH in on else None,
                    event.time_ms // 1000 if DG.MOVE_TIME in on else None,
                    event.clock_ms // 1000 if DG.MOVE_CLOCK in on else None,
                    event.variation if DG.IS_VARIATION in on else None,
                )
            )
        set_board = position_set_board(position, on)
        if set_board is not None:
            found.append(set_board)
        if DG.MSEC in on:
            mover_is_white = not position.white_to_move
            mover = COLOR_LETTER[mover_is_white]
            waiting = COLOR_LETTER[not mover_is_white]
            to_move_ms = position.white_ms if position.white_to_move else position.black_ms
            found.append(dg.Msec(number, mover, event.clock_ms, False))
            found.append(dg.Msec(number, waiting, to_move_ms, True))
        if on & _TO_MOVE and position.relation(receiver.name) == 1:
            if DG.MY_TURN in on:
                found.append(dg.MyTurn(number))
            if DG.SOUND in on and DG.SEND_MOVES not in on:  # DG_SOUND: not with the move
                found.append(dg.Sound(Sound.MOVE))
        holdings = position.holdings if DG.BUGHOUSE_HOLDINGS in on else None
        if holdings is not None:
            found.append(dg.BughouseHoldings(number, *holdings))
        if DG.MOVE_LAG in on and event.lag_ms is not None and self._is_player(receiver):
            mover_name = position.black if position.white_to_move else position.white
            found.append(dg.MoveLag(mover_name, event.lag_ms))
        return found

    def _delta_line(self) -> str:
        event, position = self.event, self.position
        record = DeltaBoard(
            position.game, position.ply, event.san, event.smith, event.time_ms,
            event.clock_ms, ("0",),
        )  # fmt: skip
        return format_delta_board(record)


class BoardMessage(ShowsBoard):
    """:class:`BoardShown`: the board again, as it is."""

    event: BoardShown


class TakebackMessage(ShowsBoard):
    """:class:`TakenBack`: DG_TAKEBACK (22), both clocks (DG_MSEC), the board."""

    event: TakenBack

    def key(self, receiver: User) -> Hashable:
        return receiver.level2 & self.datagram_kinds, self.board_key(receiver)

    def render(self, receiver: User) -> bytes:
        on, position = receiver.level2, self.position
        found: list[Any] = []
        if DG.TAKEBACK in on:
            found.append(dg.Takeback(position.game, self.event.plies))
        set_board = position_set_board(position, on)
        if set_board is not None:
            found.append(set_board)
        if DG.MSEC in on:
            found += _clocks(position)
        return render_parts(found, (), receiver) + self.board_bytes(receiver)


class ClocksMessage(ShowsBoard):
    """:class:`ClocksChanged`: both clocks (DG_MSEC), then the board."""

    event: ClocksChanged

    def key(self, receiver: User) -> Hashable:
        return DG.MSEC in receiver.level2, self.board_key(receiver)

    def render(self, receiver: User) -> bytes:
        clocks = _clocks(self.position) if DG.MSEC in receiver.level2 else ()
        return render_parts(clocks, (), receiver) + self.board_bytes(receiver)


class PassMessage(EventMessage):
    """:class:`PiecePassed`: DG_BUGHOUSE_PASS (57) and DG_BUGHOUSE_HOLDINGS (37), and to a
    style 12 receiver FICS's ``<b1> game N white [PN] black [] <- WN``."""

    event: PiecePassed

    def key(self, receiver: User) -> Hashable:
        return receiver.level2 & self.datagram_kinds, receiver.variables["style"] == 12

    def render(self, receiver: User) -> bytes:
        event, on = self.event, receiver.level2
        found: list[Any] = []
        if DG.BUGHOUSE_PASS in on:
            found.append(dg.BughousePass(event.game, event.color, event.piece))
        if DG.BUGHOUSE_HOLDINGS in on:
            found.append(dg.BughouseHoldings(event.game, event.white, event.black))
        text: tuple[str, ...] = ()
        if receiver.variables["style"] == 12:
            record = Bughouse(event.game, event.white, event.black, event.color, event.piece)
            text = (format_b1(record),)
        return render_parts(found, text, receiver)
