"""Games as PGN: the seven required tags, TimeControl, Elo, Termination, SetUp/FEN and
``[%clk]`` comments, written so that python-chess reads the same moves back."""

from __future__ import annotations

import chess
import chess.pgn

from icswire.boards.game import Game
from icswire.boards.positions import BUGHOUSE

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


def game_to_pgn(game: Game) -> chess.pgn.Game:
    """A python-chess game with every known move, clocks as ``[%clk]`` comments, and the
    gaps (boards that never came) said in a comment where the moves stop."""
    pgn = chess.pgn.Game()
    pgn.setup(game.start)
    for name, value in headers(game).items():
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
    """The PGN text of ``game``. Games python-chess cannot replay (irregular semantics;
    bughouse, whose pockets fill from the partner's board) have their moves written as the
    server gave them, under a ``Variant`` tag naming the wild."""
    if game.replayed and game.wild != BUGHOUSE:
        return str(game_to_pgn(game)) + "\n"
    tags = headers(game)
    tags["Variant"] = "bughouse" if game.wild == BUGHOUSE else f"wild/{game.wild}"
    if game.start.fen() != chess.STARTING_FEN:
        tags["SetUp"], tags["FEN"] = "1", game.start.fen()
    movetext = []
    for ply, played in enumerate(game.moves):
        if ply % 2 == 0:
            movetext.append(f"{ply // 2 + 1}.")
        movetext.append(played.san)
    lines = [f'[{name} "{_escape(value)}"]' for name, value in tags.items()]
    return "\n".join(lines) + "\n\n" + " ".join([*movetext, tags["Result"]]) + "\n"


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')
