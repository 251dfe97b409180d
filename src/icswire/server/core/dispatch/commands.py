"""Commands: how a line names one, and what its handler works with.

A line is read as FICS and ICC read it: an optional backquote tag (```tag`cmd``, echoed in
the level 1 header for level1 & 4), leading ``$`` stripped (XBoard's ``$`` form), the
user's aliases expanded (``@`` stands for the rest of the line), then the command word
matched exactly or as the unique prefix of one command. Each command runs to completion
before the next (icc-formats.txt section 1), inside one :class:`Batch`: its output to the
issuer and to everybody else is one unit each, labelled with Appendix 1's number.

Numbers in a command's arguments are read with
:func:`~icswire.server.core.dispatch.numbers.parse_number` only.

The core knows no command: each feature declares its own in a
:class:`~icswire.server.core.dispatch.hub.CommandSet`, and the app installs them in the registry.
"""

from __future__ import annotations

import re
import string

from icswire.protocol.block import BlockCode
from icswire.protocol.level1 import CommandNumber as CN
from icswire.server.core.render.batch import Batch, Lines, lines

#: What a line must look like to be taken as a move (coordinates, castling, SAN, drops).
MOVE_LIKE = re.compile(
    r"[a-h][1-8][a-h][1-8](=?[nbrqkNBRQK])?|[oO0]-[oO0](-[oO0])?|[PNBRQK]?@[a-h][1-8][+#]?"
    r"|[wb]?[pnbrqkPNBRQKxX][@*][a-h][1-8]"  # bsetup's pieces put on and taken off
    r"|[NBRQK]?[a-h]?[1-8]?x?[a-h][1-8](=?[NBRQK])?[+#]?|[NBRQK][a-h1-8]?x?[a-h][1-8][+#]?"
    r"|[nrqk][a-h1-8]?x?[a-h][1-8][+#]?"  # a piece in lower case (``iset movecase 0``)
)


def looks_like_move(text: str) -> bool:
    return MOVE_LIKE.fullmatch(text) is not None


#: Block codes of commands whose FICS name differs from ours (FICS has no ``circle``:
#: its nearest command is ``boardinfo``).
_BLOCK_CODE_OF = {
    "vars": BlockCode.BLKCMD_VARIABLES,
    "ivars": BlockCode.BLKCMD_IVARIABLES,
    "set-2": BlockCode.BLKCMD_SET,
    "i": BlockCode.BLKCMD_IT,
    "sshout": BlockCode.BLKCMD_SHOUT,
    "circle": BlockCode.BLKCMD_BOARDINFO,
    "uncircle": BlockCode.BLKCMD_BOARDINFO,
    "arrow": BlockCode.BLKCMD_BOARDINFO,
    "unarrow": BlockCode.BLKCMD_BOARDINFO,
    "unfollow": BlockCode.BLKCMD_FOLLOW,
    "register": BlockCode.BLKCMD_ADDPLAYER,  # FICS registers nobody in the server
    "liblist": BlockCode.BLKCMD_JOURNAL,  # ICC's name for the journal listing
    "libannotate": BlockCode.BLKCMD_JSAVE,  # ICC's: a note on a journal entry
    "ratings": BlockCode.BLKCMD_FINGER,  # FICS's "finger NAME r"
    "rated": BlockCode.BLKCMD_SET,  # ICC's toggle of FICS's "set rated"
    "lasttells": BlockCode.BLKCMD_TELL,  # ICC's list of the last tells
    "ltell": BlockCode.BLKCMD_TELL,  # FICS has ltell, but no block code of its own
    "away": BlockCode.BLKCMD_SET,  # ICC's away line, FICS's "set busy" nearest
    "isregname": BlockCode.BLKCMD_FINGER,  # ICC's robots' question of an account
    "getpx": BlockCode.BLKCMD_GETPI,  # ICC's getpi extended
    "gameid": BlockCode.BLKCMD_GINFO,  # ICC's: a game's stored id
    "lhistory": BlockCode.BLKCMD_HISTORY,  # ICC's: the server's last games
    "search": BlockCode.BLKCMD_HISTORY,  # ICC's search of the stored games
    "fen": BlockCode.BLKCMD_REFRESH,  # ICC's: a game's position, as FEN
    "sfen": BlockCode.BLKCMD_SPOSITION,  # ICC's: a stored game's position, as FEN
    "loadfen": BlockCode.BLKCMD_BSETUP,  # ICC's "bsetup fen" outside setup mode
    "pgn": BlockCode.BLKCMD_MOVES,  # ICC's: a game's moves, as PGN
    "spgn": BlockCode.BLKCMD_SMOVES,  # ICC's: a stored game's moves, as PGN
    "wildrank": BlockCode.BLKCMD_RANK,  # ICC's rank of the Wild rating
    "yfinger": BlockCode.BLKCMD_FINGER,  # ICC's finger for programs
    "showadmins": BlockCode.BLKCMD_WHO,  # freechess.org's list of the admins online
    "toggle": BlockCode.BLKCMD_ADDLIST,  # lasker's addlist or sublist, as the name is
    "close": BlockCode.BLKCMD_SET,  # "set open 0"
    "loadgame": BlockCode.BLKCMD_EXAMINE,  # ICC's: a stored game into examine
    "logpgn": BlockCode.BLKCMD_MOVES,  # ICC's: a game's moves, as PGN for a log
    "goto": BlockCode.BLKCMD_GOBOARD,  # FICS's alias of goboard; ICC's jump in examine
    "clearboard": BlockCode.BLKCMD_BSETUP,  # ICC's "bsetup clear"
    "annotate": BlockCode.BLKCMD_KIBITZ,  # ICC's: a note on an examined game's move
    "tag": BlockCode.BLKCMD_BSETUP,  # ICC's: an examined game's PGN tag
    "result": BlockCode.BLKCMD_BSETUP,  # ICC's: an examined game's result
    "setclock": BlockCode.BLKCMD_BSETUP,  # ICC's: an examined game's clocks
    "setwhiteclock": BlockCode.BLKCMD_BSETUP,
    "setblackclock": BlockCode.BLKCMD_BSETUP,
    "qmatch": BlockCode.BLKCMD_RMATCH,  # ICC's TD match
    "qset": BlockCode.BLKCMD_SET,  # ICC's TD set of another's variable
    "xobserve": BlockCode.BLKCMD_ROBSERVE,  # ICC's: observe made for another
    "qfollow": BlockCode.BLKCMD_RFOLLOW,  # ICC's: follow made for another
    "qunfollow": BlockCode.BLKCMD_RFOLLOW,
    "qpartner": BlockCode.BLKCMD_PARTNER,  # ICC's: a partnership a TD makes
    "qimpart": BlockCode.BLKCMD_PARTNER,  # ... and ends
    "adjrequests": BlockCode.BLKCMD_ADJUDICATE,  # the players' requests for it
    "request-win": BlockCode.BLKCMD_ADJUDICATE,  # ICC's: asking for an adjudication
    "request-draw": BlockCode.BLKCMD_ADJUDICATE,
    "request-abort": BlockCode.BLKCMD_ADJUDICATE,
    "resignadj": BlockCode.BLKCMD_RESIGN,  # ICC's: an adjourned game resigned
    "drawadj": BlockCode.BLKCMD_DRAW,  # ... drawn or aborted by agreement
    "abortadj": BlockCode.BLKCMD_ABORT,
    "events": BlockCode.BLKCMD_EVENT,  # ICC's list of events (FICS's event block code)
    "qaddevent": BlockCode.BLKCMD_EVENT,  # ICC's: an event posted by a TD
    "qremoveevent": BlockCode.BLKCMD_ENDEVENT,  # ... and removed
    "simwho": BlockCode.BLKCMD_SIMGAMES,  # the simuls being given: FICS has no code
    "startsimul": BlockCode.BLKCMD_SIMMATCH,  # ICC's: the giver takes every request
}


