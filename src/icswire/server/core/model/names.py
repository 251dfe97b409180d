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

__all__ = [
    "NAME_MAX",
    "NAME_MIN",
    "RESERVED_NAMES",
    "check_name",
    "is_reserved",
    "name_error",
    "name_key",
    "name_skeleton",
]

NAME_MIN = 2
NAME_MAX = 15
#: Names nobody may take as a guest: the server's own and those that pass for staff (the
#: command words are reserved too: the login asks the registry for them).
RESERVED_NAMES = frozenset({
    "admin", "administrator", "root", "server", "system", "sysop", "operator", "superuser",
    "daemon", "icswire", "fics", "icc", "chessclub", "freechess", "guest", "nobody",
    "everybody", "everyone", "all", "staff", "support", "moderator", "helpdesk", "abuse",
    "postmaster", "webmaster",
})  # fmt: skip
#: Beginnings reserved too: the server names guests Guest + four letters.
RESERVED_PREFIXES = ("guest", "admin")


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


def is_reserved(name: str) -> bool:
    """Is ``name`` kept from guests (:data:`RESERVED_NAMES`, :data:`RESERVED_PREFIXES`)?

    >>> is_reserved("Server"), is_reserved("GuestABCD"), is_reserved("Fred")
    (True, True, False)
    """
    key = name_key(name)
    return key in RESERVED_NAMES or key.startswith(RESERVED_PREFIXES)


def name_key(name: str) -> str:
    """The case-insensitive identity of a name: what accounts are stored and looked up by."""
    return name.lower()


#: What :func:`name_skeleton` makes of the characters that pass for others: once lowercased,
#: ``1`` and ``i`` (``I``) look like ``l``, and ``0`` like ``o``.
_LOOK_ALIKE = str.maketrans("1i0", "llo")


def name_skeleton(name: str) -> str:
    """What ``name`` looks like: two names with one skeleton would pass for each other
    (case aside, ``1``, ``I`` and ``l`` are one letter, and ``0`` and ``O``). A new
    account's skeleton must be nobody else's.

    >>> name_skeleton("Bi1l") == name_skeleton("BILL") == name_skeleton("Bill") == "blll"
    True
    >>> name_skeleton("Tom0") == name_skeleton("tomo")
    True
    """
    return name_key(name).translate(_LOOK_ALIKE)
