"""Code tables of level 2 DGs (icc-formats.txt section 4).

Small integers and letters that DG fields carry, with their meanings as the spec lists them:
game results (DG_GAMELIST_ITEM), login failures, illegal-move reasons, sounds, seek removals,
variation kinds, board artwork, tourney flags, player states, game relations and titles, plus
the byte encoding of DG_DIALOG_DATA.
"""

import re
from enum import IntEnum, IntFlag, StrEnum
from typing import NamedTuple

__all__ = [
    "GAME_RESULTS",
    "ILLEGAL_MOVE_TEXTS",
    "LOGIN_FAILED_TEXTS",
    "TITLES",
    "AbortMode",
    "AdjournMode",
    "BoardInfoColor",
    "BoardInfoType",
    "DrawMode",
    "GameRelation",
    "GameResultCode",
    "IllegalMoveReason",
    "IsVariation",
    "LoginFailed",
    "PlayerState",
    "ResultCode",
    "ResultStatus",
    "SeekRemovedReason",
    "Sound",
    "TourneyFlag",
    "UnknownResultError",
    "WinMode",
    "decode_dialog_data",
    "describe_result",
    "encode_dialog_data",
    "login_failed_text",
]


class ResultStatus(IntEnum):
    """The status field of DG_GAMELIST_ITEM (73): how a game ended."""

    WIN = 0
    DRAW = 1
    ADJOURNED = 2
    ABORTED = 3


class WinMode(IntEnum):
    """DG_GAMELIST_ITEM (73) modes of status 0 (a win); ``color`` is the side that lost."""

    RESIGNS = 0
    CHECKMATED = 1
    FORFEITS_ON_TIME = 2
    ADJUDICATED = 3
    DISCONNECTED = 4
    GOT_DISCONNECTED = 5
    GUEST_DISCONNECTED = 6  # an unregistered player disconnected
    PARTNER_RESIGNS = 7
    PARTNER_CHECKMATED = 8
    PARTNER_FORFEITS_ON_TIME = 9
    PARTNER_DISCONNECTED = 10
    DISCONNECTED_OBSOLETE = 11  # the spec: "[obsolete?]"
    WINS = 12  # "specific reason unknown"


class DrawMode(IntEnum):
    """DG_GAMELIST_ITEM (73) modes of status 1 (a draw)."""

    AGREEMENT = 0
    STALEMATE = 1
    REPETITION = 2
    FIFTY_MOVES = 3
    TIME_AND_NO_MATERIAL = 4  # ``color`` ran out of time, the other side cannot mate
    NO_MATERIAL = 5
    BOTH_OUT_OF_TIME = 6
    ADJUDICATED = 7
    PARTNER_AGREEMENT = 8
    PARTNER_BOTH_OUT_OF_TIME = 9
    DRAWN = 10  # "specific reason unknown"


class AdjournMode(IntEnum):
    """DG_GAMELIST_ITEM (73) modes of status 2 (adjourned)."""

    AGREEMENT = 0
    DISCONNECTED = 1
    SHUTDOWN = 2
    COURTESY = 3
    ADMINISTRATOR = 4
    GOT_DISCONNECTED = 5


class AbortMode(IntEnum):
    """DG_GAMELIST_ITEM (73) modes of status 3 (aborted)."""

    AGREEMENT = 0
    DISCONNECTED = 1
    SHUTDOWN = 2
    COURTESY = 3
    ADMINISTRATOR = 4
    TOO_SHORT_TO_ADJOURN = 5
    PARTNER_DISCONNECTED = 6
    AT_MOVE_1 = 7
    PARTNER_AT_MOVE_1 = 8
    TOO_SHORT = 9
    ACCOUNT_EXPIRED = 10
    GOT_DISCONNECTED = 11
    NO_RESULT = 12  # "specific reason unknown"


