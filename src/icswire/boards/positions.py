"""Positions from the wire's board records, and style 12 / style 10 records from positions.

The records are those of :mod:`icswire.protocol`: style 12 (icc-style12.txt), style 10
(icc-style10.txt), ``<b1>`` holdings, the 64-character boards of DG_MOVE_LIST (25) and
DG_SET_BOARD (84) ("what occupies (-PNBRQKpnbrqk) each square, in lexigraphic order (a8
b8 ... h1)"), DG_JBOARD (49) and FEN (DG_FEN 70, DG_POSITION_BEGIN 101). Boards are
python-chess boards of the variant's class (:mod:`~icswire.boards.variants`): the ``wild``
argument is an ICC wild number (0 chess, 22 Fischer random, 23 crazyhouse, 24 bughouse...),
a :class:`~icswire.boards.variants.Variant`, or a variant's name (``"suicide"``,
``"wild/8a"``), since style 12 itself never says which variant it shows.

Style 12's castling flags say short and long; a king on the d file (wild 0 and 1) castles
short towards the a file (:class:`~icswire.boards.wilds.WildCastleBoard`).

Style 12's double-push file becomes python-chess's ``ep_square`` (the square behind a pawn
that has just made a double push, whether or not it can be taken en passant), and back.

>>> board = board_from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1")
>>> board_to_64(board)[32:40]
'----P---'
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Final, NamedTuple, Protocol, TypeAlias

import chess
import chess.variant

import icswire.boards.variants as variants
from icswire.boards.moves import san_from_move, verbose_from_move
from icswire.boards.variants import VariantLike
from icswire.boards.wilds import WildCastleBoard
from icswire.protocol.bughouse import Bughouse
from icswire.protocol.datagrams import DG, DatagramRecord, Record
from icswire.protocol.style12 import Style12

if TYPE_CHECKING:  # annotations only (style10_from_board imports Style10 when it runs)
    import random

    from icswire.protocol.style10 import Style10

__all__ = [
    "BUGHOUSE",
    "CHESS960",
    "CRAZYHOUSE",
    "Placement",
    "PlacementLike",
    "board_from_64",
    "board_from_fen",
    "board_from_jboard",
    "board_from_style10",
    "board_from_style12",
    "board_to_64",
    "holding_text",
    "new_board",
    "placement",
    "strength",
    "style10_from_board",
    "style10_from_view",
    "style10_of",
    "style12_from_board",
    "style12_from_view",
]

CHESS960: Final = 22
"""Wild 22, Fischer random: python-chess's chess960 mode (castling rights as X-FEN)."""
CRAZYHOUSE: Final = 23
"""Wild 23, crazyhouse: captured pieces go to the capturer's pocket."""
BUGHOUSE: Final = 24
"""Wild 24, bughouse: crazyhouse rules, the pockets filled from the partner's board."""

_SIDES: Final = {"W": chess.WHITE, "B": chess.BLACK}
_SIDE_LETTERS: Final = {chess.WHITE: "W", chess.BLACK: "B"}
_BOARD64_SQUARES: Final = frozenset("-PNBRQKpnbrqk")
_PIECE_LETTERS: Final = ("", "P", "N", "B", "R", "Q", "K")  # by python-chess piece type


def new_board(
    wild: VariantLike = 0, fen: str | None = None, rng: random.Random | None = None
) -> chess.Board:
    """A board of the variant ``wild`` at ``fen``, else at the variant's start (a random
    setup drawn from ``rng``; without ``rng``, the chess arrangement). Raises
    :class:`~icswire.boards.variants.UnsupportedVariantError` for a variant not played.

    >>> new_board(CRAZYHOUSE).fen()
    'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1'
    >>> new_board("wild/5").fen()
    'RNBKQBNR/PPPPPPPP/8/8/8/8/pppppppp/rnbkqbnr w - - 0 1'
    """
    return variants.new_board(wild, rng, fen)


def board_from_fen(fen: str, wild: VariantLike = 0) -> chess.Board:
    """The position of a FEN (DG_FEN, DG_POSITION_BEGIN); X-FEN castling for wild 22,
    pockets (``[Pq]``) for wild 23 and 24, check counts (``3+3``) for three-check."""
    return new_board(wild, fen)


