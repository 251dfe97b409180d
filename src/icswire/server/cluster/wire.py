"""The wire format between the nodes of a cluster: versioned JSON, a closed set of kinds.

Every NATS message one node sends another (docs/cluster.md, "Wire format") is one JSON
object, UTF-8, the **envelope**::

    {"v": 2, "kind": "run", "number": 7, "home": "a1", "name": "fred", "line": "e4"}

``v`` is :data:`VERSION`; ``kind`` names one of :data:`KINDS`, and the other members are
that kind's fields. A kind is a frozen dataclass of plain values registered with
:func:`kind`; its fields are encoded from their annotations, generically: ``str``,
``int``, ``float``, ``bool``, ``None``, ``X | Y``, ``tuple[X, ...]`` and ``tuple[X, Y]``
(JSON arrays), ``dict[str, X]`` (objects), another registered dataclass (an object with its
own ``kind``), and :class:`~icswire.server.core.render.batch.Message` (below). More kinds (the
domain events) are added the same way: a frozen dataclass of such fields and one
``@kind("name")``.

A **message** to a user (what a batch holds, resolved for its receiver by
:meth:`Message.resolve <icswire.server.core.render.batch.Message.resolve>`) is one of a closed
set, each an object with its own ``kind`` and one encoder and decoder here:

- ``lines``: ``{"lines": [text...]}`` (:class:`~icswire.server.core.render.Lines`);
- ``datagram``: ``{"record": record}`` (``Datagram``);
- ``raw``: ``{"data": base64}`` (``Raw``: bytes sent as they are, a timeseal ping);
- ``bell``: ``{}`` (the bell, :data:`~icswire.server.core.render.alerts.BELL`);
- ``board``: a board resolved for its receiver (:class:`~icswire.server.core.render.boards.
  FixedBoard`): ``variant`` (the icswire variant whose board class it is: ``chess``,
  ``wild/0``, ``bughouse``...), ``chess960``, ``fen`` (pockets and check counts included;
  the en passant square after any double push, as style 12 shows it),
  ``facts`` (number, names, time control, clocks in ms, ``last_move`` as style 12's
  verbose and pretty notations, the recent moves as ``[san, verbose, time_ms]``...),
  ``relation`` and ``flip``;
- ``event``: ``{"event": {"kind": NAME, ...fields}}``, a domain event
  (:mod:`icswire.server.core.events`) as it is: every receiver of it on the node gets it,
  and the node renders it for each of its users. Its fields are encoded as a kind's are,
  but for those marked ``wire=False`` (a board the sending node had built already): a
  played game's position carries its ``BoardView`` (what style 12 shows), so the receiving
  node builds the board from the FEN only for a receiver whose style draws it.

A **datagram record** is ``[dg, [field values...]]``, with a third member, the extra wire
tokens, when it has any: the values in the order of the DG's form in
:data:`~icswire.protocol.datagrams.FORMS`, each as its kind says: ``i`` an integer, ``b``
a boolean, ``f`` a boolean or null, ``w``/``s``/``q`` a string, a part the receiver has
off (``@N``) or a trailing optional one (``?``) null; ``R`` ``[[dg, rating, annotation]...]``,
``M`` ``[[algebraic, smith, time, clock, variation]...]``, ``P`` ``[[7 integers]...]``,
``*`` an array of the kind's values.

Whatever does not read as one of these (not JSON, another version, an unknown kind, a
member missing, unknown or of the wrong type, a DG number not in the catalog, a FEN
python-chess does not read) raises :class:`WireError`; :func:`receive` drops it and logs
a warning with its subject. Nothing in a message is ever run: it is data, read into these
classes only.
"""

from __future__ import annotations

import base64
import binascii
import dataclasses
import json
import logging
import types
import typing
from collections.abc import Callable
from typing import Any, TypeVar

import chess
import chess.variant

from icswire.boards.positions import last_move_notations
from icswire.boards.variants import VARIANTS
from icswire.protocol.datagrams import (
    FORMS,
    RECORDS,
    DatagramRecord,
    MoveInfo,
    PstatRecord,
    Rating,
)
from icswire.server.core.events.base import KINDS as EVENT_KINDS
from icswire.server.core.events.base import Event
from icswire.server.core.render import table as _event_table  # noqa: F401 (every event kind)
from icswire.server.core.render.alerts import BELL, Ring
from icswire.server.core.render.batch import (
    Datagram,
    EventMessage,
    Lines,
    Message,
    Raw,
    message_of,
)
from icswire.server.core.render.boards import Always, BoardFacts, FixedBoard
from icswire.server.core.render.diagrams import RecentMove

