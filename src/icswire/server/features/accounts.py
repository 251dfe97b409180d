"""Accounts and logging in: the login dialogue (icc-formats.txt section 2,
DG_LOGIN_FAILED 69, NOTES.md) and what a registered user brings along.

``login:`` takes a name, ``guest``, ``name password`` on one line, or the settings lines
``level1=N`` and ``level2settings=0101...`` (after which ``login:`` comes again). Guests
and unregistered names press return to enter; registered names give their password (the
echo is switched off around it, as telnet servers do). Failures give DG_LOGIN_FAILED's
text, and the datagram too when level 2 asked for it. A registered user's saved
variables, channels, notify list, aliases and ratings are loaded once the password is
right (:func:`load_account`). When the database does not answer, the user is told so
(:data:`~icswire.server.core.storage.writes.NOT_ANSWERING`) and ``login:`` comes again.

One session per name. An unregistered name that is online is refused at once. A registered
user who logs in again takes over, as on FICS: the old connection is told "you can't both
be logged in" and closed (its games end as a disconnection's do), so someone whose old
connection hangs can always get back in, and the password proves the account is theirs.
The app decides this when the user enters (:func:`take_over`, :func:`name_taken`), with no
await between the check and the entry: two logins of one account at once leave one.

Against guessing and squatting (:class:`~icswire.server.core.net.limits.Limits`): the whole
dialogue has ``login_timeout`` seconds; ``login_tries`` wrong passwords close the
connection. An address with ``free_failures`` recent failures, on any accounts or on one,
waits longer after each (:class:`~icswire.server.core.net.limits.Backoff`), and a password
sent from it during the wait is refused unchecked; every try is counted before its
password is checked (:func:`_admit`), so tries sent at once get no more than the free
ones checked (the others wait for those to be decided, then pass if they were right).
An account is never locked: another address is not refused because of this one's
failures, but once ``account_failures`` tries failed on an account from anywhere,
each try of it is held back a little (at most ``max_account_delay`` seconds), which slows
guessing from many addresses and only delays its owner. The counts are this node's: in a
cluster each node throttles the tries it hears. Guests cannot take the server's names or a
command word (:func:`~icswire.server.core.model.names.is_reserved`, ``Registry.words``). A name
on the ban list (``+ban``) is refused with DG_LOGIN_FAILED's code 12 and disconnected.
"""

from __future__ import annotations

import asyncio
import time
from typing import TYPE_CHECKING

from icswire.protocol import datagrams as dg
from icswire.protocol.codes import LoginFailed, login_failed_text
from icswire.protocol.datagrams import DG, encode_datagram
from icswire.protocol.level1 import Level1
from icswire.server.core.dispatch.numbers import parse_number
from icswire.server.core.model.names import check_name, is_reserved, name_key
from icswire.server.core.model.titles import TITLE_LISTS
from icswire.server.core.model.users import User
from icswire.server.core.model.variables import VARIABLES
from icswire.server.core.net.limits import Backoff, seconds_text
from icswire.server.core.net.session import WILL_ECHO, WONT_ECHO, Session
from icswire.server.core.storage.records import shown_rating
from icswire.server.core.storage.store import StoreUnavailable
from icswire.server.core.storage.writes import NOT_ANSWERING

if TYPE_CHECKING:
    from icswire.server.core.dispatch.hub import Core
    from icswire.server.core.storage.store import Account

WELCOME = (
    "",
    "Welcome to icswire, an Internet Chess Server.",
    "",
    'Log in as "guest" to play unrated games, or with your registered name.',
    "",
)
PROMPT = "login: "
TOO_MANY_TRIES = "**** Too many failed logins; disconnecting. ****"
LOGIN_TIMEOUT = "**** LOGIN TIMEOUT ****"


def _say(session: Session, *text: str) -> None:
    session.send_raw("".join(line + "\r\n" for line in text).encode("latin-1"))


def _failed(session: Session, code: int, name: str = "", text: str = "") -> None:
    """A refusal: the spec's text for ``code`` (or ``text``), and DG_LOGIN_FAILED."""
    text = text or login_failed_text(code, name=name)
    _say(session, "", text, "")  # on a line of its own, below the prompt it answers
    if DG.LOGIN_FAILED in session.level2:
        session.send_raw(encode_datagram(dg.LoginFailed(code, text)))


def _reserved(core: Core, name: str) -> bool:
    """Is ``name`` one that nobody may take as a guest (the server's, an administrator's,
    a command word)?"""
    return is_reserved(name) or name_key(name) in core.registry.words()


def _keys(session: Session, account: Account) -> tuple[str, str, str]:
    """The throttle's keys of a try: its address, its address and account, its account."""
    account_key = name_key(account.name)
    return (
        f"address {session.host}",
        f"address {session.host} account {account_key}",
        f"account {account_key}",
    )


