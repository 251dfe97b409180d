"""The web client's codec fixtures: datagrams and a session's bytes as the Python encoder
writes them, with what the Python decoder reads from them, for ``web/test/*.test.js``.

``python -m tests.web.js_fixtures`` writes ``web/test/fixtures/codec.json`` (committed, so
``npm test`` needs no Python); ``test_js_codec.py`` checks the file is up to date and runs
the node tests on it.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from icswire.protocol.datagrams import (
    DG,
    FORMS,
    MOVE_PART_DGS,
    RATING_DGS,
    DatagramRecord,
    MoveInfo,
    PstatRecord,
    Rating,
    Record,
    UnknownDatagram,
    decode_datagram,
    encode_datagram,
    parse_form,
    record_from_fields,
)
from icswire.protocol.dgtable import table
from icswire.protocol.encoder import encode_unit_start
from icswire.protocol.level1 import CommandNumber as CN
from icswire.protocol.telnet import unescape

FIXTURE = Path(__file__).resolve().parents[2] / "web" / "test" / "fixtures" / "codec.json"
_GAME = {
    "gamenumber": 7,
    "whitename": "GuestABCD",
    "blackname": "fred",
    "wild_number": 0,
    "rating_type": "Blitz",
    "rated": False,
    "white_initial": 3,
    "white_increment": 0,
    "black_initial": 3,
    "black_increment": 0,
    "played_game": True,
    "ex_string": "",
    "white_rating": 0,
    "black_rating": 1500,
    "game_id": 12,
    "white_titles": "",
    "black_titles": "GM C",
    "irregular_legality": False,
    "irregular_semantics": False,
    "uses_plunkers": False,
    "fancy_timecontrol": "",
    "promote_to_king": False,
}
_SEEK = {
    "index": 3,
    "playername": "fred",
    "titles": "",
    "rating": 1500,
    "provisional": 2,
    "wild_number": 0,
    "rating_type": "Blitz",
    "time": 5,
    "increment": 3,
    "rated": False,
    "color": -1,
    "minrating": 0,
    "maxrating": 9999,
    "autoaccept": True,
    "formula": False,
}
_MATCH = {
    "challenger": "fred",
    "challenger_rating": 1500,
    "challenger_annotation": 2,
    "challenger_titles": "",
    "receiver": "GuestABCD",
    "receiver_rating": 0,
    "receiver_annotation": 0,
    "receiver_titles": "",
    "wild_number": 22,
    "rating_type": "Wild",
    "rated": False,
    "adjourned": False,
    "challenger_time": 15,
    "challenger_increment": 10,
    "receiver_time": 15,
    "receiver_increment": 10,
    "color_request": -1,
    "assess_loss": -8,
    "assess_draw": 0,
    "assess_win": 8,
}
_ITEM = {
    "index": 1,
    "id": 42,
    "event": "?",
    "date": "2026.11.28",
    "time": "13:00:00",
    "white_name": "GuestABCD",
    "white_rating": "0",
    "black_name": "GuestWXYZ",
    "black_rating": "0",
    "rated": False,
    "rating_type": 1,
    "wild_number": 0,
    "white_initial": "3",
    "white_increment": "0",
    "black_initial": "3",
    "black_increment": "0",
    "eco": "C20",
    "status": 1,
    "color": 1,
    "mode": 2,
    "note": "Mat",
}
_PSTAT = [PstatRecord(1, 2, 3, 4, 5, 6, 1), PstatRecord(0, 0, 0, 0, 0, 1, 2)]

#: (DG, fields, the DGs the receiver has on): every kind and modifier of the forms.
CASES: list[tuple[int, dict[str, Any], set[int]]] = [
    (DG.WHO_AM_I, {"myname": "GuestABCD", "titles": ""}, set()),
    (DG.SEND_MOVES, {"gamenumber": 7, "algebraic": "e4"}, {33}),
    (
        DG.SEND_MOVES,
        {"gamenumber": 7, "algebraic": "Qxf7#", "smith": "h5f7", "time": 1234, "clock": 178766},
        {33, 34, 35, 36},
    ),
    (
        DG.MOVE_LIST,
        {
            "gamenumber": 7,
            "initial_position": "*",
            "moves": [MoveInfo("e4", "e2e4", 0, 180000), MoveInfo("e5", "e7e5", 2000, 178000)],
        },
        {33, 34, 35, 36},
    ),
    (DG.MOVE_LIST, {"gamenumber": 3, "initial_position": "*", "moves": []}, {33}),
    (
        DG.PLAYER_ARRIVED,
        {
            "playername": "fred",
            "ratings": [Rating(4, 1500, 2), Rating(5, 0, 0)],
            "titles": "C",
            "state": "P",
            "state_game": 7,
        },
        {1, 4, 5, 9, 11},
    ),
    (DG.GAME_STARTED, _GAME, set()),
    (
        DG.MY_GAME_STARTED,
        {
            **_GAME,
            "white_titles": None,
            "black_titles": None,
            "irregular_legality": None,
            "irregular_semantics": None,
            "uses_plunkers": None,
            "fancy_timecontrol": None,
            "promote_to_king": None,
        },
        set(),
    ),
    (
        DG.MY_GAME_RESULT,
        {
            "gamenumber": 7,
            "become_examined": False,
            "result_code": "Mat",
            "score": "0-1",
            "description": "White checkmated",
            "eco": "C20",
        },
        set(),
    ),
    (DG.MSEC, {"gamenumber": 7, "color": "W", "msec": 179000, "running": True}, set()),
    (DG.SEEK, _SEEK, set()),
    (DG.SEEK, {**_SEEK, "fancy_timecontrol": "", "titles": "C TD"}, set()),
    (DG.SEEK_REMOVED, {"index": 3, "reason": 1}, set()),
    (DG.MATCH, _MATCH, {85}),
    (DG.MATCH, {**_MATCH, "assess_loss": None, "assess_draw": None, "assess_win": None}, set()),
    (
        DG.MATCH_REMOVED,
        {
            "challenger": "fred",
            "receiver": "GuestABCD",
            "explanation": "fred withdraws the challenge.",
        },
        set(),
    ),
    (
        DG.PERSONAL_TELL,
        {"playername": "fred", "titles": "", "text": "hi {there} you", "type": 1},
        set(),
    ),
    (
        DG.CHANNEL_TELL,
        {"channel": 1, "playername": "fred", "titles": "C", "text": "a\nb", "type": 1},
        set(),
    ),
    (DG.SHOUT, {"playername": "fred", "titles": "", "type": 0, "text": ""}, set()),
    (
        DG.KIBITZ,
        {"gamenumber": 7, "playername": "fred", "titles": "", "kibitz": True, "text": "nice move"},
        set(),
    ),
    (DG.PERSONAL_TELL_ECHO, {"receiver": "fred", "type": 1, "text": "hello"}, set()),
    (DG.CHANNELS_SHARED, {"playername": "fred", "channels": [1, 50, 250]}, set()),
    (
        DG.GAMELIST_BEGIN,
        {"command": "history", "parameters": "", "nhits": 1, "first": 1, "last": 1, "summary": ""},
        set(),
    ),
    (DG.GAMELIST_ITEM, _ITEM, set()),
    (DG.GAMELIST_ITEM, {**_ITEM, "here": True, "event": "Club night"}, set()),
    (DG.LOGIN_FAILED, {"code": 4, "explanation": "Invalid password."}, set()),
    (DG.LOG_PGN, {"lines": ['[Event "x"]', "", "1. e4 1-0"]}, set()),
    (DG.LIST, {"header": "Channels", "rowstart": "", "items": ["1", "50"]}, set()),
    (DG.SET2, {"dg_code": 50, "on": True}, set()),
    (DG.PSTAT, {"initiated": 1, "kind": 0, "p1": "fred", "p2": "joe", "records": _PSTAT}, set()),
    (
        DG.PSTAT,
        {"initiated": 1, "kind": None, "p1": "fred", "p2": "joe", "records": _PSTAT},
        set(),
    ),
    (
        DG.MSEC,
        {
            "gamenumber": 7,
            "color": "B",
            "msec": -300,
            "running": False,
            "extra": ["later", "{a b}"],
        },
        set(),
    ),
]


def _js(value: Any) -> Any:
    """A record's value as the JavaScript decoder gives it."""
    if isinstance(value, Rating | MoveInfo | PstatRecord):
        return {name: _js(part) for name, part in value._asdict().items()}
    if isinstance(value, tuple | list):
        return [_js(part) for part in value]
    return value


