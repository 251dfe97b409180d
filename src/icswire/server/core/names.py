"""Player names: what the server accepts and how it compares them.

A name is 2 to 15 ASCII letters and digits and begins with a letter; anything else is refused
with the code DG_LOGIN_FAILED (69) gives for it. Names are one identity whatever their case:
``Fred`` and ``fred`` are the same player, though the account keeps the case it was registered
with.

>>> check_name("Fred42") is None
True
>>> check_name("x")
<LoginFailed.NAME_TOO_SHORT: 3>
>>> name_key("Fred42")
'fred42'
"""

from __future__ import annotations

from icswire.protocol.codes import LOGIN_FAILED_TEXTS, LoginFailed

__all__ = ["NAME_MAX", "NAME_MIN", "check_name", "name_error", "name_key"]

NAME_MIN = 2
NAME_MAX = 15


def check_name(name: str) -> LoginFailed | None:
    """The DG_LOGIN_FAILED code that refuses ``name``, or None when it is a valid name.

    Length is checked first (2: too long, 3: too short), then the letters (4: it must begin
    with an ASCII letter and be ASCII letters and digits only).
    """
    if len(name) > NAME_MAX:
        return LoginFailed.NAME_TOO_LONG
    if len(name) < NAME_MIN:
        return LoginFailed.NAME_TOO_SHORT
    if not (name.isascii() and name.isalnum() and name[0].isalpha()):
        return LoginFailed.NAME_NOT_ALPHANUMERIC
    return None


def name_error(name: str) -> str | None:
    """Why ``name`` is refused, in the spec's words without its "Try again.", or None.

    >>> name_error("4fred")
    'Sorry, a name must begin with a letter and consist of letters and digits.'
    """
    code = check_name(name)
    if code is None:
        return None
    return LOGIN_FAILED_TEXTS[code].removesuffix(" Try again.")


def name_key(name: str) -> str:
    """The case-insensitive identity of a name: what accounts are stored and looked up by."""
    return name.lower()
