"""Three icswire nodes as one cluster, on the NATS server and PostgreSQL database the
environment names (``ICSWIRE_TEST_NATS_URL``, ``ICSWIRE_TEST_DATABASE_URL``; without
either these tests skip). Each test has a cluster of its own name (its own subjects and
key-value buckets, deleted after it) and an empty database."""

from __future__ import annotations

import contextlib
import os
import uuid
from collections.abc import AsyncIterator
from pathlib import Path

import nats
import pytest

from icswire.server.app import Server
from icswire.server.core.storage import store
from tests.server.conftest import empty_postgresql

NATS_ENV = "ICSWIRE_TEST_NATS_URL"
BUCKETS = ("users", "games", "seeks", "events")


@pytest.fixture
def nats_url() -> str:
    url = os.environ.get(NATS_ENV)
    if not url:
        pytest.skip(f"cluster: set {NATS_ENV} to a NATS server with JetStream")
    return url


@pytest.fixture
def database_url(tmp_path: Path) -> str:
    """An empty PostgreSQL database the nodes share."""
    return empty_postgresql(tmp_path, "cluster: set {} to a PostgreSQL database")


@pytest.fixture
async def cluster_name(nats_url: str) -> AsyncIterator[str]:
    name = f"t{uuid.uuid4().hex[:10]}"
    yield name
    connection = await nats.connect(nats_url)
    js = connection.jetstream()
    for bucket in BUCKETS:
        with contextlib.suppress(Exception):  # never made
            await js.delete_key_value(f"{name}_{bucket}")
    await connection.close()


async def start_node(database_url: str, nats_url: str, cluster_name: str, node: str) -> Server:
    server = Server(
        store.Store(database_url), "127.0.0.1", 0, cluster=nats_url, cluster_name=cluster_name,
        node=node,
    )  # fmt: skip
    assert server.cluster is not None
    server.cluster.heartbeat, server.cluster.dead_after = 0.2, 1.0
    await server.start()
    return server


@pytest.fixture
async def nodes(database_url: str, nats_url: str, cluster_name: str) -> AsyncIterator[list[Server]]:
    """Nodes a, b and c of one cluster, running."""
    servers = [await start_node(database_url, nats_url, cluster_name, n) for n in "abc"]
    yield servers
    for server in servers:
        await server.stop()
        server.store.close()
