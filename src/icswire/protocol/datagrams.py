"""The DG catalog: every level 2 datagram of icc-formats.txt, declared once.

Each documented form is one line of :data:`FORMS`: field names in spec order, each with a
kind and maybe a modifier. From that line this module builds the record class (an
immutable NamedTuple with those fields plus ``extra``), and, for each combination of the
receiver's settings that changes the form, a decoder and an encoder.

Kinds
  ``i`` integer; ``b`` 0/1 flag (bool); ``f`` 0/1 flag that may be empty ``{}`` (None);
  ``w`` string sent bare when it is one word; ``s`` string always quoted ``{...}``;
  ``q`` string always quoted ``^Y{...^Y}`` (see :mod:`icswire.protocol.level2`);
  ``R`` the rating pairs of DG_PLAYER_ARRIVED, one (rating, annotation) pair per rating
  DG the receiver has on, in :data:`RATING_DGS` order; ``M`` DG_MOVE_LIST's braced moves;
  ``P`` DG_PSTAT's ``|``-separated records.
Modifiers
  ``@N`` present only when the receiver has DG N on (else None): DG_SEND_MOVES' parts
  (33-36, 113), DG_PLAYER_ARRIVED's open/state/uid (10, 11, 131), DG_MATCH's assessment (85);
  ``?`` a trailing field older servers leave out (None when absent);
  ``*`` the rest of the fields, as a tuple.

Type checkers see the record classes as ``dgrecords.py`` declares them (generated from
FORMS by :mod:`icswire.protocol.recordgen`).

Fields after the documented ones are kept, as they stood on the wire, in ``extra``.
DG numbers whose form the spec does not document decode to :class:`UnknownDatagram`.
A record decoded from a datagram written otherwise than :func:`encode_datagram` writes it
(two blanks, other quotes, ``007`` for ``7``) keeps the wire bytes in ``raw``.
"""

from __future__ import annotations

import keyword
import re
from collections import namedtuple
from collections.abc import Callable, Iterable, Iterator, Mapping
from collections.abc import Set as AbstractSet
from enum import IntEnum
from typing import TYPE_CHECKING, Any, ClassVar, NamedTuple

from icswire.protocol.level2 import frame, quote_brace, quote_ctrl, quote_word, split_fields

if TYPE_CHECKING:  # the record classes, made below from FORMS (see dgrecords.py)
    from icswire.protocol.dgrecords import *  # noqa: F403


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
_ARRIVED = "playername:w ratings:R open:b@10 state:w@11 state_game:i@11 uid:i@131"
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


class _UnknownFields(NamedTuple):
    dg: int
    fields: tuple[str, ...] = ()


class UnknownDatagram(_UnknownFields):
    """A DG whose form the spec does not document (or a number it does not list):
    its number and its fields as wire tokens (quotes included), so it re-encodes exactly;
    ``raw`` as for :class:`DatagramRecord` (blanks other than single spaces)."""

    raw: bytes | None = None

    @property
    def spec_name(self) -> str:
        try:
            return DG(self.dg).spec_name
        except ValueError:
            return f"DG_{self.dg}"


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


def record_as(dg: int, record: DatagramRecord) -> DatagramRecord:
    """``record``'s fields as a ``dg`` record, a DG of the same form: build a
    DG_GAME_STARTED (or DG_BULLET) record, which type checkers check field by field, and
    send it as DG_MY_GAME_STARTED, DG_STARTED_OBSERVING ... (or as another rating DG)."""
    if FORMS.get(dg) != FORMS[record.dg]:
        raise ValueError(f"DG {dg} does not have the form of {record.spec_name}")
    return tuple.__new__(RECORDS[dg], record)


_DG_OF_CLASS_NAME: dict[str, int] = {}


if not TYPE_CHECKING:  # they see the classes of dgrecords.py, and a misspelt name

    def __getattr__(name: str) -> type[DatagramRecord]:
        """The record classes by name (``datagrams.SendMoves``, ``datagrams.Msec`` ...),
        made from :data:`FORMS` on first use; dgrecords.py declares them for type checkers.
        """
        if not _DG_OF_CLASS_NAME:
            _DG_OF_CLASS_NAME.update((record_class_name(dg), dg) for dg in FORMS)
        try:
            return RECORDS[_DG_OF_CLASS_NAME[name]]
        except KeyError:
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}") from None


