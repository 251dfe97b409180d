"""What an examined game says about itself besides its moves: the players' names
(FICS's ``wname`` and ``bname``), its PGN tags (ICC's ``tag``), its result (ICC's
``result``), its clocks (ICC's ``setclock``, ``setwhiteclock``, ``setblackclock``) and
notes on its moves (ICC's ``annotate``).

A name or a clock changed shows at once on everybody's board; a tag goes to those in the
game as DG_PGN_TAG (112, "gamenumber tagname value"); a tag, the result and the notes
(PGN comments after their moves) are in the game's ``pgn`` and ``logpgn``.
"""

from __future__ import annotations

import re
from collections.abc import MutableMapping
from typing import TypeVar

from icswire.protocol import datagrams as dg
from icswire.protocol.datagrams import DG
from icswire.protocol.level1 import CommandNumber as CN
from icswire.server.core.dispatch.hub import CommandSet, Context
from icswire.server.core.render.batch import Datagram, lines
from icswire.server.core.render.boards import BLACK, WHITE
from icswire.server.features.examine.games import ExaminedGame, add_to_all, examining

_K = TypeVar("_K")

COMMANDS = CommandSet()
command = COMMANDS.command

#: lasker's MAX_LOGIN_NAME - 1: the longest name ``wname`` and ``bname`` take.
NAME_LONGEST = 17

#: A PGN tag's name (PGN standard 8.1.1: letters, digits and underscores, a letter first).
_TAG_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_]{0,39}")

#: The results ``result`` takes, with what PGN's Termination-like text says of each.
RESULTS = {
    "1-0": "White wins",
    "0-1": "Black wins",
    "1/2-1/2": "Game drawn",
    "*": "Still in progress",
}
_RESULT_WORDS = {"1/2": "1/2-1/2", "=": "1/2-1/2", "draw": "1/2-1/2"}


def _examined_or_set_up(ctx: Context) -> ExaminedGame | None:
    return _examined(ctx, "You are not examining or setting up a game.")


def _name(ctx: Context, exam: ExaminedGame, args: str, white: bool) -> None:
    """``wname`` / ``bname`` (lasker's com_wname, com_bname): the name given, or the
    issuer's; then the board to everybody in the game."""
    words = args.split()
    name = words[0] if words else ctx.session.name
    if len(name) > NAME_LONGEST:
        ctx.reply(f"The maximum length of a name is {NAME_LONGEST} characters.")
        return
    if not name.isascii() or not name.isprintable():
        ctx.reply("A name is letters, digits and punctuation, without spaces.")
        return
    if white:
        exam.white = name
    else:
        exam.black = name
    add_to_all(ctx.batch, exam.audience(), exam.board_message())


@command("wname", CN.SCN_MISCELLANEOUS, "wname [name]")
async def wname(ctx: Context, args: str) -> None:
    """White's name in the examined game (FICS help ``wname``)."""
    exam = _examined_or_set_up(ctx)
    if exam is not None:
        _name(ctx, exam, args, True)


@command("bname", CN.SCN_MISCELLANEOUS, "bname [name]")
async def bname(ctx: Context, args: str) -> None:
    """Black's name in the examined game (FICS help ``bname``)."""
    exam = _examined_or_set_up(ctx)
    if exam is not None:
        _name(ctx, exam, args, False)


def _examined(ctx: Context, none: str = "You are not examining a game.") -> ExaminedGame | None:
    """The game the issuer examines; None after saying ``none``."""
    exam = examining(ctx.core, ctx.session)
    if exam is None:
        ctx.reply(none)
    return exam


def _tell_others(ctx: Context, exam: ExaminedGame, said: str) -> None:
    others = [s for s in exam.audience() if s is not ctx.session]
    add_to_all(ctx.batch, others, lines(f"Game {exam.number}: {ctx.session.name} {said}"))


def _take_off(
    ctx: Context,
    exam: ExaminedGame,
    table: MutableMapping[_K, str],
    key: _K,
    texts: tuple[str, str, str],
) -> None:
    """A tag or note taken off ``exam``: ``texts`` are what the issuer reads when there
    is none, what the issuer reads when it is gone, and what the others in the game read."""
    absent, removed, told = texts
    if table.pop(key, None) is None:
        ctx.reply(absent)
        return
    ctx.reply(removed)
    _tell_others(ctx, exam, told)


