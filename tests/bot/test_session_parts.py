"""The session's parts that need no server: challenges and offers read from the client's
state in both dialects, moves on the wire, evaluations in words, seek commands, the
owner's commands, PGN files, and the engine's own board."""

from __future__ import annotations

import random
from pathlib import Path

import chess
import chess.pgn
import chess.variant
import pytest

from icswire.boards import variants
from icswire.boards.game import Game
from icswire.boards.moves import move_from_wire
from icswire.bot.challenges import challenges_to, fics_variant, parse_fics_terms
from icswire.bot.config import Seek
from icswire.bot.engine import Choice
from icswire.bot.games import fresh_board, kibitz_text, score_text, wire_move
from icswire.bot.offers import offers_to_me
from icswire.bot.owner import Command, parse_command, tell_of
from icswire.bot.pgnfiles import save_game
from icswire.bot.seeks import seek_command
from icswire.client.state import MyGame, Player, State
from icswire.protocol import datagrams as dg
from icswire.protocol.events import Text
from icswire.protocol.ivars import PendingFrom, PendingTo

# -- challenges ------------------------------------------------------------------------------


def test_a_dg_match_gives_the_challenge_facts_and_its_answers() -> None:
    state = State(me="Fishy")
    record = dg.Match(
        "Robo", 1612, 0, "U", "Fishy", 2000, 0, "C", 23, "Crazyhouse", True, False,
        3, 2, 3, 2, -1,
    )  # fmt: skip
    state.matches["Robo", "Fishy"] = record
    state.matches["Fishy", "Other"] = record._replace(challenger="Fishy", receiver="Other")
    (challenge,) = challenges_to(state, "icc")
    facts = challenge.facts
    assert (facts.opponent, facts.rating, facts.registered, facts.rated) == (
        "Robo", 1612, False, True,
    )  # fmt: skip
    assert (facts.variant, facts.base, facts.increment) == ("crazyhouse", 3.0, 2)
    assert (challenge.accept_command, challenge.decline_command) == ("accept Robo", "decline Robo")
    assert not challenge.adjourned
    unknown = record._replace(wild_number=16, adjourned=True, challenger_rating=0)
    state.matches["Robo", "Fishy"] = unknown
    (challenge,) = challenges_to(state, "icc")
    assert challenge.facts.variant is None and challenge.facts.rating is None
    assert challenge.adjourned


def test_a_fics_pf_match_gives_the_challenge_facts_and_its_answers() -> None:
    state = State(me="Fishy")
    state.players["Guest"] = Player("Guest", titles="U")
    terms = "Robo (1500P) [white] Fishy (----) rated wild/fr 5 12"
    state.matches["Robo", "Fishy"] = PendingFrom(7, "Robo", "match", terms)
    state.matches["Guest", "Fishy"] = PendingFrom(
        8, "Guest", "match", "Guest (----) Fishy (----) unrated lightning 1 0 (adjourned)"
    )
    state.matches["Fishy", "Robo"] = PendingTo(9, "Robo", "match", terms)
    robo, guest = challenges_to(state, "fics")
    assert (robo.facts.rating, robo.facts.registered, robo.facts.variant) == (1500, True, "fr")
    assert (robo.facts.base, robo.facts.increment, robo.facts.rated) == (5.0, 12, True)
    assert (robo.accept_command, robo.decline_command) == ("accept 7", "decline 7")
    assert (guest.facts.registered, guest.facts.variant, guest.adjourned) == (False, "chess", True)


@pytest.mark.parametrize(
    ("params", "terms"),
    [
        ("a (1500) b (----) unrated blitz 5 0", ("1500", False, "blitz", 5, 0, False)),
        ("a (++++) [black] b (2100) rated suicide 2 12", ("++++", True, "suicide", 2, 12, False)),
        ("nonsense", None),
    ],
)
def test_fics_match_terms(params: str, terms: object) -> None:
    assert parse_fics_terms(params) == terms


