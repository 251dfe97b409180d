"""Hypothesis strategies for protocol records, derived from the DG catalog's forms."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from icswire.protocol import ivars, timeseal
from icswire.protocol.datagrams import (
    FORMS,
    MOVE_PART_DGS,
    RATING_DGS,
    RECORDS,
    DatagramRecord,
    Field,
    MoveInfo,
    PstatRecord,
    Rating,
)

# Any latin-1 character but control-Y and control-Z, which no datagram string may hold.
wire_text = st.text(
    alphabet=st.characters(min_codepoint=0, max_codepoint=255, exclude_characters="\x19\x1a"),
    max_size=30,
)
ints = st.integers(min_value=-(2**31), max_value=2**31 - 1)
names = st.from_regex(r"[A-Za-z][A-Za-z0-9]{1,14}", fullmatch=True)
move_words = st.from_regex(r"[A-Za-z0-9=+#@/-]{1,7}", fullmatch=True)
extra_tokens = st.lists(
    st.one_of(st.from_regex(r"[a-z0-9]{1,5}", fullmatch=True), st.just("{}"), st.just("{a b}")),
    max_size=3,
).map(tuple)

#: Every DG that some form makes conditional, and the rating / move-part DGs.
SETTING_DGS = sorted({*RATING_DGS, *MOVE_PART_DGS, 10, 11, 85, 131})
settings = st.frozensets(st.sampled_from(SETTING_DGS))


def _move_info(enabled: frozenset[int]) -> st.SearchStrategy[MoveInfo]:
    parts = [move_words, move_words, st.integers(0, 10**6), ints, st.integers(0, 6)]
    return st.tuples(
        *(p if dg in enabled else st.none() for dg, p in zip(MOVE_PART_DGS, parts, strict=True))
    ).map(lambda t: MoveInfo(*t))


def _value(dg: int, f: Field, enabled: frozenset[int]) -> st.SearchStrategy[Any]:
    if f.when is not None and f.when not in enabled:
        return st.none()
    if dg == 142 and f.name in ("p1", "p2"):
        return names  # DG_PSTAT tells its two forms apart by the names' first letter
    if dg == 142 and f.name == "kind":
        return st.one_of(st.none(), st.integers(0, 99))
    if f.kind == "R":
        return st.tuples(*(st.tuples(ints, st.integers(0, 2)) for _ in RATING_DGS)).map(
            lambda pairs: tuple(
                Rating(d, r, a) for d, (r, a) in zip(RATING_DGS, pairs, strict=True) if d in enabled
            )
        )
    if f.kind == "M":
        return st.lists(_move_info(enabled), max_size=4).map(tuple)
    if f.kind == "P":
        record = st.tuples(*[st.integers(0, 999)] * 7).map(lambda t: PstatRecord(*t))
        return st.lists(record, max_size=3).map(tuple)
    one: st.SearchStrategy[Any] = {
        "i": ints,
        "b": st.booleans(),
        "f": st.one_of(st.booleans(), st.none()),
    }.get(f.kind, wire_text)
    return st.lists(one, max_size=4).map(tuple) if f.repeated else one


@st.composite
def records(draw: st.DrawFn, dg: int, enabled: frozenset[int]) -> DatagramRecord:
    """A random record of ``dg`` as a receiver with ``enabled`` DGs on would get it."""
    cls = RECORDS[dg]
    values = {f.name: draw(_value(dg, f, enabled)) for f in cls.form}
    optional = [f.name for f in cls.form if f.optional and f.kind != "f"]
    if optional and dg != 142:  # older servers leave out a suffix of the optional fields
        cut = draw(st.integers(0, len(optional)))
        for name in optional[cut:]:
            values[name] = None
        if cut < len(optional):
            return cls(**values)
    if "extra" in cls._fields:
        values["extra"] = draw(extra_tokens)
    return cls(**values)


documented_dgs = st.sampled_from(sorted(FORMS))


# -- board lines -----------------------------------------------------------------------

board_ints = st.integers(min_value=-(2**40), max_value=2**40)
# A field of a board line: printable latin-1 text without blanks (a name, a move).
board_tokens = st.text(
    st.characters(codec="latin-1", exclude_categories=("Z", "C")), min_size=1, max_size=12
)


@st.composite
def game_fields(draw: st.DrawFn, whole_seconds: bool = True) -> dict[str, Any]:
    """The fields style 12 and style 10 share, from side_to_move to pretty_move; with
    ``whole_seconds`` an ``(m:ss)`` move time is a whole second."""
    precise = draw(st.booleans())
    move_ms = draw(board_ints)
    if whole_seconds and not precise:
        move_ms -= move_ms % 1000
    fields: dict[str, Any] = {
        "side_to_move": draw(st.sampled_from("WB")),
        "double_push_file": draw(st.integers(-1, 7)),
    }
    for name in ("white_castle_short", "white_castle_long", "black_castle_short"):
        fields[name] = draw(st.booleans())
    fields["black_castle_long"] = draw(st.booleans())
    for name in ("halfmove_clock", "game_number"):
        fields[name] = draw(board_ints)
    fields["white_name"] = draw(board_tokens)
    fields["black_name"] = draw(board_tokens)
    for name in (
        "relation",
        "initial_time",
        "increment",
        "white_strength",
        "black_strength",
        "white_time",
        "black_time",
        "move_number",
    ):
        fields[name] = draw(board_ints)
    fields["verbose_move"] = draw(board_tokens)
    fields["move_time_ms"] = move_ms
    fields["move_time_precise"] = precise
    fields["pretty_move"] = draw(board_tokens)
    return fields


# -- FICS interface variable lines -----------------------------------------------------

naturals = st.integers(0, 10**6)
fics_names = st.from_regex(r"[A-Za-z]{3,17}", fullmatch=True)
hex_titles = st.from_regex(r"[0-9A-Fa-f]{2}", fullmatch=True)
# Free text to the end of a line: printable latin-1, blanks included.
line_text = st.text(st.characters(codec="latin-1", exclude_categories=("C",)), max_size=30)
extra_fields = st.lists(board_tokens, max_size=3).map(tuple)
flag_pairs = st.tuples(st.booleans(), st.booleans())


@st.composite
def arrival_ratings(draw: st.DrawFn) -> tuple[tuple[int, str], ...]:
    """``<wa>`` ratings: each with its provshow character, which the last may leave out."""
    ratings = draw(st.lists(st.tuples(naturals, st.sampled_from(" EP")), min_size=1, max_size=9))
    if draw(st.booleans()):
        ratings[-1] = (ratings[-1][0], "")
    return tuple(ratings)


ivar_records = st.one_of(
    st.builds(
        ivars.Seek,
        number=naturals,
        name=board_tokens,
        titles=hex_titles,
        rating=naturals,
        provshow=st.sampled_from(" EP"),
        time=naturals,
        increment=naturals,
        rated=st.booleans(),
        type=board_tokens,
        color=st.sampled_from("?WB"),
        min_rating=naturals,
        max_rating=naturals,
        automatic=st.booleans(),
        formula=st.booleans(),
        extra=extra_fields,
        own=st.booleans(),
    ),
    st.lists(naturals, min_size=1, max_size=5).map(lambda n: ivars.SeeksRemoved(tuple(n))),
    st.just(ivars.SeeksCleared()),
    st.builds(ivars.PendingFrom, naturals, board_tokens, board_tokens, line_text),
    st.builds(ivars.PendingTo, naturals, board_tokens, board_tokens, line_text),
    st.lists(naturals, min_size=1, max_size=5).map(lambda n: ivars.PendingRemoved(tuple(n))),
    st.builds(
        ivars.GameInfo,
        game_number=naturals,
        private=st.booleans(),
        type=board_tokens,
        rated=st.booleans(),
        registered=flag_pairs,
        initial_time=st.tuples(naturals, naturals),
        increment=st.tuples(naturals, naturals),
        partner_game=naturals,
        ratings=st.tuples(*[st.tuples(naturals, st.sampled_from(["", "E", "P"]))] * 2),
        timeseal=flag_pairs,
        extra=extra_fields,
    ),
    st.builds(
        ivars.DeltaBoard,
        game_number=naturals,
        half_moves=naturals,
        algebraic=board_tokens,
        smith=board_tokens,
        time_taken_ms=board_ints,
        time_left_ms=board_ints,
        extra=extra_fields,
    ),
    st.builds(
        ivars.PlayerArrived, fics_names, st.sampled_from(" ^~:#.&"), hex_titles, arrival_ratings()
    ),
    st.builds(ivars.PlayerDeparted, board_tokens),
)


# -- timeseal --------------------------------------------------------------------------

# What a timeseal line can carry: 7-bit text without \x18, which ends the text.
sealed_text = st.text(
    st.characters(max_codepoint=127, exclude_characters="\x18"), max_size=40
).filter(lambda text: text != timeseal.PONG)
timestamps = st.integers(0, 10**12)
key_offsets = st.integers(0, len(timeseal.KEY) - 1)


@st.composite
def paddings(draw: st.DrawFn, before: str) -> str:
    """Padding that fills the last 12-byte group after ``before``, or one more group (PyChess
    pads 1 to 12 bytes, openseal 0 to 11)."""
    size = -len(before) % 12 + 12 * draw(st.integers(0, 1))
    return draw(st.text(st.characters(max_codepoint=127), min_size=size, max_size=size))


@st.composite
def sealed_events(
    draw: st.DrawFn, hello: bool = False
) -> timeseal.SealedLine | timeseal.Hello | timeseal.Pong:
    """A line a timeseal client may send (the hello when ``hello``): its decoded event."""
    timestamp = draw(timestamps)
    offset = draw(key_offsets)
    if hello:
        user = draw(sealed_text.filter(lambda text: "|" not in text))
        system = draw(sealed_text)
        tag = draw(st.sampled_from([timeseal.HELLO_TAG, timeseal.HELLO_TAG2]))
        text = timeseal.hello_text(user, system, tag)
        padding = draw(paddings(f"{text}..{timestamp}"))
        return timeseal.Hello(user, system, timestamp, padding, offset, tag)
    kind = draw(st.integers(0, 3))
    text = timeseal.PONG if kind == 0 else draw(sealed_text)
    padding = draw(paddings(f"{text}..{timestamp}"))
    if kind == 0:
        return timeseal.Pong(timestamp, padding, offset)
    return timeseal.SealedLine(text, timestamp, padding, offset)
