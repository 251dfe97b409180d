"""The datagram records as type checkers see them. GENERATED from FORMS in dgforms.py by
icswire.protocol.recordgen: do not edit; after changing FORMS run
``python -m icswire.protocol.recordgen`` (tests/protocol/test_dgrecords.py fails while
this file differs from what it writes).

dgforms.py makes each record class at run time from its FORMS line, on first use (so
start-up pays only for the records a program uses); the classes below are what it makes:
a NamedTuple of the form's fields (and ``extra``, unless a field takes the rest), with
DatagramRecord as a second base. Use them through datagrams (``datagrams.SendMoves``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    from icswire.protocol.dgforms import DatagramRecord, MoveInfo, PstatRecord, Rating

__all__ = [
    "AckPing",
    "Arrow",
    "Backward",
    "Blitz",
    "Boardinfo",
    "Bughouse",
    "BughouseHoldings",
    "BughousePass",
    "Bullet",
    "ChannelQtell",
    "ChannelTell",
    "ChannelsShared",
    "Chess960",
    "Circle",
    "Command",
    "CorrespondenceRating",
    "Crazyhouse",
    "DialogData",
    "DialogDefault",
    "DialogEnd",
    "DialogRelease",
    "DialogStart",
    "DisablePremove",
    "DummyResponse",
    "ExaminedGameIsGone",
    "Fen",
    "Fifteenminute",
    "Fiveminute",
    "Flip",
    "Fortyfiveminute",
    "GameMessage",
    "GameResult",
    "GameStarted",
    "GamelistBegin",
    "GamelistItem",
    "Idle",
    "IllegalMove",
    "IsolatedBoard",
    "Jboard",
    "Kibitz",
    "List",
    "LogPgn",
    "LoginFailed",
    "Losers",
    "Match",
    "MatchRemoved",
    "MessagelistBegin",
    "MessagelistItem",
    "Moretime",
    "MoveLag",
    "MoveList",
    "Msec",
    "Mugshot",
    "MyGameChange",
    "MyGameEnded",
    "MyGameResult",
    "MyGameStarted",
    "MyNotifyList",
    "MyRating",
    "MyRelationToGame",
    "MyStringVariable",
    "MyTurn",
    "MyVariable",
    "NewMyRating",
    "NotifyArrived",
    "NotifyLeft",
    "NotifyOpen",
    "NotifyState",
    "OffersInMyGame",
    "Oneminute",
    "Open",
    "Partnership",
    "Password",
    "PastMove",
    "PeopleInMyChannel",
    "PersonalQtell",
    "PersonalTell",
    "PersonalTellEcho",
    "PgnTag",
    "PlayerArrived",
    "PlayerArrivedSimple",
    "PlayerLeft",
    "PlayersInMyGame",
    "PositionBegin",
    "PositionBegin2",
    "Pstat",
    "RatingTypeKey",
    "Refresh",
    "RemoveTourney",
    "Retract",
    "Seek",
    "SeekRemoved",
    "SeesShouts",
    "SendMoves",
    "Set2",
    "SetBoard",
    "SetClock",
    "Shout",
    "SjiAd",
    "Sound",
    "Standard",
    "StartedObserving",
    "State",
    "StopObserving",
    "StringlistBegin",
    "StringlistItem",
    "Suggestion",
    "SwitchServers",
    "Takeback",
    "Threeminute",
    "Timestamp",
    "Titles",
    "Tourney",
    "TourneyGameEnded",
    "TourneyGameStarted",
    "Unarrow",
    "Uncircle",
    "WhoAmI",
    "Wild",
    "WildKey",
    "Wsuggest",
]

if TYPE_CHECKING:

    class WhoAmIFields(NamedTuple):
        myname: str
        titles: str
        extra: tuple[str, ...] = ()

    class WhoAmI(WhoAmIFields, DatagramRecord):
        """DG_WHO_AM_I (0): myname titles extra"""

    class PlayerArrivedFields(NamedTuple):
        playername: str
        ratings: tuple[Rating, ...]
        titles: str | None = None
        open: bool | None = None
        state: str | None = None
        state_game: int | None = None
        uid: int | None = None
        extra: tuple[str, ...] = ()

    class PlayerArrived(PlayerArrivedFields, DatagramRecord):
        """DG_PLAYER_ARRIVED (1): playername ratings titles open state state_game uid extra"""

    class PlayerLeftFields(NamedTuple):
        playername: str
        extra: tuple[str, ...] = ()

    class PlayerLeft(PlayerLeftFields, DatagramRecord):
        """DG_PLAYER_LEFT (2): playername extra"""

    class BulletFields(NamedTuple):
        playername: str
        rating: int
        annotation: int
        extra: tuple[str, ...] = ()

    class Bullet(BulletFields, DatagramRecord):
        """DG_BULLET (3): playername rating annotation extra"""

    class BlitzFields(NamedTuple):
        playername: str
        rating: int
        annotation: int
        extra: tuple[str, ...] = ()

    class Blitz(BlitzFields, DatagramRecord):
        """DG_BLITZ (4): playername rating annotation extra"""

    class StandardFields(NamedTuple):
        playername: str
        rating: int
        annotation: int
        extra: tuple[str, ...] = ()

    class Standard(StandardFields, DatagramRecord):
        """DG_STANDARD (5): playername rating annotation extra"""

    class WildFields(NamedTuple):
        playername: str
        rating: int
        annotation: int
        extra: tuple[str, ...] = ()

    class Wild(WildFields, DatagramRecord):
        """DG_WILD (6): playername rating annotation extra"""

    class BughouseFields(NamedTuple):
        playername: str
        rating: int
        annotation: int
        extra: tuple[str, ...] = ()

    class Bughouse(BughouseFields, DatagramRecord):
        """DG_BUGHOUSE (7): playername rating annotation extra"""

    class LosersFields(NamedTuple):
        playername: str
        rating: int
        annotation: int
        extra: tuple[str, ...] = ()

    class Losers(LosersFields, DatagramRecord):
        """DG_LOSERS (88): playername rating annotation extra"""

    class CrazyhouseFields(NamedTuple):
        playername: str
        rating: int
        annotation: int
        extra: tuple[str, ...] = ()

    class Crazyhouse(CrazyhouseFields, DatagramRecord):
        """DG_CRAZYHOUSE (121): playername rating annotation extra"""

    class FiveminuteFields(NamedTuple):
        playername: str
        rating: int
        annotation: int
        extra: tuple[str, ...] = ()

    class Fiveminute(FiveminuteFields, DatagramRecord):
        """DG_FIVEMINUTE (125): playername rating annotation extra"""

    class OneminuteFields(NamedTuple):
        playername: str
        rating: int
        annotation: int
        extra: tuple[str, ...] = ()

    class Oneminute(OneminuteFields, DatagramRecord):
        """DG_ONEMINUTE (126): playername rating annotation extra"""

    class CorrespondenceRatingFields(NamedTuple):
        playername: str
        rating: int
        annotation: int
        extra: tuple[str, ...] = ()

    class CorrespondenceRating(CorrespondenceRatingFields, DatagramRecord):
        """DG_CORRESPONDENCE_RATING (140): playername rating annotation extra"""

    class FifteenminuteFields(NamedTuple):
        playername: str
        rating: int
        annotation: int
        extra: tuple[str, ...] = ()

    class Fifteenminute(FifteenminuteFields, DatagramRecord):
        """DG_FIFTEENMINUTE (145): playername rating annotation extra"""

    class ThreeminuteFields(NamedTuple):
        playername: str
        rating: int
        annotation: int
        extra: tuple[str, ...] = ()

    class Threeminute(ThreeminuteFields, DatagramRecord):
        """DG_THREEMINUTE (149): playername rating annotation extra"""

    class FortyfiveminuteFields(NamedTuple):
        playername: str
        rating: int
        annotation: int
        extra: tuple[str, ...] = ()

    class Fortyfiveminute(FortyfiveminuteFields, DatagramRecord):
        """DG_FORTYFIVEMINUTE (150): playername rating annotation extra"""

    class Chess960Fields(NamedTuple):
        playername: str
        rating: int
        annotation: int
        extra: tuple[str, ...] = ()

    class Chess960(Chess960Fields, DatagramRecord):
        """DG_CHESS960 (151): playername rating annotation extra"""

    class TimestampFields(NamedTuple):
        playername: str
        client: int
        extra: tuple[str, ...] = ()

    class Timestamp(TimestampFields, DatagramRecord):
        """DG_TIMESTAMP (8): playername client extra"""

    class TitlesFields(NamedTuple):
        playername: str
        titles: str
        extra: tuple[str, ...] = ()

    class Titles(TitlesFields, DatagramRecord):
        """DG_TITLES (9): playername titles extra"""

    class OpenFields(NamedTuple):
        playername: str
        open: bool
        extra: tuple[str, ...] = ()

    class Open(OpenFields, DatagramRecord):
        """DG_OPEN (10): playername open extra"""

    class StateFields(NamedTuple):
        playername: str
        state: str
        state_game: int
        extra: tuple[str, ...] = ()

    class State(StateFields, DatagramRecord):
        """DG_STATE (11): playername state state_game extra"""

    class GameStartedFields(NamedTuple):
        gamenumber: int
        whitename: str
        blackname: str
        wild_number: int
        rating_type: str
        rated: bool
        white_initial: int
        white_increment: int
        black_initial: int
        black_increment: int
        played_game: bool
        ex_string: str
        white_rating: int
        black_rating: int
        game_id: int | None = None
        white_titles: str | None = None
        black_titles: str | None = None
        irregular_legality: bool | None = None
        irregular_semantics: bool | None = None
        uses_plunkers: bool | None = None
        fancy_timecontrol: str | None = None
        promote_to_king: bool | None = None
        extra: tuple[str, ...] = ()

    class GameStarted(GameStartedFields, DatagramRecord):
        """DG_GAME_STARTED (12): gamenumber whitename blackname wild_number rating_type rated
        white_initial white_increment black_initial black_increment played_game ex_string
        white_rating black_rating game_id white_titles black_titles irregular_legality
        irregular_semantics uses_plunkers fancy_timecontrol promote_to_king extra
        """

    class GameResultFields(NamedTuple):
        gamenumber: int
        become_examined: bool
        result_code: str
        score: str
        description: str
        eco: str | None = None
        extra: tuple[str, ...] = ()

    class GameResult(GameResultFields, DatagramRecord):
        """DG_GAME_RESULT (13): gamenumber become_examined result_code score description eco
        extra
        """

    class ExaminedGameIsGoneFields(NamedTuple):
        gamenumber: int
        extra: tuple[str, ...] = ()

    class ExaminedGameIsGone(ExaminedGameIsGoneFields, DatagramRecord):
        """DG_EXAMINED_GAME_IS_GONE (14): gamenumber extra"""

    class MyGameStartedFields(NamedTuple):
        gamenumber: int
        whitename: str
        blackname: str
        wild_number: int
        rating_type: str
        rated: bool
        white_initial: int
        white_increment: int
        black_initial: int
        black_increment: int
        played_game: bool
        ex_string: str
        white_rating: int
        black_rating: int
        game_id: int | None = None
        white_titles: str | None = None
        black_titles: str | None = None
        irregular_legality: bool | None = None
        irregular_semantics: bool | None = None
        uses_plunkers: bool | None = None
        fancy_timecontrol: str | None = None
        promote_to_king: bool | None = None
        extra: tuple[str, ...] = ()

    class MyGameStarted(MyGameStartedFields, DatagramRecord):
        """DG_MY_GAME_STARTED (15): gamenumber whitename blackname wild_number rating_type rated
        white_initial white_increment black_initial black_increment played_game ex_string
        white_rating black_rating game_id white_titles black_titles irregular_legality
        irregular_semantics uses_plunkers fancy_timecontrol promote_to_king extra
        """

    class MyGameResultFields(NamedTuple):
        gamenumber: int
        become_examined: bool
        result_code: str
        score: str
        description: str
        eco: str | None = None
        extra: tuple[str, ...] = ()

    class MyGameResult(MyGameResultFields, DatagramRecord):
        """DG_MY_GAME_RESULT (16): gamenumber become_examined result_code score description eco
        extra
        """

    class MyGameEndedFields(NamedTuple):
        gamenumber: int
        extra: tuple[str, ...] = ()

    class MyGameEnded(MyGameEndedFields, DatagramRecord):
        """DG_MY_GAME_ENDED (17): gamenumber extra"""

    class StartedObservingFields(NamedTuple):
        gamenumber: int
        whitename: str
        blackname: str
        wild_number: int
        rating_type: str
        rated: bool
        white_initial: int
        white_increment: int
        black_initial: int
        black_increment: int
        played_game: bool
        ex_string: str
        white_rating: int
        black_rating: int
        game_id: int | None = None
        white_titles: str | None = None
        black_titles: str | None = None
        irregular_legality: bool | None = None
        irregular_semantics: bool | None = None
        uses_plunkers: bool | None = None
        fancy_timecontrol: str | None = None
        promote_to_king: bool | None = None
        extra: tuple[str, ...] = ()

    class StartedObserving(StartedObservingFields, DatagramRecord):
        """DG_STARTED_OBSERVING (18): gamenumber whitename blackname wild_number rating_type
        rated white_initial white_increment black_initial black_increment played_game ex_string
        white_rating black_rating game_id white_titles black_titles irregular_legality
        irregular_semantics uses_plunkers fancy_timecontrol promote_to_king extra
        """

    class StopObservingFields(NamedTuple):
        gamenumber: int
        extra: tuple[str, ...] = ()

    class StopObserving(StopObservingFields, DatagramRecord):
        """DG_STOP_OBSERVING (19): gamenumber extra"""

    class PlayersInMyGameFields(NamedTuple):
        gamenumber: int
        playername: str
        symbol: str
        kibitz: bool
        extra: tuple[str, ...] = ()

    class PlayersInMyGame(PlayersInMyGameFields, DatagramRecord):
        """DG_PLAYERS_IN_MY_GAME (20): gamenumber playername symbol kibitz extra"""

    class OffersInMyGameFields(NamedTuple):
        gamenumber: int
        wdraw: bool
        bdraw: bool
        wadjourn: bool
        badjourn: bool
        wabort: bool
        babort: bool
        wtakeback: int
        btakeback: int
        extra: tuple[str, ...] = ()

    class OffersInMyGame(OffersInMyGameFields, DatagramRecord):
        """DG_OFFERS_IN_MY_GAME (21): gamenumber wdraw bdraw wadjourn badjourn wabort babort
        wtakeback btakeback extra
        """

    class TakebackFields(NamedTuple):
        gamenumber: int
        count: int  # type: ignore[assignment]
        extra: tuple[str, ...] = ()

    class Takeback(TakebackFields, DatagramRecord):
        """DG_TAKEBACK (22): gamenumber count extra"""

    class BackwardFields(NamedTuple):
        gamenumber: int
        count: int  # type: ignore[assignment]
        extra: tuple[str, ...] = ()

    class Backward(BackwardFields, DatagramRecord):
        """DG_BACKWARD (23): gamenumber count extra"""

    class SendMovesFields(NamedTuple):
        gamenumber: int
        algebraic: str | None = None
        smith: str | None = None
        time: int | None = None
        clock: int | None = None
        variation: int | None = None
        extra: tuple[str, ...] = ()

    class SendMoves(SendMovesFields, DatagramRecord):
        """DG_SEND_MOVES (24): gamenumber algebraic smith time clock variation extra"""

    class MoveListFields(NamedTuple):
        gamenumber: int
        initial_position: str
        moves: tuple[MoveInfo, ...]

    class MoveList(MoveListFields, DatagramRecord):
        """DG_MOVE_LIST (25): gamenumber initial_position moves"""

    class KibitzFields(NamedTuple):
        gamenumber: int
        playername: str
        titles: str
        kibitz: bool
        text: str
        extra: tuple[str, ...] = ()

    class Kibitz(KibitzFields, DatagramRecord):
        """DG_KIBITZ (26): gamenumber playername titles kibitz text extra"""

    class PeopleInMyChannelFields(NamedTuple):
        channel: int
        playername: str
        present: bool
        extra: tuple[str, ...] = ()

    class PeopleInMyChannel(PeopleInMyChannelFields, DatagramRecord):
        """DG_PEOPLE_IN_MY_CHANNEL (27): channel playername present extra"""

    class ChannelTellFields(NamedTuple):
        channel: int
        playername: str
        titles: str
        text: str
        type: int
        extra: tuple[str, ...] = ()

    class ChannelTell(ChannelTellFields, DatagramRecord):
        """DG_CHANNEL_TELL (28): channel playername titles text type extra"""

    class MatchFields(NamedTuple):
        challenger: str
        challenger_rating: int
        challenger_annotation: int
        challenger_titles: str
        receiver: str
        receiver_rating: int
        receiver_annotation: int
        receiver_titles: str
        wild_number: int
        rating_type: str
        rated: bool
        adjourned: bool
        challenger_time: int
        challenger_increment: int
        receiver_time: int
        receiver_increment: int
        color_request: int
        assess_loss: int | None = None
        assess_draw: int | None = None
        assess_win: int | None = None
        fancy_timecontrol: str | None = None
        extra: tuple[str, ...] = ()

    class Match(MatchFields, DatagramRecord):
        """DG_MATCH (29): challenger challenger_rating challenger_annotation challenger_titles
        receiver receiver_rating receiver_annotation receiver_titles wild_number rating_type
        rated adjourned challenger_time challenger_increment receiver_time receiver_increment
        color_request assess_loss assess_draw assess_win fancy_timecontrol extra
        """

    class MatchRemovedFields(NamedTuple):
        challenger: str
        receiver: str
        explanation: str
        extra: tuple[str, ...] = ()

    class MatchRemoved(MatchRemovedFields, DatagramRecord):
        """DG_MATCH_REMOVED (30): challenger receiver explanation extra"""

    class PersonalTellFields(NamedTuple):
        playername: str
        titles: str
        text: str
        type: int
        extra: tuple[str, ...] = ()

    class PersonalTell(PersonalTellFields, DatagramRecord):
        """DG_PERSONAL_TELL (31): playername titles text type extra"""

    class ShoutFields(NamedTuple):
        playername: str
        titles: str
        type: int
        text: str
        extra: tuple[str, ...] = ()

    class Shout(ShoutFields, DatagramRecord):
        """DG_SHOUT (32): playername titles type text extra"""

    class BughouseHoldingsFields(NamedTuple):
        gamenumber: int
        white_holding: str
        black_holding: str
        extra: tuple[str, ...] = ()

    class BughouseHoldings(BughouseHoldingsFields, DatagramRecord):
        """DG_BUGHOUSE_HOLDINGS (37): gamenumber white_holding black_holding extra"""

    class SetClockFields(NamedTuple):
        gamenumber: int
        white_clock: int
        black_clock: int
        extra: tuple[str, ...] = ()

    class SetClock(SetClockFields, DatagramRecord):
        """DG_SET_CLOCK (38): gamenumber white_clock black_clock extra"""

    class FlipFields(NamedTuple):
        gamenumber: int
        flip: bool
        extra: tuple[str, ...] = ()

    class Flip(FlipFields, DatagramRecord):
        """DG_FLIP (39): gamenumber flip extra"""

    class IsolatedBoardFields(NamedTuple):
        gamenumber: int
        whitename: str
        blackname: str
        wild_number: int
        rating_type: str
        rated: bool
        white_initial: int
        white_increment: int
        black_initial: int
        black_increment: int
        played_game: bool
        ex_string: str
        white_rating: int
        black_rating: int
        game_id: int | None = None
        white_titles: str | None = None
        black_titles: str | None = None
        irregular_legality: bool | None = None
        irregular_semantics: bool | None = None
        uses_plunkers: bool | None = None
        fancy_timecontrol: str | None = None
        promote_to_king: bool | None = None
        extra: tuple[str, ...] = ()

    class IsolatedBoard(IsolatedBoardFields, DatagramRecord):
        """DG_ISOLATED_BOARD (40): gamenumber whitename blackname wild_number rating_type rated
        white_initial white_increment black_initial black_increment played_game ex_string
        white_rating black_rating game_id white_titles black_titles irregular_legality
        irregular_semantics uses_plunkers fancy_timecontrol promote_to_king extra
        """

    class RefreshFields(NamedTuple):
        gamenumber: int
        extra: tuple[str, ...] = ()

    class Refresh(RefreshFields, DatagramRecord):
        """DG_REFRESH (41): gamenumber extra"""

    class IllegalMoveFields(NamedTuple):
        gamenumber: int
        move: str
        reason: int
        extra: tuple[str, ...] = ()

    class IllegalMove(IllegalMoveFields, DatagramRecord):
        """DG_ILLEGAL_MOVE (42): gamenumber move reason extra"""

    class MyRelationToGameFields(NamedTuple):
        gamenumber: int
        symbol: str
        extra: tuple[str, ...] = ()

    class MyRelationToGame(MyRelationToGameFields, DatagramRecord):
        """DG_MY_RELATION_TO_GAME (43): gamenumber symbol extra"""

    class PartnershipFields(NamedTuple):
        name1: str
        name2: str
        forming: bool
        extra: tuple[str, ...] = ()

    class Partnership(PartnershipFields, DatagramRecord):
        """DG_PARTNERSHIP (44): name1 name2 forming extra"""

    class SeesShoutsFields(NamedTuple):
        playername: str
        bitvector: int
        extra: tuple[str, ...] = ()

    class SeesShouts(SeesShoutsFields, DatagramRecord):
        """DG_SEES_SHOUTS (45): playername bitvector extra"""

    class ChannelsSharedFields(NamedTuple):
        playername: str
        channels: tuple[int, ...]

    class ChannelsShared(ChannelsSharedFields, DatagramRecord):
        """DG_CHANNELS_SHARED (46): playername channels"""

    class MyVariableFields(NamedTuple):
        variable: str
        value: int
        extra: tuple[str, ...] = ()

    class MyVariable(MyVariableFields, DatagramRecord):
        """DG_MY_VARIABLE (47): variable value extra"""

    class MyStringVariableFields(NamedTuple):
        variable: str
        value: str
        extra: tuple[str, ...] = ()

    class MyStringVariable(MyStringVariableFields, DatagramRecord):
        """DG_MY_STRING_VARIABLE (48): variable value extra"""

    class JboardFields(NamedTuple):
        board: str
        side_to_move: str
        double_push_file: int
        white_castle_short: bool
        white_castle_long: bool
        black_castle_short: bool
        black_castle_long: bool
        move_number: int
        algebraic: str
        smith: str
        white_clock: int
        black_clock: int
        status: int
        flip: bool
        extra: tuple[str, ...] = ()

    class Jboard(JboardFields, DatagramRecord):
        """DG_JBOARD (49): board side_to_move double_push_file white_castle_short
        white_castle_long black_castle_short black_castle_long move_number algebraic smith
        white_clock black_clock status flip extra
        """

    class SeekFields(NamedTuple):
        index: int  # type: ignore[assignment]
        playername: str
        titles: str
        rating: int
        provisional: int
        wild_number: int
        rating_type: str
        time: int
        increment: int
        rated: bool
        color: int
        minrating: int
        maxrating: int
        autoaccept: bool
        formula: bool
        fancy_timecontrol: str | None = None
        extra: tuple[str, ...] = ()

    class Seek(SeekFields, DatagramRecord):
        """DG_SEEK (50): index playername titles rating provisional wild_number rating_type time
        increment rated color minrating maxrating autoaccept formula fancy_timecontrol extra
        """

    class SeekRemovedFields(NamedTuple):
        index: int  # type: ignore[assignment]
        reason: int
        extra: tuple[str, ...] = ()

    class SeekRemoved(SeekRemovedFields, DatagramRecord):
        """DG_SEEK_REMOVED (51): index reason extra"""

    class MyRatingFields(NamedTuple):
        bullet: int
        blitz: int
        standard: int
        wild: int
        bughouse: int
        extra: tuple[str, ...] = ()

    class MyRating(MyRatingFields, DatagramRecord):
        """DG_MY_RATING (52): bullet blitz standard wild bughouse extra"""

    class SoundFields(NamedTuple):
        code: int
        extra: tuple[str, ...] = ()

    class Sound(SoundFields, DatagramRecord):
        """DG_SOUND (53): code extra"""

    class PlayerArrivedSimpleFields(NamedTuple):
        playername: str
        extra: tuple[str, ...] = ()

    class PlayerArrivedSimple(PlayerArrivedSimpleFields, DatagramRecord):
        """DG_PLAYER_ARRIVED_SIMPLE (55): playername extra"""

    class MsecFields(NamedTuple):
        gamenumber: int
        color: str
        msec: int
        running: bool
        extra: tuple[str, ...] = ()

    class Msec(MsecFields, DatagramRecord):
        """DG_MSEC (56): gamenumber color msec running extra"""

    class BughousePassFields(NamedTuple):
        gamenumber: int
        color: str
        piece: str
        extra: tuple[str, ...] = ()

    class BughousePass(BughousePassFields, DatagramRecord):
        """DG_BUGHOUSE_PASS (57): gamenumber color piece extra"""

    class CircleFields(NamedTuple):
        gamenumber: int
        examiner: str
        square: str
        extra: tuple[str, ...] = ()

    class Circle(CircleFields, DatagramRecord):
        """DG_CIRCLE (59): gamenumber examiner square extra"""

    class ArrowFields(NamedTuple):
        gamenumber: int
        examiner: str
        origin: str
        destination: str
        extra: tuple[str, ...] = ()

    class Arrow(ArrowFields, DatagramRecord):
        """DG_ARROW (60): gamenumber examiner origin destination extra"""

    class MoretimeFields(NamedTuple):
        gamenumber: int
        color: str
        seconds: int
        extra: tuple[str, ...] = ()

    class Moretime(MoretimeFields, DatagramRecord):
        """DG_MORETIME (61): gamenumber color seconds extra"""

    class PersonalTellEchoFields(NamedTuple):
        receiver: str
        type: int
        text: str
        extra: tuple[str, ...] = ()

    class PersonalTellEcho(PersonalTellEchoFields, DatagramRecord):
        """DG_PERSONAL_TELL_ECHO (62): receiver type text extra"""

    class SuggestionFields(NamedTuple):
        command: str
        text: str
        priority: int
        suggester: str
        subject: str
        id: str
        extra: tuple[str, ...] = ()

    class Suggestion(SuggestionFields, DatagramRecord):
        """DG_SUGGESTION (63): command text priority suggester subject id extra"""

    class NotifyArrivedFields(NamedTuple):
        playername: str
        ratings: tuple[Rating, ...]
        titles: str | None = None
        open: bool | None = None
        state: str | None = None
        state_game: int | None = None
        uid: int | None = None
        extra: tuple[str, ...] = ()

    class NotifyArrived(NotifyArrivedFields, DatagramRecord):
        """DG_NOTIFY_ARRIVED (64): playername ratings titles open state state_game uid extra"""

    class NotifyLeftFields(NamedTuple):
        playername: str
        extra: tuple[str, ...] = ()

    class NotifyLeft(NotifyLeftFields, DatagramRecord):
        """DG_NOTIFY_LEFT (65): playername extra"""

    class NotifyOpenFields(NamedTuple):
        playername: str
        open: bool
        extra: tuple[str, ...] = ()

    class NotifyOpen(NotifyOpenFields, DatagramRecord):
        """DG_NOTIFY_OPEN (66): playername open extra"""

    class NotifyStateFields(NamedTuple):
        playername: str
        state: str
        state_game: int
        extra: tuple[str, ...] = ()

    class NotifyState(NotifyStateFields, DatagramRecord):
        """DG_NOTIFY_STATE (67): playername state state_game extra"""

    class MyNotifyListFields(NamedTuple):
        playername: str
        present: bool
        extra: tuple[str, ...] = ()

    class MyNotifyList(MyNotifyListFields, DatagramRecord):
        """DG_MY_NOTIFY_LIST (68): playername present extra"""

    class LoginFailedFields(NamedTuple):
        code: int
        explanation: str
        extra: tuple[str, ...] = ()

    class LoginFailed(LoginFailedFields, DatagramRecord):
        """DG_LOGIN_FAILED (69): code explanation extra"""

    class FenFields(NamedTuple):
        gamenumber: int
        fen: str
        extra: tuple[str, ...] = ()

    class Fen(FenFields, DatagramRecord):
        """DG_FEN (70): gamenumber fen extra"""

    class GamelistBeginFields(NamedTuple):
        command: str
        parameters: str
        nhits: int
        first: int
        last: int
        summary: str
        extra: tuple[str, ...] = ()

    class GamelistBegin(GamelistBeginFields, DatagramRecord):
        """DG_GAMELIST_BEGIN (72): command parameters nhits first last summary extra"""

    class GamelistItemFields(NamedTuple):
        index: int  # type: ignore[assignment]
        id: int
        event: str
        date: str
        time: str
        white_name: str
        white_rating: str
        black_name: str
        black_rating: str
        rated: bool
        rating_type: int
        wild_number: int
        white_initial: str
        white_increment: str
        black_initial: str
        black_increment: str
        eco: str
        status: int
        color: int
        mode: int
        note: str
        here: bool | None = None
        extra: tuple[str, ...] = ()

    class GamelistItem(GamelistItemFields, DatagramRecord):
        """DG_GAMELIST_ITEM (73): index id event date time white_name white_rating black_name
        black_rating rated rating_type wild_number white_initial white_increment black_initial
        black_increment eco status color mode note here extra
        """

    class IdleFields(NamedTuple):
        playername: str
        idle_time: int
        time_since_read: int
        extra: tuple[str, ...] = ()

    class Idle(IdleFields, DatagramRecord):
        """DG_IDLE (74): playername idle_time time_since_read extra"""

    class AckPingFields(NamedTuple):
        playername: str
        lag: int
        mean: int
        variance: int
        extra: tuple[str, ...] = ()

    class AckPing(AckPingFields, DatagramRecord):
        """DG_ACK_PING (75): playername lag mean variance extra"""

    class RatingTypeKeyFields(NamedTuple):
        index: int  # type: ignore[assignment]
        label: str
        extra: tuple[str, ...] = ()

    class RatingTypeKey(RatingTypeKeyFields, DatagramRecord):
        """DG_RATING_TYPE_KEY (76): index label extra"""

    class GameMessageFields(NamedTuple):
        gamenumber: int
        message: str
        extra: tuple[str, ...] = ()

    class GameMessage(GameMessageFields, DatagramRecord):
        """DG_GAME_MESSAGE (77): gamenumber message extra"""

    class StringlistBeginFields(NamedTuple):
        nhits: int
        description: str
        extra: tuple[str, ...] = ()

    class StringlistBegin(StringlistBeginFields, DatagramRecord):
        """DG_STRINGLIST_BEGIN (79): nhits description extra"""

    class StringlistItemFields(NamedTuple):
        item: str
        extra: tuple[str, ...] = ()

    class StringlistItem(StringlistItemFields, DatagramRecord):
        """DG_STRINGLIST_ITEM (80): item extra"""

    class DummyResponseFields(NamedTuple):
        extra: tuple[str, ...] = ()

    class DummyResponse(DummyResponseFields, DatagramRecord):
        """DG_DUMMY_RESPONSE (81): extra"""

    class ChannelQtellFields(NamedTuple):
        channel: int
        playername: str
        titles: str
        text: str
        extra: tuple[str, ...] = ()

    class ChannelQtell(ChannelQtellFields, DatagramRecord):
        """DG_CHANNEL_QTELL (82): channel playername titles text extra"""

    class PersonalQtellFields(NamedTuple):
        playername: str
        titles: str
        text: str
        extra: tuple[str, ...] = ()

    class PersonalQtell(PersonalQtellFields, DatagramRecord):
        """DG_PERSONAL_QTELL (83): playername titles text extra"""

    class SetBoardFields(NamedTuple):
        gamenumber: int
        board: str
        side_to_move: str
        extra: tuple[str, ...] = ()

    class SetBoard(SetBoardFields, DatagramRecord):
        """DG_SET_BOARD (84): gamenumber board side_to_move extra"""

    class LogPgnFields(NamedTuple):
        lines: tuple[str, ...]

    class LogPgn(LogPgnFields, DatagramRecord):
        """DG_LOG_PGN (86): lines"""

    class NewMyRatingFields(NamedTuple):
        ratings: tuple[int, ...]

    class NewMyRating(NewMyRatingFields, DatagramRecord):
        """DG_NEW_MY_RATING (87): ratings"""

    class UncircleFields(NamedTuple):
        gamenumber: int
        examiner: str
        square: str
        extra: tuple[str, ...] = ()

    class Uncircle(UncircleFields, DatagramRecord):
        """DG_UNCIRCLE (89): gamenumber examiner square extra"""

    class UnarrowFields(NamedTuple):
        gamenumber: int
        examiner: str
        origin: str
        destination: str
        extra: tuple[str, ...] = ()

    class Unarrow(UnarrowFields, DatagramRecord):
        """DG_UNARROW (90): gamenumber examiner origin destination extra"""

    class WsuggestFields(NamedTuple):
        url: str
        text: str
        priority: int
        suggester: str
        subject: str
        id: str
        extra: tuple[str, ...] = ()

    class Wsuggest(WsuggestFields, DatagramRecord):
        """DG_WSUGGEST (91): url text priority suggester subject id extra"""

    class MessagelistBeginFields(NamedTuple):
        command: str
        extra: tuple[str, ...] = ()

    class MessagelistBegin(MessagelistBeginFields, DatagramRecord):
        """DG_MESSAGELIST_BEGIN (94): command extra"""

    class MessagelistItemFields(NamedTuple):
        index: int  # type: ignore[assignment]
        sender: str
        time: str
        date: str
        message: str
        extra: tuple[str, ...] = ()

    class MessagelistItem(MessagelistItemFields, DatagramRecord):
        """DG_MESSAGELIST_ITEM (95): index sender time date message extra"""

    class ListFields(NamedTuple):
        header: str
        rowstart: str
        items: tuple[str, ...]

    class List(ListFields, DatagramRecord):
        """DG_LIST (96): header rowstart items"""

    class SjiAdFields(NamedTuple):
        text: str
        extra: tuple[str, ...] = ()

    class SjiAd(SjiAdFields, DatagramRecord):
        """DG_SJI_AD (97): text extra"""

    class RetractFields(NamedTuple):
        id: str
        extra: tuple[str, ...] = ()

    class Retract(RetractFields, DatagramRecord):
        """DG_RETRACT (99): id extra"""

    class MyGameChangeFields(NamedTuple):
        gamenumber: int
        whitename: str
        blackname: str
        wild_number: int
        rating_type: str
        rated: bool
        white_initial: int
        white_increment: int
        black_initial: int
        black_increment: int
        played_game: bool
        ex_string: str
        white_rating: int
        black_rating: int
        game_id: int | None = None
        white_titles: str | None = None
        black_titles: str | None = None
        irregular_legality: bool | None = None
        irregular_semantics: bool | None = None
        uses_plunkers: bool | None = None
        fancy_timecontrol: str | None = None
        promote_to_king: bool | None = None
        extra: tuple[str, ...] = ()

    class MyGameChange(MyGameChangeFields, DatagramRecord):
        """DG_MY_GAME_CHANGE (100): gamenumber whitename blackname wild_number rating_type rated
        white_initial white_increment black_initial black_increment played_game ex_string
        white_rating black_rating game_id white_titles black_titles irregular_legality
        irregular_semantics uses_plunkers fancy_timecontrol promote_to_king extra
        """

    class PositionBeginFields(NamedTuple):
        gamenumber: int
        fen: str
        nmoves: int
        extra: tuple[str, ...] = ()

    class PositionBegin(PositionBeginFields, DatagramRecord):
        """DG_POSITION_BEGIN (101): gamenumber fen nmoves extra"""

    class TourneyFields(NamedTuple):
        index: int  # type: ignore[assignment]
        bitfield: int
        description: str
        join_command: str
        watch_command: str | None = None
        info_command: str | None = None
        confirm_text: str | None = None
        extra: tuple[str, ...] = ()

    class Tourney(TourneyFields, DatagramRecord):
        """DG_TOURNEY (103): index bitfield description join_command watch_command info_command
        confirm_text extra
        """

    class RemoveTourneyFields(NamedTuple):
        index: int  # type: ignore[assignment]
        extra: tuple[str, ...] = ()

    class RemoveTourney(RemoveTourneyFields, DatagramRecord):
        """DG_REMOVE_TOURNEY (104): index extra"""

    class DialogStartFields(NamedTuple):
        size: int
        extra: tuple[str, ...] = ()

    class DialogStart(DialogStartFields, DatagramRecord):
        """DG_DIALOG_START (105): size extra"""

    class DialogDataFields(NamedTuple):
        data: str
        extra: tuple[str, ...] = ()

    class DialogData(DialogDataFields, DatagramRecord):
        """DG_DIALOG_DATA (106): data extra"""

    class DialogDefaultFields(NamedTuple):
        control: int
        type: str
        value: str
        extra: tuple[str, ...] = ()

    class DialogDefault(DialogDefaultFields, DatagramRecord):
        """DG_DIALOG_DEFAULT (107): control type value extra"""

    class DialogEndFields(NamedTuple):
        modal: bool
        focus: int
        on_ok: str
        on_cancel: str
        on_yes: str
        on_no: str
        extra: tuple[str, ...] = ()

    class DialogEnd(DialogEndFields, DatagramRecord):
        """DG_DIALOG_END (108): modal focus on_ok on_cancel on_yes on_no extra"""

    class DialogReleaseFields(NamedTuple):
        extra: tuple[str, ...] = ()

    class DialogRelease(DialogReleaseFields, DatagramRecord):
        """DG_DIALOG_RELEASE (109): extra"""

    class PositionBegin2Fields(NamedTuple):
        gamenumber: int
        fen: str
        nmoves: int
        extra: tuple[str, ...] = ()

    class PositionBegin2(PositionBegin2Fields, DatagramRecord):
        """DG_POSITION_BEGIN2 (110): gamenumber fen nmoves extra"""

    class PastMoveFields(NamedTuple):
        gamenumber: int
        algebraic: str | None = None
        smith: str | None = None
        time: int | None = None
        clock: int | None = None
        variation: int | None = None
        extra: tuple[str, ...] = ()

    class PastMove(PastMoveFields, DatagramRecord):
        """DG_PAST_MOVE (111): gamenumber algebraic smith time clock variation extra"""

    class PgnTagFields(NamedTuple):
        gamenumber: int
        tag: str
        value: str
        extra: tuple[str, ...] = ()

    class PgnTag(PgnTagFields, DatagramRecord):
        """DG_PGN_TAG (112): gamenumber tag value extra"""

    class PasswordFields(NamedTuple):
        password: str
        handle: str
        extra: tuple[str, ...] = ()

    class Password(PasswordFields, DatagramRecord):
        """DG_PASSWORD (114): password handle extra"""

    class WildKeyFields(NamedTuple):
        index: int  # type: ignore[assignment]
        label: str
        extra: tuple[str, ...] = ()

    class WildKey(WildKeyFields, DatagramRecord):
        """DG_WILD_KEY (116): index label extra"""

    class SwitchServersFields(NamedTuple):
        server: str
        port: int
        ip: str
        extra: tuple[str, ...] = ()

    class SwitchServers(SwitchServersFields, DatagramRecord):
        """DG_SWITCH_SERVERS (120): server port ip extra"""

    class Set2Fields(NamedTuple):
        dg_code: int
        on: bool
        extra: tuple[str, ...] = ()

    class Set2(Set2Fields, DatagramRecord):
        """DG_SET2 (124): dg_code on extra"""

    class MugshotFields(NamedTuple):
        playername: str
        url: str
        gamenumber: int
        extra: tuple[str, ...] = ()

    class Mugshot(MugshotFields, DatagramRecord):
        """DG_MUGSHOT (128): playername url gamenumber extra"""

    class CommandFields(NamedTuple):
        command: str
        arguments: str
        extra: tuple[str, ...] = ()

    class Command(CommandFields, DatagramRecord):
        """DG_COMMAND (136): command arguments extra"""

    class TourneyGameStartedFields(NamedTuple):
        event_label: str
        white: str
        black: str
        id: int
        gamenumber: int
        extra: tuple[str, ...] = ()

    class TourneyGameStarted(TourneyGameStartedFields, DatagramRecord):
        """DG_TOURNEY_GAME_STARTED (137): event_label white black id gamenumber extra"""

    class TourneyGameEndedFields(NamedTuple):
        event_label: str
        white: str
        black: str
        id: int
        score: str
        extra: tuple[str, ...] = ()

    class TourneyGameEnded(TourneyGameEndedFields, DatagramRecord):
        """DG_TOURNEY_GAME_ENDED (138): event_label white black id score extra"""

    class MyTurnFields(NamedTuple):
        gamenumber: int
        extra: tuple[str, ...] = ()

    class MyTurn(MyTurnFields, DatagramRecord):
        """DG_MY_TURN (139): gamenumber extra"""

    class DisablePremoveFields(NamedTuple):
        gamenumber: int
        extra: tuple[str, ...] = ()

    class DisablePremove(DisablePremoveFields, DatagramRecord):
        """DG_DISABLE_PREMOVE (141): gamenumber extra"""

    class PstatFields(NamedTuple):
        initiated: int
        kind: int | None
        p1: str
        p2: str
        records: tuple[PstatRecord, ...]

    class Pstat(PstatFields, DatagramRecord):
        """DG_PSTAT (142): initiated kind p1 p2 records"""

    class BoardinfoFields(NamedTuple):
        gamenumber: int
        examiner: str
        type: int
        coord1: str
        coord2: str
        color: int
        extra: tuple[str, ...] = ()

    class Boardinfo(BoardinfoFields, DatagramRecord):
        """DG_BOARDINFO (143): gamenumber examiner type coord1 coord2 color extra"""

    class MoveLagFields(NamedTuple):
        playername: str
        lag: int
        extra: tuple[str, ...] = ()

    class MoveLag(MoveLagFields, DatagramRecord):
        """DG_MOVE_LAG (144): playername lag extra"""

else:  # the classes dgforms.py makes, by name
    from icswire.protocol.dgforms import record_getattr

    __getattr__ = record_getattr(__name__)
