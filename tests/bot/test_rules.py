"""The bot's pure decisions: challenges, draws, resignation and takebacks."""

from __future__ import annotations

import dataclasses

import pytest

from icswire.bot.config import ChallengeRules, DrawRules, OfferRules, ResignRules
from icswire.bot.rules import (
    DRAW_OFFER_EVERY,
    ChallengeFacts,
    GameJudge,
    answers_takeback,
    judge_challenge,
)

DEFAULTS = ChallengeRules()
FACTS = ChallengeFacts(
    opponent="Alice",
    rating=1500,
    titles="",
    registered=True,
    rated=True,
    variant="chess",
    base=5,
    increment=0,
)


def judge(rules: ChallengeRules = DEFAULTS, games_now: int = 0, **changes: object) -> str | None:
    facts = dataclasses.replace(FACTS, **changes)  # type: ignore[arg-type]
    return judge_challenge(rules, facts, games_now, engine_plays=True)


def test_an_ordinary_challenge_is_accepted_by_the_defaults() -> None:
    assert judge() is None
    assert judge(rated=False, base=0, increment=2, rating=None, registered=False) is None
    assert judge(base=180, increment=180, rating=9999, titles="(TD)") is None


def test_the_reasons_are_sentences_for_the_challenger() -> None:
    rules = ChallengeRules(
        variants=("chess", "crazyhouse"),
        min_base=1,
        max_base=15,
        max_increment=5,
        guests=False,
        titles_refused=("C", "GM"),
        min_rating=1000,
        max_rating=2000,
    )
    assert judge(rules) is None
    assert judge(rules, variant="suicide") == "I play only chess and crazyhouse."
    assert judge(rules, variant=None) == "I play only chess and crazyhouse."
    assert judge(rules, base=30) == "I play games of 1 to 15 minutes."
    assert judge(rules, base=0.5) == "I play games of 1 to 15 minutes."
    assert judge(rules, increment=6) == "I play increments of at most 5 seconds."
    assert judge(rules, registered=False) == "I do not play guests."
    assert judge(rules, titles="(C)") == "I do not play computers."
    assert judge(rules, titles="(TD)(gm)") == "I do not play players titled gm."
    assert judge(rules, rating=999) == "I play players rated 1000 to 2000."
    assert judge(rules, rating=2001) == "I play players rated 1000 to 2000."
    assert judge(rules, rating=None) == "I play only players rated 1000 or more."
    assert judge(rules, games_now=1) == "I am already playing 1 game."
    three = dataclasses.replace(rules, max_games=3)
    assert judge(three, games_now=2) is None
    assert judge(three, games_now=3) == "I am already playing 3 games."


def test_limits_are_inclusive_and_exact_ranges_read_well() -> None:
    rules = ChallengeRules(min_base=2.5, max_base=2.5, min_increment=2, max_increment=2)
    assert judge(rules, base=2.5, increment=2) is None
    assert judge(rules, base=3, increment=2) == "I play games of exactly 2.5 minutes."
    assert judge(rules, base=2.5, increment=1) == "I play increments of exactly 2 seconds."
    one = ChallengeRules(max_base=1)
    assert judge(one, base=2) == "I play games of at most 1 minute."
    three = ChallengeRules(variants=("chess", "suicide", "fr"))
    assert judge(three, variant="losers") == "I play only chess, suicide and fr."


def test_rated_unrated_accept_and_the_engine() -> None:
    assert judge(ChallengeRules(rated=False)) == "I play only unrated games."
    assert judge(ChallengeRules(rated=False), rated=False) is None
    assert judge(ChallengeRules(unrated=False), rated=False) == "I play only rated games."
    assert judge(ChallengeRules(accept=False)) == (
        "I do not accept challenges; answer one of my seeks instead."
    )
    rules = ChallengeRules(variants=("chess", "atomic"))
    facts = dataclasses.replace(FACTS, variant="atomic")
    assert judge_challenge(rules, facts, 0, engine_plays=False) == "My engine cannot play atomic."
    assert judge_challenge(rules, facts, 0, engine_plays=True) is None


def test_busy_is_said_before_anything_else_about_the_challenge() -> None:
    assert judge(games_now=1, variant="suicide", base=900) == "I am already playing 1 game."


def play(judge: GameJudge, scores: list[int | None], start: int = 1) -> None:
    for number, score in enumerate(scores, start):
        judge.record(number, score)


def test_a_draw_is_offered_after_enough_level_moves_and_then_not_for_ten() -> None:
    rules = DrawRules(offer_after=10, offer_within=20, offer_for=3)
    game = GameJudge(rules, ResignRules())
    play(game, [15] * 9)
    assert not game.should_offer_draw()  # 9 full moves: too early
    game.record(10, 25)
    assert not game.should_offer_draw()  # the last move is not level
    game.record(11, -20)
    game.record(12, 0)
    assert not game.should_offer_draw()  # two level moves in a row
    game.record(13, 20)
    assert game.should_offer_draw()
    assert not game.should_offer_draw()  # a True answer is the offer
    play(game, [0] * (DRAW_OFFER_EVERY - 1), start=14)
    assert not game.should_offer_draw()
    game.record(14 + DRAW_OFFER_EVERY, 0)
    assert game.should_offer_draw()


def test_an_unknown_score_breaks_the_run_and_offer_false_never_offers() -> None:
    game = GameJudge(DrawRules(offer_after=0, offer_for=2), ResignRules())
    play(game, [0, None, 0])
    assert not game.should_offer_draw()
    game.record(4, 0)
    assert game.should_offer_draw()
    never = GameJudge(DrawRules(offer=False, offer_after=0, offer_for=1), ResignRules())
    play(never, [0] * 50)
    assert not never.should_offer_draw()


def test_a_draw_is_accepted_when_late_enough_and_not_better() -> None:
    game = GameJudge(DrawRules(accept_after=20, accept_below=0), ResignRules())
    assert not game.accepts_draw()  # no move yet
    play(game, [-300] * 19)
    assert not game.accepts_draw()  # 19 full moves: too early
    game.record(20, 0)
    assert game.accepts_draw()
    game.record(21, 1)
    assert not game.accepts_draw()
    game.record(22, None)
    assert not game.accepts_draw()
    game.record(23, -5)
    assert game.accepts_draw()
    refuses = GameJudge(DrawRules(accept=False, accept_after=0), ResignRules())
    refuses.record(30, -1000)
    assert not refuses.accepts_draw()


def test_it_resigns_after_enough_lost_moves_in_a_row() -> None:
    game = GameJudge(DrawRules(), ResignRules(below=-900, moves=3))
    play(game, [-900, -2000])
    assert not game.should_resign()
    game.record(3, -899)
    assert not game.should_resign()
    play(game, [-1000, -99900, None], start=4)
    assert not game.should_resign()  # unknown last score
    play(game, [-901, -950, -99997], start=7)
    assert game.should_resign()
    off = GameJudge(DrawRules(), ResignRules(enabled=False, moves=1))
    off.record(1, -99999)
    assert not off.should_resign()


@pytest.mark.parametrize(
    ("allowed", "granted", "answer"), [(0, 0, False), (2, 0, True), (2, 1, True), (2, 2, False)]
)
def test_takebacks_are_granted_up_to_the_limit(allowed: int, granted: int, answer: bool) -> None:
    assert answers_takeback(OfferRules(takebacks=allowed), granted) is answer
