"""People: ``who``, ``finger``, ``ratings`` and ``uptime``.

``who`` takes FICS's flags (help ``who``: which players, in which order, in which
format, plus ``I``: the ``<wa>`` form FICS interfaces ask for); ``finger`` shows a
player's ratings per type with RD, results and best, how long he is on and idle (or when
he last disconnected), timeseal, and his notes (``set 1`` .. ``set 10``), for players not
logged in too. An ICC session gets ICC's layout where ICC's differs.
"""

from __future__ import annotations

import asyncio
import math
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from icswire.protocol.level1 import CommandNumber as CN
from icswire.server.core.dispatch.hub import CommandSet, Context
from icswire.server.core.dispatch.numbers import is_digits
from icswire.server.core.model.names import name_key
from icswire.server.core.model.ratings import PROVISIONAL_GAMES
from icswire.server.core.model.titles import held, marks, title_field
from icswire.server.core.model.variables import NOTES
from icswire.server.core.model.zones import local
from icswire.server.core.render.alerts import highlighted
from icswire.server.core.render.people import (
    FINGER_FILTERS,
    columns,
    finger_rows,
    icc_finger_rows,
    plural,
    rating_of,
    ratstr,
    short_span,
    span_text,
    status_symbol,
    when_text,
)
from icswire.server.core.render.presence import arrival_line
from icswire.server.core.storage import jobs
from icswire.server.core.storage.records import RatingRecord

if TYPE_CHECKING:
    from icswire.server.core.dispatch.hub import Core
    from icswire.server.core.model.tables import Table
    from icswire.server.core.model.users import User
    from icswire.server.core.render.batch import Batch

COMMANDS = CommandSet()
command = COMMANDS.command

WHO_USAGE = "who [o][r][f][a][R][U][s][b][L][w][z][B][A][l][t][v][n][I][1-3]"
#: ``who``'s sort letters: the rating type each sorts by.
WHO_SORTS = {
    "b": "Blitz",
    "s": "Standard",
    "L": "Bullet",
    "w": "Wild",
    "z": "Crazyhouse",
    "B": "Bughouse",
    "S": "Suicide",
    "x": "Atomic",
}
#: ``who``'s selection letters.
WHO_SELECTS = frozenset("orfaRU")


@dataclass
class Uptime:
    """When the server started and the most players and games it has had since."""

    started: datetime = field(default_factory=lambda: datetime.now(UTC))
    started_clock: float = field(default_factory=time.monotonic)
    player_high: int = 0
    game_high: int = 0


# -- who -------------------------------------------------------------------------------------


@dataclass
class WhoRequest:
    """What ``who``'s flags asked for."""

    select: set[str] = field(default_factory=set)
    sort: str | None = "Blitz"  # a rating type; None alphabetical
    shown: str | None = "Blitz"  # the rating shown; None for none (``l``)
    style: str = "t"  # t terse, v verbose, n win-loss, I interface lines
    part: tuple[float, float] = (0.0, 1.0)


def parse_who(flags: str) -> WhoRequest | None:
    """FICS's ``com_who`` reading of the flags; None when they make no sense."""
    request = WhoRequest()
    text = flags.replace(" ", "")
    for index, letter in enumerate(text):
        if is_digits(letter):
            digit = int(letter)
            previous = text[index - 1] if index else ""
            if is_digits(previous):  # "ij": the i-th of j parts
                if digit == 0 or int(previous) > digit:
                    return None
                request.part = ((int(previous) - 1) / digit, int(previous) / digit)
            elif digit in (1, 2, 3):
                request.part = ((digit - 1) / 3, digit / 3)
            elif index == len(text) - 1 or not is_digits(text[index + 1]):
                return None
        elif letter in WHO_SELECTS:
            request.select |= {"o", "f"} if letter == "a" else {letter}
        elif letter in WHO_SORTS:
            request.sort = request.shown = WHO_SORTS[letter]
        elif letter == "A":
            request.sort = None
        elif letter == "l":
            request.sort = request.shown = None
        elif letter in "tvnI":
            request.style = letter
        else:
            return None
    return request


