"""The ``icswire`` command line: ``decode``, ``encode``, ``pgn``, ``serve``, ``user``, ``connect``,
``bot``, ``td``.

``icswire decode [FILE|-] [--datagrams LIST] [--block-mode]`` prints one JSON object per
event;
``icswire encode [FILE|-]`` turns those objects back into the exact original bytes. An
event whose fields do not give back its bytes (a datagram in another form than icswire's,
an error too long to keep whole) carries them as ``"raw"`` (:mod:`icswire.protocol.jsonl`),
so ``decode | encode`` reproduces any stream byte for byte.
``icswire bot HOST [PORT] --engine CMD`` runs a computer account with a chess engine
(docs/bot.md); ``icswire td HOST [PORT]`` a tournament director (docs/td.md).

Start-up stays small: a command imports only what it uses (``decode`` and ``pgn`` never
load the server's database stack, ``pgn`` loads tqdm only for a progress bar). Without the
server's packages (``pip install icswire`` gives the codec, boards and this CLI),
``serve`` and ``user`` say which extra to install.
"""

from __future__ import annotations

import importlib
import os
import sys
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any, BinaryIO

import click

if TYPE_CHECKING:
    from icswire.protocol.events import Event

CHUNK = 1 << 16
#: The extra that brings each package only some commands need (pyproject.toml).
EXTRA_OF_PACKAGE = {
    "sqlalchemy": "server",
    "argon2": "server",
    "nats": "server",
    "psycopg": "postgresql",
}


def missing_extra(exc: ModuleNotFoundError, command: str) -> str | None:
    """The message for a package of an extra that is not installed, else None."""
    extra = EXTRA_OF_PACKAGE.get((exc.name or "").partition(".")[0])
    if extra is None:
        return None
    return f"icswire {command} needs the {extra} extra: pip install 'icswire[{extra}]'"