def block_code(command: str) -> int:
    """FICS's block code of ``command`` (help ``block_codes``): ``BLKCMD_<NAME>``."""
    found = _BLOCK_CODE_OF.get(command)
    if found is not None:
        return found
    return BlockCode[f"BLKCMD_{command.upper()}"]


def split_block_id(line: str) -> tuple[int | None, str]:
    """``ID COMMAND`` -> (ID, COMMAND), as a client in block mode sends every command
    (help ``iv_block``); (None, line) when the line has no identifier."""
    head, _, rest = line.partition(" ")
    if head.isascii() and head.isdigit() and len(head) <= 9:
        return int(head), rest
    return None, line


def split_tag(line: str) -> tuple[str | None, str]:
    """```word`rest`` -> (word, rest): the tag of icc-formats.txt section 3 (at most 99
    characters, no blanks)."""
    if line.startswith("`"):
        end = line.find("`", 1)
        tag = line[1:end]
        if end > 1 and len(tag) <= 99 and not any(c.isspace() for c in tag):
            return tag, line[end + 1 :]
    return None, line


def expand_alias(aliases: dict[str, str], line: str) -> str:
    word, _, rest = line.partition(" ")
    expansion = aliases.get(word.lower())
    if expansion is None:
        return line
    return expansion.replace("@", rest) if "@" in expansion else f"{expansion} {rest}".strip()


#: FICS's punctuation commands (its global aliases in command_list.h): the run of
#: punctuation a line begins with is the command word, so ``.hi`` is ``tell . hi`` and
#: ``+censor Bob`` is ``addlist censor Bob``.
PUNCTUATION = {
    ".": "tell .",
    ",": "tell ,",
    "!": "shout",
    ":": "i",
    "*": "kibitz",
    "#": "whisper",
    "+": "addlist",
    "-": "sublist",
    "=": "showlist",
    "`": "tell .",
    "?": "help",  # FICS's help on alias lists it among the system aliases
}
_PUNCTUATION_RUN = re.compile(f"[{re.escape(string.punctuation)}]+")


def expand_punctuation(line: str) -> str:
    """``line`` with a leading punctuation command spelled out (FICS's
    ``alias_substitute``); a run of punctuation that is no command is left alone."""
    found = _PUNCTUATION_RUN.match(line)
    if found is None or found.group() not in PUNCTUATION:
        return line
    return f"{PUNCTUATION[found.group()]} {line[found.end() :].strip()}".strip()


def first_word(args: str) -> tuple[str, str]:
    """``word rest`` -> (word, rest), both stripped."""
    word, _, rest = args.strip().partition(" ")
    return word, rest.strip()


def unknown(batch: Batch, word: str, matches: list[str]) -> Lines:
    if matches:
        batch.command_cn(CN.SCN_BAD, BlockCode.BLKCMD_ERROR_AMBIGUOUS)
    else:
        batch.command_cn(CN.SCN_BAD, BlockCode.BLKCMD_ERROR_BADCOMMAND)
    if matches:
        issuer = batch.issuer
        if issuer is not None and not issuer.talks_icc:  # lasker's COM_AMBIGUOUS
            return lines(f"Ambiguous command. Matches: {' '.join(matches)}")
        return lines(f'Ambiguous command "{word}". Matches: {" ".join(matches)}')
    return lines(f"{word}: Command not found.")