def _chosen(core: Core, player: User, select: set[str]) -> bool:
    """lasker's ``who_ok``: ``r`` is open for rated games (``set rated``), not registered;
    ``o`` open and not in a tournament (``set tourney``)."""
    busy = player in core.play.by_player or player.state == "E"
    checks = {
        "o": bool(player.variables["open"]) and not player.variables["tourney"],
        "r": bool(player.variables["rated"]),
        "f": not busy,
        "R": player.registered,
        "U": not player.registered,
    }
    return all(checks[letter] for letter in select)


def _order(players: list[User], sort: str | None) -> list[User]:
    if sort is None:
        return sorted(players, key=lambda s: name_key(s.name))
    return sorted(players, key=lambda s: (-rating_of(s, sort), not s.registered, name_key(s.name)))


def who_lines(
    core: Core,
    viewer: User,
    request: WhoRequest,
    results: dict[str, dict[str, RatingRecord]] | None = None,
) -> list[str]:
    everyone = [s for s in core.world.online.values() if s.logged_in]
    chosen = [s for s in _order(everyone, request.sort) if _chosen(core, s, request.select)]
    start = math.floor(len(chosen) * request.part[0])
    stop = math.ceil(len(chosen) * request.part[1])
    shown = chosen[start:stop]
    if not shown:
        return ["No logged in players match the flags in your who request."]
    now = time.monotonic()
    if request.style == "I":
        rows = [arrival_line(core.world.player(s)).removeprefix("<wa> ") for s in shown]
        return [*rows, f"{len(rows)} Players Displayed."]
    if request.style == "v":
        return _verbose(core, viewer, shown, now)
    if request.style == "n":
        return _winloss(viewer, shown, now, results or {})
    entries = []
    for player in shown:
        playing = player in core.play.by_player
        symbol = status_symbol(player, playing, now - player.last_input)
        rating = "     " if request.shown is None else f"{ratstr(player, request.shown)}{symbol}"
        # lasker's who_terse: the viewer's own name highlighted, then AddPlayerLists's marks
        name = _mine(viewer, player, player.name)
        entries.append(f"{rating}{name}{player.display_name[len(player.name) :]}")
    width = viewer.variables["width"]
    return [
        "",
        *columns(entries, width),
        "",
        f" {len(shown)} players displayed (of {len(everyone)})."
        " (*) indicates system administrator.",
    ]


def _mine(viewer: User, player: User, text: str) -> str:
    """``text`` highlighted as the viewer set ``highlight`` when it is his own entry."""
    return highlighted(text, viewer.variables["highlight"]) if player is viewer else text


def _verbose(core: Core, viewer: User, shown: list[User], now: float) -> list[str]:
    """``who v``: game number, ``X`` not open, ``u`` registered but not open for rated
    games (``set rated``) or ``U`` a guest, the name with its marks in 17 columns, standard
    and blitz, on for, idle."""
    rule = " +---------------------------------------------------------------+"
    rows = [rule, " |      User              Standard    Blitz        On for   Idle |", rule]
    for player in shown:
        table = core.tables.seated(player)
        game = f"{table.number:3d}" if table is not None else "   "
        closed = " " if player.variables["open"] else "X"
        kind = (" " if player.variables["rated"] else "u") if player.registered else "U"
        idle = int(now - player.last_input)
        name = _mine(viewer, player, f"{player.display_name[:17]:<17}")
        rows.append(
            f" |{game}{closed}{kind} {name} "
            f"{ratstr(player, 'Standard')}        {ratstr(player, 'Blitz')}        "
            f"{short_span(int(now - player.connected_at)):>5}  "
            + (f"{short_span(idle):>5}   |" if idle >= 60 else "        |")
        )
    rows += [
        " |                                                               |",
        f" |    {len(shown):3d} Players Displayed                                      |",
        rule,
    ]
    return rows


