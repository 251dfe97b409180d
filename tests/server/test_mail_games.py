"""FICS's ``mailmoves``, ``mailstored`` and ``mailoldmoves`` through an SMTP relay (a small
SMTP server on 127.0.0.1 that keeps what it is sent), the address an administrator sets
with ``asetemail``, and what a server without a relay says."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from email import message_from_bytes
from email.message import Message

import pytest

from icswire.server.app import Server
from icswire.server.core.model.tables import Terms
from icswire.server.core.net.mail import EMAIL_SETTING, Mailer

from .client import Client
from .support import is_text, start_game, texts, until
from .test_examine_setup import stored_game, user

RESIGNED = (0, 0, 1, "0-1", "D06", 280_000, 290_000)


class Relay:
    """An SMTP server that takes every mail (RFC 5321's replies, no extensions)."""

    def __init__(self) -> None:
        self.mails: list[tuple[str, Message]] = []
        self.port = 0
        self._server: asyncio.Server | None = None

    async def start(self) -> None:
        self._server = await asyncio.start_server(self._talk, "127.0.0.1", 0)
        self.port = self._server.sockets[0].getsockname()[1]

    async def close(self) -> None:
        if self._server is not None:
            self._server.close()
            await self._server.wait_closed()

    async def _talk(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        writer.write(b"220 relay ready\r\n")
        recipient = ""
        while line := await reader.readline():
            verb = line[:4].upper()
            if verb == b"DATA":
                writer.write(b"354 go on\r\n")
                data = await reader.readuntil(b"\r\n.\r\n")
                self.mails.append((recipient, message_from_bytes(data[:-5])))
                writer.write(b"250 queued\r\n")
            elif verb == b"RCPT":
                recipient = line.decode().split(":", 1)[1].strip().strip("<>")
                writer.write(b"250 ok\r\n")
            elif verb == b"QUIT":
                writer.write(b"221 bye\r\n")
                await writer.drain()
                break
            else:
                writer.write(b"250 ok\r\n")
            await writer.drain()
        writer.close()


@pytest.fixture
async def relay() -> AsyncIterator[Relay]:
    found = Relay()
    await found.start()
    yield found
    await found.close()


def test_a_relay_is_host_and_port_and_a_from_address() -> None:
    assert Mailer.from_option("mail.example.org:2525", "fics@example.org").port == 2525
    assert Mailer.from_option("mail.example.org", "fics@example.org").port == 25
    with pytest.raises(ValueError, match="HOST:PORT"):
        Mailer.from_option("mail.example.org:x", "fics@example.org")
    with pytest.raises(ValueError, match="not a mail address"):
        Mailer.from_option("mail.example.org:25", "fics at example")


async def test_without_a_relay_the_server_says_it_sends_no_mail(server: Server) -> None:
    await stored_game(server, RESIGNED)
    anna = await user(server, "Anna", password="pw")
    guest = await user(server, "Someone")
    assert texts(await guest.command("mailmoves")) == ["Unregistered players cannot use mailmoves."]
    assert texts(await anna.command("mailstored anna 1")) == [
        "This server sends no mail (it has no SMTP relay)."
    ]


async def test_games_are_mailed_to_the_address_asetemail_set(server: Server, relay: Relay) -> None:
    server.core.mailer = Mailer("127.0.0.1", relay.port, "fics@example.org")
    await stored_game(server, RESIGNED)
    await asyncio.to_thread(server.store.add_user, "Root", "pw")
    await asyncio.to_thread(server.store.set_admin, "Root", True)
    root = await user(server, "Root", password="pw")
    anna = await user(server, "Anna", password="pw")
    assert texts(await anna.command("mailoldmoves")) == [
        "Last game for Anna was history game 0.",
        "Moves NOT mailed, perhaps your address is incorrect.",
    ]
    assert texts(await root.command("asetemail anna not-an-address")) == [
        '"not-an-address" is not a mail address.'
    ]
    assert texts(await root.command("asetemail anna anna@example.org")) == [
        'Email address of Anna changed to "anna@example.org".'
    ]
    await anna.expect(is_text("Root has changed your email address."))
    events = await anna.command("mailoldmoves")
    assert texts(events) == ["Last game for Anna was history game 0.", "Moves mailed."]
    assert texts(await anna.command("mailstored anna %a")) == [
        "Journal entry A not available for Anna."
    ]
    assert texts(await anna.command("mailstored boris 0")) == ["Moves mailed."]
    await anna.command("examine")
    await anna.command("e4")
    assert texts(await anna.command("mailmoves")) == ["Moves mailed."]
    (to1, old), (to2, stored), (to3, live) = relay.mails
    assert to1 == to2 == to3 == "anna@example.org"
    assert old["Subject"] == "FICS history game: Anna 0"
    assert old["From"] == "fics@example.org"
    assert '[White "Anna"]' in old.get_payload()
    assert "2. c4 { [%clk 0:05:00] }\r\n0-1" in old.get_payload()
    assert stored["Subject"] == "FICS history game: boris 0"
    assert live["Subject"] == "FICS game report Anna vs Anna"
    assert "1. e4 *" in live.get_payload()
    assert texts(await root.command("asetemail anna")) == ["Email address for Anna removed"]
    await anna.expect(is_text("Root has removed your email address."))
    assert texts(await anna.command("mailmoves")) == [
        "Moves NOT mailed, perhaps your address is incorrect."
    ]
    server.core.mailer = Mailer("127.0.0.1", 1, "fics@example.org")  # nobody listens
    await root.command("asetemail anna anna@example.org")
    await anna.expect(is_text("Root has changed your email address."))
    assert texts(await anna.command("mailmoves")) == [
        "Moves NOT mailed, perhaps your address is incorrect."
    ]


async def mail_players(server: Server, relay: Relay) -> tuple[Client, Client]:
    """Anna (with an address) and Boris (without), registered and online, on a server
    that mails through ``relay``."""
    server.core.mailer = Mailer("127.0.0.1", relay.port, "fics@example.org")
    for name in ("Anna", "Boris"):
        await asyncio.to_thread(server.store.add_user, name, "pw")
    await asyncio.to_thread(server.store.save_setting, "Anna", EMAIL_SETTING, "anna@example.org")
    return await user(server, "Anna", password="pw"), await user(server, "Boris", password="pw")


async def test_automail_mails_a_finished_game_in_pgn_or_as_moves_shows_it(
    server: Server, relay: Relay
) -> None:
    """lasker's game_ended runs mailmoves for a player with automail on: PGN with pgn 1,
    the movelist (FICS format) with pgn 0; one without an address is told it did not go."""
    anna, boris = await mail_players(server, relay)
    assert texts(await anna.command("set automail 1")) == ["Your games will be mailed to you."]
    assert texts(await anna.command("set pgn 1")) == ["Games will now be mailed to you in PGN."]
    assert texts(await boris.command("set automail 1")) == ["Your games will be mailed to you."]
    for terms, resigner in ((Terms(initial=5), boris), (Terms(initial=3), anna)):
        await start_game(server, "Anna", "Boris", terms)
        await anna.command("e4")
        await boris.command("e5")
        await resigner.command("resign")
        await anna.expect(is_text("Moves mailed."))
        await boris.expect(is_text("Moves NOT mailed, perhaps your address is incorrect."))
        await asyncio.to_thread(server.store.save_setting, "Anna", "pgn", "0")
        await anna.command("set pgn 0")
    (to1, pgn), (to2, moves) = relay.mails
    assert to1 == to2 == "anna@example.org"
    assert pgn["Subject"] == moves["Subject"] == "FICS game report Anna vs Boris"
    assert '[White "Anna"]' in pgn.get_payload() and '[Result "1-0"]' in pgn.get_payload()
    body = moves.get_payload()
    assert "Movelist for game 1:" in body and "Unrated blitz match, initial time: 3" in body
    assert "{Anna resigns} 0-1" in body


async def test_mailmess_copies_a_message_by_mail(server: Server, relay: Relay) -> None:
    anna, boris = await mail_players(server, relay)
    assert texts(await anna.command("set mailmess 1")) == ["Your messages will be mailed to you."]
    await boris.command("message Anna meet at eight")
    await until(lambda: len(relay.mails) == 1)
    await anna.command("set mailmess 0")
    await boris.command("message Anna no mail for this one")
    await anna.close()
    await asyncio.to_thread(server.store.save_setting, "Anna", "mailmess", "1")
    await boris.command("message Anna and this one mailed while she is away")
    await until(lambda: len(relay.mails) == 2)
    (to, first), (_, second) = relay.mails
    assert to == "anna@example.org" and first["Subject"] == "FICS message from Boris"
    assert "Boris at " in first.get_payload() and "meet at eight" in first.get_payload()
    assert "while she is away" in second.get_payload()


async def test_without_a_relay_the_mail_variables_say_nothing_is_mailed(server: Server) -> None:
    await asyncio.to_thread(server.store.add_user, "Anna", "pw")
    anna = await user(server, "Anna", password="pw")
    assert texts(await anna.command("set mailmess 1")) == [
        "Your messages will be mailed to you.",
        'This server sends no mail: "messages" shows your messages.',
    ]
