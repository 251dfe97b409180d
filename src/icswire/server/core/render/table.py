"""The one table of what each domain event produces: its message class (which renders it
for each receiver) and every DG that message may send, to be read against icc-formats.txt
Appendix 2 (each message's ``datagram_kinds`` is set from here). Importing this module
registers the messages with the batch."""

from __future__ import annotations

from icswire.protocol.datagrams import DG, MOVE_PART_DGS, RATING_DGS
from icswire.server.core.events import examine, games, pairing, presence, talk
from icswire.server.core.events.base import Event
from icswire.server.core.render import examine as examined
from icswire.server.core.render import games as lifecycle
from icswire.server.core.render import moves
from icswire.server.core.render import pairing as paired
from icswire.server.core.render import presence as seen
from icswire.server.core.render import talk as talk_render
from icswire.server.core.render.batch import RENDERERS, EventMessage

#: DG_SET_BOARD (84) in games of irregular semantics, and the setting that withholds it
#: in Fischer random ones (DG_KNOWS_FISCHER_RANDOM, 132).
SET_BOARD = frozenset({DG.SET_BOARD, DG.KNOWS_FISCHER_RANDOM})

#: The DGs of a game's moves so far (render/boards.py's ``history_records``).
HISTORY = frozenset({
    DG.POSITION_BEGIN, DG.POSITION_BEGIN2, DG.PAST_MOVE, DG.SEND_MOVES, DG.MOVE_LIST,
    DG.MOVE_ALGEBRAIC, DG.MOVE_SMITH, DG.MOVE_TIME, DG.MOVE_CLOCK, DG.IS_VARIATION, DG.MSEC,
    DG.FEN, DG.BUGHOUSE_HOLDINGS, *SET_BOARD,
})  # fmt: skip