def _winloss(
    viewer: User, shown: list[User], now: float, results: dict[str, dict[str, RatingRecord]]
) -> list[str]:
    """``who n``: standard and blitz ratings with their wins, losses and draws."""
    rows = [
        "Name               Stand     win loss draw   Blitz    win loss draw    idle",
        "----------------   -----     -------------   -----    -------------    ----",
    ]
    for player in shown:
        line = _mine(viewer, player, f"{player.display_name[:17]:<17}")
        for kind, gap in (("Standard", "  "), ("Blitz", "")):
            record = results.get(name_key(player.name), {}).get(kind)
            wins, losses, draws = (
                (0, 0, 0) if record is None else (record.wins, record.losses, record.draws)
            )
            space = "     " if kind == "Standard" else "    "
            line += f"{gap}{ratstr(player, kind)}{space}{wins:4d} {losses:4d} {draws:4d}   "
        idle = int(now - player.last_input)
        rows.append(line + (f"{short_span(idle):>5}" if idle >= 60 else "     "))
    rows.append(f"    {len(shown):3d} Players Displayed.")
    return rows


@command("who", CN.CN_WHO, WHO_USAGE)
async def who(ctx: Context, args: str) -> None:
    request = parse_who(args.strip())
    if request is None:
        ctx.reply(f"Usage: {WHO_USAGE}")
        return
    results: dict[str, dict[str, RatingRecord]] = {}
    if request.style == "n":  # the results are in the store, not in the sessions
        for player in list(ctx.world.online.values()):
            if player.registered:
                found = await asyncio.to_thread(ctx.store.ratings, player.name)
                results[name_key(player.name)] = found
    ctx.reply(*who_lines(ctx.core, ctx.session, request, results))


# -- finger ----------------------------------------------------------------------------------


def _where(core: Core, player: User) -> list[str]:
    """``(playing game 5: A vs. B)`` or ``(examining game ...)``."""
    table = core.tables.seated(player)
    if table is None:
        return []
    white, black = table.player_names()
    doing = "examining" if table.examined else "playing"
    return [f"({doing} game {table.number}: {white} vs. {black})"]


FINGER_USAGE = "finger [user] [/[b][B][l][L][s][S][w][x][z]] [r][n]"


@dataclass(frozen=True)
class FingerRequest:
    """What ``finger``'s words asked for: whom, which parts, which rating types."""

    name: str | None = None  # None: the asker
    ratings: bool = True
    notes: bool = True
    only: frozenset[str] | None = None  # the types a ``/`` filter kept; None all


def parse_finger(words: list[str]) -> FingerRequest | None:
    """freechess.org's ``finger [user] [/filter] [r][n]``: a ``/`` word keeps the rating
    types its letters name; ``r`` and ``n`` show only the ratings or only the notes (both
    when neither is given, lasker's ``com_stats``). None when a word makes no sense."""
    name = words[0] if words and not words[0].startswith("/") else None
    parts = ""
    only: set[str] | None = None
    for word in words[1:] if name is not None else words:
        if word.startswith("/"):
            letters = word[1:]
            if not letters or any(letter not in FINGER_FILTERS for letter in letters):
                return None
            only = (only or set()) | {FINGER_FILTERS[letter] for letter in letters}
        elif all(letter in "rn" for letter in word):
            parts += word
        else:
            return None
    shows = parts or "rn"
    kept = None if only is None else frozenset(only)
    return FingerRequest(name, "r" in shows, "n" in shows, kept)


@command("finger", CN.CN_FINGER, FINGER_USAGE)
async def finger(ctx: Context, args: str) -> None:
    """FICS's finger (help ``finger``): login, ratings, timeseal and notes."""
    request = parse_finger(args.split())
    if request is None:
        ctx.reply(f"Usage: {FINGER_USAGE}")
        return
    name = request.name or ctx.session.name
    await show_finger(ctx, name, request.ratings, request.notes, request.only)


def _timeseal(player: User, icc: bool) -> str:
    """The timeseal line: freechess.org's ``Timeseal 1 : On`` (the version), ICC's own."""
    if icc:
        return f"Timeseal: {'yes' if player.timeseal else 'no'}"
    if player.timeseal:
        return f"Timeseal {player.timeseal} : On"
    return "Timeseal   : Off"


