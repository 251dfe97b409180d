"""Writes ``dgrecords.py``: the record class of every form of :data:`FORMS`, declared for
type checkers (see that module's docstring).

``python -m icswire.protocol.recordgen`` rewrites ``src/icswire/protocol/dgrecords.py``
after a change to FORMS; ``tests/protocol/test_dgrecords.py`` fails while the checked-in
file differs from what :func:`record_declarations` writes.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

from icswire.protocol.dgforms import DG, FORMS, Field, parse_form, record_class_name

TARGET = Path(__file__).with_name("dgrecords.py")
LINE_LENGTH = 100  # ruff's, in pyproject.toml

HEADER = '''\
"""The datagram records as type checkers see them. GENERATED from FORMS in dgforms.py by
icswire.protocol.recordgen: do not edit; after changing FORMS run
``python -m icswire.protocol.recordgen`` (tests/protocol/test_dgrecords.py fails while
this file differs from what it writes).

dgforms.py makes each record class at run time from its FORMS line, on first use (so
start-up pays only for the records a program uses); the classes below are what it makes:
a NamedTuple of the form's fields (and ``extra``, unless a field takes the rest), with
DatagramRecord as a second base. Use them through datagrams (``datagrams.SendMoves``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    from icswire.protocol.dgforms import DatagramRecord, MoveInfo, PstatRecord, Rating
'''

#: The Python type of one value of each kind of field.
_TYPES = {"i": "int", "b": "bool", "f": "bool | None", "w": "str", "s": "str", "q": "str"}
_ITEM_TYPES = {"R": "Rating", "M": "MoveInfo", "P": "PstatRecord"}
#: Field names that shadow a method of tuple, which NamedTuple allows and mypy reports.
_TUPLE_METHODS = frozenset({"count", "index"})


def field_type(f: Field) -> str:
    """The annotation of a field: a tuple for the rest of the fields and for ratings,
    ``| None`` for a field a receiver's settings or an older server may leave out."""
    if f.kind in _ITEM_TYPES:
        return f"tuple[{_ITEM_TYPES[f.kind]}, ...]"
    if f.repeated:
        return f"tuple[{_TYPES[f.kind]}, ...]"
    kind = _TYPES[f.kind]
    return f"{kind} | None" if f.may_be_absent and not kind.endswith("| None") else kind


def _declaration(dg: int, form: tuple[Field, ...]) -> list[str]:
    name = record_class_name(dg)
    lines = [f"    class {name}Fields(NamedTuple):"]
    # Fields a receiver may not get default to None, as long as only such fields follow.
    first_default = len(form)
    while first_default and form[first_default - 1].may_be_absent:
        first_default -= 1
    names = []
    for n, f in enumerate(form):
        default = " = None" if n >= first_default else ""
        ignore = "  # type: ignore[assignment]" if f.name in _TUPLE_METHODS else ""
        lines.append(f"        {f.name}: {field_type(f)}{default}{ignore}")
        names.append(f.name)
    if not any(f.repeated for f in form):
        lines.append("        extra: tuple[str, ...] = ()")
        names.append("extra")
    doc = f"DG_{DG(dg).name} ({dg}): " + " ".join(names)
    lines += ["", f"    class {name}({name}Fields, DatagramRecord):", *_docstring(doc), ""]
    return lines


def _docstring(doc: str, indent: str = " " * 8) -> list[str]:
    """The docstring ``doc``, wrapped to the project's line length."""
    one = f'{indent}"""{doc}"""'
    if len(one) <= LINE_LENGTH:
        return [one]
    text = textwrap.wrap('"""' + doc, LINE_LENGTH - len(indent) - 3)
    if len(text) == 1:
        return [f'{indent}{text[0]}"""']
    return [indent + line for line in text] + [indent + '"""']


def record_declarations() -> str:
    """The text of ``dgrecords.py``, from :data:`FORMS`."""
    names = [record_class_name(dg) for dg in FORMS]
    lines = [HEADER, "__all__ = ["]
    lines += [f'    "{name}",' for name in sorted(names)]
    lines += ["]", "", "if TYPE_CHECKING:", ""]
    for dg, form in FORMS.items():
        lines += _declaration(dg, parse_form(form))
    lines += [
        "else:  # the classes dgforms.py makes, by name",
        "    from icswire.protocol.dgforms import record_getattr",
        "",
        "    __getattr__ = record_getattr(__name__)",
        "",
    ]
    return "\n".join(lines)


def main() -> None:
    TARGET.write_text(record_declarations(), encoding="utf-8")
    print(f"wrote {TARGET}")


if __name__ == "__main__":
    main()