class ResultCode(StrEnum):
    """The short result codes of ``history`` output, in DG_GAMELIST_ITEM's (73) table."""

    RESIGNS = "Res"
    CHECKMATED = "Mat"
    FORFEITS_ON_TIME = "Fla"
    ADJUDICATED = "Adj"
    DISCONNECTED = "BQ"  # a player disconnected: a forfeit, or an abort
    WHITE_WINS = "1-0"
    AGREEMENT = "Agr"
    STALEMATE = "Sta"
    REPETITION = "Rep"
    FIFTY_MOVES = "50"
    TIME_AND_NO_MATERIAL = "TM"
    NO_MATERIAL = "NM"
    BOTH_OUT_OF_TIME = "NT"
    DRAWN = "1/2"
    UNFINISHED = "?"  # adjourned, or no result
    SHUTDOWN = "SD"
    COURTESY = "BA"
    TOO_SHORT = "Sho"


class GameResultCode(NamedTuple):
    """One (status, mode) pair of DG_GAMELIST_ITEM (73).

    ``code`` is the short code of ``history`` output (a :class:`ResultCode`'s value);
    ``text`` is written for color 0 (Black is the side that lost or acted), as in the spec,
    without its bracketed editorial remarks such as "[obsolete?]" and "[specific reason
    unknown]".
    """

    status: int
    mode: int
    code: str
    text: str