@command("tag", CN.CN_TAG, "tag <name> [value]")
async def tag(ctx: Context, args: str) -> None:
    """Set (or, with no value, remove) a PGN tag of the examined game. The seven tags
    PGN requires come from the game itself (``wname``, ``bname``, ``result``): tag them
    and the PGN says what was set."""
    exam = _examined(ctx)
    if exam is None:
        return
    name, _, value = args.strip().partition(" ")
    value = " ".join(value.split())
    if not _TAG_NAME.fullmatch(name):
        ctx.reply("Usage: tag <name> [value]  (a tag name is letters, digits and _)")
        return
    if not value.isprintable() or len(value) > 255:
        ctx.reply("A tag's value is one line of at most 255 characters.")
        return
    known = next((key for key in exam.tags if key.lower() == name.lower()), name)
    if not value:
        absent = f"There is no tag {name} in game {exam.number}."
        removed = f"Tag {known} removed from game {exam.number}."
        _take_off(ctx, exam, exam.tags, known, (absent, removed, f"removes the tag {known}."))
        return
    exam.tags[known] = value
    ctx.reply(f'Tag {known} of game {exam.number} set to "{value}".')
    _tell_others(ctx, exam, f'sets the tag {known} to "{value}".')
    add_to_all(ctx.batch, exam.audience(), Datagram(dg.PgnTag(exam.number, known, value)))


@command("result", CN.CN_RESULT, "result <1-0|0-1|1/2-1/2|*> [description]")
async def result(ctx: Context, args: str) -> None:
    """The result of the examined game (its PGN's Result tag): ``1-0``, ``0-1``,
    ``1/2-1/2`` or ``*``, with words of one's own if wanted."""
    exam = _examined(ctx)
    if exam is None:
        return
    score, _, words = args.strip().partition(" ")
    score = _RESULT_WORDS.get(score.lower(), score)
    words = " ".join(words.split())
    if score not in RESULTS or not words.isprintable() or len(words) > 100:
        ctx.reply("Usage: result <1-0|0-1|1/2-1/2|*> [description]")
        return
    exam.score, exam.result_text = score, words or RESULTS[score]
    ctx.reply(f"Game {exam.number}: result set to {score} ({exam.result_text}).")
    _tell_others(ctx, exam, f"sets the result to {score} ({exam.result_text}).")
    result_tag = dg.PgnTag(exam.number, "Result", score)
    add_to_all(ctx.batch, exam.audience(), Datagram(result_tag))


#: ``M``, ``M:SS`` or ``H:MM:SS`` (minutes when a bare number).
_TIME = re.compile(r"(?:(\d{1,3}):)?(\d{1,4})(?::([0-5]\d))?", re.ASCII)


def clock_ms(text: str) -> int | None:
    """A clock typed as minutes (``5``), ``M:SS`` (``4:30``) or ``H:MM:SS``, in
    milliseconds; None when it is none of these or longer than 100 hours."""
    found = _TIME.fullmatch(text)
    if found is None:
        return None
    hours, first, seconds = found.groups()
    if hours is not None and seconds is None:  # "M:SS"
        minutes, secs = int(hours), int(first)
        if secs >= 60:
            return None
        total = minutes * 60 + secs
    elif hours is not None:  # "H:MM:SS"
        if int(first) >= 60:
            return None
        total = int(hours) * 3600 + int(first) * 60 + int(seconds)
    else:
        total = int(first) * 60
    return total * 1000 if total <= 100 * 3600 else None