def js_record(record: Record) -> dict[str, Any]:
    """``{dg, field: value ..., extra}`` (an unknown DG: ``{dg, fields}``)."""
    if isinstance(record, UnknownDatagram):
        return {"dg": record.dg, "fields": list(record.fields)}
    assert isinstance(record, DatagramRecord)
    out: dict[str, Any] = {"dg": record.dg}
    out.update({name: _js(value) for name, value in record._asdict().items()})
    return out


def _body(record: Record) -> str:
    """The datagram's body as the reader sees it (a 0xFF undoubled)."""
    return unescape(encode_datagram(record)[2:-2].decode("latin-1"))


#: A value of each kind of field, for a record of every form (:func:`every_form`).
_SAMPLES: dict[str, Any] = {
    "i": -12,
    "b": True,
    "f": False,
    "w": "word",
    "s": "two words",
    "q": "a {quoted}\nline",
    "R": [Rating(dg, 1500 + dg, 2) for dg in RATING_DGS],
    "M": [MoveInfo("e4", "e2e4", 1200, 179000, 0), MoveInfo("e5", "e7e5", 900, 178000, 0)],
    "P": _PSTAT,
}


def every_form() -> list[tuple[int, dict[str, Any], set[int]]]:
    """A record of each documented DG, each of its fields present (a repeated one twice),
    for a receiver with every DG its form depends on on."""
    cases = []
    for number in sorted(FORMS):
        fields: dict[str, Any] = {}
        enabled: set[int] = set()
        for f in parse_form(FORMS[number]):
            if f.when is not None:
                enabled.add(f.when)
            if f.kind == "R":
                enabled.update(RATING_DGS)
            if f.kind == "M":
                enabled.update(MOVE_PART_DGS)
            sample = _SAMPLES[f.kind]
            fields[f.name] = [sample, sample] if f.repeated and f.kind not in "MP" else sample
        if number == DG.PSTAT:
            fields["kind"] = 1  # read as present only when it is a number: see datagrams.py
        cases.append((number, fields, enabled))
    return cases


