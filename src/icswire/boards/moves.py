"""Moves in the notations of the wire, checked against a position by python-chess.

- SMITH (DG_MOVE_SMITH, 34; icc-formats.txt): ``e2e4``, ``e4d5p`` (capture indicator: the
  captured piece, ``E`` en passant), ``e1g1c`` / ``e1c1C`` (castling, the KING's squares,
  also in chess960), ``f7f8Q``, plunks ``Q@f7+``.
- Style 12 verbose (icc-style12.txt, NOTES.md): ``P/e2-e4``, ``P/e4-d5`` (no ``x``),
  ``o-o``, ``o-o-o``, ``P/e7-e8=Q``, drops ``P@e4`` (FICS's ``P/@@-e4`` is read too).
- SAN (DG_MOVE_ALGEBRAIC, 33; style 12's pretty move): ``Nf3``, ``fxg8=Q+``; pawn plunks
  are ``P@e4`` ("bughouse plunks are the same in all move formats").
- What clients type: ``e2e4``, ``e7e8=q``, ``o-o``, ``0-0``, ``P@e4`` or SAN; a castling
  also as its king's squares (``e1g1``, chess960's ``b1g1``, wild 1's ``d1b1``).

Every reader returns a legal :class:`chess.Move` of the board (python-chess's own form:
in chess960 castling is king-takes-rook) or raises :class:`IllegalMoveError`; every writer
takes a legal move.

>>> board = chess.Board()
>>> move_from_smith(board, "g1f3")
Move.from_uci('g1f3')
>>> verbose_from_move(board, chess.Move.from_uci("g1f3"))
'N/g1-f3'
"""

from __future__ import annotations

import re
from typing import Final

import chess

from icswire.protocol.smith import SmithDrop, SmithHidden, SmithMove, format_smith, parse_smith

__all__ = [
    "IllegalMoveError",
    "move_from_san",
    "move_from_smith",
    "move_from_verbose",
    "move_from_wire",
    "push_with_notations",
    "san_from_move",
    "smith_from_move",
    "verbose_from_move",
]

_VERBOSE: Final = re.compile(r"([PNBRQKpnbrqk])/([a-h][1-8])-([a-h][1-8])(?:=([NBRQKnbrqk]))?")
_VERBOSE_DROP: Final = re.compile(r"([PNBRQpnbrq])(?:@|/@@-)([a-h][1-8])")
_VERBOSE_CASTLING: Final = {"o-o": True, "o-o-o": False}
_WIRE_MOVE: Final = re.compile(r"([a-h][1-8])([a-h][1-8])=?([NBRQKnbrqk]?)")
_WIRE_DROP: Final = re.compile(r"([PNBRQpnbrq])@([a-h][1-8])")
_WIRE_CASTLING: Final = {"o-o": True, "0-0": True, "o-o-o": False, "0-0-0": False}


class IllegalMoveError(ValueError):
    """A move that is malformed or not legal in the position; the message names both,
    e.g. ``illegal move 'e2e5' in rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1``."""


def _illegal(board: chess.Board, text: str, why: str = "") -> IllegalMoveError:
    return IllegalMoveError(f"illegal move {text!r} in {board.fen()}" + (f": {why}" if why else ""))


def _legal(board: chess.Board, move: chess.Move, text: str) -> chess.Move:
    if not board.is_legal(move):
        raise _illegal(board, text)
    return move


def _piece_type(letter: str) -> chess.PieceType:
    return chess.PIECE_SYMBOLS.index(letter.lower())


def _castling(board: chess.Board, kingside: bool, text: str) -> chess.Move:
    """The legal castling move to the given side, in python-chess's form."""
    for move in board.generate_castling_moves():
        if board.is_kingside_castling(move) == kingside and board.is_legal(move):
            return move
    raise _illegal(board, text, "castling is not legal")


def _king_destination(board: chess.Board, move: chess.Move) -> chess.Square:
    """Where a castling king lands: the g or c file of its back rank in chess and chess960,
    b or f for a king castling from the d file in wild 0 and 1 (the board knows)."""
    after = board.copy(stack=False)
    after.push(move)
    king = after.king(board.turn)
    # castling leaves the king on the board
    if king is None:
        raise RuntimeError("king is None")
    return king