Flags: TypeAlias = tuple[bool, bool, bool, bool]
"""Style 12's castling flags: White short, White long, Black short, Black long."""


def _side(side_to_move: str) -> chess.Color:
    try:
        return _SIDES[side_to_move]
    except KeyError:
        raise ValueError(f"side to move must be 'W' or 'B', got {side_to_move[:40]!r}") from None


def _place(
    board: chess.Board,
    ranks: Sequence[str],
    empty: str,
    turn: chess.Color,
    double_push_file: int,
    castling: str | Flags,
    halfmove_clock: int,
    fullmove_number: int,
) -> chess.Board:
    """Set up ``board`` from ranks 8 to 1 (``empty`` marks an empty square), dropping the
    castling rights (X-FEN, or style 12's four flags) whose king or rook is not there and
    an en passant square whose pawn is not there."""
    if not -1 <= double_push_file <= 7:
        raise ValueError(f"double-push file must be -1..7, got {double_push_file}")
    board.set_piece_map(
        {
            chess.square(file, 7 - row): chess.Piece.from_symbol(symbol)
            for row, rank in enumerate(ranks)
            for file, symbol in enumerate(rank)
            if symbol != empty
        }
    )
    board.turn = turn
    if isinstance(castling, str):
        board.set_castling_fen(castling)
    elif isinstance(board, WildCastleBoard):
        board.set_castling_flags(*castling)
    else:
        board.set_castling_fen(_castling_fen(*castling))
    board.castling_rights = board.clean_castling_rights()
    if double_push_file >= 0:
        pawn = chess.square(double_push_file, 4 if turn == chess.WHITE else 3)
        if board.piece_at(pawn) == chess.Piece(chess.PAWN, not turn):
            board.ep_square = chess.square(double_push_file, 5 if turn == chess.WHITE else 2)
    board.halfmove_clock = halfmove_clock
    board.fullmove_number = fullmove_number
    return board


def _castling_fen(white_short: bool, white_long: bool, black_short: bool, black_long: bool) -> str:
    """Style 12's four castling flags as ``KQkq`` (X-FEN: the outermost rook on that side)."""
    flags = zip("KQkq", (white_short, white_long, black_short, black_long), strict=True)
    return "".join(letter for letter, on in flags if on) or "-"


def _set_holdings(board: chess.Board, holdings: Bughouse) -> None:
    if not isinstance(board, chess.variant.CrazyhouseBoard):
        raise ValueError("holdings need a crazyhouse or bughouse board (wild 23 or 24)")
    for color, letters in zip(
        chess.COLORS, (holdings.white_holding, holdings.black_holding), strict=True
    ):
        pocket = board.pockets[color]
        pocket.reset()
        for letter in letters:
            pocket.add(chess.Piece.from_symbol(letter).piece_type)


def board_from_style12(
    rec: Style12, wild: VariantLike = 0, holdings: Bughouse | None = None
) -> chess.Board:
    """The position of a style 12 line; for wild 23/24 the pockets from its ``<b1>`` line.

    Castling flags name a side, not a rook: in chess960 short and long castling are with
    the outermost rook on that side of the king (X-FEN). Rights whose king and rook are not
    where castling needs them are dropped; so is a double-push file without its pawn.
    """
    board = _place(
        new_board(wild),
        rec.ranks,
        "-",
        _side(rec.side_to_move),
        rec.double_push_file,
        (
            rec.white_castle_short,
            rec.white_castle_long,
            rec.black_castle_short,
            rec.black_castle_long,
        ),
        rec.halfmove_clock,
        rec.move_number,
    )
    if holdings is not None:
        _set_holdings(board, holdings)
    return board


def board_from_style10(rec: Style10, wild: VariantLike = 0) -> chess.Board:
    """The position of a style 10 block (a blank is an empty square); as
    :func:`board_from_style12`."""
    return _place(
        new_board(wild),
        rec.ranks,
        " ",
        _side(rec.side_to_move),
        rec.double_push_file,
        (
            rec.white_castle_short,
            rec.white_castle_long,
            rec.black_castle_short,
            rec.black_castle_long,
        ),
        rec.halfmove_clock,
        rec.move_number,
    )


