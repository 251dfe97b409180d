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
#: The longest subnegotiation read as one (a terminal type or window size is far shorter).
MAX_SUBNEGOTIATION = 256


def escape(text: str) -> bytes:
    """Text as wire bytes: latin-1, one byte per character, a 255 byte doubled."""
    data = text.encode("latin-1")
    return data.replace(b"\xff", b"\xff\xff") if b"\xff" in data else data


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
