"""A cluster's NATS with authorization: a node with the right credentials joins, one
without is refused at once with a clear error. Each test runs its own nats-server (on a
free port, JetStream in a temporary folder); skipped where nats-server is not installed."""

from __future__ import annotations

import asyncio
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from icswire.cli import main
from icswire.server.app import Server
from icswire.server.cluster.access import Access, ClusterRefused, shown
from icswire.server.core.storage import store

NATS_SERVER = shutil.which("nats-server") or "/usr/sbin/nats-server"
TOKEN = "s3cret-t0ken"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def nats_server(tmp_path: Path, authorization: str) -> Iterator[int]:
    if not Path(NATS_SERVER).exists():
        pytest.skip("nats-server is not installed")
    port = free_port()
    config = tmp_path / "nats.conf"
    config.write_text(
        f"listen: 127.0.0.1:{port}\n"
        f'jetstream {{ store_dir: "{tmp_path / "jetstream"}" }}\n'
        f"authorization {{ {authorization} }}\n"
    )
    process = subprocess.Popen([NATS_SERVER, "-c", str(config)], stderr=subprocess.DEVNULL)
    try:
        for _ in range(100):
            with socket.socket() as probe:
                if probe.connect_ex(("127.0.0.1", port)) == 0:
                    break
            process.poll()
            assert process.returncode is None, "nats-server did not start"
            time.sleep(0.05)
        yield port
    finally:
        process.terminate()
        process.wait(10)


@pytest.fixture
def token_nats(tmp_path: Path) -> Iterator[int]:
    yield from nats_server(tmp_path, f"token: {TOKEN}")


@pytest.fixture
def users_nats(tmp_path: Path) -> Iterator[int]:
    yield from nats_server(tmp_path, "users: [ {user: node, password: pa55} ]")


async def node(tmp_path: Path, url: str, name: str, access: Access | None = None) -> Server:
    data = store.Store(store.database_url(tmp_path / name, None))
    server = Server(data, "127.0.0.1", 0, cluster=url, node=name, cluster_access=access)
    assert server.cluster is not None
    server.cluster.heartbeat = 0.2
    return server


async def joins(server: Server) -> None:
    try:
        await server.start()
        assert server.cluster is not None and server.cluster._nc is not None
        assert server.cluster._nc.is_connected
    finally:
        await server.stop()
        server.store.close()


async def refused(server: Server) -> str:
    try:
        async with asyncio.timeout(10):  # at once, not after retrying forever
            with pytest.raises(ClusterRefused) as raised:
                await server.start()
    finally:
        server.store.close()
    return str(raised.value)


async def test_a_node_with_the_token_joins_one_without_is_refused(
    token_nats: int, tmp_path: Path
) -> None:
    await joins(await node(tmp_path, f"nats://{TOKEN}@127.0.0.1:{token_nats}", "a"))
    for url in (f"nats://127.0.0.1:{token_nats}", f"nats://wrong@127.0.0.1:{token_nats}"):
        said = await refused(await node(tmp_path, url, "b"))
        assert "refused this node" in said and "Authorization Violation" in said
        assert TOKEN not in said and "wrong" not in said


async def test_a_node_with_a_user_and_password_joins(users_nats: int, tmp_path: Path) -> None:
    url = f"nats://127.0.0.1:{users_nats}"
    await joins(await node(tmp_path, url, "a", Access(user="node", password="pa55")))
    said = await refused(await node(tmp_path, url, "b", Access(user="node", password="no")))
    assert "Authorization Violation" in said


def test_serve_says_why_it_cannot_join(token_nats: int, tmp_path: Path) -> None:
    result = CliRunner().invoke(
        main,
        [
            "serve", "--port", "0", "--data-dir", str(tmp_path / "data"),
            "--cluster", f"nats://127.0.0.1:{token_nats}",
        ],
    )  # fmt: skip
    assert result.exit_code == 1
    assert "cannot join the cluster: NATS at nats://127.0.0.1" in result.output
    assert "Authorization Violation" in result.output


def test_cluster_options_that_do_not_go_together_are_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError):
        Access(password="x")
    with pytest.raises(ValueError):
        Access(tls_key="key.pem")
    assert Access().connect_options() == {}
    options = Access(user="u", password="p").connect_options()
    assert options == {"user": "u", "password": "p"}
    creds = tmp_path / "node.creds"
    creds.write_text("")
    assert Access(creds=str(creds)).connect_options() == {"user_credentials": str(creds)}
    result = CliRunner().invoke(main, ["serve", "--cluster-password", "p"])
    assert result.exit_code == 2 and "needs a cluster user" in result.output
    assert shown("nats://tok@host:4222/x") == "nats://***@host:4222/x"
    assert shown("tls://host:4222") == "tls://host:4222"
