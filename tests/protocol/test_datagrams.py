"""The DG catalog: spec examples, settings-dependent forms, round trips, bad input."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from icswire.protocol import datagrams as d
from icswire.protocol.datagrams import (
    DG,
    FORMS,
    RECORDS,
    MoveInfo,
    PstatRecord,
    Rating,
    UnknownDatagram,
    decode_datagram,
    encode_datagram,
    record_from_fields,
)
from icswire.protocol.level2 import split_fields
from icswire.protocol.telnet import unescape

from .strategies import documented_dgs, records, settings

SPEC = Path(__file__).resolve().parents[3] / "shared" / "spec" / "icc-formats.txt"


def round_trip(body: str, enabled: frozenset[int] | set[int] = frozenset()) -> d.Record:
    record = decode_datagram(body, enabled)
    assert encode_datagram(record) == ("\x19(" + body + "\x19)").encode("latin-1")
    return record


@pytest.mark.skipif(not SPEC.exists(), reason="the spec folder is not beside the checkout")
def test_every_appendix_2_number_is_a_member() -> None:
    defines = re.findall(r"#define DG_(\w+) (\d+)", SPEC.read_text())
    assert len(defines) == 135
    for name, number in defines:
        assert DG[name] == int(number)
        assert DG(int(number)).spec_name.startswith("DG_")


@pytest.mark.skipif(not SPEC.exists(), reason="the spec folder is not beside the checkout")
def test_every_section_4_heading_is_a_member() -> None:
    for number, name in re.findall(r"^(\d+) DG_(\w+) *$", SPEC.read_text(), re.M):
        assert DG[name] == int(number)


def test_record_classes_have_the_spec_field_order() -> None:
    assert d.GameStarted._fields[:6] == (
        "gamenumber",
        "whitename",
        "blackname",
        "wild_number",
        "rating_type",
        "rated",
    )
    assert d.Msec._fields == ("gamenumber", "color", "msec", "running", "extra")
    assert d.MyGameStarted.dg == 15 and d.MyGameStarted.spec_name == "DG_MY_GAME_STARTED"
    assert len(RECORDS) == len(FORMS) > 110


def test_every_form_makes_one_class() -> None:
    """The classes are made on first use: every form must still make one, once."""
    for dg, cls in RECORDS.items():
        assert cls.dg == dg and cls.form == d.parse_form(FORMS[dg])
        assert RECORDS[dg] is cls is getattr(d, cls.__name__)
        assert cls.__name__ in dir(d)
    assert 200 not in RECORDS and RECORDS.get(200) is None
    with pytest.raises(AttributeError):
        d.NoSuchRecord  # noqa: B018


# -- the spec's own examples --------------------------------------------------------


def test_pstat_sample() -> None:
    r = round_trip("142 1 wohl fishbait 0 0 0 1 0 0 1 | 0 1 0 0 0 0 1 | 5 4 6 2 1 3 1")
    assert (r.initiated, r.kind, r.p1, r.p2) == (1, None, "wohl", "fishbait")
    assert r.records == (
        PstatRecord(0, 0, 0, 1, 0, 0, 1),
        PstatRecord(0, 1, 0, 0, 0, 0, 1),
        PstatRecord(5, 4, 6, 2, 1, 3, 1),
    )


def test_pstat_with_kind_and_without_records() -> None:
    r = round_trip("142 0 7 wohl fishbait")
    assert (r.initiated, r.kind, r.records) == (0, 7, ())
    with pytest.raises(ValueError, match="7"):
        decode_datagram("142 1 wohl fishbait 1 2 3")


def test_gamelist_item_sample() -> None:
    r = round_trip(
        "73 16 898117179 ? 1998.06.17 16:59:39 heatwave 2461 SaabMaster 2383 1 1 0 3 0 3 0"
        " B90 0 0 0 0 {}"
    )
    assert (r.index, r.id, r.event, r.date, r.time) == (
        16,
        898117179,
        "?",
        "1998.06.17",
        "16:59:39",
    )
    assert (r.white_name, r.white_rating, r.black_name, r.black_rating) == (
        "heatwave",
        "2461",
        "SaabMaster",
        "2383",
    )
    assert (r.rated, r.rating_type, r.wild_number, r.eco) == (True, 1, 0, "B90")
    assert (r.white_initial, r.white_increment) == ("3", "0")
    assert (r.status, r.color, r.mode, r.note, r.here) == (0, 0, 0, "0", None)


def test_gamelist_item_in_documented_order() -> None:
    r = round_trip("73 1 5 ? ? ? a - b ? 0 2 0 - - - - ? 1 0 0 {a note} 1")
    assert (r.white_rating, r.white_initial, r.note, r.here) == ("-", "-", "a note", True)


def test_tourney_sample() -> None:
    r = round_trip(
        "103 6 0 {tell Tomato join & +chan 46} {Tomato Blitz tournament, Swiss system,"
        " 5-minute games, have 3 players, looking for 8..16} {This tournament will take an"
        " hour or two, are you sure you will have time to complete it?}"
    )
    assert (r.index, r.bitfield) == (6, 0)
    assert r.description == "tell Tomato join & +chan 46"
    assert r.watch_command.startswith("This tournament")
    assert (r.info_command, r.confirm_text) == (None, None)


def test_boardinfo_arrow_and_circle_samples() -> None:
    r = round_trip("143 37 fishbait 4 a1 h8 8")
    assert (r.gamenumber, r.examiner, r.type, r.coord1, r.coord2, r.color) == (
        37,
        "fishbait",
        4,
        "a1",
        "h8",
        8,
    )
    assert round_trip("60 37 fishbait e2 e4") == d.Arrow(37, "fishbait", "e2", "e4")
    assert round_trip("90 37 fishbait e2 e4").dg == DG.UNARROW
    assert round_trip("59 37 fishbait e4") == d.Circle(37, "fishbait", "e4")


def test_key_samples() -> None:
    assert round_trip("76 0 Wild") == d.RatingTypeKey(0, "Wild")
    assert round_trip("116 1 {Shuffle both}") == d.WildKey(1, "Shuffle both")
    r = round_trip("128 Darooha http://www.chessclub.com/mugshots/darooha.jpg 312")
    assert (r.playername, r.gamenumber) == ("Darooha", 312)
    assert round_trip("11 fred P 23") == d.State("fred", "P", 23)


def test_game_result_and_started() -> None:
    # ICC quotes the description with ^Y{ ^Y} (PyChess's ICC mode cuts two characters off
    # its start); the brace form decodes to the same record
    r = round_trip("13 5 0 Mat 1-0 \x19{Black checkmated\x19} C20")
    assert (r.become_examined, r.result_code, r.score, r.description, r.eco) == (
        False,
        "Mat",
        "1-0",
        "Black checkmated",
        "C20",
    )
    assert decode_datagram("13 5 0 Mat 1-0 {Black checkmated} C20", frozenset()) == r
    r = round_trip(
        "12 5 fred joe 0 Blitz 1 3 0 3 0 1 {} 1500 1600 902425349 {GM} {} 0 0 0 40/5400+30:900+30 0"
    )
    assert (r.white_titles, r.fancy_timecontrol, r.promote_to_king) == (
        "GM",
        "40/5400+30:900+30",
        False,
    )
    older = round_trip("12 5 fred joe 0 Blitz 1 3 0 3 0 1 {Ex: continuation} 0 0")
    assert older.ex_string == "Ex: continuation" and older.game_id is None


def test_strings_keep_braces_newlines_and_blanks() -> None:
    r = round_trip("31 fred {GM TD} \x19{a {b} c\nline two\x19} 1")
    assert (r.titles, r.text, r.type) == ("GM TD", "a {b} c\nline two", 1)
    assert round_trip("31 fred {} \x19{\x19} 0").text == ""
    assert round_trip("32 fred {} 1 \x19{ leading and trailing \x19}").text == (
        " leading and trailing "
    )


# -- forms that depend on the receiver's settings ------------------------------------


@pytest.mark.parametrize(
    ("enabled", "body", "parts"),
    [
        (set(), "24 5", (None, None, None, None, None)),
        ({33}, "24 5 Nf3", ("Nf3", None, None, None, None)),
        ({34}, "24 5 g1f3", (None, "g1f3", None, None, None)),
        ({33, 34, 35, 36}, "24 5 Nf3 g1f3 3 177", ("Nf3", "g1f3", 3, 177, None)),
        ({36, 113}, "24 5 177 1", (None, None, None, 177, 1)),
        ({33, 34, 35, 36, 113}, "24 5 exd6 e5d6E 0 60 2", ("exd6", "e5d6E", 0, 60, 2)),
    ],
)
def test_send_moves_parts_follow_33_to_36_and_113(
    enabled: set[int], body: str, parts: tuple[object, ...]
) -> None:
    r = round_trip(body, enabled)
    assert (r.algebraic, r.smith, r.time, r.clock, r.variation) == parts
    past = round_trip("111" + body[2:], enabled)
    assert past.dg == DG.PAST_MOVE and past[1:6] == parts


def test_move_list_moves_follow_the_settings() -> None:
    r = round_trip("25 7 * {e4 e2e4 0 180}{e5 e7e5 2 179}", {33, 34, 35, 36})
    assert r.moves == (MoveInfo("e4", "e2e4", 0, 180), MoveInfo("e5", "e7e5", 2, 179))
    r = round_trip("25 7 * {e2e4}{e7e5}", {34})
    assert r.moves == (MoveInfo(smith="e2e4"), MoveInfo(smith="e7e5"))
    board = "rnbqkbnrpppppppp" + "-" * 32 + "PPPPPPPPRNBQKBNR"
    assert round_trip(f"25 -1 {board}").moves == ()
    with pytest.raises(ValueError, match="too few parts"):
        decode_datagram("25 7 * {e4}", {33, 34})


def test_player_arrived_ratings_in_dg_order_then_open_state_uid() -> None:
    enabled = {1, 151, 3, 88, 10, 11, 131}
    r = round_trip("1 fred 1500 2 1400 1 1900 0 1 P 23 4711", enabled)
    assert r.ratings == (Rating(3, 1500, 2), Rating(88, 1400, 1), Rating(151, 1900, 0))
    assert (r.open, r.state, r.state_game, r.uid) == (True, "P", 23, 4711)
    bare = round_trip("64 fred", {64})
    assert bare.dg == DG.NOTIFY_ARRIVED and bare.ratings == () and bare.open is None
    assert round_trip("1 fred 0 X 0", {11, 10}).state == "X"


def test_match_assessment_only_with_85() -> None:
    common = "29 fred 1500 2 {} joe 1600 1 {GM} 0 Blitz 1 0 3 0 3 0 -1"
    plain = round_trip(common + " {}")
    assert plain.assess_win is None and plain.fancy_timecontrol == ""
    assessed = round_trip(common + " -8 0 8 {}", {85})
    assert (assessed.assess_loss, assessed.assess_draw, assessed.assess_win) == (-8, 0, 8)
    assert (assessed.challenger_rating, assessed.challenger_annotation) == (1500, 2)


def test_set2_and_lists() -> None:
    assert round_trip("124 24 1") == d.Set2(24, True)
    assert round_trip("46 fred 1 50 250").channels == (1, 50, 250)
    r = round_trip("96 {} { } fred joe {two words}")
    assert (r.header, r.rowstart, r.items) == ("", " ", ("fred", "joe", "two words"))
    assert round_trip("87 1500 -1 0 1700").ratings == (1500, -1, 0, 1700)
    pgn = round_trip('86 \x19{[Event "x"]\x19} \x19{1. e4 e5\x19}')
    assert pgn.lines == ('[Event "x"]', "1. e4 e5")
    assert round_trip("81") == d.DummyResponse()
    assert round_trip("109").dg == DG.DIALOG_RELEASE


# -- extra, unknown, malformed ----------------------------------------------------------


def test_extra_trailing_fields_are_kept_as_wire_tokens() -> None:
    r = round_trip("56 12 W 179000 1 later {two words} \x19{x}\x19}")
    assert r.extra == ("later", "{two words}", "\x19{x}\x19}")
    assert (r.gamenumber, r.msec, r.running) == (12, 179000, True)


def test_undocumented_and_unknown_numbers_decode_generically() -> None:
    assert round_trip("58 1.2.3.4 {x y}") == UnknownDatagram(58, ("1.2.3.4", "{x y}"))
    unknown = round_trip("977 a")
    assert unknown.spec_name == "DG_977"
    assert UnknownDatagram(58).spec_name == "DG_IP"


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ("56 x W 1 1", "DG_MSEC: field 'gamenumber' is 'x'"),
        ("56 1 W 1 2", "DG_MSEC: field 'running' is '2'"),
        ("56 1 W", "DG_MSEC: field 'msec' is missing"),
        ("abc", "must start with its number"),
        ("", "must start with its number"),
        ("31 fred {unclosed 1", "unreadable field"),
        ("31 fred } 1", "unreadable field"),
    ],
)
def test_malformed_datagrams_name_what_is_wrong(body: str, message: str) -> None:
    with pytest.raises(ValueError, match=re.escape(message)):
        decode_datagram(body)


# -- properties ------------------------------------------------------------------------


@given(st.data(), documented_dgs, settings)
def test_every_record_round_trips(data: st.DataObject, dg: int, enabled: frozenset[int]) -> None:
    record = data.draw(records(dg, enabled))
    wire = encode_datagram(record)
    body = unescape(wire[2:-2].decode("latin-1"))  # the wire doubles a 0xFF
    assert decode_datagram(body, enabled) == record
    assert encode_datagram(decode_datagram(body, enabled)) == wire
    assert record_from_fields(dg, record._asdict()) == record


@given(st.data(), documented_dgs, settings)
def test_the_one_pass_reader_reads_what_the_encoder_writes(
    data: st.DataObject, dg: int, enabled: frozenset[int]
) -> None:
    """canonical_reader gives the general decoder's record for every body the encoder
    writes, and None (never another record) for the same body written otherwise."""
    read = d.canonical_reader(dg, enabled)
    if read is None:
        assert any(f.kind in "RMP" or f.repeated for f in d.RECORDS[dg].form)
        return
    record = data.draw(records(dg, enabled))
    body = encode_datagram(record)[2:-2].decode("latin-1")
    if "\xff" in body:  # the wire doubles a 0xFF: the decoder reads those the general way
        return
    assert read(body) == record
    other = data.draw(st.sampled_from([body + " ", body.replace(" ", "  ", 1), "0" + body]))
    found = read(other)
    assert found is None or found == decode_datagram(other, enabled)


@given(st.text(max_size=40))
def test_split_fields_never_raises_anything_but_value_error(body: str) -> None:
    try:
        values, tokens = split_fields(body)
    except ValueError:
        return
    assert len(values) == len(tokens)


def test_the_compiled_forms_stay_within_the_cache_limit() -> None:
    """A stream may change the receiver's settings (DG_SET2) without end: DG_PLAYER_ARRIVED
    alone has 2**17 forms. Past CACHE_LIMIT, the oldest compiled ones go."""
    for k in range(d.CACHE_LIMIT + 50):
        enabled = frozenset(dg for n, dg in enumerate(d.RATING_DGS) if k >> n & 1) | {10}
        record = d.decoder_for(1, enabled)(["1", "fred", *["1500", "2"] * k.bit_count(), "1"], [])
        assert len(record.ratings) == k.bit_count() and record.open is True
        assert d.canonical_pattern(1, enabled) is not None
        assert len(d._compiled) <= d.CACHE_LIMIT and len(d._patterns) <= d.CACHE_LIMIT


@pytest.mark.parametrize(
    "item", ["raw:q", "dg:i", "extra:w", "spec_name:s", "x:", "x:z", "class:i"]
)
def test_a_form_cannot_name_a_field_after_a_record_attribute(item: str) -> None:
    with pytest.raises(ValueError, match="bad field"):
        d.parse_form(f"gamenumber:i {item}")
