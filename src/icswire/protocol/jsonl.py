"""Events as JSON-ready dicts and back: the contract of ``icswire decode`` / ``encode``.

Every object has ``"event"`` (see :data:`~icswire.protocol.events.EVENT_NAMES`; FICS
interface variable lines are named by their kind, :data:`~icswire.protocol.ivars.IVAR_NAMES`) and
``"fields"``, the event's fields by name; no field name can clash with the keys around
them. Datagrams are ``"datagram"`` with ``"dg"`` (the number) and ``"name"`` (the spec's
name); a datagram the catalog does not document has the list of its fields as they stood
on the wire instead. An event whose bytes are not what its fields encode to (a datagram
with two blanks, an error too long to keep whole) also has ``"raw"``, those bytes. Nested
records become objects, tuples become lists, and bytes become strings with one character
per byte (latin-1), as all wire text does.

>>> event_to_dict(Text("hi", "\\r\\n"))
{'event': 'text', 'fields': {'text': 'hi', 'end': '\\r\\n'}}
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from icswire.protocol.datagrams import DatagramRecord, UnknownDatagram, record_from_fields
from icswire.protocol.encoder import encode_event
from icswire.protocol.events import (
    EVENT_NAMES,
    Error,
    Event,
    IvarLine,
    Style10Block,
    Telnet,
    event_name,
)
from icswire.protocol.ivars import IVAR_NAMES
from icswire.protocol.jsoncheck import LINE_RECORDS, check_object

_BY_NAME = {name: cls for cls, name in EVENT_NAMES.items()}
_IVAR_BY_NAME = {name: cls for cls, name in IVAR_NAMES.items()}


def _plain(value: Any) -> Any:
    if isinstance(value, tuple) and hasattr(value, "_asdict"):
        return {key: _plain(item) for key, item in value._asdict().items()}
    if isinstance(value, tuple | list):
        return [_plain(item) for item in value]
    if isinstance(value, bytes):
        return value.decode("latin-1")
    return value


def event_to_dict(event: Event) -> dict[str, Any]:
    """A JSON-ready dict of one event."""
    if isinstance(event, DatagramRecord | UnknownDatagram):
        out: dict[str, Any] = {"event": "datagram", "dg": event.dg, "name": event.spec_name}
        fields = _plain(event)
        out["fields"] = fields["fields"] if isinstance(event, UnknownDatagram) else fields
        if event.raw is not None:
            out["raw"] = event.raw.decode("latin-1")
        return out
    fields = {}
    for key, value in event._asdict().items():
        if key == "record":
            fields.update(_plain(value))
        elif not (key == "bells" and not value):
            fields[key] = _plain(value)
    return {"event": event_name(event), "fields": fields}


def _tuples(value: Any) -> Any:
    return tuple(_tuples(item) for item in value) if isinstance(value, list) else value


def event_from_dict(data: Mapping[str, Any]) -> Event:
    """The event a dict made by :func:`event_to_dict` stands for (a datagram's ``"raw"``
    becomes its ``raw``). Raises ValueError (or KeyError/TypeError) when it does not
    describe one."""
    kind = data.get("event")
    fields = data["fields"]
    if kind == "datagram":
        dg = int(data["dg"])
        record = record_from_fields(dg, {"fields": fields} if isinstance(fields, list) else fields)
        if data.get("raw") is not None:
            record.raw = str(data["raw"]).encode("latin-1")
        return record
    ivar: Any = _IVAR_BY_NAME.get(str(kind))
    if ivar is not None:
        line = ivar(**{k: _tuples(fields[k]) for k in ivar._fields if k in fields})
        return IvarLine(line, fields["end"])
    cls = _BY_NAME.get(str(kind))
    if cls is None:
        raise ValueError(f"unknown event {kind!r}")
    record_cls: Any = LINE_RECORDS.get(cls)
    if record_cls is not None:
        record = record_cls(**{k: _tuples(fields[k]) for k in record_cls._fields if k in fields})
        return cls(record, fields["end"]) if cls is not Style10Block else cls(record)
    values = {k: _tuples(fields[k]) for k in getattr(cls, "_fields") if k in fields}  # noqa: B009
    if cls in (Telnet, Error):
        values["data"] = str(values["data"]).encode("latin-1")
    return cls(**values)  # type: ignore[no-any-return]


def object_bytes(data: Mapping[str, Any]) -> bytes:
    """The wire bytes an object made by :func:`event_to_dict` stands for: its ``"raw"``
    if it has one, else its event's encoding (``icswire encode``). Raises
    :class:`~icswire.protocol.jsoncheck.BadObject` (a ValueError) naming the field that
    does not fit the record the object names."""
    check_object(data)
    raw = data.get("raw")
    return str(raw).encode("latin-1") if raw is not None else encode_event(event_from_dict(data))
