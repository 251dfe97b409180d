"""The WebSocket port's plain HTTP: the web client's files and ``/protocol.json``, nothing
outside the package's ``static/`` folder; ``wss://`` and ``https://`` with a certificate;
the client's files name no other host (the page works with no network but the server)."""

from __future__ import annotations

import asyncio
import datetime
import importlib.util
import json
import re
import shutil
import ssl
import subprocess
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from icswire.protocol.dgtable import table
from icswire.server.app import Server
from icswire.server.core.net.webfiles import CONTENT_TYPES, static_folder
from icswire.server.core.storage.store import Store

from .support import has_text
from .websocket_client import ws_client

pytestmark = pytest.mark.sockets


@pytest.fixture
async def web_server(tmp_path: Path) -> AsyncIterator[Server]:
    data = Store(f"sqlite:///{tmp_path / 'web.sqlite'}")
    running = Server(data, "127.0.0.1", 0, ws_port=0)
    await running.start()
    yield running
    await running.stop()
    data.close()


async def get(
    port: int, path: str, headers: str = "", tls: ssl.SSLContext | None = None
) -> tuple[int, dict[str, str], bytes]:
    """GET ``path`` as sent (no normalising of ``..``): status, headers, body."""
    reader, writer = await asyncio.open_connection(
        "127.0.0.1", port, ssl=tls, server_hostname="localhost" if tls else None
    )
    writer.write(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n{headers}\r\n".encode())
    answer = await asyncio.wait_for(reader.read(), 10)
    writer.close()
    if not answer:
        raise ConnectionError("closed with no answer")
    head, _, body = answer.partition(b"\r\n\r\n")
    status, *fields = head.decode("latin-1").split("\r\n")
    found = dict(field.split(": ", 1) for field in fields)
    return int(status.split()[1]), {k.lower(): v for k, v in found.items()}, body


async def test_the_page_its_files_and_the_protocol_table(web_server: Server) -> None:
    port = web_server.ws_port or 0
    status, headers, body = await get(port, "/")
    index = static_folder().joinpath("index.html").read_bytes()
    assert (status, headers["content-type"], body) == (200, "text/html; charset=utf-8", index)
    assert headers["cache-control"] == "no-cache"
    status, _, body = await get(port, "/", f"If-None-Match: {headers['etag']}\r\n")
    assert (status, body) == (304, b"")  # unchanged: not sent again
    status, headers, body = await get(port, "/protocol.json")
    assert (status, headers["content-type"]) == (200, "application/json")
    assert json.loads(body) == json.loads(json.dumps(table()))
    for path in [p for p in _static_files() if p.suffix in CONTENT_TYPES][:20]:
        relative = path.relative_to(_static_root()).as_posix()
        status, headers, body = await get(port, f"/{relative}")
        assert (status, headers["content-type"]) == (200, CONTENT_TYPES[path.suffix]), relative
        assert body == path.read_bytes()


@pytest.mark.parametrize(
    "path",
    [
        "/nothing.js",
        "/../pyproject.toml",
        "/../../src/icswire/__init__.py",
        "/%2e%2e/__init__.py",
        "/..%2f__init__.py",
        "/cm-chessboard/../../__init__.py",
        "/.hidden",
        "//etc/passwd",
        "/cm-chessboard",  # a folder with no index.html
        "/%5c..%5c__init__.py",
    ],
)
async def test_unknown_paths_and_ways_out_of_the_folder_are_404(
    web_server: Server, path: str
) -> None:
    status, _, body = await get(web_server.ws_port or 0, path)
    assert (status, body) == (404, b"Not found\n")


async def test_the_same_port_takes_the_websocket_upgrade_on_any_path(web_server: Server) -> None:
    for path in ("/", "/ws", "/anything?x=1"):
        client, _ = await ws_client(web_server.ws_port or 0, path=path)
        await client.login("Pathy")
        await client.close()
        async with asyncio.timeout(5):
            while "pathy" in web_server.world.online:
                await asyncio.sleep(0.01)


def _static_root() -> Path:
    return Path(str(static_folder()))


def _static_files() -> list[Path]:
    return sorted(p for p in _static_root().rglob("*") if p.is_file())


#: An address a page could load from or connect to; XML namespace names (w3.org), which
#: no browser fetches, are not addresses.
_URL = re.compile(rb"(?:https?|wss?)://(?!www\.w3\.org/)[^\s\"'<>)]+")
#: Comments, and SVG's own (desc, title, metadata: credits and licences, never loaded).
_COMMENTS = re.compile(
    rb"<!--.*?-->|/\*.*?\*/|<(desc|title|metadata)\b.*?</\1>", re.DOTALL | re.IGNORECASE
)


def test_the_web_client_names_no_other_host() -> None:
    """Offline: no file of the built client refers to another host, outside comments
    (licences, credits) and the licence files esbuild links."""
    assert _URL.findall(b'<img src="https://cdn.example/x.png"> import("wss://h/")') == [
        b"https://cdn.example/x.png",
        b"wss://h/",
    ]
    found = []
    for path in _static_files():
        if "LICENSE" in path.name.upper() or "LEGAL" in path.name.upper():
            continue
        text = _COMMENTS.sub(b"", path.read_bytes())
        found += [(path.name, url.decode("latin-1")) for url in _URL.findall(text)]
    assert found == []
    assert (_static_root() / "index.html").is_file()


def self_signed(folder: Path) -> tuple[Path, Path]:
    """A certificate for localhost and 127.0.0.1, and its key (cryptography's, else
    openssl's); the test is skipped with neither."""
    cert, key = folder / "cert.pem", folder / "key.pem"
    if importlib.util.find_spec("cryptography") is not None:
        _with_cryptography(cert, key)
    elif shutil.which("openssl"):
        subprocess.run(
            [
                *("openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2"),
                *("-keyout", str(key), "-out", str(cert), "-subj", "/CN=localhost"),
                *("-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1"),
            ],
            check=True,
            capture_output=True,
        )
    else:
        pytest.skip("no cryptography package and no openssl to make a certificate")
    return cert, key


def _with_cryptography(cert: Path, key: Path) -> None:
    import ipaddress

    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    secret = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "localhost")])
    now = datetime.datetime.now(datetime.UTC)
    names = [x509.DNSName("localhost"), x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]
    made = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(secret.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(now + datetime.timedelta(days=2))
        .add_extension(x509.SubjectAlternativeName(names), critical=False)
        .sign(secret, hashes.SHA256())
    )
    cert.write_bytes(made.public_bytes(serialization.Encoding.PEM))
    key.write_bytes(
        secret.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )


async def test_wss_and_https_with_a_self_signed_certificate(tmp_path: Path) -> None:
    cert, key = self_signed(tmp_path)
    served = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    served.load_cert_chain(cert, key)
    trusting = ssl.create_default_context(cafile=str(cert))
    data = Store(f"sqlite:///{tmp_path / 'tls.sqlite'}")
    server = Server(data, "127.0.0.1", 0, ws_port=0, tls=served)
    await server.start()
    try:
        port = server.ws_port or 0
        status, _, body = await get(port, "/", tls=trusting)
        assert (status, body) == (200, static_folder().joinpath("index.html").read_bytes())
        client, pipe = await ws_client(port, sealed=True, tls=trusting)
        await client.login("Secure")
        said = await client.command("tell Secure over TLS")
        assert any(has_text("Secure(U) tells you: over TLS")(e) for e in said)
        assert pipe.connection.transport.get_extra_info("ssl_object") is not None
        await client.close()
        with pytest.raises((ssl.SSLError, OSError)):  # a plain client gets nothing
            await get(port, "/")
    finally:
        await server.stop()
        data.close()
