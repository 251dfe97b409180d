"""The bot answers its opponent's offers by its rules, in both dialects: draws (accepted
and declined), takebacks (granted up to its number), aborts and adjournments."""

from __future__ import annotations

import logging

import pytest

from icswire.bot.config import DrawRules, OfferRules, ResignRules
from icswire.server.app import Server

from .play import bot_config, needs_stockfish, register, robot, running, san_move, stockfish, until

pytestmark = needs_stockfish


@pytest.mark.parametrize(("bot_dialect", "robot_dialect"), [("fics", "icc"), ("icc", "fics")])
@pytest.mark.parametrize("accept", [True, False], ids=["accepted", "declined"])
async def test_a_draw_offer_is_answered_by_the_rules(
    server: Server,
    caplog: pytest.LogCaptureFixture,
    bot_dialect: str,
    robot_dialect: str,
    accept: bool,
) -> None:
    caplog.set_level(logging.INFO, "icswire.bot")
    await register(server, "Fishy", "Robo")
    draw = DrawRules(accept=accept, accept_after=0, accept_below=10_000, offer=False)
    config = bot_config(server, "Fishy", stockfish(), dialect=bot_dialect, draw=draw)
    async with running(config), robot(server, "Robo", robot_dialect) as robo:
        await robo.run("match Fishy 1 0 unrated white")
        await until(robo.game)
        await robo.move(san_move("e4"))
        mine = robo.game()
        assert mine is not None
        await until(lambda: len(mine.game.moves) == 2)  # the bot answered: it has an eval
        await robo.run("draw")
        if accept:
            await until(robo.over)
            assert mine.game.result == "1/2-1/2"
        else:
            await until(lambda: _declined(caplog, "draw"))
            await until(lambda: not _requests(server, mine.game.number))
            assert robo.game() is mine and mine.game.result is None
            await robo.run("resign")
            await until(robo.over)
    (answer,) = [r.getMessage() for r in caplog.records if "draw offer" in r.getMessage()]
    assert answer.startswith("game 1: accepting" if accept else "game 1: declining")


@pytest.mark.parametrize(("bot_dialect", "robot_dialect"), [("fics", "icc"), ("icc", "fics")])
async def test_takebacks_are_granted_up_to_the_rules_number(
    server: Server, caplog: pytest.LogCaptureFixture, bot_dialect: str, robot_dialect: str
) -> None:
    caplog.set_level(logging.INFO, "icswire.bot")
    await register(server, "Fishy", "Robo")
    config = bot_config(
        server, "Fishy", stockfish(), dialect=bot_dialect, offers=OfferRules(takebacks=1)
    )
    async with running(config), robot(server, "Robo", robot_dialect) as robo:
        await robo.run("match Fishy 1 0 unrated white")
        await until(robo.game)
        mine = robo.game()
        assert mine is not None
        await robo.move(san_move("f3"))
        await until(lambda: len(mine.game.moves) == 2)
        await robo.run("takeback 2")  # granted: the first
        await until(lambda: len(mine.game.moves) == 0)
        assert len(server.games.by_number[mine.game.number].moves) == 0
        await robo.move(san_move("e4"))
        await until(lambda: len(mine.game.moves) == 2)
        await robo.run("takeback 2")  # refused: one was granted
        await until(lambda: _declined(caplog, "takeback"))
        await until(lambda: not _requests(server, mine.game.number))
        assert len(server.games.by_number[mine.game.number].moves) == 2
        await robo.run("resign")
        await until(robo.over)
    answers = [r.getMessage() for r in caplog.records if "takeback 2 offer" in r.getMessage()]
    assert [a.split(" takeback")[0] for a in answers] == ["game 1: accepting", "game 1: declining"]


@pytest.mark.parametrize("kind", ["abort", "adjourn"])
async def test_abort_and_adjourn_requests_follow_the_rules(
    server: Server, caplog: pytest.LogCaptureFixture, kind: str
) -> None:
    """Accepted in the ICC dialect, refused in FICS's (the rules say so)."""
    caplog.set_level(logging.INFO, "icswire.bot")
    await register(server, "Yes", "No", "Robo")
    allow = OfferRules(abort=True, adjourn=True)
    refuse = OfferRules(abort=False, adjourn=False)
    yes = bot_config(server, "Yes", stockfish(), dialect="icc", offers=allow)
    no = bot_config(server, "No", stockfish(), dialect="fics", offers=refuse)
    async with running(yes), running(no), robot(server, "Robo") as robo:
        for name, accepted in (("No", False), ("Yes", True)):
            await robo.run(f"match {name} 1 0 unrated white")
            await until(robo.game)
            mine = robo.game()
            assert mine is not None
            await robo.move(san_move("e4"))
            await until(lambda: len(mine.game.moves) == 2)  # noqa: B023
            await robo.run(kind)
            if accepted:
                await until(lambda: mine.game.result is not None)  # noqa: B023
                words = "aborted" if kind == "abort" else "adjourned"
                assert words in (mine.game.result_description or "").lower()
            else:
                await until(lambda: _declined(caplog, kind))
                await robo.run("resign")
            await until(lambda: robo.game() is None)


def _declined(caplog: pytest.LogCaptureFixture, kind: str) -> bool:
    return any(f"declining {kind}" in r.getMessage() for r in caplog.records)


def _requests(server: Server, number: int) -> bool:
    """Whether a request stands in the server's game ``number``."""
    return bool(server.games.by_number[number].requests)


@pytest.mark.parametrize("bot_dialect", ["fics", "icc"])
async def test_the_bot_offers_a_draw_and_resigns_by_its_evaluation(
    server: Server, caplog: pytest.LogCaptureFixture, bot_dialect: str
) -> None:
    """Rules any evaluation meets: a draw offered after its first move (the robot takes
    it), then, in the next game, a resignation instead of its first move."""
    caplog.set_level(logging.INFO, "icswire.bot")
    await register(server, "Drawer", "Quitter", "Robo")
    offers = DrawRules(offer_after=0, offer_within=100_000, offer_for=1)
    drawer = bot_config(server, "Drawer", stockfish(), dialect=bot_dialect, draw=offers)
    gives_up = ResignRules(below=100_000, moves=1)
    quitter = bot_config(server, "Quitter", stockfish(), dialect=bot_dialect, resign=gives_up)
    async with running(drawer), running(quitter), robot(server, "Robo", "fics") as robo:
        await robo.run("match Drawer 1 0 unrated white")
        await until(robo.game)
        await robo.move(san_move("e4"))
        await until(lambda: any(o.type == "draw" for o in robo.state.pending.values()))
        mine = robo.game()
        assert mine is not None and len(mine.game.moves) == 2  # offered with its move
        await robo.run("accept draw")
        await until(robo.over)
        assert mine.game.result == "1/2-1/2"
        await robo.run("match Quitter 1 0 unrated white")
        await until(lambda: robo.game() is not None)
        await robo.move(san_move("e4"))
        await until(lambda: robo.game() is None)
        last = robo.state.finished[-1].game
        assert (last.result, last.moves[-1].san) == ("1-0", "e4")
    messages = [r.getMessage() for r in caplog.records]
    assert "game 1: offering a draw (evaluation" in " ".join(messages)
    assert any(m.startswith("game 1: resigning (evaluation") for m in messages)
