"""The bot's loop: one logged-in connection (:func:`icswire.client.connect`, either
dialect) and one engine (:class:`~icswire.bot.engine.EnginePlayer`).

The client keeps the state (games, challenges, offers, seeks) from what the server sends;
the loop wakes at every event and brings the bot in line with it, in this order:

1. after a reconnection (the client logs in again by itself), it forgets what the server
   forgot and asks to resume its adjourned games (``resume``): icswire's server adjourns
   a game between two registered players when one's connection drops (other games are
   aborted before move 2, forfeited after); a game the server kept running comes back in
   the state and is simply played on;
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

Every decision is one line of the ``icswire.bot`` logger.
"""

from __future__ import annotations

import asyncio
import contextlib
import enum
import logging
from collections import deque
from collections.abc import Sequence
from typing import Any, Final

from icswire.boards.variants import UnsupportedVariantError, variant_of
from icswire.bot.challenges import Challenge, challenges_to
from icswire.bot.config import BotConfig
from icswire.bot.engine import EngineError, EnginePlayer
from icswire.bot.games import (
    GameRun,
    clocks_of,
    full_moves,
    is_my_turn,
    kibitz_text,
    score_text,
    wire_move,
)
from icswire.bot.offers import Offer, offers_to_me
from icswire.bot.owner import HELP, Command, parse_command, tell_of
from icswire.bot.pgnfiles import save_game
from icswire.bot.rules import GameJudge, answers_takeback, judge_challenge
from icswire.bot.seeks import seek_command
from icswire.client import Connection, connect
from icswire.client.state import MyGame
from icswire.protocol.events import Text

__all__ = ["BotSession", "run_bot"]

log = logging.getLogger("icswire.bot")

#: The longest the loop sleeps without an event (it then looks at the state again).
IDLE_WAKE: Final = 5.0
#: Results a game is saved with: finished games, as the server's history keeps them.
RESULTS: Final = ("1-0", "0-1", "1/2-1/2")
#: What a command that got no answer, or a connection that dropped under it, raises.
_COMMAND_ERRORS: Final = (TimeoutError, ConnectionError, OSError, RuntimeError)


class Leaving(enum.Enum):
    """Whether and how the bot is leaving."""

    STAYING = "staying"
    AFTER_GAMES = "after its games"
    NOW = "now"


async def run_bot(config: BotConfig, *, stop: asyncio.Event | None = None) -> None:
    """Run one bot until ``stop`` is set, its owner tells it ``quit``, or the connection
    ends for good. The engine starts first (:class:`~icswire.bot.engine.EngineError` if
    it cannot), then the login (:class:`~icswire.client.LoginError` if refused)."""
    engine = await EnginePlayer.open(config.engine)
    try:
        await BotSession(config, engine).run(stop)
    finally:
        await engine.close()


