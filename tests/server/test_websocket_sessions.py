"""Sessions over WebSocket (``--ws-port``) are telnet sessions in frames: freechess.org's
WebSocket clients' timeseal 2, level 2, text and split frames, the same caps, and the
end of the connection is the end of the session. A real server on 127.0.0.1 and the
``websockets`` library's own client."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from websockets.asyncio.client import connect as ws_connect
from websockets.asyncio.server import ServerConnection
from websockets.asyncio.server import serve as ws_serve
from websockets.exceptions import ConnectionClosed
from websockets.frames import CloseCode

from icswire.protocol.datagrams import DG
from icswire.protocol.events import Style12Line
from icswire.server.app import Server
from icswire.server.core.net.listener import TOO_MANY_FROM_ADDRESS
from icswire.server.core.net.session import Session
from icswire.server.core.net.websocket import MAX_FRAME, WebSocketTransport
from icswire.server.core.storage.store import Store

from .client import Client
from .support import bits, has_text, texts
from .websocket_client import ws_client

pytestmark = pytest.mark.sockets


@pytest.fixture
async def web_server(database_url: str) -> AsyncIterator[Server]:
    """A server with its telnet port and its WebSocket port on free ports of 127.0.0.1."""
    data = Store(database_url)
    running = Server(data, "127.0.0.1", 0, ws_port=0)
    await running.start()
    assert running.ws_port and running.ws_port != running.port
    yield running
    await running.stop()
    data.close()


def boards(client: Client) -> list[str]:
    """The last move of each style 12 board ``client`` got."""
    return [e.record.pretty_move for e in client.events if isinstance(e, Style12Line)]


async def until(condition: Any, timeout: float = 10.0) -> None:
    async with asyncio.timeout(timeout):
        while not condition():
            await asyncio.sleep(0.005)


FOOLS_MATE = ["f3", "e5", "g4", "Qh4#"]


async def test_a_timeseal_2_websocket_client_plays_a_game_to_mate_against_telnet(
    web_server: Server,
) -> None:
    """As freechess.org's WebSocket clients do: the timeseal 2 hello, then every line
    sealed in a frame of its own; the game's boards arrive in the frames, its clock is
    charged by the client's stamps (it answers the [G] pings)."""
    web, pipe = await ws_client(web_server.ws_port or 0, sealed=True)
    await web.login("Webby")
    assert web_server.world.online["webby"].timeseal == 2
    telly = await Client.connect(web_server.port)
    await telly.login("Telly")
    for client in (web, telly):
        await client.command("set style 12")
    await telly.command("match Webby 5 0 white")
    await web.expect(has_text("Challenge: Telly"))
    await web.send("accept")
    await web.expect(has_text("Creating unrated"))
    game = web_server.games.by_player[web_server.world.online["webby"]]
    for ply, san in enumerate(FOOLS_MATE):
        mover = telly if ply % 2 == 0 else web
        await mover.send(san)
        await until(lambda n=ply + 1: len(game.moves) == n)
        await web.expect(
            lambda e, san=san: isinstance(e, Style12Line) and e.record.pretty_move == san
        )
    said = "{Game 1 (Telly vs. Webby) Telly checkmated} 0-1"
    await web.expect(has_text(said))
    await telly.expect(has_text(said))
    assert boards(web)[-4:] == ["f3", "e5", "g4", "Qh4#"]
    assert pipe.pings >= 1  # timeseal 2's [G]\0, answered inside the frames
    assert all(move.time_ms >= 0 for move in game.moves)
    await web.command("tell Telly gg")
    await telly.expect(has_text("Webby(U) tells you: gg"))
    await web.close()
    await telly.close()


async def test_a_level_2_websocket_session_gets_datagrams(web_server: Server) -> None:
    """An ICC login (level2settings before the name) on ``/ws``: datagrams come, and
    ``set-2`` turns more on."""
    grams = (DG.WHO_AM_I, DG.PLAYER_ARRIVED)
    web, _ = await ws_client(web_server.ws_port or 0, (*grams, DG.PERSONAL_TELL), path="/ws")
    name = await web.login("Browser", None, f"level2settings={bits(*grams)}")
    assert name == "Browser"
    assert web.received(DG.WHO_AM_I)[0].myname == "Browser"
    await web.command(f"set-2 {DG.PERSONAL_TELL} 1")
    telly = await Client.connect(web_server.port)
    await telly.login("Telly")
    await web.expect_dg(DG.PLAYER_ARRIVED, playername="Telly")
    await telly.command("tell Browser hello")
    tell = await web.expect_dg(DG.PERSONAL_TELL)
    assert (tell.playername, tell.text) == ("Telly", "hello")
    await web.close()
    await telly.close()