def board_from_64(
    board64: str, side_to_move: str, wild: VariantLike = 0, castling: str | None = None
) -> chess.Board:
    """The position of a 64-character board (DG_MOVE_LIST's initial position, DG_SET_BOARD).

    These carry no castling rights: with ``castling=None`` a king and rook on their starting
    squares may castle (in chess960 the outermost rooks of a king on its back rank, as at
    the start of a game); otherwise ``castling`` is an X-FEN castling field (``KQkq``,
    ``HAha``, ``-``). No en passant square; halfmove clock 0, move number 1.

    >>> board_from_64("rnbqkbnr" + "p" * 8 + "-" * 32 + "P" * 8 + "RNBQKBNR", "W").fen()
    'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1'
    """
    turn = _side(side_to_move)
    castling = "KQkq" if castling is None else castling
    return _place(new_board(wild), _ranks_of_64(board64), "-", turn, -1, castling, 0, 1)


def _ranks_of_64(board64: str) -> list[str]:
    if len(board64) != 64 or not _BOARD64_SQUARES.issuperset(board64):
        raise ValueError(f"a board must be 64 characters of '-PNBRQKpnbrqk', got {board64[:80]!r}")
    return [board64[i : i + 8] for i in range(0, 64, 8)]


def board_to_64(board: chess.Board) -> str:
    """The 64-character board of DG_MOVE_LIST / DG_SET_BOARD: a8, b8 ... h1, ``-`` empty."""
    return "".join(_ranks(board))


#: Seven bitboards packed into one integer, 64 bits each: both colours' squares, then
#: pawns, knights, bishops, rooks and queens (a king is what is occupied and none of them).
_PACKED_BOARDS: Final = 7
#: The low 8 bits (one rank) of each of the packed bitboards.
_RANK_LANES: Final = sum(0xFF << (64 * lane) for lane in range(_PACKED_BOARDS))
#: Where each rank, 8 to 1, starts in a bitboard.
_RANK_SHIFTS: Final = tuple(range(56, -8, -8))
_RANK_LETTERS: Final = "PNBRQ"
#: Ranks worked out, by their packed bits; emptied when it holds ``_RANKS_KEPT``.
_RANK_TEXTS: dict[int, str] = {}
_RANKS_KEPT: Final = 8192


def _ranks(board: chess.Board) -> list[str]:
    """Ranks 8 to 1 as 8 characters each, ``-`` for empty squares, where ``board_fen``
    looks at all 64 squares one by one: the board's bitboards packed into one integer
    once, then each rank's 8 bits of them looked up among the ranks already written
    (games repeat ranks: empty ones, pawn chains, back ranks), written when new."""
    packed = (
        board.occupied_co[chess.WHITE]
        | board.occupied_co[chess.BLACK] << 64
        | board.pawns << 128
        | board.knights << 192
        | board.bishops << 256
        | board.rooks << 320
        | board.queens << 384
    )
    texts = _RANK_TEXTS
    ranks = []
    for shift in _RANK_SHIFTS:
        bits = packed >> shift & _RANK_LANES
        text = texts.get(bits)
        if text is None:
            if len(texts) >= _RANKS_KEPT:
                texts.clear()
            text = texts[bits] = _rank_text(bits)
        ranks.append(text)
    return ranks


def _rank_text(bits: int) -> str:
    """One rank from its packed bits (see :func:`_ranks`), files a to h."""
    lanes = [bits >> (64 * lane) & 0xFF for lane in range(_PACKED_BOARDS)]
    white, black, kinds = lanes[0], lanes[1], lanes[2:]
    squares = []
    for file in range(8):
        bit = 1 << file
        if not (white | black) & bit:
            squares.append("-")
            continue
        letter = next((_RANK_LETTERS[i] for i, kind in enumerate(kinds) if kind & bit), "K")
        squares.append(letter if white & bit else letter.lower())
    return "".join(squares)