class BotSession:
    """One bot on one server: see the module's docstring."""

    def __init__(self, config: BotConfig, engine: EnginePlayer) -> None:
        self.config = config
        self.engine = engine
        self.dialect = config.dialect
        self.site = f"{config.host}:{config.port}"
        self.paused = False
        self.leaving = Leaving.STAYING
        self.runs: dict[int, GameRun] = {}
        self.games_played = 0
        self.seeking = False
        self._ics: Connection | None = None
        self._wake = asyncio.Event()
        self._tells: deque[tuple[str, str]] = deque()
        self._answered: set[object] = set()  # challenges answered (their keys)
        self._search = asyncio.Lock()  # one search at a time on the engine
        self._reconnects = 0
        self._closed = False
        self._resigned_all = False

    # -- life cycle ----------------------------------------------------------------------

    @property
    def ics(self) -> Connection:
        if self._ics is None:
            raise RuntimeError("the bot is not connected")
        return self._ics

    async def run(self, stop: asyncio.Event | None = None) -> None:
        """Log in, play until told to stop, log out."""
        config = self.config
        self._ics = connect(
            config.host,
            config.port,
            config.user,
            config.password,
            reconnect=config.reconnect,
            dialect=config.dialect,
        )
        await self._ics.open()
        log.info(
            "logged in to %s as %s (%s dialect), engine %s",
            self.site,
            self.ics.name,
            self.dialect,
            self.engine.name,
        )
        reader = asyncio.create_task(self._read())
        try:
            await self._resume_adjourned()
            while True:
                await self._step()
                if self._done():
                    break
                await self._sleep(stop)
                if stop is not None and stop.is_set():
                    log.info("stopping: asked to")
                    break
        finally:
            reader.cancel()
            for run in self.runs.values():
                if run.thinking is not None:
                    run.thinking.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await reader
            await self.ics.close()
            log.info("logged out of %s after %d game(s)", self.site, self.games_played)

    def _done(self) -> bool:
        if self._closed:
            log.warning("the connection to %s ended", self.site)
            return True
        if self.leaving is not Leaving.STAYING and not self._active():
            log.info("leaving: no game in progress")
            return True
        return False

    async def _sleep(self, stop: asyncio.Event | None) -> None:
        """Until an event comes (or ``stop``, or :data:`IDLE_WAKE` seconds)."""
        waits = [asyncio.ensure_future(self._wake.wait())]
        if stop is not None:
            waits.append(asyncio.ensure_future(stop.wait()))
        try:
            await asyncio.wait(waits, timeout=IDLE_WAKE, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for waiting in waits:
                waiting.cancel()
        self._wake.clear()

    async def _read(self) -> None:
        """Every event wakes the loop; tells are kept for it, refusals of moves logged."""
        async for event in self.ics.events():
            told = tell_of(event)
            if told is not None:
                self._tells.append(told)
            elif isinstance(event, Text) and event.text.startswith("Illegal move"):
                log.warning("the server refused a move: %s", event.text)
            self._wake.set()
        self._closed = True
        self._wake.set()

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
        await self._resume_adjourned()

    async def _resume_adjourned(self) -> None:
        """A registered bot asks to resume its adjourned games (with whoever is here)."""
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
                log.info("game %d: resigning (told to quit now)", run.number)
                await self._run("resign")
        for run in self._active():
            await self._answer_offers(run)
            self._maybe_think(run)

    async def _started(self, mine: MyGame) -> None:
        game = mine.game
        run = GameRun(mine, GameJudge(self.config.draw, self.config.resign))
        self.runs[game.number] = run
        self.seeking = False  # the server takes a player's seeks off when a game starts
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
        with contextlib.suppress(*_COMMAND_ERRORS):
            await self.engine.new_game()
        if self.config.greeting:
            await self._run(f"say {self.config.greeting}")

    async def _finished(self, run: GameRun) -> None:
        run.ended = True
        self.games_played += 1
        game = run.mine.game
        log.info(
            "game %d ended: %s vs %s %s (%s)",
            run.number,
            game.white,
            game.black,
            game.result,
            game.result_description or "no reason given",
        )
        if self.config.pgn_dir is not None and game.result in RESULTS:
            try:
                path = save_game(self.config.pgn_dir, game, self.site)
            except OSError as exc:
                log.error("game %d: the PGN could not be saved: %s", run.number, exc)
            else:
                log.info("game %d: saved as %s", run.number, path)
        if self.config.farewell:
            await self._run(f"say {self.config.farewell}")

    async def _gone(self, run: GameRun) -> None:
        """The game left the state: finished, or lost with the connection."""
        if not run.ended:
            run.ended = True
            log.info("game %d interrupted (the connection dropped)", run.number)
        if run.thinking is not None:
            run.thinking.cancel()
        self.runs.pop(run.number, None)

    # -- offers --------------------------------------------------------------------------

    async def _answer_offers(self, run: GameRun) -> None:
        for offer in offers_to_me(run.mine, self.dialect):
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
            log.error("game %d: the engine failed (%s): resigning", run.number, exc)
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
        board = mine.game.board.copy()
        if board.can_claim_draw() and run.judge.accepts_draw():
            log.info("game %d: claiming a draw (repetition or 50 moves)", run.number)
            await self._run("draw")  # the game ends, or goes on if the server disagrees
        async with self._search:
            if not self._still(run, position):
                return
            choice = await self.engine.choose(board, clocks_of(mine))
        if not self._still(run, position):
            log.info("game %d: the position changed while thinking; thinking again", run.number)
            return
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
            board = variant_of(variant).new_board()
        except (UnsupportedVariantError, ValueError):
            return False
        return self.engine.plays(board)

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
            reply = "Resigning my games and leaving now."
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

    # -- talking to the server -----------------------------------------------------------

    async def _run(self, command: str) -> list[str]:
        """Run ``command``; its lines of text (none when the connection failed)."""
        try:
            events: Sequence[Any] = await self.ics.run(command)
        except _COMMAND_ERRORS as exc:
            log.warning("%r got no answer: %s", command, exc or type(exc).__name__)
            return []
        return [e.text for e in events if isinstance(e, Text) and e.text]

    async def _send(self, line: str) -> None:
        """Send ``line`` without waiting for its answer (a move)."""
        try:
            await self.ics.send(line)
        except _COMMAND_ERRORS as exc:
            log.warning("%r was not sent: %s", line, exc or type(exc).__name__)
