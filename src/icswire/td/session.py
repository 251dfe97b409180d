"""The TD's loop: one logged-in connection (:func:`icswire.client.connect`, either
dialect) and one tournament (:class:`~icswire.td.model.Tournament`, saved as JSON after
every change, so that a TD started again carries on where it stopped).

What it does, each time an event wakes it (or every :data:`IDLE_WAKE` seconds):

1. tells (``join``, ``withdraw``, ``standings``, ``crosstable``, ``pairings``,
   ``berserk``, ``help``; a manager's ``start``) are answered;
2. games: a game between two paired players starts (ICC: DG_GAME_STARTED; FICS: the
   ``{Game N (A vs. B) Creating ...}`` line of ``set gin 1``) and is observed, for its
   PGN; it ends (DG_GAME_RESULT; the ``{Game N (A vs. B) ...} 1-0`` line): the result is
   recorded, or, adjourned or aborted (``*``), the match is made again. A match that
   did not start is made again every :data:`MATCH_AGAIN` seconds; a paired player who
   has not started within ``forfeit_after`` seconds (gone, or refusing) forfeits;
3. entries close ``start_after`` seconds after it logged in (or at a manager's
   ``start``) with ``min_players``; a round is paired when the one before is over
   (``rmatch`` on FICS, ``qmatch`` on ICC, each game's event label "NAME, round R");
   an arena pairs whoever waits until its clock ends;
4. at the end: the final standings in the channel, the event removed.

The event is posted with ``qaddevent`` (a FICS server answers "Command not found": the
TD goes on without) and announced in its channel (``tell CHANNEL``).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import deque
from pathlib import Path
from typing import Any, Final

from icswire.boards.game import parse_game_end
from icswire.client.pgnfiles import save_game
from icswire.client.robot import Robot
from icswire.protocol.datagrams import DG
from icswire.protocol.events import Text
from icswire.td import director
from icswire.td.config import TdConfig
from icswire.td.model import Pairing, Tournament, load, save
from icswire.td.scores import crosstable, standings_text

__all__ = ["HELP", "TdSession", "run_td"]

log = logging.getLogger("icswire.td")

IDLE_WAKE: Final = 1.0
#: Seconds after which a match that did not start is made again (until the forfeit).
MATCH_AGAIN: Final = 5.0
HELP: Final = "commands: join, withdraw, standings, crosstable, pairings, berserk (arena), help"
#: ``spgn`` of a game not observed: tries, and seconds between them.
PGN_TRIES: Final = 20
PGN_AGAIN: Final = 0.1
_GAME_START: Final = "Creating"


async def run_td(config: TdConfig, *, stop: asyncio.Event | None = None) -> Tournament:
    """Run the tournament to its end (or until ``stop``); the tournament."""
    session = TdSession(config)
    await session.run(stop)
    return session.tournament


class TdSession(Robot):
    """One TD on one server: see the module's docstring."""

    who = "the TD"
    idle_wake = IDLE_WAKE
    _log = log

    def __init__(self, config: TdConfig) -> None:
        super().__init__()
        self.config = config
        self.site = f"{config.host}:{config.port}"
        saved = load(config.state_file)
        self.tournament = saved or Tournament(
            config.name,
            kind=config.kind,
            rounds=config.rounds,
            minutes=config.minutes,
            increment=config.increment,
            rated=config.rated,
            duration=config.duration,
        )
        if saved is not None:
            log.info(
                "carrying on %s from %s (round %d)", saved.name, config.state_file, saved.round
            )
        #: Games started and ended, in the order the server told them: (True, number,
        #: white, black, "") for a start, (False, number, white, black, score) for an end.
        #: One queue, so that a game's end is taken before a later game that reuses its
        #: number starts (an arena pairs again at once).
        self._games: deque[tuple[bool, int, str, str, str]] = deque()
        self._paired_at: dict[int, float] = {}  # id(Pairing) -> when it was paired
        self._asked_at: dict[int, float] = {}  # id(Pairing) -> when its match was made
        self._saved_pgn: set[int] = set()
        self._pgn_fetched: set[int] = set()  # id(Pairing) of games saved from ``spgn``
        self._since = time.monotonic()
        self._round_done_at: float | None = None
        self._start_now = False

    # -- life cycle ----------------------------------------------------------------------

    async def run(self, stop: asyncio.Event | None = None) -> None:
        config = self.config
        await self._log_in(
            config.host, config.port, config.user, config.password, dialect=config.dialect
        )
        log.info("logged in to %s as %s (%s dialect)", self.site, self.ics.name, config.dialect)
        reader = asyncio.create_task(self._read())
        try:
            await self._settle_in()
            self.logged_in.set()
            while not self._closed and not self.tournament.finished:
                await self._step()
                if self.tournament.finished:
                    await self._finish()
                    break
                await self._sleep(stop)
                if stop is not None and stop.is_set():
                    log.info("stopping: asked to (the state is saved)")
                    break
        finally:
            self._save()
            await self._close(reader)

    async def _settle_in(self) -> None:
        if self.config.dialect == "fics":
            await self._run("set gin 1")  # every game's start and end line
            await self._run("iset pin 1")
        if self.tournament.finished:
            return
        t = self.tournament
        description = f"{t.name}: {_terms(t)}"
        me = self.ics.name
        answer = await self._run(
            f"qaddevent {self.config.event_index} 0 {description} | tell {me} join"
            f" | | tell {me} standings | "
        )
        said = " ".join(answer)
        if "not found" in said.lower():
            log.info("qaddevent: not a command here; the channel announcement will do")
        else:
            log.info("qaddevent: %s", said or "done")
        if not t.started:
            await self._announce(f"{description}. To play: tell {me} join")
        for game in t.playing():  # after a restart
            await self._carry_on(game)

    async def _carry_on(self, game: Pairing) -> None:
        """A game paired before a restart: followed on if ``getgi`` (lasker's line
        ``*getgi PLAYER WHITE BLACK N ...*``) says it is still being played, else (not
        begun, or ended while the TD was away, its result unknown) matched again."""
        answer = " ".join(await self._run(f"getgi {game.white}")) if game.game else ""
        words = answer.strip("*").split()
        if (
            len(words) >= 5
            and words[0] == "getgi"
            and words[2].lower() == game.white.lower()
            and words[3].lower() == game.black.lower()
            and words[4].isdigit()
        ):
            game.game = int(words[4])
            log.info("game %d (%s - %s) goes on", game.game, game.white, game.black)
            await self._run(f"observe {game.game}")
            return
        game.game = 0
        await self._make_match(game)

    async def _finish(self) -> None:
        t = self.tournament
        log.info("%s is over", t.name)
        self._write_results()
        lines = standings_text(t)
        await self._announce(f"{t.name} is over. Final standings:")
        for line in lines[1:4]:
            await self._announce(line)
        await self._run(f"qremoveevent {self.config.event_index}")

    def _heard(self, event: Any, told: bool) -> None:
        """Games started and ended: DG_GAME_STARTED / DG_GAME_RESULT, FICS's ``{Game``
        lines (``gin``)."""
        dg = getattr(event, "dg", None)
        if dg == DG.GAME_STARTED and event.played_game:
            self._games.append((True, event.gamenumber, event.whitename, event.blackname, ""))
        elif dg == DG.GAME_RESULT and not event.become_examined:
            self._games.append((False, event.gamenumber, "", "", event.score))
        elif isinstance(event, Text) and event.text.startswith("{Game "):
            self._fics_game_line(event.text)

    def _fics_game_line(self, text: str) -> None:
        end = parse_game_end(text)
        if end is not None:
            number, white, black, _, score = end
            self._games.append((False, number, white, black, score))
            return
        head, _, rest = text.partition(") ")
        if rest.startswith(_GAME_START) and " vs. " in head:
            digits, names = head[len("{Game ") :].split(" (", 1)
            white, black = names.split(" vs. ")
            if digits.isdigit():
                self._games.append((True, int(digits), white, black, ""))

    # -- one look ------------------------------------------------------------------------

    async def _step(self) -> None:
        while self._tells:
            await self._told(*self._tells.popleft())
        while self._games:
            started, number, white, black, score = self._games.popleft()
            if started:
                await self._game_started(number, white, black)
            else:
                await self._game_ended(number, white, black, score)
        await self._save_pgns()
        await self._forfeits()
        await self._advance()

    async def _advance(self) -> None:
        t = self.tournament
        now = time.monotonic()
        if not t.started:
            due = self._start_now or now - self._since >= self.config.start_after
            if due and len(t.active()) >= self.config.min_players:
                director.start(t)
                log.info("%s starts with %d players", t.name, len(t.entrants))
                await self._announce(f"{t.name} starts: {len(t.entrants)} players.")
                await self._pair()
            return
        if t.kind == "arena":
            if time.time() >= t.ends_at and not t.playing():
                t.finished = True
                return
            await self._pair()
            return
        if director.round_over(t):
            if self._round_done_at is None:
                self._round_done_at = now
                if t.round:
                    self._write_results()
                    await self._announce(
                        f"Round {t.round} is over; standings: tell {self.ics.name} standings"
                    )
            if now - self._round_done_at >= self.config.round_delay or t.round == 0:
                self._round_done_at = None
                await self._pair()

    async def _pair(self) -> None:
        t = self.tournament
        if t.kind == "arena":
            busy = {n for g in t.playing() for n in (g.white, g.black)}
            waiting = [e.name for e in t.active() if e.name not in busy]
            games = director.new_games(t, waiting)
        else:
            games = director.next_round(t)
            if t.finished:
                return
            log.info("round %d: %d games", t.round, len(games))
            await self._announce(f"Round {t.round} of {t.name}:")
            for game in games:
                await self._announce(f"{game.white} - {game.black}")
            bye = t.byes.get(t.round)
            if bye is not None:
                await self._announce(f"{bye} has the bye (a point).")
        self._save()
        for game in games:
            await self._make_match(game)

    async def _make_match(self, game: Pairing) -> None:
        """The game's two match requests (the second accepts the first)."""
        t = self.tournament
        self._paired_at.setdefault(id(game), time.monotonic())
        self._asked_at[id(game)] = time.monotonic()
        command = "qmatch" if self.config.dialect == "icc" else "rmatch"
        rated = "rated" if t.rated else "unrated"
        label = self._label(game)
        terms = f"{t.minutes} {t.increment} {rated}"
        for line in (
            f"{command} {game.white} {game.black} {terms} white | {label}",
            f"{command} {game.black} {game.white} {terms} black | {label}",
        ):
            answer = await self._run(line)
            log.info("%s: %s", line, " / ".join(answer) or "no answer")
        for name, other in ((game.white, game.black), (game.black, game.white)):
            await self._run(f"tell {name} Round {game.round}: you play {other}; accept the match.")

    def _label(self, game: Pairing) -> str:
        """The game's event label (``games``, the PGN's Event tag)."""
        t = self.tournament
        return f"{t.name}, round {game.round}" if t.kind != "arena" else t.name

    async def _forfeits(self) -> None:
        now = time.monotonic()
        t = self.tournament
        for game in t.playing():
            if game.game:
                continue
            if t.kind == "arena" and time.time() >= t.ends_at:  # no game starts after the end
                t.games.remove(game)
                log.info("%s - %s: not started before the end, dropped", game.white, game.black)
                continue
            if now - self._paired_at.get(id(game), now) < self.config.forfeit_after:
                if now - self._asked_at.get(id(game), now) >= MATCH_AGAIN:
                    await self._make_match(game)  # refused (a game just over?): once more
                continue
            here = {p.lower() for p in self.ics.state.players}
            white_here = game.white.lower() in here
            black_here = game.black.lower() in here
            # both gone, or both here and not playing: both lose it
            result = "--" if white_here == black_here else "+-" if white_here else "-+"
            log.info("%s - %s: forfeit (%s)", game.white, game.black, result)
            director.record_result(self.tournament, game, result)
            await self._announce(f"{game.white} - {game.black}: {result} (forfeit)")
            self._save()

    # -- games ---------------------------------------------------------------------------

    async def _game_started(self, number: int, white: str, black: str) -> None:
        game = self.tournament.game_of(white)
        if game is None or (game.white.lower(), game.black.lower()) != (
            white.lower(),
            black.lower(),
        ):
            return
        game.game = number
        log.info("game %d started: %s - %s", number, white, black)
        self._save()
        await self._run(f"observe {number}")

    async def _game_ended(self, number: int, white: str, black: str, score: str) -> None:
        game = next((g for g in self.tournament.playing() if g.game == number), None)
        if game is None:
            return
        if score not in ("1-0", "0-1", "1/2-1/2"):  # adjourned or aborted: play it again
            log.info("game %d (%s - %s) ended %s: matching them again", number, white, black, score)
            game.game = 0
            await self._make_match(game)
            return
        plies = 0
        mine = next((m for m in reversed(self.ics.state.finished) if m.game.number == number), None)
        if mine is not None:
            plies = len(mine.game.moves)
        director.record_result(self.tournament, game, score, plies)
        log.info("game %d: %s - %s %s", number, game.white, game.black, score)
        if mine is None or not _same_players(mine.game, game):
            await self._fetch_pgn(game)
        await self._announce(f"{game.white} - {game.black} {score}")
        self._save()
        self._write_results()

    async def _fetch_pgn(self, game: Pairing) -> None:
        """A game that ended before the TD observed it (a quick resignation): its PGN as the
        server stored it (``spgn WHITE -1``, White's last game), if the server has it. A
        FICS end line may come before the game is stored: asked again a few times."""
        for _ in range(PGN_TRIES):
            lines = await self._run(f"spgn {game.white} -1")
            text = "\n".join(lines)
            if f'[White "{game.white}"]' in text and f'[Black "{game.black}"]' in text:
                break
            await asyncio.sleep(PGN_AGAIN)
        else:
            log.info("game %d: no PGN (spgn: %s)", game.game, " / ".join(lines[:1]) or "nothing")
            return
        self._pgn_fetched.add(id(game))
        stem = f"{time.strftime('%Y%m%d-%H%M%S')}-{game.white}-{game.black}-g{game.game}"
        path = Path(self.config.out_dir) / "pgn" / f"{stem}.pgn"
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text + "\n", encoding="utf-8")
        except OSError as exc:
            log.error("game %d: the PGN could not be saved: %s", game.game, exc)
        else:
            log.info("game %d: saved as %s (from spgn)", game.game, path)

    async def _save_pgns(self) -> None:
        out = Path(self.config.out_dir)
        for mine in self.ics.state.finished:
            game = mine.game
            if id(mine) in self._saved_pgn or game.result not in ("1-0", "0-1", "1/2-1/2"):
                continue
            self._saved_pgn.add(id(mine))
            paired = next(
                (
                    g
                    for g in reversed(self.tournament.games)
                    if g.game == game.number and (g.white, g.black) == (game.white, game.black)
                ),
                None,
            )
            if paired is None or id(paired) in self._pgn_fetched:
                continue
            if not game.tags.get("Event"):
                game.tags["Event"] = self._label(paired)
            try:
                path = save_game(out / "pgn", game, self.site)
            except OSError as exc:
                log.error("game %d: the PGN could not be saved: %s", game.number, exc)
            else:
                log.info("game %d: saved as %s", game.number, path)

    # -- tells ---------------------------------------------------------------------------

    async def _told(self, teller: str, text: str) -> None:
        t = self.tournament
        words = text.lower().split()
        command = words[0] if words else ""
        lines: list[str]
        if command == "join":
            lines = [director.join(t, teller, self._rating(teller))]
        elif command == "withdraw":
            lines = [director.withdraw(t, teller)]
        elif command == "standings":
            lines = standings_text(t)
        elif command == "crosstable":
            lines = crosstable(t) or ["No games yet."]
        elif command == "pairings":
            lines = [f"{g.white} - {g.black} {g.result or '*'}" for g in t.round_games(t.round)]
            lines = lines or ["No pairings yet."]
        elif command == "berserk" and t.kind == "arena":
            entrant = t.entrant(teller)
            if entrant is None:
                lines = ["Join first."]
            else:
                entrant.berserk = True
                lines = ["Berserk for your next game: a win scores one point more."]
        elif command == "start" and teller.lower() in (m.lower() for m in self.config.managers):
            self._start_now = True
            lines = ["Starting."]
        else:
            lines = [HELP]
        log.info("%s tells the TD: %s", teller, text)
        self._save()
        for line in lines:
            await self._run(f"tell {teller} {line}")

    def _rating(self, name: str) -> int:
        player = self.ics.state.players.get(name)
        if player is None:
            return 0
        for rating, _ in player.ratings.values():
            return int(rating)
        for rating, _ in player.fics_ratings.values():
            return int(rating)
        return 0

    # -- files ---------------------------------------------------------------------------

    def _save(self) -> None:
        try:
            save(self.tournament, self.config.state_file)
        except OSError as exc:
            log.error("the state could not be saved: %s", exc)

    def _write_results(self) -> None:
        t = self.tournament
        lines = [
            f"{t.name} ({t.kind}, {_terms(t)})",
            "",
            *standings_text(t),
            "",
            *crosstable(t),
            "",
        ]
        lines += [
            f"round {g.round}: {g.white} - {g.black} {g.result or '*'}"
            + (f" (game {g.game})" if g.game else "")
            for g in t.games
        ]
        lines += [f"round {r}: {name} bye" for r, name in sorted(t.byes.items())]
        path = Path(self.config.out_dir) / "results.txt"
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        except OSError as exc:
            log.error("the results could not be saved: %s", exc)

    # -- the wire ------------------------------------------------------------------------

    async def _announce(self, text: str) -> None:
        if self.config.channel:
            await self._run(f"tell {self.config.channel} {text}")


def _same_players(game: Any, paired: Pairing) -> bool:
    return bool(
        game.white.lower() == paired.white.lower() and game.black.lower() == paired.black.lower()
    )


def _terms(t: Tournament) -> str:
    what = {"swiss": f"Swiss, {t.rounds} rounds", "roundrobin": "round robin"}.get(
        t.kind, f"arena, {t.duration:g} minutes"
    )
    return f"{what}, {t.minutes} {t.increment} {'rated' if t.rated else 'unrated'}"
