"""Rankings: ``best``, ``rank``, ``hbest``, ``hrank``, ``wildrank`` and ``statistics``.

lasker-2.2.3 (ratings.c) ranks the established players (:data:`PROVISIONAL_GAMES` games)
of blitz, standard and wild from the stored ratings; ``best`` lists the top 20 of each,
``rank`` a player among the 20 around him or the players ranked m to n. ``hbest`` and
``hrank`` are the same lists without the computers (lasker's ``showComp`` 0: "h" for
human), the members of the server's ``computer`` list. ICC's ``wildrank`` is ``rank`` of
the Wild rating alone. ``statistics`` is the average, spread and number of the ratings of
each type (lasker's ``com_statistics`` for a FICS session; an ICC session gets ICC's
rating types).
"""

from __future__ import annotations

import asyncio
import statistics as stats
from typing import TYPE_CHECKING

from icswire.protocol.level1 import CommandNumber as CN
from icswire.server.core.dispatch.hub import CommandSet, Context
from icswire.server.core.dispatch.numbers import is_digits, parse_number
from icswire.server.core.model.names import name_key
from icswire.server.core.model.ratings import PROVISIONAL_GAMES
from icswire.server.core.model.titles import COMPUTER

if TYPE_CHECKING:
    from icswire.server.core.dispatch.hub import Core

__all__ = ["install"]

COMMANDS = CommandSet()
command = COMMANDS.command

#: How many players ``best`` lists per type, and ``rank`` shows around a player.
BEST_SIZE = 20
#: The most ``rank m-n`` lists (lasker's DisplayRankedPlayers).
MOST_LISTED = 100
#: ``best`` and ``rank``: FICS's letters for the three ranked types.
RANK_TYPES = {"b": ("Blitz", "Blitz"), "s": ("Standard", "Standard"), "w": ("Wild", "Wild")}
#: ``statistics``'s columns for a FICS session: lasker's labels and our rating types.
FICS_STATISTICS = (
    ("Standard", "Standard"),
    ("Blitz", "Blitz"),
    ("Lightning", "Bullet"),
    ("Wild", "Wild"),
)
#: ... and for an ICC session: ICC's pools that this server rates.
ICC_STATISTICS = ("Bullet", "Blitz", "Standard", "Wild", "Bughouse", "Losers", "Crazyhouse")
RANK_USAGE = "rank [name [b][s][w]] | rank m-n [b][s][w]"
WILDRANK_USAGE = "wildrank [name | m-n]"

Row = tuple[str, int, int]
Ranked = tuple[int, str, int]


def _rank_kinds(letters: str) -> list[tuple[str, str]] | None:
    """FICS's ``ShowFromString``: which of blitz, standard and wild (all by default)."""
    if not letters:
        return list(RANK_TYPES.values())
    if any(letter not in RANK_TYPES for letter in letters):
        return None
    return [RANK_TYPES[letter] for letter in "bsw" if letter in letters]


def _ranked(rows: list[Row]) -> list[Ranked]:
    """The established players (20 games) with their rank: tied ratings share one."""
    ranked: list[Ranked] = []
    for index, (name, rating, _games) in enumerate(r for r in rows if r[2] >= PROVISIONAL_GAMES):
        tied = ranked and ranked[-1][2] == rating
        ranked.append((ranked[-1][0] if tied else index + 1, name, rating))
    return ranked