log = logging.getLogger("icswire.cluster")

#: The format's version: a node drops a message of another version (2: a heartbeat has
#: the node's epoch; 3: a user carries the title lists it is on, a game's start its
#: variant's irregular-legality/semantics and promote-to-king flags; 4: a game's history
#: carries the position after its moves in FEN, for DG_FEN, and a game's end whether the
#: players' ratings changed, for FICS's "No ratings adjustment done.", and each game a
#: node lists for ``games`` its sort key, both names and whether it is private; 5: a
#: game's end carries its ECO code, for DG_GAME_RESULT, and lasker's tourney suffix for
#: mamer; a user's variables ``tourney`` and ``bugopen``; a game's start and a challenge
#: carry Black's time control, for time odds; an examined game's position carries its
#: last move in Smith notation, for DG_JBOARD, and a game's history its holdings, for
#: DG_BUGHOUSE_HOLDINGS).
VERSION = 5

T = TypeVar("T")
Encode = Callable[[Any], Any]
Decode = Callable[[Any], Any]


class WireError(ValueError):
    """A message this node does not read: not JSON, another version, an unknown kind, or
    a member missing, unknown or of the wrong type."""


# -- the kinds ---------------------------------------------------------------------------

#: Every kind a node reads, by name: the closed set.
KINDS: dict[str, type] = {}
_NAMES: dict[type, str] = {}
_CODECS: dict[
    type, tuple[Callable[[Any, bool], dict[str, Any]], Callable[[dict[str, Any], bool], Any]]
] = {}


def kind(name: str) -> Callable[[type[T]], type[T]]:
    """Register the frozen dataclass it decorates as the kind ``name``."""

    def register(cls: type[T]) -> type[T]:
        if not dataclasses.is_dataclass(cls) or name in KINDS:
            raise TypeError(f"{cls.__name__}: a kind is a dataclass with a name of its own")
        if any(f.name == "kind" for f in dataclasses.fields(cls)):
            raise TypeError(f"{cls.__name__}: a field named kind would be read as the tag")
        KINDS[name] = cls
        _NAMES[cls] = name
        return cls

    return register


for _name, _cls in EVENT_KINDS.items():  # the domain events and their value types
    kind(_name)(_cls)


def _check(value: Any, expected: type | tuple[type, ...], what: str) -> Any:
    if type(value) is expected:  # the usual case, and never a bool where an int is due
        return value
    if not isinstance(value, expected) or (isinstance(value, bool) and expected is int):
        raise WireError(f"{what}: {type(value).__name__} where {expected} was due")
    return value


#: The scalar annotations, checked as themselves.
_SCALARS = (str, int, bool)


def _scalar(tp: type) -> tuple[Encode, Decode]:
    what = tp.__name__

    def code(value: Any) -> Any:
        if type(value) is tp:
            return value
        return _check(value, tp, what)

    return code, code


def _float() -> tuple[Encode, Decode]:
    def code(value: Any) -> float:
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise WireError(f"float: {type(value).__name__}")
        return float(value)

    return code, code


def _none(value: Any) -> None:
    if value is not None:
        raise WireError(f"null: {type(value).__name__}")


def _union(options: tuple[Any, ...]) -> tuple[Encode, Decode]:
    """``X | Y``: null first where the union has it; then a tagged kind by its class (in)
    and its ``kind`` member (out) where every other option is one; else each option in
    turn."""
    others = tuple(option for option in options if option is not type(None))
    if len(others) < len(options):
        encode_other, decode_other = _codec(others[0]) if len(others) == 1 else _union(others)

        def encode_nullable(value: Any) -> Any:
            return None if value is None else encode_other(value)

        def decode_nullable(value: Any) -> Any:
            return None if value is None else decode_other(value)

        return encode_nullable, decode_nullable
    if all(isinstance(option, type) and option in _NAMES for option in options):
        return _tagged_union(options)
    codecs = [_codec(option) for option in options]

    def first(value: Any, which: int) -> Any:
        for codec in codecs:
            try:
                return codec[which](value)
            except WireError:
                continue
        raise WireError(f"{type(value).__name__} is none of {options}")

    return (lambda value: first(value, 0)), (lambda value: first(value, 1))


