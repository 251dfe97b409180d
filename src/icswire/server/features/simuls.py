"""Simultaneous exhibitions, as FICS has them built in (lasker-2.2.3's ``com_simmatch``
and its family; FICS help ``simmatch``, ``simnext``, ``simpass`` ...), and ICC's
``startsimul``.

A player who wants to play in a simul types ``simmatch GIVER``; the giver must have
``set simopen 1``. The giver accepts with ``simmatch PLAYER`` (or takes every waiting
request at once with ICC's ``startsimul``). Each board is an ordinary game, stored and
observable, with the giver White, unrated and untimed as lasker makes it
(``create_new_match(..., 0, 0, ...)``); an adjourned simul game between the two is
resumed instead. The giver moves on the board he is at: his moves and game commands go
to it (``core.play.seat``; DG_STATE ``S`` with that board's number). ``simnext``,
``simprev`` and ``goboard`` take him to another board, and each opponent is told how
far away he is. An opponent may ``simpass`` (three times a game) while the giver is at
his board. When a board ends the giver goes on to the next; after the last, everybody
who listens to game results (``gin``) and the last board's observers get the score.

In a cluster, a simul is played on one node: a giver and an opponent connected to
different nodes are refused (``simmatch`` says so), never half played.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from icswire.boards.variants import BUGHOUSE, CHESS, UnsupportedVariantError, variant_from_spelling
from icswire.protocol.codes import AbortMode, AdjournMode, ResultStatus
from icswire.protocol.level1 import CommandNumber as CN
from icswire.server.core.dispatch.hub import CommandSet, Context
from icswire.server.core.model.tables import Table, Terms
from icswire.server.core.render.batch import Batch, lines
from icswire.server.core.render.boards import WHITE
from icswire.server.core.storage.store import StoreUnavailable

if TYPE_CHECKING:
    from icswire.boards.variants import Variant
    from icswire.server.core.dispatch.hub import Core
    from icswire.server.core.model.users import User
    from icswire.server.core.storage.records import GameRecord

__all__ = ["install"]

COMMANDS = CommandSet()
command = COMMANDS.command

#: lasker's MAX_SIMUL: the most boards one giver plays.
MAX_SIMUL = 100
#: lasker's MAX_SIMPASS: how often an opponent may pass in one game.
MAX_SIMPASS = 3
NOT_GIVING = "You are not giving a simul."
ONE_BOARD = "You are only playing one board!"
TOO_CONFUSING = (
    "You cannot be the simul giver and request to join another simul.",
    "That would just be too confusing for me and you.",
)


@dataclass(eq=False)
class Simul:
    """One giver's simul: its boards in the order they began (None once ended), the
    board he is at, and the score so far (lasker's ``simul_info``)."""

    giver: User
    boards: list[Table | None] = field(default_factory=list)
    on: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    aborts: int = 0
    #: Passes used, by game number.
    passes: dict[int, int] = field(default_factory=dict)

    def active(self) -> list[int]:
        """The indexes of the boards still played."""
        return [i for i, table in enumerate(self.boards) if table is not None]

    def at(self) -> Table | None:
        return self.boards[self.on] if 0 <= self.on < len(self.boards) else None

    def index_of(self, number: int) -> int | None:
        for index, table in enumerate(self.boards):
            if table is not None and table.number == number:
                return index
        return None


@dataclass(frozen=True)
class Request:
    """A player's request to join a simul: the variant asked for, or None for chess."""

    player: User
    variant: Variant | None = None


class Simuls:
    """The simuls being given, by giver, and the requests waiting, by giver."""

    def __init__(self) -> None:
        self.given: dict[User, Simul] = {}
        self.requests: dict[User, dict[User, Request]] = {}

    def of_table(self, number: int) -> Simul | None:
        """The simul game ``number`` is a board of."""
        for simul in self.given.values():
            if simul.index_of(number) is not None:
                return simul
        return None

    def giving(self, session: User) -> Simul | None:
        simul = self.given.get(session)
        return simul if simul is not None and simul.active() else None


# -- moving from board to board --------------------------------------------------------------


def goto_board(core: Core, simul: Simul, index: int, batch: Batch) -> None:
    """Take the giver to board ``index`` (lasker's ``player_goto_board``): his moves go
    there, he gets its board, and each opponent is told how far away he is."""
    table = simul.boards[index]
    if table is None:
        return
    simul.on = index
    giver = simul.giver
    core.play.seat(giver, table, batch)
    if len(simul.boards) == 1:
        return
    batch.add(giver, table.board_message())
    order = [*range(index, len(simul.boards)), *range(index)]
    count = 0
    for i in order:
        board = simul.boards[i]
        if board is None:
            continue
        opponent = _opponent(board, giver)
        if count == 0:
            said = f"{giver.name} is at your board!"
        elif count == 1:
            said = f"{giver.name} will be at your board NEXT!"
        else:
            said = f"{giver.name} is {count} boards away."
        batch.add(opponent, lines("", said))
        count += 1


def _step(core: Core, simul: Simul, step: int, batch: Batch) -> None:
    """To the next (``step`` 1) or previous (-1) board still played."""
    count = len(simul.boards)
    for distance in range(1, count + 1):
        index = (simul.on + step * distance) % count
        if simul.boards[index] is not None:
            goto_board(core, simul, index, batch)
            return


def _opponent(table: Table, giver: User) -> User:
    white, black = table.seats()[0], table.seats()[1]
    return black if white is giver else white


def _tell_opponent(simul: Simul, text: str, batch: Batch) -> None:
    table = simul.at()
    if table is not None:
        batch.add(_opponent(table, simul.giver), lines("", f"{simul.giver.name} {text}"))


# -- starting a board ------------------------------------------------------------------------


def _simul_terms(variant: Variant | None) -> Terms:
    """Unrated and untimed, as lasker's simul boards are."""
    return Terms.of(variant if variant is not None else CHESS, False, 0, 0)


async def _adjourned_simul_game(core: Core, giver: User, player: User) -> GameRecord | None:
    """An adjourned untimed game of ``giver`` (White) against ``player``: lasker resumes
    it in the simul rather than start a new one."""
    if not (giver.registered and player.registered):
        return None
    try:
        await core.play.flush()
        found: list[GameRecord] = await asyncio.to_thread(core.store.adjourned, giver.name)
    except StoreUnavailable:
        return None
    for record in found:
        if (
            record.white.lower() == giver.name.lower()
            and record.black.lower() == player.name.lower()
            and record.initial == 0
            and record.increment == 0
        ):
            return record
    return None


async def start_board(ctx: Context, request: Request) -> None:
    """The issuer (the giver) accepts ``request``: a board begins, or an adjourned one
    goes on (lasker's ``com_simmatch`` accepting)."""
    core, giver, player, batch = ctx.core, ctx.session, request.player, ctx.batch
    state = core.state(Simuls)
    state.requests.get(giver, {}).pop(player, None)
    simul = state.giving(giver)
    if simul is not None and len(simul.active()) >= MAX_SIMUL:
        ctx.reply(f"You are already playing the maximum of {MAX_SIMUL} boards.")
        batch.add(player, lines("", "Simul request removed, boards filled."))
        return
    if simul is None and core.play.busy(giver):
        ctx.reply("You are already playing a game.")
        return
    if not player.logged_in or core.play.busy(player):
        ctx.reply(f"{player.name} is playing a game; the simul request is removed.")
        return
    resumed = await _adjourned_simul_game(core, giver, player)
    terms = _simul_terms(request.variant)
    if resumed is not None:
        terms = Terms.of(resumed.game_variant, False, 0, 0)
    try:
        table = await core.play.start(giver, player, terms, batch, resumed=resumed)
    except StoreUnavailable:  # both were told; no board
        return
    simul = state.given.get(giver)
    if simul is None or not simul.active():
        simul = state.given[giver] = Simul(giver)
    simul.boards.append(table)
    if len(simul.boards) > 1 and simul.at() is not None:
        goto_board(core, simul, simul.on, batch)  # back to the board he was at
    else:
        goto_board(core, simul, len(simul.boards) - 1, batch)


# -- the commands ----------------------------------------------------------------------------


@command("simmatch", CN.SCN_MISCELLANEOUS, "simmatch <player> [variant]")
async def simmatch(ctx: Context, args: str) -> None:
    """Ask to play in a simul, or (the giver) accept a player's request."""
    words = args.split()
    if not words:
        ctx.reply("Usage: simmatch <player> [variant]")
        return
    core, session = ctx.core, ctx.session
    seated = core.tables.seated(session)
    if seated is not None and seated.examined:
        ctx.reply("You are still examining a game.")
        return
    other = ctx.world.find(words[0])
    if other is None:
        ctx.reply(f'No user named "{words[0]}" is logged in.')
        return
    if other is session:
        ctx.reply("You can't simmatch yourself!")
        return
    if other.remote is not None:
        ctx.reply(
            f"{other.name} is connected to another server of this cluster.",
            "A simul is played on one server.",
        )
        return
    state = core.state(Simuls)
    waiting = state.requests.get(session, {}).get(other)
    if waiting is not None:
        await start_board(ctx, waiting)
        return
    if state.requests.get(session) or state.giving(session) is not None:
        ctx.reply(*TOO_CONFUSING)
        return
    if core.play.busy(session):
        ctx.reply("You are already playing a game.")
        return
    if not other.variables["simopen"]:
        ctx.reply(f"{other.name} is not open to receiving simul requests.")
        return
    simul = state.giving(other)
    if simul is not None and len(simul.active()) >= MAX_SIMUL:
        ctx.reply(f"{other.name} is already playing the maximum of {MAX_SIMUL} boards.")
        return
    if simul is None and core.play.busy(other):
        table = core.tables.seated(other)
        host = state.of_table(table.number) if table is not None else None
        if host is not None:
            ctx.reply(f"{other.name} is playing in {host.giver.name}'s simul, and can't accept.")
        else:
            ctx.reply(f"{other.name} can't begin a simul while playing a non-simul game.")
        return
    variant: Variant | None = None
    if len(words) > 1:
        asked = " ".join(words[1:])
        try:
            variant = variant_from_spelling(asked, "icc" if session.talks_icc else "fics")
        except UnsupportedVariantError:
            ctx.reply(f"No such category/board: {asked}")
            return
        if variant is BUGHOUSE:
            ctx.reply("A simul cannot be played in bughouse.")
            return
    adjourned = await _adjourned_simul_game(core, other, session)
    state.requests.setdefault(other, {})[session] = Request(session, variant)
    if adjourned is not None:
        ctx.batch.add(
            other, lines("", f"{session.name} requests to continue an adjourned simul game.")
        )
        ctx.reply("Request to resume simul sent. Adjourned game found.")
        return
    if variant is None:
        said = f"{session.name} requests to join a simul match with you."
    else:
        said = f"{session.name} requests to join a {variant.fics_name} simul match with you."
    ctx.batch.add(other, lines("", said))
    ctx.reply("Simul match request sent.")


@command("startsimul", CN.CN_STARTSIMUL, "startsimul")
async def startsimul(ctx: Context, args: str) -> None:
    """ICC's ``startsimul``: the giver begins a board with every player waiting to join."""
    waiting = list(ctx.core.state(Simuls).requests.get(ctx.session, {}).values())
    if not waiting:
        ctx.reply("Nobody has asked to join your simul.")
        return
    for request in waiting:
        await start_board(ctx, request)


@command("simnext", CN.SCN_MISCELLANEOUS, "simnext")
async def simnext(ctx: Context, args: str) -> None:
    simul = ctx.core.state(Simuls).giving(ctx.session)
    if simul is None:
        ctx.reply(NOT_GIVING)
        return
    if len(simul.boards) <= 1:
        ctx.reply(ONE_BOARD)
        return
    if simul.at() is not None:
        _tell_opponent(simul, "is moving away from your board.", ctx.batch)
        _step(ctx.core, simul, 1, ctx.batch)


@command("simprev", CN.SCN_MISCELLANEOUS, "simprev")
async def simprev(ctx: Context, args: str) -> None:
    simul = ctx.core.state(Simuls).giving(ctx.session)
    if simul is None:
        ctx.reply(NOT_GIVING)
        return
    if len(simul.boards) <= 1:
        ctx.reply(ONE_BOARD)
        return
    _tell_opponent(simul, "is moving back to the previous board.", ctx.batch)
    _step(ctx.core, simul, -1, ctx.batch)


@command("goboard", CN.SCN_MISCELLANEOUS, "goboard <game number|name>")
async def goboard(ctx: Context, args: str) -> None:
    """A simul giver's move to another board (FICS help ``goboard``)."""
    words = args.split()
    if not words:
        ctx.reply("Usage: goboard <game number|name>")
        return
    simul = ctx.core.state(Simuls).giving(ctx.session)
    if simul is None:
        ctx.reply(NOT_GIVING)
        return
    word = words[0]
    if word.isascii() and word.isdigit():
        number = int(word)
    else:
        other = ctx.world.find(word)
        if other is None:
            ctx.reply(f'No user named "{word}" is logged in.')
            return
        if other is ctx.session:
            ctx.reply("You can't goboard yourself!")
            return
        table = ctx.core.tables.seated(other)
        if table is None or table.examined:
            ctx.reply(f"{other.name} is not playing a game.")
            return
        number = table.number
    here = simul.at()
    if here is not None and here.number == number:
        ctx.reply("You are already at that board!")
        return
    if len(simul.boards) <= 1:
        ctx.reply(ONE_BOARD)
        return
    index = simul.index_of(number)
    if index is None:
        ctx.reply("You are not playing that game/person.")
        return
    if here is not None:
        _tell_opponent(simul, "has moved away from your board.", ctx.batch)
    goto_board(ctx.core, simul, index, ctx.batch)


@command("simgames", CN.SCN_MISCELLANEOUS, "simgames [player]")
async def simgames(ctx: Context, args: str) -> None:
    words = args.split()
    player = ctx.session
    if words:
        found = ctx.world.find(words[0])
        if found is None:
            ctx.reply(f"No player named {words[0]} is logged in.")
            return
        player = found
    simul = ctx.core.state(Simuls).giving(player)
    count = len(simul.active()) if simul is not None else 0
    if player is ctx.session:
        ctx.reply(f"You are playing {count} simultaneous games.")
    else:
        ctx.reply(f"{player.name} is playing {count} simultaneous games.")


@command("simwho", CN.SCN_MISCELLANEOUS, "simwho")
async def simwho(ctx: Context, args: str) -> None:
    """The simuls being given: each giver, the boards still played, the board he is at."""
    simuls = sorted(
        (s for s in ctx.core.state(Simuls).given.values() if s.active()),
        key=lambda s: s.giver.name.lower(),
    )
    if not simuls:
        ctx.reply("No simuls are being given.")
        return
    rows = ["Simuls being given:"]
    for simul in simuls:
        at = simul.at()
        where = f"at game {at.number}" if at is not None else "between boards"
        rows.append(
            f"  {simul.giver.name:<17} {len(simul.active()):>3} of {len(simul.boards):>3}"
            f" boards left, {where}"
        )
    rows.append(f"{len(simuls)} simul{'' if len(simuls) == 1 else 's'} displayed.")
    ctx.reply(*rows)


@command("simpass", CN.SCN_MISCELLANEOUS, "simpass")
async def simpass(ctx: Context, args: str) -> None:
    """An opponent lets the giver go on to the next board without moving."""
    table = ctx.core.tables.seated(ctx.session)
    if table is None or table.examined:
        ctx.reply("You are not playing a game.")
        return
    simul = ctx.core.state(Simuls).of_table(table.number)
    if simul is None:
        ctx.reply("You are not participating in a simul.")
        return
    if simul.giver is ctx.session:
        ctx.reply("You are the simul holder and cannot pass!")
        return
    if len(simul.active()) == 1:
        ctx.reply("This is the only game, so passing is futile.")
        return
    if simul.at() is not table:
        ctx.reply("You cannot pass until the simul holder arrives!")
        return
    used = simul.passes.get(table.number, 0)
    name = ctx.session.name
    if used >= MAX_SIMPASS:
        ctx.reply(
            f"You have reached your maximum of {MAX_SIMPASS} pass(es).", "Please move IMMEDIATELY!"
        )
        ctx.batch.add(simul.giver, lines("", f"{name} tried to pass, but is out of passes."))
        return
    used = simul.passes[table.number] = used + 1
    ctx.reply(f"You have passed and have {MAX_SIMPASS - used} pass(es) left.")
    ctx.batch.add(
        simul.giver,
        lines("", f"{name} has decided to pass and has {MAX_SIMPASS - used} pass(es) left."),
    )
    _step(ctx.core, simul, 1, ctx.batch)


def _end_boards(ctx: Context, every: bool, status: int, mode: int) -> None:
    simul = ctx.core.state(Simuls).giving(ctx.session)
    if simul is None:
        ctx.reply(NOT_GIVING)
        return
    tables = [simul.boards[i] for i in simul.active()] if every else [simul.at()]
    for table in tables:
        if table is not None:
            ctx.core.play.end_game(table, status, mode, WHITE, ctx.batch)


@command("simabort", CN.SCN_MISCELLANEOUS, "simabort")
async def simabort(ctx: Context, args: str) -> None:
    """The giver aborts the game at the board he is at."""
    _end_boards(ctx, False, ResultStatus.ABORTED, AbortMode.AGREEMENT)


@command("simallabort", CN.SCN_MISCELLANEOUS, "simallabort")
async def simallabort(ctx: Context, args: str) -> None:
    """The giver aborts every game of his simul."""
    _end_boards(ctx, True, ResultStatus.ABORTED, AbortMode.AGREEMENT)


@command("simadjourn", CN.SCN_MISCELLANEOUS, "simadjourn")
async def simadjourn(ctx: Context, args: str) -> None:
    """The giver adjourns the game at the board he is at."""
    _end_boards(ctx, False, ResultStatus.ADJOURNED, AdjournMode.AGREEMENT)


@command("simalladjourn", CN.SCN_MISCELLANEOUS, "simalladjourn")
async def simalladjourn(ctx: Context, args: str) -> None:
    """The giver adjourns every game of his simul."""
    _end_boards(ctx, True, ResultStatus.ADJOURNED, AdjournMode.AGREEMENT)


@command("simopen", CN.SCN_MISCELLANEOUS, "simopen")
async def simopen(ctx: Context, args: str) -> None:
    """Toggle ``simopen``: ``set simopen`` (lasker's ``com_simopen``)."""
    await ctx.run("set", "simopen")


# -- hooks -----------------------------------------------------------------------------------


def _board_ended(core: Core, table: Table, batch: Batch) -> None:
    """A board ended (lasker's ``player_simul_over``): the score counts it, and the giver
    goes on to the next board, or the simul is over."""
    state = core.state(Simuls)
    simul = state.of_table(table.number)
    if simul is None:
        return
    giver = simul.giver
    index = simul.index_of(table.number)
    if index is None:
        return
    score = core.play.score_of(table)
    if score == "1-0":
        simul.wins += 1
    elif score == "0-1":
        simul.losses += 1
    elif score == "1/2-1/2":
        simul.draws += 1
    else:
        simul.aborts += 1
    simul.boards[index] = None
    simul.passes.pop(table.number, None)
    batch.add(giver, lines("", f"Board {index + 1} has completed."))
    left = len(simul.active())
    if left == 0:
        over = lines(
            "",
            f"{{Simul ({giver.name} vs. {len(simul.boards)}) is over.}}",
            f"Results: {simul.wins} Wins, {simul.losses} Losses, {simul.draws} Draws,"
            f" {simul.aborts} Aborts",
        )
        told = {s for s in core.world.online.values() if s.variables["gin"] or s in table.observers}
        told.add(giver)
        batch.add_all(told, over)
        batch.add(giver, lines("", "That was the last board, thanks for playing."))
        del state.given[giver]
        return
    if not giver.logged_in:  # his other boards end as he left (``left`` below)
        return
    if index == simul.on:
        _step(core, simul, 1, batch)
    else:
        goto_board(core, simul, simul.on, batch)
    batch.add(giver, lines("", f"There are {left} boards left."))


def _left(core: Core, session: User) -> None:
    """A giver who leaves ends each of his boards as a player who leaves ends his game;
    requests to and from whoever leaves are forgotten."""
    state = core.state(Simuls)
    state.requests.pop(session, None)
    for waiting in state.requests.values():
        waiting.pop(session, None)
    simul = state.given.get(session)
    if simul is None or core.stopping:
        return
    batch = Batch(CN.SCN_LOGOUT, None, issuer_name=session.name)
    for index in simul.active():
        table = simul.boards[index]
        if table is not None:
            core.play.seat(session, table, batch)
            core.play.player_gone(session, batch)
    state.given.pop(session, None)
    batch.flush()


def install(core: Core) -> None:
    core.registry.add_commands(COMMANDS)
    core.registry.game_ended.append(lambda table, batch: _board_ended(core, table, batch))
    core.registry.left.append(lambda session: _left(core, session))

    def variable_set(session: User, name: str, value: object, batch: Batch, iface: bool) -> None:
        """``set simopen 0`` declines the requests waiting (lasker's set_sopen)."""
        if name != "simopen" or value or iface:
            return
        for request in core.state(Simuls).requests.pop(session, {}).values():
            batch.add(
                request.player,
                lines("", f"{session.name} is no longer open to simul requests; yours is removed."),
            )

    core.registry.variable_set.append(variable_set)
