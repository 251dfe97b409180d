"""Tab completion of the word before the cursor: a command word first on the line (or
after ``help``), else a player's name. The first Tab extends the word as far as all the
candidates agree and lists them; each further Tab puts the next candidate in its place."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

#: The commands a player types on ICC and FICS: every one icswire's server has but the
#: administrators' and the interface's ``i`` and ``set-2`` (a test holds the two lists
#: together), and a few more.
COMMANDS = (
    "abort", "abortadj", "accept", "addlist", "adjourn", "alias", "allobservers",
    "annotate", "arrow", "assess", "away", "backward", "bell", "best", "bname", "boardinfo",
    "boards", "bsetup", "bughouse", "bugwho", "channels", "circle", "clearboard",
    "clearmessages", "close", "clrsquare", "copygame", "cshout", "date", "decline", "draw",
    "drawadj", "eco", "events", "examine", "exit", "fen", "finger", "flag", "flip", "fmessage",
    "follow", "formula", "forward", "gameid", "games", "getgame", "getgi", "getpi", "getpx",
    "goboard", "goto", "handles", "hbest", "help", "history", "hrank", "inchannel", "index",
    "info", "iset", "isregname", "it", "ivars", "jkill", "journal", "jsave", "kibitz",
    "lasttells", "lhistory", "libannotate", "liblist", "limits", "lists", "llogons",
    "loadfen", "loadgame", "logons", "logpgn", "ltell", "mailmoves", "mailoldmoves",
    "mailstored", "match", "messages", "mexamine", "moretime", "moves", "news", "next",
    "observe", "oldmoves", "open", "partner", "password", "pause", "pending", "pfollow",
    "pgn", "ping", "play", "pobserve", "prefresh", "primary", "promote", "pstat", "ptell",
    "ptime", "qaddevent", "qfollow", "qimpart", "qmatch", "qpartner", "qremoveevent",
    "qset", "qtell", "quit",
    "qunfollow", "rank", "rated", "ratings", "refresh", "register", "rematch",
    "request-abort", "request-draw", "request-win", "resign", "resignadj", "result",
    "resume", "revert", "rmatch", "say", "search", "seek", "servers", "set",
    "setblackclock", "setclock", "setwhiteclock", "sfen", "shout", "showadmins", "showlist",
    "simabort", "simadjourn", "simallabort", "simalladjourn", "simgames", "simmatch",
    "simnext", "simopen", "simpass", "simprev", "simwho", "smoves", "sought", "spgn",
    "sposition", "sshout", "startsimul", "statistics", "stored", "style",
    "sublist", "switch", "tag", "takeback", "tell", "time", "timeseal", "toggle", "tomove",
    "tournset", "unalias", "unarrow", "uncircle", "unexamine", "unfollow", "unobserve",
    "unpause", "unseek", "uptime", "variables", "variants", "vars", "whenshut", "whisper",
    "who", "wildrank", "withdraw", "wname", "xobserve", "xtell", "yfinger", "znotify",
)  # fmt: skip
#: After these, the next word is a command word too.
COMMAND_ARGUMENT = frozenset({"help"})


def word_before(text: str, cursor: int) -> tuple[int, str]:
    """Where the word that ends at ``cursor`` begins, and the word."""
    start = cursor
    while start > 0 and not text[start - 1].isspace():
        start -= 1
    return start, text[start:cursor]


def candidates(text: str, cursor: int, names: Iterable[str]) -> list[str]:
    """What the word before the cursor may become, sorted, case not minded."""
    start, word = word_before(text, cursor)
    before = text[:start].split()
    if not before or (len(before) == 1 and before[0].lower() in COMMAND_ARGUMENT):
        pool: Iterable[str] = COMMANDS
    else:
        pool = names
    low = word.lower()
    return sorted({c for c in pool if c.lower().startswith(low)}, key=str.lower)


def common_prefix(words: list[str]) -> str:
    """The longest start all ``words`` share, case not minded (spelled as the first)."""
    if not words:
        return ""
    first, size = words[0], len(words[0])
    for word in words[1:]:
        size = min(size, len(word))
        while size and word[:size].lower() != first[:size].lower():
            size -= 1
    return first[:size]


@dataclass
class Completion:
    """One Tab press's outcome: the new text and cursor, and the candidates to list."""

    text: str
    cursor: int
    choices: list[str]


class Completer:
    """Remembers the last completion so that the next Tab cycles through its choices."""

    def __init__(self) -> None:
        self._cycle: tuple[str, int, int, list[str], int] | None = None  # text, cursor, start

    def complete(self, text: str, cursor: int, names: Iterable[str]) -> Completion | None:
        """Complete the word before the cursor; None when nothing matches."""
        if self._cycle is not None and self._cycle[:2] == (text, cursor):
            _, _, start, choices, index = self._cycle
            index = (index + 1) % len(choices)
            return self._put(text, cursor, start, choices, index)
        start, word = word_before(text, cursor)
        choices = candidates(text, cursor, names)
        self._cycle = None
        if not choices:
            return None
        if len(choices) == 1:
            return self._replace(text, cursor, start, choices[0] + " ", [])
        prefix = common_prefix(choices)
        if len(prefix) > len(word):
            done = self._replace(text, cursor, start, prefix, choices)
            self._cycle = (done.text, done.cursor, start, choices, -1)
            return done
        return self._put(text, cursor, start, choices, 0)

    def _put(
        self, text: str, cursor: int, start: int, choices: list[str], index: int
    ) -> Completion:
        done = self._replace(text, cursor, start, choices[index], choices)
        self._cycle = (done.text, done.cursor, start, choices, index)
        return done

    @staticmethod
    def _replace(text: str, cursor: int, start: int, word: str, choices: list[str]) -> Completion:
        new = text[:start] + word + text[cursor:]
        return Completion(new, start + len(word), choices)