_W, _D, _A, _X, _C = WinMode, DrawMode, AdjournMode, AbortMode, ResultCode
_RESULT_ROWS: tuple[tuple[ResultStatus, int, ResultCode, str], ...] = (
    (ResultStatus.WIN, _W.RESIGNS, _C.RESIGNS, "Black resigns"),
    (ResultStatus.WIN, _W.CHECKMATED, _C.CHECKMATED, "Black checkmated"),
    (ResultStatus.WIN, _W.FORFEITS_ON_TIME, _C.FORFEITS_ON_TIME, "Black forfeits on time."),
    (ResultStatus.WIN, _W.ADJUDICATED, _C.ADJUDICATED, "White declared the winner by adjudication"),
    (ResultStatus.WIN, _W.DISCONNECTED, _C.DISCONNECTED, "Black disconnected and forfeits"),
    (ResultStatus.WIN, _W.GOT_DISCONNECTED, _C.DISCONNECTED, "Black got disconnected and forfeits"),
    (
        ResultStatus.WIN,
        _W.GUEST_DISCONNECTED,
        _C.DISCONNECTED,
        "Unregistered player Black disconnected and forfeits",
    ),
    (ResultStatus.WIN, _W.PARTNER_RESIGNS, _C.RESIGNS, "Black's partner resigns"),
    (ResultStatus.WIN, _W.PARTNER_CHECKMATED, _C.CHECKMATED, "Black's partner checkmated"),
    (
        ResultStatus.WIN,
        _W.PARTNER_FORFEITS_ON_TIME,
        _C.FORFEITS_ON_TIME,
        "Black's partner forfeits on time",
    ),
    (
        ResultStatus.WIN,
        _W.PARTNER_DISCONNECTED,
        _C.DISCONNECTED,
        "Black's partner disconnected and forfeits",
    ),
    (
        ResultStatus.WIN,
        _W.DISCONNECTED_OBSOLETE,
        _C.DISCONNECTED,
        "Black disconnected and forfeits",
    ),
    (ResultStatus.WIN, _W.WINS, _C.WHITE_WINS, "White wins"),
    (ResultStatus.DRAW, _D.AGREEMENT, _C.AGREEMENT, "Game drawn by mutual agreement"),
    (ResultStatus.DRAW, _D.STALEMATE, _C.STALEMATE, "Black stalemated"),
    (ResultStatus.DRAW, _D.REPETITION, _C.REPETITION, "Game drawn by repetition"),
    (ResultStatus.DRAW, _D.FIFTY_MOVES, _C.FIFTY_MOVES, "Game drawn by the 50 move rule"),
    (
        ResultStatus.DRAW,
        _D.TIME_AND_NO_MATERIAL,
        _C.TIME_AND_NO_MATERIAL,
        "Black ran out of time and White has no material to mate",
    ),
    (
        ResultStatus.DRAW,
        _D.NO_MATERIAL,
        _C.NO_MATERIAL,
        "Game drawn because neither player has mating material",
    ),
    (
        ResultStatus.DRAW,
        _D.BOTH_OUT_OF_TIME,
        _C.BOTH_OUT_OF_TIME,
        "Game drawn because both players ran out of time",
    ),
    (ResultStatus.DRAW, _D.ADJUDICATED, _C.ADJUDICATED, "Game drawn by adjudication"),
    (
        ResultStatus.DRAW,
        _D.PARTNER_AGREEMENT,
        _C.AGREEMENT,
        "Partner's game drawn by mutual agreement",
    ),
    (
        ResultStatus.DRAW,
        _D.PARTNER_BOTH_OUT_OF_TIME,
        _C.BOTH_OUT_OF_TIME,
        "Partner's game drawn because both players ran out of time",
    ),
    (ResultStatus.DRAW, _D.DRAWN, _C.DRAWN, "Game drawn"),
    (ResultStatus.ADJOURNED, _A.AGREEMENT, _C.UNFINISHED, "Game adjourned by mutual agreement"),
    (
        ResultStatus.ADJOURNED,
        _A.DISCONNECTED,
        _C.UNFINISHED,
        "Game adjourned when Black disconnected",
    ),
    (ResultStatus.ADJOURNED, _A.SHUTDOWN, _C.UNFINISHED, "Game adjourned by system shutdown"),
    (ResultStatus.ADJOURNED, _A.COURTESY, _C.UNFINISHED, "Game courtesyadjourned by Black"),
    (
        ResultStatus.ADJOURNED,
        _A.ADMINISTRATOR,
        _C.UNFINISHED,
        "Game adjourned by an administrator",
    ),
    (
        ResultStatus.ADJOURNED,
        _A.GOT_DISCONNECTED,
        _C.UNFINISHED,
        "Game adjourned when Black got disconnected",
    ),
    (ResultStatus.ABORTED, _X.AGREEMENT, _C.AGREEMENT, "Game aborted by mutual agreement"),
    (
        ResultStatus.ABORTED,
        _X.DISCONNECTED,
        _C.DISCONNECTED,
        "Game aborted when Black disconnected",
    ),
    (ResultStatus.ABORTED, _X.SHUTDOWN, _C.SHUTDOWN, "Game aborted by system shutdown"),
    (ResultStatus.ABORTED, _X.COURTESY, _C.COURTESY, "Game courtesyaborted by Black"),
    (ResultStatus.ABORTED, _X.ADMINISTRATOR, _C.ADJUDICATED, "Game aborted by an administrator"),
    (
        ResultStatus.ABORTED,
        _X.TOO_SHORT_TO_ADJOURN,
        _C.TOO_SHORT,
        "Game aborted because it's too short to adjourn",
    ),
    (
        ResultStatus.ABORTED,
        _X.PARTNER_DISCONNECTED,
        _C.DISCONNECTED,
        "Game aborted when Black's partner disconnected",
    ),
    (ResultStatus.ABORTED, _X.AT_MOVE_1, _C.TOO_SHORT, "Game aborted by Black at move 1"),
    (
        ResultStatus.ABORTED,
        _X.PARTNER_AT_MOVE_1,
        _C.TOO_SHORT,
        "Game aborted by Black's partner at move 1",
    ),
    (ResultStatus.ABORTED, _X.TOO_SHORT, _C.TOO_SHORT, "Game aborted because it's too short"),
    (
        ResultStatus.ABORTED,
        _X.ACCOUNT_EXPIRED,
        _C.ADJUDICATED,
        "Game aborted because Black's account expired",
    ),
    (
        ResultStatus.ABORTED,
        _X.GOT_DISCONNECTED,
        _C.DISCONNECTED,
        "Game aborted when Black got disconnected",
    ),
    (ResultStatus.ABORTED, _X.NO_RESULT, _C.UNFINISHED, "No result"),
)

GAME_RESULTS: dict[tuple[int, int], GameResultCode] = {
    (status, mode): GameResultCode(status, int(mode), code.value, text)
    for status, mode, code, text in _RESULT_ROWS
}
"""DG_GAMELIST_ITEM (73) results by (status, mode), texts for color 0 (Black)."""

