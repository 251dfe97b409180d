"""FICS's formula (help ``formula``): the language, property-tested, and end to end: a match
request the receiver's formula refuses, a seek hidden from those whose formula it fails."""

from __future__ import annotations

import asyncio

import pytest
from hypothesis import given
from hypothesis import strategies as st

from icswire.protocol import ivars
from icswire.protocol.events import IvarLine, Text
from icswire.server.app import Server
from icswire.server.core.model.formula import (
    NAMES,
    Facts,
    FormulaError,
    clauses,
    evaluate,
    parse,
)

from .client import Client
from .support import connect
from .support import text_lines as texts

# -- the language ----------------------------------------------------------------------------

FACTS = Facts(
    {"time": 5, "inc": 2, "rating": 1600, "myrating": 1500, "ratingdiff": 100, "blitz": 1},
    5,
    2,
)


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("blitz", 1),
        ("!blitz", 0),
        ("~blitz", 0),
        ("-time", -5),
        ("time * 2 + inc", 12),
        ("time + inc * 2", 9),
        ("(time + inc) * 2", 14),
        ("7 / 2", 3),
        ("-7 / 2", -3),
        ("3 / 0", 3000),  # FICS divides by 0.001 instead
        ("rating - myrating = ratingdiff", 1),
        ("rating >= 1600 & rating <= 1600", 1),
        ("rating => 1601 || rating =< 1599", 0),
        ("time == 5 and inc != 3 and inc <> 3", 1),
        ("time = 3 or inc = 2", 1),
        ("1 | 0 & 0", 1),  # & binds tighter than |
        ("1 < 2 = 1", 1),  # comparisons bind tighter than equality
        ("2 minutes", 120),
        ("maxtime(40)", 2 * (300 + 80)),
        ("mymaxtime(40) >= 5 minutes", 1),
        ("RATED | Blitz", 1),  # names without regard to case
        ("blitz # only blitz, please", 1),
        ("f1", 1),  # an unset sub-formula counts as 1
        ("wild", 0),  # a name without a value here is 0
    ],
)
def test_formulas_evaluate_as_fics_does(text: str, value: int) -> None:
    assert evaluate(parse(text), FACTS) == value


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("", "empty formula"),
        ("# a comment only", "empty formula"),
        ("blitz &", "the formula ends too soon"),
        ("(blitz", '")" expected'),
        ("blitz)", 'unexpected ")"'),
        ("speed > 3", 'unknown variable "speed"'),
        ("time 3", 'unexpected "3"'),
        ("time $ 3", 'unexpected character "$"'),
        ("maxtime 40", '"(" expected'),
    ],
)
def test_bad_formulas_say_why(text: str, reason: str) -> None:
    with pytest.raises(FormulaError) as raised:
        parse(text)
    assert raised.value.reason == reason


def test_sub_formulas_refer_only_to_earlier_ones() -> None:
    lines = {1: "time > 3", 2: "f1 & inc > 0", 3: "rated"}
    assert evaluate(parse("f2"), FACTS, lines) == 1
    assert evaluate(parse("f3 | f2"), FACTS, lines) == 1
    assert evaluate(parse("f3"), FACTS, lines) == 0
    assert clauses(parse("f2 | blitz"), lines) == [1, 2]
    with pytest.raises(FormulaError):
        parse("f2", 1)  # f1 may not use f2
    with pytest.raises(FormulaError):
        parse("f3", 2)  # f3 may not use itself


# Property: any expression built from the grammar reads back to a tree whose value is the
# one computed directly (C integer semantics).

_VALUES = dict(FACTS.values)


def _c_div(a: int, b: int) -> int:
    if b == 0:
        return a * 1000
    q = abs(a) // abs(b)
    return q if (a < 0) == (b < 0) else -q


