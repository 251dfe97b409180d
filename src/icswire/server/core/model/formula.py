"""FICS's formula language (help ``formula``): the filter ``set formula`` puts on match
requests and seek ads, with the sub-formulas ``f1``..``f9``.

A formula is an integer expression; it is met when it is not 0. Operators, from the
tightest: ``!`` ``~`` (not) and unary ``-``; ``*`` ``/``; ``+`` ``-``; ``<`` ``<=`` (``=<``)
``>`` ``>=`` (``=>``); ``=`` ``==`` ``!=`` ``<>``; ``&`` ``&&`` ``and``; ``|`` ``||``
``or``; parentheses group, ``#`` starts a comment, and ``minutes`` after a number multiplies
it by 60. Arithmetic is on integers as FICS's C code does it (division truncates toward 0,
and divides by 0.001 instead of by 0). Variables are the values of :class:`Facts`; the
functions ``maxtime(n)`` and ``mymaxtime(n)`` are the seconds ``n`` moves may take both
players or one. ``fN`` is the value of the sub-formula N; an unset one counts as 1, and
``fN`` may only use ``f1``..``f(N-1)`` (so no formula refers to itself).

>>> facts = Facts({"time": 5, "inc": 0, "blitz": 1, "rated": 0}, 5, 0)
>>> evaluate(parse("blitz & time >= 3 # no bullet"), facts)
1
>>> evaluate(parse("f1 | rated", 9), facts, {1: "inc > 0"})
0
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Mapping
from dataclasses import dataclass

__all__ = [
    "FUNCTIONS",
    "NAMES",
    "SUBFORMULA_COUNT",
    "Facts",
    "FormulaError",
    "clauses",
    "evaluate",
    "parse",
]

#: The variables a formula may use (help ``formula``), each a value of :class:`Facts`.
NAMES = frozenset(
    {
        "abuser", "assessdraw", "assessloss", "assesswin", "atomic", "black", "blitz",
        "bughouse", "color", "computer", "crazyhouse", "inc", "lightning", "losers",
        "myrating", "nocolor", "nonstandard", "private", "rated", "rating", "ratingdiff",
        "registered", "standard", "suicide", "time", "timeseal", "unrated", "untimed",
        "white", "wild",
    }
)  # fmt: skip
#: The functions, with one argument.
FUNCTIONS = frozenset({"maxtime", "mymaxtime"})
#: How many sub-formulas there are (f1..f9).
SUBFORMULA_COUNT = 9

_TOKEN = re.compile(
    r"\s*(?:(?P<number>[0-9]+)|(?P<word>[A-Za-z_][A-Za-z0-9_]*)"
    r"|(?P<op>\|\||&&|==|!=|<>|>=|=>|<=|=<|[|&<>=+\-*/!~()]))"
)
_LEVELS: tuple[frozenset[str], ...] = (
    frozenset({"|", "||", "or"}),
    frozenset({"&", "&&", "and"}),
    frozenset({"=", "==", "!=", "<>"}),
    frozenset({"<", "<=", "=<", ">", ">=", "=>"}),
    frozenset({"+", "-"}),
    frozenset({"*", "/"}),
)
_SUB = re.compile(r"f([1-9])")


class FormulaError(ValueError):
    """A formula that cannot be read: ``reason``, at character ``position``."""

    def __init__(self, reason: str, position: int) -> None:
        super().__init__(f"{reason} (at character {position + 1})")
        self.reason = reason
        self.position = position


# -- the tree --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Number:
    value: int


@dataclass(frozen=True)
class Name:
    name: str


@dataclass(frozen=True)
class Sub:
    """``fN``: the value of sub-formula ``index`` (1-9)."""

    index: int


@dataclass(frozen=True)
class Call:
    function: str
    argument: Expr


@dataclass(frozen=True)
class Unary:
    op: str
    operand: Expr


@dataclass(frozen=True)
class Binary:
    op: str
    left: Expr
    right: Expr


Expr = Number | Name | Sub | Call | Unary | Binary


# -- reading ---------------------------------------------------------------------------------


def _tokens(text: str) -> list[tuple[str, str, int]]:
    """(kind, text, position) of each token up to a ``#`` comment; kind ``end`` last."""
    found: list[tuple[str, str, int]] = []
    position = 0
    while True:
        while position < len(text) and text[position].isspace():
            position += 1
        if position >= len(text) or text[position] == "#":
            found.append(("end", "", position))
            return found
        match = _TOKEN.match(text, position)
        if match is None:
            raise FormulaError(f'unexpected character "{text[position]}"', position)
        kind = match.lastgroup or "op"
        value = match[kind]
        start = match.start(kind)
        if kind == "word":
            value = value.lower()
            if value in ("and", "or"):
                kind = "op"
        found.append((kind, value, start))
        position = match.end()


