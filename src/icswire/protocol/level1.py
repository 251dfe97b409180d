"""Command numbers of level 1 units (icc-formats.txt section 3 and Appendix 1).

With ``level1`` on, the server brackets all output to a client in units whose header line is
``^Y[<command-number> <player-name>`` and whose end is ``^Y]``. The command number says which
command produced the output; the numbers below are Appendix 1, "taken verbatim from config.h".

The spec on the two prefixes: "The distinction between SCN and CN commands is only meaningful
if you look at the server code. Don't worry about it." ``SCN_*`` codes label moves and other
special output (login, logout, ping responses, "No such command", ...); ``CN_*`` codes label the
commands in the server's command list. Some numbers may fall into disuse, "but we don't intend
to change any of the bindings outright". There is no code 203.

>>> CommandNumber(101)
<CommandNumber.CN_TELL: 101>
"""

from enum import IntEnum, IntFlag

__all__ = ["CommandNumber", "Level1"]


class Level1(IntFlag):
    """The bits of the ``level1`` variable, 0-15 (icc-formats.txt section 2, "Turning it
    on"; section 3 for the tags). It prints as its number (``level1=5``).

    ``&`` is int's: a bit test gives a plain int, as fast as an int's (the server tests
    bits per receiver of every message; IntFlag's own ``&`` makes a flag, some 40 times
    slower). ``|`` and ``~`` give flags.
    """

    #: Level 1 off: output as a person reads it, with prompts.
    OFF = 0
    #: Output bracketed in units ``^Y[<command-number> <player> ...^Y]``, no prompts.
    UNITS = 1
    #: ``^Y<`` when the server starts on the user's command, ``^Y>`` when it is done.
    COMMAND_MARKS = 2
    #: With UNITS: a command sent as ```word`command`` has ``word`` in its unit's header.
    TAGS = 4
    #: A unit's header names the issuer ``*`` (the user) or ``%`` (somebody else).
    ISSUER_MARKS = 8

    __and__ = int.__and__  # type: ignore[assignment]  # a bit test: see above
    __rand__ = int.__rand__  # type: ignore[assignment]


