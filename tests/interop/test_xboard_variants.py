"""Interop: two real XBoards in zippy mode, each driving Debian's ``sjeng``, play a
crazyhouse, a suicide and a losers game on icswire.

The setting is test_xboard.py's (its fixtures and its XBoard class: ``icswire serve`` on a
free port, an Xvfb display, XBoards with ``-ics -zp`` logged in as guests), with sjeng as
the engine: it plays all three variants (``feature variants="normal,bughouse,crazyhouse,
suicide,giveaway,losers"``) and takes no ``name`` line, so it needs no filter. The first
XBoard types ``match <other> 1 0 <variant>``; the other's zippy code accepts, XBoard reads
the variant from the ``Creating:`` line's game type and tells sjeng ``variant ...``.

Each game must end with a result in the PGN file both XBoards save: the same result, the
same players and the same moves in both, and the variant XBoard names in its ``Variant``
tag. Without xboard, Xvfb or sjeng (Debian: ``apt-get install xboard xvfb sjeng``) the test
is skipped.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from .test_xboard import (  # the fixtures are test_xboard's
    GAME_LIMIT,
    PAIR_LIMIT,
    RESULTS,
    START_LIMIT,
    XBOARD,
    XVFB,
    ServerProcess,
    XBoard,
    _program,
    _tail,
    _wait,
    display,  # noqa: F401
    running,
    server,  # noqa: F401
)

SJENG = _program("sjeng")
_MISSING = [n for n, p in (("xboard", XBOARD), ("Xvfb", XVFB), ("sjeng", SJENG)) if p is None]
pytestmark = pytest.mark.skipif(
    bool(_MISSING),
    reason=f"XBoard variant interop needs {', '.join(_MISSING)} "
    "(Debian: apt-get install xboard xvfb sjeng)",
)
#: The variants played, as typed in ``match`` and as XBoard's PGN ``Variant`` tag names them.
VARIANTS = (("crazyhouse", "crazyhouse"), ("suicide", "suicide"), ("losers", "losers"))
_COMMENT = re.compile(r"\{[^}]*\}|\([^)]*\)")
_MOVE_NUMBER = re.compile(r"^\d+\.+$")


def games(xboard: XBoard) -> list[tuple[dict[str, str], list[str]]]:
    """The games XBoard saved: tags and SAN moves, read as text (python-chess's PGN reader
    knows no losers)."""
    if not xboard.pgn.exists():
        return []
    found = []
    for chunk in re.split(r"\n(?=\[Event )", xboard.pgn.read_text("latin-1").strip()):
        tags = dict(re.findall(r'^\[(\w+) "([^"]*)"\]$', chunk, re.M))
        body = _COMMENT.sub(" ", "\n".join(ln for ln in chunk.splitlines() if ln[:1] != "["))
        words = [w for w in body.split() if not _MOVE_NUMBER.match(w) and w not in RESULTS]
        found.append((tags, [w for w in words if w != "*"]))
    return found


class Offer:
    """A match offer typed at XBoard ``by``, typed again when the other's zippy declines it
    as not ready. Zippy declines ("I'm not quite ready for a new game yet; try again soon.")
    while its engine has not answered the ping XBoard sent with ``new`` after the last
    game (zippy.c, ZippyHandleChallenge: ``first.lastPing != first.lastPong``), so an offer
    made as the previous game ends can be declined; a person would ask again, and so does
    the test."""

    DECLINED = "declines the match offer."

    def __init__(self, by: XBoard, command: str) -> None:
        self.by, self.command = by, command
        self.declines = by.received().count(self.DECLINED)
        by.send(command)

    def again_if_declined(self) -> bool:
        """Offer again after a decline; always true, to chain before the real check."""
        declines = self.by.received().count(self.DECLINED)
        if declines > self.declines:
            self.declines = declines
            time.sleep(0.5)
            self.by.send(self.command)
        return True


@pytest.fixture
def xboards(
    tmp_path: Path,
    display: str,  # noqa: F811
    server: ServerProcess,  # noqa: F811
) -> Iterator[tuple[XBoard, XBoard]]:
    assert SJENG is not None
    pair = (
        XBoard("A", tmp_path / "xboard-a", Path(SJENG)),
        XBoard("B", tmp_path / "xboard-b", Path(SJENG)),
    )
    with running(pair, display, server.port):
        yield pair


def test_zippy_xboards_with_sjeng_play_crazyhouse_suicide_and_losers(
    server: ServerProcess,  # noqa: F811
    xboards: tuple[XBoard, XBoard],
) -> None:
    a, b = xboards

    def explain() -> str:
        return "\n".join([a.explain(), b.explain(), _tail(server.log)])

    _wait("both XBoards to log in", lambda: a.ready() and b.ready(), START_LIMIT, explain)
    for played, (variant, tag) in enumerate(VARIANTS, 1):
        started = time.monotonic()
        offer = Offer(a, f"match {b.name} 1 0 {variant}")
        creating = rf"\{{Game \d+ \(\w+ vs\. \w+\) Creating unrated {variant} match\.\}}"
        _wait(
            f"the {variant} game to start in both XBoards",
            lambda c=creating, o=offer: (
                o.again_if_declined() and all(re.search(c, x.received()) for x in xboards)
            ),
            PAIR_LIMIT,
            explain,
        )

        def done(count: int = played) -> bool:
            for xboard in xboards:
                if xboard.process.poll() is not None:
                    pytest.fail(f"XBoard {xboard.label} exited\n{explain()}")
            return all(
                sum(t.get("Result") in RESULTS for t, _ in games(x)) >= count for x in xboards
            )

        _wait(f"the {variant} game to end in both XBoards", done, GAME_LIMIT, explain)
        (tags_a, moves_a), (tags_b, moves_b) = games(a)[-1], games(b)[-1]
        for name in ("White", "Black", "Result", "Variant"):
            assert tags_a.get(name) == tags_b.get(name), (variant, name, explain())
        assert tags_a.get("Variant") == tag, (variant, tags_a)
        assert {tags_a["White"], tags_a["Black"]} == {a.name, b.name}
        assert moves_a == moves_b and moves_a, (variant, explain())
        print(
            f"{variant}: {tags_a['White']} vs {tags_a['Black']} {tags_a['Result']} after "
            f"{len(moves_a)} plies in {time.monotonic() - started:.1f}s"
        )
