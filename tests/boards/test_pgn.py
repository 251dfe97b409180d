"""pgn_text writes a game python-chess replays exactly as python-chess's exporter writes
game_to_pgn's game, without importing chess.pgn (which loads asyncio)."""

from __future__ import annotations

import dataclasses

import chess
import chess.pgn
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from icswire.boards.game import Game, Gap
from icswire.boards.pgn import COLUMNS, game_to_pgn, pgn_text, start_board
from icswire.boards.variants import VARIANTS, Variant

from .test_variant_games import from_style12
from .transcript import play

REPLAYED = [v for v in VARIANTS if v.pgn_replayable]
TAG_NAMES = st.from_regex(r"[A-Za-z0-9][A-Za-z0-9_+#=:-]{0,8}", fullmatch=True)
TAG_VALUES = st.text(st.characters(codec="utf-8", exclude_characters="\r\n"), max_size=12)


def exported(game: Game) -> str:
    return game_to_pgn(game).accept(chess.pgn.StringExporter(columns=COLUMNS)) + "\n"


@st.composite
def games(draw: st.DrawFn, variant: Variant) -> Game:
    """A game of ``variant`` from a start some plies in (Black may move first), with clocks
    of any size or none, maybe gaps, a result and tags from the server."""
    played = play(7, draw(st.integers(0, 2**32 - 1)), draw(st.integers(0, 90)), variant)
    game = from_style12(played)
    skip = draw(st.integers(0, min(3, len(game.moves))))
    if skip:
        game.reset(played.replay()[skip])
        game.moves = from_style12(played).moves[skip:]
    clocks = st.none() | st.integers(-5000, 10**8)
    game.moves = [dataclasses.replace(m, clock_ms=draw(clocks)) for m in game.moves]
    game.gaps = [
        Gap(n, "", game.board.fen()) for n in draw(st.lists(st.integers(0, 99), max_size=2))
    ]
    game.result = draw(st.sampled_from(["1-0", "0-1", "1/2-1/2", "*", None]))
    game.white_rating = draw(st.integers(-1, 3000))
    game.tags = draw(st.dictionaries(TAG_NAMES | st.sampled_from(["Site", "Result"]), TAG_VALUES))
    return game


@pytest.mark.parametrize("variant", REPLAYED, ids=[v.name for v in REPLAYED])
@settings(max_examples=25, deadline=None)
@given(st.data())
def test_a_replayed_game_is_written_as_python_chess_writes_it(
    variant: Variant, data: st.DataObject
) -> None:
    game = data.draw(games(variant))
    assert pgn_text(game) == exported(game)


@pytest.mark.parametrize(
    ("name", "value"), [("Bad tag", "x"), ("Annotator", "two\nlines"), ("Annotator", "a\rb")]
)
def test_a_tag_python_chess_refuses_is_refused_with_its_message(name: str, value: str) -> None:
    game = from_style12(play(7, 1, 4))
    game.tags[name] = value
    with pytest.raises(ValueError) as theirs:
        exported(game)
    with pytest.raises(ValueError, match="pgn header") as ours:
        pgn_text(game)
    assert str(ours.value) == str(theirs.value)


SPELLINGS = [
    *(v.pgn_variant for v in VARIANTS),
    *("chess 960", "Fischer Random", "fischerandom", "WILD/8A", "wild/6", "Standard"),
    *("Antichess", "Horde", "Losers", "wild/27", ""),
]


@pytest.mark.parametrize("variant", SPELLINGS)
@pytest.mark.parametrize(
    "fen", [None, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 3 40", "1rk2r2/8/8/8/8/8/8/1RK2R2 b KQkq - 0 9"]
)
def test_the_start_is_the_board_python_chess_reads_the_tags_into(
    variant: str | None, fen: str | None
) -> None:
    tags = {k: v for k, v in (("Variant", variant), ("FEN", fen)) if v is not None}
    try:
        theirs = chess.pgn.Headers(tags).board()
    except ValueError:
        with pytest.raises(ValueError):
            start_board(tags)
        return
    ours = start_board(tags)
    assert type(ours) is type(theirs) and ours.chess960 == theirs.chess960
    assert ours.fen() == theirs.fen()


def test_clocks_are_written_as_python_chess_writes_them() -> None:
    for ms in (-1, 0, 999, 1000, 59_999, 60_000, 179_909, 3_599_999, 3_600_000, 10**9 + 7):
        game = from_style12(play(7, 3, 2))
        game.moves = [dataclasses.replace(m, clock_ms=ms) for m in game.moves]
        assert pgn_text(game) == exported(game)