@pytest.mark.parametrize(
    ("kind", "name"),
    [("standard", "chess"), ("crazyhouse", "crazyhouse"), ("w17", "losers"), ("w16", None),
     ("bughouse", "bughouse"), ("no-such", None)],
)  # fmt: skip
def test_fics_game_types_name_variants(kind: str, name: str | None) -> None:
    assert fics_variant(kind) == name


# -- offers ----------------------------------------------------------------------------------


def _mine(relation: str, offers: object) -> MyGame:
    return MyGame(Game(5, "Fishy", "Robo"), relation, offers=offers)


def test_icc_offers_are_the_opponents_flags() -> None:
    record = dg.OffersInMyGame(5, True, True, False, True, False, True, 0, 2)
    offers = offers_to_me(_mine("PW", record), "icc")  # the bot is White: Black's flags
    assert [(o.kind, o.plies, o.accept_command, o.decline_command) for o in offers] == [
        ("draw", 0, "draw", "decline draw"),
        ("abort", 0, "abort", "decline abort"),
        ("adjourn", 0, "adjourn", "decline adjourn"),
        ("takeback", 2, "takeback 2", "decline takeback"),
    ]
    assert [o.kind for o in offers_to_me(_mine("PB", record), "icc")] == ["draw"]
    assert offers_to_me(_mine("O", record), "icc") == []


def test_fics_offers_are_the_opponents_pf_records() -> None:
    records = (
        PendingFrom(3, "Robo", "takeback", "2"),
        PendingFrom(4, "Robo", "draw", "#"),
        PendingTo(5, "Robo", "abort", "#"),  # the bot's own
        PendingFrom(6, "Someone", "draw", "#"),  # not in this game
    )
    offers = offers_to_me(_mine("PW", records), "fics")
    assert [(o.kind, o.plies, o.accept_command, o.decline_command) for o in offers] == [
        ("takeback", 2, "accept 3", "decline 3"),
        ("draw", 0, "accept 4", "decline 4"),
    ]


# -- moves and words -------------------------------------------------------------------------


def test_moves_on_the_wire() -> None:
    board = chess.Board("r3k2r/1P6/8/8/8/8/8/R3K2R w KQkq - 0 1")
    assert wire_move(board, chess.Move.from_uci("e1c1")) == "o-o-o"
    assert wire_move(board, chess.Move.from_uci("b7a8q")) == "b7a8q"
    fischer = chess.Board("1r2k1r1/8/8/8/8/8/8/1R2K1R1 w GBgb - 0 1", chess960=True)
    assert wire_move(fischer, chess.Move.from_uci("e1g1")) == "o-o"  # king takes rook
    house = chess.variant.CrazyhouseBoard("4k3/8/8/8/8/8/8/4K3[N] w - - 0 1")
    assert wire_move(house, chess.Move.from_uci("N@e4")) == "N@e4"


@pytest.mark.parametrize(
    ("score", "text"),
    [(35, "+0.35"), (-120, "-1.20"), (0, "+0.00"), (99_995, "#3"), (-99_996, "#-2"),
     (None, "?")],
)  # fmt: skip
def test_evaluations_in_words(score: int | None, text: str) -> None:
    assert score_text(score) == text


def test_the_whisper_names_the_line() -> None:
    board = chess.Board()
    pv = tuple(chess.Move.from_uci(u) for u in ("e2e4", "e7e5", "g1f3"))
    choice = Choice(pv[0], 31, "engine", 12, pv)
    assert kibitz_text(board, choice, "Fish") == "Fish: +0.31 depth 12 (engine) 1. e4 e5 2. Nf3"


def test_seek_commands_in_each_dialect() -> None:
    assert seek_command(Seek(3, 0), "fics") == "seek 3 0 rated"
    assert seek_command(Seek(1, 1, False, "suicide", "black"), "fics") == (
        "seek 1 1 unrated black suicide"
    )
    assert seek_command(Seek(1, 1, False, "wild/8a"), "icc") == "seek 1 1 unrated wild 8a"
    assert seek_command(Seek(2, 0, variant="wild/5"), "icc") == "seek 2 0 rated wild 5"


