"""The lines FICS sends when interface variables are set (``iset``; FICS help ``iv_*``).

One record per kind of line; :func:`parse_ivar` reads a whole line (without its line
ending), :func:`format_ivar` writes it back, byte for byte. The forms, each from its source:

- ``<s> 8 w=visar ti=02 rt=2194  t=4 i=0 r=r tp=suicide c=? rr=0-9999 a=t f=f`` a seek
  (``iv_seekinfo``; the rating is followed by its provshow character, so an established
  rating leaves two blanks before ``t=``); ``<sn> ...`` the same for a seek the user just
  posted (``iv_showownseek``, as PyChess and Jin read it);
- ``<sr> 8 10`` seeks removed (``iv_seekremove``), ``<sc>`` all seeks cleared
  (``iv_seekinfo``);
- ``<pf> 7 w=ggbtami t=match p=ggbtami (----) gbtami (1708) unrated blitz 5 0`` an offer
  from a user, ``<pt> 24 w=grosshirn t=takeback p=1`` one to a user, ``<pr> 7`` offers
  gone (``iv_pendinfo``; examples from PyChess's and Macbeth's FICS transcripts);
- ``<g1> 1 p=0 t=blitz r=1 u=1,1 it=5,5 i=8,8 pt=0 rt=1586E,2100 ts=1,0`` a game's
  information (``iv_gameinfo``; FICS appends ``m=2 n=0``, kept as ``extra``; a rating may
  be followed by its provshow character, a blank for an established one, as in
  ``rt=1586E,2100  ts=1,0``);
- ``<d1> 2 64 Rxc2 e2c2p 1200 203800`` a delta board (``iv_compressmove``; FICS appends
  a seventh number, kept as ``extra``);
- ``<wa> fred 001222 1326P1169P0P0P0P0P0P0P`` a user arrived and ``<wd> fred`` left
  (``iset pin``, FICS help ``new_features``): the name, a status character, two hex digits
  of title flags and the ratings run together, each followed by its provshow character
  (the form PyChess's and FatICS's code agree on).

The help files promise that "any new fields will be appended to the end"; ``extra`` keeps
them, and the blanks some lines end with (``... a=t f=f  ``). ``iv_allresults`` adds no
line of its own (it widens which ``{Game ...}`` result lines the server sends).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, Final, NamedTuple

__all__ = [
    "IVAR_NAMES",
    "DeltaBoard",
    "GameInfo",
    "IvarRecord",
    "PendingFrom",
    "PendingRemoved",
    "PendingTo",
    "PlayerArrived",
    "PlayerDeparted",
    "Rating",
    "Seek",
    "SeeksCleared",
    "SeeksRemoved",
    "format_delta_board",
    "format_game_info",
    "format_ivar",
    "format_pending",
    "format_pending_removed",
    "format_player_arrived",
    "format_player_departed",
    "format_seek",
    "format_seeks_cleared",
    "format_seeks_removed",
    "ivar_parser",
    "parse_delta_board",
    "parse_game_info",
    "parse_ivar",
    "parse_pending_from",
    "parse_pending_removed",
    "parse_pending_to",
    "parse_player_arrived",
    "parse_player_departed",
    "parse_seek",
    "parse_seeks_cleared",
    "parse_seeks_removed",
]

#: A rating and the provshow character after it: ``" "`` established, ``"E"`` estimated,
#: ``"P"`` provisional, or ``""`` where the line leaves it out.
Rating = tuple[int, str]

# The line patterns below are text, matched through re's own cache (re.fullmatch): each
# is compiled when a line of its kind first comes, not when the module is imported.
_N = r"(0|[1-9][0-9]*)"  # a number as the server's "%d" writes it
_SIGNED = r"(0|-?[1-9][0-9]*)"
_WORD = r"([^ ]+)"
_HEX2 = r"([0-9A-Fa-f]{2})"
#: Fields appended after the documented ones, kept as ``extra``; an empty one is a blank
#: (FICS's lines may end in blanks).
_TAIL = r"((?: [^ ]*)*)"
_FLAG: Final = {"0": False, "1": True}
_TF: Final = {"f": False, "t": True}


class Seek(NamedTuple):
    """``<s>`` (``<sn>`` with ``own``): seek ``number`` by ``name``. ``titles`` are the two
    hex digits as sent (0x1 unregistered, 0x2 computer, 0x4 GM, 0x8 IM, 0x10 FM, 0x20 WGM,
    0x40 WIM, 0x80 WFM); ``color`` is ``?``, ``W`` or ``B``; ``automatic`` is ``a=t``."""

    number: int
    name: str
    titles: str
    rating: int
    provshow: str
    time: int
    increment: int
    rated: bool
    type: str
    color: str
    min_rating: int
    max_rating: int
    automatic: bool
    formula: bool
    extra: tuple[str, ...] = ()
    own: bool = False

    @property
    def title_flags(self) -> int:
        return int(self.titles, 16)


class SeeksRemoved(NamedTuple):
    """``<sr>``: these seeks are gone."""

    numbers: tuple[int, ...]


class SeeksCleared(NamedTuple):
    """``<sc>``: forget all seeks (a full list follows)."""


class PendingFrom(NamedTuple):
    """``<pf>``: offer ``number`` of kind ``type`` (``match``, ``draw``, ``takeback``, ...)
    from ``name``; ``params`` is the rest of the line as sent (``#`` when there are none)."""

    number: int
    name: str
    type: str
    params: str


class PendingTo(NamedTuple):
    """``<pt>``: offer ``number`` of kind ``type`` to ``name``; ``params`` as in ``<pf>``."""

    number: int
    name: str
    type: str
    params: str


class PendingRemoved(NamedTuple):
    """``<pr>``: these offers were accepted, declined, withdrawn or removed."""

    numbers: tuple[int, ...]


class GameInfo(NamedTuple):
    """``<g1>``: game ``game_number`` started or is being observed. Pairs are (white,
    black); ``partner_game`` is 0 when there is none."""

    game_number: int
    private: bool
    type: str
    rated: bool
    registered: tuple[bool, bool]
    initial_time: tuple[int, int]
    increment: tuple[int, int]
    partner_game: int
    ratings: tuple[Rating, Rating]
    timeseal: tuple[bool, bool]
    extra: tuple[str, ...] = ()


class DeltaBoard(NamedTuple):
    """``<d1>``: a move in game ``game_number`` instead of a whole style 12 board;
    ``half_moves`` played so far, the move in algebraic and SMITH notation, times in ms."""

    game_number: int
    half_moves: int
    algebraic: str
    smith: str
    time_taken_ms: int
    time_left_ms: int
    extra: tuple[str, ...] = ()


class PlayerArrived(NamedTuple):
    """``<wa>``: ``name`` logged in; ``status`` is the ``who`` status character, ``titles``
    the two hex digits of title flags (as in ``<s>``), then the ratings in the server's order
    (blitz, standard, lightning, wild, bughouse, crazyhouse, suicide, losers, atomic)."""

    name: str
    status: str
    titles: str
    ratings: tuple[Rating, ...]


class PlayerDeparted(NamedTuple):
    """``<wd>``: ``name`` logged out."""

    name: str


IvarRecord = (
    Seek
    | SeeksRemoved
    | SeeksCleared
    | PendingFrom
    | PendingTo
    | PendingRemoved
    | GameInfo
    | DeltaBoard
    | PlayerArrived
    | PlayerDeparted
)


def _expected(form: str, line: str) -> ValueError:
    return ValueError(f"{form.split(' ', 1)[0]}: expected {form!r}, got {line[:80]!r}")


def _extra(tail: str) -> tuple[str, ...]:
    return tuple(tail[1:].split(" ")) if tail else ()


def _tail(extra: tuple[str, ...]) -> str:
    return "".join(" " + token for token in extra)


# -- seeks -----------------------------------------------------------------------------

_SEEK_FORM = (
    "<s> index w=name ti=titles rt=rating t=time i=inc r=r|u tp=type c=?|W|B rr=min-max a=t|f f=t|f"
)
_SEEK = (
    rf"<(sn?)> {_N} w={_WORD} ti={_HEX2} rt={_N}([ EP]) t={_N} i={_N} r=([ru]) tp={_WORD}"
    rf" c=([?WB]) rr={_N}-{_N} a=([tf]) f=([tf]){_TAIL}"
)


def parse_seek(line: str) -> Seek:
    """``<s> ...`` or ``<sn> ...`` (FICS help ``iv_seekinfo``)."""
    m = re.fullmatch(_SEEK, line)
    if m is None:
        raise _expected(_SEEK_FORM, line)
    tag, number, name, titles, rating, prov, time, inc, rated, kind, color, lo, hi, a, f, tail = (
        m.groups()
    )
    return Seek(
        int(number), name, titles, int(rating), prov, int(time), int(inc), rated == "r", kind,
        color, int(lo), int(hi), _TF[a], _TF[f], _extra(tail), tag == "sn",
    )  # fmt: skip


def format_seek(rec: Seek) -> str:
    return (
        f"<{'sn' if rec.own else 's'}> {rec.number} w={rec.name} ti={rec.titles}"
        f" rt={rec.rating}{rec.provshow} t={rec.time} i={rec.increment}"
        f" r={'r' if rec.rated else 'u'} tp={rec.type} c={rec.color}"
        f" rr={rec.min_rating}-{rec.max_rating} a={'t' if rec.automatic else 'f'}"
        f" f={'t' if rec.formula else 'f'}{_tail(rec.extra)}"
    )


_INDICES = rf"<(sr|pr)>((?: {_N})+)"


def _indices(tag: str, line: str) -> tuple[int, ...]:
    m = re.fullmatch(_INDICES, line)
    if m is None or m[1] != tag:
        raise _expected(f"<{tag}> index...", line)
    return tuple(map(int, m[2][1:].split(" ")))


def parse_seeks_removed(line: str) -> SeeksRemoved:
    """``<sr> 8 10`` (FICS help ``iv_seekinfo``)."""
    return SeeksRemoved(_indices("sr", line))


def format_seeks_removed(rec: SeeksRemoved) -> str:
    return "<sr>" + "".join(f" {number}" for number in rec.numbers)


def parse_seeks_cleared(line: str) -> SeeksCleared:
    """``<sc>`` (FICS help ``iv_seekinfo``)."""
    if line != "<sc>":
        raise _expected("<sc>", line)
    return SeeksCleared()


def format_seeks_cleared(rec: SeeksCleared) -> str:
    return "<sc>"


# -- pending offers --------------------------------------------------------------------

_PENDING = rf"<(p[ft])> {_N} w={_WORD} t={_WORD} p=(.*)"


def _pending(tag: str, line: str) -> tuple[int, str, str, str]:
    m = re.fullmatch(_PENDING, line)
    if m is None or m[1] != tag:
        raise _expected(f"<{tag}> index w=name t=type p=params", line)
    return int(m[2]), m[3], m[4], m[5]


def parse_pending_from(line: str) -> PendingFrom:
    """``<pf> index w=name_from t=offer_type p=params`` (FICS help ``iv_pendinfo``)."""
    return PendingFrom(*_pending("pf", line))


def parse_pending_to(line: str) -> PendingTo:
    """``<pt> index w=name_to t=offer_type p=params`` (FICS help ``iv_pendinfo``)."""
    return PendingTo(*_pending("pt", line))


def format_pending(rec: PendingFrom | PendingTo) -> str:
    tag = "pf" if isinstance(rec, PendingFrom) else "pt"
    return f"<{tag}> {rec.number} w={rec.name} t={rec.type} p={rec.params}"


def parse_pending_removed(line: str) -> PendingRemoved:
    """``<pr> index`` (FICS help ``iv_pendinfo``; PyChess also reads several indices)."""
    return PendingRemoved(_indices("pr", line))


def format_pending_removed(rec: PendingRemoved) -> str:
    return "<pr>" + "".join(f" {number}" for number in rec.numbers)


# -- games -----------------------------------------------------------------------------

_GAME_FORM = "<g1> game p=0|1 t=type r=0|1 u=w,b it=w,b i=w,b pt=game rt=w,b ts=w,b"
_BIT = "([01])"
_RATING = rf"{_N}([ EP]?)"
_GAME = (
    rf"<g1> {_N} p={_BIT} t={_WORD} r={_BIT} u={_BIT},{_BIT} it={_N},{_N} i={_N},{_N}"
    rf" pt={_N} rt={_RATING},{_RATING} ts={_BIT},{_BIT}{_TAIL}"
)


def parse_game_info(line: str) -> GameInfo:
    """``<g1> ...`` (FICS help ``iv_gameinfo``)."""
    m = re.fullmatch(_GAME, line)
    if m is None:
        raise _expected(_GAME_FORM, line)
    g = m.groups()
    return GameInfo(
        int(g[0]), _FLAG[g[1]], g[2], _FLAG[g[3]], (_FLAG[g[4]], _FLAG[g[5]]),
        (int(g[6]), int(g[7])), (int(g[8]), int(g[9])), int(g[10]),
        ((int(g[11]), g[12]), (int(g[13]), g[14])), (_FLAG[g[15]], _FLAG[g[16]]), _extra(g[17]),
    )  # fmt: skip


def format_game_info(rec: GameInfo) -> str:
    (wr, wp), (br, bp) = rec.ratings
    return (
        f"<g1> {rec.game_number} p={rec.private:d} t={rec.type} r={rec.rated:d}"
        f" u={rec.registered[0]:d},{rec.registered[1]:d}"
        f" it={rec.initial_time[0]},{rec.initial_time[1]}"
        f" i={rec.increment[0]},{rec.increment[1]} pt={rec.partner_game}"
        f" rt={wr}{wp},{br}{bp} ts={rec.timeseal[0]:d},{rec.timeseal[1]:d}{_tail(rec.extra)}"
    )


_DELTA_FORM = "<d1> game half_moves algebraic smith time_taken_ms time_left_ms"
_DELTA = rf"<d1> {_N} {_N} {_WORD} {_WORD} {_SIGNED} {_SIGNED}{_TAIL}"


def parse_delta_board(line: str) -> DeltaBoard:
    """``<d1> ...`` (FICS help ``iv_compressmove``)."""
    m = re.fullmatch(_DELTA, line)
    if m is None:
        raise _expected(_DELTA_FORM, line)
    game, half, algebraic, smith, taken, left, tail = m.groups()
    return DeltaBoard(int(game), int(half), algebraic, smith, int(taken), int(left), _extra(tail))


def format_delta_board(rec: DeltaBoard) -> str:
    return (
        f"<d1> {rec.game_number} {rec.half_moves} {rec.algebraic} {rec.smith}"
        f" {rec.time_taken_ms} {rec.time_left_ms}{_tail(rec.extra)}"
    )


# -- players ---------------------------------------------------------------------------

_ARRIVED_FORM = "<wa> name + status + titles + ratings each with its provshow character"
_ARRIVED = rf"<wa> ([A-Za-z]+)([^A-Za-z0-9]){_HEX2}((?:{_N}[ EP])*{_N}[ EP]?)"
_ONE_RATING = _RATING


def parse_player_arrived(line: str) -> PlayerArrived:
    """``<wa> ...`` (``iset pin``, FICS help ``new_features``)."""
    m = re.fullmatch(_ARRIVED, line)
    if m is None:
        raise _expected(_ARRIVED_FORM, line)
    ratings = tuple((int(r[1]), r[2]) for r in re.finditer(_ONE_RATING, m[4]))
    return PlayerArrived(m[1], m[2], m[3], ratings)


def format_player_arrived(rec: PlayerArrived) -> str:
    ratings = "".join(f"{value}{prov}" for value, prov in rec.ratings)
    return f"<wa> {rec.name}{rec.status}{rec.titles}{ratings}"


_DEPARTED = rf"<wd> {_WORD}"


def parse_player_departed(line: str) -> PlayerDeparted:
    """``<wd> name`` (``iset pin``, FICS help ``new_features``)."""
    m = re.fullmatch(_DEPARTED, line)
    if m is None:
        raise _expected("<wd> name", line)
    return PlayerDeparted(m[1])


def format_player_departed(rec: PlayerDeparted) -> str:
    return f"<wd> {rec.name}"


# -- dispatch --------------------------------------------------------------------------

_PARSERS: Final[dict[str, Callable[[str], IvarRecord]]] = {
    "<s>": parse_seek,
    "<sn>": parse_seek,
    "<sr>": parse_seeks_removed,
    "<sc>": parse_seeks_cleared,
    "<pf>": parse_pending_from,
    "<pt>": parse_pending_to,
    "<pr>": parse_pending_removed,
    "<g1>": parse_game_info,
    "<d1>": parse_delta_board,
    "<wa>": parse_player_arrived,
    "<wd>": parse_player_departed,
}
#: The ``"event"`` name of an :class:`~icswire.protocol.events.IvarLine` (``icswire
#: decode``), by the kind of its record.
IVAR_NAMES: Final[dict[type, str]] = {
    Seek: "seek",
    SeeksRemoved: "seeks_removed",
    SeeksCleared: "seeks_cleared",
    PendingFrom: "pending_from",
    PendingTo: "pending_to",
    PendingRemoved: "pending_removed",
    GameInfo: "game_info",
    DeltaBoard: "delta_board",
    PlayerArrived: "player_arrived",
    PlayerDeparted: "player_departed",
}
_FORMATTERS: Final[dict[type, Callable[[Any], str]]] = {
    Seek: format_seek,
    SeeksRemoved: format_seeks_removed,
    SeeksCleared: format_seeks_cleared,
    PendingFrom: format_pending,
    PendingTo: format_pending,
    PendingRemoved: format_pending_removed,
    GameInfo: format_game_info,
    DeltaBoard: format_delta_board,
    PlayerArrived: format_player_arrived,
    PlayerDeparted: format_player_departed,
}


def ivar_parser(line: str) -> Callable[[str], IvarRecord] | None:
    """The parser for ``line`` if it starts with one of the tags above (``<s>`` then a
    blank or the end of the line, ...), else None: a cheap test for a decoder."""
    close = line.find(">", 2, 5)
    if close < 0 or (len(line) > close + 1 and line[close + 1] != " "):
        return None
    return _PARSERS.get(line[: close + 1])


def parse_ivar(line: str) -> IvarRecord:
    """Parse one interface-variable line (without its line ending); ValueError if it is
    none or is malformed."""
    parse = ivar_parser(line)
    if parse is None:
        raise ValueError(f"not an interface variable line: {line[:40]!r}")
    return parse(line)


def format_ivar(rec: IvarRecord) -> str:
    """The line of ``rec`` (no line ending); inverse of :func:`parse_ivar`."""
    return _FORMATTERS[type(rec)](rec)
