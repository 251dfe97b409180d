"""Examined games' events for each receiver: examiners (style 12 relation 2) and
observers (-2) get the moves as DG_SEND_MOVES (24, with is-variation MOVE_EXAMINE 3 for a
typed move, MOVE_FORWARD 2 for ``forward``), DG_BACKWARD (23) for ``backward`` and
``revert``, FICS's words of who did it, then DG_JBOARD (49, status 0: "played (1),
examined (0), or stored (-1)") to those who have it on and the board in their style;
both clocks as DG_MSEC (56), running 0, after each move, step and revert.
Lecture marks go as DG_CIRCLE (59), DG_ARROW (60), DG_UNCIRCLE (89), DG_UNARROW (90) or
DG_BOARDINFO (143), each translated for clients that know only the other kind (help
``boardinfo``), or as text to those who get none."""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import TYPE_CHECKING, Any

import chess

from icswire.boards.positions import board_to_64
from icswire.boards.variants import variant_of
from icswire.protocol import datagrams as dg
from icswire.protocol.codes import BoardInfoType, IsVariation
from icswire.protocol.datagrams import DG, encode_datagram
from icswire.server.core.events.examine import (
    BoardMarked,
    ExaminedBackward,
    ExaminedBoard,
    ExaminedForward,
    ExaminedGameGone,
    ExaminedPosition,
    ExaminerJoined,
    ExaminerLeft,
)
from icswire.server.core.render.batch import EventMessage, render_parts
from icswire.server.core.render.boards import (
    JBOARD_EXAMINED,
    BoardFacts,
    PositionBoard,
    set_board_record,
)
from icswire.server.core.render.diagrams import RecentMove

if TYPE_CHECKING:
    from icswire.server.core.model.users import User


def examined_board(position: ExaminedPosition) -> PositionBoard:
    """``position`` as a board message, with each receiver's relation and flip."""
    facts = BoardFacts(
        position.game, position.white, position.black, position.initial,
        position.increment, position.white_ms, position.black_ms, position.move_time_ms,
        ply=position.ply, recent=tuple([RecentMove(*move) for move in position.recent]),
        last_move=position.last,
    )  # fmt: skip
    return PositionBoard(
        position.position(),
        facts,
        lambda receiver: position.relation(receiver.name),
        lambda receiver: position.flipped_for(receiver.name, bool(receiver.variables["flip"])),
        copy=False,
    )


def examined_msec(position: ExaminedPosition, on: frozenset[int]) -> list[Any]:
    """DG_MSEC (56) of both clocks after a move, ``forward``, ``backward`` or ``revert``
    in an examined game: "Examine-mode cases: ... for now running=0 for these (8) move in
    examined game ... (10) backward or revert (11) forward"."""
    if DG.MSEC not in on:
        return []
    return [
        dg.Msec(position.game, "W", position.white_ms, False),
        dg.Msec(position.game, "B", position.black_ms, False),
    ]


def examined_set_board(position: ExaminedPosition, on: frozenset[int]) -> Any | None:
    """DG_SET_BOARD (84) of ``position`` for a receiver with the DGs ``on``, in a game of
    irregular semantics (:func:`~icswire.server.core.render.boards.set_board_record`)."""
    variant = variant_of(position.variant)
    if DG.SET_BOARD not in on or not variant.irregular_semantics:
        return None
    board = position.position()
    side = "W" if board.turn == chess.WHITE else "B"
    return set_board_record(position.game, board_to_64(board), side, variant.chess960, on)


def moves_plural(count: int) -> str:
    return f"{count} move{'' if count == 1 else 's'}"


class ShowsExaminedBoard(EventMessage):
    """An event that ends with the board; :meth:`before` gives what comes first."""

    position: ExaminedPosition

    def __init__(self, event: Any) -> None:
        super().__init__(event)
        self.position = event.position
        self._board: PositionBoard | None = None

    @property
    def board(self) -> PositionBoard:
        if self._board is None:
            self._board = examined_board(self.position)
        return self._board

    def before_key(self, receiver: User) -> Hashable:
        return None

    def before(self, receiver: User) -> bytes:
        return b""

    def key(self, receiver: User) -> Hashable:
        jboard = DG.JBOARD in receiver.level2 and self._flipped(receiver)
        return self.before_key(receiver), self.board.key(receiver), jboard

    def render(self, receiver: User) -> bytes:
        board = self.board.render(receiver)
        if DG.JBOARD in receiver.level2:
            board = encode_datagram(self._jboard(receiver)) + board
        return self.before(receiver) + board

    def _flipped(self, receiver: User) -> bool:
        return self.position.flipped_for(receiver.name, bool(receiver.variables["flip"]))

    def _jboard(self, receiver: User) -> Any:
        """DG_JBOARD (49), "sent in approximately (maybe exactly) the same places as a
        style 12 board would be generated", with status 0, examined."""
        view, position = self.board.view(), self.position
        return dg.Jboard(
            "".join(view.ranks),
            view.side_to_move,
            view.double_push_file,
            *view.castling,
            view.move_number,
            position.last[1] if position.last is not None else "",
            position.last_smith,
            position.white_ms // 1000,
            position.black_ms // 1000,
            JBOARD_EXAMINED,
            self._flipped(receiver),
        )


