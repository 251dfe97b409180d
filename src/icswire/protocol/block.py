"""FICS block mode (FICS help ``iv_block``): every command's output in one numbered block.

After ``iset block 1`` a client sends each command as ``ID COMMAND`` and the server wraps
that command's whole output (boards, prompts and all) as::

    BLOCK_START ID BLOCK_SEPARATOR CODE BLOCK_SEPARATOR output BLOCK_END

where CODE is the command's block code (:class:`~icswire.protocol.blockcodes.BlockCode`).
Output the command did not cause stays outside blocks. When another user makes the server
run a command for you (an admin's or a bot's ``robserve``, say), the block comes inside
``BLOCK_POSE_START`` ... ``BLOCK_POSE_END`` (seen in PyChess's puzzlebot tests), with ID 0.

``BLOCK_POSE_END`` is byte 0x19, ICC's control-Y: a decoder can only tell the two apart by
knowing which server it reads, so block mode is a setting of the decoder (see
:class:`icswire.protocol.decoder.Decoder`), never guessed from the bytes.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Final

if TYPE_CHECKING:
    from icswire.protocol.blockcodes import BlockCode

__all__ = [
    "BLOCK_END",
    "BLOCK_POSE_END",
    "BLOCK_POSE_START",
    "BLOCK_SEPARATOR",
    "BLOCK_START",
    "BlockCode",
    "HeaderError",
    "format_header",
    "read_header",
]

BLOCK_START: Final = 0x15
BLOCK_SEPARATOR: Final = 0x16
BLOCK_END: Final = 0x17
BLOCK_POSE_START: Final = 0x18
BLOCK_POSE_END: Final = 0x19

# A number in a header: canonical decimal (what the server's "%d" writes), at most 9 digits.
_NUMBER = rb"(0|[1-9][0-9]{0,8})"
_HEADER: Final = re.compile(b"\x15" + _NUMBER + b"\x16" + _NUMBER + b"\x16")
# The longest start of a header the bytes could still complete.
_PARTIAL: Final = re.compile(b"\x15(?:" + _NUMBER + b"(?:\x16(?:" + _NUMBER + b")?)?)?")


class HeaderError(ValueError):
    """Bytes at a ``BLOCK_START`` that are no block header; ``length`` of them are bad."""

    def __init__(self, length: int) -> None:
        super().__init__("bad block header: expected BLOCK_START id BLOCK_SEPARATOR code")
        self.length = length


def read_header(data: bytes | bytearray, start: int) -> tuple[int, int, int] | None:
    """Read the header at ``data[start]`` (a ``BLOCK_START``): ``(id, code, end)`` with
    ``end`` just past it, or None when ``data`` ends before the header could be complete.

    Raises :class:`HeaderError` when the bytes cannot be a header; the bad part is the
    longest start of a header they do make, so decoding can go on right after it.
    """
    m = _HEADER.match(data, start)
    if m is not None:
        return int(m[1]), int(m[2]), m.end()
    partial = _PARTIAL.match(data, start)
    # BLOCK_START alone is a partial header
    if partial is None:
        raise RuntimeError("partial is None")
    if partial.end() == len(data):
        return None
    raise HeaderError(partial.end() - start)


def format_header(block_id: int, code: int) -> bytes:
    """``BLOCK_START id BLOCK_SEPARATOR code BLOCK_SEPARATOR``; inverse of :func:`read_header`."""
    if not (0 <= block_id < 10**9 and 0 <= code < 10**9):
        raise ValueError(f"block id and code must be 0..999999999, got {block_id}, {code}")
    return b"\x15%d\x16%d\x16" % (block_id, code)


def __getattr__(name: str) -> Any:
    """:class:`~icswire.protocol.blockcodes.BlockCode`, imported on first use."""
    if name == "BlockCode":
        from icswire.protocol.blockcodes import BlockCode

        return BlockCode
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
