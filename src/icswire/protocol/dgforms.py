"""The DG catalog: every level 2 datagram of icc-formats.txt, declared once, and the
record class of each (:mod:`icswire.protocol.datagrams` decodes and encodes them and
re-exports every name here).

Each documented form is one line of :data:`FORMS`: field names in spec order, each with a
kind and maybe a modifier. From that line this module builds the record class (an
immutable NamedTuple with those fields plus ``extra``), on first use.

Kinds
  ``i`` integer; ``b`` 0/1 flag (bool); ``f`` 0/1 flag that may be empty ``{}`` (None);
  ``w`` string sent bare when it is one word; ``s`` string always quoted ``{...}``;
  ``q`` string always quoted ``^Y{...^Y}`` (see :mod:`icswire.protocol.level2`);
  ``R`` the rating pairs of DG_PLAYER_ARRIVED, one (rating, annotation) pair per rating
  DG the receiver has on, in :data:`RATING_DGS` order; ``M`` DG_MOVE_LIST's braced moves;
  ``P`` DG_PSTAT's ``|``-separated records.
Modifiers
  ``@N`` present only when the receiver has DG N on (else None): DG_SEND_MOVES' parts
  (33-36, 113), DG_PLAYER_ARRIVED's titles/open/state/uid (9, 10, 11, 131), DG_MATCH's
  assessment (85);
  ``?`` a trailing field older servers leave out (None when absent);
  ``*`` the rest of the fields, as a tuple.

Type checkers see the record classes as ``dgrecords.py`` declares them (generated from
FORMS by :mod:`icswire.protocol.recordgen`); this module imports neither.
"""

from __future__ import annotations

import keyword
from collections import namedtuple
from collections.abc import Callable, Iterator, Mapping
from enum import IntEnum
from typing import TYPE_CHECKING, Any, ClassVar, NamedTuple


