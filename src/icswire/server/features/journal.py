"""Journals: ``journal``, ``jsave``, ``jkill`` and ICC's ``liblist`` and ``libannotate``.

A registered player keeps games in 26 slots, A to Z (FICS help ``journal``, ``jsave``),
saved from anyone's ``history`` or from another journal; a journal whose owner has
``jprivate`` set is his alone. ``examine``, ``smoves`` and ``sposition`` take a slot as
``NAME %A``. ``liblist`` is ICC's name for the listing (PyChess's ICC mode sends it at
login): ICC's layout, and DG_GAMELIST_BEGIN (72) / DG_GAMELIST_ITEM (73) with command
``liblist`` and the slot's number (A = 1) as the index. ``libannotate`` puts the
owner's note on an entry: DG_GAMELIST_ITEM's note ("the libannotate string that
sometimes accompanies a library game"), and a line under the entry in ``liblist``.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

from icswire.protocol import datagrams as dg
from icswire.protocol.level1 import CommandNumber as CN
from icswire.server.core.dispatch.hub import CommandSet, Context
from icswire.server.core.dispatch.numbers import parse_number
from icswire.server.core.model.names import name_key
from icswire.server.core.render.batch import Datagram
from icswire.server.core.render.gamelists import (
    JOURNAL_SLOTS,
    NOT_REGISTERED,
    fics_eco,
    gamelist_item,
    journal_owner,
    journal_record,
    journal_slot,
    numbered_history,
    result_of,
    white_side_row,
)
from icswire.server.core.render.texts import kind_text, rating_text
from icswire.server.core.storage.records import GameRecord

if TYPE_CHECKING:
    from icswire.server.core.dispatch.hub import Core

COMMANDS = CommandSet()
command = COMMANDS.command

SLOT_WORDS = "Journal entries are referenced by single letters."


def journal_row(slot: str, record: GameRecord) -> str:
    """A line of FICS's ``journal``: slot, players and ratings, type, ECO, end, result."""
    kind = kind_text(
        record.rating_type, record.rated, record.initial, record.increment, odds=record.odds
    )
    code, _ = result_of(record)
    return (
        f"{slot.upper()}: {record.white[:13]:<13} {rating_text(record.white_rating):>4}    "
        f"{record.black[:13]:<13} {rating_text(record.black_rating):>4}    {kind} "
        f"{fics_eco(record)} {code:>3} {record.score:<7}"
    )


async def _listing(ctx: Context, args: str) -> tuple[str, list[tuple[str, GameRecord]]] | None:
    words = args.split()
    if words:
        owner, refused = await journal_owner(ctx.core, ctx.session, words[0])
    else:
        owner, refused = ctx.session.name, None if ctx.session.registered else NOT_REGISTERED
    if refused is not None:
        ctx.reply(refused)
        return None
    await ctx.core.writes.settled(owner)  # the owner's jsave and jkill are stored
    return owner, await asyncio.to_thread(ctx.store.journal, owner)


@command("journal", CN.CN_LIBLIST, "journal [name]")
async def journal(ctx: Context, args: str) -> None:
    found = await _listing(ctx, args)
    if found is None:
        return
    owner, entries = found
    if not entries:
        ctx.reply(f"{owner} has no journal entries.")
        return
    ctx.reply(
        f"Journal for {owner}:",
        "   White         Rating  Black         Rating  Type         ECO End Result",
        *(journal_row(slot, record) for slot, record in entries),
    )


@command("liblist", CN.CN_LIBLIST, "liblist [name]")
async def liblist(ctx: Context, args: str) -> None:
    found = await _listing(ctx, args)
    if found is None:
        return
    owner, entries = found
    begin = dg.GamelistBegin("liblist", owner, len(entries), 1, len(entries), "")
    ctx.batch.add(ctx.session, Datagram(begin))
    if not entries:
        ctx.reply(f"{owner} has no games in his library.")
        return
    notes = await asyncio.to_thread(ctx.store.journal_notes, owner)
    rows = [f"Library for {owner}:"]
    for slot, record in entries:
        index = JOURNAL_SLOTS.index(slot) + 1
        rows.append(white_side_row(slot, record))
        note = notes.get(slot, "")
        if note:
            rows.append(f"   {note}")
        ctx.batch.add(ctx.session, Datagram(gamelist_item(index, record, note=note)))
    ctx.reply(*rows)


#: The longest note ``libannotate`` keeps (a DG_GAMELIST_ITEM field, one line).
NOTE_LONGEST = 200


