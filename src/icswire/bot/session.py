"""The bot's loop: one logged-in connection (:func:`icswire.client.connect`, either
dialect) and one engine (:class:`~icswire.bot.engine.EnginePlayer`).

The client keeps the state (games, challenges, offers, seeks) from what the server sends;
the loop wakes at every event and brings the bot in line with it, in this order:

1. after a reconnection (the client logs in again by itself), it forgets what the server
   forgot and asks to resume its adjourned games (``resume``): icswire's server adjourns
   a game between two registered players when one's connection drops (other games are
   aborted before move 2, forfeited after); a game the server kept running comes back in
   the state and is played on. Either way the game continues with what the bot knew of
   it (its evaluations, the takebacks granted), as an adjourned game resumed does;
2. its owner's tells (:mod:`~icswire.bot.owner`);
3. its games (relation PW/PB): a new one is greeted (``say``); a finished one is saved as
   PGN (:mod:`~icswire.bot.pgnfiles`) and bidden farewell; the opponent's offers are
   answered by the rules (:mod:`~icswire.bot.offers`); when it is the bot's turn the
   engine thinks (one task per game, one search at a time) and the move goes out unless
   the position changed meanwhile; then it may resign, offer a draw, whisper its
   evaluation (:class:`~icswire.bot.rules.GameJudge`);
4. challenges (:mod:`~icswire.bot.challenges`): accepted, or declined with a tell saying
   why; an offer to resume one of its adjourned games is accepted while it has room;
5. seeks: posted while it has room for a game and is not paused or quitting, removed
   otherwise, posted again when a game ends.

Every decision is one line of the ``icswire.bot`` logger. ``stop`` (:func:`run_bot`)
logs out at once, leaving the games to the server; the owner's ``quit`` waits for them.
"""

from __future__ import annotations

import asyncio
import contextlib
import enum
import logging
from typing import Any, Final

from icswire.boards.variants import UnsupportedVariantError
from icswire.bot.challenges import Challenge, challenges_to
from icswire.bot.config import BotConfig
from icswire.bot.engine import Choice, EngineError, EnginePlayer
from icswire.bot.games import (
    GameRun,
    clocks_of,
    fresh_board,
    full_moves,
    is_my_turn,
    kibitz_text,
    score_text,
    wire_move,
)
from icswire.bot.offers import Offer, offers_to_me
from icswire.bot.owner import HELP, Command, parse_command
from icswire.bot.pgnfiles import save_game
from icswire.bot.rules import GameJudge, answers_takeback, judge_challenge
from icswire.bot.seeks import seek_command
from icswire.client.robot import Robot
from icswire.client.state import MyGame
from icswire.protocol.events import Text

__all__ = ["BotSession", "run_bot"]

log = logging.getLogger("icswire.bot")

IDLE_WAKE: Final = 5.0
#: Results a game is saved with: finished games, as the server's history keeps them.
RESULTS: Final = ("1-0", "0-1", "1/2-1/2")
#: Seconds a failed engine is given to quit before another is started.
ENGINE_CLOSE: Final = 5.0


class Leaving(enum.Enum):
    """Whether and how the bot is leaving."""

    STAYING = "staying"
    AFTER_GAMES = "after its games"
    NOW = "now"


async def run_bot(config: BotConfig, *, stop: asyncio.Event | None = None) -> None:
    """Run one bot until ``stop`` is set, its owner tells it ``quit``, or the connection
    ends for good. The engine starts first (:class:`~icswire.bot.engine.EngineError` if
    it cannot), then the login (:class:`~icswire.client.LoginError` if refused)."""
    session = BotSession(config, await EnginePlayer.open(config.engine))
    try:
        await session.run(stop)
    finally:
        await session.engine.close()


