"""Every level 2 datagram of icc-formats.txt, decoded and encoded from its form.

The catalog, :mod:`icswire.protocol.dgforms`, holds :class:`DG`, one line of :data:`FORMS`
for each documented form (its notation: that module's docstring) and the record class
made from each; every name of it, and each record class (``datagrams.SendMoves``), is
also a name of this module. From a form this module makes, for each combination of the
receiver's settings that changes the form, a decoder and an encoder.

Type checkers see the record classes as ``dgrecords.py`` declares them (generated from
FORMS by :mod:`icswire.protocol.recordgen`).

Fields after the documented ones are kept, as they stood on the wire, in ``extra``.
DG numbers whose form the spec does not document decode to :class:`UnknownDatagram`.
A record decoded from a datagram written otherwise than :func:`encode_datagram` writes it
(two blanks, other quotes, ``007`` for ``7``) keeps the wire bytes in ``raw``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from collections.abc import Set as AbstractSet
from typing import TYPE_CHECKING, Any, NamedTuple

from icswire.protocol.dgforms import DG as DG
from icswire.protocol.dgforms import FORMS as FORMS
from icswire.protocol.dgforms import MOVE_PART_DGS as MOVE_PART_DGS
from icswire.protocol.dgforms import RATING_DGS as RATING_DGS
from icswire.protocol.dgforms import RECORDS as RECORDS
from icswire.protocol.dgforms import RESERVED_NAMES as RESERVED_NAMES
from icswire.protocol.dgforms import DatagramRecord as DatagramRecord
from icswire.protocol.dgforms import Field as Field
from icswire.protocol.dgforms import MoveInfo as MoveInfo
from icswire.protocol.dgforms import PstatRecord as PstatRecord
from icswire.protocol.dgforms import Rating as Rating
from icswire.protocol.dgforms import parse_form as parse_form
from icswire.protocol.dgforms import record_class_name as record_class_name
from icswire.protocol.dgforms import record_getattr
from icswire.protocol.level2 import frame, quote_brace, quote_ctrl, quote_word, split_fields

if TYPE_CHECKING:  # the record classes, made from FORMS (see dgrecords.py)
    from icswire.protocol.dgrecords import *  # noqa: F403


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


def record_as(dg: int, record: DatagramRecord) -> DatagramRecord:
    """``record``'s fields as a ``dg`` record, a DG of the same form: build a
    DG_GAME_STARTED (or DG_BULLET) record, which type checkers check field by field, and
    send it as DG_MY_GAME_STARTED, DG_STARTED_OBSERVING ... (or as another rating DG)."""
    if FORMS.get(dg) != FORMS[record.dg]:
        raise ValueError(f"DG {dg} does not have the form of {record.spec_name}")
    return tuple.__new__(RECORDS[dg], record)


if not TYPE_CHECKING:  # they see the classes of dgrecords.py, and a misspelt name
    __getattr__ = record_getattr(__name__)


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
