"""Lecture marks on an examined board: ``circle``, ``uncircle``, ``arrow``, ``unarrow``,
``boardinfo`` (DG_CIRCLE 59, DG_UNCIRCLE 89, DG_ARROW 60, DG_UNARROW 90, DG_BOARDINFO 143),
each translated for clients that know only the other kind, as the ``boardinfo`` help
describes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import chess

from icswire.protocol.codes import BoardInfoType
from icswire.protocol.level1 import CommandNumber as CN
from icswire.server.core.dispatch.hub import CommandSet, Context
from icswire.server.core.dispatch.numbers import parse_number
from icswire.server.core.events.examine import BoardMarked
from icswire.server.features.examine.games import ExaminedGame, examined_by_issuer

if TYPE_CHECKING:
    pass


COMMANDS = CommandSet()
command = COMMANDS.command


def _square(text: str) -> str | None:
    square = text.lower()
    return square if square in chess.SQUARE_NAMES else None


def _add_mark(ctx: Context, exam: ExaminedGame, marked: BoardMarked) -> None:
    ctx.batch.add_all(list(exam.audience()), marked)


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
    else:
        exam.marks.append(mark)
        said = f"Game {number}: {name} circles {square}."
    verb = "uncircle" if remove else "circle"
    _add_mark(ctx, exam, BoardMarked(number, name, verb, square, square, 0, 0, (), said))


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
    else:
        exam.marks.append(mark)
        said = f"Game {number}: {name} draws an arrow from {a} to {b}."
    verb = "unarrow" if remove else "arrow"
    _add_mark(ctx, exam, BoardMarked(number, name, verb, a, b, 0, 0, (), said))


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
    if kind == BoardInfoType.CLEAR_ALL:
        removed, exam.marks[:] = list(exam.marks), []
    elif kind == BoardInfoType.UNDO:
        removed = [exam.marks.pop()] if exam.marks else []
    else:
        removed = []
        exam.marks.append((kind, a, b, color))
    marked = BoardMarked(number, name, "boardinfo", a, b, kind, color, tuple(removed), "")
    _add_mark(ctx, exam, marked)