class _Parser:
    def __init__(self, text: str, subformulas: int) -> None:
        self.tokens = _tokens(text)
        self.at = 0
        self.subformulas = subformulas

    def peek(self) -> tuple[str, str, int]:
        return self.tokens[self.at]

    def take(self) -> tuple[str, str, int]:
        token = self.tokens[self.at]
        self.at += 1
        return token

    def expect(self, op: str) -> None:
        kind, value, position = self.take()
        if (kind, value) != ("op", op):
            raise FormulaError(f'"{op}" expected', position)

    def whole(self) -> Expr:
        kind, _, position = self.peek()
        if kind == "end":
            raise FormulaError("empty formula", position)
        expr = self.level(0)
        kind, value, position = self.peek()
        if kind != "end":
            raise FormulaError(f'unexpected "{value}"', position)
        return expr

    def level(self, depth: int) -> Expr:
        if depth == len(_LEVELS):
            return self.unary()
        left = self.level(depth + 1)
        while True:
            kind, value, _ = self.peek()
            if kind != "op" or value not in _LEVELS[depth]:
                return left
            self.take()
            left = Binary(value, left, self.level(depth + 1))

    def unary(self) -> Expr:
        kind, value, _ = self.peek()
        if kind == "op" and value in ("!", "~", "-", "+"):
            self.take()
            return Unary(value, self.unary())
        return self.primary()

    def primary(self) -> Expr:
        kind, value, position = self.take()
        if kind == "number":
            number = int(value)
            if self.peek()[:2] == ("word", "minutes"):
                self.take()
                number *= 60
            return Number(number)
        if kind == "op" and value == "(":
            inner = self.level(0)
            self.expect(")")
            return inner
        if kind == "word":
            sub = _SUB.fullmatch(value)
            if sub is not None:
                index = int(sub[1])
                if index > self.subformulas:
                    raise FormulaError(f"f{index} may not be used here", position)
                return Sub(index)
            if value in FUNCTIONS:
                self.expect("(")
                argument = self.level(0)
                self.expect(")")
                return Call(value, argument)
            if value in NAMES:
                return Name(value)
            raise FormulaError(f'unknown variable "{value}"', position)
        if kind == "end":
            raise FormulaError("the formula ends too soon", position)
        raise FormulaError(f'unexpected "{value}"', position)


def parse(text: str, subformulas: int = SUBFORMULA_COUNT) -> Expr:
    """The tree of ``text``; it may use ``f1``..``f<subformulas>`` (the formula itself all
    nine, ``fN`` those before it). :class:`FormulaError` says what is wrong."""
    return _Parser(text, subformulas).whole()


# -- evaluating ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Facts:
    """What a formula is evaluated with: the value of every name in :data:`NAMES` (a
    missing one is 0), and each side's time control for ``maxtime``."""

    values: Mapping[str, int]
    time: int  # minutes
    inc: int  # seconds

    def maxtime(self, moves: int, players: int) -> int:
        """FICS's ``Maxtime``: seconds ``moves`` moves may take ``players`` players (a game
        with no starting time gives each ten seconds)."""
        seconds = players * (60 * self.time + moves * self.inc)
        return seconds + (10 * players if self.time == 0 else 0)


def _divide(left: int, right: int) -> int:
    """C's integer division, and FICS's 0.001 in place of a divisor of 0."""
    if right == 0:
        return left * 1000
    quotient = abs(left) // abs(right)
    return quotient if (left < 0) == (right < 0) else -quotient


_COMPARE = {
    "<": lambda a, b: a < b,
    "<=": lambda a, b: a <= b,
    "=<": lambda a, b: a <= b,
    ">": lambda a, b: a > b,
    ">=": lambda a, b: a >= b,
    "=>": lambda a, b: a >= b,
    "=": lambda a, b: a == b,
    "==": lambda a, b: a == b,
    "!=": lambda a, b: a != b,
    "<>": lambda a, b: a != b,
}


def evaluate(expr: Expr, facts: Facts, lines: Mapping[int, str] | None = None) -> int:
    """The value of ``expr``; ``lines`` are the sub-formulas' texts by number (an unset
    or unreadable one counts as 1 and 0: FICS fails a formula it cannot evaluate)."""
    lines = lines or {}
    if isinstance(expr, Number):
        return expr.value
    if isinstance(expr, Name):
        return int(facts.values.get(expr.name, 0))
    if isinstance(expr, Sub):
        text = lines.get(expr.index, "")
        if not text.strip():
            return 1
        try:
            tree = parse(text, expr.index - 1)
        except FormulaError:
            return 0
        return evaluate(tree, facts, lines)
    if isinstance(expr, Call):
        moves = evaluate(expr.argument, facts, lines)
        return facts.maxtime(moves, 2 if expr.function == "maxtime" else 1)
    if isinstance(expr, Unary):
        value = evaluate(expr.operand, facts, lines)
        if expr.op in ("!", "~"):
            return int(not value)
        return -value if expr.op == "-" else value
    left = evaluate(expr.left, facts, lines)
    op = expr.op
    if op in ("|", "||", "or"):
        return int(bool(left) or bool(evaluate(expr.right, facts, lines)))
    if op in ("&", "&&", "and"):
        return int(bool(left) and bool(evaluate(expr.right, facts, lines)))
    right = evaluate(expr.right, facts, lines)
    if op == "+":
        return left + right
    if op == "-":
        return left - right
    if op == "*":
        return left * right
    if op == "/":
        return _divide(left, right)
    return int(_COMPARE[op](left, right))


def _subs(expr: Expr) -> set[int]:
    if isinstance(expr, Sub):
        return {expr.index}
    if isinstance(expr, Call):
        return _subs(expr.argument)
    if isinstance(expr, Unary):
        return _subs(expr.operand)
    if isinstance(expr, Binary):
        return _subs(expr.left) | _subs(expr.right)
    return set()


def clauses(expr: Expr, lines: Mapping[int, str]) -> list[int]:
    """The sub-formulas ``expr`` uses, directly or through others, in order (what FICS
    explains, ``fN=value: text``, when a formula refuses a match)."""
    used: set[int] = set()
    todo = _subs(expr)
    while todo:
        index = todo.pop()
        if index in used:
            continue
        used.add(index)
        text = lines.get(index, "")
        if text.strip():
            with contextlib.suppress(FormulaError):
                todo |= _subs(parse(text, index - 1))
    return sorted(used)
