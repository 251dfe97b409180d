"""0xFF on the wire: every data byte 255 the encoder writes is doubled (IAC IAC), and the
decoder reads the pair back as one byte, in text, level 1 headers and datagrams alike."""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from icswire.protocol import datagrams as d
from icswire.protocol.decoder import Decoder
from icswire.protocol.encoder import encode_event, encode_unit_start
from icswire.protocol.events import Event, Style12Line, Telnet, Text, UnitStart
from icswire.protocol.style12 import parse_style12
from icswire.protocol.telnet import (
    MAX_SUBNEGOTIATION,
    CommandFilter,
    escape,
    fics_newlines,
    unaccented,
    unescape,
)

from .test_decoder import FICS_MS

#: What a user typed after ``tell V x``: the data bytes ff fa 18, which undoubled on the
#: wire are IAC SB TERMINAL-TYPE, a subnegotiation that swallows what follows.
SUBNEGOTIATION = "\xff\xfa\x18"


def telnet_commands(data: bytes) -> list[bytes]:
    """What a client's telnet layer takes out of ``data`` as commands (IAC and the byte
    after it; IAC IAC is data)."""
    commands = []
    i = data.find(b"\xff")
    while i >= 0:
        if data[i + 1 : i + 2] != b"\xff":
            commands.append(data[i : i + 2])
        i = data.find(b"\xff", i + 2)
    return commands


def decode(data: bytes, datagrams: set[int] | frozenset[int] = frozenset()) -> list[Event]:
    decoder = Decoder(datagrams)
    return decoder.feed(data) + decoder.close()


def test_escape_doubles_and_unescape_undoes() -> None:
    assert escape("a\xffb\xff\xff") == b"a\xff\xffb\xff\xff\xff\xff"
    assert unescape("a\xff\xffb\xff\xff\xff\xff") == "a\xffb\xff\xff"
    assert escape("plain") == b"plain" and unescape("plain") == "plain"


def test_a_tell_holding_0xff_is_no_telnet_command_and_reads_back() -> None:
    tell = d.PersonalTell("V", "", "x" + SUBNEGOTIATION, 1)
    wire = encode_event(tell) + b"\x19(81\x19)"
    assert telnet_commands(wire) == []
    assert wire.count(b"\xff") == 2
    assert decode(wire, {31}) == [tell, d.DummyResponse()]


def test_bare_braced_and_unknown_fields_double_0xff() -> None:
    move = d.SendMoves(5, algebraic="e\xff4", smith=None)
    game = d.GameMessage(7, "caf\xff {x}")
    for record in (move, game, d.UnknownDatagram(999, ("a\xff",))):
        wire = encode_event(record)
        assert telnet_commands(wire) == [] and wire.count(b"\xff") == 2
        assert decode(wire, {24, 33}) == [record]


def test_a_unit_header_doubles_0xff_and_reads_back() -> None:
    wire = encode_unit_start(101, "fr\xffed", "t" + SUBNEGOTIATION) + b"hi\n\x19]"
    assert telnet_commands(wire) == []
    assert decode(wire)[0] == UnitStart(101, "fr\xffed", "t" + SUBNEGOTIATION, 1)


def test_board_lines_and_text_double_0xff() -> None:
    board = Style12Line(parse_style12(FICS_MS.replace("mgatto", "mg\xffatto")), "\n")
    text = Text("caf\xff", "\r\n")
    wire = encode_event(board) + encode_event(text)
    assert telnet_commands(wire) == []
    assert decode(wire) == [board, text]


def test_a_lone_iac_between_frames_is_still_a_telnet_command() -> None:
    assert decode(b"a\xff\xfb\x01b\n") == [Text("a", ""), Telnet(b"\xff\xfb\x01"), Text("b")]


# -- the server's input side: telnet commands out of a stream read in any chunks ---------

#: A line as a real telnet client sends it: NAWS (window size, with a doubled 255 in its
#: data), a DO/WILL pair, a NOP, IAC IAC data, and a timing mark answer.
TELNET_INPUT = (
    b"\xff\xfa\x1f\x00\x50\xff\xff\x18\xff\xf0"  # IAC SB NAWS 0 80 255 24 IAC SE
    b"tell al\xff\xfb\x01ice hi \xff\xff!"  # IAC WILL ECHO inside a word, IAC IAC
    b"\xff\xf1"  # IAC NOP
    b"\xff\xfc\x06\n"  # IAC WONT TIMING-MARK
)


def filtered(chunks: list[bytes]) -> tuple[bytes, list[tuple[int, int]]]:
    reader = CommandFilter()
    data, commands = b"", []
    for chunk in chunks:
        part, seen = reader.feed(chunk)
        data += part
        commands += seen
    return data, commands


def test_command_filter_takes_out_commands_and_subnegotiations() -> None:
    assert filtered([TELNET_INPUT]) == (b"tell alice hi \xff!\n", [(0xFB, 1), (0xFC, 6)])


def test_command_filter_is_the_same_at_every_split() -> None:
    whole = filtered([TELNET_INPUT])
    for cut in range(len(TELNET_INPUT) + 1):
        assert filtered([TELNET_INPUT[:cut], TELNET_INPUT[cut:]]) == whole, cut
    assert filtered([bytes([b]) for b in TELNET_INPUT]) == whole


def test_command_filter_passes_plain_data_untouched() -> None:
    plain = b"seek 5 0\nsought\n"
    assert CommandFilter().feed(plain) == (plain, [])


def test_an_unended_subnegotiation_gives_the_stream_back() -> None:
    stray = b"\xff\xfa" + b"x" * (MAX_SUBNEGOTIATION + 1)
    assert filtered([stray, b"tell al hi\n"]) == (b"tell al hi\n", [])


def test_unaccented_is_ascii_but_for_telnet_commands() -> None:
    """DG_UNACCENTED's folding: every latin-1 letter 128-254 (and an escaped 255) becomes
    one US ASCII character; telnet commands (IAC WILL ECHO) stay as they are."""
    latin = escape("".join(map(chr, range(256))))
    folded = unaccented(latin)
    assert folded.isascii() and len(folded) == 256
    assert folded[192:256] == b"AAAAAAACEEEEIIIIDNOOOOOxOUUUUYTsaaaaaaaceeeeiiiidnooooo/ouuuuyty"
    assert unaccented(escape("Éric") + b"\xff\xfb\x01" + escape("ÿ")) == b"Eric\xff\xfb\x01y"
    assert unaccented(b"plain\r\n") == b"plain\r\n"


@given(st.lists(st.sampled_from([b"a", b"\r", b"\n", b"\r\n", b"\n\r"]), max_size=12))
def test_fics_newlines_is_the_pattern_s_substitution_on_any_line_ends(parts: list[bytes]) -> None:
    """The ``bytes.replace`` path (lines that all end ``\\r\\n``) gives what the pattern
    gives: every line end, whatever its form, as ``\\n\\r``."""
    data = b"".join(parts)
    expected = re.sub(rb"\r?\n\r?", b"\n\r", data)
    assert fics_newlines(data) == expected