_BINARY = {
    "+": lambda a, b: a + b,
    "-": lambda a, b: a - b,
    "*": lambda a, b: a * b,
    "/": _c_div,
    "<": lambda a, b: int(a < b),
    "<=": lambda a, b: int(a <= b),
    ">": lambda a, b: int(a > b),
    ">=": lambda a, b: int(a >= b),
    "=": lambda a, b: int(a == b),
    "!=": lambda a, b: int(a != b),
    "&": lambda a, b: int(bool(a) and bool(b)),
    "|": lambda a, b: int(bool(a) or bool(b)),
}

_leaf = st.one_of(
    st.integers(0, 50).map(lambda n: (str(n), n)),
    st.sampled_from(sorted(_VALUES)).map(lambda name: (name, _VALUES[name])),
)


def _extend(inner: st.SearchStrategy[tuple[str, int]]) -> st.SearchStrategy[tuple[str, int]]:
    binary = st.tuples(inner, st.sampled_from(sorted(_BINARY)), inner).map(
        lambda t: (f"({t[0][0]} {t[1]} {t[2][0]})", _BINARY[t[1]](t[0][1], t[2][1]))
    )
    unary = st.tuples(st.sampled_from(["!", "-"]), inner).map(
        lambda t: (f"{t[0]}({t[1][0]})", int(not t[1][1]) if t[0] == "!" else -t[1][1])
    )
    return st.one_of(binary, unary)


@given(st.recursive(_leaf, _extend, max_leaves=12))
def test_any_expression_reads_back_to_its_value(case: tuple[str, int]) -> None:
    text, value = case
    assert evaluate(parse(text), FACTS) == value


@given(st.text(alphabet="abcdeflmnorstw0123456789 ()!~<>=&|+-*/#", max_size=30))
def test_any_text_parses_or_says_why(text: str) -> None:
    try:
        tree = parse(text)
    except FormulaError as exc:
        assert 0 <= exc.position <= len(text)
        return
    assert isinstance(evaluate(tree, FACTS, {n: "time" for n in range(1, 10)}), int)


@given(st.sampled_from(sorted(NAMES)))
def test_every_name_is_known(name: str) -> None:
    assert evaluate(parse(name), Facts({name: 7}, 0, 0)) == 7


# -- end to end ------------------------------------------------------------------------------


async def player(server: Server, name: str, password: str | None = None) -> Client:
    if password is not None:
        await asyncio.to_thread(server.store.add_user, name, password)
    client = await connect(server)
    await client.login(name, password)
    await client.command("iset nowrap 1")
    return client


async def test_a_bad_formula_is_refused_and_a_good_one_kept(server: Server) -> None:
    fred = await player(server, "Fred", "secret")
    assert texts(await fred.command("set formula blitz & speed")) == [
        "Bad value given for variable formula.",
        '  unknown variable "speed" (at character 9)',
    ]
    assert texts(await fred.command("set f2 f3 > 0")) == [
        "Bad value given for variable f2.",
        "  f3 may not be used here (at character 1)",
    ]
    assert texts(await fred.command("set f1 time >= 3  # no bullet")) == [
        "Formula variable f1 set to time >= 3  # no bullet."
    ]
    assert texts(await fred.command("set formula f1 & !rated")) == ["Formula set to f1 & !rated."]
    shown = texts(await fred.command("vars"))
    assert shown[-3:] == [" f1: time >= 3  # no bullet", "", "Formula: f1 & !rated"]
    await fred.close()
    await server.core.writes.settled("Fred")
    back = await connect(server)  # the formula is kept for the next login
    await back.login("Fred", "secret")
    shown = texts(await back.command("vars"))
    assert shown[-1] == "Formula: f1 & !rated"
    assert texts(await back.command("set formula")) == ["Formula unset."]
    assert not any(line.startswith("Formula:") for line in texts(await back.command("vars")))
    await back.close()