def _rank_table(kinds: list[tuple[str, str]], lists: list[list[Ranked]], rows: int) -> list[str]:
    """The columns of ``best`` and ``rank``, FICS's ``ShowRankLines`` layout."""
    heads = {"Blitz": "         Blitz          ", "Standard": "       Standard          ",
             "Wild": "          Wild"}  # fmt: skip
    # a type with nobody to show is left out, its column too
    kinds = [kind for kind, entries in zip(kinds, lists, strict=True) if entries]
    lists = [entries for entries in lists if entries]
    out = ["".join(heads[label] for label, _ in kinds).rstrip(), ""]
    for row in range(rows):
        cells = []
        for entries in lists:
            if row < len(entries):
                rank, name, rating = entries[row]
                tied = row > 0 and entries[row - 1][0] == rank  # FICS shows a tie's rank once
                shown = "      " if tied else f"{rank:4d}. " if rank else "----  "
                cells.append(f"{shown}{name[:12]:<12} {rating:4d}  ")
            else:
                cells.append(" " * 25)
        out.append("".join(cells).rstrip())
    return out


async def _rows(ctx: Context, kind: str, humans: bool) -> list[Row]:
    """The stored ratings of ``kind``, best first; without the computers for ``humans``."""
    rows = await asyncio.to_thread(ctx.store.ranking, kind)
    if not humans:
        return rows
    computers = await asyncio.to_thread(ctx.store.server_list, COMPUTER.list or "")
    machines = {name_key(name) for name in computers}
    return [row for row in rows if name_key(row[0]) not in machines]


async def _best(ctx: Context, args: str, humans: bool) -> None:
    kinds = _rank_kinds(args.strip())
    if kinds is None:
        ctx.reply(f"Usage: {ctx.command} [b][s][w]")
        return
    lists = [_ranked(await _rows(ctx, kind, humans))[:BEST_SIZE] for _, kind in kinds]
    if not any(lists):
        ctx.reply("No ratings to show.")
        return
    ctx.reply(*_rank_table(kinds, lists, max(len(entries) for entries in lists)))


def _span(text: str) -> tuple[int, int] | None:
    """``m-n`` (or ``m``): the ranks ``rank`` lists."""
    low_text, _, high_text = text.partition("-")
    low = parse_number(low_text)
    high = parse_number(high_text) if high_text else low
    if low is None or high is None or high < low:
        return None
    return max(low, 1), high


