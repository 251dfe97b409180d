"""FICS block mode: the block code table and block headers."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from icswire.protocol.block import BlockCode, HeaderError, format_header, read_header

block_numbers = st.integers(0, 10**9 - 1)


def test_block_codes_are_ficss_numbers() -> None:
    assert BlockCode.BLKCMD_NULL == 0 and BlockCode.BLKCMD_GAME_MOVE == 1
    assert BlockCode(11) is BlockCode.BLKCMD_ACCEPT  # the code of PyChess's "accept 7" reply
    assert BlockCode(155) is BlockCode.BLKCMD_SEEK and BlockCode(129) is BlockCode.BLKCMD_SUBLIST
    assert BlockCode.BLKCMD_SHOWSRS == 198 and BlockCode.BLKCMD_CHKID == 383
    errors = [code for code in BlockCode if code.name.startswith("BLKCMD_ERROR_")]
    assert [int(code) for code in errors] == list(range(512, 521))
    assert BlockCode.BLKCMD_ERROR_NOSEQUENCE == 519
    assert all(code.name.startswith("BLKCMD_") for code in BlockCode)
    assert len({int(code) for code in BlockCode}) == len(BlockCode)  # no aliases


def test_a_header_is_read_when_whole() -> None:
    data = b"fics% \x1552\x1611\x16You accept"
    assert read_header(data, 6) == (52, 11, 13)
    for cut in range(7, 13):
        assert read_header(data[:cut], 6) is None
    assert read_header(b"\x150\x16512\x16", 0) == (0, 512, 7)


@pytest.mark.parametrize(
    ("data", "length"),
    [
        (b"\x15x", 1),
        (b"\x1552x", 3),
        (b"\x1552\x16\x16", 4),
        (b"\x1552\x1611x", 6),
        (b"\x1507\x161\x16", 2),  # a number as "%d" never writes it
        (b"\x151234567890\x161\x16", 10),
    ],
)
def test_bad_headers_say_how_many_bytes_are_bad(data: bytes, length: int) -> None:
    with pytest.raises(HeaderError) as info:
        read_header(data, 0)
    assert info.value.length == length


@given(block_numbers, block_numbers)
def test_read_header_inverts_format_header(block_id: int, code: int) -> None:
    data = b"x" + format_header(block_id, code) + b"y"
    assert read_header(data, 1) == (block_id, code, len(data) - 1)


@pytest.mark.parametrize(("block_id", "code"), [(-1, 0), (0, -1), (10**9, 0)])
def test_format_header_refuses_what_cannot_be_read(block_id: int, code: int) -> None:
    with pytest.raises(ValueError, match="block id and code"):
        format_header(block_id, code)
