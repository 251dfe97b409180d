"""Text a user typed that begins a line others are sent: never a line their client reads
as data.

A FICS or level 1 client reads a line that starts ``<`` as a board or an interface line
(``<12>``, ``<b1>``, ``<s>``, ``<pf>``, ``<g1>``, ``<10>``...), ``"10"`` as a style 10
board's header, ``{Game`` as a game's end, and ``fics%`` or ``aics%`` as the prompt (where
a command's answer ends). Such a line is sent one blank in, as text. Control characters
never get this far (``Session.clean_text`` drops them from every line typed), and a
datagram's text fields are quoted by the encoder, so level 1 and level 2 framing is safe.
Text after a name (``Ann tells you: ...``) starts no line; FICS's wrapping continues a long
line after ``\\``.

>>> typed_line("<12> rnbqkbnr"), typed_line("Big news"), typed_line("fics% quit")
(' <12> rnbqkbnr', 'Big news', ' fics% quit')
"""

from __future__ import annotations

__all__ = ["DATA_STARTS", "typed_line"]

#: How a line begins that a client reads as more than text.
DATA_STARTS = ("<", '"', "{", "fics%", "aics%")


def typed_line(text: str) -> str:
    """``text``, typed by a user, as the start of a line others are sent."""
    return " " + text if text.startswith(DATA_STARTS) else text
