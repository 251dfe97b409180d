"""Checks an object of ``icswire encode``'s input against the record its event names.

An object made by :func:`icswire.protocol.jsonl.event_to_dict` always passes. Anything
else is refused with a :class:`BadObject` naming the key or field (``fields.text``,
``fields.ratings[0].rating``) and what was expected there: no key the contract does not
have, no field the record does not have, every field without a default present, and each
value of the type the record declares (a datagram's from the kind letters of its form,
:mod:`icswire.protocol.dgforms`). Text stands for bytes, one character per byte, so it is
refused beyond U+00FF.
"""

from __future__ import annotations

import functools
import types
import typing
from collections.abc import Mapping
from typing import Any, NamedTuple

from icswire.protocol.bughouse import Bughouse
from icswire.protocol.datagrams import (
    FORMS,
    RECORDS,
    Field,
    MoveInfo,
    PstatRecord,
    Rating,
    UnknownDatagram,
)
from icswire.protocol.events import EVENT_NAMES, BughouseLine, Style10Block, Style12Line
from icswire.protocol.ivars import IVAR_NAMES
from icswire.protocol.style10 import Style10
from icswire.protocol.style12 import Style12

#: The record a board line event holds (its fields are the record's, and ``end``).
LINE_RECORDS: dict[type, type] = {
    Style12Line: Style12,
    BughouseLine: Bughouse,
    Style10Block: Style10,
}
_TOP_KEYS = frozenset({"event", "fields", "raw"})
_DATAGRAM_KEYS = _TOP_KEYS | {"dg", "name"}
_KIND_TYPES: dict[str, Any] = {
    "i": int,
    "b": bool,
    "f": bool | None,
    "w": str,
    "s": str,
    "q": str,
    "R": tuple[Rating, ...],
    "M": tuple[MoveInfo, ...],
    "P": tuple[PstatRecord, ...],
}


class BadObject(ValueError):
    """An object that is not an event: ``where`` (a key path) and what was wrong there."""

    def __init__(self, where: str, problem: str) -> None:
        super().__init__(f"{where}: {problem}" if where else problem)
        self.where = where
        self.problem = problem


class Slot(NamedTuple):
    """One field a record has: its type, and whether an object must give it."""

    type: Any
    required: bool


Slots = Mapping[str, Slot]


def check_object(data: Any) -> None:
    """Raise :class:`BadObject` unless ``data`` is an event object (module docstring)."""
    if not isinstance(data, Mapping):
        raise BadObject("", f"expected a JSON object, got {_show(data)}")
    kind = data.get("event")
    if not isinstance(kind, str):
        raise BadObject("event", f"expected the event's name (a string), got {_show(kind)}")
    raw = data.get("raw")
    if raw is not None:
        _check(raw, bytes, "raw")
    if kind == "datagram":
        _unknown_keys(data, _DATAGRAM_KEYS)
        _check_datagram(data)
        return
    _unknown_keys(data, _TOP_KEYS)
    slots = event_slots(kind)
    if slots is None:
        raise BadObject("event", f"unknown event {kind!r}")
    _check_fields(data, slots, kind)


def _unknown_keys(data: Mapping[str, Any], known: frozenset[str]) -> None:
    for key in data:
        if key not in known:
            raise BadObject(str(key), f"no such key (an object has {_listing(known)})")


def _check_datagram(data: Mapping[str, Any]) -> None:
    dg = data.get("dg")
    if isinstance(dg, bool) or not isinstance(dg, int):
        raise BadObject("dg", f"expected a DG number (an integer), got {_show(dg)}")
    if dg not in FORMS:
        if "fields" not in data:
            raise BadObject("fields", "missing: expected a list of strings")
        _check(data["fields"], tuple[str, ...], "fields")
        _check_name(data, UnknownDatagram(dg).spec_name, dg)
        return
    record = RECORDS[dg]
    _check_name(data, record.spec_name, dg)
    _check_fields(data, datagram_slots(dg), record.spec_name)


def _check_name(data: Mapping[str, Any], spec_name: str, dg: int) -> None:
    name = data.get("name")
    if name is not None and name != spec_name:
        raise BadObject("name", f"expected {spec_name!r} (the name of DG {dg}), got {_show(name)}")


def _check_slots(values: Mapping[str, Any], slots: Slots, where: str, unknown: str) -> None:
    """Each of ``values`` of the type of its slot, none unknown (``unknown`` says so), and
    every required slot there."""
    for name, value in values.items():
        slot = slots.get(name)
        if slot is None:
            raise BadObject(f"{where}.{name}", f"{unknown} ({_listing(slots)})")
        _check(value, slot.type, f"{where}.{name}")
    for name, slot in slots.items():
        if slot.required and name not in values:
            raise BadObject(f"{where}.{name}", f"missing: expected {_describe(slot.type)}")


def _check_fields(data: Mapping[str, Any], slots: Slots, what: str) -> None:
    if "fields" not in data:
        raise BadObject("fields", f"missing: expected the fields of {what}")
    fields = data["fields"]
    if not isinstance(fields, Mapping):
        expected = f"expected a JSON object (the fields of {what})"
        raise BadObject("fields", f"{expected}, got {_show(fields)}")
    _check_slots(fields, slots, "fields", f"{what} has no such field")