_COLOR_WORD = re.compile(r"\b(Black|White)\b")


class UnknownResultError(ValueError, KeyError):
    """A (status, mode) pair that DG_GAMELIST_ITEM (73) does not list."""

    __str__ = ValueError.__str__


def describe_result(status: int, mode: int, color: int) -> GameResultCode:
    """The result of DG_GAMELIST_ITEM (73) fields status, mode and color.

    Color is the side that lost (status 0) or acted: 0 Black, 1 White. For color 1 the words
    Black and White of the spec's text are swapped.

    >>> describe_result(0, 1, 1).text
    'White checkmated'
    """
    try:
        result = GAME_RESULTS[status, mode]
    except KeyError:
        raise UnknownResultError(f"unknown game result: status {status}, mode {mode}") from None
    if color not in (0, 1):
        raise ValueError(f"color must be 0 (Black) or 1 (White), not {color}")
    if color == 0:
        return result
    swapped = _COLOR_WORD.sub(lambda m: "White" if m[1] == "Black" else "Black", result.text)
    return result._replace(text=swapped)


class LoginFailed(IntEnum):
    """The code of DG_LOGIN_FAILED (69).

    The spec gives codes 10 and 13 the same text and does not say how they differ.
    """

    REGISTER_ON_MAIN_SERVER = 1
    NAME_TOO_LONG = 2
    NAME_TOO_SHORT = 3
    NAME_NOT_ALPHANUMERIC = 4
    REGISTERED_NAME = 5
    UNREGISTERED_NAME_WITH_PASSWORD = 6
    """Spec: "[and you gave a password]"."""
    UNREGISTERED_NAME_FILTERED = 7
    """Spec: "[n filtered]"."""
    UNREGISTERED_NAME_MAY_ENTER = 8
    """Spec: "[but okay, hit return to enter]"."""
    EMPTY_PASSWORD = 9
    """Spec: "[user typed null password]"."""
    SOMETHING_WRONG = 10
    INVALID_PASSWORD = 11
    BANNED = 12
    SOMETHING_WRONG_13 = 13
    ALREADY_LOGGED_IN = 14
    TRIAL_EXPIRED = 15
    NO_NEW_ACCOUNTS_HERE = 16
    REGISTERED_ONLY = 17
    REGISTERED_ONLY_QUEUE = 18
    """Spec: "[full, no unregs allowed on queue]"."""
    SERVER_FULL = 19
    """Spec: "[quota]"."""
    QUEUED = 20
    REGISTER_ON_WEB = 21
    RESTRICTED_ACCOUNT = 22


LOGIN_FAILED_TEXTS: dict[LoginFailed, str] = {
    LoginFailed.REGISTER_ON_MAIN_SERVER: (
        "To register, please connect to the main server (chessclub.com)."
    ),
    LoginFailed.NAME_TOO_LONG: "Sorry, names may be at most 15 characters long. Try again.",
    LoginFailed.NAME_TOO_SHORT: "A name should be at least two characters long! Try again.",
    LoginFailed.NAME_NOT_ALPHANUMERIC: (
        "Sorry, a name must begin with a letter and consist of letters and digits. Try again."
    ),
    LoginFailed.REGISTERED_NAME: "{name} is a registered name. If it is yours, type the password.",
    LoginFailed.UNREGISTERED_NAME_WITH_PASSWORD: "{name} is not a registered name.",
    LoginFailed.UNREGISTERED_NAME_FILTERED: "{name} is not a registered name.",
    LoginFailed.UNREGISTERED_NAME_MAY_ENTER: "{name} is not a registered name.",
    LoginFailed.EMPTY_PASSWORD: "Try again.",
    LoginFailed.SOMETHING_WRONG: "Something is wrong.",
    LoginFailed.INVALID_PASSWORD: "Invalid password.",
    LoginFailed.BANNED: "The administrators have banned you from using this chess server.",
    LoginFailed.SOMETHING_WRONG_13: "Something is wrong.",
    LoginFailed.ALREADY_LOGGED_IN: "{name}, whose name matches yours, is already logged in. Sorry.",
    LoginFailed.TRIAL_EXPIRED: "StratLabs client trial expired.",
    LoginFailed.NO_NEW_ACCOUNTS_HERE: (
        "Sorry, but this server cannot process account renewals or new accounts. Please connect"
        " to the main ICC server, chessclub.com, in order to activate your membership"
    ),
    LoginFailed.REGISTERED_ONLY: "The chess server is currently only admitting registered players.",
    LoginFailed.REGISTERED_ONLY_QUEUE: (
        "The chess server is currently only admitting registered players."
    ),
    LoginFailed.SERVER_FULL: "The chess server is full.",
    LoginFailed.QUEUED: "You have entered the queue. Your current position is {position}.",
    LoginFailed.REGISTER_ON_WEB: "To register, please use our web page www.chessclub.com/register.",
    LoginFailed.RESTRICTED_ACCOUNT: (
        "The {name} account is restricted to using Blitzin and only on one particular computer."
    ),
}
"""Explanation strings of DG_LOGIN_FAILED (69), templates for ``str.format``."""


