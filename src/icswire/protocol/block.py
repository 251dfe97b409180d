"""FICS block mode (FICS help ``iv_block``): every command's output in one numbered block.

After ``iset block 1`` a client sends each command as ``ID COMMAND`` and the server wraps
that command's whole output (boards, prompts and all) as::

    BLOCK_START ID BLOCK_SEPARATOR CODE BLOCK_SEPARATOR output BLOCK_END

where CODE is the command's block code (:class:`BlockCode`). Output the command did not
cause stays outside blocks. When another user makes the server run a command for you (an
admin's or a bot's ``robserve``, say), the block comes inside ``BLOCK_POSE_START`` ...
``BLOCK_POSE_END`` (seen in PyChess's puzzlebot tests), with ID 0.

``BLOCK_POSE_END`` is byte 0x19, ICC's control-Y: a decoder can only tell the two apart by
knowing which server it reads, so block mode is a setting of the decoder (see
:class:`icswire.protocol.decoder.Decoder`), never guessed from the bytes.
"""

from __future__ import annotations

import re
from enum import IntEnum
from typing import Final

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


class BlockCode(IntEnum):
    """A block code: the command whose output a block holds, or why there is none.

    Numbers as in FICS's block code table (help ``block_codes``; listed by PyChess's
    ``pychess/ic/__init__.py`` and by ICTK's ``FICSBlockMode``). Codes 300 and up are admin
    commands; 512 and up say why a command was not run. Servers may send codes not listed
    here (FatICS sends 2 for success), so decoders keep codes as plain ints.
    """

    BLKCMD_NULL = 0  # no command was sent (no output)
    BLKCMD_GAME_MOVE = 1  # a move was recognized
    BLKCMD_ABORT = 10
    BLKCMD_ACCEPT = 11
    BLKCMD_ADDLIST = 12
    BLKCMD_ADJOURN = 13
    BLKCMD_ALLOBSERVERS = 14
    BLKCMD_ASSESS = 15
    BLKCMD_BACKWARD = 16
    BLKCMD_BELL = 17
    BLKCMD_BEST = 18
    BLKCMD_BNAME = 19
    BLKCMD_BOARDS = 20
    BLKCMD_BSETUP = 21
    BLKCMD_BUGWHO = 22
    BLKCMD_CBEST = 23
    BLKCMD_CLEARMESSAGES = 24
    BLKCMD_CLRSQUARE = 25
    BLKCMD_CONVERT_BCF = 26
    BLKCMD_CONVERT_ELO = 27
    BLKCMD_CONVERT_USCF = 28
    BLKCMD_COPYGAME = 29
    BLKCMD_CRANK = 30
    BLKCMD_CSHOUT = 31
    BLKCMD_DATE = 32
    BLKCMD_DECLINE = 33
    BLKCMD_DRAW = 34
    BLKCMD_ECO = 35
    BLKCMD_EXAMINE = 36
    BLKCMD_FINGER = 37
    BLKCMD_FLAG = 38
    BLKCMD_FLIP = 39
    BLKCMD_FMESSAGE = 40
    BLKCMD_FOLLOW = 41
    BLKCMD_FORWARD = 42
    BLKCMD_GAMES = 43
    BLKCMD_GETGI = 44
    BLKCMD_GETPI = 45
    BLKCMD_GINFO = 46
    BLKCMD_GOBOARD = 47
    BLKCMD_HANDLES = 48
    BLKCMD_HBEST = 49
    BLKCMD_HELP = 50
    BLKCMD_HISTORY = 51
    BLKCMD_HRANK = 52
    BLKCMD_INCHANNEL = 53
    BLKCMD_INDEX = 54
    BLKCMD_INFO = 55
    BLKCMD_ISET = 56
    BLKCMD_IT = 57
    BLKCMD_IVARIABLES = 58
    BLKCMD_JKILL = 59
    BLKCMD_JOURNAL = 60
    BLKCMD_JSAVE = 61
    BLKCMD_KIBITZ = 62
    BLKCMD_LIMITS = 63
    BLKCMD_LINE = 64  # not on FICS
    BLKCMD_LLOGONS = 65
    BLKCMD_LOGONS = 66
    BLKCMD_MAILHELP = 67
    BLKCMD_MAILMESS = 68
    BLKCMD_MAILMOVES = 69
    BLKCMD_MAILOLDMOVES = 70
    BLKCMD_MAILSOURCE = 71
    BLKCMD_MAILSTORED = 72
    BLKCMD_MATCH = 73
    BLKCMD_MESSAGES = 74
    BLKCMD_MEXAMINE = 75
    BLKCMD_MORETIME = 76
    BLKCMD_MOVES = 77
    BLKCMD_NEWS = 78
    BLKCMD_NEXT = 79
    BLKCMD_OBSERVE = 80
    BLKCMD_OLDMOVES = 81
    BLKCMD_OLDSTORED = 82
    BLKCMD_OPEN = 83
    BLKCMD_PARTNER = 84
    BLKCMD_PASSWORD = 85
    BLKCMD_PAUSE = 86
    BLKCMD_PENDING = 87
    BLKCMD_PFOLLOW = 88
    BLKCMD_POBSERVE = 89
    BLKCMD_PREFRESH = 90
    BLKCMD_PRIMARY = 91
    BLKCMD_PROMOTE = 92
    BLKCMD_PSTAT = 93
    BLKCMD_PTELL = 94
    BLKCMD_PTIME = 95
    BLKCMD_QTELL = 96
    BLKCMD_QUIT = 97
    BLKCMD_RANK = 98
    BLKCMD_RCOPYGAME = 99
    BLKCMD_RFOLLOW = 100
    BLKCMD_REFRESH = 101
    BLKCMD_REMATCH = 102
    BLKCMD_RESIGN = 103
    BLKCMD_RESUME = 104
    BLKCMD_REVERT = 105
    BLKCMD_ROBSERVE = 106
    BLKCMD_SAY = 107
    BLKCMD_SERVERS = 108
    BLKCMD_SET = 109
    BLKCMD_SHOUT = 110
    BLKCMD_SHOWLIST = 111
    BLKCMD_SIMABORT = 112
    BLKCMD_SIMALLABORT = 113
    BLKCMD_SIMADJOURN = 114
    BLKCMD_SIMALLADJOURN = 115
    BLKCMD_SIMGAMES = 116
    BLKCMD_SIMMATCH = 117
    BLKCMD_SIMNEXT = 118
    BLKCMD_SIMOBSERVE = 119
    BLKCMD_SIMOPEN = 120
    BLKCMD_SIMPASS = 121
    BLKCMD_SIMPREV = 122
    BLKCMD_SMOVES = 123
    BLKCMD_SMPOSITION = 124
    BLKCMD_SPOSITION = 125
    BLKCMD_STATISTICS = 126
    BLKCMD_STORED = 127
    BLKCMD_STYLE = 128
    BLKCMD_SUBLIST = 129
    BLKCMD_SWITCH = 130
    BLKCMD_TAKEBACK = 131
    BLKCMD_TELL = 132
    BLKCMD_TIME = 133
    BLKCMD_TOMOVE = 134
    BLKCMD_TOURNSET = 135
    BLKCMD_UNALIAS = 136
    BLKCMD_UNEXAMINE = 137
    BLKCMD_UNOBSERVE = 138
    BLKCMD_UNPAUSE = 139
    BLKCMD_UPTIME = 140
    BLKCMD_USCF = 141
    BLKCMD_USTAT = 142
    BLKCMD_VARIABLES = 143
    BLKCMD_WHENSHUT = 144
    BLKCMD_WHISPER = 145
    BLKCMD_WHO = 146
    BLKCMD_WITHDRAW = 147
    BLKCMD_WNAME = 148
    BLKCMD_XKIBITZ = 149
    BLKCMD_XTELL = 150
    BLKCMD_XWHISPER = 151
    BLKCMD_ZNOTIFY = 152
    BLKCMD_REPLY = 153  # not on FICS
    BLKCMD_SUMMON = 154
    BLKCMD_SEEK = 155
    BLKCMD_UNSEEK = 156
    BLKCMD_SOUGHT = 157
    BLKCMD_PLAY = 158
    BLKCMD_ALIAS = 159
    BLKCMD_NEWBIES = 160
    BLKCMD_SR = 161
    BLKCMD_CA = 162
    BLKCMD_TM = 163
    BLKCMD_GETGAME = 164
    BLKCMD_CCNEWSE = 165
    BLKCMD_CCNEWSF = 166
    BLKCMD_CCNEWSI = 167
    BLKCMD_CCNEWSP = 168
    BLKCMD_CCNEWST = 169
    BLKCMD_CSNEWSE = 170
    BLKCMD_CSNEWSF = 171
    BLKCMD_CSNEWSI = 172
    BLKCMD_CSNEWSP = 173
    BLKCMD_CSNEWST = 174
    BLKCMD_CTNEWSE = 175
    BLKCMD_CTNEWSF = 176
    BLKCMD_CTNEWSI = 177
    BLKCMD_CTNEWSP = 178
    BLKCMD_CTNEWST = 179
    BLKCMD_CNEWS = 180
    BLKCMD_SNEWS = 181
    BLKCMD_TNEWS = 182
    BLKCMD_RMATCH = 183
    BLKCMD_RSTAT = 184
    BLKCMD_CRSTAT = 185
    BLKCMD_HRSTAT = 186
    BLKCMD_GSTAT = 187
    BLKCMD_OLDPSTAT = 188
    BLKCMD_HSTAT = 189
    BLKCMD_PING = 190
    BLKCMD_EVENT = 191
    BLKCMD_ENDEVENT = 192
    BLKCMD_BOARDINFO = 193
    BLKCMD_AUDIOCHAT = 194
    BLKCMD_SHOWADMINS = 195
    BLKCMD_COMMIT = 196
    BLKCMD_TRUNCATE = 197
    BLKCMD_SHOWSRS = 198

    # Admin commands.
    BLKCMD_ADDCOMMENT = 300
    BLKCMD_ADDPLAYER = 301
    BLKCMD_ADJUDICATE = 302
    BLKCMD_AHELP = 303
    BLKCMD_ADMIN = 304
    BLKCMD_ANEWS = 305
    BLKCMD_ANNOUNCE = 306
    BLKCMD_ANNUNREG = 307
    BLKCMD_ASETCLOCK = 308
    BLKCMD_ASETV = 309
    BLKCMD_ASETADMIN = 310
    BLKCMD_ASETBLITZ = 311
    BLKCMD_ASETBUGHOUSE = 312
    BLKCMD_ASETEMAIL = 313
    BLKCMD_ASETHANDLE = 314
    BLKCMD_ASETLIGHT = 315
    BLKCMD_ASETPASSWD = 316
    BLKCMD_ASETREALNAME = 317
    BLKCMD_ASETSTD = 318
    BLKCMD_ASETSUICIDE = 319
    BLKCMD_ASETWILD = 320
    BLKCMD_CHKFOPEN = 321
    BLKCMD_CHKIP = 322
    BLKCMD_CHKGAME = 323
    BLKCMD_CHKMALLOC = 324
    BLKCMD_CHKMALLOC_OLD = 325
    BLKCMD_CHKPL = 326
    BLKCMD_CHKSC = 327
    BLKCMD_CHKTS = 328
    BLKCMD_CMUZZLE = 329
    BLKCMD_CNEWSI = 330
    BLKCMD_CNEWSF = 331
    BLKCMD_CANEWSI = 332
    BLKCMD_CANEWSF = 333
    BLKCMD_FTELL = 334
    BLKCMD_HIDEINFO = 335
    BLKCMD_LCHANLIST = 336
    BLKCMD_LISTEXPUNGE = 337
    BLKCMD_MUZZLE = 338
    BLKCMD_NUKE = 339
    BLKCMD_POSE = 340
    BLKCMD_ASETMAXPLAYER = 341
    BLKCMD_QUOTA = 342
    BLKCMD_RAISEDEAD = 343
    BLKCMD_RATING_RECALC = 344
    BLKCMD_REMPLAYER = 345
    BLKCMD_RERANK = 346
    BLKCMD_SHOWCOMMENT = 347
    BLKCMD_SHUTDOWN = 348
    BLKCMD_STOPML = 349
    BLKCMD_CHKDOMAIN = 350
    BLKCMD_CHKEMAIL = 351
    BLKCMD_CHKUSERNAME = 352
    BLKCMD_DUMPUSAGE = 353
    BLKCMD_FIXDB = 354
    BLKCMD_PATHLEN = 355
    BLKCMD_ASETCRAZYHOUSE = 356
    BLKCMD_CNEWSE = 357
    BLKCMD_CNEWSP = 358
    BLKCMD_CNEWST = 359
    BLKCMD_CANEWSE = 360
    BLKCMD_CANEWSP = 361
    BLKCMD_CANEWST = 362
    BLKCMD_LNEWS = 363
    BLKCMD_LTOLERANCE = 364
    BLKCMD_CHECKPASSWORD = 365
    BLKCMD_DISCONNECT = 366
    BLKCMD_INTERFACE = 367
    BLKCMD_FIXADJOURNED = 368
    BLKCMD_RESETBLITZ = 369
    BLKCMD_RESETSTD = 370
    BLKCMD_RESETLIGHT = 371
    BLKCMD_RESETWILD = 372
    BLKCMD_RESETBUGHOUSE = 373
    BLKCMD_RESETCRAZYHOUSE = 374
    BLKCMD_RESETSUICIDE = 375
    BLKCMD_BESTRESETBLITZ = 376
    BLKCMD_BESTRESETSTD = 377
    BLKCMD_BESTRESETLIGHT = 378
    BLKCMD_BESTRESETWILD = 379
    BLKCMD_BESTRESETBUGHOUSE = 380
    BLKCMD_BESTRESETCRAZYHOUSE = 381
    BLKCMD_BESTRESETSUICIDE = 382
    BLKCMD_CHKID = 383

    # Why no command ran (help iv_block); like BLKCMD_NULL, a NOSEQUENCE block is empty.
    BLKCMD_ERROR_BADCOMMAND = 512  # the command was not recognized
    BLKCMD_ERROR_BADPARAMS = 513  # bad parameters were given
    BLKCMD_ERROR_AMBIGUOUS = 514  # the command was ambiguous
    BLKCMD_ERROR_RIGHTS = 515  # insufficient rights
    BLKCMD_ERROR_OBSOLETE = 516  # obsolete command
    BLKCMD_ERROR_REMOVED = 517  # removed or temporarily disabled
    BLKCMD_ERROR_NOTPLAYING = 518  # a move and no game in progress
    BLKCMD_ERROR_NOSEQUENCE = 519  # no command identifier was found (client error)
    BLKCMD_ERROR_LENGTH = 520  # the command was too long


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
    assert partial is not None  # BLOCK_START alone is a partial header
    if partial.end() == len(data):
        return None
    raise HeaderError(partial.end() - start)


def format_header(block_id: int, code: int) -> bytes:
    """``BLOCK_START id BLOCK_SEPARATOR code BLOCK_SEPARATOR``; inverse of :func:`read_header`."""
    if not (0 <= block_id < 10**9 and 0 <= code < 10**9):
        raise ValueError(f"block id and code must be 0..999999999, got {block_id}, {code}")
    return b"\x15%d\x16%d\x16" % (block_id, code)
