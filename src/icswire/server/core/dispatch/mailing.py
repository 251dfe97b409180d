"""Mailing a game to the user who asks (FICS's ``mailmoves``, ``mailoldmoves``,
``mailstored``): who may, and the mail sent to the address on the account
(:data:`~icswire.server.core.net.mail.EMAIL_SETTING`, set by ``asetemail``), with
lasker's answers; and the mail the server sends a player on its own
(:func:`mail_to_player`: ``set automail`` and ``set mailmess``)."""

from __future__ import annotations

import asyncio
import logging

from icswire.server.core.dispatch.hub import Context, Core
from icswire.server.core.net.mail import EMAIL_SETTING, Mailer, MailFailed

log = logging.getLogger("icswire.server")

#: lasker's answers: the mail went, or it did not (no address, a relay that refused).
MAILED = "Moves mailed."
NOT_MAILED = "Moves NOT mailed, perhaps your address is incorrect."
#: What a server without an SMTP relay (``icswire serve --smtp-relay``) says.
NO_MAIL = "This server sends no mail (it has no SMTP relay)."


def mail_allowed(ctx: Context) -> Mailer | None:
    """The relay, if the issuer may mail with ``ctx.command`` (registered, on a server
    that sends mail); None after saying why not."""
    if not ctx.session.registered:
        ctx.reply(f"Unregistered players cannot use {ctx.command}.")
        return None
    if ctx.core.mailer is None:
        ctx.reply(NO_MAIL)
        return None
    return ctx.core.mailer


async def mail_to_issuer(ctx: Context, mailer: Mailer, subject: str, body: str) -> None:
    """``body`` to the issuer's address; lasker's answer said."""
    account = await asyncio.to_thread(ctx.store.load, ctx.session.name)
    address = account.settings.get(EMAIL_SETTING) if account is not None else None
    if not address:
        ctx.reply(NOT_MAILED)
        return
    try:
        await mailer.send(address, subject, body)
    except MailFailed as exc:
        log.warning("mail to %s (%s) failed: %s", ctx.session.name, address, exc)
        ctx.reply(NOT_MAILED)
        return
    ctx.reply(MAILED)


async def mail_to_player(core: Core, name: str, subject: str, body: str) -> bool:
    """``body`` to the address on ``name``'s account, through the server's relay; whether
    it went (False: no relay, no account or address, or the relay refused)."""
    if core.mailer is None:
        return False
    await core.writes.settled(name)  # an address just set is stored
    account = await asyncio.to_thread(core.store.load, name)
    address = account.settings.get(EMAIL_SETTING) if account is not None else None
    if not address:
        return False
    try:
        await core.mailer.send(address, subject, body)
    except MailFailed as exc:
        log.warning("mail to %s (%s) failed: %s", name, address, exc)
        return False
    return True
