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
"""

from __future__ import annotations

import chess
import chess.pgn

from icswire.boards.game import Game

#: The width PGN's export format keeps the movetext in (lines of at most 79 characters),
#: which python-chess's exporter follows too; a longer comment stays whole on its line.
COLUMNS = 80

#: PGN Termination for each 3-letter result code of DG_GAMELIST_ITEM's table.
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
        default = chess.pgn.Headers(tags).board()  # what python-chess starts from
    except ValueError:  # a variant python-chess does not know
        default = game.new_board()
    if game.start.fen() != default.fen():
        tags["SetUp"], tags["FEN"] = "1", game.start.fen()
    return tags


def game_to_pgn(game: Game) -> chess.pgn.Game:
    """A python-chess game with every known move, clocks as ``[%clk]`` comments, and the
    gaps (boards that never came) said in a comment where the moves stop."""
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
        if played.clock_ms is not None:
            node.set_clock(played.clock_ms / 1000)
    for gap in game.gaps:
        note = f"boards missing after ply {gap.after_ply}; next position seen: {gap.seen}"
        node.comment = f"{node.comment} {note}".strip()
    return pgn


def pgn_text(game: Game) -> str:
    """The PGN text of ``game``. Games python-chess cannot replay by their own rules
    (losers, bughouse, whose pockets fill from the partner's board, ICC atomic, wild
    castling, wilds not played here) have their moves written as the server gave them."""
    if game.replayed and game.variant is not None and game.variant.pgn_replayable:
        return game_to_pgn(game).accept(chess.pgn.StringExporter(columns=COLUMNS)) + "\n"
    tags = headers(game)
    tags.update(variant_tags(game))
    movetext = []
    for ply, played in enumerate(game.moves):
        if ply % 2 == 0:
            movetext.append(f"{ply // 2 + 1}.")
        movetext.append(played.san)
    lines = [f'[{name} "{_escape(value)}"]' for name, value in tags.items()]
    return "\n".join(lines) + "\n\n" + _wrap([*movetext, tags["Result"]]) + "\n"


def _wrap(tokens: list[str]) -> str:
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
    return "\n".join(lines)


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')