async def test_text_frames_split_frames_and_lines_across_frames(web_server: Server) -> None:
    """A text frame is its UTF-8 bytes, a fragmented message one message, a line may span
    frames and a frame may hold several lines; the server answers in binary frames."""
    telly = await Client.connect(web_server.port)
    await telly.login("Telly")
    async with ws_connect(f"ws://127.0.0.1:{web_server.ws_port}/") as raw:
        await raw.send("Texty\n")  # a text frame
        await raw.send(["", "\n"])  # a fragmented one (press return)
        await until(lambda: "texty" in web_server.world.online)
        await raw.send(b"tell Telly one ")
        await raw.send(b"frame\ntell Telly two")  # the end of one line, half of the next
        await raw.send([b" fra", b"gments\n"])
        await telly.expect(has_text("Texty(U) tells you: one frame"))
        await telly.expect(has_text("Texty(U) tells you: two fragments"))
        await raw.send("tell Telly café\n")  # UTF-8 in a text frame: its bytes
        said = await telly.expect(has_text("Texty(U) tells you: caf"))
        assert said.text.endswith("caf\xc3\xa9")  # the bytes, as telnet sends them
        kinds = set()
        async with asyncio.timeout(2):
            while True:
                frame = await raw.recv()
                kinds.add(type(frame))
                if b"fics% " in frame:
                    break
        assert kinds == {bytes}
    await until(lambda: "texty" not in web_server.world.online)
    await telly.close()


async def test_garbage_frames_close_only_their_own_connection(web_server: Server) -> None:
    """Control bytes, invalid UTF-8 in a text frame, an oversized frame: each hurts only
    the connection that sent it; another user's session goes on."""
    telly = await Client.connect(web_server.port)
    await telly.login("Telly")
    async with ws_connect(f"ws://127.0.0.1:{web_server.ws_port}/") as junk:
        await junk.send(bytes(range(256)) * 4 + b"\xff\xfb\x01\x00\n")
        await junk.send(b"Junky\n\n")
        await until(lambda: "junky" in web_server.world.online)
        await junk.send(bytes(range(256)))  # ends in an IAC: the next byte is its command
        await junk.send(b"\n\ntell Telly still here\n")
        await telly.expect(has_text("Junky(U) tells you: still here"))
    async with ws_connect(f"ws://127.0.0.1:{web_server.ws_port}/", max_size=None) as big:
        await big.send(b"x" * (MAX_FRAME + 1))
        with pytest.raises(ConnectionClosed):
            while True:
                await big.recv()
        assert big.close_code == CloseCode.MESSAGE_TOO_BIG
    async with ws_connect(f"ws://127.0.0.1:{web_server.ws_port}/") as bad:
        await bad.send(b"\xff\xfe\n", text=True)  # a text frame that is not UTF-8
        with pytest.raises(ConnectionClosed):
            while True:
                await bad.recv()
        assert bad.close_code == CloseCode.INVALID_DATA
    said = await telly.command("tell Telly fine")
    assert "Telly(U) tells you: fine" in texts(said)
    await until(lambda: web_server.connections == 1)
    await telly.close()


async def test_the_connection_caps_count_websocket_and_telnet_together(
    web_server: Server,
) -> None:
    """With two connections an address, a telnet and a WebSocket one fill it: the next
    WebSocket client is told why in a frame, and closed (1013, try again later)."""
    web_server.limits.max_per_address = 2
    telly = await Client.connect(web_server.port)
    await telly.login("Telly")
    web, _ = await ws_client(web_server.ws_port or 0)
    await web.login("Webby")
    assert web_server.connections == 2
    async with ws_connect(f"ws://127.0.0.1:{web_server.ws_port}/") as third:
        said = await third.recv()
        assert said == TOO_MANY_FROM_ADDRESS.format(count=2).encode() + b"\r\n"
        with pytest.raises(ConnectionClosed):
            await third.recv()
        assert third.close_code == CloseCode.TRY_AGAIN_LATER
    assert web_server.connections == 2
    await web.close()
    await until(lambda: web_server.connections == 1)
    again, _ = await ws_client(web_server.ws_port or 0)
    await again.login("Again")  # room again
    await again.close()
    await telly.close()


@pytest.mark.parametrize("abrupt", [False, True])
async def test_closing_the_browser_logs_the_user_out(web_server: Server, abrupt: bool) -> None:
    """A tab closed (a close frame) or a connection cut: the user departs at once, the
    others are told, the connection is no longer counted."""
    telly = await Client.connect(web_server.port)
    await telly.login("Telly")
    await telly.command("set pin 1")
    web, pipe = await ws_client(web_server.ws_port or 0)
    await web.login("Webby")
    await telly.expect(has_text("[Webby has connected.]"))
    if abrupt:
        pipe.connection.transport.abort()
    else:
        await pipe.connection.close()
    await telly.expect(has_text("[Webby has disconnected.]"))
    assert "webby" not in web_server.world.online
    await until(lambda: web_server.connections == 1)
    await telly.close()