def __dir__() -> list[str]:
    return sorted([*globals(), *(record_class_name(dg) for dg in FORMS)])


_FLAGS = {"0": False, "1": True}
_OPTIONAL_FLAGS = {"0": False, "1": True, "": None}
_SCALAR_DECODE = {"i": "int({})", "b": "_FLAGS[{}]", "f": "_OPTIONAL_FLAGS[{}]"}
_SCALAR_ENCODE = {
    "i": "str({})",
    "b": "('1' if {} else '0')",
    "f": "_flag_text({})",
    "w": "_qw({})",
    "s": "_qb({})",
    "q": "_qc({})",
}


def _flag_text(value: bool | None) -> str:
    return "{}" if value is None else "1" if value else "0"


def _layout(form: tuple[Field, ...], enabled: AbstractSet[int]) -> list[tuple[Field, int, str]]:
    """Where each field stands in the values for a receiver with ``enabled`` DGs on:
    (field, index of its first value, Python expression that decodes it from ``v``)."""
    out = []
    k = 1
    for f in form:
        if f.when is not None and f.when not in enabled:
            out.append((f, k, "None"))
        elif f.kind == "R":
            dgs = [dg for dg in RATING_DGS if dg in enabled]
            pairs = [
                f"_Rating({dg}, int(v[{k + 2 * n}]), int(v[{k + 2 * n + 1}]))"
                for n, dg in enumerate(dgs)
            ]
            out.append((f, k, "(" + "".join(p + ", " for p in pairs) + ")"))
            k += 2 * len(dgs)
        elif f.kind == "M":
            out.append((f, k, f"tuple(_move_info(x) for x in v[{k}:])"))
        elif f.kind == "P":
            out.append((f, k, f"_pstat_records(v[{k}:])"))
        elif f.repeated:
            out.append((f, k, f"tuple(map(int, v[{k}:]))" if f.kind == "i" else f"tuple(v[{k}:])"))
        else:
            value = _SCALAR_DECODE.get(f.kind, "{}").format(f"v[{k}]")
            out.append((f, k, f"({value} if len(v) > {k} else None)" if f.optional else value))
            k += 1
    return out


def _decode_source(form: tuple[Field, ...], enabled: frozenset[int]) -> str:
    """Source of ``decode(v, r)`` for ``form`` under the receiver's ``enabled`` DGs:
    ``v`` are the unquoted values, ``r`` the wire tokens, ``v[0]`` the DG number."""
    layout = _layout(form, enabled)
    args = [expr for _, _, expr in layout]
    if not any(f.repeated for f in form):
        end = layout[-1][1] + (layout[-1][2] != "None") if layout else 1
        args.append(f"(tuple(r[{end}:]) if len(r) > {end} else ())")
    return "def decode(v, r):\n    return _new(_cls, (" + ", ".join(args) + ",))\n"


def _encode_source(form: tuple[Field, ...]) -> str:
    """Source of ``encode(rec) -> list[str]``: the quoted fields after the DG number."""
    lines = []
    for n, f in enumerate(form):
        x = f"rec[{n}]"
        if f.kind == "R":
            body = [f"for x in {x}:", "    out += (str(x.rating), str(x.annotation))"]
        elif f.kind == "M":
            body = [f"if {x}:", f"    out.append(''.join(map(_move_info_text, {x})))"]
        elif f.kind == "P":
            body = [f"out += _pstat_text({x})"]
        elif f.repeated:
            body = [f"out += map({_SCALAR_ENCODE[f.kind].format('')[:-2] or 'str'}, {x})"]
        else:
            body = [f"out.append({_SCALAR_ENCODE[f.kind].format(x)})"]
        if f.when is not None or (f.optional and f.kind != "f"):
            body = [f"if {x} is not None:"] + ["    " + line for line in body]
        lines += body
    if not any(f.repeated for f in form):
        lines.append("out += rec.extra")
    return (
        "def encode(rec):\n    out = []\n"
        + "".join(f"    {x}\n" for x in lines)
        + "    return out\n"
    )