class DG(IntEnum):
    """Appendix 2's DG code numbers (``DG.SEND_MOVES`` is ``DG_SEND_MOVES``, 24)."""

    WHO_AM_I = 0
    PLAYER_ARRIVED = 1
    PLAYER_LEFT = 2
    BULLET = 3
    BLITZ = 4
    STANDARD = 5
    WILD = 6
    BUGHOUSE = 7
    TIMESTAMP = 8
    TITLES = 9
    OPEN = 10
    STATE = 11
    GAME_STARTED = 12
    GAME_RESULT = 13
    EXAMINED_GAME_IS_GONE = 14
    MY_GAME_STARTED = 15
    MY_GAME_RESULT = 16
    MY_GAME_ENDED = 17
    STARTED_OBSERVING = 18
    STOP_OBSERVING = 19
    PLAYERS_IN_MY_GAME = 20
    OFFERS_IN_MY_GAME = 21
    TAKEBACK = 22
    BACKWARD = 23
    SEND_MOVES = 24
    MOVE_LIST = 25
    KIBITZ = 26
    PEOPLE_IN_MY_CHANNEL = 27
    CHANNEL_TELL = 28
    MATCH = 29
    MATCH_REMOVED = 30
    PERSONAL_TELL = 31
    SHOUT = 32
    MOVE_ALGEBRAIC = 33
    MOVE_SMITH = 34
    MOVE_TIME = 35
    MOVE_CLOCK = 36
    BUGHOUSE_HOLDINGS = 37
    SET_CLOCK = 38
    FLIP = 39
    ISOLATED_BOARD = 40
    REFRESH = 41
    ILLEGAL_MOVE = 42
    MY_RELATION_TO_GAME = 43
    PARTNERSHIP = 44
    SEES_SHOUTS = 45
    CHANNELS_SHARED = 46
    MY_VARIABLE = 47
    MY_STRING_VARIABLE = 48
    JBOARD = 49
    SEEK = 50
    SEEK_REMOVED = 51
    MY_RATING = 52
    SOUND = 53
    PLAYER_ARRIVED_SIMPLE = 55
    MSEC = 56
    BUGHOUSE_PASS = 57
    IP = 58
    CIRCLE = 59
    ARROW = 60
    MORETIME = 61
    PERSONAL_TELL_ECHO = 62
    SUGGESTION = 63
    NOTIFY_ARRIVED = 64
    NOTIFY_LEFT = 65
    NOTIFY_OPEN = 66
    NOTIFY_STATE = 67
    MY_NOTIFY_LIST = 68
    LOGIN_FAILED = 69
    FEN = 70
    TOURNEY_MATCH = 71
    GAMELIST_BEGIN = 72
    GAMELIST_ITEM = 73
    IDLE = 74
    ACK_PING = 75
    RATING_TYPE_KEY = 76
    GAME_MESSAGE = 77
    UNACCENTED = 78
    STRINGLIST_BEGIN = 79
    STRINGLIST_ITEM = 80
    DUMMY_RESPONSE = 81
    CHANNEL_QTELL = 82
    PERSONAL_QTELL = 83
    SET_BOARD = 84
    MATCH_ASSESSMENT = 85
    LOG_PGN = 86
    NEW_MY_RATING = 87
    LOSERS = 88
    UNCIRCLE = 89
    UNARROW = 90
    WSUGGEST = 91
    TEMPORARY_PASSWORD = 93
    MESSAGELIST_BEGIN = 94
    MESSAGELIST_ITEM = 95
    LIST = 96
    SJI_AD = 97
    RETRACT = 99
    QRETRACT = 99  # the name the DG's own section uses
    MY_GAME_CHANGE = 100
    POSITION_BEGIN = 101
    TOURNEY = 103
    REMOVE_TOURNEY = 104
    DIALOG_START = 105
    DIALOG_DATA = 106
    DIALOG_DEFAULT = 107
    DIALOG_END = 108
    DIALOG_RELEASE = 109
    POSITION_BEGIN2 = 110
    PAST_MOVE = 111
    PGN_TAG = 112
    IS_VARIATION = 113
    PASSWORD = 114
    WILD_KEY = 116
    SWITCH_SERVERS = 120
    CRAZYHOUSE = 121  # documented in section 4, missing from Appendix 2
    SET2 = 124
    FIVEMINUTE = 125
    ONEMINUTE = 126
    MUGSHOT = 128
    TRANSLATIONOKAY = 129
    TRANSLATION_OKAY = 129  # the name the DG's own section uses
    UID = 131
    KNOWS_FISCHER_RANDOM = 132
    COMMAND = 136
    TOURNEY_GAME_STARTED = 137
    TOURNEY_GAME_ENDED = 138
    MY_TURN = 139
    CORRESPONDENCE_RATING = 140
    DISABLE_PREMOVE = 141
    PSTAT = 142
    BOARDINFO = 143
    MOVE_LAG = 144
    FIFTEENMINUTE = 145
    PHRASELIST_UPDATE = 146
    PHRASELIST_ITEM = 147
    MENU_SPEAK = 148
    THREEMINUTE = 149
    FORTYFIVEMINUTE = 150
    CHESS960 = 151

    @property
    def spec_name(self) -> str:
        """The spec's name, e.g. ``"DG_SEND_MOVES"``."""
        return "DG_" + self.name


#: The rating DGs, in the order DG_PLAYER_ARRIVED sends their pairs (DG_PLAYER_ARRIVED, 1).
RATING_DGS: tuple[int, ...] = (3, 4, 5, 6, 7, 88, 121, 125, 126, 140, 145, 149, 150, 151)
#: The variables that choose the parts of each move in DG_SEND_MOVES/DG_MOVE_LIST/DG_PAST_MOVE.
MOVE_PART_DGS: tuple[int, ...] = (33, 34, 35, 36, 113)


