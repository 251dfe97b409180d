"""What FICS tells after a game's result (lasker's ``game_ended``): "No ratings
adjustment done." to both players, and to them alone, when no rating changes (an unrated
game, or a rated one adjourned or aborted); a rated game won or drawn gets the rating
adjustments instead. ICC sessions are not told it."""

from __future__ import annotations

import asyncio

import pytest

from icswire.server.app import Server

from .client import Client
from .support import connect, has_text, texts

NO_ADJUSTMENT = "No ratings adjustment done."


async def user(server: Server, name: str, password: str | None = None, *setup: str) -> Client:
    client = await connect(server)
    await client.login(name, password, *setup)
    return client


async def game(white: Client, black: Client, terms: str) -> None:
    """``white`` and ``black`` in a game of ``terms`` (``match``'s words)."""
    await white.command(f"match {black.name} {terms} white")
    await black.expect(has_text("Challenge:"))
    await black.command("accept")
    await white.expect(has_text("Creating"))
    await white.settle()
    await black.settle()


async def ended(*clients: Client) -> None:
    """Until each client has the game's result (all that came with it read too)."""
    for client in clients:
        await client.settle()
        assert any(t.startswith("{Game 1 ") and t[-1] != "}" for t in texts(client.events))


async def registered(server: Server) -> tuple[Client, Client]:
    for name in ("Whitey", "Blacky"):
        await asyncio.to_thread(server.store.add_user, name, "pw")
    return await user(server, "Whitey", "pw"), await user(server, "Blacky", "pw")


async def test_an_unrated_games_players_are_told_and_its_observers_not(server: Server) -> None:
    anna, bert, olga = [await user(server, n) for n in ("Anna", "Bert", "Olga")]
    await game(anna, bert, "5 0")
    await olga.command("observe 1")
    await anna.command("resign")
    await ended(anna, bert, olga)
    for player in (anna, bert):
        said = texts(player.events)
        assert said[said.index(NO_ADJUSTMENT) - 1].startswith("{Game 1 (Anna vs. Bert) Anna")
    assert NO_ADJUSTMENT not in texts(olga.events)


@pytest.mark.parametrize(("ending", "told"), [("resign", False), ("abort", True)])
async def test_a_rated_games_players_are_told_when_no_rating_changes(
    server: Server, ending: str, told: bool
) -> None:
    white, black = await registered(server)
    await game(white, black, "5 0 rated")
    if ending == "resign":
        await white.command("e4")
        await black.settle()
    await white.command(ending)
    await ended(white, black)
    if not told:
        await white.expect(has_text("rating adjustment"))
    for player in (white, black):
        assert (NO_ADJUSTMENT in texts(player.events)) is told


async def test_icc_sessions_are_not_told(server: Server) -> None:
    anna, bert = await user(server, "Anna", None, "level1=5"), await user(server, "Bert")
    await game(anna, bert, "5 0")
    await anna.command("abort")
    await ended(anna, bert)
    assert NO_ADJUSTMENT not in texts(anna.events)
    assert NO_ADJUSTMENT in texts(bert.events)
