"""The DG catalog as plain data, for programs in other languages.

The web client (``web/``) decodes level 2 datagrams from this table, which the server
serves at ``/protocol.json``: the same :data:`~icswire.protocol.dgforms.FORMS` lines the
Python codec is built from, so the two cannot drift. Each form is given as its field list
(name, kind letter, the DG that must be on for the field to be sent, whether it may be
missing at the end, whether it takes the rest of the fields), beside the line itself.
"""

from __future__ import annotations

from typing import Any

from icswire.protocol.dgforms import (
    DG,
    FORMS,
    MOVE_PART_DGS,
    RATING_DGS,
    MoveInfo,
    PstatRecord,
    parse_form,
)

#: Bump when the shape of :func:`table` changes (not when a form is added).
TABLE_VERSION = 1


def table() -> dict[str, Any]:
    """Every documented DG: ``{"version", "rating_dgs", "move_part_dgs", "move_parts",
    "pstat_fields", "datagrams"}``, ``datagrams`` keyed by the DG number as a string
    (JSON's keys are strings); ``move_parts`` are a DG_MOVE_LIST move's parts (name, kind,
    the move-part DG that sends it: DG_SEND_MOVES' fields), and ``pstat_fields`` the seven
    numbers of a DG_PSTAT record."""
    datagrams: dict[str, Any] = {}
    for number, form in sorted(FORMS.items()):
        datagrams[str(int(number))] = {
            "name": f"DG_{DG(number).name}",
            "form": form,
            "fields": [
                {
                    "name": field.name,
                    "kind": field.kind,
                    "when": field.when,
                    "optional": field.optional,
                    "repeated": field.repeated,
                }
                for field in parse_form(form)
            ],
        }
    return {
        "version": TABLE_VERSION,
        "rating_dgs": list(RATING_DGS),
        "move_part_dgs": list(MOVE_PART_DGS),
        "move_parts": [
            {"name": field.name, "kind": field.kind, "when": field.when}
            for field in parse_form(FORMS[DG.SEND_MOVES])
            if field.when in MOVE_PART_DGS and field.name in MoveInfo._fields
        ],
        "pstat_fields": list(PstatRecord._fields),
        "datagrams": datagrams,
    }