class Rating(NamedTuple):
    """One rating of DG_PLAYER_ARRIVED: the rating DG it belongs to, rating, annotation
    (0 no rating, 1 provisional, 2 established; DG_BULLET, 3)."""

    dg: int
    rating: int
    annotation: int


class MoveInfo(NamedTuple):
    """One move of DG_MOVE_LIST (25); each part is None unless its DG (33-36, 113) is on."""

    algebraic: str | None = None
    smith: str | None = None
    time: int | None = None
    clock: int | None = None
    variation: int | None = None


class PstatRecord(NamedTuple):
    """One ``|``-separated rating record of DG_PSTAT (142), from p1's point of view."""

    white_wins: int
    white_losses: int
    white_draws: int
    black_wins: int
    black_losses: int
    black_draws: int
    rating_number: int


_GAME = (
    "gamenumber:i whitename:w blackname:w wild_number:i rating_type:w rated:b"
    " white_initial:i white_increment:i black_initial:i black_increment:i played_game:b"
    " ex_string:s white_rating:i black_rating:i game_id:i? white_titles:s? black_titles:s?"
    " irregular_legality:b? irregular_semantics:b? uses_plunkers:b? fancy_timecontrol:w?"
    " promote_to_king:b?"
)
_RESULT = "gamenumber:i become_examined:b result_code:w score:w description:q eco:w?"
_ARRIVED = "playername:w ratings:R titles:s@9 open:b@10 state:w@11 state_game:i@11 uid:i@131"
_MOVE = "gamenumber:i algebraic:w@33 smith:w@34 time:i@35 clock:i@36 variation:i@113"
_RATING = "playername:w rating:i annotation:i"
_GAMENUMBER = "gamenumber:i"
_SUGGEST = "text:s priority:i suggester:w subject:s id:w"

