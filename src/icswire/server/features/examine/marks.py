"""Lecture marks on an examined board: ``circle``, ``uncircle``, ``arrow``, ``unarrow``,
``boardinfo`` (DG_CIRCLE 59, DG_UNCIRCLE 89, DG_ARROW 60, DG_UNARROW 90, DG_BOARDINFO 143),
each translated for clients that know only the other kind, as the ``boardinfo`` help
describes.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any

import chess

from icswire.protocol import datagrams as dg
from icswire.protocol.codes import BoardInfoType
from icswire.protocol.datagrams import DG
from icswire.protocol.level1 import CommandNumber as CN
from icswire.server.core.dispatch.hub import CommandSet, Context
from icswire.server.core.dispatch.numbers import parse_number
from icswire.server.core.render.batch import Message
from icswire.server.features.examine.games import ExaminedGame, examined_by_issuer

if TYPE_CHECKING:
    from icswire.server.core.model.users import User


COMMANDS = CommandSet()
command = COMMANDS.command


class Mark(Message):
    """A lecture mark (or its removal) as each receiver's datagrams show it, or text."""

    datagram_kinds = frozenset({DG.CIRCLE, DG.UNCIRCLE, DG.ARROW, DG.UNARROW, DG.BOARDINFO})

    def __init__(self, text: str, build: Callable[[frozenset[int]], list[Any]]) -> None:
        self.said = text
        self.build = build

    def text(self, receiver: User) -> Sequence[str]:
        return (self.said,) if self.said and not self.build(receiver.level2) else ()

    def datagrams(self, receiver: User) -> Iterable[Any]:
        return self.build(receiver.level2)


def _square(text: str) -> str | None:
    square = text.lower()
    return square if square in chess.SQUARE_NAMES else None


def _rectangle(a: str, b: str) -> list[str]:
    """The squares of the rectangle with corners ``a`` and ``b``."""
    sa, sb = chess.parse_square(a), chess.parse_square(b)
    files = range(
        min(chess.square_file(sa), chess.square_file(sb)),
        max(chess.square_file(sa), chess.square_file(sb)) + 1,
    )
    ranks = range(
        min(chess.square_rank(sa), chess.square_rank(sb)),
        max(chess.square_rank(sa), chess.square_rank(sb)) + 1,
    )
    return [chess.square_name(chess.square(f, r)) for r in ranks for f in files]


def _as_circles_and_arrows(
    number: int,
    examiner: str,
    mark: tuple[int | str, str, str, int],
    on: frozenset[int],
    remove: bool,
) -> list[Any]:
    """A mark in DG_CIRCLE / DG_ARROW terms (or their removal), for clients without
    DG_BOARDINFO: arrows as arrows, highlighted, throbbing and ghost squares as circles."""
    kind, a, b, _ = mark
    arrow_dg, circle_dg = (DG.UNARROW, DG.UNCIRCLE) if remove else (DG.ARROW, DG.CIRCLE)
    arrow = dg.Unarrow if remove else dg.Arrow
    circle = dg.Uncircle if remove else dg.Circle
    if kind in ("arrow", BoardInfoType.ARROW):
        return [arrow(number, examiner, a, b)] if arrow_dg in on else []
    if kind == "circle" or kind in (
        BoardInfoType.HIGHLIGHT,
        BoardInfoType.THROBBING_PIECES,
        BoardInfoType.GHOST_PIECES,
    ):
        return [circle(number, examiner, s) for s in _rectangle(a, b)] if circle_dg in on else []
    return []


def _add_mark(ctx: Context, exam: ExaminedGame, message: Message) -> None:
    ctx.batch.add_all(list(exam.audience()), message)


async def _circle(ctx: Context, args: str, remove: bool) -> None:
    exam = examined_by_issuer(ctx)
    if exam is None:
        return
    square = _square(args.strip())
    if square is None:
        ctx.reply(f"Usage: {ctx.command} <square>")
        return
    name, number = ctx.session.name, exam.number
    mark: tuple[int | str, str, str, int] = ("circle", square, square, 0)
    if remove:
        if mark in exam.marks:
            exam.marks.remove(mark)
        said = f"Game {number}: {name} removes the circle from {square}."

        def build(on: frozenset[int]) -> list[Any]:
            return [dg.Uncircle(number, name, square)] if DG.UNCIRCLE in on else []
    else:
        exam.marks.append(mark)
        said = f"Game {number}: {name} circles {square}."

        def build(on: frozenset[int]) -> list[Any]:
            if DG.CIRCLE in on:
                return [dg.Circle(number, name, square)]
            if DG.BOARDINFO in on:  # "Dasher users will see BlitzIn circles as highlighted squares"
                return [dg.Boardinfo(number, name, BoardInfoType.HIGHLIGHT, square, square, 0)]
            return []

    _add_mark(ctx, exam, Mark(said, build))