def _castling_to(
    board: chess.Board, from_square: chess.Square, to_square: chess.Square
) -> chess.Move | None:
    """The legal castling whose king goes from ``from_square`` to ``to_square``, if any
    (ICC help ``Fischer-random``: "If your king is moving two squares or more, you can
    just move the king and it will be understood that you intend to castle"; a king that
    moves one square makes a king move)."""
    for move in board.generate_castling_moves(chess.BB_SQUARES[from_square]):
        if _king_destination(board, move) == to_square and board.is_legal(move):
            return move
    return None


def _capture_indicator(board: chess.Board, move: chess.Move) -> str | None:
    """SMITH's capture indicator of a move that is not castling: the captured piece
    (lower case), ``E`` for en passant, None if nothing is captured."""
    if board.is_en_passant(move):
        return "E"
    captured = board.piece_type_at(move.to_square)
    return None if captured is None else chess.piece_symbol(captured)


# -- SMITH (DG_MOVE_SMITH) ---------------------------------------------------------------


def move_from_smith(board: chess.Board, text: str) -> chess.Move:
    """Read a SMITH move or plunk (a plunk's ``+``/``#`` is optional and not checked).

    The capture indicator must say what the move really captures: ``e4d5`` for a capture,
    ``e1g1`` for castling or ``e4d5q`` when d5 holds a pawn are refused.

    >>> move_from_smith(chess.Board(), "e2e4")
    Move.from_uci('e2e4')
    """
    try:
        smith = parse_smith(text)
    except ValueError:
        raise _illegal(board, text, "not SMITH notation") from None
    if isinstance(smith, SmithDrop):
        square = chess.parse_square(smith.square)
        return _legal(board, chess.Move(square, square, drop=_piece_type(smith.piece)), text)
    if isinstance(smith, SmithHidden):
        raise _illegal(board, text, "a hidden kriegspiel move")
    from_square = chess.parse_square(smith.from_square)
    to_square = chess.parse_square(smith.to_square)
    if smith.capture in ("c", "C"):
        move = _castling(board, smith.capture == "c", text)
        if smith.promotion or (from_square, to_square) != (
            move.from_square,
            _king_destination(board, move),
        ):
            raise _illegal(board, text, "castling gives the king's squares")
        return move
    promotion = None if smith.promotion is None else _piece_type(smith.promotion)
    move = _legal(board, chess.Move(from_square, to_square, promotion), text)
    if board.is_castling(move):
        raise _illegal(board, text, "castling needs the capture indicator 'c' or 'C'")
    captured = _capture_indicator(board, move)
    if captured != smith.capture:
        why = f"the capture indicator is {captured!r}" if captured else "nothing is captured"
        raise _illegal(board, text, why)
    return move


def smith_from_move(board: chess.Board, move: chess.Move) -> str:
    """Write a legal move of ``board`` in SMITH notation (plunks with their check suffix,
    as the spec's ``Q@f7+``).

    >>> board = chess.Board("4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1")
    >>> smith_from_move(board, chess.Move.from_uci("e4d5"))
    'e4d5p'
    """
    _legal(board, move, move.uci())
    return _smith(board, move, board.san(move) if move.drop else "")


def _smith(board: chess.Board, move: chess.Move, san: str) -> str:
    """SMITH of a legal move; ``san`` is python-chess's SAN of it (read for a plunk only)."""
    if move.drop:
        return format_smith(
            SmithDrop(
                chess.piece_symbol(move.drop).upper(),
                chess.square_name(move.to_square),
                san[-1] if san[-1] in "+#" else "",
            )
        )
    if board.is_castling(move):
        return format_smith(
            SmithMove(
                chess.square_name(move.from_square),
                chess.square_name(_king_destination(board, move)),
                "c" if board.is_kingside_castling(move) else "C",
            )
        )
    return format_smith(
        SmithMove(
            chess.square_name(move.from_square),
            chess.square_name(move.to_square),
            _capture_indicator(board, move),
            None if move.promotion is None else chess.piece_symbol(move.promotion).upper(),
        )
    )


