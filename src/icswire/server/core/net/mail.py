"""Mail the server sends: FICS's ``mailmoves``, ``mailoldmoves`` and ``mailstored`` send a
game to its user's address (``asetemail``), through the SMTP relay the operator named
(``icswire serve --smtp-relay HOST:PORT --mail-from ADDRESS``). A server without one
sends no mail, and says so.

The standard library's :mod:`smtplib` talks to the relay on a worker thread
(:func:`asyncio.to_thread`), so a slow relay never stalls the event loop; a relay that
does not answer in :attr:`Mailer.timeout` seconds is a failure like any other, told to
the user as lasker tells a mail that did not go.
"""

from __future__ import annotations

import asyncio
import functools
import re
import smtplib
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from email.message import EmailMessage

#: An address a user's mail may go to: one ``local@domain`` word, no room for a header.
_ADDRESS = re.compile(r"[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*")

#: The account setting (``user_settings``, beside the variables) that keeps the address.
EMAIL_SETTING = "email"


class MailFailed(Exception):
    """The relay refused the mail or could not be reached."""


def valid_address(address: str) -> bool:
    """Whether ``address`` is a plain ``local@domain`` address (at most 254 characters)."""
    return len(address) <= 254 and _ADDRESS.fullmatch(address) is not None


@functools.cache
def _mail_thread() -> ThreadPoolExecutor:
    return ThreadPoolExecutor(1, "icswire-mail")


@dataclass(frozen=True)
class Mailer:
    """An SMTP relay at ``host``:``port`` that takes the server's mail from ``sender``."""

    host: str
    port: int
    sender: str
    timeout: float = 20.0

    @classmethod
    def from_option(cls, relay: str, sender: str) -> Mailer:
        """``HOST:PORT`` (``HOST`` alone: port 25) and the From address; ValueError says
        what is wrong with either."""
        host, colon, port_text = relay.rpartition(":")
        if not colon:
            host, port_text = relay, "25"
        if not host or not port_text.isdigit() or not 0 < int(port_text) < 65536:
            raise ValueError(f"{relay!r} is not HOST:PORT")
        if not valid_address(sender):
            raise ValueError(f"{sender!r} is not a mail address")
        return cls(host.strip("[]"), int(port_text), sender)

    async def send(self, to: str, subject: str, body: str) -> None:
        """Mail ``body`` to ``to``; :class:`MailFailed` if it did not go. On a thread of
        its own: a relay that does not answer holds none of the few that run the store's
        calls (``STORE_THREADS`` in :mod:`icswire.server.app`)."""
        send = functools.partial(self._send, to, subject, body)
        await asyncio.get_running_loop().run_in_executor(_mail_thread(), send)

    def _send(self, to: str, subject: str, body: str) -> None:
        message = EmailMessage()
        message["From"] = self.sender
        message["To"] = to
        message["Subject"] = subject
        message.set_content(body)
        try:
            with smtplib.SMTP(self.host, self.port, timeout=self.timeout) as smtp:
                smtp.send_message(message)
        except (OSError, smtplib.SMTPException) as exc:
            raise MailFailed(str(exc)) from exc