def _tagged_union(options: tuple[type, ...]) -> tuple[Encode, Decode]:
    """A union of registered dataclasses: each value's own kind, if one of ``options``."""
    by_name = {_NAMES[option]: option for option in options}

    def encode(value: Any) -> dict[str, Any]:
        cls = type(value)
        if cls not in options:
            raise WireError(f"{cls.__name__} is none of {options}")
        return _dataclass_codec(cls)[0](value, True)

    def decode(value: Any) -> Any:
        name = _check(value, dict, "object").get("kind")
        cls = by_name.get(name) if isinstance(name, str) else None
        if cls is None:
            raise WireError(f"kind {name!r} is none of {sorted(by_name)}")
        return _dataclass_codec(cls)[1](value, True)

    return encode, decode


def _array(item: Any) -> tuple[Encode, Decode]:
    encode_item, decode_item = _codec(item)
    if item in _SCALARS:  # one pass over the items, each checked as _scalar does

        def encode_scalars(value: Any) -> list[Any]:
            items = _check(value, tuple, "tuple")
            if all([type(x) is item for x in items]):
                return list(items)
            return [encode_item(x) for x in items]

        def decode_scalars(value: Any) -> tuple[Any, ...]:
            items = _check(value, list, "array")
            if all([type(x) is item for x in items]):
                return tuple(items)
            return tuple([decode_item(x) for x in items])

        return encode_scalars, decode_scalars

    def encode(value: Any) -> list[Any]:
        return [encode_item(x) for x in _check(value, tuple, "tuple")]

    def decode(value: Any) -> tuple[Any, ...]:
        return tuple([decode_item(x) for x in _check(value, list, "array")])

    return encode, decode


def _fixed(items: tuple[Any, ...]) -> tuple[Encode, Decode]:
    codecs = tuple(_codec(item) for item in items)
    encoders = tuple(codec[0] for codec in codecs)
    decoders = tuple(codec[1] for codec in codecs)
    count = len(codecs)

    def encode(value: Any) -> list[Any]:
        if len(_check(value, tuple, "tuple")) != count:
            raise WireError(f"a tuple of {len(value)} where {count} were due")
        return [code(x) for code, x in zip(encoders, value, strict=True)]

    def decode(value: Any) -> tuple[Any, ...]:
        if len(_check(value, list, "array")) != count:
            raise WireError(f"an array of {len(value)} where {count} were due")
        return tuple([code(x) for code, x in zip(decoders, value, strict=True)])

    if not all(item in _SCALARS for item in items):
        return encode, decode

    def exact(value: Any) -> bool:  # each member of the very type due (no bool as int)
        return len(value) == count and all(
            [type(x) is item for item, x in zip(items, value, strict=True)]
        )

    def encode_scalars(value: Any) -> list[Any]:
        return list(value) if type(value) is tuple and exact(value) else encode(value)

    def decode_scalars(value: Any) -> tuple[Any, ...]:
        return tuple(value) if type(value) is list and exact(value) else decode(value)

    return encode_scalars, decode_scalars


def _mapping(item: Any) -> tuple[Encode, Decode]:
    encode_item, decode_item = _codec(item)

    def encode(value: Any) -> dict[str, Any]:
        return {
            _check(k, str, "key"): encode_item(x) for k, x in _check(value, dict, "dict").items()
        }

    def decode(value: Any) -> dict[str, Any]:
        return {k: decode_item(x) for k, x in _check(value, dict, "object").items()}

    return encode, decode


def _tagged(expected: type | None) -> tuple[Encode, Decode]:
    """A registered dataclass (``expected``, or any kind when None) as a tagged object."""

    def encode(value: Any) -> dict[str, Any]:
        cls = type(value)
        if cls not in _NAMES or (expected is not None and cls is not expected):
            raise WireError(f"{cls.__name__} is not a kind here")
        return _dataclass_codec(cls)[0](value, True)

    def decode(value: Any) -> Any:
        name = _check(value, dict, "object").get("kind")
        cls = KINDS.get(name) if isinstance(name, str) else None
        if cls is None or (expected is not None and cls is not expected):
            raise WireError(f"unknown kind {name!r}")
        return _dataclass_codec(cls)[1](value, True)

    return encode, decode


