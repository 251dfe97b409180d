"""Bughouse partnerships end to end: ``partner`` offers in the numbered series (accept,
decline, withdraw, ``<pf>``), DG_PARTNERSHIP, ``ptell`` as text and as DG_PERSONAL_TELL,
and a partnership ending by ``partner`` or by a partner leaving."""

from __future__ import annotations

from icswire.protocol.datagrams import DG
from icswire.protocol.events import IvarLine, Prompt
from icswire.protocol.ivars import format_ivar
from icswire.server.app import Server

from .client import Client
from .support import bits, connect, is_text, texts


async def user(server: Server, name: str, *datagrams: int) -> Client:
    client = await connect(server, datagrams)
    setup = [f"level2settings={bits(*datagrams)}"] if datagrams else []
    await client.login(name, None, *setup)
    return client


def alpha_open(server: Server) -> bool:
    return bool(server.world.online["alpha"].variables["bugopen"])


async def offer(sender: Client, receiver: Client) -> None:
    """``sender`` offers; ``receiver`` has read the offer and the prompt after it."""
    await sender.command(f"partner {receiver.name}")
    await receiver.expect(is_text(f'Type "partner {sender.name}" or "accept" to accept.'))
    await receiver.expect(lambda e: isinstance(e, Prompt))


async def test_offer_accept_ptell_and_end(server: Server) -> None:
    alpha = await user(server, "Alpha")
    beta = await user(server, "Beta", DG.PARTNERSHIP, DG.PERSONAL_TELL)
    await beta.command("iset pendinfo 1")
    assert texts(await alpha.command("ptell hi")) == ["You do not have a partner at present."]
    assert texts(await alpha.command("partner Beta")) == ["Beta is not open for bughouse."]
    assert texts(await beta.command("set bugopen 1")) == ["You are now open for bughouse."]
    assert texts(await alpha.command("partner Beta")) == [
        "Setting you open for bughouse.",  # FICS's bughouse server sets the offerer open
        "Making a partnership offer to Beta.",
    ]
    assert alpha_open(server)
    pf = await beta.expect(lambda e: isinstance(e, IvarLine))
    assert format_ivar(pf.record) == "<pf> 1 w=Alpha t=partner p=#"
    await beta.expect(is_text("Alpha offers to be your bughouse partner."))
    await beta.expect(is_text('Type "partner Alpha" or "accept" to accept.'))
    assert texts(await alpha.command("partner Beta")) == [
        "You are already offering to be Beta's partner."
    ]
    pending = texts(await beta.command("pending"))
    assert "   1: Alpha is offering a partnership." in pending
    assert texts(await beta.command("accept 1")) == ["You agree to be Alpha's partner."]
    formed = beta.received(DG.PARTNERSHIP)[-1]  # before the prompt
    assert (formed.name1, formed.name2, formed.forming) == ("Alpha", "Beta", True)
    await alpha.expect(is_text("Beta agrees to be your partner."))
    assert texts(await alpha.command("partner Beta")) == [
        "You are already Beta's bughouse partner."
    ]
    assert texts(await alpha.command("ptell take the knight")) == ["(told Beta)"]
    told = await beta.expect_dg(DG.PERSONAL_TELL)
    assert (told.playername, told.text, told.type) == ("Alpha", "take the knight", 2)
    assert texts(await beta.command("ptell ok")) == ["(told Alpha)"]
    await alpha.expect(is_text("Beta(U) (your partner) tells you: ok"))  # a guest's (U)
    assert texts(await alpha.command("partner")) == [
        "You no longer have a bughouse partner (Beta)."
    ]
    await beta.expect(is_text("Alpha has ended your partnership."))
    ended = await beta.expect_dg(DG.PARTNERSHIP)
    assert (ended.name1, ended.name2, ended.forming) == ("Alpha", "Beta", False)
    assert texts(await alpha.command("partner")) == ["You do not have a bughouse partner."]
    assert not alpha.errors() and not beta.errors()


async def test_offers_both_ways_decline_withdraw_and_leaving(server: Server) -> None:
    alpha, beta, gamma = [await user(server, n) for n in ("Alpha", "Beta", "Gamma")]
    assert texts(await alpha.command("partner Alpha")) == [
        "You can't be your own bughouse partner."
    ]
    assert texts(await alpha.command("partner Nobody")) == ['No user named "Nobody" is logged in.']
    await beta.command("set bugopen 1")
    await offer(alpha, beta)
    assert texts(await beta.command("decline")) == ["You decline the partnership offer from Alpha."]
    await alpha.expect(is_text("Beta declines your partnership offer."))
    await offer(alpha, beta)
    assert texts(await alpha.command("withdraw")) == [
        "You withdraw your partnership offer to Beta."
    ]
    await beta.expect(is_text("Alpha withdraws the partnership offer."))
    await offer(alpha, beta)
    await offer(gamma, beta)
    assert texts(await beta.command("partner Alpha")) == ["You agree to be Alpha's partner."]
    assert texts(await gamma.command("partner Beta")) == ["Beta already has a bughouse partner."]
    assert texts(await beta.command("accept")) == ["You have no pending offers to accept."]
    await alpha.expect(is_text("Beta agrees to be your partner."))
    await alpha.expect(lambda e: isinstance(e, Prompt))
    assert texts(await alpha.command("partner Gamma")) == [
        "You already have a bughouse partner: Beta."
    ]
    await beta.close()
    await alpha.expect(is_text("Your partner, Beta, has departed."))
    assert texts(await alpha.command("ptell hello")) == ["You do not have a partner at present."]


async def test_bugopen_0_ends_the_partnership_and_the_offers(server: Server) -> None:
    """FICS's bughouse server: ``set bugopen 0`` ends a partnership (both told) and takes
    back the partnership offers made to and by the player."""
    alpha, beta, gamma = [await user(server, n) for n in ("Alpha", "Beta", "Gamma")]
    await beta.command("set bugopen 1")
    await offer(alpha, beta)
    await beta.command("accept")
    await alpha.expect(is_text("Beta agrees to be your partner."))
    assert texts(await beta.command("set bugopen 0")) == [
        "You are not open for bughouse.",
        "You no longer have a bughouse partner.",
    ]
    for line in (
        "Your partner has become unavailable for bughouse.",
        "Your partner has ended partnership.",
        "You no longer have a bughouse partner.",
    ):
        await alpha.expect(is_text(line))
    assert texts(await alpha.command("ptell hi")) == ["You do not have a partner at present."]
    await gamma.command("set bugopen 1")
    await offer(alpha, gamma)  # alpha is open since his first offer
    assert texts(await alpha.command("set bugopen 0")) == [
        "You are not open for bughouse.",
        "Partnership offer to Gamma withdrawn.",
    ]
    await gamma.expect(is_text("Partnership offer from Alpha removed."))
    assert texts(await gamma.command("accept")) == ["You have no pending offers to accept."]
    await offer(beta, gamma)
    assert texts(await gamma.command("set bugopen 0")) == [
        "You are not open for bughouse.",
        "Partnership offer from Beta removed.",
    ]
    await beta.expect(is_text("Partnership offer to Gamma withdrawn."))