def _compile(source: str, namespace: dict[str, Any]) -> Callable[..., Any]:
    """Compile one generated function (the catalog's forms, made concrete; see above)."""
    # the source is made here from FORMS, never from the wire
    exec(compile(source, "<icswire datagram catalog>", "exec"), namespace)  # noqa: S102
    fn: Callable[..., Any] = namespace.pop("decode", None) or namespace.pop("encode")
    return fn


def _move_info_decoder(enabled: frozenset[int]) -> Callable[[str], MoveInfo]:
    """Decoder of one ``{...}`` move of DG_MOVE_LIST for the move-part DGs that are on."""
    args = []
    k = 0
    for dg, conv in zip(MOVE_PART_DGS, ("", "", "int", "int", "int"), strict=True):
        if dg in enabled:
            args.append(f"{conv}(p[{k}])")
            k += 1
        else:
            args.append("None")
    source = (
        "def decode(text):\n    p = [x for x in text.split(' ') if x]\n"
        f"    if len(p) < {k}:\n        raise IndexError('a move has too few parts')\n"
        f"    return _MoveInfo({', '.join(args)})\n"
    )
    return _compile(source, {"_MoveInfo": MoveInfo})


def _move_info_text(move: MoveInfo) -> str:
    return "{" + " ".join(str(part) for part in move if part is not None) + "}"


def _pstat_records(values: list[str]) -> tuple[PstatRecord, ...]:
    """DG_PSTAT's rating records: groups of seven integers separated by ``|``."""
    records: list[PstatRecord] = []
    group: list[int] = []
    for value in [*values, "|"] if values else []:
        if value != "|":
            group.append(int(value))
            continue
        if len(group) != len(PstatRecord._fields):
            raise ValueError(f"a DG_PSTAT record has {len(group)} numbers, not 7")
        records.append(PstatRecord(*group))
        group = []
    return tuple(records)


def _pstat_text(records: tuple[PstatRecord, ...]) -> list[str]:
    out: list[str] = []
    for record in records:
        if out:
            out.append("|")
        out += map(str, record)
    return out


def _pstat_without_kind(form: tuple[Field, ...]) -> tuple[Field, ...]:
    """DG_PSTAT's form lists ``kind`` after ``initiated``, but the spec's own sample
    ``(142 1 wohl fishbait 0 0 0 1 0 0 1 | ...)`` has none. Both are read: ``kind`` is there
    when the field after ``initiated`` is a number (player names begin with a letter)."""
    return tuple(f._replace(when=-1) if f.name == "kind" else f for f in form)


_DECODE_NAMESPACE = {
    "_FLAGS": _FLAGS,
    "_OPTIONAL_FLAGS": _OPTIONAL_FLAGS,
    "_Rating": Rating,
    "_pstat_records": _pstat_records,
}
_ENCODE_NAMESPACE = {
    "_qw": quote_word,
    "_qb": quote_brace,
    "_qc": quote_ctrl,
    "_flag_text": _flag_text,
    "_move_info_text": _move_info_text,
    "_pstat_text": _pstat_text,
}

Record = DatagramRecord | UnknownDatagram
Decoder = Callable[[list[str], list[str]], Record]


def _unknown(values: list[str], tokens: list[str]) -> UnknownDatagram:
    return UnknownDatagram(int(values[0]), tuple(tokens[1:]))


def _relevant_settings(form: tuple[Field, ...]) -> frozenset[int]:
    dgs: set[int] = {f.when for f in form if f.when is not None}
    if any(f.kind == "R" for f in form):
        dgs.update(RATING_DGS)
    if any(f.kind == "M" for f in form):
        dgs.update(MOVE_PART_DGS)
    return frozenset(dgs)


_compiled: dict[tuple[int, frozenset[int]], Decoder] = {}
_encoders: dict[int, Callable[[Any], list[str]]] = {}
#: Forms times settings kept compiled: a stream that keeps changing the receiver's
#: settings (DG_SET2) makes new ones, and the oldest go.
CACHE_LIMIT = 512


def _remember(cache: dict[Any, Any], key: Any, make: Callable[[], Any]) -> Any:
    """``cache[key]``, made on first use; past CACHE_LIMIT entries the oldest is dropped."""
    if key not in cache:
        if len(cache) >= CACHE_LIMIT:
            del cache[next(iter(cache))]
        cache[key] = make()
    return cache[key]


