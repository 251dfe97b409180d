"""FICS's lists byte for byte as freechess.org sends them (lasker's ``com_games``,
``movesToString``, ``pgames`` and freechess.org's ``pending``): every line whole, the
empty ones too, to a FICS session (no datagrams)."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime

import pytest

from icswire.server.app import Server
from icswire.server.core.model.tables import Terms
from icswire.server.core.model.zones import date_text
from icswire.server.core.storage.records import GameRecord
from icswire.server.features.play.games import Game

from .client import Client
from .support import connect, start_game
from .support import text_lines as lines


async def user(server: Server, name: str, *setup: str) -> Client:
    client = await connect(server)
    await client.login(name)
    for line in setup:
        await client.command(line)
    return client


def frozen(monkeypatch: pytest.MonkeyPatch, game: Game, white_ms: int, black_ms: int) -> None:
    """Stop ``game``'s clocks at these times (``games`` shows them)."""
    monkeypatch.setattr(game, "clock_now", lambda color: white_ms if color else black_ms)


async def test_games_lists_every_kind_by_rating_examined_first(
    server: Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in ("Whitey", "Blacky", "Alongername"):
        await user(server, name, "set style 12")
    await user(server, "Quiet", "set style 12", "set private 1")
    rated = await start_game(server, "Whitey", "Blacky", Terms(initial=3, increment=12))
    rated.white_rating, rated.black_rating = 1500, 1600
    frozen(monkeypatch, rated, 175_400, 179_600)  # rounded as FICS rounds: 2:55, 3:00
    private = await start_game(server, "Alongername", "Quiet", Terms(initial=15))
    frozen(monkeypatch, private, 3_600_000, -250)  # an hour; a fallen flag shows 0:00
    teacher = await user(server, "Teacher")
    await teacher.command("examine")
    coach = await user(server, "Coach")
    await coach.command("examine")
    await coach.command("bsetup")
    lister = await user(server, "Lister")
    assert lines(await lister.command("games")) == [
        "",
        "  3 (Exam.    0 Teacher        0 Teacher   ) [ uu  0   0] W:  1",
        "  4 (Setup    0 Coach          0 Coach     ) [ uu  0   0] W:  1",
        "  2 ++++ Alongername ++++ Quiet      [pbu 15   0] 1:00:00 -  0:00 (39-39) W:  1",
        "  1 1500 Whitey      1600 Blacky     [ bu  3  12]   2:55 -  3:00 (39-39) W:  1",
        "",
        "  4 games displayed.",
    ]
    assert lines(await lister.command("games 1")) == [
        "",
        "  1 1500 Whitey      1600 Blacky     [ bu  3  12]   2:55 -  3:00 (39-39) W:  1",
        "",
        "  1 game displayed (of 4 in progress).",
    ]
    assert lines(await lister.command("games a")) == [
        "",
        "  2 ++++ Alongername ++++ Quiet      [pbu 15   0] 1:00:00 -  0:00 (39-39) W:  1",
        "",
        "  1 game displayed (of 4 in progress).",
    ]
    assert lines(await lister.command("games zed")) == [
        "No matching games were found (of 4 in progress)."
    ]


async def test_games_truncates_names_and_has_none_to_show(server: Server) -> None:
    lister = await user(server, "Lister")
    assert lines(await lister.command("games")) == ["There are no games in progress."]
    examiner = await user(server, "Averylongname")  # 13 letters: 11 shown as White, 10 Black
    await examiner.command("examine")
    assert lines(await lister.command("games")) == [
        "",
        "  1 (Exam.    0 Averylongna    0 Averylongn) [ uu  0   0] W:  1",
        "",
        "  1 game displayed.",
    ]


async def test_moves_pads_both_names_of_its_header(server: Server) -> None:
    await user(server, "Whitey", "set style 12")
    await user(server, "Blacky", "set style 12")
    await start_game(server, "Whitey", "Blacky", Terms(initial=5))
    watcher = await user(server, "Watcher")
    shown = lines(await watcher.command("moves 1"))
    assert shown[6:9] == [
        "Move  Whitey             Blacky             ",
        "----  ----------------   ----------------",
        "      {Still in progress} *",
    ]


async def test_pending_puts_an_empty_line_between_two_offers(server: Server) -> None:
    alpha = await user(server, "Alpha", "set width 240")
    await user(server, "Beta")
    await user(server, "Gamma")
    await alpha.command("match Beta 2 12")
    await alpha.command("match Gamma 5 0")
    assert lines(await alpha.command("pending")) == [
        "Offers to other players:",
        "",
        "   1: You are offering Beta a challenge: Alpha (----) Beta (----) unrated blitz 2 12.",
        "",
        "   2: You are offering Gamma a challenge: Alpha (----) Gamma (----) unrated blitz 5 0.",
        "",
        'If you wish to withdraw any of these offers type "withdraw number".',
        "",
        "There are no offers pending from other players.",
    ]


# -- history (lasker's pgames and write_g_out) -----------------------------------------------


def _stored(white: str, black: str, moves: tuple[str, ...]) -> GameRecord:
    return GameRecord(
        id=None, white=white, black=black, white_rating=1723, black_rating=0, wild=0,
        rating_type="Blitz", rated=True, initial=3, increment=2, start_fen=None,
        moves=moves, clocks=(180_000,) * len(moves), times=(1000,) * len(moves), status=None,
        mode=None, color=None, score="*", eco="", white_clock=175_000,
        black_clock=176_000, started=datetime(2024, 5, 17, 21, 4, 5, tzinfo=UTC), ended=None,
    )  # fmt: skip


async def _finished(server: Server, white: str, black: str, eco: str, moves: int = 2) -> None:
    """A game White won by resignation (status 0, mode 0, Black lost), classified ``eco``."""
    store = server.store
    game_id = await asyncio.to_thread(store.start_game, _stored(white, black, ("e4", "e5")[:moves]))
    await asyncio.to_thread(store.finish_game, game_id, 0, 0, 0, "1-0", eco, 1, 2)


async def test_history_numbers_the_last_ten_with_ficss_wrapping_counter(server: Server) -> None:
    """lasker numbers a player's games 0, 1, ... 99, 0 ... and freechess.org shows the last
    ten; the ECO column is the game's code, ``***`` for a game without moves and ``---``
    for one not classified (lasker's getECO)."""
    for n in range(103):  # Fred's games 0 to 102: the last ten are numbered 93..99, 0..2
        eco = "" if n in (100, 102) else "B01"
        if n % 2:
            await _finished(server, "Joe", "Fred", eco)
        else:
            await _finished(server, "Fred", "Averylongername", eco, moves=0 if n == 102 else 2)
    zoe = await user(server, "Zoe")
    shown = lines(await zoe.command("history fred"))
    ended = [record.ended for record in server.store.history("Fred")]
    dates = [date_text(when or datetime.now(UTC), "") for when in ended]
    assert shown == [
        "History for Fred:",
        "                  Opponent      Type         ECO End Date",
        f"93: - ---- B 1723 Joe           [ br  3   2] B01 Res {dates[0]}",
        f"94: + 1723 W ---- Averylongerna [ br  3   2] B01 Res {dates[1]}",
        f"95: - ---- B 1723 Joe           [ br  3   2] B01 Res {dates[2]}",
        f"96: + 1723 W ---- Averylongerna [ br  3   2] B01 Res {dates[3]}",
        f"97: - ---- B 1723 Joe           [ br  3   2] B01 Res {dates[4]}",
        f"98: + 1723 W ---- Averylongerna [ br  3   2] B01 Res {dates[5]}",
        f"99: - ---- B 1723 Joe           [ br  3   2] B01 Res {dates[6]}",
        f" 0: + 1723 W ---- Averylongerna [ br  3   2] --- Res {dates[7]}",
        f" 1: - ---- B 1723 Joe           [ br  3   2] B01 Res {dates[8]}",
        f" 2: + 1723 W ---- Averylongerna [ br  3   2] *** Res {dates[9]}",
    ]
    # the numbers history shows are the ones smoves and jsave take (lasker's FindHistory)
    assert lines(await zoe.command("smoves fred 1"))[0].startswith("Joe (1723) vs. Fred (----)")
    assert lines(await zoe.command("smoves fred 50")) == ["There is no history game 50 for Fred."]
    assert lines(await zoe.command("history nobody")) == ["nobody has no history games."]
