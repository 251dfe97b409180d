"""How a node proves who it is to NATS, and checks that it talks to the right NATS.

``icswire serve --cluster URL`` takes, besides a token in the URL (``nats://TOKEN@host``)
or a user and password there (``nats://USER:PASSWORD@host``), the options of
:class:`Access`: a NATS ``.creds`` file (a user JWT and its NKey seed), a user and
password, and TLS: the authority that signed the server's certificate and this node's own
certificate and key (a ``tls://`` URL, or any TLS option, makes the connection TLS).
docs/cluster.md says how to run nats-server with authorization and TLS.
"""

from __future__ import annotations

import ssl
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit, urlunsplit


class ClusterRefused(RuntimeError):
    """The NATS server refused this node: wrong or missing credentials, or a TLS failure."""


@dataclass(frozen=True)
class Access:
    """A node's credentials and TLS settings for NATS (file names, as given)."""

    creds: str | None = None
    user: str | None = None
    password: str | None = None
    tls_ca: str | None = None
    tls_cert: str | None = None
    tls_key: str | None = None

    def __post_init__(self) -> None:
        if self.password is not None and self.user is None:
            raise ValueError("a cluster password needs a cluster user")
        if self.tls_key is not None and self.tls_cert is None:
            raise ValueError("a TLS key needs its certificate")
        if self.creds is not None and self.user is not None:
            raise ValueError("give a .creds file or a user and password, not both")

    def tls_context(self) -> ssl.SSLContext | None:
        """The TLS context the options ask for (None: none asked; a ``tls://`` URL then
        uses the system's authorities)."""
        if self.tls_ca is None and self.tls_cert is None:
            return None
        context = ssl.create_default_context(cafile=self.tls_ca)
        if self.tls_cert is not None:
            context.load_cert_chain(self.tls_cert, self.tls_key)
        return context

    def connect_options(self) -> dict[str, Any]:
        """Keyword arguments of ``nats.connect`` for these settings."""
        options: dict[str, Any] = {}
        if self.creds is not None:
            options["user_credentials"] = self.creds
        if self.user is not None:
            options["user"], options["password"] = self.user, self.password or ""
        context = self.tls_context()
        if context is not None:
            options["tls"] = context
        return options


def refusal(error: BaseException) -> bool:
    """Whether ``error``, met while connecting, means NATS will not take this node as it
    is (credentials, TLS), so that trying again is pointless."""
    if isinstance(error, ssl.SSLError | ssl.CertificateError):
        return True
    text = str(error).lower()
    return "authorization" in text or "authentication" in text


def shown(url: str) -> str:
    """``url`` without its credentials, for messages and logs."""
    parts = urlsplit(url)
    if parts.username is None:
        return url
    host = parts.hostname or ""
    netloc = f"***@{host}" + (f":{parts.port}" if parts.port else "")
    return urlunsplit(parts._replace(netloc=netloc))
