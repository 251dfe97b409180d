"""The domain events and their one table (render/table.py): every event kind renders for
any receiver, sends only the DGs its row of the table names, and every DG of a row
exists in the spec's catalog."""

from __future__ import annotations

import dataclasses
from typing import Any

import chess
import pytest

from icswire.boards.positions import (
    fen_of,
    holding_text,
    last_move_notations,
    style10_from_board,
    style10_from_view,
    style12_from_board,
    style12_from_view,
)
from icswire.boards.variants import VARIANTS, Variant, new_board
from icswire.protocol.datagrams import DG, DatagramRecord
from icswire.protocol.decoder import Decoder
from icswire.protocol.style10 import format_style10
from icswire.protocol.style12 import format_style12
from icswire.server.core.events.base import KINDS, Event
from icswire.server.core.events.games import BoardView
from icswire.server.core.model.variables import IVARIABLES, VARIABLES
from icswire.server.core.render.batch import message_of
from icswire.server.core.render.table import TABLE
from tests.server.event_samples import SAMPLES

ALL_DGS = frozenset(int(number) for number in DG)


class Receiver:
    """What rendering reads of a receiver, set as a test wants it."""

    def __init__(self, name: str, level2: frozenset[int], style: int = 12, **ivars: int) -> None:
        self.name = name
        self.level1 = 0
        self.level2 = level2
        self.variables: dict[str, Any] = {**VARIABLES.defaults, "style": style}
        self.ivariables: dict[str, Any] = {**IVARIABLES.defaults, **ivars}
        self.wrap_width = 0
        self.notify = {"alice": "Alice"}
        self.channels = frozenset({1})

    @property
    def talks_icc(self) -> bool:
        return bool(self.level1 or self.level2)


def sent_datagrams(data: bytes) -> set[int]:
    decoder = Decoder()
    return {event.dg for event in decoder.feed(data) if isinstance(event, DatagramRecord)}


def test_every_event_kind_has_a_row_and_a_sample() -> None:
    events = {cls for cls in KINDS.values() if issubclass(cls, Event)}
    assert events == set(TABLE)
    assert {type(sample) for sample in SAMPLES} == set(KINDS.values())


@pytest.mark.parametrize("event", [s for s in SAMPLES if isinstance(s, Event)], ids=repr)
@pytest.mark.parametrize("name", ["Alice", "Bob", "Carol", "Dana", "Zed"])
@pytest.mark.parametrize("style", [1, 9, 10, 12, 13])
def test_an_event_sends_only_the_datagrams_of_its_row(event: Event, name: str, style: int) -> None:
    message = message_of(event)
    row = TABLE[type(event)][1]
    assert row <= ALL_DGS
    everything = Receiver(name, ALL_DGS, style)
    data = message.render(everything)
    assert sent_datagrams(data) <= row
    assert message.key(everything) is not None
    nothing = Receiver(name, frozenset(), style)
    assert sent_datagrams(message.render(nothing)) == set()


def test_a_move_sends_jboard_and_move_lag_to_those_who_have_them_on() -> None:
    move = next(s for s in SAMPLES if type(s).__name__ == "MovePlayed")
    on = frozenset({DG.JBOARD, DG.MOVE_LAG, DG.SEND_MOVES})
    player, observer = Receiver("Bob", on), Receiver("Zed", on)
    assert sent_datagrams(message_of(move).render(player)) == set(on)
    assert sent_datagrams(message_of(move).render(observer)) == {DG.JBOARD, DG.SEND_MOVES}


def test_events_are_frozen_plain_data() -> None:
    for sample in SAMPLES:
        with pytest.raises(dataclasses.FrozenInstanceError):
            sample.__setattr__(dataclasses.fields(sample)[0].name, None)  # type: ignore[arg-type]


def test_a_tell_is_the_tell_to_the_one_told_and_the_echo_to_the_teller() -> None:
    told = next(s for s in SAMPLES if type(s).__name__ == "Told")
    on = frozenset({DG.PERSONAL_TELL, DG.PERSONAL_TELL_ECHO})
    message = message_of(told)
    assert sent_datagrams(message.render(Receiver("Bob", on))) == {DG.PERSONAL_TELL}
    assert sent_datagrams(message.render(Receiver("Alice", on))) == {DG.PERSONAL_TELL_ECHO}
    assert message.render(Receiver("Bob", frozenset())) == b"Alice tells you: hello\r\n"
    assert message.render(Receiver("Alice", frozenset())) == b""
    assert message.render(Receiver("Zed", on)) == b""
    to_self = next(s for s in SAMPLES if type(s).__name__ == "Told" and s.to == "Alice")
    both = message_of(to_self).render(Receiver("Alice", on))
    assert sent_datagrams(both) == set(on)
    alone = message_of(to_self).render(Receiver("Alice", frozenset()))
    assert alone == b"Alice (your partner) tells you: sit\r\n"