async def _arrow(ctx: Context, args: str, remove: bool) -> None:
    exam = examined_by_issuer(ctx)
    if exam is None:
        return
    words = args.split()
    squares = [_square(w) for w in words]
    if len(words) != 2 or squares[0] is None or squares[1] is None:
        ctx.reply(f"Usage: {ctx.command} <from square> <to square>")
        return
    a, b = squares[0], squares[1]
    name, number = ctx.session.name, exam.number
    mark: tuple[int | str, str, str, int] = ("arrow", a, b, 0)
    if remove:
        if mark in exam.marks:
            exam.marks.remove(mark)
        said = f"Game {number}: {name} removes the arrow from {a} to {b}."

        def build(on: frozenset[int]) -> list[Any]:
            return [dg.Unarrow(number, name, a, b)] if DG.UNARROW in on else []
    else:
        exam.marks.append(mark)
        said = f"Game {number}: {name} draws an arrow from {a} to {b}."

        def build(on: frozenset[int]) -> list[Any]:
            if DG.ARROW in on:
                return [dg.Arrow(number, name, a, b)]
            if DG.BOARDINFO in on:
                return [dg.Boardinfo(number, name, BoardInfoType.ARROW, a, b, 0)]
            return []

    _add_mark(ctx, exam, Mark(said, build))


@command("circle", CN.CN_CIRCLE, "circle <square>")
async def circle(ctx: Context, args: str) -> None:
    await _circle(ctx, args, remove=False)


@command("uncircle", CN.CN_CIRCLE, "uncircle <square>")
async def uncircle(ctx: Context, args: str) -> None:
    await _circle(ctx, args, remove=True)


@command("arrow", CN.CN_ARROW, "arrow <from square> <to square>")
async def arrow(ctx: Context, args: str) -> None:
    await _arrow(ctx, args, remove=False)


@command("unarrow", CN.CN_ARROW, "unarrow <from square> <to square>")
async def unarrow(ctx: Context, args: str) -> None:
    await _arrow(ctx, args, remove=True)


@command("boardinfo", CN.CN_BOARDINFO, "boardinfo <type> <square-a> <square-b> [<color>]")
async def boardinfo(ctx: Context, args: str) -> None:
    """Dasher's lecture marks (DG_BOARDINFO, 143). Clients without DG_BOARDINFO see arrows
    and circles (DG_ARROW, DG_CIRCLE; DG_UNARROW, DG_UNCIRCLE for clear-all and undo)."""
    exam = examined_by_issuer(ctx)
    if exam is None:
        return
    words = args.split()
    kind = parse_number(words[0], signed=True) if words else None
    color = parse_number(words[3], signed=True) if len(words) == 4 else 0
    squares = [_square(w) for w in words[1:3]]
    if len(words) not in (3, 4) or kind is None or color is None or None in squares:
        ctx.reply("Usage: boardinfo <type> <square-a> <square-b> [<color>]")
        return
    a, b = str(squares[0]), str(squares[1])
    name, number = ctx.session.name, exam.number
    record = dg.Boardinfo(number, name, kind, a, b, color)
    if kind == BoardInfoType.CLEAR_ALL:
        removed, exam.marks[:] = list(exam.marks), []
    elif kind == BoardInfoType.UNDO:
        removed = [exam.marks.pop()] if exam.marks else []
    else:
        removed = []
        exam.marks.append((kind, a, b, color))
    added: tuple[int | str, str, str, int] = (kind, a, b, color)

    def build(on: frozenset[int]) -> list[Any]:
        if DG.BOARDINFO in on:
            return [record]
        if removed or kind in (BoardInfoType.CLEAR_ALL, BoardInfoType.UNDO):
            found: list[Any] = []
            for mark in removed:
                found += _as_circles_and_arrows(number, name, mark, on, remove=True)
            return found
        return _as_circles_and_arrows(number, name, added, on, remove=False)

    _add_mark(ctx, exam, Mark("", build))
