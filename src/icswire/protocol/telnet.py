"""Telnet's rule for data bytes (RFC 854): a data byte 255 travels as IAC IAC.

Chess servers talk over telnet, so a 0xFF the server means as data -- in text, in a level 1
header, inside a datagram -- is doubled on the wire, and a lone 0xFF starts a telnet
command (``IAC WILL ECHO``, ``IAC SB ... IAC SE``) that a client's telnet layer takes out
of the stream before anything reads it. An undoubled 0xFF inside a datagram would be read
as such a command and swallow what follows.
"""

from __future__ import annotations

IAC = 0xFF
SB = 0xFA  # subnegotiation begins; it ends at IAC SE
SE = 0xF0
OPTION_COMMANDS = range(251, 255)  # WILL, WONT, DO, DONT take one option byte


def escape(text: str) -> bytes:
    """Text as wire bytes: latin-1, one byte per character, a 255 byte doubled."""
    data = text.encode("latin-1")
    return data.replace(b"\xff", b"\xff\xff") if b"\xff" in data else data


def unescape(text: str) -> str:
    """Wire text (read as latin-1) back to the data: each IAC IAC pair is one 255."""
    return text.replace("\xff\xff", "\xff") if "\xff" in text else text