# -- the owner -------------------------------------------------------------------------------


def test_the_owners_commands_and_tells_in_both_dialects() -> None:
    assert parse_command(" PAUSE ") is Command.PAUSE
    assert parse_command("quit  now") is Command.QUIT_NOW
    assert parse_command("quit later") is None
    assert tell_of(dg.PersonalTell("Boss", "", "status", 1)) == ("Boss", "status")
    assert tell_of(dg.PersonalTell("Boss", "", "status", 0)) is None  # a say
    assert tell_of(Text("Boss(TD) tells you: quit now")) == ("Boss", "quit now")
    assert tell_of(Text("Boss says: quit")) is None


# -- PGN files and boards ----------------------------------------------------------------------


def _house_game() -> MyGame:
    game = Game(3, "Fishy", "Robo", variant=variants.CRAZYHOUSE, wild=23, result="0-1")
    game.reset(variants.CRAZYHOUSE.new_board())
    sans = "e4 d5 exd5 Qxd5 Nc3 Qa5 P@d4 P@e4 Nxe4 Nf6 Nc3 Ng8 Ne4 Nf6 Nc3 Ng8"
    for san in sans.split():
        move = game.board.parse_san(san)
        game._push_move(move, None, None)
    return MyGame(game, "PW")


def test_a_finished_game_is_saved_as_pgn_once_per_file(tmp_path: Path) -> None:
    mine = _house_game()
    first = save_game(tmp_path / "pgn", mine.game, "chess.example:5000")
    second = save_game(tmp_path / "pgn", mine.game, "chess.example:5000", when=None)
    assert first != second and first.parent == second.parent == tmp_path / "pgn"
    assert first.name.endswith("-Fishy-Robo-g3.pgn")
    with first.open(encoding="utf-8") as handle:
        pgn = chess.pgn.read_game(handle)
    assert pgn is not None
    assert (pgn.headers["Site"], pgn.headers["Result"], pgn.headers["Variant"]) == (
        "chess.example:5000", "0-1", "Crazyhouse",
    )  # fmt: skip
    assert list(pgn.mainline_moves()) == [m.move for m in mine.game.moves]


def test_the_engines_board_is_its_own() -> None:
    """Going back on it (a repetition check, an engine replaying from the root) leaves the
    client's crazyhouse board as it was, every time; on copies of the client's board the
    second check already says no (python-chess 1.11's copies share the pockets kept in
    their move stack, and going back and forth changes them)."""
    mine = _house_game()
    before = mine.game.board.fen()
    for _ in range(3):
        board = fresh_board(mine)
        assert board.fen() == before and board.move_stack == mine.game.board.move_stack
        assert board.can_claim_threefold_repetition()  # Ne4 repeats a third time
        root = board.root()
        for move in board.move_stack:
            root.push(move)
    assert mine.game.board.fen() == before
    replay = mine.game.start.copy(stack=False)
    for played in mine.game.moves:
        assert played.move is not None
        replay.push(played.move)
    assert replay.fen() == before


@pytest.mark.parametrize("name", ["chess", "fr", "wild/0", "wild/1", "crazyhouse", "suicide"])
def test_every_move_on_the_wire_is_read_back_by_the_server(name: str) -> None:
    """What icswire's server makes of the line (``move_from_wire``) is the move, along
    random games of each variant: castling (Fischer random's and wild 0/1's king on the
    d file included), promotions, drops."""
    rng = random.Random(name)
    variant = variants.variant_of(name)
    castlings = 0
    for _ in range(12):
        board = variant.new_board(rng)
        for _ in range(80):
            moves = list(board.legal_moves)
            if not moves or board.is_game_over():
                break
            for move in moves:
                assert move_from_wire(board, wire_move(board, move)) == move, (board.fen(), move)
                castlings += board.is_castling(move)
            board.push(rng.choice(moves))
    if name != "suicide":
        assert castlings > 0