class BotSession(Robot):
    """One bot on one server: see the module's docstring."""

    who = "the bot"
    idle_wake = IDLE_WAKE
    _log = log

    def __init__(self, config: BotConfig, engine: EnginePlayer) -> None:
        super().__init__()
        self.config = config
        self.engine = engine
        self.dialect = config.dialect
        self.site = f"{config.host}:{config.port}"
        self.paused = False
        self.leaving = Leaving.STAYING
        self.runs: dict[int, GameRun] = {}
        self.games_played = 0
        self.seeking = False
        self._answered: set[object] = set()  # challenges answered (their keys)
        #: Games adjourned or cut off with the connection, by (white, black) lowercase.
        self._interrupted: dict[tuple[str, str], GameRun] = {}
        self._search = asyncio.Lock()  # one search at a time on the engine
        self._reconnects = 0
        self._resigned_all = False

    # -- life cycle ----------------------------------------------------------------------

    async def run(self, stop: asyncio.Event | None = None) -> None:
        """Log in, play until told to stop, log out."""
        config = self.config
        await self._log_in(
            config.host,
            config.port,
            config.user,
            config.password,
            reconnect=config.reconnect,
            dialect=config.dialect,
        )
        log.info(
            "logged in to %s as %s (%s dialect), engine %s",
            self.site,
            self.ics.name,
            self.dialect,
            self.engine.name,
        )
        self.logged_in.set()
        reader = asyncio.create_task(self._read())
        try:
            await self._settle_in()
            while True:
                await self._step()
                if self._done():
                    break
                await self._sleep(stop)
                if stop is not None and stop.is_set():
                    log.info("stopping: asked to")
                    break
        finally:
            for run in self.runs.values():
                if run.thinking is not None:
                    run.thinking.cancel()
            await self._close(reader)
            log.info("logged out of %s after %d game(s)", self.site, self.games_played)

    def _done(self) -> bool:
        if self._closed:
            log.warning("the connection to %s ended", self.site)
            return True
        if self.leaving is not Leaving.STAYING and not self._active():
            log.info("leaving: no game in progress")
            return True
        return False

    def _heard(self, event: Any, told: bool) -> None:
        """Refusals of moves are logged."""
        if not told and isinstance(event, Text) and event.text.startswith("Illegal move"):
            log.warning("the server refused a move: %s", event.text)

    # -- one look at the state -----------------------------------------------------------

    async def _step(self) -> None:
        if self.ics.reconnects != self._reconnects:
            self._reconnects = self.ics.reconnects
            await self._reconnected()
        while self._tells:
            await self._told(*self._tells.popleft())
        await self._follow_games()
        await self._answer_challenges()
        await self._keep_seeks()

    async def _reconnected(self) -> None:
        log.info("reconnected to %s as %s", self.site, self.ics.name)
        self.seeking = False
        self._answered.clear()
        await self._settle_in()

    async def _settle_in(self) -> None:
        """Once logged in: on FICS, arrivals as ``<wa>`` lines (``iset pin``), whose
        title flags tell guests from registered players; then a registered bot asks to
        resume its adjourned games (with whoever of its opponents is here)."""
        if self.dialect == "fics":
            await self._run("iset pin 1")
        if self.config.password is None or self.leaving is not Leaving.STAYING:
            return
        answer = await self._run("resume")
        if answer:
            log.info("resume: %s", answer[0])

    # -- games ---------------------------------------------------------------------------

    def _active(self) -> list[GameRun]:
        return [run for run in self.runs.values() if not run.ended]

    async def _follow_games(self) -> None:
        state = self.ics.state
        for number, mine in list(state.my_games.items()):
            run = self.runs.get(number)
            if mine.relation not in ("PW", "PB") or (run is not None and run.mine is mine):
                continue
            if run is not None:
                await self._gone(run)
            await self._started(mine)
        for run in list(self.runs.values()):
            if run.mine.game.result is not None and not run.ended:
                await self._finished(run)
            if state.my_games.get(run.number) is not run.mine:
                await self._gone(run)
        if self.leaving is Leaving.NOW and not self._resigned_all:
            self._resigned_all = True
            for run in self._active():
                early = len(run.mine.game.moves) < 2  # a game not begun is aborted
                log.info(
                    "game %d: %s (told to quit now)",
                    run.number,
                    "aborting" if early else "resigning",
                )
                await self._run("abort" if early else "resign")
        for run in self._active():
            await self._answer_offers(run)
            self._maybe_think(run)

    async def _started(self, mine: MyGame) -> None:
        game = mine.game
        self.seeking = False  # the server takes a player's seeks off when a game starts
        before = self._interrupted.pop((game.white.lower(), game.black.lower()), None)
        if before is not None:  # resumed, or still running after a reconnection
            run = GameRun(mine, before.judge, before.takebacks_granted, last=before.last)
            self.runs[game.number] = run
            log.info(
                "game %d continues: %s vs %s at move %d, the bot plays %s",
                game.number,
                game.white,
                game.black,
                game.board.fullmove_number,  # (FICS: the moves before come later)
                "white" if run.white else "black",
            )
            return
        run = GameRun(mine, GameJudge(self.config.draw, self.config.resign))
        self.runs[game.number] = run
        kind = f"{'rated' if game.rated else 'unrated'} {game.rating_type or 'game'}"
        log.info(
            "game %d started: %s vs %s, %s %s+%s, %s, the bot plays %s",
            game.number,
            game.white,
            game.black,
            kind,
            game.initial_minutes,
            game.increment_seconds,
            game.variant.name if game.variant is not None else f"wild {game.wild}",
            "white" if run.white else "black",
        )
        if self.config.greeting:
            await self._run(f"say {self.config.greeting}")

    async def _finished(self, run: GameRun) -> None:
        run.ended = True
        game = run.mine.game
        log.info(
            "game %d ended: %s vs %s %s (%s)",
            run.number,
            game.white,
            game.black,
            game.result,
            game.result_description or "no reason given",
        )
        if game.result not in RESULTS:  # aborted, or adjourned: to be resumed
            if "adjourn" in (game.result_description or "").lower():
                self._interrupted[game.white.lower(), game.black.lower()] = run
            return
        self.games_played += 1
        if self.config.pgn_dir is not None:
            try:
                path = save_game(self.config.pgn_dir, game, self.site)
            except OSError as exc:
                log.error("game %d: the PGN could not be saved: %s", run.number, exc)
            else:
                log.info("game %d: saved as %s", run.number, path)
        if self.config.farewell:
            await self._run(f"say {self.config.farewell}")

    async def _gone(self, run: GameRun) -> None:
        """The game left the state: finished, or lost with the connection (then it is
        continued if it comes back, resumed or still running)."""
        if not run.ended:
            run.ended = True
            game = run.mine.game
            self._interrupted[game.white.lower(), game.black.lower()] = run
            log.info("game %d interrupted (the connection dropped)", run.number)
        if run.thinking is not None:
            run.thinking.cancel()
        self.runs.pop(run.number, None)

    # -- offers --------------------------------------------------------------------------

    async def _answer_offers(self, run: GameRun) -> None:
        offers = offers_to_me(run.mine, self.dialect)
        run.answered &= {offer.key for offer in offers}  # an offer gone may come again
        for offer in offers:
            if offer.key in run.answered:
                continue
            run.answered.add(offer.key)
            accept, why = self._judge_offer(run, offer)
            what = f"{offer.kind} {offer.plies}" if offer.kind == "takeback" else offer.kind
            log.info(
                "game %d: %s %s offer from %s (%s)",
                run.number,
                "accepting" if accept else "declining",
                what,
                run.opponent,
                why,
            )
            await self._run(offer.accept_command if accept else offer.decline_command)
            if accept:
                return  # accepting one declines the others

    def _judge_offer(self, run: GameRun, offer: Offer) -> tuple[bool, str]:
        rules = self.config.offers
        if offer.kind == "draw":
            last = score_text(run.last.score if run.last is not None else None)
            return run.judge.accepts_draw(), f"evaluation {last}"
        if offer.kind == "takeback":
            granted = run.takebacks_granted
            if answers_takeback(rules, granted):
                run.takebacks_granted += 1
                return True, f"takeback {granted + 1} of {rules.takebacks}"
            return False, f"{granted} of {rules.takebacks} takebacks granted"
        if offer.kind == "abort":
            return rules.abort, "aborts are accepted" if rules.abort else "aborts are refused"
        if offer.kind == "adjourn":
            yes = rules.adjourn
            return yes, "adjournments are accepted" if yes else "adjournments are refused"
        return False, f"the bot does not {offer.kind}"

    # -- moves ---------------------------------------------------------------------------

    def _maybe_think(self, run: GameRun) -> None:
        mine = run.mine
        if not is_my_turn(mine):
            return
        position = mine.game.board.fen()
        if position in (run.moved_in, run.thinking_in):
            return
        run.thinking_in = position
        run.thinking = asyncio.create_task(self._think(run, position))

    async def _think(self, run: GameRun, position: str) -> None:
        mine = run.mine
        try:
            await self._play(run, position)
        except EngineError as exc:
            log.error("game %d: the engine failed again (%s): resigning", run.number, exc)
            if self._still(run, position):
                await self._run("resign")
        finally:
            if run.thinking_in == position:
                run.thinking_in = None
            if self.ics.state.my_games.get(mine.game.number) is mine:
                self._wake.set()

    def _still(self, run: GameRun, position: str) -> bool:
        """Whether the game is going on at ``position`` with the bot to move."""
        mine = run.mine
        return (
            self.ics.state.my_games.get(mine.game.number) is mine
            and not run.ended
            and is_my_turn(mine)
            and mine.game.board.fen() == position
        )

    async def _play(self, run: GameRun, position: str) -> None:
        mine = run.mine
        if fresh_board(mine).can_claim_draw() and run.judge.accepts_draw():
            log.info("game %d: claiming a draw (repetition or 50 moves)", run.number)
            await self._run("draw")  # the game ends, or goes on if the server disagrees
        async with self._search:
            if not self._still(run, position):
                return
            choice = await self._choose(mine)
        if not self._still(run, position):
            log.info("game %d: the position changed while thinking; thinking again", run.number)
            return
        board = fresh_board(mine)
        run.last = choice
        run.judge.record(full_moves(mine), choice.score)
        if run.judge.should_resign():
            log.info("game %d: resigning (evaluation %s)", run.number, score_text(choice.score))
            run.moved_in = position
            await self._run("resign")
            return
        move = wire_move(board, choice.move)
        run.moved_in = position
        await self._send(move)
        log.debug(
            "game %d: played %s (%s, %s)",
            run.number,
            move,
            choice.source,
            score_text(choice.score),
        )
        if self.config.kibitz:
            await self._send(f"whisper {kibitz_text(board, choice, self.engine.name)}")
        if run.judge.should_offer_draw():
            evaluation = score_text(choice.score)
            log.info("game %d: offering a draw (evaluation %s)", run.number, evaluation)
            await self._send("draw")

    async def _choose(self, mine: MyGame) -> Choice:
        """The engine's move; an engine that fails is started again and asked once more
        (:class:`~icswire.bot.engine.EngineError` if it fails again)."""
        game = mine.game  # keys the engine's game: one for each of the server's
        try:
            return await self.engine.choose(fresh_board(mine), clocks_of(mine), game=game)
        except EngineError as exc:
            log.warning("game %d: the engine failed (%s): starting it again", game.number, exc)
        with contextlib.suppress(EngineError, OSError, TimeoutError):
            await asyncio.wait_for(self.engine.close(), ENGINE_CLOSE)
        self.engine = await EnginePlayer.open(self.config.engine)
        return await self.engine.choose(fresh_board(mine), clocks_of(mine), game=game)

    # -- challenges ----------------------------------------------------------------------

    async def _answer_challenges(self) -> None:
        standing = challenges_to(self.ics.state, self.dialect)
        self._answered &= {challenge.key for challenge in standing}
        for challenge in standing:
            if challenge.key in self._answered:
                continue
            self._answered.add(challenge.key)
            await self._answer(challenge)

    async def _answer(self, challenge: Challenge) -> None:
        facts = challenge.facts
        reason = self._judge_challenge(challenge)
        terms = (
            f"{'rated' if facts.rated else 'unrated'} {facts.variant or 'unknown variant'}"
            f" {facts.base:g}+{facts.increment}{' (adjourned)' if challenge.adjourned else ''}"
        )
        if reason is None:
            log.info("accepting the challenge of %s: %s", facts.opponent, terms)
            await self._run(challenge.accept_command)
            return
        log.info("declining the challenge of %s: %s (%s)", facts.opponent, terms, reason)
        await self._run(f"tell {facts.opponent} {reason}")
        await self._run(challenge.decline_command)

    def _judge_challenge(self, challenge: Challenge) -> str | None:
        """None to accept, else the reason said to the challenger."""
        if self.leaving is not Leaving.STAYING:
            return "Sorry, I am logging off."
        games_now = len(self._active())
        if challenge.adjourned:  # one of its own games: played on whatever the rules say
            if games_now >= self.config.challenges.max_games:
                return "Sorry, I have no room for another game now; ask me again later."
            return None
        if self.paused:
            return "Sorry, I am not taking games now."
        facts = challenge.facts
        return judge_challenge(
            self.config.challenges, facts, games_now, self._engine_plays(facts.variant)
        )

    def _engine_plays(self, variant: str | None) -> bool:
        if variant is None:
            return False
        try:
            return self.engine.plays_variant(variant)
        except (UnsupportedVariantError, ValueError):
            return False

    # -- seeks ---------------------------------------------------------------------------

    async def _keep_seeks(self) -> None:
        seeks = self.config.seeks
        room = len(self._active()) < self.config.challenges.max_games
        wanted = bool(seeks) and room and not self.paused and self.leaving is Leaving.STAYING
        if wanted and not self.seeking:
            self.seeking = True
            for seek in seeks:
                line = seek_command(seek, self.dialect)
                answer = await self._run(line)
                log.info("%s: %s", line, answer[0] if answer else "no answer")
        elif not wanted and self.seeking:
            self.seeking = False
            log.info("removing its seeks (%s)", "paused" if self.paused else "no room")
            await self._run("unseek")

    # -- the owner -----------------------------------------------------------------------

    async def _told(self, teller: str, text: str) -> None:
        owner = self.config.owner
        if owner is None or teller.lower() != owner.lower():
            log.info("%s tells the bot: %s", teller, text)
            return
        command = parse_command(text)
        log.info("the owner %s tells the bot: %s", teller, text)
        if command is Command.PAUSE:
            self.paused = True
            reply = "Paused: no new games; the games in progress go on."
        elif command is Command.RESUME:
            self.paused = False
            reply = "Taking games again."
        elif command is Command.QUIT:
            self.leaving = Leaving.AFTER_GAMES
            reply = "Leaving once my games are over."
        elif command is Command.QUIT_NOW:
            self.leaving = Leaving.NOW
            reply = "Resigning my games (aborting those not begun) and leaving now."
        elif command is Command.STATUS:
            reply = self.status()
        else:
            reply = HELP
        await self._run(f"tell {teller} {reply}")

    def status(self) -> str:
        """One line: what the bot is doing."""
        if self.leaving is not Leaving.STAYING:
            mode = f"leaving {self.leaving.value}"
        else:
            mode = "paused" if self.paused else "taking games"
        games = [
            f"game {run.number} vs {run.opponent} (move {full_moves(run.mine) + 1},"
            f" eval {score_text(run.last.score if run.last else None)})"
            for run in self._active()
        ]
        playing = "; ".join(games) if games else "no game in progress"
        seeking = ", seeking" if self.seeking else ""
        return f"{self.engine.name}: {mode}{seeking}; {playing}; {self.games_played} played."
