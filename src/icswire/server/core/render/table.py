"""The one table of what each domain event produces: its message class (which renders it
for each receiver) and every DG that message may send, to be read against icc-formats.txt
Appendix 2 (each message's ``datagram_kinds`` is set from here). Importing this module
registers the messages with the batch."""

from __future__ import annotations

from icswire.protocol.datagrams import DG, RATING_DGS
from icswire.server.core.events import games, presence
from icswire.server.core.events.base import Event
from icswire.server.core.render import moves
from icswire.server.core.render import presence as seen
from icswire.server.core.render.batch import RENDERERS, EventMessage

#: event kind -> (its message class, the DGs it may send besides the text forms).
TABLE: dict[type[Event], tuple[type[EventMessage], frozenset[int]]] = {
    games.MovePlayed: (
        moves.MoveMessage,
        frozenset({
            DG.SEND_MOVES, DG.MOVE_ALGEBRAIC, DG.MOVE_SMITH, DG.MOVE_TIME, DG.MOVE_CLOCK,
            DG.IS_VARIATION, DG.MSEC, DG.MY_TURN, DG.BUGHOUSE_HOLDINGS, DG.MOVE_LAG, DG.JBOARD,
        }),
    ),
    games.BoardShown: (moves.BoardMessage, frozenset({DG.JBOARD})),
    games.TakenBack: (moves.TakebackMessage, frozenset({DG.TAKEBACK, DG.MSEC, DG.JBOARD})),
    games.ClocksChanged: (moves.ClocksMessage, frozenset({DG.MSEC, DG.JBOARD})),
    games.PiecePassed: (
        moves.PassMessage, frozenset({DG.BUGHOUSE_PASS, DG.BUGHOUSE_HOLDINGS})
    ),
    presence.Arrived: (
        seen.ArrivedMessage,
        frozenset({
            DG.PLAYER_ARRIVED, DG.PLAYER_ARRIVED_SIMPLE, DG.NOTIFY_ARRIVED, DG.SEES_SHOUTS,
            DG.CHANNELS_SHARED, DG.PEOPLE_IN_MY_CHANNEL,
        }),
    ),
    presence.Departed: (
        seen.DepartedMessage,
        frozenset({DG.PLAYER_LEFT, DG.NOTIFY_LEFT, DG.PEOPLE_IN_MY_CHANNEL}),
    ),
    presence.StateChanged: (seen.StateMessage, frozenset({DG.STATE, DG.NOTIFY_STATE})),
    presence.OpenChanged: (seen.OpenMessage, frozenset({DG.OPEN, DG.NOTIFY_OPEN})),
    presence.AvailabilityChanged: (seen.AvailabilityMessage, frozenset()),
    presence.ShoutsChanged: (seen.ShoutsMessage, frozenset({DG.SEES_SHOUTS})),
    presence.RatingChanged: (seen.RatingMessage, frozenset(RATING_DGS)),
    presence.PartnershipChanged: (seen.PartnershipMessage, frozenset({DG.PARTNERSHIP})),
}  # fmt: skip

for _event, (_message, _datagrams) in TABLE.items():
    _message.datagram_kinds = _datagrams
    RENDERERS[_event] = _message