def _around(rows: list[Row], ranked: list[Ranked], target: str) -> list[Ranked]:
    """The players ranked around ``target``; his rating alone (no rank) when he is not
    established; nothing when he has no rating of the type."""
    key = name_key(target)
    where = next((i for i, r in enumerate(ranked) if name_key(r[1]) == key), None)
    if where is None:
        mine = next((r for r in rows if name_key(r[0]) == key), None)
        return [] if mine is None else [(0, mine[0], mine[1])]
    first = max(where - BEST_SIZE // 2, 0)
    return ranked[first : first + BEST_SIZE]


async def _rank(ctx: Context, target: str, kinds: list[tuple[str, str]], humans: bool) -> None:
    """``rank``'s lists of ``kinds`` around ``target`` (a name or ``m-n``)."""
    span = _span(target)
    lists = []
    for _, kind in kinds:
        rows = await _rows(ctx, kind, humans)
        ranked = _ranked(rows)
        if span is not None:
            lists.append([r for r in ranked if span[0] <= r[0] <= span[1]][:MOST_LISTED])
        else:
            around = _around(rows, ranked, target)
            if not around and humans:  # a computer: his rating, no rank (lasker's "----")
                around = _around(await _rows(ctx, kind, False), [], target)
            lists.append(around)
    if not any(lists):
        ctx.reply("No ratings to show.")
        return
    ctx.reply(*_rank_table(kinds, lists, max(len(entries) for entries in lists)))


def _rank_words(ctx: Context, args: str) -> tuple[str, list[tuple[str, str]]] | None:
    words = args.split()
    target = words[0] if words else ctx.session.name
    kinds = _rank_kinds(words[1] if len(words) > 1 else "")
    if kinds is None or len(words) > 2 or (_span(target) is None and is_digits(target[:1])):
        return None
    return target, kinds


@command("best", CN.CN_BEST, "best [b][s][w]")
async def best(ctx: Context, args: str) -> None:
    """The top 20 established players of blitz, standard and wild (help ``best``)."""
    await _best(ctx, args, humans=False)


@command("hbest", CN.CN_BEST, "hbest [b][s][w]")
async def hbest(ctx: Context, args: str) -> None:
    """``best`` without the computers (lasker's ``com_hbest``)."""
    await _best(ctx, args, humans=True)


@command("rank", CN.CN_RANK, RANK_USAGE)
async def rank(ctx: Context, args: str) -> None:
    """A player's rank among the established players and those around him, or the
    players ranked m to n (help ``rank``)."""
    found = _rank_words(ctx, args)
    if found is None:
        ctx.reply(f"Usage: {RANK_USAGE}")
        return
    await _rank(ctx, *found, humans=False)


@command("hrank", CN.CN_RANK, "hrank [name [b][s][w]] | hrank m-n [b][s][w]")
async def hrank(ctx: Context, args: str) -> None:
    """``rank`` without the computers (lasker's ``com_hrank``)."""
    found = _rank_words(ctx, args)
    if found is None:
        ctx.reply("Usage: hrank [name [b][s][w]] | hrank m-n [b][s][w]")
        return
    await _rank(ctx, *found, humans=True)


@command("wildrank", CN.CN_WILDRANK, WILDRANK_USAGE)
async def wildrank(ctx: Context, args: str) -> None:
    """ICC's ``wildrank``: ``rank`` in the Wild rating alone."""
    words = args.split()
    target = words[0] if words else ctx.session.name
    if len(words) > 1 or (_span(target) is None and is_digits(target[:1])):
        ctx.reply(f"Usage: {WILDRANK_USAGE}")
        return
    await _rank(ctx, target, [RANK_TYPES["w"]], humans=False)


# -- statistics ------------------------------------------------------------------------------


def _spread(ratings: list[int]) -> tuple[float, float, int]:
    """Average, standard deviation (of the whole population) and number of ``ratings``."""
    if not ratings:
        return 0.0, 0.0, 0
    return stats.fmean(ratings), stats.pstdev(ratings), len(ratings)


def fics_statistics(pools: list[tuple[float, float, int]]) -> list[str]:
    """lasker's ``com_statistics``: Standard, Blitz, Lightning and Wild in columns."""
    return [
        "                Standard       Blitz   Lightning        Wild",
        "average:         " + "     ".join(f"{mean:7.2f}" for mean, _, _ in pools),
        "std dev:         " + "     ".join(f"{spread:7.2f}" for _, spread, _ in pools),
        "number :      " + "     ".join(f"{count:7d}" for _, _, count in pools),
    ]


def icc_statistics(kinds: tuple[str, ...], pools: list[tuple[float, float, int]]) -> list[str]:
    """ICC's rating pools, one line each: how many are rated, their average and spread."""
    rows = ["Rating statistics (players with rated games):", "",
            f"{'':<12}{'players':>8}{'average':>10}{'std dev':>10}"]  # fmt: skip
    for kind, (mean, spread, count) in zip(kinds, pools, strict=True):
        rows.append(f"{kind:<12}{count:8d}{mean:10.1f}{spread:10.1f}")
    return rows


@command("statistics", CN.CN_STATISTICS, "statistics")
async def statistics(ctx: Context, args: str) -> None:
    """The average, standard deviation and number of the stored ratings of each type, of
    the players who played a rated game of it."""
    icc = ctx.session.talks_icc
    kinds = ICC_STATISTICS if icc else tuple(kind for _, kind in FICS_STATISTICS)
    pools = []
    for kind in kinds:
        rows = await asyncio.to_thread(ctx.store.ranking, kind)
        pools.append(_spread([rating for _, rating, games in rows if games > 0]))
    ctx.reply(*(icc_statistics(kinds, pools) if icc else fics_statistics(pools)))


def install(core: Core) -> None:
    core.registry.add_commands(COMMANDS)