class ExaminedBoardMessage(ShowsExaminedBoard):
    """:class:`ExaminedBoard`: the board alone."""

    event: ExaminedBoard


class ForwardMessage(ShowsExaminedBoard):
    """:class:`ExaminedForward`: DG_SEND_MOVES with the receiver's parts for each move,
    the words (not to the examiner who typed the move), the board."""

    event: ExaminedForward

    def _said(self, receiver: User) -> tuple[str, ...]:
        event = self.event
        number = self.position.game
        if event.variation == IsVariation.MOVE_EXAMINE:
            if receiver.name == event.examiner:
                return ()
            return (f"Game {number}: {event.examiner} moves: {event.moves[-1][0]}",)
        steps = moves_plural(len(event.moves))
        return (f"Game {number}: {event.examiner} goes forward {steps}.",)

    def before_key(self, receiver: User) -> Hashable:
        return receiver.level2 & self.datagram_kinds, receiver.name == self.event.examiner

    def before(self, receiver: User) -> bytes:
        on, event = receiver.level2, self.event
        records: list[Any] = []
        if DG.SEND_MOVES in on:
            variation = int(event.variation) if DG.IS_VARIATION in on else None
            for san, smith, time_ms, clock_ms in event.moves:
                records.append(
                    dg.SendMoves(
                        self.position.game,
                        san if DG.MOVE_ALGEBRAIC in on else None,
                        smith if DG.MOVE_SMITH in on else None,
                        time_ms // 1000 if DG.MOVE_TIME in on else None,
                        clock_ms // 1000 if DG.MOVE_CLOCK in on else None,
                        variation,
                    )
                )
        records += examined_msec(self.position, on)
        set_board = examined_set_board(self.position, on)
        if set_board is not None:
            records.append(set_board)
        return render_parts(records, (), receiver) + render_parts(
            (), self._said(receiver), receiver
        )


class BackwardMessage(ShowsExaminedBoard):
    """:class:`ExaminedBackward`: DG_BACKWARD, the words, the board."""

    event: ExaminedBackward

    def before_key(self, receiver: User) -> Hashable:
        return receiver.level2 & self.datagram_kinds

    def before(self, receiver: User) -> bytes:
        event, number = self.event, self.position.game
        records: list[Any] = []
        if event.steps and DG.BACKWARD in receiver.level2:
            records.append(dg.Backward(number, event.steps))
        records += examined_msec(self.position, receiver.level2)
        set_board = examined_set_board(self.position, receiver.level2)
        if set_board is not None:
            records.append(set_board)
        if event.reverted:
            said = f"Game {number}: {event.examiner} reverts to the main line."
        else:
            said = f"Game {number}: {event.examiner} backs up {moves_plural(event.steps)}."
        return render_parts(records, (), receiver) + render_parts((), (said,), receiver)


class JoinedMessage(EventMessage):
    """:class:`ExaminerJoined`: DG_PLAYERS_IN_MY_GAME with ``E``."""

    event: ExaminerJoined

    def key(self, receiver: User) -> Hashable:
        return DG.PLAYERS_IN_MY_GAME in receiver.level2

    def datagrams(self, receiver: User) -> Sequence[Any]:
        if DG.PLAYERS_IN_MY_GAME not in receiver.level2:
            return ()
        e = self.event
        return (dg.PlayersInMyGame(e.game, e.name, "E", e.kibitz),)


class LeftMessage(EventMessage):
    """:class:`ExaminerLeft`: DG_PLAYERS_IN_MY_GAME with ``X``, and the words."""

    event: ExaminerLeft

    def key(self, receiver: User) -> Hashable:
        return DG.PLAYERS_IN_MY_GAME in receiver.level2

    def render(self, receiver: User) -> bytes:
        e = self.event
        records: Sequence[Any] = ()
        if DG.PLAYERS_IN_MY_GAME in receiver.level2:
            records = (dg.PlayersInMyGame(e.game, e.name, "X", False),)
        said = (f"Game {e.game}: {e.name} has stopped examining.",)
        return render_parts(records, (), receiver) + render_parts((), said, receiver)