def board_from_jboard(rec: Record, wild: VariantLike = 0) -> chess.Board:
    """The position of a DG_JBOARD (49) record: 64-character board, side to move,
    double-push file, the four style 12 castling flags and the move number. It has no
    halfmove clock: that is 0."""
    if not isinstance(rec, DatagramRecord) or rec.dg != DG.JBOARD:
        raise ValueError(f"expected a DG_JBOARD record, got {rec.spec_name}")
    fields = rec._asdict()
    return _place(
        new_board(wild),
        _ranks_of_64(fields["board"]),
        "-",
        _side(fields["side_to_move"]),
        fields["double_push_file"],
        (
            fields["white_castle_short"],
            fields["white_castle_long"],
            fields["black_castle_short"],
            fields["black_castle_long"],
        ),
        0,
        fields["move_number"],
    )


def strength(board: chess.Board, color: chess.Color) -> int:
    """Material on the board as style 12's strength fields count it: pawn 1, knight and
    bishop 3, rook 5, queen 9 (39 at the start)."""
    mine = board.occupied_co[color]
    return (
        (board.pawns & mine).bit_count()
        + 3 * ((board.knights | board.bishops) & mine).bit_count()
        + 5 * (board.rooks & mine).bit_count()
        + 9 * (board.queens & mine).bit_count()
    )


def last_move_notations(board: chess.Board) -> tuple[str, str]:
    """Style 12's verbose and pretty notations of the last move, ``none`` if none."""
    if not board.move_stack:
        return "none", "none"
    before = board.copy(stack=1)
    move = before.pop()
    # After pop() a CrazyhouseBoard's pockets are the very objects kept in ``board``'s
    # move stack (python-chess 1.11), and san() pushes and pops: work on a fresh copy.
    before = before.copy(stack=False)
    return verbose_from_move(before, move), san_from_move(before, move)


_HOLDING_ORDER: Final = (chess.PAWN, chess.KNIGHT, chess.BISHOP, chess.ROOK, chess.QUEEN)


def holding_text(board: chess.Board, color: chess.Color) -> str:
    """The pieces ``color`` holds (crazyhouse, bughouse) in FICS's order (``<b1>``): P N B
    R Q; empty for a board without holdings."""
    pockets = getattr(board, "pockets", None)
    if pockets is None:
        return ""
    pocket = pockets[color]
    return "".join(_PIECE_LETTERS[piece] * pocket.count(piece) for piece in _HOLDING_ORDER)


def _castling_flags(board: chess.Board) -> Flags:
    """Style 12's four castling flags; all off without asking the board when no castling
    right is left (every board's rights are a part of ``castling_rights``). A plain
    ``chess.Board``'s are read from one :meth:`~chess.Board.clean_castling_rights` (the
    ``has_*_castling_rights`` methods work it out once each); a subclass asks its own."""
    if not board.castling_rights:
        return False, False, False, False
    if type(board) is chess.Board:
        rights = board.clean_castling_rights()
        return (*_sides(board, rights, chess.WHITE), *_sides(board, rights, chess.BLACK))
    return (
        board.has_kingside_castling_rights(chess.WHITE),
        board.has_queenside_castling_rights(chess.WHITE),
        board.has_kingside_castling_rights(chess.BLACK),
        board.has_queenside_castling_rights(chess.BLACK),
    )


def _sides(board: chess.Board, rights: chess.Bitboard, color: chess.Color) -> tuple[bool, bool]:
    """``color``'s (kingside, queenside) castling rights out of the board's clean
    ``rights``, as python-chess's ``has_kingside_castling_rights`` and
    ``has_queenside_castling_rights`` tell them: a right's rook above the king's
    (non-promoted, on the back rank) square is h-side, one below it a-side."""
    backrank = chess.BB_RANK_1 if color else chess.BB_RANK_8
    king = board.kings & board.occupied_co[color] & backrank & ~board.promoted
    rooks = rights & backrank
    if not king or not rooks:
        return False, False
    return 1 << (rooks.bit_length() - 1) > king, rooks & -rooks < king


#: Standard chess's castling in X-FEN by the corners whose rights are left.
_CORNERS: Final = chess.BB_H1 | chess.BB_A1 | chess.BB_H8 | chess.BB_A8
_CORNER_LETTERS: Final = (
    (chess.BB_H1, "K"),
    (chess.BB_A1, "Q"),
    (chess.BB_H8, "k"),
    (chess.BB_A8, "q"),
)


