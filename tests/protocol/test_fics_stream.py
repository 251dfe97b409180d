"""FICS streams in the decoder: block mode, pose blocks and interface variable lines."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from icswire.protocol.block import BlockCode
from icswire.protocol.datagrams import DummyResponse
from icswire.protocol.decoder import ERROR_SAMPLE, MAX_OPEN_BLOCKS, Decoder
from icswire.protocol.encoder import encode_event, encode_events
from icswire.protocol.events import (
    BlockEnd,
    BlockStart,
    Error,
    Event,
    IvarLine,
    PoseEnd,
    PoseStart,
    Prompt,
    Style12Line,
    Text,
)
from icswire.protocol.ivars import PendingRemoved, SeeksCleared, SeeksRemoved
from icswire.protocol.jsonl import event_from_dict, event_to_dict

from .strategies import board_tokens, ivar_records

BOARD = (
    b"<12> rnbqkbnr pppppppp -------- -------- -------- -------- PPPPPPPP RNBQKBNR W -1 1 1 1 1"
    b" 0 107 gbtami ggbtami 1 5 0 39 39 300000 300000 1 none (0:00.000) none 0 0 0"
)
# "accept 7" sent as command 52, as PyChess logged it from freechess.org (testing/ficsplay.py;
# PyChess drops the \r of FICS's \n\r line endings before it logs).
ACCEPT = (
    b"\x1552\x1611\x16You accept the match offer from ggbtami.\n\n<pr> 7\nfics% \n"
    b"Creating: gbtami (1708) ggbtami (++++) unrated blitz 5 0\n"
    b"{Game 107 (gbtami vs. ggbtami) Creating unrated blitz match.}\n\n" + BOARD + b"\n\n"
    b"Game 107: A disconnection will be considered a forfeit.\n\x17\nfics% "
)
# "play" sent as command 4, with FICS's line endings (Macbeth's test/FicsConnectionSpec.hs).
PLAY = (
    b"\x154\x16158\x16\n\r<sr> 97\n\r\n\r<sr> 88\n\r\n\rCreating: chesspickle (1963) Schoon (1007)"
    b" rated blitz 5 0\n\r{Game 70 (chesspickle vs. Schoon) Creating rated blitz match.}\n\r\n\r"
    b"Game 70: A disconnection will be considered a forfeit.\n\r\x17"
)
# puzzlebot makes the user observe game 127 (PyChess's testing/ficspuzzlebot.py).
POSE = (
    b"\x18\n\x150\x1680\x16You are now observing game 127.\n\x17\nfics% \x19"
    b"(told puzzlebot, who is examining a game)\n"
)


def decode(stream: bytes, **kw: int) -> list[Event]:
    decoder = Decoder(block_mode=True, **kw)
    return decoder.feed(stream) + decoder.close()


def decode_in_chunks(stream: bytes, cuts: list[int]) -> list[Event]:
    decoder = Decoder(block_mode=True)
    events: list[Event] = []
    start = 0
    for cut in [*sorted(cuts), len(stream)]:
        events += decoder.feed(stream[start:cut])
        start = max(start, cut)
    return events + decoder.close()


def test_a_command_reply_is_a_block_with_boards_and_pending_lines_inside() -> None:
    events = decode(ACCEPT)
    assert events[0] == BlockStart(52, BlockCode.BLKCMD_ACCEPT)
    assert events[1] == Text("You accept the match offer from ggbtami.")
    assert events[3] == IvarLine(PendingRemoved((7,)))
    assert events[4] == Prompt("fics% ")
    (board,) = [e for e in events if isinstance(e, Style12Line)]
    assert board.record.game_number == 107 and events.index(board) < events.index(BlockEnd(52))
    assert events[-3:] == [BlockEnd(52), Text(""), Prompt("fics% ")]
    assert encode_events(events) == ACCEPT


def test_a_block_keeps_ficss_line_endings() -> None:
    events = decode(PLAY)
    assert events[:3] == [
        BlockStart(4, BlockCode.BLKCMD_PLAY),
        Text("", "\n\r"),
        IvarLine(SeeksRemoved((97,)), "\n\r"),
    ]
    assert events[-1] == BlockEnd(4)
    assert encode_events(events) == PLAY


def test_a_pose_holds_a_block_and_its_end_is_no_control_y() -> None:
    events = decode(POSE)
    assert events[:3] == [PoseStart(), Text(""), BlockStart(0, BlockCode.BLKCMD_OBSERVE)]
    assert events[4:8] == [BlockEnd(0), Text(""), Prompt("fics% "), PoseEnd()]
    assert events[8] == Text("(told puzzlebot, who is examining a game)")
    assert encode_events(events) == POSE
    decoder = Decoder()
    assert decoder.feed(b"\x19(81\x19)") == [DummyResponse()]
    decoder.set_block_mode(True)  # the same bytes are no datagram in block mode
    assert decoder.feed(b"\x19(81\x19)\n") + decoder.close() == [
        PoseEnd(),
        Text("(81", ""),
        PoseEnd(),
        Text(")"),
    ]


def test_without_block_mode_the_bytes_are_text_and_control_y() -> None:
    decoder = Decoder()
    events = decoder.feed(POSE) + decoder.close()
    assert events[0] == Text("\x18")
    assert not [e for e in events if isinstance(e, BlockStart | BlockEnd | PoseStart | PoseEnd)]
    assert isinstance(events[-1], Error)  # ^Y( read as the start of a datagram


def test_blocks_nest_and_each_end_names_its_block() -> None:
    events = decode(b"\x151\x1643\x16a\x152\x16146\x16b\x17c\x17\x17")
    ends = [e for e in events if isinstance(e, BlockEnd)]
    assert ends == [BlockEnd(2), BlockEnd(1), BlockEnd(None)]


def test_the_decoder_remembers_a_bounded_number_of_open_blocks() -> None:
    stream = b"".join(b"\x15%d\x161\x16" % n for n in range(20)) + b"\x17" * 20
    ends = [e for e in decode(stream) if isinstance(e, BlockEnd)]
    assert [e.id for e in ends] == [*range(19, 19 - MAX_OPEN_BLOCKS, -1)] + [None] * (
        20 - MAX_OPEN_BLOCKS
    )


def test_bad_block_bytes_are_errors_and_decoding_goes_on() -> None:
    stream = b"\x15x1\n\x1512\x1699y\x17\x16ok\n\x1507\x161\x16z\n"
    events = decode(stream)
    errors = [e for e in events if isinstance(e, Error)]
    assert [(e.offset, e.data) for e in errors] == [
        (0, b"\x15"),
        (4, b"\x1512\x1699"),
        (12, b"\x16"),
        (16, b"\x150"),
        (19, b"\x16"),  # the rest of a bad header is text, its separators errors
        (21, b"\x16"),
    ]
    texts = [e.text for e in events if isinstance(e, Text)]
    assert texts == ["x1", "y", "ok", "7", "1", "z"]
    assert BlockEnd(None) in events
    assert encode_events(events) == stream


def test_a_header_split_anywhere_is_the_same_header() -> None:
    for cut in range(1, len(ACCEPT)):
        assert decode_in_chunks(ACCEPT, [cut]) == decode(ACCEPT)


def test_a_header_cut_by_the_end_of_the_stream_is_an_error() -> None:
    assert decode(b"ok\n\x1552\x16") == [
        Text("ok"),
        Error("the stream ended inside a frame", 3, b"\x1552\x16", 4),
    ]


def test_note_command_follows_iset_block() -> None:
    decoder = Decoder()
    decoder.note_command("iset block 1")
    assert decoder.block_mode
    assert decoder.feed(b"\x151\x1656\x16block unset.\n\x17") == [
        BlockStart(1, BlockCode.BLKCMD_ISET),
        Text("block unset."),
        BlockEnd(1),
    ]
    decoder.note_command("7 iset block 0")
    assert not decoder.block_mode
    assert decoder.feed(b"\x151\n") + decoder.close() == [Text("\x151")]


def test_interface_variable_lines_are_records_outside_block_mode_too() -> None:
    decoder = Decoder()
    stream = b"<sc>\n\r<sr> 4 5\n\r<s> 4 x\n\r<sc> \n\r"
    events = decoder.feed(stream) + decoder.close()
    assert events[:2] == [IvarLine(SeeksCleared(), "\n\r"), IvarLine(SeeksRemoved((4, 5)), "\n\r")]
    assert [type(e) for e in events] == [IvarLine, IvarLine, Error, Error]
    assert isinstance(events[2], Error) and events[2].message.startswith("<s>: expected")
    assert encode_events(events) == stream


# -- properties ------------------------------------------------------------------------

text_lines = st.text(st.sampled_from("ab (told)%:1"), max_size=15)


@st.composite
def fics_streams(draw: st.DrawFn) -> bytes:
    """A stream of FICS block mode frames, interface variable lines, boards and text."""
    parts: list[bytes] = []
    for _ in range(draw(st.integers(0, 12))):
        kind = draw(st.integers(0, 6))
        end = draw(st.sampled_from(["\n", "\r\n", "\n\r"]))
        if kind == 0:
            parts.append(encode_event(Text(draw(text_lines), end)))
        elif kind == 1:
            parts.append(encode_event(IvarLine(draw(ivar_records), end)))
        elif kind == 2:
            block = BlockStart(draw(st.integers(0, 10**9 - 1)), draw(st.integers(0, 600)))
            parts.append(encode_event(block))
        elif kind == 3:
            parts.append(draw(st.sampled_from([b"\x17", b"\x18", b"\x19", b"fics% "])))
        elif kind == 4:
            parts.append(BOARD + end.encode())
        elif kind == 5:
            parts.append(draw(st.sampled_from([ACCEPT, PLAY, POSE])))
        else:
            parts.append(b"\x07")
    return b"".join(parts)


@settings(max_examples=150)
@given(fics_streams(), st.lists(st.integers(0, 3000), max_size=8))
def test_any_chunking_gives_the_same_events_and_the_same_bytes(
    stream: bytes, cuts: list[int]
) -> None:
    whole = decode(stream)
    assert not [e for e in whole if isinstance(e, Error)]
    assert decode_in_chunks(stream, cuts) == whole
    assert encode_events(whole) == stream


@settings(max_examples=30)
@given(fics_streams())
def test_one_byte_at_a_time_equals_all_at_once(stream: bytes) -> None:
    assert decode_in_chunks(stream, list(range(len(stream)))) == decode(stream)


@given(fics_streams())
def test_every_event_survives_json(stream: bytes) -> None:
    for event in decode(stream):
        assert event_from_dict(event_to_dict(event)) == event


@settings(max_examples=200)
@given(
    st.lists(
        st.sampled_from([b"\x15", b"\x16", b"\x17", b"\x18", b"\x19", b"\x1a", b"\n", b"\r"])
        | st.sampled_from([b"12", b"<sr> 1", b"<s> ", b"<g1> 1", b"fics% ", b"\x07"])
        | st.binary(max_size=20),
        max_size=30,
    ).map(b"".join),
    st.lists(st.integers(0, 600), max_size=6),
)
def test_random_block_mode_bytes_never_raise_and_do_not_depend_on_chunking(
    data: bytes, cuts: list[int]
) -> None:
    whole = Decoder(block_mode=True, max_size=48)
    whole.ends = ends = []
    expected = whole.feed(data) + whole.close()
    assert ends == sorted(ends) and (not ends or ends[-1] == len(data))
    for event, start, stop in zip(expected, [0, *ends][:-1], ends, strict=True):
        if not isinstance(event, Error):
            assert encode_event(event) == data[start:stop]
    chunked = Decoder(block_mode=True, max_size=48)
    events: list[Event] = []
    start = 0
    for cut in [*sorted(cuts), len(data)]:
        events += chunked.feed(data[start:cut])
        start = max(start, cut)
        assert chunked.buffered <= 48 + ERROR_SAMPLE
    assert events + chunked.close() == expected


@given(board_tokens.filter(lambda token: "\xff" not in token))
def test_a_malformed_interface_line_is_an_error_with_its_bytes(junk: str) -> None:
    line = f"<g1> {junk}\n".encode("latin-1")
    (event,) = decode(line)
    assert isinstance(event, Error) and event.data == line and event.message.startswith("<g1>")