@command("libannotate", CN.CN_LIBANNOTATE, "libannotate <slot> [note]")
async def libannotate(ctx: Context, args: str) -> None:
    """A note on an entry of one's own library (journal); without words, the note is
    taken off."""
    if not ctx.session.registered:
        ctx.reply(NOT_REGISTERED)
        return
    word, _, text = args.strip().partition(" ")
    slot = journal_slot(word)
    if slot is None or word.startswith("%"):
        ctx.reply(SLOT_WORDS if word else "Usage: libannotate <slot> [note]")
        return
    note = " ".join(text.split())
    if len(note) > NOTE_LONGEST or not note.isprintable():
        ctx.reply(f"A note is one line of at most {NOTE_LONGEST} characters.")
        return
    if not await _has_entry(ctx, slot):
        return
    ctx.save("journal_annotate", slot, note or None)
    if note:
        ctx.reply(f'Journal entry {slot.upper()} annotated: "{note}".')
    else:
        ctx.reply(f"The note on journal entry {slot.upper()} is removed.")


@command("jsave", CN.CN_LIBSAVE, "jsave <slot> <name> <game number | slot>")
async def jsave(ctx: Context, args: str) -> None:
    """``jsave A Fred 3``: Fred's history game 3 into slot A; ``jsave B Fred A``: slot A
    of Fred's journal into slot B (help ``jsave``)."""
    words = args.split()
    if not ctx.session.registered:
        ctx.reply(NOT_REGISTERED)
        return
    if len(words) != 3:
        ctx.reply("Usage: jsave <slot> <name> <game number | slot>")
        return
    slot = journal_slot(words[0])
    if slot is None or words[0].startswith("%"):
        ctx.reply(SLOT_WORDS)
        return
    number = parse_number(words[2])
    if number is not None:
        record, said = await _from_history(ctx, words[1], number)
    else:
        record, said = await _from_journal(ctx, words[1], words[2], slot)
    if record is None:
        ctx.reply(said)
        return
    ctx.save("journal_save", slot, record.id or 0)
    ctx.reply(said.replace("{slot}", slot.upper()))


async def _from_history(ctx: Context, name: str, number: int) -> tuple[GameRecord | None, str]:
    online = ctx.world.find(name)
    shown = online.name if online is not None else name
    records, numbers = await numbered_history(ctx.core, ctx.session, shown)
    for record in records:
        for player in (record.white, record.black):
            if name_key(player) == name_key(shown):
                shown = player
    if number not in numbers:
        return None, f"History game {number} not available for {shown}."
    return (
        records[numbers.index(number)],
        f"Game {shown} {number} saved in slot {{slot}} in journal.",
    )


async def _from_journal(
    ctx: Context, name: str, word: str, slot: str
) -> tuple[GameRecord | None, str]:
    source = journal_slot(word)
    if source is None or word.startswith("%"):
        return None, SLOT_WORDS
    owner, record, refused = await journal_record(ctx.core, ctx.session, name, source)
    if refused == "Sorry, this journal is private.":
        refused = "Sorry, the journal from which you are trying to fetch is private."
    if record is None:
        return None, refused
    if name_key(owner) == name_key(ctx.session.name) and source == slot:
        return None, "Source and destination entries are the same."
    said = f"Journal entry {owner} {source.upper()} saved in slot {{slot}} in journal."
    return record, said


async def _has_entry(ctx: Context, slot: str) -> bool:
    """Whether the issuer's journal has an entry in ``slot`` (once its writes are stored);
    False after saying so."""
    name = ctx.session.name
    await ctx.core.writes.settled(name)
    entries = dict(await asyncio.to_thread(ctx.store.journal, name))
    if slot not in entries:
        ctx.reply(f"You have no journal entry {slot.upper()}.")
        return False
    return True


@command("jkill", CN.CN_LIBDELETE, "jkill <slot>")
async def jkill(ctx: Context, args: str) -> None:
    if not ctx.session.registered:
        ctx.reply(NOT_REGISTERED)
        return
    slot = journal_slot(args.strip())
    if slot is None or args.strip().startswith("%"):
        ctx.reply(SLOT_WORDS)
        return
    if not await _has_entry(ctx, slot):
        return
    ctx.save("journal_kill", slot)
    ctx.reply(f"Journal entry {slot.upper()} deleted.")


def install(core: Core) -> None:
    core.registry.add_commands(COMMANDS)