#: Every documented form, by DG number (see the module docstring for the notation).
FORMS: dict[int, str] = {
    DG.WHO_AM_I: "myname:w titles:s",
    DG.PLAYER_ARRIVED: _ARRIVED,
    DG.PLAYER_LEFT: "playername:w",
    **{dg: _RATING for dg in RATING_DGS},
    DG.TIMESTAMP: "playername:w client:i",
    DG.TITLES: "playername:w titles:s",
    DG.OPEN: "playername:w open:b",
    DG.STATE: "playername:w state:w state_game:i",
    DG.GAME_STARTED: _GAME,
    DG.GAME_RESULT: _RESULT,
    DG.EXAMINED_GAME_IS_GONE: _GAMENUMBER,
    DG.MY_GAME_STARTED: _GAME,
    DG.MY_GAME_RESULT: _RESULT,
    DG.MY_GAME_ENDED: _GAMENUMBER,
    DG.STARTED_OBSERVING: _GAME,
    DG.STOP_OBSERVING: _GAMENUMBER,
    DG.PLAYERS_IN_MY_GAME: "gamenumber:i playername:w symbol:w kibitz:b",
    DG.OFFERS_IN_MY_GAME: (
        "gamenumber:i wdraw:b bdraw:b wadjourn:b badjourn:b wabort:b babort:b"
        " wtakeback:i btakeback:i"
    ),
    DG.TAKEBACK: "gamenumber:i count:i",
    DG.BACKWARD: "gamenumber:i count:i",
    DG.SEND_MOVES: _MOVE,
    DG.MOVE_LIST: "gamenumber:i initial_position:w moves:M",
    DG.KIBITZ: "gamenumber:i playername:w titles:s kibitz:b text:q",
    DG.PEOPLE_IN_MY_CHANNEL: "channel:i playername:w present:b",
    DG.CHANNEL_TELL: "channel:i playername:w titles:s text:q type:i",
    DG.MATCH: (
        "challenger:w challenger_rating:i challenger_annotation:i challenger_titles:s"
        " receiver:w receiver_rating:i receiver_annotation:i receiver_titles:s"
        " wild_number:i rating_type:w rated:b adjourned:b challenger_time:i"
        " challenger_increment:i receiver_time:i receiver_increment:i color_request:i"
        " assess_loss:i@85 assess_draw:i@85 assess_win:i@85 fancy_timecontrol:w?"
    ),
    DG.MATCH_REMOVED: "challenger:w receiver:w explanation:q",
    DG.PERSONAL_TELL: "playername:w titles:s text:q type:i",
    DG.SHOUT: "playername:w titles:s type:i text:q",
    DG.BUGHOUSE_HOLDINGS: "gamenumber:i white_holding:s black_holding:s",
    DG.SET_CLOCK: "gamenumber:i white_clock:i black_clock:i",
    DG.FLIP: "gamenumber:i flip:b",
    DG.ISOLATED_BOARD: _GAME,
    DG.REFRESH: _GAMENUMBER,
    DG.ILLEGAL_MOVE: "gamenumber:i move:w reason:i",
    DG.MY_RELATION_TO_GAME: "gamenumber:i symbol:w",
    DG.PARTNERSHIP: "name1:w name2:w forming:b",
    DG.SEES_SHOUTS: "playername:w bitvector:i",
    DG.CHANNELS_SHARED: "playername:w channels:i*",
    DG.MY_VARIABLE: "variable:w value:i",
    DG.MY_STRING_VARIABLE: "variable:w value:q",
    DG.JBOARD: (
        "board:w side_to_move:w double_push_file:i white_castle_short:b"
        " white_castle_long:b black_castle_short:b black_castle_long:b move_number:i"
        " algebraic:w smith:w white_clock:i black_clock:i status:i flip:b"
    ),
    DG.SEEK: (
        "index:i playername:w titles:s rating:i provisional:i wild_number:i rating_type:w"
        " time:i increment:i rated:b color:i minrating:i maxrating:i autoaccept:b"
        " formula:b fancy_timecontrol:w?"
    ),
    DG.SEEK_REMOVED: "index:i reason:i",
    DG.MY_RATING: "bullet:i blitz:i standard:i wild:i bughouse:i",
    DG.SOUND: "code:i",
    DG.PLAYER_ARRIVED_SIMPLE: "playername:w",
    DG.MSEC: "gamenumber:i color:w msec:i running:b",
    DG.BUGHOUSE_PASS: "gamenumber:i color:w piece:w",
    DG.CIRCLE: "gamenumber:i examiner:w square:w",
    DG.ARROW: "gamenumber:i examiner:w origin:w destination:w",
    DG.MORETIME: "gamenumber:i color:w seconds:i",
    DG.PERSONAL_TELL_ECHO: "receiver:w type:i text:q",
    DG.SUGGESTION: "command:s " + _SUGGEST,
    DG.NOTIFY_ARRIVED: _ARRIVED,
    DG.NOTIFY_LEFT: "playername:w",
    DG.NOTIFY_OPEN: "playername:w open:b",
    DG.NOTIFY_STATE: "playername:w state:w state_game:i",
    DG.MY_NOTIFY_LIST: "playername:w present:b",
    DG.LOGIN_FAILED: "code:i explanation:s",
    DG.FEN: "gamenumber:i fen:s",
    DG.GAMELIST_BEGIN: "command:w parameters:s nhits:i first:i last:i summary:s",
    DG.GAMELIST_ITEM: (
        "index:i id:i event:w date:w time:w white_name:w white_rating:w black_name:w"
        " black_rating:w rated:b rating_type:i wild_number:i white_initial:w"
        " white_increment:w black_initial:w black_increment:w eco:w status:i color:i"
        " mode:i note:w here:f?"
    ),
    DG.IDLE: "playername:w idle_time:i time_since_read:i",
    DG.ACK_PING: "playername:w lag:i mean:i variance:i",
    DG.RATING_TYPE_KEY: "index:i label:w",
    DG.GAME_MESSAGE: "gamenumber:i message:s",
    DG.STRINGLIST_BEGIN: "nhits:i description:s",
    DG.STRINGLIST_ITEM: "item:w",
    DG.DUMMY_RESPONSE: "",
    DG.CHANNEL_QTELL: "channel:i playername:w titles:s text:q",
    DG.PERSONAL_QTELL: "playername:w titles:s text:q",
    DG.SET_BOARD: "gamenumber:i board:w side_to_move:w",
    DG.LOG_PGN: "lines:q*",
    DG.NEW_MY_RATING: "ratings:i*",
    DG.UNCIRCLE: "gamenumber:i examiner:w square:w",
    DG.UNARROW: "gamenumber:i examiner:w origin:w destination:w",
    DG.WSUGGEST: "url:w " + _SUGGEST,
    DG.MESSAGELIST_BEGIN: "command:s",
    DG.MESSAGELIST_ITEM: "index:i sender:w time:w date:w message:q",
    DG.LIST: "header:s rowstart:s items:w*",
    DG.SJI_AD: "text:s",
    DG.RETRACT: "id:w",
    DG.MY_GAME_CHANGE: _GAME,
    DG.POSITION_BEGIN: "gamenumber:i fen:s nmoves:i",
    DG.TOURNEY: (
        "index:i bitfield:i description:s join_command:s watch_command:s? info_command:s?"
        " confirm_text:s?"
    ),
    DG.REMOVE_TOURNEY: "index:i",
    DG.DIALOG_START: "size:i",
    DG.DIALOG_DATA: "data:w",
    DG.DIALOG_DEFAULT: "control:i type:w value:s",
    DG.DIALOG_END: "modal:b focus:i on_ok:s on_cancel:s on_yes:s on_no:s",
    DG.DIALOG_RELEASE: "",
    DG.POSITION_BEGIN2: "gamenumber:i fen:s nmoves:i",
    DG.PAST_MOVE: _MOVE,
    DG.PGN_TAG: "gamenumber:i tag:w value:s",
    DG.PASSWORD: "password:w handle:w",
    DG.WILD_KEY: "index:i label:s",
    DG.SWITCH_SERVERS: "server:w port:i ip:w",
    DG.SET2: "dg_code:i on:b",
    DG.MUGSHOT: "playername:w url:w gamenumber:i",
    DG.COMMAND: "command:w arguments:s",
    DG.TOURNEY_GAME_STARTED: "event_label:s white:w black:w id:i gamenumber:i",
    DG.TOURNEY_GAME_ENDED: "event_label:s white:w black:w id:i score:w",
    DG.MY_TURN: _GAMENUMBER,
    DG.DISABLE_PREMOVE: _GAMENUMBER,
    DG.PSTAT: "initiated:i kind:i? p1:w p2:w records:P",  # see _pstat_without_kind
    DG.BOARDINFO: "gamenumber:i examiner:w type:i coord1:w coord2:w color:i",
    DG.MOVE_LAG: "playername:w lag:i",
}


