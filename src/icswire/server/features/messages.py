"""Messages between registered users, kept in the database until cleared: ``messages``
(FICS's one command to list and send: ``message NAME text`` is its prefix),
``clearmessages``, ``fmessage NAME N`` (FICS's: forward one of yours), and the count
shown at login.

``messages`` lists every message, ``messages u`` the unread ones, ``messages N`` one,
``messages NAME`` those between you and NAME; each shown message is then read. A message
to a user online is shown to him at once. An ICC session with DG_MESSAGELIST_BEGIN (94)
and DG_MESSAGELIST_ITEM (95) on gets them too for the messages to it that a ``messages``
command shows (section 4: "The text form is sent in any case"); an item's time is
``HH:MM`` and its date ``YYYY-MM-DD``, both UTC. A censored sender is refused (``NAME is
censoring you.``). A mailbox holds at most
:attr:`~icswire.server.core.net.limits.Limits.max_messages` (FICS's MAX_MESSAGES, 40): a
message to a full one is refused with FICS's ``Couldn't send message to NAME. Message
buffer full.`` (FICS lets administrators' mailboxes grow; here the cap is everybody's, so
that a mailbox's listing and its datagrams always fit the output limit). Listings are
paged (``next``).

``set mailmess 1``: a message received is copied by mail ("FICS message from NAME") to
the address on the receiver's account, when the server has an SMTP relay (``icswire
serve --smtp-relay``); the message is kept as always.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from icswire.protocol import datagrams as dg
from icswire.protocol.level1 import CommandNumber as CN
from icswire.server.core.dispatch.commands import first_word
from icswire.server.core.dispatch.hub import CommandSet, Context
from icswire.server.core.dispatch.mailing import mail_to_player
from icswire.server.core.dispatch.numbers import parse_number
from icswire.server.core.events.talk import MessageReceived
from icswire.server.core.model.names import check_name, name_key
from icswire.server.core.render.batch import Batch, Datagram, lines
from icswire.server.core.storage import jobs
from icswire.server.core.storage.store import StoredMessage, StoreUnavailable

if TYPE_CHECKING:
    from icswire.server.core.dispatch.hub import Core
    from icswire.server.core.model.users import User

log = logging.getLogger("icswire.server")
COMMANDS = CommandSet()
command = COMMANDS.command
UNREGISTERED = "Unregistered players may not send or receive messages."
#: What a forwarded message's text starts with (lasker's ``FORWARDED MSG FROM``).
FORWARDED = "FORWARDED MSG: "


def when(sent: datetime) -> str:
    """FICS's ``strltime``: ``Tue Nov 24, 01:05 UTC 2026``."""
    sent = sent.astimezone(UTC)
    return f"{sent:%a %b} {sent.day:2d}, {sent:%H:%M} UTC {sent:%Y}"


def shown(message: StoredMessage) -> str:
    return f"{message.sender} at {when(message.sent)}: {message.text}"