def login_failed_text(code: int, name: str = "", position: int = 0) -> str:
    """The explanation string of DG_LOGIN_FAILED (69) code, filled in.

    >>> login_failed_text(20, position=3)
    'You have entered the queue. Your current position is 3.'
    """
    try:
        template = LOGIN_FAILED_TEXTS[LoginFailed(code)]
    except ValueError:
        raise ValueError(f"unknown DG_LOGIN_FAILED code: {code}") from None
    return template.format(name=name, position=position)


class IllegalMoveReason(IntEnum):
    """The reason code of DG_ILLEGAL_MOVE (42)."""

    BAD_NOTATION = 1
    ILLEGAL = 2
    KING_IN_CHECK = 3
    NOT_YOUR_MOVE = 4
    PIECE_NOT_HELD = 5
    DROP_SQUARE_OCCUPIED = 6
    PAWN_DROP_ON_BACK_RANK = 7
    WILD_RESTRICTION = 8
    EXAMINE_TOO_FAST = 9
    LOST_ON_TIME = 10


ILLEGAL_MOVE_TEXTS: dict[IllegalMoveReason, str] = {
    IllegalMoveReason.BAD_NOTATION: "Bad or ambiguous notation",
    IllegalMoveReason.ILLEGAL: "Illegal (covers most of rules of chess)",
    IllegalMoveReason.KING_IN_CHECK: "King in check (don't ask why this is singled out)",
    IllegalMoveReason.NOT_YOUR_MOVE: "Not your move",
    IllegalMoveReason.PIECE_NOT_HELD: ("Bughouse and don't have the piece you're trying to drop"),
    IllegalMoveReason.DROP_SQUARE_OCCUPIED: "Bughouse and drop-square isn't empty",
    IllegalMoveReason.PAWN_DROP_ON_BACK_RANK: (
        "Bughouse and pawn drop attempted on first or eighth rank"
    ),
    IllegalMoveReason.WILD_RESTRICTION: "Special restriction in some future wild game type",
    IllegalMoveReason.EXAMINE_TOO_FAST: "Wait a few seconds before entering moves in examine mode",
    IllegalMoveReason.LOST_ON_TIME: "You lost on time before making that move",
}
"""Descriptions of the DG_ILLEGAL_MOVE (42) reason codes, as the spec gives them."""


class Sound(IntEnum):
    """The code of DG_SOUND (53), the reason for a bell. Codes 9 to 15 are "not used yet"."""

    BELL = 0
    HELLO = 1
    GOODBYE = 2
    GNOTIFY = 3
    CHALLENGE = 4
    OFFER = 5
    START = 6
    END = 7
    MOVE = 8
    USER_MOVE = 9
    OPPONENT_MOVE = 10
    OBSERVED_MOVE = 11
    CHECK = 12
    END_WIN = 13
    END_LOSS = 14
    OBSERVED_START = 15


class SeekRemovedReason(IntEnum):
    """The reason code of DG_SEEK_REMOVED (51)."""

    SEEKER_LEFT = 1
    SEEKER_PLAYING = 2
    SEEKER_REMOVED_AD = 3
    SEEKER_REPLACED_AD = 4
    SEEKER_NOT_AVAILABLE = 5


