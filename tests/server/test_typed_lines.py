"""No text a user typed (an administrator's included) starts a line that another user's
client reads as data: a board, an interface line, a style 10 header, a game's end, the
prompt.

Administrators' ``cnewsf`` lines reached readers of ``news N`` verbatim at column 0, so a
news line ``<12> ...`` was a board to FICS and level 1 clients. Each reader here decodes
what it was sent with icswire's own decoder and must find text only.
"""

from __future__ import annotations

import asyncio

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from icswire.protocol.decoder import Decoder
from icswire.protocol.encoder import encode_text
from icswire.protocol.events import (
    BughouseLine,
    Error,
    IvarLine,
    Prompt,
    Style10Block,
    Style12Line,
    Text,
)
from icswire.server.app import Server
from icswire.server.core.render.typed import DATA_STARTS, typed_line

from .client import Client
from .support import connect, rebuilt, texts

#: Lines a FICS or level 1 client reads as data when they start a line.
DATA_LINES = (
    "<12> rnbqkbnr pppppppp -------- -------- ----P--- -------- PPPP-PPP RNBQKBNR B 4 1 1 1 1 0"
    " 1 Ann Bob 0 5 0 39 39 300 300 1 P/e2-e4 (0:00) e4 0 0 0",
    "<s> 1 w=Alpha ti=01 rt=0P t=3 i=0 r=u tp=blitz c=? rr=0-2000 a=f f=f",
    "<pf> 1 w=Alpha t=partner p=#",
    "<g1> 1 p=0 t=blitz r=0 u=0,0 it=300,2 i=300,2 pt=0 rt=0P,0P ts=0,0 m=2 n=0",
    "<wa> Whitey 010P0P0P0P0P0P0P0P0P",
    "<10>",
    "fics% hello",
    "{Game 1 (Ann vs. Bob) Ann resigns} 0-1",
)
DATA_EVENTS = (Style12Line, BughouseLine, IvarLine, Style10Block, Error)


def test_a_typed_line_that_looks_like_data_is_sent_one_blank_in() -> None:
    for line in DATA_LINES:
        assert line.startswith(DATA_STARTS)
        assert typed_line(line) == " " + line
    assert typed_line("Welcome to the server.") == "Welcome to the server."
    assert typed_line(" <12> already in") == " <12> already in"


#: What a typed line may hold: latin-1 without the control characters the session drops.
TYPED = st.text(st.characters(min_codepoint=0x20, max_codepoint=0xFF, blacklist_characters="\x7f"))


@given(st.one_of(TYPED, st.sampled_from(DATA_LINES), st.sampled_from(DATA_STARTS).map(str)))
@example("<12>")
@example('"10"')
def test_no_typed_line_decodes_as_more_than_text(typed: str) -> None:
    """Whatever was typed, the line that starts with it is one text line to a reader."""
    for start in ("", "fics% "):  # after a prompt, or at the start of the stream
        decoder = Decoder()
        wire = encode_text(start + typed_line(typed) + "\r\n")
        events = [*decoder.feed(wire), *decoder.close()]
        assert [e for e in events if isinstance(e, Text)] == [
            Text(typed_line(typed), "\r\n", ())
        ], events


async def member(server: Server, name: str, *setup: str, admin: bool = False) -> Client:
    await asyncio.to_thread(server.store.add_user, name, "pw")
    if admin:
        await asyncio.to_thread(server.store.set_admin, name, True)
    client = await connect(server)
    await client.login(name, "pw", *setup)
    return client


@pytest.mark.parametrize("setup", [(), ("level1=1",)], ids=["fics", "level1"])
async def test_news_lines_reach_readers_as_text(server: Server, setup: tuple[str, ...]) -> None:
    boss = await member(server, "Boss", admin=True)
    reader = await member(server, "Reader", *setup)
    await reader.command("iset nowrap 1")  # each line whole
    await boss.command("cnewsi Data")
    for line in DATA_LINES:
        assert texts(await boss.command(f"cnewsf 1 {line}")) == ["Added a line to news item 1."]
    start = len(reader.events)
    await reader.command("news 1")
    await reader.settle()
    got = reader.events[start:]
    assert [e for e in got if isinstance(e, DATA_EVENTS)] == []
    assert len([e for e in got if isinstance(e, Prompt)]) <= 1  # the one after the answer
    shown = [e.text for e in got if isinstance(e, Text)]
    first = shown.index(" " + DATA_LINES[0])
    assert shown[first : first + len(DATA_LINES)] == [" " + line for line in DATA_LINES]
    assert rebuilt(reader) == []  # no game began or ended for the reader
