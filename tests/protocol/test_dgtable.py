"""The exported DG table says what the Python codec's forms say."""

import json

from icswire.protocol.dgforms import DG, FORMS, MOVE_PART_DGS, MoveInfo, PstatRecord, parse_form
from icswire.protocol.dgtable import table


def test_every_form_is_exported_with_its_fields() -> None:
    exported = json.loads(json.dumps(table()))
    assert set(exported["datagrams"]) == {str(int(number)) for number in FORMS}
    for number, form in FORMS.items():
        entry = exported["datagrams"][str(int(number))]
        assert entry["name"] == f"DG_{DG(number).name}"
        assert entry["form"] == form
        assert [tuple(field.values()) for field in entry["fields"]] == [
            tuple(field) for field in parse_form(form)
        ]


def test_send_moves_parts_name_the_dgs_that_choose_them() -> None:
    fields = table()["datagrams"][str(int(DG.SEND_MOVES))]["fields"]
    assert [(field["name"], field["when"]) for field in fields] == [
        ("gamenumber", None),
        ("algebraic", 33),
        ("smith", 34),
        ("time", 35),
        ("clock", 36),
        ("variation", 113),
    ]


def test_move_parts_and_pstat_records_are_named_as_the_codec_names_them() -> None:
    exported = table()
    parts = exported["move_parts"]
    assert [part["name"] for part in parts] == list(MoveInfo._fields)
    assert [part["when"] for part in parts] == list(MOVE_PART_DGS)
    assert [part["kind"] for part in parts] == ["w", "w", "i", "i", "i"]
    assert exported["pstat_fields"] == list(PstatRecord._fields)