@functools.cache
def event_slots(kind: str) -> Slots | None:
    """The fields of the event named ``kind`` (not a datagram), or None for no such event:
    a board line's or interface variable line's are its record's and its ``end``."""
    ivar = next((cls for cls, name in IVAR_NAMES.items() if name == kind), None)
    if ivar is not None:
        return {**record_slots(ivar), "end": Slot(str, True)}
    cls = next((cls for cls, name in EVENT_NAMES.items() if name == kind), None)
    if cls is None:
        return None
    record = LINE_RECORDS.get(cls)
    if record is None:
        return record_slots(cls)
    if cls is Style10Block:
        return record_slots(record)
    return {**record_slots(record), "end": Slot(str, True)}


@functools.cache
def datagram_slots(dg: int) -> Slots:
    """The fields of a documented DG's record, from its form."""
    form: tuple[Field, ...] = RECORDS[dg].form
    slots: dict[str, Slot] = {}
    for f in form:
        kind: Any = _KIND_TYPES[f.kind]
        if f.repeated and f.kind not in "RMP":
            kind = tuple[kind, ...]
        if f.may_be_absent:
            kind = kind | None
        slots[f.name] = Slot(kind, not f.may_be_absent)
    if not any(f.repeated for f in form):
        slots["extra"] = Slot(tuple[str, ...], False)
    return slots


@functools.cache
def record_slots(cls: type) -> Slots:
    """The fields of a NamedTuple record, from its annotations and defaults."""
    hints = typing.get_type_hints(cls)
    defaults = getattr(cls, "_field_defaults", {})
    return {
        name: Slot(hints[name], name not in defaults)
        for name in cls._fields  # type: ignore[attr-defined]
    }


def _check(value: Any, kind: Any, where: str) -> None:
    if not _fits(value, kind, where):
        raise BadObject(where, f"expected {_describe(kind)}, got {_show(value)}")


def _fits(value: Any, kind: Any, where: str) -> bool:
    """Whether ``value`` is a JSON value of type ``kind``; a nested mistake raises."""
    origin = typing.get_origin(kind)
    if origin in (types.UnionType, typing.Union):
        options = typing.get_args(kind)
        if value is None:
            return type(None) in options
        return any(_fits(value, option, where) for option in options if option is not type(None))
    if origin is tuple:
        args = typing.get_args(kind)
        if not isinstance(value, list):
            return False
        if len(args) == 2 and args[1] is Ellipsis:
            args = (args[0],) * len(value)
        elif len(value) != len(args):
            return False
        for n, (item, item_kind) in enumerate(zip(value, args, strict=True)):
            _check(item, item_kind, f"{where}[{n}]")
        return True
    if kind is bool:
        return isinstance(value, bool)
    if kind is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if kind in (str, bytes):
        if not isinstance(value, str):
            return False
        if any(ord(char) > 0xFF for char in value):
            raise BadObject(where, "expected one character per byte (U+0000 to U+00FF)")
        return True
    if isinstance(kind, type) and hasattr(kind, "_fields"):
        return _fits_record(value, kind, where)
    raise TypeError(f"no JSON form for {kind!r}")  # a record type this module lacks


def _fits_record(value: Any, cls: type, where: str) -> bool:
    """A nested record (a rating, a move, a pstat record): an object or a list."""
    slots = record_slots(cls)
    if isinstance(value, list):
        required = sum(slot.required for slot in slots.values())
        if not required <= len(value) <= len(slots):
            return False
        value = dict(zip(slots, value, strict=False))
    elif not isinstance(value, Mapping):
        return False
    _check_slots(value, slots, where, "no such field")
    return True


def _describe(kind: Any) -> str:
    """``kind`` in words: "an integer", "null or a string", "a list of integers"."""
    origin = typing.get_origin(kind)
    if origin in (types.UnionType, typing.Union):
        words = [_describe(o) for o in typing.get_args(kind) if o is not type(None)]
        return "null or " + " or ".join(words)
    if origin is tuple:
        args = typing.get_args(kind)
        if len(args) == 2 and args[1] is Ellipsis:
            return f"a list of {_plural(args[0])}"
        return f"a list of {len(args)}: " + ", ".join(_describe(a) for a in args)
    if kind is bool:
        return "true or false"
    if kind is int:
        return "an integer"
    if kind in (str, bytes):
        return "a string"
    if hasattr(kind, "_fields"):
        return f"an object with {_listing(record_slots(kind))}"
    return repr(kind)


def _plural(kind: Any) -> str:
    if kind is int:
        return "integers"
    if kind in (str, bytes):
        return "strings"
    if kind is bool:
        return "trues and falses"
    if hasattr(kind, "_fields"):
        return f"objects with {_listing(record_slots(kind))}"
    return _describe(kind)


def _listing(names: Any) -> str:
    names = sorted(names) if isinstance(names, frozenset) else list(names)
    return ", ".join(names) if names else "no fields"


def _show(value: Any) -> str:
    """A JSON value as it was written, cut short."""
    import json

    text = json.dumps(value)
    return text if len(text) <= 40 else text[:37] + "..."
