"""Setting up a position in an examined game: ``bsetup`` (FICS help ``bsetup``), the
pieces dropped on the board while in setup mode, ``clrsquare`` (FICS: a square emptied),
``clearboard`` (ICC: the board emptied), ``tomove`` and ``loadfen``.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import chess

from icswire.boards.positions import new_board
from icswire.protocol.level1 import CommandNumber as CN
from icswire.server.core.dispatch.hub import CommandSet, Context
from icswire.server.core.render.batch import Batch, lines
from icswire.server.core.render.boards import WHITE
from icswire.server.features.examine.games import (
    ExaminedGame,
    add_to_all,
    examining,
    start_examining,
)

if TYPE_CHECKING:
    from icswire.server.core.model.users import User


COMMANDS = CommandSet()
command = COMMANDS.command


#: ``P@e4`` puts a white pawn on e4, ``p@e4`` a black one, ``wn@c3`` / ``bn@c6`` as well,
#: ``x@e4`` empties e4; ``*`` may stand for ``@`` (FICS's setup.c).
_DROP = re.compile(r"(?:([wb])([pnbrqk])|([pnbrqkPNBRQKxX]))[@*]([a-h][1-8])")


_CASTLING = {"white": (chess.BB_H1, chess.BB_A1), "black": (chess.BB_H8, chess.BB_A8)}


#: What python-chess finds wrong with a position, as FICS says it (setup.c).
_INVALID = (
    (chess.STATUS_NO_WHITE_KING, "There is no white king."),
    (chess.STATUS_NO_BLACK_KING, "There is no black king."),
    (chess.STATUS_TOO_MANY_KINGS, "You can only have one king of each colour."),
    (chess.STATUS_PAWNS_ON_BACKRANK, "Pawns cannot be placed on the first or eighth rank."),
    (chess.STATUS_OPPOSITE_CHECK, "Only the player to move may be in check."),
    (chess.STATUS_TOO_MANY_CHECKERS, "The side to move is in check too many times."),
    (chess.STATUS_IMPOSSIBLE_CHECK, "The side to move cannot be in check that way."),
)


def _setup_changed(exam: ExaminedGame, batch: Batch) -> None:
    """The position being set up, to everybody at the table."""
    exam.marks.clear()
    add_to_all(batch, exam.audience(), exam.board_message())


def drop_piece(exam: ExaminedGame, session: User, text: str, batch: Batch) -> None:
    """A line that looks like a move, in setup mode: a piece put on or taken off."""
    found = _DROP.fullmatch(text)
    if found is None:
        batch.add(
            session,
            lines(
                "You are still setting up the position.",
                'Type "bsetup done" when you are finished editing.',
            ),
        )
        return
    color_word, kind, letter, square_name = found.groups()
    square = chess.parse_square(square_name)
    if letter in ("x", "X"):
        exam.board.remove_piece_at(square)
    else:
        symbol = letter or (kind.upper() if color_word == "w" else kind)
        exam.board.set_piece_at(square, chess.Piece.from_symbol(symbol))
    _setup_changed(exam, batch)


def _castling(exam: ExaminedGame, color: str, rights: str) -> str | None:
    """``bsetup wcastle|bcastle kq|k|q|none``."""
    rights = rights.lower()
    if rights not in ("kq", "qk", "k", "q", "none"):
        return None
    king_side, queen_side = _CASTLING[color]
    board = exam.board
    board.castling_rights &= ~(king_side | queen_side)
    if "k" in rights:
        board.castling_rights |= king_side
    if "q" in rights:
        board.castling_rights |= queen_side
    return f"Castling rights for {color} set to {rights}."


def _validated(board: chess.Board) -> list[str]:
    """What is wrong with the position ``board``, the first thing only, as FICS says it
    (empty: it may be played from); castling rights and en passant square it cannot have
    are taken off."""
    board.castling_rights = board.clean_castling_rights()
    if board.ep_square is not None and board.status() & chess.STATUS_INVALID_EP_SQUARE:
        board.ep_square = None
    status = board.status()
    wrong = [said for flag, said in _INVALID if status & flag]
    if status & chess.STATUS_TOO_MANY_WHITE_PIECES or status & chess.STATUS_TOO_MANY_BLACK_PIECES:
        wrong.append("There are too many pieces of one colour.")
    if status & (chess.STATUS_TOO_MANY_WHITE_PAWNS | chess.STATUS_TOO_MANY_BLACK_PAWNS):
        wrong.append("There are too many pawns of one colour.")
    return wrong[:1]  # FICS says the first thing wrong


def _setup_done(ctx: Context, exam: ExaminedGame) -> None:
    """``bsetup done``: the position, if python-chess finds it legal, is the start of the
    examined game from now on."""
    wrong = _validated(exam.board)
    if wrong:
        ctx.reply(*wrong, "The position is not valid - staying in setup mode.")
        return
    exam.setup = False
    ctx.reply("Game is validated - entering examine mode.")
    others = [s for s in exam.audience() if s is not ctx.session]
    said = f"Game {exam.number}: {ctx.session.name} has validated the position."
    add_to_all(ctx.batch, others, lines(f"{said} Entering examine mode."))
    _restart(exam, exam.board, ctx.batch)


def _restart(exam: ExaminedGame, board: chess.Board, batch: Batch) -> None:
    """``board`` is the start of the examined game from now on, with no moves: its move
    list and position to everybody at the table."""
    exam.start = board.copy(stack=False)
    exam.mainline = []
    exam.line = []
    exam.board = exam.start.copy(stack=False)
    for session in exam.audience():
        exam.send_history(session, batch)
    _setup_changed(exam, batch)


@command("bsetup", CN.SCN_MISCELLANEOUS, "bsetup [fen FEN|clear|start|done|tomove W|...]")
async def bsetup(ctx: Context, args: str) -> None:
    """Set up a position in an examined game (FICS help ``bsetup``): ``bsetup`` enters
    setup mode (starting a scratch game when none is examined), pieces are put on and taken
    off with ``P@e4``, ``p@e5``, ``x@e4``; ``bsetup done`` checks the position."""
    core, session = ctx.core, ctx.session
    exam = examining(core, session)
    words = args.split()
    if exam is None and not words:
        if core.play.busy(session):
            ctx.reply("You are playing a game.")
            return
        exam = ExaminedGame(core.tables.free_number(), session.name, session.name, new_board())
        ctx.reply("Starting a game in examine (scratch) mode.")
        start_examining(core, session, exam, ctx.batch)
    if exam is None:
        ctx.reply("You are not examining a game.")
        return
    if not words:
        if exam.setup:
            ctx.reply("You are already setting up a position.")
            return
        _enter_setup(ctx, exam)
        _setup_changed(exam, ctx.batch)
        return
    if not exam.setup:
        ctx.reply(_ACTIVE)
        return
    what, rest = words[0].lower(), words[1:]
    said = _setup_command(exam, what, rest, " ".join(args.split()[1:]))
    if what == "done":
        _setup_done(ctx, exam)
        return
    if said is None:
        ctx.reply("You have supplied an incorrect parameter to bsetup.")
        return
    ctx.reply(said)
    _setup_changed(exam, ctx.batch)


def _setup_command(exam: ExaminedGame, what: str, rest: list[str], text: str) -> str | None:
    """One ``bsetup`` sub-command other than ``done``: what to say, None when it is not
    understood (the position is left as it was)."""
    board = exam.board
    if what == "clear":
        board.clear()
        return "Board cleared."
    if what == "start":
        board.reset()
        return "Board set up as starting position."
    if what == "fen" and rest:
        try:
            found = chess.Board(text) if len(rest) > 1 else chess.Board(f"{text} w - - 0 1")
        except ValueError:
            return None
        exam.board = found
        return "Board set up by FEN."
    if what in ("wcastle", "bcastle") and len(rest) == 1:
        return _castling(exam, "white" if what == "wcastle" else "black", rest[0])
    if what == "tomove" and len(rest) == 1 and rest[0].lower() in ("white", "black"):
        board.turn = rest[0].lower() == "white"
        board.ep_square = None
        return f"It is now {rest[0].lower()}'s turn to move."
    if what == "eppos" and len(rest) == 1:
        file = rest[0].lower()
        if file == "none":
            board.ep_square = None
            return "En passant capture is not possible now."
        if len(file) != 1 or file not in "abcdefgh":
            return None
        rank = 5 if board.turn == WHITE else 2
        board.ep_square = chess.square(chess.FILE_NAMES.index(file), rank)
        return f"En passant capture is possible on the {file}-file."
    return None


#: What FICS says to a setup command outside setup mode, in an examined game.
_ACTIVE = 'This game is active - type "bsetup" to allow editing.'


@command("clrsquare", CN.SCN_MISCELLANEOUS, "clrsquare <square>")
async def clrsquare(ctx: Context, args: str) -> None:
    """Empty one square of the position being set up (FICS help ``clrsquare``: the same
    as ``x@SQUARE``)."""
    exam = examining(ctx.core, ctx.session)
    if exam is None or not exam.setup:
        ctx.reply(_ACTIVE if exam is not None else "You are not setting up a position.")
        return
    square = args.strip().lower()
    if len(args.split()) != 1 or square not in chess.SQUARE_NAMES:
        ctx.reply("You must specify a square.")
        return
    exam.board.remove_piece_at(chess.parse_square(square))
    _setup_changed(exam, ctx.batch)


@command("clearboard", CN.CN_CLEARBOARD, "clearboard")
async def clearboard(ctx: Context, args: str) -> None:
    """Empty the board of the examined game (ICC): the examiner is then setting up a
    position, as after ``bsetup clear``; pieces are put on with ``P@e4``, and ``bsetup
    done`` makes the position the start of the game."""
    exam = examining(ctx.core, ctx.session)
    if exam is None:
        ctx.reply("You are not examining a game.")
        return
    if not exam.setup:
        _enter_setup(ctx, exam)
    exam.board.clear()
    ctx.reply("Board cleared.")
    _setup_changed(exam, ctx.batch)


def _enter_setup(ctx: Context, exam: ExaminedGame) -> None:
    """The examined game goes into setup mode from the position on the board: its moves
    are dropped; the others at the table are told."""
    exam.setup = True
    exam.start = exam.board.copy(stack=False)
    exam.mainline = []
    exam.line = []
    exam.board = exam.start.copy(stack=False)
    ctx.reply("Entering setup mode.")
    others = [s for s in exam.audience() if s is not ctx.session]
    name = ctx.session.name
    add_to_all(ctx.batch, others, lines(f"Game {exam.number}: {name} enters setup mode."))


#: What ``tomove`` says to anything but ``white`` or ``black`` (FICS's setup.c).
_TOMOVE_USAGE = "Please type: tomove white    or   tomove black"


@command("tomove", CN.CN_TOMOVE, "tomove white|black")
async def tomove(ctx: Context, args: str) -> None:
    """Whose move it is in the position of an examined game. In setup mode (``bsetup``)
    the position being set up; otherwise, to an ICC client (FICS allows it in setup mode
    only), the examined position with the other side to move, if that is a legal
    position, becomes the start of the game."""
    exam = examining(ctx.core, ctx.session)
    side = args.strip().lower()
    if exam is None:
        icc = ctx.session.talks_icc
        ctx.reply("You are not examining a game." if icc else "You are not setting up a position.")
        return
    if not exam.setup and not ctx.session.talks_icc:
        ctx.reply(_ACTIVE)
        return
    if side not in ("white", "black"):
        ctx.reply(_TOMOVE_USAGE)
        return
    board = exam.board.copy(stack=False)
    board.turn = side == "white"
    board.ep_square = None
    said = f"It is now {side}'s turn to move."
    if exam.setup:
        exam.board = board
        ctx.reply(said)
        _setup_changed(exam, ctx.batch)
        return
    _load(ctx, exam, board, said)


@command("loadfen", CN.CN_LOADFEN, "loadfen <FEN>")
async def loadfen(ctx: Context, args: str) -> None:
    """The position a FEN gives (only the pieces is enough: White to move, no castling)
    in the examined game: in setup mode the position being set up, otherwise, if legal,
    the start of the game from now on."""
    exam = examining(ctx.core, ctx.session)
    if exam is None:
        ctx.reply("You are not examining a game.")
        return
    text = " ".join(args.split())
    if not text:
        ctx.reply("Usage: loadfen <FEN>")
        return
    try:
        board = chess.Board(text) if " " in text else chess.Board(f"{text} w - - 0 1")
    except ValueError:
        ctx.reply(f'"{text}" is not a valid FEN.')
        return
    if exam.setup:
        exam.board = board
        ctx.reply("Board set up by FEN.")
        _setup_changed(exam, ctx.batch)
        return
    _load(ctx, exam, board, "Position loaded from FEN.")


def _load(ctx: Context, exam: ExaminedGame, board: chess.Board, said: str) -> None:
    """``board``, if legal, the start of the examined game from now on (``tomove`` and
    ``loadfen`` outside setup mode); what is wrong with it told otherwise."""
    wrong = _validated(board)
    if wrong:
        ctx.reply(*wrong, "The position is not valid - the game is unchanged.")
        return
    ctx.reply(said)
    others = [s for s in exam.audience() if s is not ctx.session]
    name = ctx.session.name
    add_to_all(ctx.batch, others, lines(f"Game {exam.number}: {name} sets up a new position."))
    _restart(exam, board, ctx.batch)