def _codec(tp: Any) -> tuple[Encode, Decode]:
    """Encoder and decoder of a value of annotation ``tp``."""
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if tp in _SCALARS:
        return _scalar(tp)
    if tp is float:
        return _float()
    if tp is type(None) or tp is None:
        return _none, _none
    if tp is Message:
        return encode_message, decode_message
    if origin in (types.UnionType, typing.Union):
        return _union(args)
    if origin is tuple:
        return _array(args[0]) if len(args) == 2 and args[1] is Ellipsis else _fixed(args)
    if origin is dict and args[0] is str:
        return _mapping(args[1])
    if isinstance(tp, type) and tp in _NAMES:
        return _tagged(tp)
    raise TypeError(f"no wire encoding for {tp!r}")


def _dataclass_codec(
    cls: type,
) -> tuple[Callable[[Any, bool], dict[str, Any]], Callable[[dict[str, Any], bool], Any]]:
    """The fields' encoder and decoder of a registered dataclass, made on first use (its
    annotations are read then, when every class they name exists). With ``tagged`` the
    object has the kind's ``kind`` member too (written first; read as the kind's name)."""
    found = _CODECS.get(cls)
    if found is not None:
        return found
    hints = typing.get_type_hints(cls)
    shipped = [f for f in dataclasses.fields(cls) if f.metadata.get("wire", True)]
    fields = tuple((f.name, *_codec(hints[f.name])) for f in shipped)
    names = frozenset(name for name, _, _ in fields)
    tagged_names = names | {"kind"}
    tag = _NAMES[cls]
    # the shipped fields are the first positional ones (the local ones come after, by
    # keyword): the class is made from their values in order
    positional = [f.name for f in dataclasses.fields(cls) if f.init and not f.kw_only]
    in_order = positional[: len(fields)] == [name for name, _, _ in fields]

    def encode(value: Any, tagged: bool) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": tag} if tagged else {}
        for name, enc, _ in fields:
            out[name] = enc(getattr(value, name))
        return out

    def decode(value: dict[str, Any], tagged: bool) -> Any:
        if value.keys() != (tagged_names if tagged else names):
            members = sorted(k for k in value if not tagged or k != "kind")
            raise WireError(f"{tag}: members {members} where {sorted(names)}")
        if in_order:
            return cls(*[dec(value[name]) for name, _, dec in fields])
        return cls(**{name: dec(value[name]) for name, _, dec in fields})

    found = _CODECS[cls] = (encode, decode)
    return found


#: Any registered kind as a tagged object: how an event message carries its event.
_encode_tagged, _decode_tagged = _tagged(None)


def _event_in(value: Any) -> Message:
    found = _decode_tagged(value)
    if not isinstance(found, Event):
        raise WireError(f"{type(found).__name__} is not an event")
    return message_of(found)


# -- envelopes -----------------------------------------------------------------------------


def encode(value: Any) -> bytes:
    """``value``, an instance of a registered kind, as the bytes of its envelope."""
    cls = type(value)
    if cls not in _NAMES:
        raise WireError(f"{cls.__name__} is not a kind")
    envelope = {"v": VERSION, **_dataclass_codec(cls)[0](value, True)}
    return json.dumps(envelope, separators=(",", ":")).encode()


def decode(data: bytes, expected: type[T]) -> T:
    """The message of kind ``expected`` in ``data``; :class:`WireError` for anything else."""
    try:
        envelope = json.loads(data)
    except (UnicodeDecodeError, ValueError) as exc:
        raise WireError(f"not JSON: {exc}") from None
    if not isinstance(envelope, dict):
        raise WireError("not an object")
    if envelope.get("v") != VERSION:
        raise WireError(f"version {envelope.get('v')!r}, not {VERSION}")
    name = envelope.get("kind")
    if not isinstance(name, str) or KINDS.get(name) is not expected:
        raise WireError(f"kind {name!r} where {_NAMES[expected]!r} was due")
    del envelope["v"]
    found: T = _dataclass_codec(expected)[1](envelope, True)
    return found


def receive(subject: str, data: bytes, expected: type[T]) -> T | None:
    """:func:`decode`, or None (logged) for a message this node does not read: a bad
    message never reaches the handler, nor raises into the NATS callback."""
    try:
        return decode(data, expected)
    except WireError as exc:
        log.warning("cluster: dropped a message on %s: %s", subject, exc)
        return None


# -- messages to users ------------------------------------------------------------------


