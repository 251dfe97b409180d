"""The user variables of ``set`` and ``iset``: names, kinds, defaults, and checking.

``set`` variables of registered users are saved; ``iset`` variables (FICS "interface
variables", e.g. ``iset ms 1`` that XBoard sends) last for the session. Numeric variables
are what DG_MY_VARIABLE (47) shows, the others DG_MY_STRING_VARIABLE (48).

A user's values are a :class:`SetVariables` and an :class:`InterfaceVariables`, typed
dicts that mirror the tables (``tests/server/test_variable_types.py`` keeps them in step),
so that ``user.variables["kibitz"]`` is an ``int`` to mypy and a misspelt name an error.
A name known only at run time (``set NAME``) reads with :func:`value_of`.
"""

from __future__ import annotations

import weakref
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Generic, Literal, TypedDict, TypeVar, cast, get_args, overload

from icswire.server.core.dispatch.numbers import parse_number


class BadValue(ValueError):
    """A value a variable does not take; the command says so in its own words."""


class NoSuchVariable(ValueError):
    """A name that is no variable (``matches`` empty) or abbreviates several."""

    def __init__(self, word: str, matches: tuple[str, ...] = ()) -> None:
        super().__init__(word)
        self.word = word
        self.matches = matches


#: A variable's value: a text for a "str" variable, else an int (booleans are 0 and 1, which
#: ``vars`` shows and DG_MY_VARIABLE sends as they are).
Value = int | str


@dataclass(frozen=True)
class Variable:
    name: str
    kind: str  # "bool", "int" or "str"
    default: Value
    low: int = 0
    high: int = 1
    help: str = ""
    #: The values a text variable may take (any, when empty); matched without case.
    words: tuple[str, ...] = ()
    #: What ``set`` answers when a boolean is turned on and off, or a text set (``{value}``
    #: stands for it) and cleared (FICS's own words), else ``name set to value.``
    on_text: str = ""
    off_text: str = ""

    def parse(self, text: str) -> Value:
        """The value of ``set NAME text``; :class:`BadValue` if it takes no such value."""
        if self.kind == "str":
            if not self.words:
                return text
            for word in self.words:
                if word.lower() == text.strip().lower():
                    return word
            raise BadValue(self.name)
        word = text.strip().lower()
        if self.kind == "bool":
            value = {"1": 1, "0": 0, "on": 1, "off": 0, "true": 1, "false": 0}.get(word)
            if value is None:
                raise BadValue(self.name)
            return value
        value = parse_number(word, signed=True)
        if value is None or not self.low <= value <= self.high:
            raise BadValue(self.name)
        return value

    def show(self, value: Value) -> str:
        return str(value)

    @property
    def numeric(self) -> bool:
        return self.kind != "str"


class _Shared(dict[str, object]):
    """One set of values, shared by the sessions that have it (never changed)."""

    __slots__ = ("__weakref__",)


#: The typed dict of a table's values: :class:`SetVariables` or :class:`InterfaceVariables`.
Typed = TypeVar("Typed", bound=Mapping[str, object])