class Field(NamedTuple):
    """One field of a form: name, kind letter, and its modifier."""

    name: str
    kind: str
    when: int | None = None  # @N: present only when DG N is on
    optional: bool = False  # ?: may be missing at the end
    repeated: bool = False  # *: the rest of the fields

    @property
    def may_be_absent(self) -> bool:
        """Whether a record may hold None here: the field is sent only when DG ``when``
        is on, or older servers leave it out."""
        return self.when is not None or self.optional


#: Names a record has besides its fields: no field may take one.
RESERVED_NAMES = frozenset({"dg", "spec_name", "form", "raw", "extra"})


def parse_form(form: str) -> tuple[Field, ...]:
    """Read one :data:`FORMS` line into its fields."""
    fields = []
    for item in form.split():
        name, _, spec = item.partition(":")
        kind, mod = spec[:1], spec[1:]
        if (
            not kind
            or kind not in "ibfwsqRMP"
            or not name.isidentifier()
            or keyword.iskeyword(name)
            or name in RESERVED_NAMES
        ):
            raise ValueError(f"bad field {item!r}")
        when = int(mod[1:]) if mod.startswith("@") else None
        fields.append(Field(name, kind, when, mod == "?", mod == "*" or kind in "MP"))
    return tuple(fields)


class DatagramRecord(tuple):  # type: ignore[type-arg]
    """Base of every datagram record: a NamedTuple with ``dg`` and ``spec_name`` on its class.

    Records are immutable and compare by value; ``record._asdict()`` gives the fields by
    name, and ``extra`` holds fields after the documented ones as wire tokens. ``raw`` is
    None, or for a record the decoder read from a non-canonical datagram, its wire bytes,
    which :func:`encode_datagram` then gives back. It is not a field: it takes no part in
    comparisons, and a record made anew (``_replace``, ``_make``) has none.
    """

    __slots__ = ()
    raw: bytes | None = None
    dg: ClassVar[int]
    spec_name: ClassVar[str]
    form: ClassVar[tuple[Field, ...]]

    if TYPE_CHECKING:

        def _asdict(self) -> dict[str, Any]: ...


