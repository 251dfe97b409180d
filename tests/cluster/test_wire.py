"""The cluster's wire format (cluster/wire.py): every kind and every message a node sends
reads back as it was, and what is not the format is dropped with a warning. No NATS."""

from __future__ import annotations

import base64
import json
import logging
from typing import Any

import chess
import pytest

from icswire.boards.variants import VARIANTS
from icswire.protocol import datagrams as dg
from icswire.protocol.datagrams import FORMS, RECORDS, MoveInfo, PstatRecord, Rating
from icswire.server.cluster import wire
from icswire.server.core.events.base import KINDS as EVENT_KINDS
from icswire.server.core.events.base import Event
from icswire.server.core.net.session import Session
from icswire.server.core.render.alerts import BELL
from icswire.server.core.render.batch import (
    Datagram,
    Lines,
    Raw,
    message_of,
)
from icswire.server.core.render.boards import BoardFacts, FixedBoard
from icswire.server.core.render.diagrams import RecentMove
from tests.server.event_samples import SAMPLES


def sample_value(field: Any, n: int) -> Any:
    """A value of ``field``'s kind, not a default one."""
    if field.kind == "R":
        return (Rating(1, 1500 + n, 2), Rating(2, 1400, 1))
    if field.kind == "M":
        return (MoveInfo("e4", "e2e4", 3, 298, None), MoveInfo(None, None, None, None, 1))
    if field.kind == "P":
        return (PstatRecord(1, 2, 3, 4, 5, 6, 7),)
    one = {"i": 40 + n, "b": True, "f": False}.get(field.kind, f"w{n} {{x}}")
    return (one, one) if field.repeated else one


def sample_record(number: int) -> Any:
    cls = RECORDS[number]
    values = [sample_value(f, n) for n, f in enumerate(cls.form)]
    if "extra" in cls._fields:
        values.append(("x1", "{x 2}"))
    return cls(*values)


def test_every_record_of_the_catalog_round_trips() -> None:
    for number in FORMS:
        record = sample_record(number)
        encoded = json.loads(json.dumps(wire.encode_record(record)))
        again = wire.decode_record(encoded)
        assert again == record and type(again) is type(record), number
        assert dg.encode_datagram(again) == dg.encode_datagram(record)


def test_a_record_with_parts_left_out_round_trips() -> None:
    record = dg.SendMoves(7, "e4", None, None, 298, None)
    assert wire.encode_record(record) == [24, [7, "e4", None, None, 298, None]]
    assert wire.decode_record([24, [7, "e4", None, None, 298, None]]) == record


def receiver(style: int = 12, level1: int = 0, level2: frozenset[int] = frozenset()) -> Session:
    session = Session()
    session.name, session.level1, session.level2 = "someone", level1, level2
    session.set_variable("style", style)
    return session


def boards() -> list[FixedBoard]:
    """A board of every variant's class after two moves, and a few special ones."""
    found = []
    for n, variant in enumerate(VARIANTS):
        board = variant.new_board(fen=variant.start_fen)
        for _ in range(2):
            move = sorted(board.legal_moves, key=lambda m: m.uci())[0]
            board.push(move)
        served = RecentMove(board.peek().uci(), "P/e2-e4", 1500)
        facts = BoardFacts(
            n + 1, "Ann", "Bob", 5, 2, 300_000 - n, 299_123, 1500, True, 2, (served,)
        )
        found.append(FixedBoard(board, facts, 1, n % 2 == 0))
    double_push = chess.Board()
    double_push.push_san("e4")
    found.append(FixedBoard(double_push, BoardFacts(9, "A", "B", 1, 0, 1, 2), -1, False))
    fresh = chess.Board()
    facts = BoardFacts(10, "A", "B", 1, 0, 1, 2, last_move=("o-o", "O-O"))
    found.append(FixedBoard(fresh, facts, 0, True))
    return found