class VariableTable(Generic[Typed]):
    def __init__(self, variables: list[Variable]) -> None:
        self.by_name = {v.name: v for v in variables}
        self.defaults = {v.name: v.default for v in variables}
        self._shared: weakref.WeakValueDictionary[tuple[object, ...], _Shared] = (
            weakref.WeakValueDictionary()
        )
        #: The defaults, as every new session has them.
        self.initial = self.shared(self.defaults)

    def shared(self, values: Mapping[str, object]) -> Typed:
        """``values`` (every variable's) as the one read-only mapping of them that every
        session with the same values shares: most keep the defaults or set what their
        interface sets, and a copy each is a kilobyte and more per user. Held weakly: a
        set of values nobody has any more goes. Where a dict becomes the typed dict (a
        cast: its names and kinds must be the table's, as :meth:`Variable.parse` and
        another node's facts give them)."""
        key = tuple((name, type(value), value) for name, value in values.items())
        found = self._shared.get(key)
        if found is None:
            found = self._shared[key] = _Shared(values)
        return cast(Typed, found)

    def with_value(self, values: Typed, name: str, value: Value) -> Typed:
        """The shared mapping of ``values`` with ``name`` set to ``value``."""
        return self.shared({**values, name: value})

    def values_of(self, saved: dict[str, str]) -> Typed:
        """Every variable's value for a user who saved ``saved`` (the defaults for the
        rest, and for what no longer reads), shared like a session's."""
        values = dict(self.defaults)
        for key, text in saved.items():
            variable = self.by_name.get(key)
            if variable is not None:
                try:
                    values[key] = variable.parse(text)
                except BadValue:
                    continue
        return self.shared(values)

    def find(self, word: str) -> Variable:
        """The variable named ``word``, else the only one it abbreviates (FICS's
        ``var_set``: an exact name first, then a unique prefix); :class:`NoSuchVariable`
        otherwise, with the names it could be."""
        prefix = word.lower()
        if prefix in self.by_name:
            return self.by_name[prefix]
        found = [v for name, v in self.by_name.items() if name.startswith(prefix)]
        if len(found) == 1:
            return found[0]
        raise NoSuchVariable(word, tuple(v.name for v in found))


#: The finger notes ``1``..``10`` (``set 1 text``): literal names, so that a loop over
#: them indexes a :class:`SetVariables` as mypy can check.
Note = Literal["1", "2", "3", "4", "5", "6", "7", "8", "9", "10"]
NOTES: tuple[Note, ...] = get_args(Note)
#: The sub-formulas ``f1``..``f9`` (help ``formula``).
Subformula = Literal["f1", "f2", "f3", "f4", "f5", "f6", "f7", "f8", "f9"]
SUBFORMULAS: tuple[Subformula, ...] = get_args(Subformula)
#: What ``set`` answers a guest for the variables only registered players have (FICS's
#: ``variable.c``).
REGISTERED_ONLY = {
    "rated": "You cannot change your rated status.",
    "jprivate": "Unregistered players may not keep a journal.",
    "mailmess": "Unregistered players may not receive messages.",
}


def _flag(name: str, default: int, meaning: str, on: str = "", off: str = "") -> Variable:
    return Variable(name, "bool", default, help=meaning, on_text=on, off_text=off)