def _admit(core: Core, session: Session, account: Account) -> str | float:
    """Refuse a try of ``account``'s password from this address (the refusal, when this
    address has failed too often lately, on any account or on this one), or count it
    before it is checked and return how long to hold it back (seconds: many addresses
    have failed on this account lately). No await: tries made at once are counted one by
    one, so that no more than the free ones are checked."""
    failures, limits, now = core.state(Backoff), core.limits, time.monotonic()
    by_address, by_pair, by_account = _keys(session, account)
    address_wait = failures.wait(by_address, limits, now)
    pair_wait = failures.wait(by_pair, limits, now)
    if address_wait > 0 or pair_wait > 0:
        if pair_wait >= address_wait:
            where = f'for "{account.name}" from your address'
        else:
            where = "from your address"
        wait = seconds_text(max(address_wait, pair_wait))
        return f"**** Too many failed logins {where}; try again in {wait}. ****"
    hold = failures.delay(
        by_account, limits, now, limits.account_failures, limits.max_account_delay
    )
    for key in (by_address, by_pair, by_account):
        failures.failed(key, limits, now)
    return hold


async def _password(core: Core, session: Session, account: Account, password: str) -> bool:
    """Check ``password`` (unless this address must wait), counting the try first. A try
    refused only because of tries of this address still being checked waits until one is
    decided and asks again: right passwords sent at once from one address (a club behind
    one router) all get in, wrong ones get no more than the free ones checked."""
    failures = core.state(Backoff)
    by_address, by_pair, by_account = _keys(session, account)
    while isinstance(admitted := _admit(core, session, account), str):
        if not failures.in_flight(by_address):
            _failed(session, LoginFailed.SOMETHING_WRONG, text=admitted)
            return False
        await failures.one_decided(by_address)
    failures.checking(by_address)
    try:
        if admitted > 0:
            await asyncio.sleep(admitted)
        right = await core.password_work(core.store.check_password, account.name, password)
    finally:
        failures.decided(by_address)
    if right:
        failures.forget(by_pair)
        failures.succeeded(by_address)
        failures.succeeded(by_account)
        return True
    _say(session, "", "**** Invalid password! ****", "")
    if DG.LOGIN_FAILED in session.level2:
        text = login_failed_text(LoginFailed.INVALID_PASSWORD)
        session.send_raw(encode_datagram(dg.LoginFailed(LoginFailed.INVALID_PASSWORD, text)))
    return False


async def login(core: Core, session: Session) -> Account | bool | None:
    """Run the dialogue. Returns the account of a registered user, None for a guest or an
    unregistered name (``session.name`` is set), or False if the connection went away or
    is to be closed (too many wrong passwords, or no login within
    :attr:`~icswire.server.core.net.limits.Limits.login_timeout` seconds: FICS's
    ``**** LOGIN TIMEOUT ****``)."""
    deadline = asyncio.timeout(core.limits.login_timeout or None)
    try:
        async with deadline:
            return await _dialogue(core, session)
    except TimeoutError:
        if not deadline.expired():
            raise
        _say(session, "", LOGIN_TIMEOUT, "")
        return False


async def _dialogue(core: Core, session: Session) -> Account | bool | None:
    _say(session, *WELCOME)
    tries = core.limits.login_tries
    while True:
        session.send_raw(PROMPT.encode())
        line = await session.read_line()
        if line is None:
            return False
        text = line.strip()
        setting, _, value = text.partition("=")
        level1 = parse_number(value) if setting == "level1" else None
        if level1 is not None:
            session.level1 = Level1(min(level1, 15))
            continue
        if setting == "level2settings" and set(value) <= {"0", "1"}:
            session.level2 = frozenset(n for n, bit in enumerate(value) if bit == "1")
            continue
        if not text:
            continue
        name, _, password = text.partition(" ")
        if name.lower() == "guest":
            guest = core.world.guest_name()
            while not await core.guest_claims.claim(name_key(guest)):  # a cluster's
                guest = core.world.guest_name()
            try:
                return await _enter(session, guest, guest=True)
            finally:
                if session.name != guest:  # gone before pressing return
                    core.guest_claims.release(name_key(guest))
        code = check_name(name)
        if code is not None:
            _failed(session, code, name)
            continue
        try:
            await core.writes.settled(name)  # what it saved last time is stored
            account = await asyncio.to_thread(core.store.load, name)
            banned = await asyncio.to_thread(core.store.is_banned, name)
        except StoreUnavailable:
            _say(session, NOT_ANSWERING, "")
            continue
        if banned:
            _failed(session, LoginFailed.BANNED)
            return False
        if account is None and name_key(name) in core.world.online:
            _failed(session, LoginFailed.ALREADY_LOGGED_IN, name)
            continue
        if account is None:
            if password:
                _failed(session, LoginFailed.UNREGISTERED_NAME_WITH_PASSWORD, name)
            elif _reserved(core, name):
                reserved = f'Sorry, "{name}" is a reserved name; please choose another.'
                _failed(session, LoginFailed.UNREGISTERED_NAME_FILTERED, text=reserved)
            else:
                return await _enter(session, name, guest=False)
            continue
        if not password:
            _say(
                session,
                "",
                f'"{account.name}" is a registered name.  If it is yours, type the password.',
                "If not, just hit return to try another name.",
            )
            # echo off before the line end that ends the line before the prompt: the
            # prompt is then "password: " and nothing else, for telnet clients and for
            # clients that match it byte for byte alike
            session.send_raw(WILL_ECHO + b"\r\npassword: ")
            answer = await session.read_line()
            session.send_raw(WONT_ECHO + b"\r\n")
            if answer is None:
                return False
            password = answer.strip()
            if not password:
                continue
        try:
            right = await _password(core, session, account, password)
            ratings = await asyncio.to_thread(core.store.ratings, account.name) if right else {}
        except StoreUnavailable:
            _say(session, NOT_ANSWERING, "")
            continue
        if right:
            session.name, session.registered = account.name, True
            session.admin = account.admin
            session.title_lists = frozenset(account.server_lists).intersection(TITLE_LISTS)
            session.ratings.update({kind: shown_rating(r) for kind, r in ratings.items()})
            return account
        tries -= 1
        if tries == 0:
            _failed(session, LoginFailed.SOMETHING_WRONG, text=TOO_MANY_TRIES)
            return False


