"""ICC's ``libannotate``: the owner's note on a library (journal) entry, in ``liblist``'s
text and DG_GAMELIST_ITEM's note field; a new game in the slot comes without it."""

from __future__ import annotations

from icswire.protocol.datagrams import DG
from icswire.server.app import Server

from .support import grams
from .test_people import LIST_GRAMS, played, registered, shown, user


async def test_libannotate_notes_a_library_entry(server: Server) -> None:
    await registered(server, "Fred")
    await played(server, "Fred", "Joe", 0, 0)
    fred = await user(server, "Fred", "pw", LIST_GRAMS)
    guest = await user(server, "Zoe")
    assert shown(await guest.command("libannotate a nice")) == [
        "Only registered players may keep a journal."
    ]
    assert shown(await fred.command("libannotate")) == ["Usage: libannotate <slot> [note]"]
    assert shown(await fred.command("libannotate a nice")) == ["You have no journal entry A."]
    await fred.command("jsave a fred 1")
    assert shown(await fred.command("libannotate ab x")) == [
        "Journal entries are referenced by single letters."
    ]
    assert shown(await fred.command("libannotate a  My best   win")) == [
        'Journal entry A annotated: "My best win".'
    ]
    events = await fred.command("liblist")
    assert shown(events)[2] == "   My best win"
    (item,) = grams(events, DG.GAMELIST_ITEM)
    assert item.note == "My best win"
    await fred.command("jsave a fred 1")  # a game put in the slot anew: no note
    (item,) = grams(await fred.command("liblist"), DG.GAMELIST_ITEM)
    assert item.note == ""
    await fred.command("libannotate a again")
    assert shown(await fred.command("libannotate a")) == ["The note on journal entry A is removed."]
    assert len(shown(await fred.command("liblist"))) == 2