def _castling_xfen(board: chess.Board) -> str:
    """``board.castling_xfen()`` of a plain ``chess.Board``: ``KQkq`` letters read from the
    corners when the rights are only rooks in the corners with their king on its e file
    square (every standard game), else python-chess's (which looks at every rook)."""
    if not board.castling_rights:
        return "-"
    rights = board.clean_castling_rights()
    if not rights:
        return "-"
    if (
        board.chess960
        or rights & ~_CORNERS
        or (rights & chess.BB_RANK_1 and board.king(chess.WHITE) != chess.E1)
        or (rights & chess.BB_RANK_8 and board.king(chess.BLACK) != chess.E8)
    ):
        return board.castling_xfen()
    return "".join([letter for corner, letter in _CORNER_LETTERS if rights & corner])


class Placement(NamedTuple):
    """What style 12 (and style 10, DG_JBOARD) read from a position rather than from the
    game: the ranks (8 to 1, ``-`` empty), the side to move (``W``, ``B``), the
    double-push file (-1 none), the four castling flags (:func:`_castling_flags`), the
    halfmove clock, the move number and both strengths (:func:`strength`)."""

    ranks: tuple[str, ...]
    side_to_move: str
    double_push_file: int
    castling: Flags
    halfmove_clock: int
    move_number: int
    strengths: tuple[int, int]


class PlacementLike(Protocol):
    """A :class:`Placement`'s fields, read-only: a placement, or a value that carries one
    (a domain event's board view)."""

    @property
    def ranks(self) -> tuple[str, ...]: ...
    @property
    def side_to_move(self) -> str: ...
    @property
    def double_push_file(self) -> int: ...
    @property
    def castling(self) -> Flags: ...
    @property
    def halfmove_clock(self) -> int: ...
    @property
    def move_number(self) -> int: ...
    @property
    def strengths(self) -> tuple[int, int]: ...


def placement(board: chess.Board) -> Placement:
    """``board``'s :class:`Placement`."""
    ep = board.ep_square
    return Placement(
        tuple(_ranks(board)),
        _SIDE_LETTERS[board.turn],
        -1 if ep is None else chess.square_file(ep),
        _castling_flags(board),
        board.halfmove_clock,
        board.fullmove_number,
        (strength(board, chess.WHITE), strength(board, chess.BLACK)),
    )


@functools.lru_cache(maxsize=4096)
def _fen_rank(rank: str) -> str:
    """A style 12 rank (``-`` empty) as FEN writes it: runs of empty squares counted."""
    return _EMPTY_RUNS.sub(lambda run: str(len(run[0])), rank)


_EMPTY_RUNS: Final = re.compile("-+")


def fen_of(board: chess.Board, ranks: Sequence[str]) -> str:
    """``board.fen(en_passant="fen")`` (the en passant square after any double push, as
    style 12 shows it), its placement made from ``ranks`` (style 12's, worked out
    already) instead of 64 look-ups; boards of other classes (holdings, check counts,
    wild castling) write their own."""
    if type(board) is not chess.Board:
        return board.fen(en_passant="fen")
    ep = board.ep_square
    return " ".join(
        (
            "/".join([_fen_rank(rank) for rank in ranks]),
            "w" if board.turn else "b",
            _castling_xfen(board),
            "-" if ep is None else chess.SQUARE_NAMES[ep],
            str(board.halfmove_clock),
            str(board.fullmove_number),
        )
    )


def style12_from_board(
    board: chess.Board,
    *,
    game_number: int,
    white_name: str,
    black_name: str,
    relation: int,
    initial_time: int,
    increment: int,
    white_time: int,
    black_time: int,
    move_time_ms: int = 0,
    move_time_precise: bool = False,
    flip: bool = False,
    clock_ticking: bool | None = None,
    lag_ms: int | None = None,
    last_move: tuple[str, str] | None = None,
) -> Style12:
    """The style 12 record of ``board``; the arguments give what a board does not know.

    From the board: its :class:`Placement` and the last move of its move stack.
    ``last_move`` (verbose, pretty) spares working the last move out again when the caller
    knows it.
    """
    return style12_from_view(
        placement(board),
        last_move_notations(board) if last_move is None else last_move,
        game_number=game_number,
        white_name=white_name,
        black_name=black_name,
        relation=relation,
        initial_time=initial_time,
        increment=increment,
        white_time=white_time,
        black_time=black_time,
        move_time_ms=move_time_ms,
        move_time_precise=move_time_precise,
        flip=flip,
        clock_ticking=clock_ticking,
        lag_ms=lag_ms,
    )