def test_a_qtell_follows_the_receivers_face() -> None:
    qtell = next(s for s in SAMPLES if type(s).__name__ == "Qtold")
    message = message_of(qtell)
    fics = Receiver("Bob", frozenset())
    icc = Receiver("Bob", frozenset({DG.WHO_AM_I}))
    icc_dg = Receiver("Bob", frozenset({DG.PERSONAL_QTELL}))
    assert message.render(fics) == b":Round 1:\r\n:you play Bob\r\n"
    assert message.render(icc) == b">Round 1:\r\n>you play Bob\r\n"
    assert sent_datagrams(message.render(icc_dg)) == {DG.PERSONAL_QTELL}
    assert len({message.key(fics), message.key(icc), message.key(icc_dg)}) == 3


def test_an_arrival_takes_its_parts_from_each_receivers_settings() -> None:
    """DG_PLAYER_ARRIVED's ratings, open, state and uid parts follow the receiver's DGs;
    DG_NOTIFY_ARRIVED goes to a receiver with the arrival on its notify list, the text
    to one without the DG."""
    arrived = next(s for s in SAMPLES if type(s).__name__ == "Arrived")
    message = message_of(arrived)
    some = Receiver("Bob", frozenset({DG.PLAYER_ARRIVED, DG.BLITZ, DG.STATE}))
    some.notify = {}
    data = message.render(some)
    (record,) = [e for e in Decoder(some.level2).feed(data) if isinstance(e, DatagramRecord)]
    assert (record.dg, record.ratings, record.open, record.state, record.uid) == (
        DG.PLAYER_ARRIVED, ((DG.BLITZ, 1510, 2),), None, "P", None
    )  # fmt: skip
    every = Receiver("Bob", frozenset({DG.PLAYER_ARRIVED, DG.NOTIFY_ARRIVED, DG.OPEN, DG.UID}))
    data = message.render(every)
    records = [e for e in Decoder(every.level2).feed(data) if isinstance(e, DatagramRecord)]
    assert [(r.dg, r.open, r.uid) for r in records] == [
        (DG.PLAYER_ARRIVED, True, 12), (DG.NOTIFY_ARRIVED, True, 12)
    ]  # fmt: skip
    assert b"Notification" not in data
    text = Receiver("Bob", frozenset())
    assert message.render(text) == b"Notification: Alice has arrived.\r\n"
    assert message.key(some) != message.key(every) != message.key(text)


def test_an_arrival_tells_those_it_notifies_apart_from_the_others() -> None:
    """FICS's ``notifiedby``: Carol is on the arrival's notify list and set it; Dana, with
    the same settings, is not on it. Their bytes differ, so their keys must."""
    arrived = next(s for s in SAMPLES if type(s).__name__ == "Arrived")
    message = message_of(arrived)
    carol, dana = Receiver("Carol", frozenset()), Receiver("Dana", frozenset())
    for receiver in (carol, dana):
        receiver.notify = {}
        receiver.variables["notifiedby"] = 1
    assert message.render(carol) == (
        b"Notification: Alice has arrived and isn't on your notify list.\r\n"
    )
    assert message.render(dana) == b""
    assert message.key(carol) != message.key(dana)


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda variant: variant.name)
def test_a_positions_view_shows_what_its_board_does(variant: Variant) -> None:
    """Style 12, style 10, ``<b1>`` and DG_BUGHOUSE_HOLDINGS from a position's view (what
    crosses to other nodes) are those of its board, move after move; and the board built
    again from the event's FEN (for the diagram styles) has the same view."""
    facts: dict[str, Any] = dict(
        game_number=3, white_name="Ann", black_name="Bob", relation=-1, initial_time=3,
        increment=2, white_time=170, black_time=165, move_time_ms=1_250,
    )  # fmt: skip
    board = variant.new_board(fen=variant.start_fen)
    for ply in range(16):
        view = BoardView.of(board)
        last = last_move_notations(board)
        assert format_style12(
            style12_from_view(view, last, flip=True, clock_ticking=True, lag_ms=0, **facts)
        ) == format_style12(
            style12_from_board(board, flip=True, clock_ticking=True, lag_ms=0, **facts)
        )
        assert format_style10(style10_from_view(view, last, **facts)) == format_style10(
            style10_from_board(board, **facts)
        )
        pockets = getattr(board, "pockets", None)
        if pockets is None:
            assert view.holdings is None and view.in_hand is None
        else:
            in_hand = holding_text(board, chess.WHITE), holding_text(board, chess.BLACK)
            assert view.in_hand == in_hand
            assert view.holdings == tuple(
                str(pockets[c]).upper() for c in (chess.WHITE, chess.BLACK)
            )
        assert fen_of(board, view.ranks) == board.fen(en_passant="fen")
        again = new_board(variant.name, fen=board.fen(en_passant="fen"))
        assert BoardView.of(again) == view
        moves = sorted(board.legal_moves, key=lambda m: (not board.is_capture(m), m.uci()))
        if not moves:
            break
        # a capture when there is one (pieces in hand in crazyhouse), else any move
        board.push(moves[0] if board.is_capture(moves[0]) else moves[ply * 5 % len(moves)])