VARIABLES: VariableTable[SetVariables] = VariableTable(
    [
        # FICS's styles 1-13 (help style); 1, the plain board, is FICS's default
        Variable("style", "int", 1, low=1, high=13, help="board style: 1-12, 13 none"),
        Variable("prompt", "str", "fics%"),
        _flag(
            "open",
            1,
            "open for matches",
            "You are now open to receive match requests.",
            "You are no longer receiving match requests.",
        ),
        _flag(
            "simopen",
            0,
            "open for simul requests",
            "You are now open to receive simul requests.",
            "You are no longer receiving simul requests.",
        ),
        # the talk variables (FICS's variable.c words)
        Variable(
            "shout",
            "bool",
            1,
            help="hear shouts",
            on_text="You will now hear shouts.",
            off_text="You will not hear shouts.",
        ),
        Variable("sshout", "bool", 1, help="hear sshouts"),
        Variable(
            "cshout",
            "bool",
            1,
            help="hear c-shouts",
            on_text="You will now hear cshouts.",
            off_text="You will not hear cshouts.",
        ),
        Variable(
            "tell",
            "bool",
            1,
            help="hear tells from unregistered players",
            on_text="You will now hear tells from unregistered users.",
            off_text="You will not hear tells from unregistered users.",
        ),
        Variable(
            "ctell",
            "bool",
            1,
            help="hear channel tells from unregistered players",
            on_text="You will now hear channel tells from unregistered users.",
            off_text="You will not hear channel tells from unregistered users.",
        ),
        Variable(
            "chanoff",
            "bool",
            0,
            help="hear no channel tells at all",
            on_text="You will not hear channel tells.",
            off_text="You will now hear channel tells.",
        ),
        Variable(
            "silence",
            "bool",
            0,
            help="no shouts and channel tells while playing",
            on_text="You will now play games in silence.",
            off_text="You will not play games in silence.",
        ),
        Variable(
            "busy",
            "str",
            "",
            help="what those who tell you are told you are doing",
            on_text='Your "busy" string was set to " {value}"',
            off_text='Your "busy" string was cleared.',
        ),
        Variable(
            "pin",
            "bool",
            0,
            help="hear arrivals and departures",
            on_text="You will now hear logins/logouts.",
            off_text="You will not hear logins/logouts.",
        ),
        Variable(
            "gin",
            "bool",
            0,
            help="hear games start and end",
            on_text="You will now hear game results.",
            off_text="You will not hear game results.",
        ),
        Variable("availinfo", "bool", 0, help="hear who is available for matches"),
        Variable("availmin", "int", 0, low=0, high=9999, help="availinfo: lowest rating"),
        Variable("availmax", "int", 0, low=0, high=9999, help="availinfo: highest (0 any)"),
        Variable(
            "seek",
            "bool",
            1,
            help="see seek ads",
            on_text="You will now see seek ads.",
            off_text="You will not see seek ads.",
        ),
        _flag("showownseek", 0, "see your own seeks in sought and <s> lines"),
        Variable(
            "kibitz",
            "bool",
            1,
            help="hear kibitzes and whispers",
            on_text="You will now hear kibitzes.",
            off_text="You will not hear kibitzes.",
        ),
        Variable("width", "int", 79, low=32, high=240, help="wrap text at this column"),
        Variable("height", "int", 24, low=5, high=240, help="lines per page"),
        Variable("level1", "int", 0, low=0, high=15, help="level 1 output (bits 1 2 4 8)"),
        Variable("interface", "str", ""),
        Variable(
            "unobserve", "int", 0, low=0, high=3, help="stop observing: 1 to play, 2 to examine"
        ),
        _flag(
            "autoflag",
            1,
            "flag the opponent when his time runs out",
            "Auto flag enabled.",
            "Auto flag disabled.",
        ),
        Variable("lang", "str", "English", words=("English",), help="the server's language"),
        Variable("time", "int", 2, low=0, high=240, help="match: default minutes"),
        Variable("inc", "int", 12, low=0, high=300, help="match: default increment"),
        _flag("rated", 0, "matches and seeks rated unless told"),
        _flag("ropen", 1, "open for matches rated otherwise than your rated"),
        _flag("bell", 0, "a bell before challenges and notifications", "Bell on.", "Bell off."),
        Variable("highlight", "int", 0, low=0, high=15, help="highlight names: ANSI bits"),
        Variable("tzone", "str", "SERVER", help="your time zone"),
        _flag(
            "notifiedby",
            0,
            "hear who notifies you",
            "You will now hear if people notify you, but you don't notify them.",
            "You will not hear if people notify you, but you don't notify them.",
        ),
        _flag(
            "mailmess",
            0,
            "copy messages by e-mail (with a mail relay and an address)",
            "Your messages will be mailed to you.",
            "Your messages will not be mailed to you.",
        ),
        _flag(
            "automail",
            0,
            "mail your finished games to you (with a mail relay and an address)",
            "Your games will be mailed to you.",
            "Your games will not be mailed to you.",
        ),
        _flag(
            "pgn",
            0,
            "mailed games in PGN, else as moves shows them",
            "Games will now be mailed to you in PGN.",
            "Games will now be mailed to you in FICS format.",
        ),
        Variable("kiblevel", "int", 0, low=0, high=9999, help="hear kibitzes from this rating"),
        Variable("promote", "str", "q", help="a pawn's promotion when a move names none: q r b n"),
        _flag(
            "private",
            0,
            "your games are private",
            "Your games will be private.",
            "Your games will not be private.",
        ),
        _flag(
            "jprivate",
            0,
            "your journal is private",
            "Your journal will be private.",
            "Your journal will not be private.",
        ),
        _flag("flip", 0, "boards from Black's side", "Flip on.", "Flip off."),
        _flag("provshow", 0, "show P after provisional ratings"),
        _flag(
            "bugopen",
            0,
            "open for bughouse: partnership offers, listed by bugwho",
            "You are now open for bughouse.",
            "You are not open for bughouse.",
        ),
        _flag(
            "tourney",
            0,
            "in a tournament: match only players who are too (tournset)",
            "Your tournament variable is now set.",
            "Your tournament variable is no longer set.",
        ),
        Variable("formula", "str", "", help="filter for match requests and seeks"),
        *(Variable(name, "str", "", help="sub-formula") for name in SUBFORMULAS),
        *(Variable(note, "str", "", help="finger note") for note in NOTES),
    ]
)