class GoneMessage(EventMessage):
    """:class:`ExaminedGameGone` to an observer: DG_MY_GAME_ENDED, DG_MY_RELATION_TO_GAME
    ``X``, and that it observes the game no longer."""

    event: ExaminedGameGone

    def datagrams(self, receiver: User) -> Sequence[Any]:
        on, number = receiver.level2, self.event.game
        records: list[Any] = []
        if DG.MY_GAME_ENDED in on:
            records.append(dg.MyGameEnded(number))
        if DG.MY_RELATION_TO_GAME in on:
            records.append(dg.MyRelationToGame(number, "X"))
        return records

    def text(self, receiver: User) -> Sequence[str]:
        number = self.event.game
        return (
            f"Game {number} (which you were observing) has no examiners.",
            f"Removing game {number} from observation list.",
        )


# -- lecture marks ---------------------------------------------------------------------------


def _rectangle(a: str, b: str) -> list[str]:
    """The squares of the rectangle with corners ``a`` and ``b``."""
    sa, sb = chess.parse_square(a), chess.parse_square(b)
    files = range(
        min(chess.square_file(sa), chess.square_file(sb)),
        max(chess.square_file(sa), chess.square_file(sb)) + 1,
    )
    ranks = range(
        min(chess.square_rank(sa), chess.square_rank(sb)),
        max(chess.square_rank(sa), chess.square_rank(sb)) + 1,
    )
    return [chess.square_name(chess.square(f, r)) for r in ranks for f in files]


def _as_circles_and_arrows(
    number: int,
    examiner: str,
    mark: tuple[int | str, str, str, int],
    on: frozenset[int],
    remove: bool,
) -> list[Any]:
    """A mark in DG_CIRCLE / DG_ARROW terms (or their removal), for clients without
    DG_BOARDINFO: arrows as arrows, highlighted, throbbing and ghost squares as circles."""
    kind, a, b, _ = mark
    arrow_dg, circle_dg = (DG.UNARROW, DG.UNCIRCLE) if remove else (DG.ARROW, DG.CIRCLE)
    arrow = dg.Unarrow if remove else dg.Arrow
    circle = dg.Uncircle if remove else dg.Circle
    if kind in ("arrow", BoardInfoType.ARROW):
        return [arrow(number, examiner, a, b)] if arrow_dg in on else []
    if kind == "circle" or kind in (
        BoardInfoType.HIGHLIGHT,
        BoardInfoType.THROBBING_PIECES,
        BoardInfoType.GHOST_PIECES,
    ):
        return [circle(number, examiner, s) for s in _rectangle(a, b)] if circle_dg in on else []
    return []


def mark_records(event: BoardMarked, on: frozenset[int]) -> list[Any]:
    """The DGs of ``event`` among those ``on``."""
    number, name, a, b = event.game, event.examiner, event.a, event.b
    verb = event.verb
    if verb == "circle":
        if DG.CIRCLE in on:
            return [dg.Circle(number, name, a)]
        if DG.BOARDINFO in on:  # "Dasher users will see BlitzIn circles as highlighted squares"
            return [dg.Boardinfo(number, name, BoardInfoType.HIGHLIGHT, a, a, 0)]
        return []
    if verb == "uncircle":
        return [dg.Uncircle(number, name, a)] if DG.UNCIRCLE in on else []
    if verb == "arrow":
        if DG.ARROW in on:
            return [dg.Arrow(number, name, a, b)]
        if DG.BOARDINFO in on:
            return [dg.Boardinfo(number, name, BoardInfoType.ARROW, a, b, 0)]
        return []
    if verb == "unarrow":
        return [dg.Unarrow(number, name, a, b)] if DG.UNARROW in on else []
    if DG.BOARDINFO in on:
        return [dg.Boardinfo(number, name, event.info, a, b, event.color)]
    if event.removed or event.info in (BoardInfoType.CLEAR_ALL, BoardInfoType.UNDO):
        found: list[Any] = []
        for mark in event.removed:
            found += _as_circles_and_arrows(number, name, mark, on, remove=True)
        return found
    added = (event.info, a, b, event.color)
    return _as_circles_and_arrows(number, name, added, on, remove=False)


class MarkMessage(EventMessage):
    """:class:`BoardMarked`: its DGs, or its text for those who get none."""

    event: BoardMarked

    def datagrams(self, receiver: User) -> Sequence[Any]:
        return mark_records(self.event, receiver.level2)

    def text(self, receiver: User) -> Sequence[str]:
        said = self.event.said
        return (said,) if said and not mark_records(self.event, receiver.level2) else ()