def encode_message(message: Any) -> dict[str, Any]:
    """A resolved message (:meth:`Message.resolve`) as a tagged object."""
    if isinstance(message, EventMessage):
        return {"kind": "event", "event": _encode_tagged(message.event)}
    codec = _MESSAGE_ENCODERS.get(type(message))
    if codec is None:
        raise WireError(f"{type(message).__name__} is not a message the wire carries")
    name, encoder = codec
    return {"kind": name, **encoder(message)}


def decode_message(value: Any) -> Message:
    name = _check(value, dict, "message").get("kind")
    decoder = _MESSAGE_DECODERS.get(name) if isinstance(name, str) else None
    if decoder is None:
        raise WireError(f"unknown message kind {name!r}")
    members, read = decoder
    if value.keys() != members | {"kind"}:
        raise WireError(f"{name}: members {sorted(value)}")
    return read(value)


def _texts(value: Any) -> tuple[str, ...]:
    return tuple(_check(x, str, "line") for x in _check(value, list, "lines"))


def _encode_texts(lines: tuple[str, ...]) -> list[str]:
    return [_check(x, str, "line") for x in lines]


def _lines_out(message: Lines) -> dict[str, Any]:
    return {"lines": _encode_texts(message.lines)}


def _datagram_out(message: Datagram) -> dict[str, Any]:
    return {"record": encode_record(message.record)}


def _raw_out(message: Raw) -> dict[str, Any]:
    return {"data": base64.b64encode(message.data).decode("ascii")}


def _raw_in(value: dict[str, Any]) -> Raw:
    try:
        return Raw(base64.b64decode(_check(value["data"], str, "data"), validate=True))
    except binascii.Error as exc:
        raise WireError(f"raw: {exc}") from None


_MESSAGE_ENCODERS: dict[type, tuple[str, Callable[[Any], dict[str, Any]]]] = {
    Lines: ("lines", _lines_out),
    Datagram: ("datagram", _datagram_out),
    Raw: ("raw", _raw_out),
    Ring: ("bell", lambda message: {}),
    FixedBoard: ("board", lambda message: _board_out(message)),
}
_MESSAGE_DECODERS: dict[str, tuple[frozenset[str], Callable[[dict[str, Any]], Message]]] = {
    "event": (frozenset({"event"}), lambda v: _event_in(v["event"])),
    "lines": (frozenset({"lines"}), lambda v: Lines(_texts(v["lines"]))),
    "datagram": (frozenset({"record"}), lambda v: Datagram(decode_record(v["record"]))),
    "raw": (frozenset({"data"}), _raw_in),
    "bell": (frozenset(), lambda v: BELL),
    "board": (frozenset({"variant", "chess960", "fen", "facts", "relation", "flip"}),
              lambda v: _board_in(v)),
}  # fmt: skip


# -- datagram records ------------------------------------------------------------------


def _nullable(field: Any) -> bool:
    return field.when is not None or field.optional or field.kind == "f"


def _value_out(kind: str, value: Any, what: str) -> Any:
    if kind == "i":
        return _check(value, int, what)
    if kind in "bf":
        return bool(_check(value, int, what) if not isinstance(value, bool) else value)
    return _check(value, str, what)


def _value_in(kind: str, value: Any, what: str) -> Any:
    return _check(value, {"i": int, "b": bool, "f": bool}.get(kind, str), what)


def encode_record(record: Any) -> list[Any]:
    """A datagram record as ``[dg, [values...]]`` (and its extra tokens, if any)."""
    if not isinstance(record, DatagramRecord) or record.raw is not None:
        raise WireError(f"{type(record).__name__} is not a record of the DG catalog")
    values: list[Any] = []
    for field, value in zip(record.form, record, strict=False):
        what = f"DG {record.dg} {field.name}"
        if value is None and _nullable(field):
            values.append(None)
        elif field.kind == "R":
            values.append([[r.dg, r.rating, r.annotation] for r in value])
        elif field.kind == "M":
            values.append([list(m) for m in value])
        elif field.kind == "P":
            values.append([list(p) for p in value])
        elif field.repeated:
            values.append([_value_out(field.kind, x, what) for x in value])
        else:
            values.append(_value_out(field.kind, value, what))
    extra = getattr(record, "extra", ())
    return [record.dg, values, list(extra)] if extra else [record.dg, values]