#: A user's ``set`` values, as :data:`VARIABLES` has them: its "bool" and "int" variables
#: are ints, its "str" ones texts (the notes ``1``..``10`` are why the functional syntax).
SetVariables = TypedDict(
    "SetVariables",
    {
        "style": int,
        "prompt": str,
        "open": int,
        "simopen": int,
        "shout": int,
        "sshout": int,
        "cshout": int,
        "tell": int,
        "ctell": int,
        "chanoff": int,
        "silence": int,
        "busy": str,
        "pin": int,
        "gin": int,
        "availinfo": int,
        "availmin": int,
        "availmax": int,
        "seek": int,
        "showownseek": int,
        "kibitz": int,
        "width": int,
        "height": int,
        "level1": int,
        "interface": str,
        "unobserve": int,
        "autoflag": int,
        "lang": str,
        "time": int,
        "inc": int,
        "rated": int,
        "ropen": int,
        "bell": int,
        "highlight": int,
        "tzone": str,
        "notifiedby": int,
        "mailmess": int,
        "automail": int,
        "pgn": int,
        "kiblevel": int,
        "promote": str,
        "private": int,
        "jprivate": int,
        "flip": int,
        "provshow": int,
        "bugopen": int,
        "tourney": int,
        "formula": str,
        "f1": str,
        "f2": str,
        "f3": str,
        "f4": str,
        "f5": str,
        "f6": str,
        "f7": str,
        "f8": str,
        "f9": str,
        "1": str,
        "2": str,
        "3": str,
        "4": str,
        "5": str,
        "6": str,
        "7": str,
        "8": str,
        "9": str,
        "10": str,
    },
)


class InterfaceVariables(TypedDict):
    """FICS's interface variables (``help iv_list``), in its order, each on (1) or off (0).
    The one list of their names: :data:`IVARIABLE_NAMES` and :data:`IVARIABLES` are made of
    it. ``block`` is block mode (``app.execute``, ``render.Batch``). Only those this server
    acts on are here: ``iset`` refuses the others as lasker-2.2.3's ``com_iset`` refuses
    every name it lacks ("No such ivariable"), rather than accept a setting that changes
    nothing (FICS's ``xml``, ``smartmove``, ``seekca``, ``pinginfo``, the variant switches
    ``atomic``, ``fr`` ... : see ``help iv_list``)."""

    compressmove: int
    seekremove: int
    defprompt: int
    lock: int
    startpos: int
    block: int
    gameinfo: int
    pendinfo: int
    seekinfo: int
    pin: int
    ms: int
    showownseek: int
    premove: int
    movecase: int
    nowrap: int
    allresults: int


IVARIABLE_NAMES = tuple(InterfaceVariables.__annotations__)

IVARIABLES: VariableTable[InterfaceVariables] = VariableTable(
    [Variable(name, "bool", 0) for name in IVARIABLE_NAMES]
)


@overload
def value_of(values: InterfaceVariables, name: str) -> int: ...
@overload
def value_of(values: SetVariables, name: str) -> Value: ...
def value_of(values: SetVariables | InterfaceVariables, name: str) -> Value:
    """The value of the variable ``name``, a name known only at run time (``set NAME``,
    a listing of the table): a typed dict takes only literal names, which it checks."""
    return cast(Mapping[str, Value], values)[name]