def decoder_for(dg: int, enabled: AbstractSet[int]) -> Decoder:
    """The function that turns ``(values, tokens)`` of a ``dg`` datagram into its record,
    for a receiver with ``enabled`` DGs on. Compiled once per form actually in use."""
    cls = RECORDS.get(dg)
    if cls is None:
        return _unknown
    settings = _relevant_settings(cls.form) & enabled
    fn: Decoder = _remember(_compiled, (dg, settings), lambda: _compile_decoder(cls, settings))
    return fn


def _compile_decoder(cls: type[DatagramRecord], enabled: frozenset[int]) -> Decoder:
    namespace: dict[str, Any] = {"_cls": cls, "_new": tuple.__new__, **_DECODE_NAMESPACE}
    if any(f.kind == "M" for f in cls.form):
        namespace["_move_info"] = _move_info_decoder(enabled)
    if cls.dg != DG.PSTAT:
        return _compile(_decode_source(cls.form, enabled), namespace)
    with_kind = _compile(_decode_source(cls.form, enabled), dict(namespace))
    without = _compile(_decode_source(_pstat_without_kind(cls.form), enabled), namespace)

    def decode_pstat(v: list[str], r: list[str]) -> Record:
        return with_kind(v, r) if _pstat_has_kind(v) else without(v, r)  # type: ignore[no-any-return]

    return decode_pstat


def _pstat_has_kind(values: list[str]) -> bool:
    return len(values) > 2 and values[2].isdigit()


def decode_fields(values: list[str], tokens: list[str], enabled: AbstractSet[int]) -> Record:
    """Decode a datagram already split by :func:`split_fields` (``values[0]`` is its number).
    Raises ValueError naming the DG and the field when the fields do not fit its form."""
    try:
        dg = int(values[0])
    except (ValueError, IndexError):
        raise ValueError(f"a datagram must start with its number, not {values[:1]}") from None
    try:
        return decoder_for(dg, enabled)(values, tokens)
    except (ValueError, IndexError, KeyError) as exc:
        raise ValueError(_explain(dg, values, enabled, exc)) from None


def _readable(kind: str, text: str) -> bool:
    if kind == "i":
        return text.lstrip("-").isdigit()
    return text in (_FLAGS if kind == "b" else _OPTIONAL_FLAGS)


def _explain(dg: int, values: list[str], enabled: AbstractSet[int], exc: Exception) -> str:
    cls = RECORDS[dg]
    form = cls.form
    if dg == DG.PSTAT and not _pstat_has_kind(values):
        form = _pstat_without_kind(form)
    for f, k, _ in _layout(form, enabled):
        if f.kind in "ibf" and not f.repeated and (f.when is None or f.when in enabled):
            if k >= len(values):
                if f.optional:
                    break
                return f"{cls.spec_name}: field {f.name!r} is missing ({len(values) - 1} fields)"
            if not _readable(f.kind, values[k]):
                return f"{cls.spec_name}: field {f.name!r} is {values[k]!r}"
    return f"{cls.spec_name}: {exc}"


def decode_datagram(body: str, enabled: Iterable[int] = ()) -> Record:
    """Decode one datagram body (what stands between ``^Y(`` and ``^Y)``) for a receiver
    with ``enabled`` DGs on. Raises ValueError naming the DG and field when malformed.

    >>> decode_datagram("56 12 W 179000 1")
    Msec(gamenumber=12, color='W', msec=179000, running=True, extra=())
    """
    values, tokens = split_fields(body)
    return decode_fields(values, tokens, frozenset(enabled))


def encode_datagram(record: Record) -> bytes:
    """The wire bytes ``^Y(dg fields...^Y)`` of a record (its ``raw`` bytes if it has them).
    Settings-dependent parts that are None are left out, so a record built for a receiver
    encodes in that receiver's form."""
    if record.raw is not None:
        return record.raw
    if isinstance(record, UnknownDatagram):
        return frame([str(record.dg), *record.fields])
    encode = _encoders.get(record.dg)
    if encode is None:
        source = _encode_source(RECORDS[record.dg].form)
        encode = _encoders[record.dg] = _compile(source, dict(_ENCODE_NAMESPACE))
    return frame([str(record.dg), *encode(record)])