def record_class_name(dg: int) -> str:
    """``SendMoves`` for DG_SEND_MOVES: the record class's name."""
    return "".join(part.capitalize() for part in DG(dg).name.split("_"))


def _make_record_class(dg: int, form: tuple[Field, ...]) -> type[DatagramRecord]:
    names = [f.name for f in form]
    defaults: list[Any] = []
    for f in reversed(form):  # None for the fields that may be absent, at the end
        if not f.may_be_absent:
            break
        defaults.append(None)
    if not any(f.repeated for f in form):
        names.append("extra")
        defaults.append(())
    name = record_class_name(dg)
    base = namedtuple(name + "Fields", names, defaults=defaults)  # type: ignore[misc]
    namespace = {  # no __slots__: an instance may hold its wire bytes as ``raw``
        "__doc__": f"DG_{DG(dg).name} ({dg}): " + " ".join(names),
        "dg": dg,
        "spec_name": "DG_" + DG(dg).name,
        "form": form,
    }
    return type(name, (base, DatagramRecord), namespace)


class _Records(Mapping[int, type[DatagramRecord]]):
    """The record class of every DG of :data:`FORMS`, by number, each made on first use
    (making all 120 at import would cost more than the rest of the import)."""

    def __init__(self) -> None:
        self._made: dict[int, type[DatagramRecord]] = {}

    def __getitem__(self, dg: int) -> type[DatagramRecord]:
        cls = self._made.get(dg)
        if cls is None:  # setdefault: one class per DG, even if two threads make one
            cls = self._made.setdefault(dg, _make_record_class(dg, parse_form(FORMS[dg])))
        return cls

    def __contains__(self, dg: object) -> bool:
        return dg in FORMS

    def __iter__(self) -> Iterator[int]:
        return iter(FORMS)

    def __len__(self) -> int:
        return len(FORMS)


#: Record class of every documented DG, by number.
RECORDS: Mapping[int, type[DatagramRecord]] = _Records()


def record_getattr(module: str) -> Callable[[str], type[DatagramRecord]]:
    """A module ``__getattr__`` (PEP 562) that gives the record classes by name
    (``datagrams.SendMoves``, ``dgrecords.Msec`` ...), made from :data:`FORMS` on first use;
    dgrecords.py declares them for type checkers."""
    by_name: dict[str, int] = {}

    def __getattr__(name: str) -> type[DatagramRecord]:
        if not by_name:
            by_name.update((record_class_name(dg), dg) for dg in FORMS)
        try:
            return RECORDS[by_name[name]]
        except KeyError:
            raise AttributeError(f"module {module!r} has no attribute {name!r}") from None

    return __getattr__