def decode_record(value: Any) -> Any:
    """A record from ``[dg, [values...]]`` or ``[dg, [values...], [extra tokens...]]``."""
    if not isinstance(value, list) or len(value) not in (2, 3):
        raise WireError("a record is [dg, values] or [dg, values, extra]")
    dg, values = _check(value[0], int, "dg"), _check(value[1], list, "values")
    if dg not in FORMS:
        raise WireError(f"DG {dg} is not in the catalog")
    cls: Any = RECORDS[dg]  # its fields are made at run time from FORMS
    if len(values) != len(cls.form):
        raise WireError(f"DG {dg}: {len(values)} values where its form has {len(cls.form)}")
    fields: list[Any] = []
    for field, x in zip(cls.form, values, strict=True):
        what = f"DG {dg} {field.name}"
        if x is None and _nullable(field):
            fields.append(None)
        elif field.kind == "R":
            fields.append(tuple(Rating(*_ints(r, 3, what)) for r in _check(x, list, what)))
        elif field.kind == "M":
            fields.append(tuple(_move_info(m, what) for m in _check(x, list, what)))
        elif field.kind == "P":
            fields.append(tuple(PstatRecord(*_ints(p, 7, what)) for p in _check(x, list, what)))
        elif field.repeated:
            fields.append(tuple(_value_in(field.kind, y, what) for y in _check(x, list, what)))
        else:
            fields.append(_value_in(field.kind, x, what))
    if "extra" in cls._fields:
        extra = _texts(value[2]) if len(value) == 3 else ()
        return cls(*fields, extra)
    if len(value) == 3:
        raise WireError(f"DG {dg} has no extra tokens")
    return cls(*fields)


def _ints(value: Any, count: int, what: str) -> list[int]:
    if len(_check(value, list, what)) != count:
        raise WireError(f"{what}: {count} integers were due")
    return [_check(x, int, what) for x in value]


def _move_info(value: Any, what: str) -> MoveInfo:
    if len(_check(value, list, what)) != len(MoveInfo._fields):
        raise WireError(f"{what}: a move has {len(MoveInfo._fields)} parts")
    kinds = (str, str, int, int, int)
    return MoveInfo(
        *(x if x is None else _check(x, k, what) for k, x in zip(kinds, value, strict=True))
    )


# -- boards ------------------------------------------------------------------------------

#: Board classes by wire name: each icswire variant's (the first variant of a class names
#: it), then python-chess's other variants by their UCI name.
BOARD_CLASSES: dict[str, type[chess.Board]] = {}
for _variant in VARIANTS:
    if _variant.board_class not in BOARD_CLASSES.values():
        BOARD_CLASSES[_variant.name] = _variant.board_class
for _class in chess.variant.VARIANTS:
    if _class not in BOARD_CLASSES.values() and _class.uci_variant:
        BOARD_CLASSES.setdefault(_class.uci_variant, _class)
_BOARD_NAMES = {cls: name for name, cls in BOARD_CLASSES.items()}


def _recent_out(move: RecentMove) -> list[Any]:
    return [move.san, move.verbose, move.time_ms]


def _recent_in(value: Any) -> RecentMove:
    if len(_check(value, list, "move")) != 3:
        raise WireError("a recent move is [san, verbose, time_ms]")
    san, verbose, time_ms = value
    return RecentMove(
        _check(san, str, "san"), _check(verbose, str, "verbose"), _check(time_ms, int, "time_ms")
    )


_FACTS_CODECS: dict[str, tuple[Encode, Decode]] = {
    name: _codec(tp)
    for name, tp in (
        ("number", int), ("white", str), ("black", str), ("initial", int),
        ("increment", int), ("white_ms", int), ("black_ms", int), ("move_time_ms", int),
        ("ticking", bool), ("ply", int), ("last_move", tuple[str, str]),
    )
}  # fmt: skip


def _board_out(message: FixedBoard) -> dict[str, Any]:
    board, facts = message.board, message.facts
    name = _BOARD_NAMES.get(type(board))
    if name is None:
        raise WireError(f"no wire name for {type(board).__name__}")
    last_move = facts.last_move or last_move_notations(board)
    encoded = {
        key: code[0](getattr(facts, key))
        for key, code in _FACTS_CODECS.items()
        if key != "last_move"
    }
    encoded["last_move"] = list(last_move)
    encoded["recent"] = [_recent_out(m) for m in facts.recent]
    return {
        "variant": name,
        "chess960": board.chess960,
        "fen": board.fen(en_passant="fen"),
        "facts": encoded,
        "relation": _fixed_value(message.relation, int),
        "flip": _fixed_value(message.flip, bool),
    }