async def test_quit_closes_the_websocket_cleanly(web_server: Server) -> None:
    """The server ends the session (quit): its goodbye arrives, then a normal close."""
    web, pipe = await ws_client(web_server.ws_port or 0)
    await web.login("Webby")
    await web.send("quit")
    with pytest.raises(ConnectionError):
        await web.expect(lambda e: False)
    assert texts(web.events)[-2:] == ["Logging you out.", "Thank you for using icswire."]
    assert pipe.connection.close_code == CloseCode.NORMAL_CLOSURE
    await until(lambda: web_server.connections == 0)


class Recorder:
    """A protocol that records what its transport tells it."""

    def __init__(self) -> None:
        self.calls: list[str] = []
        self.data = b""

    def connection_made(self, transport: object) -> None: ...

    def pause_writing(self) -> None:
        self.calls.append("pause")

    def resume_writing(self) -> None:
        self.calls.append("resume")

    def data_received(self, data: bytes) -> None:
        self.data += data

    def eof_received(self) -> None: ...

    def connection_lost(self, exc: Exception | None) -> None:
        self.calls.append("lost")


async def test_the_transport_holds_the_session_back_while_bytes_wait() -> None:
    """As a socket's transport: pause_writing as soon as more than the high mark waits
    (the session sets it to 0), resume_writing once all is sent; close sends what was
    written, then closes the connection, and the protocol hears it is lost."""
    recorder = Recorder()
    seen: list[list[str]] = []

    async def handler(connection: ServerConnection) -> None:
        transport = WebSocketTransport(connection, recorder)  # type: ignore[arg-type]
        transport.set_write_buffer_limits(high=0)
        assert transport.get_write_buffer_limits() == (0, 0)
        running = asyncio.create_task(transport.run())
        transport.write(b"one ")
        transport.write(b"two")
        seen.append(list(recorder.calls))
        assert transport.get_write_buffer_size() == 7
        await until(lambda: transport.get_write_buffer_size() == 0)
        seen.append(list(recorder.calls))
        await until(lambda: recorder.data == b"hello")
        transport.write(b"last")
        transport.close()
        assert transport.is_closing()
        transport.write(b"dropped")
        await running

    async with ws_serve(handler, "127.0.0.1", 0, write_limit=(1, 0)) as server:
        port = server.sockets[0].getsockname()[1]
        async with ws_connect(f"ws://127.0.0.1:{port}/") as client:
            await client.send(b"hello")
            frames = [await client.recv(), await client.recv()]
            with pytest.raises(ConnectionClosed):
                await client.recv()
            assert client.close_code == CloseCode.NORMAL_CLOSURE
    assert frames == [b"one two", b"last"]  # what waited went as one frame
    assert seen == [["pause"], ["pause", "resume"]]
    assert recorder.calls[-1] == "lost"
    assert recorder.data == b"hello"


async def test_a_websocket_that_does_not_log_in_in_time_is_closed(web_server: Server) -> None:
    web_server.limits.login_timeout = 0.5
    async with ws_connect(f"ws://127.0.0.1:{web_server.ws_port}/") as silent:
        got = b""
        with pytest.raises(ConnectionClosed):
            async with asyncio.timeout(5):
                while True:
                    got += await silent.recv()
    assert b"**** LOGIN TIMEOUT ****" in got
    await until(lambda: web_server.connections == 0)


async def test_a_browser_that_stops_reading_is_held_back_then_cut_off(
    web_server: Server,
) -> None:
    """Output for a client that reads nothing waits (the session is told, as by a socket),
    units beyond the output limit are dropped for a control-Z, and a receiver stuck over
    it is cut off: the server never waits for it, and others go on."""
    async with ws_connect(f"ws://127.0.0.1:{web_server.ws_port}/", max_queue=1) as slow:
        await slow.send(b"Slowpoke\n\n")
        await until(lambda: "slowpoke" in web_server.world.online)
        session = web_server.world.online["slowpoke"]
        assert isinstance(session, Session)
        session.stuck_after = 0.3
        unit = b"x" * 50_000 + b"\n"
        async with asyncio.timeout(20):
            while not session.closed:
                session.send_unit(unit)  # never blocks
                await asyncio.sleep(0.005)
        assert session.overflows > 0
        await until(lambda: "slowpoke" not in web_server.world.online)
        await until(lambda: web_server.connections == 0)
        with pytest.raises(ConnectionClosed):  # what it had read, then the cut
            async with asyncio.timeout(5):
                while True:
                    await slow.recv()


async def test_a_stopping_server_says_so_and_closes_its_websockets(tmp_path: Path) -> None:
    data = Store(f"sqlite:///{tmp_path / 'stop.sqlite'}")
    server = Server(data, "127.0.0.1", 0, ws_port=0)
    await server.start()
    web, pipe = await ws_client(server.ws_port or 0)
    await web.login("Webby")
    await server.stop()
    data.close()
    with pytest.raises(ConnectionError):
        await web.expect(lambda e: False)
    assert "**** The server is shutting down. ****" in texts(web.events)
    assert pipe.connection.close_code == CloseCode.NORMAL_CLOSURE
    with pytest.raises(OSError):  # the port is closed
        await ws_client(server.ws_port or 0)
