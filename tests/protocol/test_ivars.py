"""FICS interface variable lines: real lines, inverse parsing and formatting, bad lines."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from icswire.protocol.ivars import (
    DeltaBoard,
    GameInfo,
    IvarRecord,
    PendingFrom,
    PendingRemoved,
    PendingTo,
    PlayerArrived,
    PlayerDeparted,
    Seek,
    SeeksCleared,
    SeeksRemoved,
    format_ivar,
    ivar_parser,
    parse_ivar,
)

from .strategies import ivar_records

# Lines as FICS sends them: help files iv_seekinfo, iv_gameinfo, iv_compressmove; PyChess's
# testing/ficsmanagers.py and testing/ficsplay.py (logged from freechess.org); Macbeth's
# test/FicsMessageParserSpec; FatICS's test/test_vars.py and test/test_*.py (real FICS lines
# quoted in its comments) and src/notify.py.
REAL_LINES: list[tuple[str, IvarRecord]] = [
    (
        "<s> 8 w=visar ti=02 rt=2194  t=4 i=0 r=r tp=suicide c=? rr=0-9999 a=t f=f",
        Seek(8, "visar", "02", 2194, " ", 4, 0, True, "suicide", "?", 0, 9999, True, False),
    ),
    (
        "<s> 124 w=leaderbeans ti=02 rt=1637E t=3 i=0 r=u tp=blitz c=B rr=0-9999 a=t f=f",
        Seek(124, "leaderbeans", "02", 1637, "E", 3, 0, False, "blitz", "B", 0, 9999, True, False),
    ),
    (
        "<s> 7 w=GuestNMZJ ti=01 rt=0P t=15 i=5 r=u tp=standard c=W rr=0-9999 a=t f=t",
        Seek(7, "GuestNMZJ", "01", 0, "P", 15, 5, False, "standard", "W", 0, 9999, True, True),
    ),
    (
        "<sn> 121 w=mgatto ti=00 rt=1677  t=6 i=1 r=r tp=wild/4 c=? rr=0-9999 a=f f=f",
        Seek(
            121,
            "mgatto",
            "00",
            1677,
            " ",
            6,
            1,
            True,
            "wild/4",
            "?",
            0,
            9999,
            False,
            False,
            own=True,
        ),
    ),
    ("<sr> 8 17 30", SeeksRemoved((8, 17, 30))),
    ("<sr> 124", SeeksRemoved((124,))),
    ("<sc>", SeeksCleared()),
    (
        "<pf> 7 w=ggbtami t=match p=ggbtami (----) gbtami (1708) unrated blitz 5 0",
        PendingFrom(7, "ggbtami", "match", "ggbtami (----) gbtami (1708) unrated blitz 5 0"),
    ),
    (
        "<pf> 71 w=joseph t=match p=joseph (1632) mgatto (1742) rated wild 5 1 Loaded from"
        " wild/fr (adjourned)",
        PendingFrom(
            71,
            "joseph",
            "match",
            "joseph (1632) mgatto (1742) rated wild 5 1 Loaded from wild/fr (adjourned)",
        ),
    ),
    ("<pf> 14 w=CapaBlue t=draw p=#", PendingFrom(14, "CapaBlue", "draw", "#")),
    ("<pt> 24 w=grosshirn t=takeback p=1", PendingTo(24, "grosshirn", "takeback", "1")),
    ("<pr> 7", PendingRemoved((7,))),
    (
        "<g1> 1 p=0 t=blitz r=1 u=1,1 it=5,5 i=8,8 pt=0 rt=1586E,2100 ts=1,0",
        GameInfo(
            1,
            False,
            "blitz",
            True,
            (True, True),
            (5, 5),
            (8, 8),
            0,
            ((1586, "E"), (2100, "")),
            (True, False),
        ),
    ),
    (
        "<g1> 482 p=0 t=blitz r=1 u=0,0 it=180,0 i=180,0 pt=0 rt=2009,2013 ts=1,1 m=2 n=0",
        GameInfo(
            482,
            False,
            "blitz",
            True,
            (False, False),
            (180, 0),
            (180, 0),
            0,
            ((2009, ""), (2013, "")),
            (True, True),
            ("m=2", "n=0"),
        ),
    ),
    (  # mekk.fics's test data (freechess.org): black's established rating and its blank
        "<g1> 1 p=0 t=blitz r=1 u=1,1 it=5,6 i=8,9 pt=0 rt=1586E,2100  ts=1,0",
        GameInfo(
            1,
            False,
            "blitz",
            True,
            (True, True),
            (5, 6),
            (8, 9),
            0,
            ((1586, "E"), (2100, " ")),
            (True, False),
        ),
    ),
    (  # mekk.fics's test data: a seek line captured with the blanks it ended in
        "<s> 12 w=saeph ti=00 rt=1407  t=1 i=0 r=r tp=lightning c=? rr=0-9999 a=t f=f  ",
        Seek(
            12,
            "saeph",
            "00",
            1407,
            " ",
            1,
            0,
            True,
            "lightning",
            "?",
            0,
            9999,
            True,
            False,
            extra=("", ""),
        ),
    ),
    (
        "<sn> 82 w=Mekk ti=00 rt=1341  t=5 i=2 r=r tp=blitz c=? rr=1401-1403 a=t f=f",
        Seek(
            82, "Mekk", "00", 1341, " ", 5, 2, True, "blitz", "?", 1401, 1403, True, False, (), True
        ),
    ),
    ("<sr> 22 1 119", SeeksRemoved((22, 1, 119))),
    ("<d1> 2 64 Rxc2 e2c2p 1200 203800", DeltaBoard(2, 64, "Rxc2", "e2c2p", 1200, 203800)),
    ("<d1> 314 5 e3 e2e3 100 59800 563", DeltaBoard(314, 5, "e3", "e2e3", 100, 59800, ("563",))),
    (
        "<wa> GuestABCD 001222 1326P1169P0P0P0P0P0P0P",
        PlayerArrived(
            "GuestABCD", " ", "00", ((1222, " "), (1326, "P"), (1169, "P")) + ((0, "P"),) * 6
        ),
    ),
    ("<wd> GuestABCD", PlayerDeparted("GuestABCD")),
]


@pytest.mark.parametrize(("line", "record"), REAL_LINES)
def test_real_lines_parse_and_format_back(line: str, record: IvarRecord) -> None:
    assert parse_ivar(line) == record
    assert format_ivar(record) == line


def test_records_read_as_the_help_files_explain() -> None:
    seek = parse_ivar("<s> 16 w=CatNail ti=0a rt=1997  t=3 i=0 r=u tp=suicide c=? rr=0-99 a=f f=f")
    assert isinstance(seek, Seek) and seek.title_flags == 0x2 | 0x8  # computer, IM
    arrived = parse_ivar("<wa> fred^8017P0 0")
    assert arrived == PlayerArrived("fred", "^", "80", ((17, "P"), (0, " "), (0, "")))


@given(ivar_records)
def test_parse_inverts_format(record: IvarRecord) -> None:
    assert parse_ivar(format_ivar(record)) == record


@given(
    st.sampled_from(["<s> ", "<sn> ", "<sr>", "<sc>", "<pf> ", "<pt> ", "<pr> ", "<g1> "])
    | st.sampled_from(["<d1> ", "<wa> ", "<wd> "]),
    st.text(st.sampled_from("0129 ,-=?EPWBrtfuabcdmnpsw"), max_size=40),
)
def test_a_line_is_read_only_if_it_is_written_back_the_same(tag: str, rest: str) -> None:
    line = tag + rest
    try:
        record = parse_ivar(line)
    except ValueError as exc:
        assert tag.strip().strip("<>") in str(exc)
    else:
        assert format_ivar(record) == line


@pytest.mark.parametrize(
    "line",
    [
        "<s> 8 w=visar ti=02 rt=2194 t=4 i=0 r=r tp=suicide c=? rr=0-9999 a=t f=f",  # no provshow
        "<s> 8 w=visar ti=2 rt=2194  t=4 i=0 r=r tp=suicide c=? rr=0-9999 a=t f=f",
        "<s> 08 w=visar ti=02 rt=2194  t=4 i=0 r=r tp=suicide c=? rr=0-9999 a=t f=f",
        "<s> 8 w=visar ti=02 rt=2194  t=4 i=0 r=r tp=suicide c=? rr=0-9999 a=t",
        "<sr>",
        "<sr> 1  2",
        "<sc> now",
        "<pf> 7 t=match p=x",
        "<pr> x",
        "<g1> 1 p=2 t=blitz r=1 u=1,1 it=5,5 i=8,8 pt=0 rt=1586E,2100 ts=1,0",
        "<g1> 1 p=0 t=blitz r=1 u=1,1 it=5 i=8,8 pt=0 rt=1586E,2100 ts=1,0",
        "<d1> 2 64 Rxc2 e2c2p 1200",
        "<d1> 2 64 Rxc2 e2c2p -0 5",
        "<wa> fred 001222 1326X",
        "<wa> fr3d 0012",
        "<wd>",
    ],
)
def test_malformed_lines_are_value_errors_naming_their_tag(line: str) -> None:
    with pytest.raises(ValueError, match=line[1:3]):
        parse_ivar(line)


@pytest.mark.parametrize(
    "line", ["<12> rnbqkbnr", "<b1> game 1", "<s>x", "<sr>5", "<x> 1", "hello", "<s", ""]
)
def test_other_lines_are_not_interface_variable_lines(line: str) -> None:
    assert ivar_parser(line) is None
    with pytest.raises(ValueError, match="not an interface variable line"):
        parse_ivar(line)