@pytest.mark.parametrize("style", [1, 7, 10, 11, 12, 13])
def test_boards_read_back_as_the_same_bytes(style: int) -> None:
    for level1 in (0, 1):
        for ms in (0, 1):
            who = receiver(style, level1)
            who.set_ivariable("ms", ms)
            for board in boards():
                packet = wire.Packet(1, "x", (), (board,))
                again = wire.decode(wire.encode(wire.Deliver((packet,))), wire.Deliver)
                read = again.packets[0]
                assert isinstance(read, wire.Packet)
                assert read.messages[0].render(who) == board.render(who)
                assert read.messages[0].key(who) == board.key(who)


def messages() -> list[Any]:
    return [
        Lines(("one", "two \x19{ ü")),
        Lines(()),
        Datagram(dg.Msec(5, "W", 1000, True)),
        Datagram(dg.NotifyState("fred", "P", 5)),
        Raw(b"\x00\x01[G]\xff"),
        BELL,
        *boards(),
    ]


def test_every_message_reads_back_as_the_same_bytes() -> None:
    sent = messages()
    packet = wire.Packet(101, "fred", (((0, 1), ("a", "b")), ((2,), ("c",))), tuple(sent))
    reply = wire.Reply(7, 0, 3, tuple(sent[:3]))
    again = wire.decode(wire.encode(wire.Deliver((packet, reply))), wire.Deliver)
    read, answer = again.packets
    assert isinstance(read, wire.Packet) and isinstance(answer, wire.Reply)
    assert (read.cn, read.issuer, read.groups) == (packet.cn, packet.issuer, packet.groups)
    assert (answer.number, answer.cn, answer.code) == (7, 0, 3)
    for who in (receiver(), receiver(12, 1, frozenset({11, 67, 56, 6}))):
        who.set_variable("bell", 1)
        for before, after in zip(sent, read.messages, strict=True):
            assert type(after) is type(before)
            assert after.render(who) == before.render(who)
    assert read.messages[5] is BELL


def test_every_event_crosses_as_itself_and_renders_the_same_bytes() -> None:
    """Each domain event goes as its fields (the board a node built stays there) and
    the receiving node renders it as the sending node would."""
    events = [sample for sample in SAMPLES if isinstance(sample, Event)]
    sent = [message_of(event) for event in events]
    packet = wire.Packet(1, "x", (), tuple(sent))
    read = wire.decode(wire.encode(wire.Deliver((packet,))), wire.Deliver).packets[0]
    assert isinstance(read, wire.Packet)
    who = receiver(12, 0, frozenset({24, 33, 56, 49, 144, 37, 57}))
    for before, after in zip(sent, read.messages, strict=True):
        assert type(after) is type(before)
        assert after.event == before.event  # type: ignore[attr-defined]
        assert after.render(who) == before.render(who)
    assert len({type(e) for e in events}) == len(
        [k for k in EVENT_KINDS.values() if issubclass(k, Event)]
    )


def test_every_kind_round_trips() -> None:
    values = [
        wire.Run(3, "a1", "fred", "e4"),
        wire.Changes("b", "fred", 4, ("P", 12), (3, 9), {"Blitz": (1612, 2)}),
        wire.Changes("b", "fred", 5, None, (), {}),
        wire.Kick("fred"),
        wire.Ack(),
        wire.ListGames(),
        wire.Games(
            (
                (1, False, "row", "icc row", 3000, "a", "b", False),
                (2, True, "", "", 0, "", "", True),
            )
        ),
        wire.Heartbeat("a1", 1714000000.25, 3),
        wire.Deliver(()),
    ]
    events = set(EVENT_KINDS.values())
    assert {type(v) for v in values} | {wire.Packet, wire.Reply} | events == set(
        wire.KINDS.values()
    )
    for value in values:
        data = wire.encode(value)
        envelope = json.loads(data)
        assert envelope["v"] == wire.VERSION and wire.KINDS[envelope["kind"]] is type(value)
        assert wire.decode(data, type(value)) == value


def envelope(kind: str, **members: Any) -> bytes:
    return json.dumps({"v": wire.VERSION, "kind": kind, **members}).encode()