# -- style 12 verbose --------------------------------------------------------------------


def move_from_verbose(board: chess.Board, text: str) -> chess.Move:
    """Read style 12's verbose notation of a move (``none`` is no move: it raises).

    Piece letters may be in either case and castling ``O-O``; the piece letter must be the
    piece on the from-square, and castling must be written ``o-o`` / ``o-o-o``.

    >>> move_from_verbose(chess.Board(), "P/e2-e4")
    Move.from_uci('e2e4')
    """
    kingside = _VERBOSE_CASTLING.get(text.lower())
    if kingside is not None:
        return _castling(board, kingside, text)
    if m := _VERBOSE_DROP.fullmatch(text):
        square = chess.parse_square(m[2])
        return _legal(board, chess.Move(square, square, drop=_piece_type(m[1])), text)
    m = _VERBOSE.fullmatch(text)
    if m is None:
        raise _illegal(board, text, "not verbose notation")
    from_square = chess.parse_square(m[2])
    if board.piece_type_at(from_square) != _piece_type(m[1]):
        raise _illegal(board, text, f"no {m[1].upper()} on {m[2]}")
    promotion = None if m[4] is None else _piece_type(m[4])
    move = _legal(board, chess.Move(from_square, chess.parse_square(m[3]), promotion), text)
    if board.is_castling(move):
        raise _illegal(board, text, "castling is written o-o or o-o-o")
    return move


def verbose_from_move(board: chess.Board, move: chess.Move) -> str:
    """Write a legal move of ``board`` in style 12's verbose notation.

    >>> verbose_from_move(chess.Board(), chess.Move.from_uci("e2e4"))
    'P/e2-e4'
    """
    _legal(board, move, move.uci())
    return _verbose(board, move)


def _verbose(board: chess.Board, move: chess.Move) -> str:
    if move.drop:
        return f"{chess.piece_symbol(move.drop).upper()}@{chess.square_name(move.to_square)}"
    if board.is_castling(move):
        return "o-o" if board.is_kingside_castling(move) else "o-o-o"
    piece = board.piece_type_at(move.from_square)
    # a legal move that is not a drop moves a piece
    if piece is None:
        raise RuntimeError("piece is None")
    text = (
        f"{chess.piece_symbol(piece).upper()}/"
        f"{chess.square_name(move.from_square)}-{chess.square_name(move.to_square)}"
    )
    if move.promotion is None:
        return text
    return f"{text}={chess.piece_symbol(move.promotion).upper()}"


# -- SAN ---------------------------------------------------------------------------------


#: A pawn's move to the last rank that names no piece: ``e8``, ``exd8``; ``e7e8``.
_PROMOTING_SAN = re.compile(r"(?:[a-h]x?)?[a-h][18][+#]?")
_PROMOTING_WIRE = re.compile(r"[a-h][27][a-h][18]")


def move_from_typed(
    board: chess.Board, text: str, case_sensitive: bool, promote: str = "q"
) -> chess.Move:
    """A move a player typed: :func:`move_from_wire`, and unless ``case_sensitive`` (FICS's
    ``iset movecase 0``, its default) the same move with its piece letter in upper case
    (``nf3`` is ``Nf3``; ``bc4`` is a b-pawn's capture when there is one, else ``Bc4``)
    or its coordinates in lower case (``E2E4``); a pawn's move to the last rank that names
    no piece promotes to ``promote`` (``set promote``, a queen unless set).

    >>> move_from_typed(chess.Board(), "nf3", False)
    Move.from_uci('g1f3')
    """
    try:
        return move_from_wire(board, text)
    except IllegalMoveError:
        if not text:
            raise
        tries = []
        if _PROMOTING_WIRE.fullmatch(text):
            tries.append(f"{text}{promote}")
        elif _PROMOTING_SAN.fullmatch(text):
            tries.append(f"{text.rstrip('+#')}={promote.upper()}")
        if not case_sensitive and text[0] in "nbrqk":
            tries.append(text[0].upper() + text[1:])
        if not case_sensitive and text != text.lower():
            tries.append(text.lower())
        for other in tries:
            try:
                return move_from_wire(board, other)
            except IllegalMoveError:
                continue
        raise


