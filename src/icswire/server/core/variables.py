"""The user variables of ``set`` and ``iset``: names, kinds, defaults, and checking.

``set`` variables of registered users are saved; ``iset`` variables (FICS "interface
variables", e.g. ``iset ms 1`` that XBoard sends) last for the session. Numeric variables
are what DG_MY_VARIABLE (47) shows, the others DG_MY_STRING_VARIABLE (48).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from icswire.server.core.numbers import parse_number


@dataclass(frozen=True)
class Variable:
    name: str
    kind: str  # "bool", "int" or "str"
    default: Any
    low: int = 0
    high: int = 1
    choices: tuple[int, ...] = ()
    help: str = ""

    def parse(self, text: str) -> Any:
        """The value of ``set NAME text``; ValueError with the usual message if bad."""
        if self.kind == "str":
            return text
        word = text.strip().lower()
        if self.kind == "bool":
            value = {"1": 1, "0": 0, "on": 1, "off": 0, "true": 1, "false": 0}.get(word)
            if value is None:
                raise ValueError(f"Bad value given for variable {self.name}.")
            return value
        value = parse_number(word, signed=True)
        if value is None:
            raise ValueError(f"Bad value given for variable {self.name}.")
        if self.choices and value not in self.choices:
            listed = ", ".join(map(str, self.choices))
            raise ValueError(f"{self.name} must be one of {listed}.")
        if not self.choices and not self.low <= value <= self.high:
            raise ValueError(f"{self.name} must be between {self.low} and {self.high}.")
        return value

    def show(self, value: Any) -> str:
        return str(value)

    @property
    def numeric(self) -> bool:
        return self.kind != "str"


class VariableTable:
    def __init__(self, variables: list[Variable]) -> None:
        self.by_name = {v.name: v for v in variables}
        self.defaults = {v.name: v.default for v in variables}

    def find(self, prefix: str) -> Variable:
        """The variable named ``prefix`` or the only one it abbreviates."""
        prefix = prefix.lower()
        if prefix in self.by_name:
            return self.by_name[prefix]
        found = [v for name, v in self.by_name.items() if name.startswith(prefix)]
        if len(found) == 1:
            return found[0]
        if found:
            names = " ".join(sorted(v.name for v in found))
            raise ValueError(f"Ambiguous variable name {prefix}: {names}")
        raise ValueError(f"No such variable name {prefix}.")


NOTES = tuple(str(n) for n in range(1, 11))

VARIABLES = VariableTable(
    [
        Variable("style", "int", 12, choices=(10, 12, 13), help="board lines: 10, 12, 13 none"),
        Variable("prompt", "str", "fics%"),
        Variable("open", "bool", 1, help="open for matches"),
        Variable("shout", "bool", 1, help="hear shouts"),
        Variable("sshout", "bool", 1, help="hear sshouts"),
        Variable("tell", "bool", 1, help="hear tells from unregistered players"),
        Variable("pin", "bool", 0, help="hear arrivals and departures"),
        Variable("kibitz", "bool", 1, help="hear kibitzes and whispers"),
        Variable("width", "int", 79, low=32, high=240),
        Variable("height", "int", 24, low=5, high=240),
        Variable("level1", "int", 0, low=0, high=15, help="level 1 output (bits 1 2 4 8)"),
        Variable("interface", "str", ""),
        *(Variable(note, "str", "", help="finger note") for note in NOTES),
    ]
)

IVARIABLES = VariableTable(
    [
        Variable(name, "bool", 0)
        for name in (
            "ms",
            "startpos",
            "lock",
            "defprompt",
            "nowrap",
            "smartmove",
            "premove",
            "seekremove",
            "seekinfo",
            "audiochat",
            "gameinfo",
            "compressmove",
            "pendinfo",
            "graph",
            "pinginfo",
            "showownseek",
            "allresults",
            "nohighlight",
            "vthighlight",
            "xml",
        )
    ]
)
