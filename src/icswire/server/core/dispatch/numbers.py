"""Numbers typed by users: one reading for every command and the login prompt.

A number is ASCII digits, at most :data:`NUMBER_DIGITS` of them, with a sign only where the
command takes one. Not ``str.isdigit`` (it holds for ``²``, which ``int`` refuses: input is
read as latin-1, so ``¹²³`` arrive as typed), nor ``int`` alone (it reads ``1_0`` as 10 and
``" 7"`` as 7, and would take a thousand digits).

>>> [parse_number(text) for text in ("12", "²", "1_0", "-3")], parse_number("-3", signed=True)
([12, None, None, None], -3)
>>> is_digits("7"), is_digits("²"), is_digits("")
(True, False, False)
"""

from __future__ import annotations

import re

__all__ = ["NUMBER_DIGITS", "is_digits", "parse_number"]

#: The most digits a typed number may have (nothing the server counts needs more).
NUMBER_DIGITS = 9
_UNSIGNED = re.compile(rf"[0-9]{{1,{NUMBER_DIGITS}}}")
_SIGNED = re.compile(rf"[+-]?[0-9]{{1,{NUMBER_DIGITS}}}")


def parse_number(text: str, signed: bool = False) -> int | None:
    """The number a user typed as ``text`` (already stripped), or None if it is not one."""
    found = (_SIGNED if signed else _UNSIGNED).fullmatch(text)
    return None if found is None else int(found[0])


def is_digits(text: str) -> bool:
    """Whether ``text`` is ASCII digits only (what ``int`` reads, unlike ``str.isdigit``),
    for a flag read a digit at a time."""
    return text.isascii() and text.isdigit()
