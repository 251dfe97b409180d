"""The web client's files over plain HTTP, on the WebSocket port.

``GET /`` is ``index.html`` of the package folder ``icswire/web/static`` (built from
``web/`` by ``npm run build``), ``GET /PATH`` the file there, and ``GET /protocol.json``
the DG table (:func:`icswire.protocol.dgtable.table`) the JavaScript decodes datagrams
with. Paths with ``..``, ``.`` or hidden names, backslashes or NULs are refused (404):
nothing outside that folder is served. Every answer is revalidated (``Cache-Control:
no-cache`` with an ``ETag``: a rebuilt client is seen at the next load, an unchanged file
costs a 304), as the files are not named by their contents.
"""

from __future__ import annotations

import email.utils
import hashlib
import json
from functools import cache
from http import HTTPStatus
from importlib.resources import files
from importlib.resources.abc import Traversable
from urllib.parse import unquote, urlsplit

from websockets.asyncio.server import ServerConnection
from websockets.datastructures import Headers
from websockets.http11 import Request, Response

from icswire.protocol.dgtable import table

__all__ = ["CONTENT_TYPES", "static_folder", "web_request"]

CONTENT_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".mjs": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".json": "application/json",
    ".txt": "text/plain; charset=utf-8",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".webp": "image/webp",
    ".ico": "image/x-icon",
    ".mp3": "audio/mpeg",
    ".ogg": "audio/ogg",
    ".wav": "audio/wav",
    ".woff2": "font/woff2",
}
_OTHER = "application/octet-stream"


def static_folder() -> Traversable:
    """The built web client: ``icswire/web/static``."""
    return files("icswire.web").joinpath("static")


@cache
def _protocol_json() -> bytes:
    return json.dumps(table()).encode()


def web_request(connection: ServerConnection, request: Request) -> Response:
    """The answer to a plain HTTP GET (the WebSocket listener's ``process_request``)."""
    path = unquote(urlsplit(request.path).path)
    if path == "/protocol.json":
        return _answer(request, _protocol_json(), CONTENT_TYPES[".json"])
    found = _static_file(path)
    if found is None:
        return connection.respond(HTTPStatus.NOT_FOUND, "Not found\n")
    name = found.name
    kind = CONTENT_TYPES.get(name[name.rfind(".") :] if "." in name else "", _OTHER)
    return _answer(request, found.read_bytes(), kind)


def _static_file(path: str) -> Traversable | None:
    """The file ``path`` names in :func:`static_folder` (``/``: ``index.html``), None if
    there is none or the path tries to leave the folder."""
    if not path.startswith("/") or "\\" in path or "\0" in path:
        return None
    parts = path[1:].split("/")
    if parts[-1] == "":
        parts[-1] = "index.html"  # a folder's page
    if any(not part or part.startswith(".") for part in parts):
        return None  # "..", ".", "//", hidden files
    found = static_folder().joinpath(*parts)
    return found if found.is_file() else None


def _answer(request: Request, body: bytes, kind: str) -> Response:
    """200 with ``body``, or 304 when the client has this version already."""
    tag = f'"{hashlib.sha256(body).hexdigest()[:20]}"'
    headers = Headers(
        [
            ("Date", email.utils.formatdate(usegmt=True)),
            ("Connection", "close"),  # the library answers one request a connection
            ("Content-Type", kind),
            ("Cache-Control", "no-cache"),
            ("ETag", tag),
            ("X-Content-Type-Options", "nosniff"),
        ]
    )
    if tag in request.headers.get("If-None-Match", ""):
        return Response(HTTPStatus.NOT_MODIFIED, "Not Modified", headers, b"")
    headers["Content-Length"] = str(len(body))
    return Response(HTTPStatus.OK, "OK", headers, body)
