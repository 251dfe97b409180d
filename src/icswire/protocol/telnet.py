"""Telnet's rule for data bytes (RFC 854): a data byte 255 travels as IAC IAC.

Chess servers talk over telnet, so a 0xFF the server means as data -- in text, in a level 1
header, inside a datagram -- is doubled on the wire, and a lone 0xFF starts a telnet
command (``IAC WILL ECHO``, ``IAC SB ... IAC SE``) that a client's telnet layer takes out
of the stream before anything reads it. An undoubled 0xFF inside a datagram would be read
as such a command and swallow what follows.
"""

from __future__ import annotations

import re
import unicodedata

IAC = 0xFF
SB = 0xFA  # subnegotiation begins; it ends at IAC SE
SE = 0xF0
OPTION_COMMANDS = range(251, 255)  # WILL, WONT, DO, DONT take one option byte
#: The longest subnegotiation read as one (a terminal type or window size is far shorter).
MAX_SUBNEGOTIATION = 256


#: Every line end of a FICS server: line feed, then carriage return (lasker's
#: ``net_send_string`` sends ``"\n\r"`` for each ``"\n"``; NOTES.md, "Line endings").
FICS_NEWLINE = b"\n\r"
_LINE_END = re.compile(rb"\r?\n\r?")


def fics_newlines(data: bytes) -> bytes:
    """``data`` with each line end (``\\r\\n``, ``\\n`` or ``\\n\\r``) as FICS sends it,
    ``\\n\\r``: what a FICS-dialect session receives. Idempotent. The server's own
    units end every line ``\\r\\n``: those are swapped by ``bytes.replace``, some three
    times cheaper than the pattern (it is done for every unit a FICS session gets)."""
    if b"\n" not in data:
        return data
    if b"\n\r" not in data and data.count(b"\n") == data.count(b"\r\n"):
        return data.replace(b"\r\n", FICS_NEWLINE)
    return _LINE_END.sub(FICS_NEWLINE, data)


def escape(text: str) -> bytes:
    """Text as wire bytes: latin-1, one byte per character, a 255 byte doubled."""
    data = text.encode("latin-1")
    return data.replace(b"\xff", b"\xff\xff") if b"\xff" in data else data


def _ascii_like(code: int) -> int:
    """The US ASCII character most like latin-1 character ``code`` (128-255): the letter
    under its accent (NFKD), a few by hand, ``?`` for the rest."""
    char = chr(code)
    by_hand = {"Æ": "A", "æ": "a", "Ð": "D", "ð": "d", "Ø": "O", "ø": "o", "Þ": "T",
               "þ": "t", "ß": "s", "×": "x", "÷": "/", "¿": "?", "¡": "!", "«": "<",
               "»": ">", "\xa0": " ", "\xad": "-"}  # fmt: skip
    if char in by_hand:
        return ord(by_hand[char])
    for part in unicodedata.normalize("NFKD", char):
        if " " < part < "\x7f":
            return ord(part)
    return ord("?")


#: Every byte as DG_UNACCENTED's receiver gets it: 128-254 as an ASCII look-alike.
_UNACCENTED = bytes(range(128)) + bytes(_ascii_like(code) for code in range(128, 255)) + b"\xff"
#: An IAC IAC pair (a data byte 255, y with diaeresis) or a telnet command (kept as it is).
_IAC_RUN = re.compile(rb"\xff(\xff|[\xfb-\xfe].|[^\xff]?)", re.DOTALL)


def unaccented(data: bytes) -> bytes:
    """Wire bytes with every latin-1 letter 128-255 made a US ASCII one (``é`` -> ``e``,
    an escaped ``ÿ`` -> ``y``) and telnet commands left alone: what a receiver who turned
    DG_UNACCENTED (78) on gets ("output to you should only contain US ASCII (plus the
    telnet codes for turning echo on and off ...). Chars 191-254 in the ISO Latin-1 set
    ... are replaced some similar US ASCII character")."""
    if b"\xff" not in data:
        return data.translate(_UNACCENTED)
    pieces = []
    start = 0
    for match in _IAC_RUN.finditer(data):
        pieces.append(data[start : match.start()].translate(_UNACCENTED))
        pieces.append(b"y" if match.group(1) == b"\xff" else match.group(0))
        start = match.end()
    pieces.append(data[start:].translate(_UNACCENTED))
    return b"".join(pieces)


def unescape(text: str) -> str:
    """Wire text (read as latin-1) back to the data: each IAC IAC pair is one 255."""
    return text.replace("\xff\xff", "\xff") if "\xff" in text else text


class CommandFilter:
    """Takes telnet commands out of a byte stream read in chunks of any size (sans-I/O).

    :meth:`feed` returns the data bytes and the option commands seen, ``(command,
    option)`` pairs such as ``(WILL, 6)``. A command split across two reads is completed
    by the next; IAC IAC is one data byte 255; a subnegotiation (``IAC SB ... IAC SE``,
    a client's window size say) is dropped whole, so none of its bytes reaches the text.
    One that runs past :data:`MAX_SUBNEGOTIATION` bytes without its IAC SE is taken to
    have ended there: an IAC SB a client sent by mistake must not swallow its session.
    """

    __slots__ = ("_command", "_sb_length", "_state")

    _DATA, _AFTER_IAC, _OPTION, _IN_SB, _SB_AFTER_IAC = range(5)

    def __init__(self) -> None:
        self._state = self._DATA
        self._command = 0
        self._sb_length = 0

    def feed(self, chunk: bytes) -> tuple[bytes, list[tuple[int, int]]]:
        if self._state == self._DATA and IAC not in chunk:
            return chunk, []
        out = bytearray()
        commands: list[tuple[int, int]] = []
        state = self._state
        for byte in chunk:
            if state == self._DATA:
                if byte == IAC:
                    state = self._AFTER_IAC
                else:
                    out.append(byte)
            elif state == self._AFTER_IAC:
                if byte == IAC:
                    out.append(IAC)
                    state = self._DATA
                elif byte in OPTION_COMMANDS:
                    self._command, state = byte, self._OPTION
                elif byte == SB:
                    state, self._sb_length = self._IN_SB, 0
                else:  # a two-byte command (NOP, GA, AYT, a stray SE ...)
                    state = self._DATA
            elif state == self._OPTION:
                commands.append((self._command, byte))
                state = self._DATA
            elif state == self._IN_SB:
                self._sb_length += 1
                if byte == IAC:
                    state = self._SB_AFTER_IAC
                elif self._sb_length > MAX_SUBNEGOTIATION:
                    state = self._DATA
            else:  # IAC inside a subnegotiation: SE ends it, IAC IAC is its data
                state = self._DATA if byte == SE else self._IN_SB
        self._state = state
        return bytes(out), commands