async def show_finger(
    ctx: Context, name: str, ratings: bool, notes: bool, only: frozenset[str] | None = None
) -> None:
    player = ctx.world.find(name)
    icc = ctx.session.talks_icc
    store = ctx.store
    if player is not None:
        name, shown, registered = player.name, player.display_name, player.registered
        now = time.monotonic()
        on = span_text(int(now - player.connected_at))
        idle = span_text(int(now - player.last_input))
        head = [f"On for: {on}   Idle: {idle}", *_where(ctx.core, player)]
        texts = [(n, player.variables[n]) for n in NOTES if player.variables[n]]
    else:
        await ctx.core.writes.settled(name)  # notes the player set are stored
        account = await asyncio.to_thread(store.load, name)
        if account is None:
            ctx.reply(f'There is no player matching the name "{name}".')
            return
        name, registered = account.name, True
        shown = name + marks(title_field(True, held(account.server_lists, account.admin)))
        last = await asyncio.to_thread(store.last_logout, account.name)
        seen = when_text(local(last, ctx.session.variables["tzone"])) if last else ""
        never = "(Never connected.)" if icc else f"{name} has never connected."
        head = [f"Last disconnected: {seen}" if last else never]
        texts = [(n, account.settings[n]) for n in NOTES if account.settings.get(n)]
    rows = [f"Finger of {shown}:", "", *head, ""]
    if not registered:
        rows += [f"{name} is NOT a registered player.", ""]
    elif ratings:
        records = await asyncio.to_thread(store.ratings, name)
        bests = await asyncio.to_thread(store.best_ratings, name)
        if not icc and not any(record.games for record in records.values()):
            rows += [f"{name} has not played any rated games.", ""]  # freechess.org's
        else:
            rows += [*(icc_finger_rows if icc else finger_rows)(records, bests, only), ""]
    if player is not None:
        rows.append(_timeseal(player, icc))
        interface = player.variables["interface"]
        if interface:
            rows.append(f"Interface: {interface}")
    if notes and texts:
        rows += ["", *(f"{int(n):2d}: {text}" for n, text in texts)]
    ctx.reply(*rows)


@command("ratings", CN.CN_FINGER, "ratings [name]")
async def ratings(ctx: Context, args: str) -> None:
    """A player's rating table alone: FICS's ``finger NAME r``."""
    words = args.split()
    await show_finger(ctx, words[0] if words else ctx.session.name, True, False)


# -- handles, showadmins, yfinger ------------------------------------------------------------

#: The most names ``handles`` lists (lasker's ``search_directory`` buffer).
MOST_HANDLES = 1000


@command("handles", CN.SCN_MISCELLANEOUS, "handles <prefix>")
async def handles(ctx: Context, args: str) -> None:
    """lasker's ``com_handles``: the registered names (logins) that begin with a prefix."""
    word = args.split()[0] if args.split() else ""
    if not word:
        ctx.reply("Usage: handles <prefix>")
        return
    names = await asyncio.to_thread(ctx.store.list_users)
    found = sorted(name_key(n) for n in names if name_key(n).startswith(name_key(word)))
    found = found[:MOST_HANDLES]
    ctx.reply(f"Found {len(found)} names.", *columns(found, ctx.session.variables["width"]))


@command("showadmins", CN.CN_SHOWADMIN, "showadmins")
async def showadmins(ctx: Context, args: str) -> None:
    """lasker's ``com_admins``: the administrators logged in and how long each is idle."""
    now = time.monotonic()
    admins = sorted(
        (s for s in ctx.world.online.values() if s.logged_in and s.admin),
        key=lambda s: name_key(s.name),
    )
    ctx.reply(
        f"  {'Administrator Name':<50} Idle Time",
        f"  {'------------------':<50} ---------",
        *(f"  {name_key(s.name):<50} {span_text(int(now - s.last_input))}" for s in admins),
    )


