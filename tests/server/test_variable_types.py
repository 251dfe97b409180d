"""The typed dicts of user variables follow their tables: a variable added, removed,
renamed, moved or of another kind in ``VARIABLES`` (or a name in ``InterfaceVariables``
that ``IVARIABLES`` lacks) fails here until ``SetVariables`` says the same, so that what
mypy checks of ``user.variables[...]`` is what the server keeps there."""

from __future__ import annotations

from typing import get_type_hints

from icswire.server.core.model.variables import (
    IVARIABLES,
    VARIABLES,
    InterfaceVariables,
    SetVariables,
    VariableTable,
    value_of,
)
from icswire.server.core.net.session import Session

#: The type of the values of each kind: booleans are kept as the ints 0 and 1.
KIND_TYPES = {"bool": int, "int": int, "str": str}


def table_types(
    table: VariableTable[SetVariables] | VariableTable[InterfaceVariables],
) -> list[tuple[str, type]]:
    return [(v.name, KIND_TYPES[v.kind]) for v in table.by_name.values()]


def test_set_variables_are_the_tables_names_and_kinds_in_its_order() -> None:
    assert list(get_type_hints(SetVariables).items()) == table_types(VARIABLES)
    assert SetVariables.__required_keys__ == frozenset(VARIABLES.by_name)


def test_interface_variables_are_the_tables_names_and_kinds_in_its_order() -> None:
    assert list(get_type_hints(InterfaceVariables).items()) == table_types(IVARIABLES)
    assert InterfaceVariables.__required_keys__ == frozenset(IVARIABLES.by_name)


def test_defaults_and_parsed_values_are_of_their_kinds_type() -> None:
    for table in (VARIABLES, IVARIABLES):
        for variable in table.by_name.values():
            kind = KIND_TYPES[variable.kind]
            typed = {
                "bool": "1",
                "int": str(variable.low),
                "str": variable.words[0] if variable.words else "x",
            }[variable.kind]
            assert type(variable.default) is kind, variable.name  # an int, never a bool
            assert type(variable.parse(typed)) is kind, variable.name
            assert type(value_of(table.initial, variable.name)) is kind, variable.name


def test_value_of_reads_a_name_known_at_run_time() -> None:
    session = Session()
    session.set_variable("style", 12)
    session.set_ivariable("ms", 1)
    assert value_of(session.variables, "style") == 12 == session.variables["style"]
    assert value_of(session.variables, "prompt") == "fics%"
    assert value_of(session.ivariables, "ms") == 1