def bare_form(dg: int) -> bool:
    """Whether every field of ``dg``'s form is written bare: numbers, flags and words, never
    quoted (nor ``{}``, as DG_GAMELIST_ITEM's optional ``here`` is when absent). Such a
    datagram whose fields are canonical numbers and words that need no quotes, one blank
    apart, re-encodes to the same bytes; the decoder reads those without checking them."""
    cls = RECORDS.get(dg)
    return cls is not None and all(f.kind in "ibwR" for f in cls.form)


# How the encoder writes each kind of field (quote_word, quote_brace, quote_ctrl, str()),
# as regular expressions over a datagram's body text, with a group for each way of writing
# it that holds the field's value unquoted (the one-pass readers use the groups).
_INT = r"(?:0|-?[1-9][0-9]*+)"
_CTRL_NEEDED = r"\x19\{([^\x19\x1a]*?[{}\n\r][^\x19\x1a]*)\x19\}"  # text {} cannot hold
_CAPTURED = {
    "i": f"({_INT})",
    "b": "([01])",
    "f": r"([01]|\{\})",
    "w": r"([^\s{}\x19]++)|\{((?:[^{}\x19\x1a\n\r]*?[^\S\n\r][^{}\x19\x1a\n\r]*)?)\}|"
    + _CTRL_NEEDED,
    "s": r"\{([^{}\x19\x1a\n\r]*)\}|" + _CTRL_NEEDED,
    "q": r"\x19\{([^\x19\x1a]*)\x19\}",
}
_WRITTEN = {kind: re.sub(r"\((?!\?)", "(?:", captured) for kind, captured in _CAPTURED.items()}
_ANY_FIELD = r"(?:[^ {}\x19]++|\{[^{}\x19]*\}|\x19\{[^\x19]*\x19\})"  # as split_fields reads it
_UNKNOWN_FORM = f"{_INT}(?: {_ANY_FIELD})*+"  # compiled on first use (re's own cache)
_patterns: dict[tuple[int, frozenset[int]], re.Pattern[str] | None] = {}


def canonical_pattern(dg: int, enabled: AbstractSet[int]) -> re.Pattern[str] | None:
    """The bodies :func:`encode_datagram` writes for ``dg`` datagrams to a receiver with
    ``enabled`` DGs on, as a regular expression: decoding a body it matches and encoding
    the record again gives back that body, so such a datagram needs no ``raw``. None for
    the forms it does not describe (DG_MOVE_LIST's moves, DG_PSTAT's records)."""
    cls = RECORDS.get(dg)
    if cls is None:
        return re.compile(_UNKNOWN_FORM)
    settings = _relevant_settings(cls.form) & enabled
    pattern: re.Pattern[str] | None = _remember(
        _patterns, (dg, settings), lambda: _canonical_pattern(dg, cls.form, settings)
    )
    return pattern


def _canonical_pattern(
    dg: int, form: tuple[Field, ...], enabled: frozenset[int], capture: bool = False
) -> re.Pattern[str] | None:
    """See :func:`canonical_pattern`; with ``capture``, the groups of :data:`_CAPTURED`
    for each field present, a repeated field's tokens in one group, and the extra fields
    in one (for forms without ratings)."""
    if any(f.kind in "MP" for f in form):
        return None
    parts = [str(dg)]
    optional = 0  # fields marked ? are read while there are any: nested optional groups
    for f in form:
        if f.when is not None and f.when not in enabled:
            continue
        if f.kind == "R":
            parts.append(f" {_INT} {_INT}" * sum(d in enabled for d in RATING_DGS))
            continue
        if f.repeated:
            repeated = f"(?: (?:{_WRITTEN[f.kind]}))*+"
            parts.append(f"({repeated})" if capture else repeated)
            continue
        one = f"(?:{(_CAPTURED if capture else _WRITTEN)[f.kind]})"
        if f.optional and f.kind != "f":  # an absent flag f? is written {} all the same
            parts.append(f"(?: {one}")
            optional += 1
        else:
            parts.append(f" {one}")
    if not any(f.repeated for f in form):
        extra = f"(?: {_ANY_FIELD})*+"
        parts.append(f"({extra})" if capture else extra)
    return re.compile("".join(parts) + ")?" * optional)


