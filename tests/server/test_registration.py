"""``register`` under ``--open-registration`` is rated, per address and on the server, and
names that would pass for an account's are refused (here and for the administrators)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest

from icswire.server.app import Server
from icswire.server.core.model.names import name_skeleton
from icswire.server.core.net.limits import Limits, Rate
from icswire.server.core.storage.store import LooksLike, Store

from .client import Client
from .support import connect, texts

FROM_HERE = "Too many registrations from your address; try again in "
ON_SERVER = "Too many registrations on this server; try again in "


@pytest.fixture
async def server(database_url: str) -> AsyncIterator[Server]:
    store = Store(database_url)
    running = Server(store, "127.0.0.1", 0, open_registration=True)
    await running.start(listen=False)
    yield running
    await running.stop()
    store.close()


async def guest(server: Server) -> Client:
    client = await connect(server)
    await client.login("guest")
    return client


async def said(client: Client, line: str) -> list[str]:
    return texts(await client.command(line))


def test_the_rates_are_limits() -> None:
    limits = Limits()
    assert (limits.register_address, limits.register_total) == (Rate(3, 600.0), Rate(30, 60.0))
    limits.set("register_address=5/60")
    limits.set("register_total=off")
    assert (limits.register_address, limits.register_total) == (Rate(5, 60.0), None)
    with pytest.raises(ValueError, match="BURST/SECONDS"):
        limits.set("register_total=7")


async def test_one_address_registers_a_few_names_then_waits(server: Server) -> None:
    server.limits.register_address = Rate(2, 3600.0)
    first, second = await guest(server), await guest(server)  # one address, in memory
    assert (await said(first, "register Alpha pw"))[0].startswith('Registered "Alpha".')
    # a refused name costs nothing
    assert await said(second, "register alpha pw") == [
        '"Alpha" is registered already; please choose another name.'
    ]
    assert (await said(second, "register Beta pw"))[0].startswith('Registered "Beta".')
    refused = await said(first, "register Gamma pw")
    assert len(refused) == 1 and refused[0].startswith(FROM_HERE), refused
    assert await asyncio.to_thread(server.store.registered_name, "gamma") is None
    server.limits.register_address = None
    assert (await said(first, "register Gamma pw"))[0].startswith('Registered "Gamma".')


async def test_the_server_registers_a_few_names_then_waits(server: Server) -> None:
    server.limits.register_address = None
    server.limits.register_total = Rate(3, 3600.0)
    visitor = await guest(server)
    for name in ("Alpha", "Beta", "Gamma"):
        assert (await said(visitor, f"register {name} pw"))[0].startswith(f'Registered "{name}".')
    refused = await said(visitor, "register Delta pw")
    assert len(refused) == 1 and refused[0].startswith(ON_SERVER), refused


@pytest.mark.parametrize("alike", ["Bi1l", "B1II", "BiIl", "bi11"])
async def test_a_name_that_looks_like_an_account_is_refused(server: Server, alike: str) -> None:
    await asyncio.to_thread(server.store.add_user, "Bill", "pw")
    await asyncio.to_thread(server.store.add_user, "Tomo", "pw")
    visitor = await guest(server)
    assert await said(visitor, f"register {alike} pw") == [
        f'"{alike}" looks too much like "Bill"; please choose another name.'
    ]
    assert await said(visitor, "register Tom0 pw") == [
        '"Tom0" looks too much like "Tomo"; please choose another name.'
    ]
    assert (await said(visitor, "register Bilbo pw"))[0].startswith('Registered "Bilbo".')


async def test_administrators_cannot_make_look_alikes_either(server: Server) -> None:
    await asyncio.to_thread(server.store.add_user, "Admin1", "pw")
    await asyncio.to_thread(server.store.set_admin, "Admin1", True)
    await asyncio.to_thread(server.store.add_user, "Oliver", "pw")
    admin = await connect(server)
    await admin.login("Admin1", "pw")
    assert await said(admin, "addplayer 0liver pw") == [
        "Sorry, a name must begin with a letter and consist of letters and digits."
    ]
    assert await said(admin, "addplayer O1iver pw") == [
        '"O1iver" looks too much like the registered "Oliver".'
    ]
    with pytest.raises(LooksLike):  # nor the operator, with icswire user add
        await asyncio.to_thread(server.store.add_user, "OIiver", "pw")


def test_skeletons() -> None:
    assert name_skeleton("Bi1l") == name_skeleton("BILL") == name_skeleton("bill") == "blll"
    assert name_skeleton("Tom0") == name_skeleton("TOMO")
    assert name_skeleton("Bill") != name_skeleton("Bell")