def _set_clocks(ctx: Context, exam: ExaminedGame, wanted: dict[bool, int]) -> None:
    exam.clock_override.update(wanted)
    shown = exam.clocks()
    said = ", ".join(
        f"{'White' if side == WHITE else 'Black'}'s clock {_clock_text(shown[side])}"
        for side in (WHITE, BLACK)
        if side in wanted
    )
    ctx.reply(f"Game {exam.number}: {said}.")
    _tell_others(ctx, exam, f"sets {said}.")
    # DG_MSEC (56) "Examine-mode cases: ... running=0 for these ... (12)
    # setwhiteclock/setblackclock": both clocks, to those who have it on
    clocks = [dg.Msec(exam.number, "W", shown[WHITE], False)]
    clocks.append(dg.Msec(exam.number, "B", shown[BLACK], False))
    for receiver in exam.audience():
        if DG.MSEC in receiver.level2:
            for record in clocks:
                ctx.batch.add(receiver, Datagram(record))
    add_to_all(ctx.batch, exam.audience(), exam.board_message())


def _clock_text(ms: int) -> str:
    seconds = ms // 1000
    hours, rest = divmod(seconds, 3600)
    return f"{hours}:{rest // 60:02d}:{rest % 60:02d}" if hours else f"{rest // 60}:{rest % 60:02d}"


_CLOCK_USAGE = "Usage: {0} <time>  (minutes, M:SS or H:MM:SS)"


@command("setclock", CN.CN_SETCLOCK, "setclock <white time> <black time>")
async def setclock(ctx: Context, args: str) -> None:
    """Both clocks of the examined game, as they show at the position on the board;
    moves made from here go on from them."""
    exam = _examined(ctx)
    if exam is None:
        return
    times = [ms for ms in map(clock_ms, args.split()) if ms is not None]
    if len(times) != 2 or len(args.split()) != 2:
        ctx.reply("Usage: setclock <white time> <black time>  (minutes, M:SS or H:MM:SS)")
        return
    _set_clocks(ctx, exam, {WHITE: times[0], BLACK: times[1]})


async def _one_clock(ctx: Context, args: str, side: bool) -> None:
    exam = _examined(ctx)
    if exam is None:
        return
    words = args.split()
    ms = clock_ms(words[0]) if len(words) == 1 else None
    if ms is None:
        ctx.reply(_CLOCK_USAGE.format(ctx.command))
        return
    _set_clocks(ctx, exam, {side: ms})


@command("setwhiteclock", CN.CN_SETCLOCK, "setwhiteclock <time>")
async def setwhiteclock(ctx: Context, args: str) -> None:
    """White's clock in the examined game."""
    await _one_clock(ctx, args, WHITE)


@command("setblackclock", CN.CN_SETCLOCK, "setblackclock <time>")
async def setblackclock(ctx: Context, args: str) -> None:
    """Black's clock in the examined game."""
    await _one_clock(ctx, args, BLACK)


#: The longest note ``annotate`` keeps.
NOTE_LONGEST = 300


@command("annotate", CN.CN_ANNOTATE, "annotate [text]")
async def annotate(ctx: Context, args: str) -> None:
    """A note on the move that led to the position shown in the examined game (a PGN
    comment after it); without text, the note is taken off. Everybody in the game reads
    it."""
    exam = _examined(ctx)
    if exam is None:
        return
    if exam.ply == 0:
        ctx.reply("There is no move here to annotate; go forward to the move first.")
        return
    # no brace may end a PGN comment early
    note = " ".join(args.split()).replace("{", "(").replace("}", ")")
    if len(note) > NOTE_LONGEST or not note.isprintable():
        ctx.reply(f"A note is one line of at most {NOTE_LONGEST} characters.")
        return
    made = exam.line[exam.ply - 1]
    number = (exam.ply + (0 if exam.start.turn == WHITE else 1) + 1) // 2
    number += exam.start.fullmove_number - 1
    dots = "." if exam.board.turn == BLACK else "..."
    move = f"{number}{dots} {made.san}"
    key = exam.line_key(exam.ply)
    if not note:
        absent, removed = f"There is no note on {move}.", f"The note on {move} is removed."
        _take_off(
            ctx, exam, exam.annotations, key, (absent, removed, f"removes the note on {move}.")
        )
        return
    exam.annotations[key] = note
    ctx.reply(f"Note on {move}: {note}")
    _tell_others(ctx, exam, f"annotates {move}: {note}")
