"""Events as JSON-ready dicts and back: the contract of ``icswire decode`` / ``encode``.

Every object has ``"event"`` (see :data:`~icswire.protocol.events.EVENT_NAMES`; datagrams
are ``"datagram"`` with ``"dg"`` and ``"name"``; FICS interface variable lines are named by
their kind, :data:`~icswire.protocol.events.IVAR_NAMES`) and the event's fields by name. Nested
records become objects, tuples become lists, and bytes become strings with one character
per byte (latin-1), as all wire text does.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from icswire.protocol.bughouse import Bughouse
from icswire.protocol.datagrams import DatagramRecord, UnknownDatagram, record_from_fields
from icswire.protocol.events import (
    EVENT_NAMES,
    IVAR_NAMES,
    BughouseLine,
    Error,
    Event,
    IvarLine,
    Style10Block,
    Style12Line,
    Telnet,
    event_name,
)
from icswire.protocol.style10 import Style10
from icswire.protocol.style12 import Style12

_BY_NAME = {name: cls for cls, name in EVENT_NAMES.items()}
_IVAR_BY_NAME = {name: cls for cls, name in IVAR_NAMES.items()}
_LINE_RECORDS: dict[type, type] = {
    Style12Line: Style12,
    BughouseLine: Bughouse,
    Style10Block: Style10,
}


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
        head: dict[str, Any] = {"event": "datagram", "dg": event.dg, "name": event.spec_name}
        fields = _plain(event)
        if isinstance(event, UnknownDatagram):
            return {**head, "fields": fields["fields"]}
        return {**head, **fields}
    out: dict[str, Any] = {"event": event_name(event)}
    for key, value in event._asdict().items():
        if key == "record":
            out.update(_plain(value))
        elif not (key == "bells" and not value):
            out[key] = _plain(value)
    return out


def _tuples(value: Any) -> Any:
    return tuple(_tuples(item) for item in value) if isinstance(value, list) else value


def event_from_dict(data: Mapping[str, Any]) -> Event:
    """The event a dict made by :func:`event_to_dict` stands for.
    Raises ValueError (or KeyError/TypeError) when it does not describe one."""
    kind = data.get("event")
    if kind == "datagram":
        return record_from_fields(int(data["dg"]), data)
    ivar: Any = _IVAR_BY_NAME.get(str(kind))
    if ivar is not None:
        record = ivar(**{k: _tuples(data[k]) for k in ivar._fields if k in data})
        return IvarLine(record, data["end"])
    cls = _BY_NAME.get(str(kind))
    if cls is None:
        raise ValueError(f"unknown event {kind!r}")
    record_cls: Any = _LINE_RECORDS.get(cls)
    if record_cls is not None:
        record = record_cls(**{k: _tuples(data[k]) for k in record_cls._fields if k in data})
        return cls(record, data["end"]) if cls is not Style10Block else cls(record)
    fields = {k: _tuples(data[k]) for k in getattr(cls, "_fields") if k in data}  # noqa: B009
    if cls in (Telnet, Error):
        fields["data"] = str(fields["data"]).encode("latin-1")
    return cls(**fields)  # type: ignore[no-any-return]