def move_from_san(board: chess.Board, text: str) -> chess.Move:
    """Read SAN with python-chess (``P@e4`` and ``@e4`` plunks in crazyhouse).

    >>> move_from_san(chess.Board(), "Nf3")
    Move.from_uci('g1f3')
    """
    try:
        move = board.parse_san(text)
    except chess.AmbiguousMoveError:
        raise _illegal(board, text, "ambiguous") from None
    except chess.InvalidMoveError:
        raise _illegal(board, text, "not SAN notation") from None
    except ValueError:  # chess.IllegalMoveError and anything else python-chess refuses
        raise _illegal(board, text) from None
    if not move:  # python-chess reads "--" as a null move
        raise _illegal(board, text, "a null move")
    if type(board) is chess.Board:  # python-chess's SAN of chess gives legal moves only
        return move
    # a variant's: python-chess takes "O-O" from the castlings, which a forced capture
    # does not remove
    return _legal(board, move, text)


def san_from_move(board: chess.Board, move: chess.Move) -> str:
    """SAN of a legal move of ``board``, with ``+``/``#``; a pawn plunk is ``P@e4``.

    >>> san_from_move(chess.Board(), chess.Move.from_uci("g1f3"))
    'Nf3'
    """
    _legal(board, move, move.uci())
    san = board.san(move)
    return "P" + san if move.drop == chess.PAWN else san


def push_with_notations(board: chess.Board, move: chess.Move) -> tuple[str, str, str]:
    """Play a move of ``board`` that one of this module's readers returned, and give its
    SAN, SMITH and style 12's verbose notation as :func:`san_from_move`,
    :func:`smith_from_move` and :func:`verbose_from_move` write them. The SAN is worked
    out once for the three, with the move played (python-chess's ``san_and_push``, not
    ``san`` and then ``push``, which plays it, takes it back and plays it again), and the
    reader's check of the move is not made again.

    >>> board = chess.Board()
    >>> push_with_notations(board, move_from_wire(board, "g1f3")), board.peek()
    (('Nf3', 'g1f3', 'N/g1-f3'), Move.from_uci('g1f3'))
    """
    verbose = _verbose(board, move)
    smith = "" if move.drop else _smith(board, move, "")  # the board before the move
    san = board.san_and_push(move)
    if move.drop:  # a plunk's SMITH takes its check mark from the SAN
        smith = _smith(board, move, san)
    return ("P" + san if move.drop == chess.PAWN else san), smith, verbose


# -- what clients type -------------------------------------------------------------------


def move_from_wire(board: chess.Board, text: str) -> chess.Move:
    """Read a move as clients send it (NOTES.md: XBoard sends ``e2e4``, ``o-o``, ``o-o-o``,
    ``e7e8=q``, ``P@e4``): coordinates with an optional ``=`` before the promotion,
    ``o-o``/``0-0``/``o-o-o``/``0-0-0``, a plunk, or else SAN.

    >>> move_from_wire(chess.Board(), "e2e4")
    Move.from_uci('e2e4')
    """
    kingside = _WIRE_CASTLING.get(text.lower())
    if kingside is not None:
        return _castling(board, kingside, text)
    if m := _WIRE_MOVE.fullmatch(text):
        try:
            return board.parse_uci(m[1] + m[2] + m[3].lower())
        except ValueError:
            castling = None
            from_square, to_square = chess.parse_square(m[1]), chess.parse_square(m[2])
            if (
                not m[3]
                and board.piece_type_at(from_square) == chess.KING
                and abs(chess.square_file(from_square) - chess.square_file(to_square)) >= 2
            ):
                castling = _castling_to(board, from_square, to_square)
            if castling is None:
                raise _illegal(board, text) from None
            return castling
    if m := _WIRE_DROP.fullmatch(text):
        square = chess.parse_square(m[2])
        return _legal(board, chess.Move(square, square, drop=_piece_type(m[1])), text)
    return move_from_san(board, text)
