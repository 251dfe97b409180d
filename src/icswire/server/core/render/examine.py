"""Examined games' events for each receiver: examiners (style 12 relation 2) and
observers (-2) get the moves as DG_SEND_MOVES (24, with is-variation MOVE_EXAMINE 3 for a
typed move, MOVE_FORWARD 2 for ``forward``), DG_BACKWARD (23) for ``backward`` and
``revert``, FICS's words of who did it, then the board in their style (no DG_JBOARD:
examined boards never sent it)."""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import TYPE_CHECKING, Any

from icswire.protocol import datagrams as dg
from icswire.protocol.codes import IsVariation
from icswire.protocol.datagrams import DG
from icswire.server.core.events.examine import (
    ExaminedBackward,
    ExaminedBoard,
    ExaminedForward,
    ExaminedGameGone,
    ExaminedPosition,
    ExaminerJoined,
    ExaminerLeft,
)
from icswire.server.core.render.batch import EventMessage, render_parts
from icswire.server.core.render.boards import BoardFacts, PositionBoard
from icswire.server.core.render.diagrams import RecentMove

if TYPE_CHECKING:
    from icswire.server.core.net.session import Session


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

    def before_key(self, receiver: Session) -> Hashable:
        return None

    def before(self, receiver: Session) -> bytes:
        return b""

    def key(self, receiver: Session) -> Hashable:
        return self.before_key(receiver), self.board.key(receiver)

    def render(self, receiver: Session) -> bytes:
        return self.before(receiver) + self.board.render(receiver)


class ExaminedBoardMessage(ShowsExaminedBoard):
    """:class:`ExaminedBoard`: the board alone."""

    event: ExaminedBoard


class ForwardMessage(ShowsExaminedBoard):
    """:class:`ExaminedForward`: DG_SEND_MOVES with the receiver's parts for each move,
    the words (not to the examiner who typed the move), the board."""

    event: ExaminedForward

    def _said(self, receiver: Session) -> tuple[str, ...]:
        event = self.event
        number = self.position.game
        if event.variation == IsVariation.MOVE_EXAMINE:
            if receiver.name == event.examiner:
                return ()
            return (f"Game {number}: {event.examiner} moves: {event.moves[-1][0]}",)
        steps = moves_plural(len(event.moves))
        return (f"Game {number}: {event.examiner} goes forward {steps}.",)

    def before_key(self, receiver: Session) -> Hashable:
        return receiver.level2 & self.datagram_kinds, receiver.name == self.event.examiner

    def before(self, receiver: Session) -> bytes:
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
        return render_parts(records, (), receiver) + render_parts(
            (), self._said(receiver), receiver
        )


class BackwardMessage(ShowsExaminedBoard):
    """:class:`ExaminedBackward`: DG_BACKWARD, the words, the board."""

    event: ExaminedBackward

    def before_key(self, receiver: Session) -> Hashable:
        return DG.BACKWARD in receiver.level2

    def before(self, receiver: Session) -> bytes:
        event, number = self.event, self.position.game
        records: Sequence[Any] = ()
        if event.steps and DG.BACKWARD in receiver.level2:
            records = (dg.Backward(number, event.steps),)
        if event.reverted:
            said = f"Game {number}: {event.examiner} reverts to the main line."
        else:
            said = f"Game {number}: {event.examiner} backs up {moves_plural(event.steps)}."
        return render_parts(records, (), receiver) + render_parts((), (said,), receiver)


class JoinedMessage(EventMessage):
    """:class:`ExaminerJoined`: DG_PLAYERS_IN_MY_GAME with ``E``."""

    event: ExaminerJoined

    def key(self, receiver: Session) -> Hashable:
        return DG.PLAYERS_IN_MY_GAME in receiver.level2

    def datagrams(self, receiver: Session) -> Sequence[Any]:
        if DG.PLAYERS_IN_MY_GAME not in receiver.level2:
            return ()
        e = self.event
        return (dg.PlayersInMyGame(e.game, e.name, "E", e.kibitz),)


class LeftMessage(EventMessage):
    """:class:`ExaminerLeft`: DG_PLAYERS_IN_MY_GAME with ``X``, and the words."""

    event: ExaminerLeft

    def key(self, receiver: Session) -> Hashable:
        return DG.PLAYERS_IN_MY_GAME in receiver.level2

    def render(self, receiver: Session) -> bytes:
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

    def datagrams(self, receiver: Session) -> Sequence[Any]:
        on, number = receiver.level2, self.event.game
        records: list[Any] = []
        if DG.MY_GAME_ENDED in on:
            records.append(dg.MyGameEnded(number))
        if DG.MY_RELATION_TO_GAME in on:
            records.append(dg.MyRelationToGame(number, "X"))
        return records

    def text(self, receiver: Session) -> Sequence[str]:
        number = self.event.game
        return (
            f"Game {number} (which you were observing) has no examiners.",
            f"Removing game {number} from observation list.",
        )