class LazyGroup(click.Group):
    """A group that imports a command's module only when the command is used (click's
    lazy subcommands, ``name -> "module:attribute"``), and turns a missing extra's
    package into a message saying what to install."""

    def __init__(self, *args: Any, lazy: dict[str, str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.lazy = lazy

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted([*super().list_commands(ctx), *self.lazy])

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in self.lazy:
            return super().get_command(ctx, cmd_name)
        module, _, attribute = self.lazy[cmd_name].partition(":")
        try:
            command: click.Command = getattr(importlib.import_module(module), attribute)
        except ModuleNotFoundError as exc:
            message = missing_extra(exc, cmd_name)
            if message is None:
                raise
            return _unavailable(cmd_name, message)
        return command

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except ModuleNotFoundError as exc:
            message = missing_extra(exc, ctx.invoked_subcommand or "")
            if message is None:
                raise
            raise click.ClickException(message) from None


def _unavailable(name: str, message: str) -> click.Command:
    """A command that cannot run here: whatever its arguments, it prints ``message``."""

    def refuse() -> None:
        raise click.ClickException(message)

    return click.Command(
        name,
        callback=refuse,
        help=message,
        context_settings={"ignore_unknown_options": True, "allow_extra_args": True},
        add_help_option=False,
    )


def parse_datagram_list(text: str) -> list[int]:
    """``"24,25 DG_MOVE_SMITH send_moves"`` -> DG numbers; ValueError naming a bad item
    (a name or a number that is not in the DG catalog, Appendix 2 of icc-formats.txt)."""
    from icswire.protocol.datagrams import DG

    numbers = []
    for item in text.replace(",", " ").split():
        if item.isascii() and item.isdigit():  # int() refuses "²"
            try:
                numbers.append(DG(int(item)).value)
            except ValueError:
                raise ValueError(f"unknown datagram {item} (no DG has that number)") from None
            continue
        name = item.upper().removeprefix("DG_")
        if name not in DG.__members__:
            raise ValueError(f"unknown datagram {item!r}")
        numbers.append(DG[name].value)
    return numbers


class InputError(click.ClickException):
    """An input that cannot be read: a clear message and exit status 2."""

    exit_code = 2


def _open_input(path: str) -> BinaryIO:
    if path == "-":
        return sys.stdin.buffer
    try:
        return open(path, "rb")
    except OSError as exc:
        raise InputError(f"cannot read {path}: {exc.strerror}") from None


def _chunks(stream: BinaryIO, path: str) -> Iterator[bytes]:
    try:
        while chunk := stream.read1(CHUNK) if hasattr(stream, "read1") else stream.read(CHUNK):
            yield chunk
    except OSError as exc:
        raise InputError(f"cannot read {path}: {exc.strerror}") from None


def decode_stream(
    stream: BinaryIO, path: str, datagrams: list[int], block_mode: bool = False
) -> Iterator[list[dict[str, object]]]:
    """Decode a byte stream into JSON-ready dicts, adding ``raw`` where needed: one list
    per chunk read, so a live stream's events come out as they arrive."""
    from icswire.protocol.decoder import Decoder
    from icswire.protocol.encoder import encode_event
    from icswire.protocol.jsonl import event_to_dict

    decoder = Decoder(datagrams, block_mode=block_mode)
    ends: list[int] = []
    decoder.ends = ends
    window = bytearray()  # the stream's bytes from offset `start` on
    start = 0

    def drain(events: list[Event]) -> list[dict[str, object]]:
        nonlocal start
        objects = []
        for event, end in zip(events, ends, strict=True):
            data = bytes(window[: end - start])
            del window[: end - start]
            start = end
            obj = event_to_dict(event)
            if encode_event(event) != data:
                obj["raw"] = data.decode("latin-1")
            objects.append(obj)
        ends.clear()
        return objects

    for chunk in _chunks(stream, path):
        window += chunk
        yield drain(decoder.feed(chunk))
    yield drain(decoder.close())


@click.group(
    cls=LazyGroup,
    lazy={
        "user": "icswire.server.admin:user",
        "bot": "icswire.bot.cli:bot",
        "td": "icswire.td.cli:td",
    },
)
@click.version_option(package_name="icswire")
def main() -> None:
    """icswire: the ICC/FICS chess-server protocol, both sides of the wire."""


@main.command()
@click.argument("file", default="-")
@click.option(
    "--datagrams",
    default="",
    metavar="LIST",
    help="DGs the receiver had on: numbers or names, comma separated (e.g. 24,33,DG_MSEC).",
)
@click.option(
    "--block-mode",
    is_flag=True,
    help="The stream is a FICS session in block mode (iset block 1): 0x19 ends a pose.",
)
def decode(file: str, datagrams: str, block_mode: bool) -> None:
    """Decode a captured server stream (FILE or - for stdin) into JSON Lines."""
    import json

    try:
        enabled = parse_datagram_list(datagrams)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--datagrams") from None
    stream = _open_input(file)
    try:
        for objects in decode_stream(stream, file, enabled, block_mode):
            sys.stdout.writelines(json.dumps(obj) + "\n" for obj in objects)
            sys.stdout.flush()
    finally:
        if stream is not sys.stdin.buffer:
            stream.close()


@main.command()
@click.argument("file", default="-")
def encode(file: str) -> None:
    """Turn JSON Lines made by `icswire decode` (FILE or -) back into the original bytes."""
    import json

    from icswire.protocol.jsoncheck import BadObject
    from icswire.protocol.jsonl import object_bytes

    stream = _open_input(file)
    out = sys.stdout.buffer
    try:
        for number, line in enumerate(stream, 1):
            if not line.strip():
                continue
            try:
                data = object_bytes(json.loads(line))
            except BadObject as exc:
                raise InputError(f"line {number}: {exc}") from None
            except ValueError as exc:  # not JSON (a JSONDecodeError), or not UTF-8
                raise InputError(f"line {number}: not JSON: {exc}") from None
            out.write(data)
    finally:
        if stream is not sys.stdin.buffer:
            stream.close()
    out.flush()


#: What ``icswire pgn`` assumes the receiver had on without ``--datagrams``: what a typical
#: client enables (the move parts 33-36; 113 off).
TYPICAL_CLIENT_DATAGRAMS = (0, 15, 16, 18, 19, 22, 23, 24, 25, 33, 34, 35, 36, 37, 38, 39, 56, 61)
PROGRESS_FROM = 1 << 20  # inputs at least this big get a progress bar


@main.command()
@click.argument("file", default="-")
@click.option("--datagrams", default=None, metavar="LIST", help="as for `icswire decode`")
def pgn(file: str, datagrams: str | None) -> None:
    """Write one PGN game per game found in a captured session (FILE or -)."""
    from icswire.boards.gapreport import GapReport
    from icswire.boards.pgn import pgn_text
    from icswire.boards.tracker import GameTracker
    from icswire.protocol.decoder import Decoder

    try:
        enabled = (
            list(TYPICAL_CLIENT_DATAGRAMS) if datagrams is None else parse_datagram_list(datagrams)
        )
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--datagrams") from None
    stream = _open_input(file)
    size = None if stream is sys.stdin.buffer else _size(stream)
    decoder = Decoder(enabled)
    tracker = GameTracker()
    report = GapReport()
    bar = _progress_bar(size)
    try:
        for chunk in _chunks(stream, file):
            for event in decoder.feed(chunk):
                tracker.feed(event)
                report.feed(event)
            if bar is not None:
                bar.update(len(chunk))
        for event in decoder.close():
            tracker.feed(event)
            report.feed(event)
    finally:
        if bar is not None:
            bar.close()
        if stream is not sys.stdin.buffer:
            stream.close()
    for game in tracker.games:
        sys.stdout.write(pgn_text(game) + "\n")
    complete = sum(game.complete for game in tracker.games)
    gaps = sum(bool(game.gaps) for game in tracker.games)
    click.echo(
        f"{len(tracker.games)} games: {complete} complete, "
        f"{len(tracker.games) - complete - gaps} incomplete, {gaps} with gaps",
        err=True,
    )
    for line in report.lines(tracker.games):
        click.echo(line, err=True)


def _progress_bar(size: int | None) -> Any:
    """A tqdm bar on stderr for an input of PROGRESS_FROM bytes or more, else None (tqdm
    takes as long to import as a small file takes to read)."""
    if size is None or size < PROGRESS_FROM:
        return None
    from tqdm import tqdm

    return tqdm(total=size, unit="B", unit_scale=True, file=sys.stderr, desc="reading")


def _size(stream: BinaryIO) -> int | None:
    try:
        return os.fstat(stream.fileno()).st_size
    except OSError:
        return None


@main.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="address to listen on")
@click.option("--port", default=5000, show_default=True, help="port to listen on")
@click.option(
    "--ws-port",
    default=0,
    show_default=True,
    metavar="PORT",
    help="also serve WebSocket sessions (ws://HOST:PORT/, as freechess.org's port 5001) and"
    " the web client (http://HOST:PORT/) on this port; 0: not (`make run` turns it on, 5080)",
)
@click.option(
    "--ws-host", default=None, metavar="ADDRESS", help="address of --ws-port (default: --host)"
)
@click.option(
    "--tls-cert",
    default=None,
    type=click.Path(exists=True, dir_okay=False),
    help="certificate (PEM) of --ws-port: wss:// and https:// instead of ws:// and http://",
)
@click.option(
    "--tls-key",
    default=None,
    type=click.Path(exists=True, dir_okay=False),
    help="the key of --tls-cert (PEM), if not in the certificate's file",
)
@click.option(
    "--data-dir",
    default="icswire-data",
    show_default=True,
    type=click.Path(file_okay=False),
    help="folder for the SQLite database",
)
@click.option("--database", default=None, metavar="URL", help="a database URL (PostgreSQL)")
@click.option(
    "--limit",
    "limit",
    multiple=True,
    metavar="NAME=VALUE",
    help="change a limit (repeatable): login_timeout=60, idle_timeout=3600 (0: never),"
    " max_connections=auto, max_per_address=30, login_tries=3, free_failures=3,"
    " failure_delay=2, max_failure_delay=300, forget_failures=3600, account_failures=10,"
    " max_account_delay=10, seeks_per_address=10, accept_pause=1, max_aliases=29,"
    " max_list=200, max_messages=40; registrations as BURST/SECONDS or off:"
    " register_address=3/600, register_total=30/60; rates per user: tell=10/1, channel=6/2,"
    " shout=3/20, seek=6/3, match=6/3. 0 turns a limit off.",
)
@click.option(
    "--open-registration",
    is_flag=True,
    help="let guests register themselves with the register command"
    " (otherwise accounts are made with `icswire user add`)",
)
@click.option(
    "--cluster",
    default=None,
    metavar="nats://HOST:PORT",
    help="join the cluster of icswire nodes on this NATS server (JetStream on), all of"
    " them on one --database (PostgreSQL): see docs/cluster.md",
)
@click.option(
    "--cluster-name",
    default="icswire",
    show_default=True,
    help="the cluster's name: its NATS subjects and key-value buckets begin with it",
)
@click.option("--node", default=None, help="this node's id in the cluster (default: random)")
@click.option(
    "--cluster-creds",
    default=None,
    type=click.Path(exists=True, dir_okay=False),
    help="a NATS .creds file (user JWT and NKey seed) the node connects with",
)
@click.option("--cluster-user", default=None, help="the NATS user the node connects as")
@click.option(
    "--cluster-password",
    default=None,
    envvar="ICSWIRE_CLUSTER_PASSWORD",
    help="the NATS user's password (or in ICSWIRE_CLUSTER_PASSWORD); a token goes in the"
    " URL: nats://TOKEN@HOST:4222",
)
@click.option(
    "--cluster-tls-ca",
    default=None,
    type=click.Path(exists=True, dir_okay=False),
    help="the authority that signed the NATS server's certificate (PEM); turns TLS on",
)
@click.option(
    "--cluster-tls-cert",
    default=None,
    type=click.Path(exists=True, dir_okay=False),
    help="this node's certificate (PEM), for a NATS server that verifies its clients",
)
@click.option(
    "--cluster-tls-key",
    default=None,
    type=click.Path(exists=True, dir_okay=False),
    help="the key of --cluster-tls-cert (PEM), if not in the certificate's file",
)
@click.option(
    "--computer",
    "computers",
    multiple=True,
    metavar="ENGINE[,ENGINE...]",
    help="computer opponents playing on the server from its process (repeatable): a known"
    " engine (stockfish, sjeng: in PATH or /usr/games), a UCI engine's PATH or xboard:PATH;"
    " three accounts each (StockfishEasy, StockfishMedium, Stockfish), or ENGINE:LEVEL"
    " (easy, medium, strong) for one. See docs/server.md, 'Computer opponents'.",
)
@click.option(
    "--smtp-relay",
    default=None,
    metavar="HOST[:PORT]",
    help="the SMTP relay the server mails games through (mailmoves, mailstored,"
    " mailoldmoves) to the address an administrator set with asetemail; none: no mail",
)
@click.option(
    "--mail-from",
    default=None,
    metavar="ADDRESS",
    help="the From address of the server's mail (default: icswire@ this host's name)",
)
@click.option(
    "--loop",
    "event_loop",
    type=click.Choice(["auto", "uvloop", "asyncio"]),
    default="auto",
    show_default=True,
    help="the event loop: uvloop's where it is installed (icswire[speed]; auto), or asyncio's own",
)
def serve(
    host: str,
    port: int,
    ws_port: int,
    ws_host: str | None,
    tls_cert: str | None,
    tls_key: str | None,
    data_dir: str,
    database: str | None,
    limit: tuple[str, ...],
    open_registration: bool,
    cluster: str | None,
    cluster_name: str,
    node: str | None,
    cluster_creds: str | None,
    cluster_user: str | None,
    cluster_password: str | None,
    cluster_tls_ca: str | None,
    cluster_tls_cert: str | None,
    cluster_tls_key: str | None,
    computers: tuple[str, ...],
    smtp_relay: str | None,
    mail_from: str | None,
    event_loop: str,
) -> None:
    """Run the chess server until SIGINT or SIGTERM."""
    import logging
    from pathlib import Path

    from icswire.server.app import serve as run_server
    from icswire.server.cluster.access import Access, ClusterRefused
    from icswire.server.core.net.limits import Limits
    from icswire.server.core.net.websocket import WebSocketBindError
    from icswire.server.core.storage.lock import AlreadyServing
    from icswire.server.core.storage.store import Store, database_url
    from icswire.server.core.storage.writelog import JournalError
    from icswire.server.loops import LoopUnavailable, loop_factory, run

    try:
        factory = loop_factory(event_loop)
    except LoopUnavailable as exc:
        raise click.BadParameter(str(exc), param_hint="--loop") from None

    try:
        access = Access(
            cluster_creds,
            cluster_user,
            cluster_password,
            cluster_tls_ca,
            cluster_tls_cert,
            cluster_tls_key,
        )
        access.tls_context()  # a certificate or key that does not load: said now
    except (ValueError, OSError) as exc:  # ssl.SSLError is an OSError
        raise click.UsageError(f"cluster options: {exc}") from None
    mailer = None
    if smtp_relay is not None:
        import socket

        from icswire.server.core.net.mail import Mailer

        try:
            mailer = Mailer.from_option(smtp_relay, mail_from or f"icswire@{socket.getfqdn()}")
        except ValueError as exc:
            raise click.BadParameter(str(exc), param_hint="--smtp-relay/--mail-from") from None
    elif mail_from is not None:
        raise click.UsageError("--mail-from needs --smtp-relay")
    tls = _tls_context(tls_cert, tls_key, ws_port)
    limits = Limits()
    for assignment in limit:
        try:
            limits.set(assignment)
        except ValueError as exc:
            raise click.BadParameter(str(exc), param_hint="--limit") from None
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s")
    directory = Path(data_dir)
    companions = []
    if computers:
        from icswire.computers.engines import ComputerSpecError
        from icswire.computers.house import House

        try:
            companions.append(House.from_option(",".join(computers), directory / "computers"))
        except ComputerSpecError as exc:
            raise click.BadParameter(str(exc), param_hint="--computer") from None
    directory.mkdir(parents=True, exist_ok=True)
    try:
        store = Store(database_url(directory, database))
    except ModuleNotFoundError:
        raise  # the driver's extra is not installed: the group says which
    except Exception as exc:  # a bad URL, a database that does not answer
        raise click.ClickException(f"cannot open the database: {exc}") from None
    try:
        run(
            run_server(
                store,
                host,
                port,
                limits,
                open_registration,
                cluster,
                cluster_name,
                node,
                access,
                directory,
                companions,
                mailer,
                ws_port or None,
                ws_host,
                tls,
            ),
            factory,
        )
    except ClusterRefused as exc:
        raise click.ClickException(f"cannot join the cluster: {exc}") from None
    except (AlreadyServing, JournalError) as exc:
        raise click.ClickException(f"cannot serve: {exc}") from None
    except WebSocketBindError as exc:
        raise ServeError(listen_failure(ws_host or host, ws_port, exc, "--ws-port")) from None
    except OSError as exc:
        raise ServeError(listen_failure(host, port, exc)) from None
    finally:
        store.close()


def _tls_context(cert: str | None, key: str | None, ws_port: int) -> Any:
    """The TLS context of ``--tls-cert``/``--tls-key`` (an ssl.SSLContext), None without."""
    if cert is None:
        if key is not None:
            raise click.UsageError("--tls-key needs --tls-cert")
        return None
    if not ws_port:
        raise click.UsageError("--tls-cert is for --ws-port, which is off")
    import ssl

    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    try:
        context.load_cert_chain(cert, key)
    except (ssl.SSLError, OSError) as exc:
        raise click.BadParameter(str(exc), param_hint="--tls-cert/--tls-key") from None
    return context


class ServeError(click.ClickException):
    """A server that cannot start: one line, ``icswire serve: ...``, and exit status 1."""

    def show(self, file: Any = None) -> None:
        click.echo(f"icswire serve: {self.format_message()}", err=True)


def listen_failure(host: str, port: int, exc: OSError, option: str = "--port") -> str:
    """Why the server cannot listen, in one line (the socket's own message repeats the
    address: ``Address already in use (while attempting to bind on address (...))``)."""
    import errno

    if exc.errno == errno.EADDRINUSE:
        return f"{host}:{port} is in use (another server?); choose another with {option}"
    reason = os.strerror(exc.errno) if exc.errno else str(exc)
    return f"cannot listen on {host}:{port}: {reason}"


@main.command()
@click.argument("host")
@click.argument("port", default=5000)
@click.option("--user", default="guest", show_default=True, help="login name")
@click.option("--password", default=None, help="password of a registered name")
def connect(host: str, port: int, user: str, password: str | None) -> None:
    """A full-screen terminal client: boards, clocks, moves, tells and a command line."""
    import asyncio

    from icswire.client.connection import LoginError
    from icswire.client.terminal import run_terminal

    try:
        asyncio.run(run_terminal(host, port, user, password))
    except LoginError as exc:
        raise click.ClickException(f"login failed: {exc}") from None
    except OSError as exc:
        raise click.ClickException(f"cannot connect to {host}:{port}: {exc}") from None
    except KeyboardInterrupt:
        pass