def datagram_cases() -> list[dict[str, Any]]:
    cases = []
    unknown = (999, {"fields": ["1", "{two words}"]}, set[int]())
    for number, fields, enabled in [*CASES, *every_form(), unknown]:
        body = _body(record_from_fields(number, fields))
        decoded = decode_datagram(body, enabled)
        cases.append({"enabled": sorted(enabled), "body": body, "record": js_record(decoded)})
    return cases


def session_stream() -> dict[str, Any]:
    """A level 1 and 2 session's bytes (telnet commands, units, text, datagrams, 0xFF) and
    the frames the splitter must find in them."""
    tell = record_from_fields(
        DG.PERSONAL_TELL,
        {"playername": "fred", "titles": "", "text": "caf\xe9 \xff {x}", "type": 1},
    )
    moves = record_from_fields(DG.SEND_MOVES, {"gamenumber": 7, "algebraic": "e4"})
    parts: list[tuple[bytes, list[dict[str, Any]]]] = [
        (b"\xff\xfb\x01", []),  # IAC WILL ECHO
        (b"login: \xff\xfc\x01\r\n", [{"type": "text", "text": "login: "}]),
        (
            encode_unit_start(CN.CN_TELL, "*", "c1"),
            [{"type": "unitStart", "cn": CN.CN_TELL, "issuer": "*", "tag": "c1"}],
        ),
        (b"(told fred)\r\n", [{"type": "text", "text": "(told fred)"}]),
        (b"\x19]", [{"type": "unitEnd"}]),
        (
            encode_unit_start(CN.SCN_MISCELLANEOUS, "%"),
            [{"type": "unitStart", "cn": CN.SCN_MISCELLANEOUS, "issuer": "%", "tag": None}],
        ),
        (encode_datagram(tell), [{"type": "datagram", "body": _body(tell)}]),
        (
            b"fred tells you: caf\xe9 \xff\xff\x07\r\n",
            [{"type": "text", "text": "fred tells you: caf\xe9 \xff"}],
        ),
        (b"no newline", []),
        (b"\x19]", [{"type": "text", "text": "no newline"}, {"type": "unitEnd"}]),
        (encode_datagram(moves), [{"type": "datagram", "body": _body(moves)}]),
        (b"\x19<\x19>", []),
        (b"\x1a", [{"type": "overflow"}]),
        (b"\n\r", [{"type": "text", "text": ""}]),
    ]
    data = b"".join(chunk for chunk, _ in parts)
    return {"bytes": list(data), "frames": [frame for _, frames in parts for frame in frames]}


def fixtures() -> dict[str, Any]:
    return {"table": table(), "datagrams": datagram_cases(), "stream": session_stream()}


def text() -> str:
    return json.dumps(fixtures(), indent=1, ensure_ascii=True) + "\n"


if __name__ == "__main__":
    FIXTURE.parent.mkdir(parents=True, exist_ok=True)
    FIXTURE.write_text(text(), "utf-8")
    print(f"wrote {FIXTURE}")
