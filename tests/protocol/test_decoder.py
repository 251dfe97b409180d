"""The incremental decoder: framing, chunk independence, resynchronisation, limits."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from icswire.protocol import datagrams as d
from icswire.protocol.bughouse import parse_b1
from icswire.protocol.decoder import ERROR_SAMPLE, GENERAL_READS, Decoder
from icswire.protocol.encoder import encode_event, encode_events
from icswire.protocol.events import (
    BughouseLine,
    CommandEnd,
    CommandStart,
    Error,
    Event,
    Overflow,
    Prompt,
    SessionEnd,
    Style10Block,
    Style12Line,
    Telnet,
    Text,
    UnitEnd,
    UnitStart,
)
from icswire.protocol.level1 import CommandNumber

from .strategies import documented_dgs, records

FICS_MS = (
    "<12> rnbqkbnr pppppppp -------- -------- -------- -------- PPPPPPPP RNBQKBNR W -1 1 1 1 1 0"
    " 55 mgatto Thegermain 1 4 0 39 39 240000 240000 1 none (0:00.000) none 0 0 0"
)
FICS_SECONDS = (
    "<12> r-q-kbnr ppp--p-p ---p--p- ---Pp--- --P----- -QNBPP-- PP----PP R----RK- B -1 0 0 1 1 1"
    " 182 milecker jamofr 0 3 0 33 33 118 148 11 o-o (0:04) O-O 0 1 0"
)
STYLE10 = (
    '"10"\n|r b kbnr|   \n|ppp ppp |   \n|  nq    |   \n|   p   p|   \n|   P    |   \n'
    "|  NQB  N|   \n|PPP PPPP|   \n|R   KB R|   \nB -1 1 1 1 1 3   \n"
    "0 Darooha Quimbee 1 2 12 39 39 113 129 5 B/c1-e3 (0:22) Be3   \n"
)


def decode(
    stream: bytes, datagrams: frozenset[int] | set[int] = frozenset(), **kw: int
) -> list[Event]:
    decoder = Decoder(datagrams, **kw)
    return decoder.feed(stream) + decoder.close()


def decode_in_chunks(
    stream: bytes, cuts: list[int], datagrams: frozenset[int] = frozenset()
) -> list[Event]:
    decoder = Decoder(datagrams)
    events: list[Event] = []
    start = 0
    for cut in [*sorted(cuts), len(stream)]:
        events += decoder.feed(stream[start:cut])
        start = max(start, cut)
    return events + decoder.close()


def test_fics_login_board_and_prompts() -> None:
    stream = (
        b"login: \xff\xfb\x01password: \n\r**** Starting FICS session as fred ****\n\r"
        + b"fics% \n\r"
        + FICS_MS.encode()
        + b"\n\rfics% "
    )
    events = decode(stream)
    assert events[:4] == [
        Prompt("login: "),
        Telnet(b"\xff\xfb\x01"),
        Prompt("password: "),
        Text("", "\n\r"),
    ]
    assert events[4] == Text("**** Starting FICS session as fred ****", "\n\r")
    board = events[7]
    assert isinstance(board, Style12Line) and board.end == "\n\r"
    assert (board.record.white_name, board.record.white_time, board.record.lag_ms) == (
        "mgatto",
        240000,
        0,
    )
    assert events[-1] == Prompt("fics% ")
    assert encode_events(events) == stream


def test_all_three_line_endings_and_a_lone_carriage_return() -> None:
    events = decode(b"a\r\nb\nc\n\rd\re\n")
    assert events == [Text("a", "\r\n"), Text("b", "\n"), Text("c", "\n\r"), Text("d\re", "\n")]


def test_bells_are_dropped_from_the_text_but_kept_for_encoding() -> None:
    stream = b"\x07fred tells you: hi\x07\n"
    (event,) = decode(stream)
    assert event == Text("fred tells you: hi", "\n", (0, 18))
    assert encode_event(event) == stream


def test_level1_units_nest_with_tags_and_end_with_an_extra_close() -> None:
    stream = (
        b"\x19[328 fishbait tag7\nfishbait spoofs you\n\x19[199 *\r\nSending\n"
        b"\x19[101 %\nNot sent\n\x19]\x19]\x19]\x19<\x19>\x19]"
    )
    events = decode(stream)
    assert events[0] == UnitStart(328, "fishbait", "tag7", 1)
    assert events[2].command == CommandNumber.CN_PARTNER
    assert events[2] == UnitStart(199, "*", None, 2, "\r\n")
    assert events[4] == UnitStart(101, "%", None, 3)
    assert events[6:] == [
        UnitEnd(3),
        UnitEnd(2),
        UnitEnd(1),
        CommandStart(),
        CommandEnd(),
        SessionEnd(),
    ]
    assert encode_events(events) == stream


def test_datagrams_inside_units_and_text_cut_by_frames() -> None:
    stream = b"\x19[101 *\nxx\x19(31 fred {} \x19{hi {x}\x19} 1\x19)\x19]\x1a"
    events = decode(stream, {31})
    assert events == [
        UnitStart(101, "*", None, 1),
        Text("xx", ""),
        d.PersonalTell("fred", "", "hi {x}", 1),
        UnitEnd(1),
        Overflow(),
    ]


def test_b1_style10_and_the_fics_framing() -> None:
    events = decode(b"<b1> game 52 white [NB] black [N] <- BN\n" + STYLE10.encode())
    assert isinstance(events[0], BughouseLine) and events[0].record.passed_piece == "N"
    assert isinstance(events[1], Style10Block)
    assert events[1].record.white_name == "Darooha"
    fics = "<10>\n" + STYLE10.split("\n", 1)[1] + ">10<\n"
    (block,) = decode(fics.encode())
    assert isinstance(block, Style10Block) and block.record.header == "<10>"
    assert encode_event(block) == fics.encode()


def test_broken_style10_block_is_an_error_then_text() -> None:
    events = decode(b'"10"\n|r b kbnr|\nhello\n')
    assert isinstance(events[0], Error) and events[0].data == b'"10"\n|r b kbnr|\n'
    assert events[1] == Text("hello")


def test_set2_acknowledgement_changes_the_form_of_later_moves() -> None:
    decoder = Decoder({24, 124})
    first = decoder.feed(b"\x19(24 5 e2e4\x19)\x19(124 34 1\x19)\x19(24 5 e7e5\x19)")
    assert first[0] == d.SendMoves(5, extra=("e2e4",))
    assert first[2] == d.SendMoves(5, smith="e7e5")
    assert 34 in decoder.datagrams


def test_note_command_follows_what_the_client_sends() -> None:
    decoder = Decoder()
    decoder.note_command("level2settings=0000000000000000000000001")
    assert decoder.datagrams == {24}
    decoder.note_command("`t1`set-2 33 1")
    decoder.note_command("$set-2 24 0")
    assert decoder.datagrams == {33}


def test_malformed_frames_are_errors_with_offsets_and_decoding_goes_on() -> None:
    stream = b"\x19(24 x\x19)\x19(abc\x19)\x19qok\n\x19(56 1 W 5 1\x19)\x19[zz\nrest\n\x19(24 5"
    events = decode(stream, {24})
    errors = [e for e in events if isinstance(e, Error)]
    assert [e.offset for e in errors] == [0, 8, 15, 34, 44]
    assert "gamenumber" in errors[0].message
    assert errors[2].data == b"\x19q"
    assert d.Msec(1, "W", 5, True) in events
    assert Text("ok") in events and Text("rest") in events
    assert encode_events(events) == stream


def test_a_datagram_cut_by_overflow_is_an_error_then_the_overflow() -> None:
    events = decode(b"\x19(31 fred {} \x19{abc\x1a\x19(81\x19)")
    assert isinstance(events[0], Error) and events[0].message == "unterminated datagram"
    assert events[1:] == [Overflow(), d.DummyResponse()]


def test_an_endless_datagram_is_dropped_at_the_limit_and_decoding_resumes() -> None:
    decoder = Decoder(max_size=100)
    events = decoder.feed(b"ok\n\x19(31 " + b"x" * 150)
    assert events[0] == Text("ok")
    assert isinstance(events[1], Error) and events[1].message == "frame too long"
    assert events[1].length == 100
    assert decoder.buffered <= 100
    events = decoder.feed(b"y" * 1000) + decoder.feed(b"\x19(81\x19)")
    assert isinstance(events[0], Error) and events[0].length == 55 + 1000
    assert events[1] == d.DummyResponse()


def test_an_endless_line_is_dropped_at_the_limit() -> None:
    decoder = Decoder(max_size=50)
    events = decoder.feed(b"a" * 60)
    assert isinstance(events[0], Error) and events[0].length == 51
    events = decoder.feed(b"b" * 200 + b"\nnext\n") + decoder.close()
    assert isinstance(events[0], Error) and events[0].length == 9 + 200
    assert events[1:] == [Text("", "\n"), Text("next")]


# -- properties ------------------------------------------------------------------------

plain_text = st.text(
    alphabet=st.characters(min_codepoint=32, max_codepoint=254, exclude_characters='\x7f<|"fapl'),
    max_size=20,
)
ENABLED = frozenset({24, 31, 33, 34, 56})


@st.composite
def event_streams(draw: st.DrawFn) -> bytes:
    """A stream made of random well-formed frames of every kind."""
    parts: list[bytes] = []
    for _ in range(draw(st.integers(0, 12))):
        kind = draw(st.integers(0, 9))
        if kind == 0:
            end = draw(st.sampled_from(["\n", "\r\n", "\n\r"]))
            parts.append(encode_event(Text(draw(plain_text), end)))
        elif kind == 1:
            dg = draw(documented_dgs)
            parts.append(encode_event(draw(records(dg, ENABLED))))
        elif kind == 2:
            parts.append(encode_event(Prompt(draw(st.sampled_from(["fics% ", "aics% "])))))
        elif kind == 3:
            tag = draw(st.one_of(st.none(), st.from_regex(r"[a-z0-9]{1,8}", fullmatch=True)))
            parts.append(encode_event(UnitStart(draw(st.integers(0, 300)), "*", tag, 1)))
        elif kind == 4:
            parts.append(encode_event(UnitEnd(1)))
        elif kind == 5:
            parts.append(draw(st.sampled_from([FICS_MS, FICS_SECONDS])).encode() + b"\r\n")
        elif kind == 6:
            parts.append(STYLE10.encode())
        elif kind == 7:
            parts.append(b"<b1> game 6 white [PNBBB] black [PNB]\n")
        elif kind == 8:
            parts.append(draw(st.sampled_from([b"\x19<", b"\x19>", b"\x1a", b"\xff\xfb\x01"])))
        else:
            parts.append(b"\x07")
    return b"".join(parts)


@settings(max_examples=150)
@given(event_streams(), st.lists(st.integers(0, 4000), max_size=8))
def test_any_chunking_gives_the_same_events_and_the_same_bytes(
    stream: bytes, cuts: list[int]
) -> None:
    whole = decode(stream, ENABLED)
    assert not [e for e in whole if isinstance(e, Error)]
    assert decode_in_chunks(stream, cuts, ENABLED) == whole
    assert encode_events(whole) == stream


@settings(max_examples=30)
@given(event_streams())
def test_one_byte_at_a_time_equals_all_at_once(stream: bytes) -> None:
    assert decode_in_chunks(stream, list(range(len(stream))), ENABLED) == decode(stream, ENABLED)


class GeneralOnly(Decoder):
    """A decoder that reads every byte the general way, one step at a time (no lane)."""

    def _lane(self, i: int) -> int:
        return i


#: Pieces of a busy stream, and pieces that are wrong in ways the lane must leave alone.
BUSY = [
    b"\x19(24 106 f5 f7f5 4 177\x19)\x19(56 106 B 177972 0\x19)\x19(56 106 W 181557 1\x19)",
    b"\x19(31 pchesso {DM} \x19{lag {sigh}\x19} 1\x19)",
    b"\x19(124 33 0\x19)",  # DG_SET2: DG_MOVE_ALGEBRAIC off, later moves change form
    b"\x19(24 05 Nf3 g1f3\x19)",  # a datagram in another form
    b"\x19(24 x Nf3\x19)",  # a bad one
    b"\x19(24 5 e4 e2e4\x19)\x19(24 6 e5 e7e5\x19)\x19(24 x Nf3 g1f3\x19)",  # a run broken off
    b"\x19(56 106 B 1 0\x1a",  # cut by an overflow
    b"\x19[2 Lasker77\n",
    b"\x19[007 fred\n",  # a header in another form
    b"\x19[1 fr\xff\xffed\n",  # IAC IAC in a name
    b"\x19[2 " + b"x" * 60 + b"\n",  # longer than the small max_size below
    b"\x19]",
    FICS_MS.encode() + b"\r\n",
    FICS_MS.replace(" 55 ", " 055 ").encode() + b"\n",  # a board in another form
    b"<b1> game 6 white [PN] black []\n",
    b"<s> 4 w=1 t=blitz r=0 u=1,1 it=5,5 i=8,8 pt=0 rt=1500,1500 ts=0,0\n",
    STYLE10.encode(),
    b'"10"\n|r b kbnr|   \nno block\n',  # a style 10 block cut short
    b"fics% ",
    b"fics",
    b"login: \r\n",
    b"Notification: fred has arrived.\r\n",
    b"\r\n",
    b"\n\r",
    b"a\rb\n",
    b"bell\x07s\x07\n",
    b"\xff\xff\xff\xfb\x01",
    b"x" * 70 + b"\n",  # longer than the small max_size below
    b"\x19",
    b"\x19<",
    b"\x1a",
]


@settings(max_examples=300)
@given(
    st.lists(st.sampled_from(BUSY) | event_streams(), max_size=16).map(b"".join),
    st.lists(st.integers(0, 2000), max_size=6),
    st.sampled_from([48, 1 << 20]),
    st.booleans(),
)
def test_the_lane_gives_the_events_and_ends_of_the_general_way(
    stream: bytes, cuts: list[int], max_size: int, block_mode: bool
) -> None:
    """The lane (runs of datagrams, units, prompts and lines read at once) against the
    general step alone: the same events, of the same types, with the same raw bytes and
    the same ends (and the same events when no ends are kept), however the stream is cut."""
    seen = []
    for decoder, ends in ((Decoder, []), (Decoder, None), (GeneralOnly, [])):
        d = decoder({24, 31, 33, 34, 56}, max_size=max_size, block_mode=block_mode)
        d.ends = ends
        events: list[Event] = []
        start = 0
        for cut in [*sorted(cuts), len(stream)]:
            events += d.feed(stream[start:cut])
            start = max(start, cut)
        events += d.close()
        seen.append([(type(e), e, getattr(e, "raw", None)) for e in events])
        if ends is not None:
            seen.append(ends)
    lane, lane_ends, lane_alone, general, general_ends = seen
    assert lane == lane_alone == general and lane_ends == general_ends


@settings(max_examples=200)
@given(st.binary(max_size=600), st.lists(st.integers(0, 600), max_size=6))
def test_random_bytes_never_raise_and_never_pass_the_memory_bound(
    data: bytes, cuts: list[int]
) -> None:
    decoder = Decoder({1, 3, 24, 25, 33}, max_size=64)
    start = 0
    for cut in [*sorted(cuts), len(data)]:
        decoder.feed(data[start:cut])
        start = max(start, cut)
        assert decoder.buffered <= 64 + ERROR_SAMPLE
    decoder.close()


@settings(max_examples=300)
@given(
    st.lists(
        st.sampled_from([b"\x19(", b"\x19)", b"\x19{", b"\x19}", b"\x19[1 *\n", b"\x19]", b"\x1a"])
        | st.binary(max_size=40)
        | st.sampled_from([b"\n", b"\r", b"\xff", b"\xff\xfa", b"\xff\xf0", b"\x07", b"fics% "]),
        max_size=30,
    ).map(b"".join),
    st.lists(st.integers(0, 600), max_size=6),
)
def test_limits_and_resynchronisation_do_not_depend_on_chunking(
    data: bytes, cuts: list[int]
) -> None:
    whole = Decoder({24, 31}, max_size=48)
    expected = whole.feed(data) + whole.close()
    chunked = Decoder({24, 31}, max_size=48)
    events: list[Event] = []
    start = 0
    for cut in [*sorted(cuts), len(data)]:
        events += chunked.feed(data[start:cut])
        start = max(start, cut)
    assert events + chunked.close() == expected


def test_a_header_of_the_longest_allowed_size_waits_for_its_newline() -> None:
    stream = b"\x19[101 " + b"x" * 251 + b"\nhi\n\x19]"
    assert decode_in_chunks(stream, [257]) == decode(stream)
    assert isinstance(decode(stream)[0], UnitStart)


def test_a_too_long_line_does_not_swallow_the_next_one() -> None:
    events = decode(b"y" * 100 + b"\nok\n", max_size=64)
    assert isinstance(events[0], Error) and events[0].length == 65
    assert isinstance(events[1], Error) and events[1].length == 35
    assert events[2:] == [Text("", "\n"), Text("ok")]


def test_a_too_long_datagram_is_dropped_whole_and_decoding_resumes() -> None:
    tell = b"\x19(31 fred {} \x19{" + b"z" * 100 + b"\x19} 1\x19)"
    stream = tell + b"\x19(81\x19)"
    events = decode(stream, {31}, max_size=64)
    assert [type(e) for e in events] == [Error, Error, d.DummyResponse]
    assert events[0].length + events[1].length == len(tell)
    assert decode_in_chunks(stream, [20, 70, 90]) == decode(stream)


@settings(max_examples=100)
@given(st.binary(max_size=300))
def test_every_byte_is_in_exactly_one_event(data: bytes) -> None:
    decoder = Decoder({24})
    decoder.ends = ends = []
    events = decoder.feed(data) + decoder.close()
    assert len(ends) == len(events)
    assert ends == sorted(ends) and (not ends or ends[-1] == len(data))
    bytes_of = [data[a:b] for a, b in zip([0, *ends], ends, strict=False)]
    for event, raw in zip(events, bytes_of, strict=True):
        assert encode_event(event) == raw


def test_the_datagram_limit_is_exact_and_the_same_however_fed() -> None:
    for size in range(56, 72):  # the closing ^Y) starts at byte size - 2
        stream = b"\x19(81 " + b"x" * (size - 7) + b"\x19)"
        assert len(stream) == size
        whole = decode(stream, max_size=64)
        assert (size - 2 < 64) == isinstance(whole[0], d.DummyResponse)
        for cut in range(1, size):
            chunked = Decoder(max_size=64)
            events = chunked.feed(stream[:cut]) + chunked.feed(stream[cut:]) + chunked.close()
            assert events == whole


def test_bells_count_toward_the_limit_of_a_line() -> None:
    decoder = Decoder(max_size=50)
    events = decoder.feed(b"\x07" * 1000)
    assert isinstance(events[0], Error) and (events[0].length, events[0].data) == (51, b"\x07" * 51)
    for _ in range(100):
        decoder.feed(b"\x07" * 1000)
        assert decoder.buffered <= 50 + ERROR_SAMPLE
    events = decoder.feed(b"\nok\x07\n") + decoder.close()
    assert isinstance(events[0], Error) and events[0].length == 100_949
    assert events[1:] == [Text("", "\n"), Text("ok", "\n", (2,))]


def test_a_too_long_line_holding_iac_iac_is_reported_as_its_wire_bytes() -> None:
    stream = b"\xff\xff" * 20 + b"\nok\n"
    events = decode(stream, max_size=10)
    assert [e.length for e in events if isinstance(e, Error)] == [11, 29]
    assert events[-2:] == [Text("", "\n"), Text("ok")]
    assert encode_events(events) == stream


def test_text_before_a_telnet_subnegotiation_comes_out_without_waiting_for_its_end() -> None:
    decoder = Decoder()
    assert decoder.feed(b"abc\xff\xfa\x18") == [Text("abc", "")]
    assert decoder.feed(b"\x01\xff\xf0") == [Telnet(b"\xff\xfa\x18\x01\xff\xf0")]


def test_a_style12_line_cut_by_the_end_of_the_stream_or_a_frame_is_a_board() -> None:
    (event,) = decode(FICS_MS.encode())
    assert isinstance(event, Style12Line) and event.end == ""
    assert event.record.white_name == "mgatto" and encode_event(event) == FICS_MS.encode()
    events = decode(FICS_MS.encode() + b"\x19(81\x19)")
    assert events == [event, d.DummyResponse()]
    assert decode(b"<b1> game 6 white [PN] black []") == [
        BughouseLine(parse_b1("<b1> game 6 white [PN] black []"), "")
    ]


# -- every stream re-encodes byte for byte ------------------------------------------------


def test_a_control_y_inside_a_control_y_quoted_string_is_an_error_not_a_field() -> None:
    """``^Y{a^Y{b^Y}`` used to decode to the string ``a^Y{b``, which no encoder can write
    (control-Y cannot be quoted): the datagram is unreadable, and its bytes are kept."""
    stream = b"\x19(31 Fred {} \x19{a\x19{b\x19} 1\x19)\x19(81\x19)"
    events = decode(stream, {31})
    assert isinstance(events[0], Error) and events[0].data == stream[:-6]
    assert "unreadable field" in events[0].message
    assert events[1] == d.DummyResponse()
    assert encode_events(events) == stream


def test_a_blank_is_a_space_other_bytes_belong_to_the_field() -> None:
    (tell,) = decode(b"\x19(31 Fred\x1c{} \x19{ab\x19} 1\x19)", {31})
    assert tell.playername == "Fred\x1c" and tell.text == "ab"
    (moves,) = decode(b"\x19(24 5 e\x1f4\x19)", {24, 33})
    assert moves.algebraic == "e\x1f4"
    (bad,) = decode(b"\x19(24 5\te4\x19)", {24, 33})
    assert isinstance(bad, Error) and "gamenumber" in bad.message


#: Datagrams written otherwise than the encoder writes them, and their records.
OTHER_FORMS = [
    (b"\x19(24 5 Nf3  g1f3\x19)", d.SendMoves(5, "Nf3", "g1f3")),  # two blanks
    (b"\x19( 24 5 Nf3 g1f3 \x19)", d.SendMoves(5, "Nf3", "g1f3")),  # blanks at the ends
    (b"\x19(24 05 Nf3 g1f3\x19)", d.SendMoves(5, "Nf3", "g1f3")),  # a leading zero
    (b"\x19(024 5 Nf3 g1f3\x19)", d.SendMoves(5, "Nf3", "g1f3")),  # in the DG number too
    (b"\x19(24 +5 {Nf3} g1f3\x19)", d.SendMoves(5, "Nf3", "g1f3")),  # + and quotes
    (b"\x19(56 1_0 W -0 1\x19)", d.Msec(10, "W", 0, True)),  # what int() also reads
    (b"\x19(31 Fred GM \x19{hi\x19} 1\x19)", d.PersonalTell("Fred", "GM", "hi", 1)),
    (b"\x19(31 Fred {} {hi} 1\x19)", d.PersonalTell("Fred", "", "hi", 1)),
    (b"\x19(0 fred \x19{GM\x19}\x19)", d.WhoAmI("fred", "GM")),
    (b"\x19(999  a {b}\x19)", d.UnknownDatagram(999, ("a", "{b}"))),
    (b"\x19(31 F\xff {} \x19{x\x19} 1\x19)", d.PersonalTell("F\xff", "", "x", 1)),  # lone IAC
    (b"\x19(96 {h} {r}  a b\x19)", d.List("h", "r", ("a", "b"))),
]
#: Records of several forms (bare, quoted, optional, repeated fields, undocumented).
ENCODERS_FORMS = [
    d.SendMoves(5, "Nf3+", "g1f3"),
    d.SendMoves(5, "O-O", "e1g1c"),
    d.Msec(0, "W", -5, False),
    d.PlayerLeft("Sicilian_D"),
    d.MyVariable("-x", 0),
    d.PersonalTell("Fred", "", "hi {there}", 1),
    d.GameMessage(1, "a\nb"),
    d.GamelistItem(1, 2, "ev", "d", "t", "w", "1", "b", "2", True, 1, 0, "3", "0", "3",
                   "0", "A00", 1, 0, 0, "n", None),
    d.List("h", "r", ("a", "b")),
    d.UnknownDatagram(999, ("a", "{b c}", "\x19{d}\x19}")),
]  # fmt: skip


@pytest.mark.parametrize(("stream", "record"), OTHER_FORMS)
def test_a_datagram_in_another_form_keeps_its_bytes(stream: bytes, record: Event) -> None:
    (event,) = decode(stream, {24, 31, 33, 34, 56})
    assert event == record and event.raw == stream  # type: ignore[union-attr]
    assert encode_event(event) == stream
    assert encode_event(record) != stream and record.raw is None  # type: ignore[union-attr]


def test_a_datagram_in_the_encoders_form_has_no_raw() -> None:
    for record in ENCODERS_FORMS:
        (event,) = decode(encode_event(record), {24, 31, 33, 34, 56})
        assert event == record and event.raw is None


def test_the_readers_compiled_for_a_frequent_dg_read_as_the_general_way_does() -> None:
    """After GENERAL_READS datagrams of one DG the decoder compiles a faster reader of its
    canonical form: every datagram, in that form or another, decodes as it did before."""
    streams = [stream for stream, _ in OTHER_FORMS] + [encode_event(r) for r in ENCODERS_FORMS]
    for stream in streams:
        (first,) = decode(stream, {24, 31, 33, 34, 56})
        decoder = Decoder({24, 31, 33, 34, 56})
        for _ in range(GENERAL_READS + 2):
            (event,) = decoder.feed(stream)
            assert event == first and event.raw == first.raw  # type: ignore[union-attr]
        # and once compiled, the other forms of the same DGs are still told apart
        for other, record in OTHER_FORMS:
            (event,) = decoder.feed(other)
            assert event == record and encode_event(event) == other


@pytest.mark.parametrize(
    "line",
    [
        FICS_MS.replace(" 55 ", " 055 "),
        FICS_MS.replace(" 1 4 0 ", " +1 4 0 "),
        FICS_MS.replace("(0:00.000)", "(00:00.000)"),
        FICS_MS.replace("(0:00.000)", "(-0:00.000)"),
        FICS_SECONDS.replace(" 118 ", " 1_18 "),
    ],
)
def test_a_board_line_in_another_form_is_an_error_that_keeps_its_bytes(line: str) -> None:
    events = decode(line.encode() + b"\r\n")
    assert len(events) == 1 and isinstance(events[0], Error)
    assert "written" in events[0].message and encode_events(events) == line.encode() + b"\r\n"


def test_a_level1_header_in_another_form_is_an_error_that_keeps_its_bytes() -> None:
    headers = (b"\x19[007 fred\n", b"\x19[1  fred\n", b"\x19[\xb2 fred\n", b"\x19[1 fr\xffed\n")
    for header in headers:
        (event,) = decode(header)
        assert isinstance(event, Error) and event.data == header


def test_an_error_keeps_all_its_bytes_up_to_max_size() -> None:
    line = b"<12> " + b"x" * 5000 + b"\n"
    (event,) = decode(line)
    assert isinstance(event, Error) and event.data == line and event.length == len(line)


def test_a_header_longer_than_a_small_max_size_is_read_the_same_however_fed() -> None:
    """Found by test_fuzz: with max_size under HEADER_MAX, a header whose newline came
    with it was a bad header, and one whose newline came later a frame too long."""
    stream = b"\x19[2 " + b"x" * 120 + b"\n\x19(81\x19)"
    whole = decode(stream, max_size=100)
    assert isinstance(whole[0], Error) and whole[0].message == "level 1 header without end of line"
    assert whole[-1] == d.DummyResponse()
    for cut in range(1, len(stream)):
        chunked = Decoder(max_size=100)
        assert chunked.feed(stream[:cut]) + chunked.feed(stream[cut:]) + chunked.close() == whole


def test_a_set2_acknowledgement_in_another_form_is_followed_too() -> None:
    decoder = Decoder({24, 124})
    events = decoder.feed(b"\x19(0124  34 1\x19)\x19(24 5 e7e5\x19)")
    assert events[0] == d.Set2(34, True) and events[0].raw is not None
    assert events[1] == d.SendMoves(5, smith="e7e5")


def test_note_command_takes_only_ascii_numbers() -> None:
    """``set-2 ²`` (which ``str.isdigit`` accepts and ``int`` refuses) changes nothing and
    raises nothing; ``set-2 24 1`` turns DG 24 on."""
    decoder = Decoder()
    decoder.note_command("set-2 ² 1")
    decoder.note_command("set-2 24 1")
    assert decoder.feed(b"\x19(24 7 e4\x19)")[0].gamenumber == 7
    blocked = Decoder(block_mode=True)
    blocked.note_command("² iset block 0")
    assert blocked.block_mode