def style12_from_view(
    view: PlacementLike,
    last_move: tuple[str, str],
    *,
    game_number: int,
    white_name: str,
    black_name: str,
    relation: int,
    initial_time: int,
    increment: int,
    white_time: int,
    black_time: int,
    move_time_ms: int = 0,
    move_time_precise: bool = False,
    flip: bool = False,
    clock_ticking: bool | None = None,
    lag_ms: int | None = None,
) -> Style12:
    """The style 12 record of a position's placement ``view`` (no board needed: a node
    renders a move made on another one from the view it ships) and its last move
    (verbose, pretty; ``none`` for none); the other arguments as
    :func:`style12_from_board`'s."""
    white_short, white_long, black_short, black_long = view.castling
    white_strength, black_strength = view.strengths
    return Style12(
        ranks=view.ranks,
        side_to_move=view.side_to_move,
        double_push_file=view.double_push_file,
        white_castle_short=white_short,
        white_castle_long=white_long,
        black_castle_short=black_short,
        black_castle_long=black_long,
        halfmove_clock=view.halfmove_clock,
        game_number=game_number,
        white_name=white_name,
        black_name=black_name,
        relation=relation,
        initial_time=initial_time,
        increment=increment,
        white_strength=white_strength,
        black_strength=black_strength,
        white_time=white_time,
        black_time=black_time,
        move_number=view.move_number,
        verbose_move=last_move[0],
        move_time_ms=move_time_ms,
        move_time_precise=move_time_precise,
        pretty_move=last_move[1],
        flip=flip,
        clock_ticking=clock_ticking,
        lag_ms=lag_ms,
    )


def style10_from_board(
    board: chess.Board,
    *,
    game_number: int,
    white_name: str,
    black_name: str,
    relation: int,
    initial_time: int,
    increment: int,
    white_time: int,
    black_time: int,
    move_time_ms: int = 0,
    move_time_precise: bool = False,
    header: str = '"10"',
    last_move: tuple[str, str] | None = None,
) -> Style10:
    """The style 10 record of ``board`` (``header`` ``'"10"'`` for ICC's form, ``'<10>'``
    for FICS's); as :func:`style12_from_board`."""
    return style10_from_view(
        placement(board),
        last_move_notations(board) if last_move is None else last_move,
        game_number=game_number,
        white_name=white_name,
        black_name=black_name,
        relation=relation,
        initial_time=initial_time,
        increment=increment,
        white_time=white_time,
        black_time=black_time,
        move_time_ms=move_time_ms,
        move_time_precise=move_time_precise,
        header=header,
    )


def style10_from_view(
    view: PlacementLike,
    last_move: tuple[str, str],
    *,
    game_number: int,
    white_name: str,
    black_name: str,
    relation: int,
    initial_time: int,
    increment: int,
    white_time: int,
    black_time: int,
    move_time_ms: int = 0,
    move_time_precise: bool = False,
    header: str = '"10"',
) -> Style10:
    """The style 10 record of a placement and its last move; as :func:`style12_from_view`
    and :func:`style10_from_board`."""

    rec = style12_from_view(
        view,
        last_move,
        game_number=game_number,
        white_name=white_name,
        black_name=black_name,
        relation=relation,
        initial_time=initial_time,
        increment=increment,
        white_time=white_time,
        black_time=black_time,
        move_time_ms=move_time_ms,
        move_time_precise=move_time_precise,
    )
    return style10_of(rec, header)


def style10_of(rec: Style12, header: str = '"10"') -> Style10:
    """The style 10 record that shows what style 12 record ``rec`` shows: style 10 has
    style 12's fields from side_to_move to pretty_move (``rec[1:23]``)."""
    from icswire.protocol.style10 import Style10

    return Style10(header, tuple(rank.replace("-", " ") for rank in rec.ranks), *rec[1:23])