def yfinger_rows(
    name: str,
    titles: str,
    records: dict[str, RatingRecord],
    bests: dict[str, tuple[int, datetime]],
) -> list[str]:
    """ICC's ``yfinger``: one ``key value`` line each, for programs (a rating type's
    keys begin with the first three letters of its name: ``BliRat``, ``BliWin``...)."""
    rows = [f"Name {name}"]
    if titles:
        rows.append(f"Titles {titles}")
    for kind, record in records.items():
        if not record.games:
            continue
        key = kind[:3]
        rows += [
            f"{key}Rat {round(record.glicko.rating)}",
            f"{key}Win {record.wins}",
            f"{key}Loss {record.losses}",
            f"{key}Draw {record.draws}",
        ]
        if record.games < PROVISIONAL_GAMES:  # ICC's [need]: games to be established
            rows.append(f"{key}Need {PROVISIONAL_GAMES - record.games}")
        if kind in bests:
            best, when = bests[kind]
            rows.append(f"{key}Best {best} {when.strftime('%Y-%m-%d')}")
    return rows


@command("yfinger", CN.CN_YFINGER, "yfinger [name]")
async def yfinger(ctx: Context, args: str) -> None:
    """ICC's finger for programs (PyChess reads it): name, titles and each rating type
    played, as ``key value`` lines."""
    word = args.split()[0] if args.split() else ctx.session.name
    player = ctx.world.find(word)
    if player is not None:
        name, titles, registered = player.name, player.titles, player.registered
    else:
        account = await asyncio.to_thread(ctx.store.load, word)
        if account is None:
            ctx.reply(f'There is no player matching the name "{word}".')
            return
        name, registered = account.name, True
        titles = title_field(True, held(account.server_lists, account.admin))
    records: dict[str, RatingRecord] = {}
    bests: dict[str, tuple[int, datetime]] = {}
    if registered:
        records = await asyncio.to_thread(ctx.store.ratings, name)
        bests = await asyncio.to_thread(ctx.store.best_ratings, name)
    ctx.reply(*yfinger_rows(name, titles, records, bests))


# -- uptime ----------------------------------------------------------------------------------


@command("uptime", CN.SCN_MISCELLANEOUS, "uptime")
async def uptime(ctx: Context, args: str) -> None:
    """FICS's ``uptime``: since when, for how long, players and games now and at most."""
    state = ctx.core.state(Uptime)
    up = int(time.monotonic() - state.started_clock)
    days, rest = divmod(up, 86_400)
    hours, rest = divmod(rest, 3600)
    minutes, seconds = divmod(rest, 60)
    parts = [
        plural(value, word)
        for value, word in (
            (days, "day"),
            (hours, "hour"),
            (minutes, "minute"),
            (seconds, "second"),
        )
        if value
    ]
    players = sum(1 for s in ctx.world.online.values() if s.logged_in)
    games = sum(1 for t in ctx.core.tables.all() if not t.examined)
    ctx.reply(
        f"The server has been up since {when_text(state.started)}.",
        f"Up for{''.join(' ' + p for p in parts)}.",
        "",
        f"There are currently {players} players, with a high of "
        f"{max(state.player_high, players)} since last restart.",
        f"There are currently {games} games, with a high of "
        f"{max(state.game_high, games)} since last restart.",
    )


# -- hooks -----------------------------------------------------------------------------------


def install(core: Core) -> None:
    """The commands, and what ``finger`` and ``uptime`` must remember: when a registered
    player left, the most players and games at once."""
    state = core.state(Uptime)

    def arrived(session: User, batch: Batch) -> None:
        state.player_high = max(state.player_high, len(core.world.online))

    def left(session: User) -> None:
        # a user of another node of a cluster leaves every node: his own keeps it (three
        # nodes inserting the same first logout broke user_presence's primary key)
        if (
            session.registered
            and session.logged_in
            and session.remote is None
            and not core.stopping
        ):
            when = datetime.now(UTC)
            core.writes.put_write(jobs.logout(session.name, when))

    def started(table: Table, batch: Batch) -> None:
        if not table.examined:
            state.game_high = max(
                state.game_high, sum(1 for t in core.tables.all() if not t.examined)
            )

    core.registry.add_commands(COMMANDS)
    core.registry.arrived.append(arrived)
    core.registry.left.append(left)
    core.registry.game_started.append(started)
