"""FICS timeseal 1: what PyChess sends, sealing and unsealing, bad lines, pings."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from icswire.protocol.events import Error
from icswire.protocol.timeseal import (
    KEY,
    PING,
    PONG,
    Hello,
    PingFilter,
    Pong,
    SealedLine,
    TimesealDecoder,
    TimesealEvent,
    elapsed,
    encode_sealed,
    hello_text,
    seal,
    unseal,
)

from .strategies import sealed_events, sealed_text, timestamps

# Sent by PyChess 1.0.3 (Debian package): ICSStreamReaderProtocol.encode, as its
# ICSTelnet.write calls it, after random.seed(7); the first is its get_init_string().
PYCHESS: list[tuple[str, TimesealEvent]] = [
    (
        "b2996e8a8a86809e9d8862d4677da3647d606760abbc8f77ac7e7fc2b9bcabbdb9a1b563d0a575dfd2d36a74"
        "b6b5c3b1ceddc495868297979e9f94a5a4cd639aa26c60ae7b8065c1d7bca9a37fc2a4baa5a2a6b7b5a460"
        "78d7c4d3c1606d6e6379cf737972c8a673b6a4b2bbbadc95d9b669c6d8b0656bbe970a",
        Hello(
            "fred",
            "Linux chess 6.1.0-18-amd64 #1 SMP PREEMPT_DYNAMIC Debian 6.1.76-1 (2024-02-01) x86_64",
            4213377,
            "kY0pF45Qy7",
            23,
        ),
    ),
    (
        "6eb37b726f6460ad8a8080c2cb71a7657a61737f70c8cbaf830a",
        SealedLine("1 iset block 1", 4213401, "B", 3),
    ),
    ("92bd78b6a873d8b7bfcad0c9a00a", Pong(4230118, "W", 32)),
    (
        "a972d8b1bda6bbd37182a264b9aa8ebf6b74a66699be8799a40a",
        SealedLine("e2e4", 4231000, "d36rq5fXzW4", 36),
    ),
    ("6babb1b279deabb8d4776dd1a80a", SealedLine("", 9999999, "8Ye", 40)),
    (
        "d665ca65656b6261a961aca1818774936c7bd87ea1b5b4cb9a0a",
        SealedLine("abcdefghi", 5, "EB4AYpXe3z9i", 26),
    ),
]


def decode(stream: bytes, cuts: Sequence[int] = (), **kw: int) -> list[TimesealEvent]:
    decoder = TimesealDecoder(**kw)
    events: list[TimesealEvent] = []
    start = 0
    for cut in [*sorted(cuts), len(stream)]:
        events += decoder.feed(stream[start:cut])
        start = max(start, cut)
    return events + decoder.close()


def rewrite(line: bytes, index: int, old: str, new: str) -> bytes:
    """``line`` (one 12-byte group) sealed with ``new`` instead of ``old`` at ``index`` of
    the plain text (sealing swaps bytes 0/11, 2/9 and 4/7)."""
    at = {0: 11, 11: 0, 2: 9, 9: 2, 4: 7, 7: 4}.get(index, index)
    changed = ((line[at] + 32) ^ ord(old) ^ ord(new)) - 32
    return line[:at] + bytes([changed]) + line[at + 1 :]


def test_what_pychess_sends_decodes_and_encodes_back() -> None:
    stream = b"".join(bytes.fromhex(data) for data, _ in PYCHESS)
    assert decode(stream) == [event for _, event in PYCHESS]
    for data, event in PYCHESS:
        assert encode_sealed(event) == bytes.fromhex(data)


def test_seal_pads_with_ones_and_key_offset_zero_by_default() -> None:
    line = seal("e2e4", 1234)  # e2e4 ^X 1234 ^Y: 10 bytes, 2 of padding
    assert len(line) == 14 and line[-2:] == b"\x80\n"
    assert unseal(line[:-1]) == SealedLine("e2e4", 1234, "11", 0)
    assert unseal(seal("abcdef", 1234)[:-1]).padding == ""  # 12 bytes fill a group
    assert all(0x60 <= b < 0xE0 for b in seal("x" * 40 + "\x7f\x00", 0, key_offset=49)[:-2])


def test_the_hello_is_only_the_first_line_and_pongs_come_any_time() -> None:
    hello = seal(hello_text("fred", "Linux|x86_64"), 10)
    events = decode(hello + seal(PONG, 20) + hello + seal(PONG, 30))
    assert events == [  # TIMESTAMP|fred|Linux|x86_64| ^X 10 ^Y: 32 bytes, 4 of padding
        Hello("fred", "Linux|x86_64", 10, "1111", 0),
        Pong(20, "111111", 0),
        SealedLine("TIMESTAMP|fred|Linux|x86_64|", 10, "1111", 0),
        Pong(30, "111111", 0),
    ]


def test_a_client_without_timeseal_gets_errors_not_lines() -> None:
    events = decode(b"guest\n" + seal(hello_text("fred", "Linux"), 1))
    assert isinstance(events[0], Error) and events[0].data == b"guest\n"
    assert isinstance(events[1], SealedLine)  # the hello is expected first, or never


def test_bad_lines_are_errors_with_their_offsets_and_decoding_goes_on() -> None:
    good = seal("x", 57)  # x ^X 57 ^Y 1111111 ^@ \n
    bad = [
        good[:5] + good[6:],  # 12 bytes before the newline
        good[:-2] + b"\xb2\n",  # key offset 50
        b"\x20" + good[1:],
        rewrite(good, 1, "\x18", "y"),  # no ^X
        rewrite(good, 4, "\x19", "y"),  # no ^Y
        rewrite(good, 2, "5", "a"),
        rewrite(good, 2, "5", "0"),  # 07
    ]
    events = decode(b"".join(bad) + good)
    assert [type(e) for e in events] == [Error] * len(bad) + [SealedLine]
    offsets = [sum(map(len, bad[:k])) for k in range(len(bad))]
    assert [e.offset for e in events if isinstance(e, Error)] == offsets
    assert [e.data for e in events if isinstance(e, Error)] == bad
    messages = " ".join(e.message for e in events if isinstance(e, Error))
    assert "12k+1" in messages and "offset byte 0xb2" in messages and "0x60..0xdf" in messages
    assert messages.count("no \\x18 timestamp \\x19") == 4
    assert events[-1] == SealedLine("x", 57, "1111111", 0)


def test_a_too_long_line_is_one_error_and_the_decoder_stays_small() -> None:
    long = seal("x" * 200, 1)
    decoder = TimesealDecoder(max_size=30)
    events = []
    for start in range(0, len(long), 7):
        events += decoder.feed(long[start : start + 7])
        assert decoder.buffered <= 30 + 7 + 1024
    events += decoder.feed(seal("ok", 2)) + decoder.close()
    assert len(events) == 2 and isinstance(events[0], Error)
    assert (events[0].offset, events[0].length, events[0].data) == (0, len(long), long[:31])
    assert events[1] == SealedLine("ok", 2, "1111111", 0)
    assert decode(long, max_size=30) == events[:1]


def test_the_stream_may_end_inside_a_line() -> None:
    (event,) = decode(b"\x99\x99")
    assert isinstance(event, Error) and event.message == "the stream ended inside a line"
    assert event.data == b"\x99\x99"


@pytest.mark.parametrize(
    ("text", "timestamp", "kw"),
    [
        ("caf\xe9", 0, {}),
        ("a\x18b", 0, {}),
        ("a", -1, {}),
        ("a", 0, {"key_offset": len(KEY)}),
        ("a", 0, {"padding": "1"}),
        ("a", 0, {"padding": "\xe9" * 8}),
    ],
)
def test_seal_refuses_what_cannot_be_unsealed(
    text: str, timestamp: int, kw: dict[str, Any]
) -> None:
    with pytest.raises(ValueError, match="timeseal"):
        seal(text, timestamp, **kw)


# -- properties ------------------------------------------------------------------------


@settings(max_examples=150)
@given(
    sealed_events(hello=True),
    st.lists(sealed_events(), max_size=8),
    st.lists(st.integers(0, 600), max_size=6),
)
def test_decode_inverts_encode_however_the_bytes_come(
    hello: Hello, lines: list[SealedLine | Hello | Pong], cuts: list[int]
) -> None:
    events = [hello, *lines]
    stream = b"".join(encode_sealed(event) for event in events)
    assert decode(stream) == events
    assert decode(stream, cuts) == events


@given(sealed_text, timestamps)
def test_unseal_inverts_seal(text: str, timestamp: int) -> None:
    assert unseal(seal(text, timestamp)[:-1])[:2] == (text, timestamp)


@settings(max_examples=200)
@given(
    st.lists(
        st.binary(max_size=30) | st.sampled_from([b"\n", seal("a", 1), seal(PONG, 2)]), max_size=12
    ).map(b"".join),
    st.lists(st.integers(0, 400), max_size=6),
)
def test_any_bytes_are_events_or_errors_and_every_byte_is_in_one(
    data: bytes, cuts: list[int]
) -> None:
    events = decode(data, cuts, max_size=40)
    assert events == decode(data, max_size=40)
    sizes = [e.length if isinstance(e, Error) else len(encode_sealed(e)) for e in events]
    assert sum(sizes) == len(data)
    for event in events:
        if not isinstance(event, Error):
            assert encode_sealed(event) in data


# -- the client's side of pings --------------------------------------------------------


def test_pings_are_taken_out_of_the_servers_output() -> None:
    filter_ = PingFilter()
    assert filter_.feed(b"fics% [G]\n\rhi\n[G") == (b"fics% hi\n", 1)
    assert filter_.feed(b"]\n") == (b"", 0)
    assert filter_.feed(b"\r[G]x") == (b"[G]x", 1)
    assert filter_.feed(b"[") == (b"", 0)
    assert filter_.close() == b"["


def test_a_ping_taken_out_does_not_join_its_neighbours_into_another() -> None:
    filter_ = PingFilter()  # "[G]", a ping, "\n\r": one ping, and "[G]\n\r" left as text
    assert filter_.feed(b"[G][G]\n\r") == (b"[G]", 1)
    assert filter_.feed(b"\n\r") == (b"\n\r", 0)


@given(
    st.lists(st.sampled_from([PING, b"[G]", b"[", b"\n\r", b"x", b"G]\n"]), max_size=20).map(
        b"".join
    ),
    st.lists(st.integers(0, 100), max_size=6),
)
def test_pings_are_found_however_the_output_comes(data: bytes, cuts: list[int]) -> None:
    filter_ = PingFilter()
    out, count, start = b"", 0, 0
    for cut in [*sorted(cuts), len(data)]:
        part, found = filter_.feed(data[start:cut])
        out, count, start = out + part, count + found, max(start, cut)
    assert (out + filter_.close(), count) == (data.replace(PING, b""), data.count(PING))


# eboard 1.1.3's zseal helper (Debian's /usr/share/games/eboard/timeseal.Linux), captured on
# loopback: its hello, the line ``guest`` and its answer to ``[G]\0``.
ZSEAL_HELLO = bytes.fromhex(
    "9b8071809f91809ea2cdba72c797d361a165b4b4bc607caf6cb2b6b7a0b7bdbcb7b669b2a8a9de7063"
    "b27f736089bc8db860c1bda06370b977b9a978cdc57bc3d3c4d085c17fd5606dd0998d8e9e9c858099"
    "8689ceb2b9b8deb391aabdabc767a1aebca7887c756bcb98b098a17879dfd8d2c29071a76076800a"
)
ZSEAL_GUEST = bytes.fromhex("c27cbe76a7ccb079a2a57f81d8bac27871a7607f61717c78800a")
ZSEAL_PONG = bytes.fromhex("c5b0b8b4a1a0b5b9a79891a4800a")


def test_zseal_timeseal_2_as_eboard_sends_it() -> None:
    events = TimesealDecoder().feed(ZSEAL_HELLO + ZSEAL_GUEST + ZSEAL_PONG)
    hello, guest, pong = events
    assert isinstance(hello, Hello)
    assert (hello.tag, hello.version, hello.user) == ("TIMESEAL2", 2, "root (zseal 1.0 20160229)")
    assert hello.system.startswith("Linux vm ") and hello.timestamp == 1138819
    assert guest == SealedLine("guest", 1423768, "1111111111", 0)
    assert pong == Pong(1444275, "1", 0)
    assert b"".join(encode_sealed(e) for e in events) == ZSEAL_HELLO + ZSEAL_GUEST + ZSEAL_PONG


def test_elapsed_goes_across_the_clock_wrap() -> None:
    assert elapsed(1_000, 4_500) == 3_500
    assert elapsed(9_999_000, 500) == 1_500  # the client's clock wrapped at 10**7 ms
