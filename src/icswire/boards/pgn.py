"""Games as PGN: the seven required tags, TimeControl, Elo, Termination, Variant, SetUp/FEN
and ``[%clk]`` comments, written so that python-chess reads the same moves back, with the
movetext in lines of at most 79 characters as PGN's export format asks.

The ``Variant`` tag is the registry's (:mod:`~icswire.boards.variants`): python-chess's
names where it plays the variant by the same rules (``Crazyhouse``, ``Chess960``,
``Suicide``, ``Giveaway``, ``Atomic``, ``Three-check``), FICS's ``wild/N`` for the wild
setups, which python-chess plays as chess from the ``FEN`` tag, and names python-chess does
not know for the rest (``Losers``, ``Bughouse``, ``wild/27``), whose moves are written as
the server gave them. ``SetUp``/``FEN`` appear whenever the start is not what the tag alone
would give.

The text is written here, not by python-chess's exporter: importing :mod:`chess.pgn` loads
python-chess's engine module and asyncio with it, which took ``icswire pgn`` longer than
the rest of its start-up (``bench/startup.py``). A game python-chess replays is written as
``game_to_pgn(game).accept(chess.pgn.StringExporter(columns=80))`` writes it, with
python-chess's rules for tags and for the board a game starts from (the tests hold the
two texts to each other); :func:`game_to_pgn` gives that python-chess game.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import TYPE_CHECKING

import chess
import chess.variant

from icswire.boards.game import Game, Gap

if TYPE_CHECKING:
    import chess.pgn

#: The width PGN's export format keeps the movetext in (lines of at most 79 characters),
#: which python-chess's exporter follows too; a longer comment stays whole on its line.
COLUMNS = 80

#: PGN Termination for each 3-letter result code of DG_GAMELIST_ITEM's table (the values of
#: codes.ResultCode, spelt out: ``icswire pgn`` does not load codes.py; a test compares).
TERMINATIONS = {
    "Res": "normal",
    "Mat": "normal",
    "Agr": "normal",
    "Sta": "normal",
    "Rep": "normal",
    "50": "normal",
    "NM": "normal",
    "TM": "normal",
    "NT": "normal",
    "1-0": "normal",
    "1/2": "normal",
    "Fla": "time forfeit",
    "Adj": "adjudication",
    "BQ": "abandoned",
    "BA": "abandoned",
    "Sho": "abandoned",
    "SD": "emergency",
    "?": "unterminated",
}
_RESULTS = ("1-0", "0-1", "1/2-1/2")

# python-chess's PGN rules (chess.pgn.Headers): the Seven Tag Roster, taken as it is; the
# names the other tags may have, with no line break in their values; the Variant tags it
# plays as chess, in chess960 mode or from the FEN (FICS's wild setups), compared lowercase.
_TAG_ROSTER = ("Event", "Site", "Date", "Round", "White", "Black", "Result")
_TAG_NAME = r"[A-Za-z0-9][A-Za-z0-9_+#=:-]*"
_CHESS960_TAGS = ("chess960", "chess 960", "fischerandom", "fischerrandom", "fischer random")
_WILD_TAGS = (
    "wild/0", "wild/1", "wild/2", "wild/3", "wild/4", "wild/5", "wild/6", "wild/7", "wild/8",
    "wild/8a",
)  # fmt: skip


def termination(game: Game) -> str:
    """The PGN Termination: from the result code, else from the end-of-game words."""
    if not game.finished:
        return "unterminated"
    if game.result == "aborted":
        return "abandoned"
    if game.result_code in TERMINATIONS:
        return TERMINATIONS[game.result_code]
    words = (game.result_description or "").lower()
    for clue, value in (
        ("on time", "time forfeit"),
        ("disconnect", "abandoned"),
        ("abort", "abandoned"),
        ("adjourn", "unterminated"),
        ("adjudicat", "adjudication"),
    ):
        if clue in words:
            return value
    return "normal"


def time_control(game: Game) -> str:
    """PGN TimeControl: the fancy time control when there is one (DG_GAME_STARTED), else
    ``seconds+increment`` from the initial minutes, ``-`` for untimed games."""
    if game.fancy_timecontrol:
        return game.fancy_timecontrol
    if game.initial_minutes is None:
        return "?"
    if game.initial_minutes == 0 and not game.increment_seconds:
        return "-"
    return f"{game.initial_minutes * 60}+{game.increment_seconds or 0}"


def headers(game: Game) -> dict[str, str]:
    """The tags of ``game``, in PGN order; tags the server sent (DG_PGN_TAG) win."""
    kind = f"{'rated' if game.rated else 'unrated'} {game.rating_type.lower()}".strip()
    tags = {
        "Event": f"ICS {kind} game".replace("  ", " "),
        "Site": "?",
        "Date": "????.??.??",
        "Round": "-",
        "White": game.white,
        "Black": game.black,
        "Result": game.result if game.result in _RESULTS else "*",
    }
    if game.white_rating > 0:
        tags["WhiteElo"] = str(game.white_rating)
    if game.black_rating > 0:
        tags["BlackElo"] = str(game.black_rating)
    tags["TimeControl"] = time_control(game)
    if game.eco:
        tags["ECO"] = game.eco
    if game.opening:
        tags["Opening"] = game.opening
    tags["Termination"] = termination(game)
    tags.update(game.tags)
    return tags


def variant_tags(game: Game) -> dict[str, str]:
    """The ``Variant`` tag of ``game`` (none for chess), and ``SetUp`` and ``FEN`` when its
    start is not the one that tag gives."""
    variant = game.variant
    tag = f"wild/{game.wild}" if variant is None else variant.pgn_variant
    tags = {} if tag is None else {"Variant": tag}
    try:
        default = start_board(tags)  # what python-chess starts from
    except ValueError:  # a variant python-chess does not know
        default = game.new_board()
    if game.start.fen() != default.fen():
        tags["SetUp"], tags["FEN"] = "1", game.start.fen()
    return tags


def start_board(tags: Mapping[str, str]) -> chess.Board:
    """The board python-chess's PGN reader starts a game with these tags from, as
    ``chess.pgn.Headers.board`` makes it: the ``Variant``'s board class (chess for the
    chess960 and wild spellings), in chess960 mode for those spellings or for castling
    rights only chess960 has, at ``FEN`` or else the class's start. ValueError for a
    variant python-chess does not play or a bad FEN."""
    variant = tags.get("Variant")
    chess960 = variant is not None and variant.lower() in _CHESS960_TAGS
    if variant is None or chess960 or variant.lower() in _WILD_TAGS:
        board_class = chess.Board
    else:
        board_class = chess.variant.find_variant(variant)
    board = board_class(tags.get("FEN", board_class.starting_fen), chess960=chess960)
    board.chess960 = board.chess960 or board.has_chess960_castling_rights()
    return board


def game_to_pgn(game: Game) -> chess.pgn.Game:
    """A python-chess game with every known move, clocks as ``[%clk]`` comments, and the
    gaps (boards that never came) said in a comment where the moves stop."""
    import chess.pgn

    pgn = chess.pgn.Game()
    pgn.setup(game.start)
    for name in ("Variant", "SetUp", "FEN"):
        pgn.headers.pop(name, None)
    for name, value in {**headers(game), **variant_tags(game)}.items():
        pgn.headers[name] = value
    node: chess.pgn.GameNode = pgn
    for played in game.moves:
        if played.move is None:
            break
        node = node.add_variation(played.move)
        node.comment = played.comment
        if played.clock_ms is not None:
            node.set_clock(played.clock_ms / 1000)
    for gap in game.gaps:
        node.comment = f"{node.comment} {_gap_note(gap)}".strip()
    return pgn


def _gap_note(gap: Gap) -> str:
    return f"boards missing after ply {gap.after_ply}; next position seen: {gap.seen}"


def pgn_text(game: Game) -> str:
    """The PGN text of ``game``. Games python-chess cannot replay by their own rules
    (losers, bughouse, whose pockets fill from the partner's board, ICC atomic, wild
    castling, wilds not played here) have their moves written as the server gave them."""
    tags = {**headers(game), **variant_tags(game)}
    if game.replayed and game.variant is not None and game.variant.pgn_replayable:
        return _replayed_text(game, tags)
    movetext = []
    for ply, played in enumerate(game.moves):
        if ply % 2 == 0:
            movetext.append(f"{ply // 2 + 1}.")
        movetext.append(played.san)
        if played.comment:
            movetext.append(f"{{ {played.comment} }}")
    lines = [f'[{name} "{_escape(value)}"]' for name, value in tags.items()]
    return "\n".join([*lines, "", *_wrap([*movetext, tags["Result"]])]) + "\n"


def _replayed_text(game: Game, tags: dict[str, str]) -> str:
    """What python-chess's exporter writes of :func:`game_to_pgn`: its tags as they are
    (ValueError for one python-chess refuses), the moves in SAN replayed from the tags'
    start, a move number for White and for Black after a comment, the comments of
    :func:`game_to_pgn`, all in :data:`COLUMNS` columns."""
    for name, value in tags.items():
        _check_tag(name, value)
    moves: list[chess.Move] = []
    comments = [""]  # of the game, then of each move
    for played in game.moves:
        if played.move is None:
            break
        moves.append(played.move)
        clock = "" if played.clock_ms is None else _clock(played.clock_ms)
        comments.append(f"{played.comment} {clock}".strip())  # as python-chess writes both
    for gap in game.gaps:  # after the last move (before the first, when there is none)
        comments[-1] = f"{comments[-1]} {_gap_note(gap)}".strip()
    tokens = [f"{{ {comments[0]} }}"] if comments[0] else []
    board = start_board(tags)
    numbered = True
    for move, comment in zip(moves, comments[1:], strict=True):
        if board.turn == chess.WHITE:
            tokens.append(f"{board.fullmove_number}.")
        elif numbered:
            tokens.append(f"{board.fullmove_number}...")
        tokens.append(board.san(move))
        board.push(move)
        numbered = bool(comment)
        if comment:
            tokens.append(f"{{ {comment} }}")
    lines = [f'[{name} "{value}"]' for name, value in tags.items()]
    movetext = [line.rstrip() for line in _wrap([*tokens, tags["Result"]])]
    return "\n".join([*lines, "", *movetext]).rstrip() + "\n"  # no blank line at the end


def _check_tag(name: str, value: str) -> None:
    """Refuse a tag python-chess's ``Headers`` refuses (ValueError, with its message)."""
    if name in _TAG_ROSTER:
        return
    if re.fullmatch(_TAG_NAME, name) is None:
        raise ValueError(f"invalid pgn header tag: {name!r}")
    if "\n" in value or "\r" in value:
        raise ValueError(f"line break in pgn header {name}: {value!r}")


def _clock(ms: int) -> str:
    """``[%clk h:mm:ss]``, with the thousandths when there are any, as python-chess's
    ``set_clock`` writes ``ms / 1000`` seconds (none below 0)."""
    ms = max(0, ms)
    seconds = f"{ms // 1000 % 60:02d}.{ms % 1000:03d}".rstrip("0").rstrip(".")
    return f"[%clk {ms // 3_600_000:d}:{ms // 60_000 % 60:02d}:{seconds}]"


def _wrap(tokens: list[str]) -> list[str]:
    """Movetext in lines that fit in :data:`COLUMNS` columns, broken between tokens."""
    lines: list[str] = []
    line = ""
    for token in tokens:
        if line and len(line) + 1 + len(token) >= COLUMNS:
            lines.append(line)
            line = token
        else:
            line = f"{line} {token}" if line else token
    lines.append(line)
    return lines


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')
