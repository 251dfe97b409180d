"""dgrecords.py, the record classes as type checkers see them: generated from FORMS, the
same classes datagrams.py makes at run time, and the types of what the decoder gives."""

from __future__ import annotations

import types
import typing
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from icswire.protocol import datagrams as d
from icswire.protocol import dgrecords
from icswire.protocol.datagrams import FORMS, RECORDS, canonical_reader, decode_datagram
from icswire.protocol.recordgen import record_declarations
from tests.protocol.strategies import documented_dgs, records
from tests.protocol.strategies import settings as receiver_settings


def test_checked_in_file_is_what_recordgen_writes() -> None:
    """After a change to FORMS: ``python -m icswire.protocol.recordgen``."""
    assert Path(dgrecords.__file__).read_text(encoding="utf-8") == record_declarations()


def _declared() -> dict[str, Any]:
    """The classes dgrecords.py declares, made as a type checker reads them."""
    source = record_declarations().replace(
        "from typing import TYPE_CHECKING, NamedTuple", "from typing import NamedTuple\n"
    )
    namespace: dict[str, Any] = {"TYPE_CHECKING": True}
    exec(compile(source, "dgrecords.py", "exec"), namespace)  # noqa: S102  (our generated file)
    return namespace


DECLARED = _declared()


def test_declared_classes_are_the_ones_made_at_run_time() -> None:
    assert sorted(dgrecords.__all__) == sorted(cls.__name__ for cls in RECORDS.values())
    for dg, made in RECORDS.items():
        declared = DECLARED[made.__name__]
        assert declared._fields == made._fields, made.__name__
        assert declared._field_defaults == made._field_defaults, made.__name__
        assert declared.__doc__.split() == made.__doc__.split()
        assert [c.__name__ for c in declared.__mro__] == [c.__name__ for c in made.__mro__]
        assert made.dg == dg and getattr(dgrecords, made.__name__) is made
    assert d.Msec is dgrecords.Msec is RECORDS[56]


def _conforms(value: Any, hint: Any) -> bool:
    """Whether ``value`` is of the annotation ``hint`` (the few forms dgrecords.py uses)."""
    origin = typing.get_origin(hint)
    if origin is types.UnionType:
        return any(_conforms(value, arg) for arg in typing.get_args(hint))
    if origin is tuple:
        item = typing.get_args(hint)[0]
        return isinstance(value, tuple) and all(_conforms(x, item) for x in value)
    if hint is type(None):
        return value is None
    if hint is int:  # a bool is an int to isinstance, not to a reader of these types
        return type(value) is int
    return isinstance(value, hint)


@settings(max_examples=300, deadline=None)
@given(dg=documented_dgs, enabled=receiver_settings, data=st.data())
def test_decoded_values_have_the_declared_types(
    dg: int, enabled: frozenset[int], data: st.DataObject
) -> None:
    """Both decoders (the general one and the one-pass reader of canonical bodies) give
    each field a value of the type dgrecords.py declares for it."""
    record = data.draw(records(dg, enabled))
    body = d.encode_datagram(record)[2:-2].decode("latin-1")
    decoded = [decode_datagram(body, enabled)]
    reader = canonical_reader(dg, enabled)
    if reader is not None and (read := reader(body)) is not None:
        decoded.append(read)
    fields = DECLARED[type(record).__name__ + "Fields"]
    hints = typing.get_type_hints(fields, DECLARED)
    for got in decoded:
        for name, value in got._asdict().items():
            assert _conforms(value, hints[name]), (FORMS[dg], name, value, hints[name])