def _fixed_value(chosen: Any, expected: type) -> Any:
    """A resolved board's relation or flip (an :class:`Always`)."""
    if not isinstance(chosen, Always):
        raise WireError("a board on the wire has its relation and flip resolved")
    return _check(chosen.value, expected, "relation or flip")


def _board_in(value: dict[str, Any]) -> FixedBoard:
    board_class = BOARD_CLASSES.get(_check(value["variant"], str, "variant"))
    if board_class is None:
        raise WireError(f"unknown board variant {value['variant']!r}")
    try:
        board = board_class(
            _check(value["fen"], str, "fen"), chess960=_check(value["chess960"], bool, "chess960")
        )
    except ValueError as exc:
        raise WireError(f"board: {exc}") from None
    facts = _check(value["facts"], dict, "facts")
    if facts.keys() != {*_FACTS_CODECS, "recent"}:
        raise WireError(f"board facts: members {sorted(facts)}")
    found = {key: code[1](facts[key]) for key, code in _FACTS_CODECS.items()}
    recent = tuple(_recent_in(m) for m in _check(facts["recent"], list, "recent"))
    return FixedBoard(
        board,
        BoardFacts(recent=recent, **found),
        _check(value["relation"], int, "relation"),
        _check(value["flip"], bool, "flip"),
    )


# -- what nodes send each other ---------------------------------------------------------


@kind("batch")
@dataclasses.dataclass(frozen=True)
class Packet:
    """One batch's part for a node's users: its level 1 command number, the issuer's name,
    the messages, and for each group of receivers, the indexes of the messages it gets."""

    cn: int
    issuer: str
    groups: tuple[tuple[tuple[int, ...], tuple[str, ...]], ...]
    messages: tuple[Message, ...]


@kind("reply")
@dataclasses.dataclass(frozen=True)
class Reply:
    """The answer to a forwarded line (:class:`Run` ``number``): the user's own output."""

    number: int
    cn: int
    code: int | None
    output: tuple[Message, ...]


@kind("deliver")
@dataclasses.dataclass(frozen=True)
class Deliver:
    """``P.node.ID.deliver``: what node ID's users get, in the order it was flushed."""

    packets: tuple[Packet | Reply, ...]


@kind("run")
@dataclasses.dataclass(frozen=True)
class Run:
    """``P.node.ID.run``: run ``line`` for the replica of ``name`` (a user of ``home``);
    the answer goes to ``home`` as a :class:`Reply` among its deliveries."""

    number: int
    home: str
    name: str
    line: str


@kind("changes")
@dataclasses.dataclass(frozen=True)
class Changes:
    """``P.node.ID.changes``: what ``node`` says of one of node ID's users, the
    facts it owns (docs/cluster.md, "One writer per fact"), as they were when they changed:
    the game it plays there (state ``P`` or ``E`` and the game's number, or null), the
    games it observes there, ratings changed there. ``seq`` grows with each change the
    sender sends; the home writes the last it applied of each node to the registry."""

    node: str
    name: str
    seq: int
    playing: tuple[str, int] | None
    observing: tuple[int, ...]
    ratings: dict[str, tuple[int, int]]


@kind("kick")
@dataclasses.dataclass(frozen=True)
class Kick:
    """``P.node.ID.kick`` (request): a registered user logs in elsewhere; its session on
    node ID goes. The reply is an :class:`Ack`."""

    name: str


@kind("ack")
@dataclasses.dataclass(frozen=True)
class Ack:
    """The reply to a request that answers nothing but that it was done."""


@kind("list_games")
@dataclasses.dataclass(frozen=True)
class ListGames:
    """``P.node.ID.games`` (request): the games node ID lists; the reply is :class:`Games`."""


@kind("games")
@dataclasses.dataclass(frozen=True)
class Games:
    """Each game a node holds: (number, examined, FICS's row, ICC's row, FICS's order,
    White, Black, private), a :class:`~icswire.server.core.model.tables.ListedGame`."""

    rows: tuple[tuple[int, bool, str, str, int, str, str, bool], ...]


@kind("heartbeat")
@dataclasses.dataclass(frozen=True)
class Heartbeat:
    """``P.heartbeat``: a node is alive; when it started (wall clock, seconds), and the
    epoch it writes its games under (the one another node fences if it declares it dead)."""

    node: str
    started: float
    epoch: int