class CommandNumber(IntEnum):
    """A level 1 command number, named as in the server's ``config.h``."""

    # Moves and other special commands.
    SCN_UNKNOWN = 0
    SCN_ILLEGAL_MOVE = 1
    SCN_MOVE = 2
    SCN_EDIT_EXAMINED = 3
    SCN_PING_RESPONSE = 10
    SCN_WEIRD = 11
    SCN_REALLY_LOG_IN = 12
    SCN_MOED = 13
    SCN_EVENTS = 14
    SCN_NEWS = 15
    SCN_LOGOUT = 16
    SCN_TIMEOUT = 17
    SCN_CONNECT = 18
    SCN_REALLY_QUIT = 19
    SCN_LOGIN = 20
    SCN_PASSWORD = 21
    SCN_REGISTRATION = 22
    SCN_EXTENSION = 23
    SCN_AUTHENTICATION = 24
    SCN_BAD = 25
    SCN_AUTOMATIC = 26
    SCN_CONFIRM = 27
    SCN_MULTI_DISCARD = 28
    SCN_IDLE = 29
    SCN_ACK_PING = 30
    SCN_MISCELLANEOUS = 31

    # Commands in the server's command list.
    CN_TELL = 101
    CN_I = 102
    CN_SHOUT = 103
    CN_SHOUT0 = 104
    CN_SLASH = 105
    CN_WHO = 106
    CN_SET = 107
    CN_FLAG = 108
    CN_SAY = 109
    CN_CHANNELTELL = 110
    CN_SSHOUT = 111
    CN_BAD = 112
    CN_KIBITZ = 113
    CN_WHISPER = 114
    CN_EXAMINE = 115
    CN_MEXAMINE = 116
    CN_COPYGAME0 = 117
    CN_COPYGAME = 118
    CN_FORWARD = 119
    CN_BACK = 120
    CN_MATCH = 121
    CN_MATCH0 = 122
    CN_ACCEPT = 123
    CN_HELP0 = 124
    CN_HELP = 125
    CN_MORE = 126
    CN_NEWS = 127
    CN_NEWS0 = 128
    CN_HISTORY = 129
    CN_FINGER = 130
    CN_VARS = 131
    CN_UPSTATISTICS = 132
    CN_UNEXAMINE = 133
    CN_ADJOURN = 134
    CN_ASSESS = 135
    CN_OBSERVE0 = 136
    CN_OBSERVE = 137
    CN_FOLLOW0 = 138
    CN_FOLLOW = 139
    CN_ECO = 140
    CN_STYLE = 141
    CN_BELL = 142
    CN_OPEN = 143
    CN_DECLINE = 144
    CN_REFRESH = 145
    CN_RESIGNADJ = 146
    CN_REVERT = 147
    CN_RATED = 148
    CN_RANK = 149
    CN_MOVES = 150
    CN_MAILOLDMOVES = 151
    CN_MAILSTORED = 152
    CN_MAILHELP = 153
    CN_PENDING = 154
    CN_GAMES = 155
    CN_ABORT = 156
    CN_ALLOBSERVERS = 157
    CN_INCHANNEL = 158
    CN_INFO = 159
    CN_MORETIME = 160
    CN_BEST = 161
    CN_QUIT = 162
    CN_QUOTA = 163
    CN_LLOGONS = 164
    CN_LHISTORY = 165
    CN_LOGONS = 166
    CN_TIME = 167
    CN_TAKEBACK = 168
    CN_SEARCH = 169
    CN_SEARCH0 = 170
    CN_SMOVES = 171
    CN_SPOSITION = 172
    CN_PASSWORD = 173
    CN_MESSAGE = 174
    CN_MESSAGE0 = 175
    CN_CLEARMESSAGES = 176
    CN_DATE = 177
    CN_LIST = 178
    CN_PLUS = 179
    CN_MINUS = 180
    CN_ZNOTL = 181
    CN_FLIP = 182
    CN_PROMOTE = 183
    CN_EXPUNGE = 184
    CN_IWCMATCH = 185
    CN_LIMITS = 186
    CN_PING = 187
    CN_EXTEND = 188
    CN_QTELL = 189
    CN_GETPI = 190
    CN_STARTSIMUL = 191
    CN_GOTO = 192
    CN_SETCLOCK = 193
    CN_LIBLIST = 194
    CN_LIBSAVE = 195
    CN_LIBDELETE = 196
    CN_LIBANNOTATE = 197
    CN_LIBKEEPEXAM = 198
    CN_PARTNER = 199
    CN_PARTNER0 = 200
    CN_PTELL = 201
    CN_BUGWHO = 202
    CN_WILDRANK = 204
    CN_XOBSERVE = 205
    CN_PRIMARY = 206
    CN_DRAW = 207
    CN_RESIGN = 208
    CN_STATISTICS = 209
    CN_STORED = 210
    CN_CHANNELQTELL = 211
    CN_XPARTNER = 212
    CN_YFINGER = 213
    CN_SEEKING = 214
    CN_SOUGHT = 215
    CN_SET2 = 216
    CN_PLAY = 217
    CN_UNSEEKING = 218
    CN_AWAY = 219
    CN_LAGSTATS = 220
    CN_COMMANDS = 221
    CN_REMATCH = 222
    CN_REGISTER = 223
    CN_RESUME = 224
    CN_CIRCLE = 225
    CN_ARROW = 226
    CN_BLANKING = 227
    CN_RELAY = 228
    CN_LOADGAME = 229
    CN_DRAWADJ = 230
    CN_ABORTADJ = 231
    CN_MAILNEWS = 232
    CN_QSET = 233
    CN_CC_START = 234
    CN_CC_LIST = 235
    CN_CC_MOVE = 236
    CN_CC_DELETE = 237
    CN_CC_QSTART = 238
    CN_CC_QLIST = 239
    CN_CC_QLABEL = 240
    CN_CC_QDELETE = 241
    CN_CC_QADJUDICATE = 242
    CN_CC_ASK_DIRECTOR = 243
    CN_LOADFEN = 244
    CN_GETPX = 245
    CN_UNRELAYED = 246
    CN_NORELAY = 247
    CN_REFER = 248
    CN_PGN = 249
    CN_SPGN = 250
    CN_QFOLLOW = 251
    CN_QUNFOLLOW = 252
    CN_QMATCH = 253
    CN_QPARTNER = 254
    CN_ISREGNAME = 255
    CN_REQUIRETICKET = 256
    CN_ANNOTATE = 257
    CN_CLEARBOARD = 258
    CN_REQUEST_WIN = 259
    CN_REQUEST_DRAW = 260
    CN_REQUEST_ABORT = 261
    CN_LOGPGN = 262
    CN_RESULT = 263
    CN_FEN = 264
    CN_SFEN = 265
    CN_SETGAMEPARAM = 266
    CN_TAG = 267
    CN_TOMOVE = 268
    CN_REGENTRY = 269
    CN_PERSONALINFO = 270
    CN_EVENTS = 271
    CN_QADDEVENT = 272
    CN_GLISTGROUPS = 273
    CN_GLISTMEMBERS = 274
    CN_GINVITE = 275
    CN_GJOIN = 276
    CN_GLISTINVITED = 277
    CN_GLISTJOINING = 278
    CN_GDESCRIBE = 279
    CN_GKICK = 280
    CN_GBEST = 281
    CN_SIMULIZE = 282
    CN_GAMEID = 283
    CN_FIVEMINUTE = 284
    CN_QIMPART = 285
    CN_GMESSAGE = 286
    CN_COMPLAIN = 287
    CN_LASTTELLS = 288
    CN_VIEW = 289
    CN_SHOWADMIN = 290
    CN_PSTAT = 291
    CN_BOARDINFO = 292