_canonical_readers: dict[tuple[int, frozenset[int]], Callable[[str], Record | None]] = {}
# How the groups of a field of each kind (a, b, c: see _CAPTURED) become its value; the
# values of a field marked ? that is absent are all None.
_FROM_GROUPS = {
    "i": "int({a})",
    "b": "_FLAGS[{a}]",
    "f": "_TOKEN_FLAGS[{a}]",
    "w": "({a} if {a} is not None else {b} if {b} is not None else {c})",
    "s": "({a} if {a} is not None else {b})",
    "q": "{a}",
}
_TOKEN_FLAGS = {"0": False, "1": True, "{}": None}


def _extra_tokens(rest: str) -> tuple[str, ...]:
    return tuple(split_fields(rest[1:])[1])


def _repeated_values(tokens: str) -> tuple[str, ...]:
    return tuple(split_fields(tokens[1:])[0])


def canonical_reader(dg: int, enabled: AbstractSet[int]) -> Callable[[str], Record | None] | None:
    """A reader of the bodies :func:`canonical_pattern` matches, in one pass: the body's
    record, or None when the body is written otherwise (then decode it the general way,
    which also tells what is wrong). Such a record re-encodes to the same body. None for
    forms with ratings, DG_MOVE_LIST's moves or DG_PSTAT's records, and for undocumented
    DGs."""
    cls = RECORDS.get(dg)
    if cls is None or any(f.kind in "RMP" for f in cls.form):
        return None
    settings = _relevant_settings(cls.form) & enabled
    reader: Callable[[str], Record | None] = _remember(
        _canonical_readers, (dg, settings), lambda: _compile_canonical_reader(cls, settings)
    )
    return reader


def _compile_canonical_reader(
    cls: type[DatagramRecord], enabled: frozenset[int]
) -> Callable[[str], Record | None]:
    pattern = _canonical_pattern(cls.dg, cls.form, enabled, capture=True)
    if pattern is None:
        raise RuntimeError("pattern is None")
    names: list[str] = []
    values: list[str] = []
    for f in cls.form:
        if f.when is not None and f.when not in enabled:
            values.append("None")
            continue
        name = f"g{len(names)}"
        if f.repeated:
            names.append(name)
            if f.kind == "i":
                values.append(f"(tuple(map(int, {name}[1:].split(' '))) if {name} else ())")
            else:
                values.append(f"(_repeated_values({name}) if {name} else ())")
            continue
        groups = [f"g{len(names) + k}" for k in range(re.compile(_CAPTURED[f.kind]).groups)]
        names += groups
        value = _FROM_GROUPS[f.kind].format(**dict(zip("abc", groups, strict=False)))
        optional = f.optional and f.kind in "ib"
        values.append(f"(None if {groups[0]} is None else {value})" if optional else value)
    if not any(f.repeated for f in cls.form):
        names.append("rest")
        values.append("(_extra_tokens(rest) if rest else ())")
    source = (
        "def decode(body):\n    m = _fullmatch(body)\n    if m is None:\n        return None\n"
        f"    {', '.join(names)}, = m.groups()\n"
        f"    return _new(_cls, ({', '.join(values)},))\n"
    )
    namespace = {
        "_fullmatch": pattern.fullmatch,
        "_cls": cls,
        "_new": tuple.__new__,
        "_FLAGS": _FLAGS,
        "_TOKEN_FLAGS": _TOKEN_FLAGS,
        "_extra_tokens": _extra_tokens,
        "_repeated_values": _repeated_values,
    }
    return _compile(source, namespace)


def record_from_fields(dg: int, fields: Mapping[str, Any]) -> Record:
    """Rebuild a record from its fields by name (nested records as mappings or sequences)."""
    cls = RECORDS.get(dg)
    if cls is None:
        return UnknownDatagram(dg, tuple(fields.get("fields", ())))
    values: dict[str, Any] = {}
    for f in cls.form:
        value = fields.get(f.name)
        if value is not None and f.kind in "RMP":
            item: Any = {"R": Rating, "M": MoveInfo, "P": PstatRecord}[f.kind]
            value = tuple(item(**x) if isinstance(x, Mapping) else item(*x) for x in value)
        elif value is not None and f.repeated:
            value = tuple(value)
        values[f.name] = value
    if not any(f.repeated for f in cls.form):  # the form's fields, then ``extra``
        values["extra"] = tuple(fields.get("extra", ()))
    return cls(**values)