async def test_a_match_that_fails_the_formula_is_refused(server: Server) -> None:
    alpha = await player(server, "Alpha")
    beta = await player(server, "Beta")
    await beta.command("set f1 inc > 0")
    await beta.command("set formula f1 & time >= 3")
    refused = texts(await alpha.command("match Beta 5 0"))
    assert refused == [
        "Match request does not fit formula for Beta:",
        "Beta's formula: f1 & time >= 3",
        "",
        "f1=0: inc > 0",
    ]
    await beta.expect(
        lambda e: (
            isinstance(e, Text)
            and e.text == "Ignoring (formula): Alpha (----) Beta (----) unrated blitz 5 0."
        )
    )
    assert texts(await alpha.command("match Beta 1 1")) == [
        "Match request does not fit formula for Beta:",
        "Beta's formula: f1 & time >= 3",
        "",
        "f1=1: inc > 0",
    ]
    issued = texts(await alpha.command("match Beta 5 2"))
    assert issued == ["Issuing: Alpha (----) Beta (----) unrated blitz 5 2."]
    await beta.expect(lambda e: isinstance(e, Text) and e.text.startswith("Challenge: Alpha"))
    for client in (alpha, beta):
        await client.close()


async def test_a_seek_that_fails_your_formula_is_not_shown_to_you(server: Server) -> None:
    seeker = await player(server, "Seeker")
    picky = await player(server, "Picky")
    open_ = await player(server, "Easy")
    await picky.command("set formula standard")
    await picky.command("iset seekinfo 1")
    await open_.command("iset seekinfo 1")
    await seeker.command("seek 3 0")
    announced = 'Seeker (++++) seeking 3 0 unrated blitz ("play 1" to respond)'
    await open_.expect(lambda e: isinstance(e, Text) and e.text == announced)
    await open_.expect(lambda e: isinstance(e, IvarLine))
    await seeker.command("seek 20 0")  # standard: Picky sees this one
    await picky.expect(lambda e: isinstance(e, Text) and "seeking 20 0" in e.text)
    assert not any(isinstance(e, Text) and "seeking 3 0" in e.text for e in picky.events)
    seen = [
        e.record.number
        for e in picky.events
        if isinstance(e, IvarLine) and isinstance(e.record, ivars.Seek)
    ]
    assert seen == [2]
    sought = texts(await picky.command("sought"))
    assert [row.split()[0] for row in sought[:-1]] == ["2"]
    assert sought[-1] == "1 ad(s) displayed."
    everything = texts(await picky.command("sought all"))
    assert [row.split()[0] for row in everything[:-1]] == ["1", "2"]
    listed = await picky.command("iset seekinfo 1")
    assert texts(listed) == ["seekinfo set."]
    lines = [e.record for e in listed if isinstance(e, IvarLine)]
    assert [type(r).__name__ for r in lines] == ["SeeksCleared", "Seek"]
    assert isinstance(lines[1], ivars.Seek) and lines[1].number == 2
    for client in (seeker, picky, open_):
        await client.close()


async def test_a_formula_seek_keeps_out_who_fails_the_seekers_formula(server: Server) -> None:
    seeker = await player(server, "Seeker")
    guest = await player(server, "Other")
    await seeker.command("set formula registered")
    await seeker.command("seek 3 0 f")
    assert texts(await guest.command("sought")) == ["0 ad(s) displayed."]
    assert texts(await guest.command("play 1")) == [
        "Match request does not fit formula for Seeker:",
        "Seeker's formula: registered",
    ]
    for client in (seeker, guest):
        await client.close()


async def test_assess_variables_are_the_receivers_rating_changes(server: Server) -> None:
    ann = await player(server, "Ann", "one")
    bob = await player(server, "Bob", "two")
    await bob.command("set formula assesswin > 0 & assessloss < 0 & assesswin < 400")
    issued = texts(await ann.command("match Bob 5 0 rated"))
    assert issued == ["Issuing: Ann (----) Bob (----) rated blitz 5 0."]
    await bob.command("set formula assessdraw != 0")  # equal ratings: a draw changes none
    assert texts(await ann.command("match Bob 6 0 rated"))[0] == (
        "Match request does not fit formula for Bob:"
    )
    await bob.command("set formula assesswin > 0")  # unrated: every assessment is 0
    assert texts(await ann.command("match Bob 6 0 unrated"))[0] == (
        "Match request does not fit formula for Bob:"
    )
    for client in (ann, bob):
        await client.close()
