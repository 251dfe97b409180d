"""The server's news: ``news`` for everybody, ``cnewsi``, ``cnewsf``, ``cnewst`` and
``cnewse`` for administrators (FICS's names: create an item's index entry, its full text,
its title, and expire it).

``news`` lists the last :data:`SHOWN` items, newest first, one a line as
``N (date) title``; ``news all`` lists every item, ``news N`` shows one with its text. A
user who logs in while there are news items is told how many there are, with the rest of
the login's output: the count is read when the server starts (the ``starting`` hook) and
kept by the commands that post and delete items (one server per database).
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable
from typing import TYPE_CHECKING

from icswire.protocol.level1 import CommandNumber as CN
from icswire.server.core.dispatch.commands import first_word
from icswire.server.core.dispatch.hub import CommandSet, Context, Handler
from icswire.server.core.dispatch.numbers import parse_number
from icswire.server.core.render.batch import Batch, lines
from icswire.server.core.render.typed import typed_line
from icswire.server.core.storage.store import NewsItem

if TYPE_CHECKING:
    from icswire.server.core.dispatch.hub import Core
    from icswire.server.core.model.users import User

COMMANDS = CommandSet()


class NewsCount:
    """How many news items there are (read at the start, then kept)."""

    def __init__(self) -> None:
        self.items = 0


#: How many items ``news`` lists.
SHOWN = 10


def admin_command(name: str, cn: int, usage: str) -> Callable[[Handler], Handler]:
    return COMMANDS.command(name, cn, usage, admin=True)


def _index_line(item: NewsItem) -> str:
    return f"{item.id:4} ({item.posted:%a, %b %d %Y}) {item.title}"


@COMMANDS.command("news", CN.CN_NEWS, "news [all|number]", bare_cn=CN.CN_NEWS0)
async def news(ctx: Context, args: str) -> None:
    word = args.strip().lower()
    if word and word != "all":
        number = parse_number(word)
        item = None if number is None else await asyncio.to_thread(ctx.store.news_item, number)
        if item is None:
            ctx.reply(f"There is no news item {args.strip()}.")
            return
        text = ["", *map(typed_line, item.lines)] if item.lines else []
        ctx.reply(_index_line(item), *text, "", f"Posted by {item.author}.")
        return
    items = await asyncio.to_thread(ctx.store.news_items, None if word == "all" else SHOWN)
    if not items:
        ctx.reply("There are no news items.")
        return
    head = "Index of all news items:" if word == "all" else "Index of the latest news items:"
    ctx.reply(head, *(_index_line(item) for item in items))


@admin_command("cnewsi", CN.SCN_MISCELLANEOUS, "cnewsi <title>")
async def cnewsi(ctx: Context, args: str) -> None:
    title = args.strip()
    if not title:
        ctx.reply("Usage: cnewsi <title>")
        return
    number = await asyncio.to_thread(ctx.store.add_news, title, ctx.session.name)
    ctx.core.state(NewsCount).items += 1
    ctx.reply(f"Created news item {number}: {title}")


async def _edit(ctx: Context, args: str, usage: str, change: Callable[[int], bool]) -> int | None:
    """``change`` the item numbered by the first word; its number, or None (the user was
    told why)."""
    word, _ = first_word(args)
    number = parse_number(word)
    if number is None:
        ctx.reply(f"Usage: {usage}")
        return None
    if not await asyncio.to_thread(change, number):
        ctx.reply(f"There is no news item {number}.")
        return None
    return number


@admin_command("cnewsf", CN.SCN_MISCELLANEOUS, "cnewsf <number> [line of text]")
async def cnewsf(ctx: Context, args: str) -> None:
    """Adds a line to the item's text; without a line, clears the text."""
    _, line = first_word(args)
    edit = ctx.store.edit_news
    change = functools.partial(edit, line=line) if line else functools.partial(edit, clear=True)
    number = await _edit(ctx, args, "cnewsf <number> [line of text]", change)
    if number is not None:
        ctx.reply(
            f"Added a line to news item {number}." if line else f"Cleared news item {number}."
        )


@admin_command("cnewst", CN.SCN_MISCELLANEOUS, "cnewst <number> <title>")
async def cnewst(ctx: Context, args: str) -> None:
    _, title = first_word(args)
    if not title:
        ctx.reply("Usage: cnewst <number> <title>")
        return
    change = functools.partial(ctx.store.edit_news, title=title)
    number = await _edit(ctx, args, "cnewst <number> <title>", change)
    if number is not None:
        ctx.reply(f"News item {number} is now titled: {title}")


@admin_command("cnewse", CN.SCN_MISCELLANEOUS, "cnewse <number>")
async def cnewse(ctx: Context, args: str) -> None:
    number = parse_number(args.strip())
    if number is None:
        ctx.reply("Usage: cnewse <number>")
        return
    if not await asyncio.to_thread(ctx.store.remove_news, number):
        ctx.reply(f"There is no news item {number}.")
        return
    ctx.core.state(NewsCount).items -= 1
    ctx.reply(f"Deleted news item {number}.")


def install(core: Core) -> None:
    async def starting() -> None:
        core.state(NewsCount).items = await asyncio.to_thread(core.store.news_count)

    def arrived(session: User, batch: Batch) -> None:
        count = core.state(NewsCount).items
        if count:
            items = "is 1 news item" if count == 1 else f"are {count} news items"
            batch.add(session, lines(f'There {items}; type "news" to see the latest.'))

    core.registry.add_commands(COMMANDS)
    core.registry.starting.append(starting)
    core.registry.arrived.append(arrived)
