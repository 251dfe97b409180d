"""Variants on the server, end to end (users connected in memory): the spellings ``seek`` and
``match`` take, the variant's type, wild number and rating type in texts and datagrams,
random legal games equal to python-chess's replay of the same moves, the ends each
variant has, and DG_ILLEGAL_MOVE's reasons for what a variant forbids."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

import chess
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from icswire.boards.moves import san_from_move
from icswire.boards.positions import board_from_style12
from icswire.boards.variants import Variant, variant_from_spelling
from icswire.protocol.datagrams import DG
from icswire.protocol.events import BughouseLine, Style12Line, Text
from icswire.server.app import Server
from icswire.server.core.render.diagrams import holding_text
from icswire.server.core.storage.store import Store
from icswire.server.features.play.endings import ending

from .client import Client
from .support import bits, connect, has_text, is_text

#: A spelling of every variant played (FICS's words, ICC's numbers) and the game type
#: FICS's texts give it.
SPELLINGS = {
    "wild 0": "wild/0",
    "wild 1": "wild/1",
    "wild/2": "wild/2",
    "w3": "wild/3",
    "wild 4": "wild/4",
    "w5": "wild/5",
    "w7": "w7",
    "wild 8": "wild/8",
    "wild 8a": "wild/8a",
    "wild fr": "wild/fr",
    "crazyhouse": "crazyhouse",
    "suicide": "suicide",
    "losers": "losers",
    "atomic": "atomic",
    "giveaway": "w26",
    "w25": "w25",
    "w27": "w27",
}
MAX_PLIES = 400
#: Ends python-chess sees that the players claim here, as in chess.
CLAIMED = (chess.Termination.SEVENTYFIVE_MOVES, chess.Termination.FIVEFOLD_REPETITION)


async def player(server: Server, name: str, *datagrams: int) -> Client:
    client = await connect(server, datagrams)
    setup = [f"level2settings={bits(*datagrams)}"] if datagrams else []
    await client.login(name, None, *setup)
    await client.command("set style 12")
    await client.command("iset nowrap 1")  # long result lines whole, as interfaces ask
    return client


async def next_board(client: Client, variant: Variant) -> tuple[Any, chess.Board]:
    """The next style 12 line (with its ``<b1>`` line for a game with holdings) and the
    position it shows."""
    line = (await client.expect(lambda e: isinstance(e, Style12Line))).record
    holdings = None
    if hasattr(variant.new_board(), "pockets"):
        holdings = (await client.expect(lambda e: isinstance(e, BughouseLine))).record
    return line, board_from_style12(line, variant, holdings)


def same_position(shown: chess.Board, mine: chess.Board) -> bool:
    """The position, side to move, castling, en passant and holdings agree."""
    return (
        shown.board_fen(promoted=False) == mine.board_fen(promoted=False)  # style 12 has no ~
        and shown.turn == mine.turn
        and shown.clean_castling_rights() == mine.clean_castling_rights()
        and shown.ep_square == mine.ep_square
        and all(
            holding_text(shown, c) == holding_text(mine, c)
            for c in chess.COLORS
            if hasattr(mine, "pockets")
        )
    )


async def random_game(server: Server, spelling: str, seed: int) -> None:
    """Alpha and Beta play random legal moves of ``spelling``'s variant; each board the
    server sends equals python-chess's, the end is the one python-chess sees, and the
    stored game replays to the same position."""
    rng = random.Random(seed)
    variant = variant_from_spelling(spelling)
    alpha, beta = await player(server, "Alpha"), await player(server, "Beta")
    await alpha.command(f"match Beta 2 0 white {spelling}")
    await beta.command("accept")
    fics_type = SPELLINGS[spelling]
    created = await alpha.expect(lambda e: isinstance(e, Text) and "Creating unrated" in e.text)
    assert created.text.endswith(f"Creating unrated {fics_type} match.}}")
    _, board = await next_board(alpha, variant)
    await next_board(beta, variant)
    clients = {chess.WHITE: alpha, chess.BLACK: beta}
    sans: list[str] = []
    result = None
    for _ in range(MAX_PLIES):
        mover = clients[board.turn]
        move = rng.choice(list(board.legal_moves))
        san = san_from_move(board, move)
        typed = move.uci() if rng.random() < 0.3 and not move.drop else san
        if board.is_castling(move):
            typed = san  # O-O: the coordinates of a wild's castling vary by client
        board.push(move)
        sans.append(san)
        await mover.send(typed)
        for client in (alpha, beta):  # each sees the same board
            line, shown = await next_board(client, variant)
            assert line.pretty_move.rstrip("+#") == san.rstrip("+#"), (typed, line.pretty_move)
            assert same_position(shown, board), (sans, shown.fen(), board.fen())
        over = board.outcome()
        if over is not None and over.termination not in CLAIMED:
            result = await mover.expect(lambda e: isinstance(e, Text) and e.text.startswith("{"))
            break
    if result is None:
        await clients[board.turn].send("resign")
        result = await alpha.expect(lambda e: isinstance(e, Text) and e.text.startswith("{"))
        score = "0-1" if board.turn == chess.WHITE else "1-0"
    else:
        outcome, end = board.outcome(), ending(board)
        assert outcome is not None and end is not None
        score = outcome.result()
        if end.text is not None:  # a variant's own end, in its words
            words = end.text.replace("White", "Alpha").replace("Black", "Beta")
            assert result.text == f"{{Game 1 (Alpha vs. Beta) {words}}} {score}"
    assert result.text.endswith(f" {score}"), (result.text, board.fen())
    await server.core.play.flush()
    record = (await asyncio.to_thread(server.store.history, "Alpha", 1))[-1]
    assert list(record.moves) == sans
    assert record.game_variant is variant and record.score == score
    replayed = variant.new_board(fen=record.start_fen)
    for san in record.moves:
        replayed.push_san(san)
    assert replayed.fen() == board.fen()
    for client in (alpha, beta):
        assert not client.errors()
        await client.close()


@pytest.mark.parametrize("spelling", SPELLINGS)
@settings(
    max_examples=2,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(seed=st.integers(0, 2**32 - 1))
def test_random_games_equal_python_chess(
    database_url: str, tmp_path: Path, spelling: str, seed: int
) -> None:
    async def run() -> None:
        store = Store(database_url)
        server = Server(store, "127.0.0.1", 0)
        await server.start(listen=False)
        try:
            await random_game(server, spelling, seed)
        finally:
            await server.stop()
            store.close()

    asyncio.run(run())


@pytest.mark.parametrize(
    ("spelling", "fics_type"),
    [
        ("crazyhouse", "crazyhouse"),
        ("zh", "crazyhouse"),
        ("w23", "crazyhouse"),
        ("suicide", "suicide"),
        ("losers", "losers"),
        ("w17", "losers"),
        ("atomic", "atomic"),
        ("wild fr", "wild/fr"),
        ("fr", "wild/fr"),
        ("w5", "wild/5"),
        ("wild 8a", "wild/8a"),
        ("wild/0", "wild/0"),
        ("wild 22", "wild/fr"),
        ("giveaway", "w26"),
    ],
)
async def test_fics_spellings_name_the_variant(
    server: Server, spelling: str, fics_type: str
) -> None:
    alpha, beta = await player(server, "Alpha"), await player(server, "Beta")
    await alpha.send(f"seek 3 0 {spelling}")
    seeking = f'Alpha (++++) seeking 3 0 unrated {fics_type} ("play 1" to respond)'
    await beta.expect(is_text(seeking))
    await alpha.send("unseek")
    await alpha.send(f"match Beta 4 2 {spelling}")
    await beta.expect(is_text(f"Challenge: Alpha (----) Beta (----) unrated {fics_type} 4 2."))


@pytest.mark.parametrize(
    ("spelling", "wild", "rating_type"),
    [
        ("w23", 23, "Crazyhouse"),
        ("w17", 17, "Losers"),
        ("losers", 17, "Losers"),
        ("giveaway", 26, "Losers"),
        ("w25", 25, "Wild"),
        ("atomic", 27, "Wild"),  # ICC's atomic is wild 27
        ("wild 0", 0, "Blitz"),  # ICC's wild 0 is chess
        ("w22", 22, "Chess960"),
        ("w5", 5, "Wild"),
        ("suicide", 26, "Suicide"),  # FICS's own: giveaway's number, its own rating
    ],
)
async def test_icc_spellings_give_wild_number_and_rating_type(
    server: Server, spelling: str, wild: int, rating_type: str
) -> None:
    alpha = await player(server, "Alpha", DG.SEEK, DG.MATCH)
    beta = await player(server, "Beta", DG.MATCH)
    await alpha.send(f"seek 3 0 {spelling}")
    seek = await alpha.expect_dg(DG.SEEK)
    assert (seek.wild_number, seek.rating_type) == (wild, rating_type)
    await alpha.send(f"match Beta 3 0 {spelling}")
    match = await beta.expect_dg(DG.MATCH)
    assert (match.wild_number, match.rating_type) == (wild, rating_type)


@pytest.mark.parametrize(
    ("options", "answer"),
    [
        (
            "wild 9",
            "Wild 9 is not played here: two kings: python-chess has no board whose royal king"
            " changes during the game.",
        ),
        (
            "w16",
            "Wild 16 is not played here: kriegspiel: each player sees a different board, which"
            " style 12 and python-chess cannot show.",
        ),
        ("wild 99", "Wild 99 is not played here: ICC documents no such wild number."),
        ("wild 8b", "No variant is called 'wild 8b'."),
        ("wild", "Usage: wild <number>"),
        ("rated w7", "Three pawns and a king games are never rated."),
        ("sideways", 'Unknown option "sideways".'),
    ],
)
async def test_variants_not_played_are_refused_with_the_reason(
    server: Server, options: str, answer: str
) -> None:
    alpha = await player(server, "Alpha")
    await player(server, "Beta")
    assert (await alpha.command(f"match Beta 3 0 {options}"))[0].text == answer
    assert (await alpha.command(f"seek 3 0 {options}"))[0].text == answer


async def start_game(server: Server, terms: str, *datagrams: int) -> tuple[Client, Client]:
    alpha = await player(server, "Alpha", *datagrams)
    beta = await player(server, "Beta", *datagrams)
    await match(alpha, beta, terms)
    return alpha, beta


async def match(alpha: Client, beta: Client, terms: str) -> None:
    """Alpha (White) and Beta start a 3 0 game of ``terms``; both have its first board."""
    await alpha.send(f"match Beta 3 0 white {terms}")
    await beta.expect(has_text("Challenge: Alpha"))
    await beta.send("accept")
    for client in (alpha, beta):
        await client.expect(lambda e: isinstance(e, Style12Line) and e.record.move_number == 1)


async def abort(alpha: Client, beta: Client) -> None:
    await alpha.send("abort")
    await beta.expect(has_text("Alpha would like to abort the game"))
    await beta.send("abort")
    for client in (alpha, beta):
        await client.expect(has_text("aborted"))


def shows_move(san: str) -> Any:
    return lambda e: isinstance(e, Style12Line) and e.record.pretty_move == san


async def moves(white: Client, black: Client, *sans: str) -> None:
    """Play ``sans`` alternately, each seen on both boards before the next."""
    for index, san in enumerate(sans):
        await (white, black)[index % 2].send(san)
        for client in (white, black):
            await client.expect(shows_move(san))


async def test_illegal_drops_and_uncaptured_pieces_get_their_reasons(server: Server) -> None:
    alpha, beta = await start_game(server, "crazyhouse", DG.ILLEGAL_MOVE)
    await moves(alpha, beta, "e4", "d5", "exd5", "Qxd5")  # each holds a pawn; d8 is empty
    for typed, reason in (("N@e4", 5), ("P@d5", 6), ("P@d8", 7), ("Ke3", 2)):
        await alpha.send(typed)
        await alpha.expect(is_text(f"Illegal move ({typed})."))
        illegal = await alpha.expect_dg(DG.ILLEGAL_MOVE)
        assert (illegal.move, illegal.reason) == (typed, reason)
    await moves(alpha, beta, "P@d6")
    b1 = await beta.expect(lambda e: isinstance(e, BughouseLine))
    assert (b1.record.white_holding, b1.record.black_holding) == ("", "P")
    await abort(alpha, beta)
    for spelling in ("losers", "suicide", "giveaway"):
        await match(alpha, beta, spelling)
        await moves(alpha, beta, "e4", "d5")
        await alpha.send("a3")  # exd5 is there: a capture is compulsory
        illegal = await alpha.expect_dg(DG.ILLEGAL_MOVE)
        assert (illegal.move, illegal.reason) == ("a3", 8), spelling
        await abort(alpha, beta)


async def test_rated_variant_games_rate_their_own_type(server: Server) -> None:
    for name in ("Alpha", "Beta"):
        await asyncio.to_thread(server.store.add_user, name, "secret")
    alpha = await connect(server)
    await alpha.login("Alpha", "secret")
    beta = await connect(server)
    await beta.login("Beta", "secret")
    for spelling, kind in (("suicide", "Suicide"), ("atomic", "Atomic"), ("losers", "Losers")):
        await alpha.command(f"match Beta 3 0 rated white {spelling}")
        await beta.command("accept")
        await alpha.expect(has_text(f"Creating rated {spelling} match."))
        await beta.command("resign")
        await alpha.expect(has_text(f"{kind} rating adjustment: 0 --> "))
        rating = await asyncio.to_thread(server.store.rating, "Alpha", kind)
        assert (rating.games, rating.wins) == (1, 1)
    await alpha.command("history")
    rows = [e.text for e in alpha.events if isinstance(e, Text) and "[ " in e.text][-3:]
    assert [row.split("[ ")[1][:2] for row in rows] == ["Sr", "xr", "Lr"]


async def test_stored_variant_games_replay_in_smoves_and_examine(server: Server) -> None:
    alpha, beta = await start_game(server, "wild 8a", DG.PGN_TAG, DG.POSITION_BEGIN)
    tags = {tag.tag: tag.value for tag in alpha.received(DG.PGN_TAG)}
    assert tags["Variant"] == "wild/8a" and "FEN" not in tags  # its own fixed start
    await moves(alpha, beta, "a6", "h3")  # White's pawns stand on the fifth rank
    await alpha.command("resign")
    await server.core.play.flush()
    shown = [e.text for e in await alpha.command("smoves Alpha 1") if isinstance(e, Text)]
    assert "Unrated wild/8a match, initial time: 3 minutes, increment: 0 seconds." in shown
    assert any(row.startswith("  1.  a6 ") and " h3 " in row for row in shown), shown
    await alpha.command("examine Alpha 1")
    begin = alpha.received(DG.POSITION_BEGIN)[-1]
    assert begin.fen == "rnbqkbnr/8/8/PPPPPPPP/pppppppp/8/8/RNBQKBNR w KQkq - 0 1"
    await alpha.send("forward 2")
    board = await alpha.expect(lambda e: isinstance(e, Style12Line) and e.record.move_number == 2)
    assert board.record.ranks[2:6] == ("P-------", "-PPPPPPP", "ppppppp-", "-------p")