def greeting(session: User) -> str:
    """The line a user who logged in is greeted with, in the face it talks (README, "Two
    faces"): FICS clients (XBoard, eboard, PyChess in FICS mode) wait for FICS's
    ``**** Starting FICS session as NAME ****`` and read the name from it, so it stays as
    FICS writes it; a session that turned level 1 or level 2 on at ``login:`` talks ICC and
    is greeted as an ICC session (its clients learn the name from DG_WHO_AM_I). Only a
    guest's ``(U)`` follows the name: clients take the name from this line, and most of
    them strip only that."""
    server = "ICC" if session.talks_icc else "FICS"
    name = session.name if session.registered else f"{session.name}(U)"
    return f"**** Starting {server} session as {name} ****"


def take_over(session: Session, old: User) -> None:
    """FICS's texts when a registered user logs in again: the old connection is told why it
    goes (:meth:`Session.taken_over`; a replica's own node ends it), the new one whom it
    replaced."""
    if isinstance(old, Session):
        old.taken_over()
    _say(session, f"**** {session.name} is already logged in - kicking them out. ****", "")


def name_taken(session: Session) -> None:
    """Somebody took this unregistered name while ``session`` was pressing return."""
    _failed(session, LoginFailed.ALREADY_LOGGED_IN, session.name)


CUT_OFF = (
    "**** This server cannot log you in now: the servers of its cluster cannot reach each "
    "other. Try again in a moment. ****"
)


def cut_off(session: Session) -> None:
    """A cluster's node cut off from NATS cannot take a name in the whole cluster."""
    _failed(session, LoginFailed.SOMETHING_WRONG, text=CUT_OFF)


async def _enter(session: Session, name: str, guest: bool) -> bool | None:
    """The guest and unregistered-name case: press return to come in as ``name``.
    None once in, False if the connection went away."""
    if guest:
        first = f'Logging you in as "{name}"; you may use this name to play unrated games.'
    else:
        first = f'"{name}" is not a registered name.  You may use this name to play unrated games.'
    _say(
        session,
        "",
        first,
        '(After logging in, do "help register" for more info on how to register.)',
        "",
        # FICS leaves the line open; a client that reads a line at a time would wait
        # for its end forever, and a client that matches the prompt still finds it
        f'Press return to enter the server as "{name}":',
    )
    if await session.read_line() is None:
        return False
    session.send_raw(b"\r\n")
    session.name, session.registered = name, False
    return None


async def load_account(core: Core, session: Session, account: Account) -> None:
    """A registered user's saved variables, channels, notify list and aliases (``login``
    read every rating, for DG_PLAYER_ARRIVED and finger, with the password)."""
    values = dict(session.variables)
    for key, value in account.settings.items():
        variable = VARIABLES.by_name.get(key)
        if variable is None:
            continue
        try:
            parsed = variable.parse(value)
        except ValueError:
            continue
        if key == "level1":
            session.level1 = session.level1 or Level1(int(parsed))
        else:
            values[key] = parsed
    session.variables = VARIABLES.shared(values)
    session.channels = frozenset(account.channels)
    session.notify = {name_key(name): name for name in account.notify}
    for which, names in account.lists.items():
        if names:
            session.lists[which] = {name_key(name): name for name in names}
    session.aliases = dict(account.aliases)
    core.world.uids[name_key(account.name)] = account.uid
