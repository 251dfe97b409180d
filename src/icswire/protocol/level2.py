"""Level 2 framing: the body of a ``^Y(...^Y)`` datagram as blank-separated fields.

icc-formats.txt section 4: a DG is ``^Y(`` + DG number + blank-separated fields + ``^Y)``.
A string field is quoted as ``{text}`` (the text never holds braces) or as
``^Y{text^Y}`` (the text may hold anything printable, braces and newlines included);
``{}`` is the empty string. A blank is a space: the encoder writes one between fields,
the reader takes one or more; every other byte (tab, ``\x1c``-``\x1f``, NBSP ...)
belongs to a field. Control-Y never does: it only quotes, and cannot be quoted.

Three quoting styles are used when encoding, chosen per field by the DG catalog:

- :func:`quote_word` -- bare when the text is one non-empty word, else quoted
  (names, moves, codes: DG_GAMELIST_ITEM says "fields containing spaces will be quoted");
- :func:`quote_brace` -- always ``{...}``, or ``^Y{...^Y}`` when the text needs it
  (the spec writes these fields as ``{ex-string}``, ``{FEN-string}``, titles ...);
- :func:`quote_ctrl` -- always ``^Y{...^Y}`` (the spec writes ``^Y{tell string^Y}``).
"""

from __future__ import annotations

import re

from icswire.protocol.telnet import escape

CTRL_Y = "\x19"
DG_OPEN = b"\x19("
DG_CLOSE = b"\x19)"

# A quoted field: ^Y{...^Y} or {...}. Split with this pattern, a body gives [run, quoted,
# run, ..., quoted, run]: the runs hold the bare fields and the blanks (nothing between two
# quoted fields, as in DG_MOVE_LIST's ``{e4}{e5}``).
_QUOTED = re.compile(r"(\x19\{[^\x19]*\x19\}|\{[^{}\x19]*\})")
# Characters that force a string out of bare form, and out of {...} form.
_NOT_BARE = re.compile(r"[\s{}\x19]")
_NOT_BRACE = re.compile(r"[{}\x19\x1a\n\r]")


def split_fields(body: str) -> tuple[list[str], list[str]]:
    """Split a datagram body into (values, wire tokens).

    ``values`` are the unquoted field texts; ``tokens`` are the same fields as they
    stood on the wire (with their quotes), used to keep unknown trailing fields exact.

    >>> split_fields("31 fred {} \\x19{hi {there}\\x19} 1")
    (['31', 'fred', '', 'hi {there}', '1'], ['31', 'fred', '{}', '\\x19{hi {there}\\x19}', '1'])
    """
    if "{" not in body and "}" not in body and CTRL_Y not in body:
        words = body.split(" ")
        if "" in words:
            words = [word for word in words if word]
        return words, words
    values: list[str] = []
    tokens: list[str] = []
    parts = _QUOTED.split(body)
    for k, part in enumerate(parts):
        if k & 1:
            tokens.append(part)
            values.append(part[2:-2] if part[0] == CTRL_Y else part[1:-1])
            continue
        run = part.strip(" ")
        if not run:
            continue
        if "{" in run or "}" in run or CTRL_Y in run:
            raise ValueError(_unreadable(body, parts, k))
        words = run.split(" ")
        if "" in words:
            words = [word for word in words if word]
        tokens += words
        values += words
    return values, tokens


def _unreadable(body: str, parts: list[str], k: int) -> str:
    """Where the run ``parts[k]`` holds a brace or control-Y that quotes nothing."""
    found = (parts[k].find(c) for c in "{}\x19")
    at = sum(map(len, parts[:k])) + min(i for i in found if i >= 0)
    return f"unreadable field at character {at}: {body[at : at + 20]!r}"


def quote_word(text: str) -> str:
    """A field that is bare when it can be: ``fred``, ``e2e4``; ``{}`` when empty."""
    if text and _NOT_BARE.search(text) is None:
        return text
    return quote_brace(text)


def quote_brace(text: str) -> str:
    """``{text}``, or ``^Y{text^Y}`` when the text holds braces, control-Y or newlines."""
    if _NOT_BRACE.search(text) is None:
        return "{" + text + "}"
    return quote_ctrl(text)


def quote_ctrl(text: str) -> str:
    """``^Y{text^Y}``. Control-Y and control-Z cannot be quoted at all: they are refused
    (a server cleans user text of control characters before it gets here)."""
    if CTRL_Y in text or "\x1a" in text:
        raise ValueError(f"a datagram string cannot contain control-Y or control-Z: {text!r}")
    return "\x19{" + text + "\x19}"


def frame(fields: list[str]) -> bytes:
    """Wrap already-quoted fields (the first is the DG number) as ``^Y(...^Y)`` bytes,
    a 0xFF doubled (:mod:`icswire.protocol.telnet`)."""
    return escape("\x19(" + " ".join(fields) + "\x19)")