#: event kind -> (its message class, the DGs it may send besides the text forms).
TABLE: dict[type[Event], tuple[type[EventMessage], frozenset[int]]] = {
    games.MovePlayed: (
        moves.MoveMessage,
        frozenset({
            DG.SEND_MOVES, DG.MOVE_ALGEBRAIC, DG.MOVE_SMITH, DG.MOVE_TIME, DG.MOVE_CLOCK,
            DG.IS_VARIATION, DG.MSEC, DG.MY_TURN, DG.BUGHOUSE_HOLDINGS, DG.MOVE_LAG, DG.JBOARD,
            DG.SOUND, *SET_BOARD,
        }),
    ),
    games.BoardShown: (moves.BoardMessage, frozenset({DG.JBOARD})),
    games.TakenBack: (
        moves.TakebackMessage, frozenset({DG.TAKEBACK, DG.MSEC, DG.JBOARD, *SET_BOARD})
    ),
    games.ClocksChanged: (moves.ClocksMessage, frozenset({DG.MSEC, DG.JBOARD})),
    games.PiecePassed: (
        moves.PassMessage, frozenset({DG.BUGHOUSE_PASS, DG.BUGHOUSE_HOLDINGS})
    ),
    games.GameStarted: (
        lifecycle.StartMessage,
        frozenset({
            DG.GAME_STARTED, DG.MY_GAME_STARTED, DG.FLIP, *HISTORY, DG.MY_RELATION_TO_GAME,
            DG.PLAYERS_IN_MY_GAME, DG.PGN_TAG, DG.PSTAT, DG.JBOARD, DG.MY_TURN, DG.SOUND,
            DG.DISABLE_PREMOVE,
        }),
    ),
    games.GameEnded: (
        lifecycle.EndMessage,
        frozenset({DG.GAME_RESULT, DG.MY_GAME_RESULT, DG.MY_RELATION_TO_GAME, DG.SOUND}),
    ),
    games.GameChanged: (
        lifecycle.ChangeMessage,
        frozenset({DG.MY_GAME_CHANGE, DG.FLIP, *HISTORY, DG.MY_RELATION_TO_GAME}),
    ),
    games.ObserverJoined: (lifecycle.JoinedMessage, frozenset({DG.PLAYERS_IN_MY_GAME})),
    games.ObserverLeft: (lifecycle.LeftMessage, frozenset({DG.PLAYERS_IN_MY_GAME})),
    games.OffersChanged: (lifecycle.OffersMessage, frozenset({DG.OFFERS_IN_MY_GAME})),
    games.RequestMade: (lifecycle.RequestMessage, frozenset({DG.SOUND, DG.GAME_MESSAGE})),
    games.RequestAnswered: (lifecycle.AnswerMessage, frozenset({DG.GAME_MESSAGE})),
    games.ClockPaused: (lifecycle.PausedMessage, frozenset({DG.GAME_MESSAGE})),
    talk.Told: (talk_render.TellMessage, frozenset({DG.PERSONAL_TELL, DG.PERSONAL_TELL_ECHO})),
    talk.ChannelTold: (talk_render.ChannelTellMessage, frozenset({DG.CHANNEL_TELL})),
    talk.Shouted: (talk_render.ShoutMessage, frozenset({DG.SHOUT})),
    talk.CShouted: (talk_render.CShoutMessage, frozenset()),
    talk.Kibitzed: (talk_render.KibitzMessage, frozenset({DG.KIBITZ})),
    talk.Qtold: (talk_render.QtellMessage, frozenset({DG.PERSONAL_QTELL, DG.CHANNEL_QTELL})),
    talk.MessageReceived: (talk_render.MessageShown, frozenset()),
    presence.Arrived: (
        seen.ArrivedMessage,
        frozenset({
            DG.PLAYER_ARRIVED, DG.PLAYER_ARRIVED_SIMPLE, DG.NOTIFY_ARRIVED, DG.SEES_SHOUTS,
            DG.CHANNELS_SHARED, DG.PEOPLE_IN_MY_CHANNEL, DG.SOUND,
        }),
    ),
    presence.Departed: (
        seen.DepartedMessage,
        frozenset({DG.PLAYER_LEFT, DG.NOTIFY_LEFT, DG.PEOPLE_IN_MY_CHANNEL, DG.SOUND}),
    ),
    presence.StateChanged: (seen.StateMessage, frozenset({DG.STATE, DG.NOTIFY_STATE})),
    presence.OpenChanged: (seen.OpenMessage, frozenset({DG.OPEN, DG.NOTIFY_OPEN})),
    presence.AvailabilityChanged: (seen.AvailabilityMessage, frozenset()),
    presence.ShoutsChanged: (seen.ShoutsMessage, frozenset({DG.SEES_SHOUTS})),
    presence.RatingChanged: (seen.RatingMessage, frozenset(RATING_DGS)),
    presence.PartnershipChanged: (seen.PartnershipMessage, frozenset({DG.PARTNERSHIP})),
    examine.ExaminedBoard: (examined.ExaminedBoardMessage, frozenset({DG.JBOARD})),
    examine.ExaminedForward: (
        examined.ForwardMessage,
        frozenset({DG.SEND_MOVES, *MOVE_PART_DGS, *SET_BOARD, DG.JBOARD, DG.MSEC}),
    ),
    examine.ExaminedBackward: (
        examined.BackwardMessage, frozenset({DG.BACKWARD, *SET_BOARD, DG.JBOARD, DG.MSEC})
    ),
    examine.ExaminerJoined: (examined.JoinedMessage, frozenset({DG.PLAYERS_IN_MY_GAME})),
    examine.ExaminerLeft: (examined.LeftMessage, frozenset({DG.PLAYERS_IN_MY_GAME})),
    examine.ExaminedGameGone: (
        examined.GoneMessage, frozenset({DG.MY_GAME_ENDED, DG.MY_RELATION_TO_GAME})
    ),
    examine.BoardMarked: (
        examined.MarkMessage,
        frozenset({DG.CIRCLE, DG.UNCIRCLE, DG.ARROW, DG.UNARROW, DG.BOARDINFO}),
    ),
    pairing.SeekPosted: (paired.SeekMessage, frozenset({DG.SEEK})),
    pairing.SeekListed: (paired.SeekLineMessage, frozenset()),
    pairing.SeeksRemoved: (paired.SeeksRemovedMessage, frozenset({DG.SEEK_REMOVED})),
    pairing.ChallengeMade: (
        paired.ChallengeMessage, frozenset({DG.MATCH, DG.MATCH_ASSESSMENT, DG.SOUND})
    ),
    pairing.ChallengeRemoved: (paired.ChallengeRemovedMessage, frozenset({DG.MATCH_REMOVED})),
    pairing.OfferPending: (paired.OfferPendingMessage, frozenset()),
    pairing.OffersGone: (paired.OffersGoneMessage, frozenset()),
}  # fmt: skip

for _event, (_message, _datagrams) in TABLE.items():
    _message.datagram_kinds = _datagrams
    RENDERERS[_event] = _message
