"""``goto``: for an ICC session, an examiner's jump to a half-move of the line being looked
at (DG_SEND_MOVES with MOVE_FORWARD, or DG_BACKWARD, as ``forward`` and ``backward``
send); for a FICS session, FICS's alias of ``goboard``.

``goboard`` itself, a simul giver's move to another board, is ``features.simuls``'s.
"""

from __future__ import annotations

import re

from icswire.protocol.codes import IsVariation
from icswire.protocol.level1 import CommandNumber as CN
from icswire.server.core.dispatch.hub import CommandSet, Context
from icswire.server.core.events.examine import ExaminedBackward, ExaminedForward
from icswire.server.features.examine.games import ExaminedGame, examined_by_issuer

COMMANDS = CommandSet()
command = COMMANDS.command

#: ``goto 14`` (half-move 14), ``goto 7w`` / ``goto 7b`` (after White's / Black's 7th
#: move), ``goto start``, ``goto end``.
_PLACE = re.compile(r"(\d{1,4})([wWbB]?)", re.ASCII)


def target_ply(exam: ExaminedGame, text: str) -> int | None:
    """The half-move ``text`` names in ``exam`` (0: the start), None if it names none."""
    word = text.lower()
    if word in ("start", "0"):
        return 0
    if word == "end":
        return len(exam.line)
    found = _PLACE.fullmatch(word)
    if found is None:
        return None
    number, side = int(found[1]), found[2].lower()
    if not side:
        return number
    # move numbers count from the start position's, which may be Black's turn
    first, black_starts = exam.start.fullmove_number, not exam.start.turn
    ply = (number - first) * 2 + (1 if side == "w" else 2) - (1 if black_starts else 0)
    return ply if ply >= 0 else None


@command("goto", CN.CN_GOTO, "goto <half-move|7w|7b|start|end>")
async def goto(ctx: Context, args: str) -> None:
    if not ctx.session.talks_icc:
        await ctx.run("goboard", args)  # features.simuls: FICS's goto is goboard
        return
    exam = examined_by_issuer(ctx)
    if exam is None:
        return
    words = args.split()
    ply = target_ply(exam, words[0]) if len(words) == 1 else None
    if ply is None:
        ctx.reply("Usage: goto <half-move number>  (or 7w, 7b, start, end)")
        return
    if exam.setup:
        ctx.reply("You are setting up a position; there are no moves to go to.")
        return
    if ply > len(exam.line):
        ctx.reply(f"There are only {len(exam.line)} half-moves in game {exam.number}.")
        return
    if ply == exam.ply:
        ctx.reply(f"Game {exam.number} is at half-move {ply} already.")
        return
    name = ctx.session.name
    if ply > exam.ply:
        made = [exam.forward() for _ in range(ply - exam.ply)]
        moves = tuple([(m.san, m.smith, m.time_ms, m.clock_ms) for m in made])
        event: ExaminedForward | ExaminedBackward = ExaminedForward(
            exam.position(), name, moves, IsVariation.MOVE_FORWARD
        )
    else:
        steps = exam.ply - ply
        for _ in range(steps):
            exam.backward()
        event = ExaminedBackward(exam.position(), name, steps, False)
    ctx.batch.add_all(list(exam.audience()), event)