def _count(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _show(ctx: Context, typed: str, heading: str | None, found: list[StoredMessage]) -> None:
    """``heading`` and ``found`` (to the user, who has now read them), for the command
    ``typed``."""
    on_page = ctx.page(*([heading] if heading else []), *(f"{m.number}. {shown(m)}" for m in found))
    session = ctx.session
    ctx.batch.add(session, Datagram(dg.MessagelistBegin(typed)))
    for m in found[: on_page - bool(heading)]:  # those shown now (a long list is paged)
        time_, date = f"{m.sent.astimezone(UTC):%H:%M}", f"{m.sent.astimezone(UTC):%Y-%m-%d}"
        item = dg.MessagelistItem(m.number, m.sender, time_, date, m.text)
        ctx.batch.add(session, Datagram(item))
    unread = [m.id for m in found if m.unread]
    if unread:
        ctx.save("mark_messages_read", unread)


async def _mine(ctx: Context) -> list[StoredMessage]:
    """The user's messages, once what he changed is stored."""
    await ctx.core.writes.settled(ctx.session.name)
    return await asyncio.to_thread(ctx.store.messages, ctx.session.name)


@command("messages", CN.CN_MESSAGE, "messages [u|N|NAME [text]]", bare_cn=CN.CN_MESSAGE0)
async def messages(ctx: Context, args: str) -> None:
    if not ctx.session.registered:
        ctx.reply(UNREGISTERED)
        return
    word, text = first_word(args)
    if text:
        await _send(ctx, word, text)
        return
    if word:
        await _some(ctx, word)
        return
    found = await _mine(ctx)
    if not found:
        ctx.reply("You have no messages.")
        return
    _show(ctx, "messages", "Messages:", found)


async def _some(ctx: Context, word: str) -> None:
    """``messages u``, ``messages N`` or ``messages NAME``."""
    number = parse_number(word)
    if word.lower() == "u":
        unread = [m for m in await _mine(ctx) if m.unread]
        if not unread:
            ctx.reply("You have no unread messages.")
            return
        _show(ctx, "messages u", "Unread messages:", unread)
        return
    if number is not None:
        chosen = [m for m in await _mine(ctx) if m.number == number]
        if not chosen:
            ctx.reply(f"You do not have a message {number}.")
            return
        _show(ctx, f"messages {number}", None, chosen)
        return
    other = await _registered(ctx, word)
    if other is None:
        return
    me = ctx.session.name
    if name_key(other) != name_key(me):
        await ctx.core.writes.settled(other)
        sent = await asyncio.to_thread(ctx.store.messages_sent, me, other)
        if sent:
            ctx.page(f"Messages to {other}:", *(shown(m) for m in sent))
        else:
            ctx.reply(f"{other} has no messages from you.")
    mine = [m for m in await _mine(ctx) if name_key(m.sender) == name_key(other)]
    if mine:
        _show(ctx, f"messages {word}", f"Messages from {other}:", mine)
    else:
        ctx.reply(f"You have no messages from {other}.")


async def _registered(ctx: Context, word: str) -> str | None:
    """The registered name ``word`` names, or None after saying there is none."""
    online = ctx.world.find(word)
    if online is not None and not online.registered:
        ctx.reply(f'Player "{online.name}" is unregistered and cannot send or receive messages.')
        return None
    found = None
    if check_name(word) is None:
        found = await asyncio.to_thread(
            ctx.store.message_target, online.name if online else word, ctx.session.name
        )
    if found is None:
        ctx.reply(f"There is no player matching the name {word}.")
        return None
    return found.name


async def _send(ctx: Context, word: str, text: str) -> None:
    """``message NAME text``: kept for NAME, shown at once if NAME is online."""
    sent = await _deliver(ctx, word, text)
    if sent is not None:
        ctx.reply(
            f"The following message was sent to {sent.receiver}:",
            f"{ctx.session.name} at {sent.when}: {text}",
        )
        sent.show(ctx)


@dataclass(frozen=True)
class _Sent:
    """A message on its way: to whom, when, and the receiver online who sees it at once."""

    receiver: str
    when: str
    text: str
    online: User | None

    def show(self, ctx: Context) -> None:
        """Show it to the receiver if he is online (after the sender's reply)."""
        if self.online is not None:
            ctx.batch.add(self.online, MessageReceived(ctx.session.name, self.when, self.text))


async def _deliver(ctx: Context, word: str, text: str) -> _Sent | None:
    """Keep ``text`` from the issuer for the registered player ``word`` names (then
    :meth:`_Sent.show` shows it to him if online); None after saying why not
    (unregistered, unknown, censoring, a full mailbox, too fast)."""
    session = ctx.session
    online = ctx.world.find(word)
    if online is not None and not online.registered:
        ctx.reply(f'Player "{online.name}" is unregistered and cannot receive messages.')
        return None
    target = None
    if check_name(word) is None:
        named = online.name if online is not None else word
        await ctx.core.writes.settled(named)  # the messages on their way are counted
        target = await asyncio.to_thread(ctx.store.message_target, named, session.name)
    if target is None:
        ctx.reply(f"There is no player matching the name {word}.")
        return None
    receiver = target.name
    if target.censoring or (online is not None and online.censors(session)):
        ctx.reply(f"{receiver} is censoring you.")
        return None
    cap = ctx.core.limits.max_messages
    if 0 < cap <= target.kept:
        ctx.reply(f"Couldn't send message to {receiver}. Message buffer full.")
        return None
    if ctx.too_fast("tell"):
        return None
    now = datetime.now(UTC)
    write = jobs.message(session.name, receiver, text, now)
    what = f"send_message({session.name!r}, {receiver!r})"
    ctx.core.writes.put_write(write, what, concerns=(session.name, receiver))
    if ctx.core.mailer is not None:
        mailmess = None if online is None or online.remote else online.variables["mailmess"]
        copy = f"{session.name} at {when(now)}: {text}\n"
        ctx.core.spawn(_mail_copy(ctx.core, receiver, session.name, copy, mailmess))
    return _Sent(receiver, when(now), text, online)


async def _mail_copy(core: Core, receiver: str, sender: str, body: str, on: object) -> None:
    """``set mailmess 1``: the message copied to the receiver's address; ``on`` is his
    mailmess when he is online here (None: as his account keeps it)."""
    if on is None:
        await core.writes.settled(receiver)
        account = await asyncio.to_thread(core.store.load, receiver)
        on = account is not None and account.settings.get("mailmess") not in (None, "", "0")
    if on:
        await mail_to_player(core, receiver, f"FICS message from {sender}", body)


@command("fmessage", CN.CN_MESSAGE, "fmessage <name> <number>")
async def fmessage(ctx: Context, args: str) -> None:
    """FICS's ``fmessage`` (talkproc.c ``com_forwardmess``): message N of yours, as you
    see it, sent on to NAME marked ``FORWARDED MSG:``."""
    if not ctx.session.registered:
        ctx.reply(UNREGISTERED)
        return
    word, rest = first_word(args)
    number = parse_number(rest.strip())
    if not word or number is None:
        ctx.reply("Usage: fmessage <name> <number>")
        return
    found = await _mine(ctx)
    if not found:
        ctx.reply("You have no messages.")
        return
    chosen = [m for m in found if m.number == number]
    if not chosen:
        ctx.reply(f"You do not have a message {number}.")
        return
    if await _registered(ctx, word) is None:
        return
    forwarded = shown(chosen[0])
    sent = await _deliver(ctx, word, f"{FORWARDED}{forwarded}")
    if sent is not None:
        ctx.reply(f"The following message was forwarded to {sent.receiver}:", f"   {forwarded}")
        sent.show(ctx)


@command("clearmessages", CN.CN_CLEARMESSAGES, "clearmessages <*|N|NAME>")
async def clearmessages(ctx: Context, args: str) -> None:
    if not ctx.session.registered:
        ctx.reply(UNREGISTERED)
        return
    word = args.strip()
    if not word:
        ctx.reply('Use "clearmessages *" to clear all your messages.')
        return
    found = await _mine(ctx)
    if not found:
        ctx.reply("You have no messages.")
        return
    number = parse_number(word)
    if word == "*":
        chosen = found
    elif number is not None:
        chosen = [m for m in found if m.number == number]
        if not chosen:
            ctx.reply(f"You do not have a message {number}.")
            return
    else:
        other = await _registered(ctx, word)
        if other is None:
            return
        chosen = [m for m in found if name_key(m.sender) == name_key(other)]
        if not chosen:
            ctx.reply(f"You have no messages from {other}.")
            return
    ctx.save("clear_messages", [m.id for m in chosen])
    ctx.reply(f"Cleared {_count(len(chosen), 'message')}.")


# -- at login ----------------------------------------------------------------------------------


async def login_notice(core: Core, session: User) -> None:
    """``You have N messages (M unread).`` for a registered user who has some."""
    try:
        found = await asyncio.to_thread(core.store.messages, session.name)
    except StoreUnavailable as exc:
        log.warning("messages of %s at login: %s", session.name, exc)
        return
    if not found or core.world.online.get(name_key(session.name)) is not session:
        return
    unread = sum(m.unread for m in found)
    batch = Batch(CN.SCN_AUTOMATIC, None)
    batch.add(
        session,
        lines(
            f"You have {_count(len(found), 'message')} ({unread} unread).",
            'Use "messages u" to view unread messages and "clearmessages *" to clear all.',
        ),
    )
    batch.flush()


def arrived(core: Core, session: User, batch: Batch) -> None:
    if session.registered:
        core.spawn(login_notice(core, session))


def install(core: Core) -> None:
    core.registry.add_commands(COMMANDS)
    core.registry.arrived.append(lambda session, batch: arrived(core, session, batch))