class IsVariation(IntEnum):
    """The is-variation field that DG_IS_VARIATION (113) appends to DG_SEND_MOVES (24).

    The spec marks 4 to 6 "Not implemented yet".
    """

    MOVE_INITIAL = 0
    MOVE_PLAYED = 1
    MOVE_FORWARD = 2
    MOVE_EXAMINE = 3
    MOVE_OVERWRITE = 4
    MOVE_MAINLINE = 5
    MOVE_SIDELINE = 6


class BoardInfoType(IntEnum):
    """The type field of DG_BOARDINFO (143), a lecture mark in an examined game."""

    CLEAR_ALL = 0
    UNDO = 1
    ARROW = 4
    RECTANGLE = 5
    HIGHLIGHT = 6
    THROBBING_PIECES = 7
    GHOST_PIECES = 8


class BoardInfoColor(IntEnum):
    """The color field of DG_BOARDINFO (143)."""

    BLACK = 0
    RED = 1
    ORANGE = 2
    YELLOW = 3
    LIGHT_GREEN = 4
    DARK_GREEN = 5
    LIGHT_BLUE = 6
    DARK_BLUE = 7
    PINK = 8
    WHITE = 9


class TourneyFlag(IntFlag):
    """The bitfield of DG_TOURNEY (103)."""

    GUESTS_MAY_JOIN = 1
    """Guests can perhaps watch and/or join."""
    NO_JOIN_WINDOW = 2
    """Don't make a new window when sending the join commands."""
    NO_WATCH_WINDOW = 4
    """Don't make a new window when sending the watch commands."""
    NO_INFO_WINDOW = 8
    """Don't make a new window when sending the info commands."""


class PlayerState(StrEnum):
    """The state field of DG_STATE (11)."""

    PLAYING = "P"
    EXAMINING = "E"
    PLAYING_SIMUL = "S"
    NONE = "X"


class GameRelation(StrEnum):
    """The symbol of DG_PLAYERS_IN_MY_GAME (20) and DG_MY_RELATION_TO_GAME (43)."""

    OBSERVING = "O"
    PLAYING_WHITE = "PW"
    PLAYING_BLACK = "PB"
    SIMUL_WHITE = "SW"
    SIMUL_BLACK = "SB"
    EXAMINING = "E"
    NONE = "X"


TITLES: dict[str, str] = {
    "GM": "grandmaster",
    "IM": "international master",
    "FM": "FIDE master",
    "WGM": "woman grandmaster",
    "WIM": "woman international master",
    "WFM": "woman FIDE master",
    "TD": "tournament director",
    "C": "computer",
    "U": "unregistered",
    "*": "administrator",
    "DM": "display master",
    "H": "helper",
}
"""The titles that DGs carry in a titles field such as ``{GM TD}``, with their meanings."""

_DIALOG_LETTERS = "abcdefghijklmnop"


def encode_dialog_data(data: bytes) -> str:
    """Encode bytes for DG_DIALOG_DATA (106): byte n becomes 'a' + (n >> 4), 'a' + (n & 0x0f).

    >>> encode_dialog_data(b"\\x00\\x1f")
    'aabp'
    """
    return "".join(_DIALOG_LETTERS[n >> 4] + _DIALOG_LETTERS[n & 0x0F] for n in data)


def decode_dialog_data(text: str) -> bytes:
    """Decode the text of DG_DIALOG_DATA (106), two letters a..p per byte.

    >>> decode_dialog_data("aabp")
    b'\\x00\\x1f'
    """
    if len(text) % 2:
        raise ValueError(f"DG_DIALOG_DATA has an odd number of characters: {len(text)}")
    bad = next((c for c in text if c not in _DIALOG_LETTERS), None)
    if bad is not None:
        raise ValueError(f"DG_DIALOG_DATA character {bad!r} is not one of a..p")
    nibbles = [ord(c) - ord("a") for c in text]
    return bytes(hi << 4 | lo for hi, lo in zip(nibbles[::2], nibbles[1::2], strict=True))