BAD = [
    b"\x80\x04pickle",
    b"not json",
    b"[1, 2]",
    json.dumps(
        {"v": wire.VERSION + 1, "kind": "run", "number": 1, "home": "a", "name": "f", "line": "x"}
    ),
    json.dumps({"kind": "run", "number": 1, "home": "a", "name": "f", "line": "x"}),
    envelope("exec", code="import os"),
    envelope("kick", name="fred"),  # a kind, but not the one this subject takes
    envelope("run", number=1, home="a", name="f"),
    envelope("run", number=1, home="a", name="f", line="x", more=1),
    envelope("run", number="1", home="a", name="f", line="x"),
    envelope("run", number=True, home="a", name="f", line="x"),
]
BAD_DELIVERIES = [
    {"kind": "batch", "cn": 1, "issuer": "x", "groups": [], "messages": [{"kind": "eval"}]},
    {"kind": "batch", "cn": 1, "issuer": "x", "groups": [[[0], "a"]], "messages": []},
    {"kind": "pickle", "data": "gASV"},
    {"kind": "reply", "number": 1, "cn": 1, "code": None, "output": [{"kind": "lines"}]},
    {"kind": "reply", "number": 1, "cn": 1, "code": None, "output": [{"kind": "raw", "data": "!"}]},
    {"kind": "reply", "number": 1, "cn": 1, "code": None, "output": [
        {"kind": "datagram", "record": [9999, []]}]},
    {"kind": "reply", "number": 1, "cn": 1, "code": None, "output": [
        {"kind": "datagram", "record": [24, [1, None]]}]},
    {"kind": "reply", "number": 1, "cn": 1, "code": None, "output": [
        {"kind": "datagram", "record": [24, ["1", None, None, None, None, None]]}]},
    {"kind": "reply", "number": 1, "cn": 1, "code": None, "output": [
        {"kind": "datagram", "record": [11, [None, "P", 5]]}]},
    {"kind": "reply", "number": 1, "cn": 1, "code": None, "output": [
        {"kind": "resolved", "records": [], "lines": []}]},
]  # fmt: skip


def bad_boards() -> list[dict[str, Any]]:
    good = wire.encode_message(boards()[0])
    found = []
    for member, value in (
        ("fen", "not a fen"),
        ("variant", "shogi"),
        ("relation", "1"),
        ("flip", 1),
        ("facts", {"number": 1}),
    ):
        found.append({**good, member: value})
    facts = dict(good["facts"])
    facts["recent"] = [["e4", "P/e2-e4"]]
    found.append({**good, "facts": facts})
    return found


def test_what_is_not_the_format_is_dropped_and_logged(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING, "icswire.cluster")
    deliveries = [*BAD_DELIVERIES]
    deliveries += [
        {"kind": "reply", "number": 1, "cn": 1, "code": None, "output": [board]}
        for board in bad_boards()
    ]
    cases = [(data, wire.Run) for data in BAD]
    cases += [(envelope("deliver", packets=[packet]), wire.Deliver) for packet in deliveries]
    for data, expected in cases:
        raw = data if isinstance(data, bytes) else data.encode()
        caplog.clear()
        assert wire.receive("t.node.a.run", raw, expected) is None, data
        assert [r.levelname for r in caplog.records] == ["WARNING"], data
        assert "t.node.a.run" in caplog.text


def test_what_the_wire_does_not_carry_is_refused_when_sent() -> None:
    class Other(Lines):
        pass

    with pytest.raises(wire.WireError):
        wire.encode(wire.Deliver((wire.Packet(1, "x", (), (Other(("x",)),)),)))
    with pytest.raises(wire.WireError):
        wire.encode_record(dg.State("fred", 5, 5))  # a word that is no string
    with pytest.raises(wire.WireError):
        wire.encode(("run", 1))
    assert base64.b64decode(wire.encode_message(Raw(b"\x07"))["data"]) == b"\x07"
