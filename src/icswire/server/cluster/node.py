"""One node of a cluster of icswire servers, on NATS (docs/cluster.md).

Every node keeps, besides its own users, a replica of every user of the other nodes
(:mod:`.facts`), so a command runs on the node where it is typed and reaches everybody:
what a batch has for a user of another node is resolved there as data
(:meth:`Message.resolve <icswire.server.core.render.Message.resolve>`) and shipped to
that node, which renders it for its user as for any other (:class:`Peer`). What lives on
one node only (a game, a match offer, a seek) is acted on there: a command about it is
forwarded to that node (:meth:`Cluster.forward`), run with the user's replica, and its
output to the user comes back in order with that node's other deliveries.

NATS carries (``P`` is the cluster's name, ``icswire`` unless told):

- ``P.node.ID.deliver``: batches for node ID's users (pickled lists of packets);
- ``P.node.ID.run``: a forwarded line (its number, the home node, the user's name, the
  line); its answer (the user's output) comes back among the home's deliveries;
- ``P.node.ID.changes``: facts another node changed of a user of node ID;
- ``P.node.ID.kick``: request/reply, a registered user logging in elsewhere takes over;
- ``P.heartbeat``: each node's id, every :attr:`Cluster.heartbeat` seconds.

JetStream key-value buckets: ``P_users`` (name key -> facts; a name is created once in
the whole cluster), ``P_games`` (game number -> its node and stored id), ``P_seeks``
(seek index -> its node). Messages between nodes are pickled: the nodes of one cluster
trust each other and run the same version.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import pickle
import time
import uuid
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, cast

import nats
from nats.errors import NoRespondersError
from nats.errors import TimeoutError as NatsTimeout
from nats.js.errors import KeyWrongLastSequenceError
from nats.js.kv import KeyValue

from icswire.protocol.level1 import CommandNumber as CN
from icswire.server.cluster import facts as facts_
from icswire.server.core.names import name_key
from icswire.server.core.render import Batch, Message, lines
from icswire.server.core.session import Session
from icswire.server.core.tables import ListedGame, Table

if TYPE_CHECKING:
    from nats.aio.client import Client
    from nats.aio.msg import Msg

    from icswire.server.core.hub import Core

log = logging.getLogger("icswire.cluster")

#: Seconds a forwarded command may take before the user is told the node is not answering.
FORWARD_TIMEOUT = 10.0
#: Seconds ``games`` waits for the other nodes' lists.
LIST_TIMEOUT = 2.0
#: Seconds a stopping node waits for its last writes to the registry.
STOP_PATIENCE = 2
NOT_ANSWERING = "The server that holds that is not answering; try again in a moment."
#: Runs one forwarded line for a replica: (level 1 command number, block code, output).
LineRunner = Callable[[Session, str], Awaitable[tuple[int, int | None]]]
Entries = list[tuple[Session, bool, list[Message]]]
#: What the home does with a forwarded line's answer: (command number, block code, output).
Answer = Callable[[int, int | None, list[Message]], None]


class Peer:
    """Another node, where its users' messages go (a :class:`RemoteNode`)."""

    def __init__(self, cluster: Cluster, node: str) -> None:
        self.cluster = cluster
        self.node = node

    def deliver(self, batch: Batch, entries: Entries) -> None:
        self.cluster.ship(self.node, batch, entries)

    def __repr__(self) -> str:
        return f"Peer({self.node!r})"


class Cluster:
    """This node's part in the cluster ``name`` on the NATS server at ``url``."""

    def __init__(
        self,
        core: Core,
        url: str,
        name: str = "icswire",
        node: str | None = None,
        heartbeat: float = 1.0,
        dead_after: float = 3.0,
    ) -> None:
        self.core = core
        self.url = url
        self.prefix = name
        self.node = node or uuid.uuid4().hex[:12]
        self.heartbeat = heartbeat
        self.dead_after = dead_after
        self.peers: dict[str, Peer] = {}
        self.alive: dict[str, float] = {}
        #: Games of the whole cluster: number -> {"node", "id", "white", "black"}.
        self.games: dict[int, dict[str, Any]] = {}
        #: Seeks of the whole cluster: index -> node.
        self.seeks: dict[int, str] = {}
        self.run_line: LineRunner | None = None
        self._nc: Client | None = None
        self._users: KeyValue | None = None
        self._games_kv: KeyValue | None = None
        self._seeks_kv: KeyValue | None = None
        self._tasks: list[asyncio.Task[Any]] = []
        self._outbox: dict[str, list[Any]] = {}
        self._wake = asyncio.Event()
        self._writes: asyncio.Queue[tuple[str, str, bytes | None]] = asyncio.Queue()
        #: Each of our users' facts as last written, but the idle clock (facts.stable).
        self._written: dict[str, bytes] = {}
        self._dirty: set[Session] = set()
        self._capturing: dict[Session, list[Message]] = {}
        #: Forwarded lines waiting for their answer, by number.
        self._forwards = 0
        self._waiting: dict[int, tuple[Answer, asyncio.Future[None]]] = {}
        #: Guest names given at this node's login prompt, not logged in yet.
        self._reserved: set[str] = set()
        #: When this node started (wall clock), and the others, as their heartbeats say.
        self.started = time.time()
        self.started_at: dict[str, float] = {}
        #: Whether this node adjourns the games a stopped cluster left in progress: no
        #: node alive started before it (nodes that start together: the first of them).
        self.recovers = True

    # -- starting and stopping -----------------------------------------------------------

    def subject(self, *parts: str) -> str:
        return ".".join((self.prefix, *parts))

    async def start(self) -> None:
        """Connect, open the buckets, read who is online and which games are played,
        hear the other nodes for a heartbeat's time (:attr:`recovers` tells what it heard)."""
        self._nc = nc = await nats.connect(
            self.url, name=f"icswire-{self.node}", max_reconnect_attempts=-1
        )
        js = nc.jetstream()
        self._users = await js.create_key_value(bucket=f"{self.prefix}_users", history=1)
        self._games_kv = await js.create_key_value(bucket=f"{self.prefix}_games", history=1)
        self._seeks_kv = await js.create_key_value(bucket=f"{self.prefix}_seeks", history=1)
        await nc.subscribe(self.subject("heartbeat"), cb=self._on_heartbeat)
        await nc.subscribe(self.subject("node", self.node, "deliver"), cb=self._on_deliver)
        await nc.subscribe(self.subject("node", self.node, "run"), cb=self._on_run)
        await nc.subscribe(self.subject("node", self.node, "changes"), cb=self._on_changes)
        await nc.subscribe(self.subject("node", self.node, "kick"), cb=self._on_kick)
        await nc.subscribe(self.subject("node", self.node, "games"), cb=self._on_games)
        for bucket, apply in (
            (self._users, self._user_entry),
            (self._games_kv, self._game_entry),
            (self._seeks_kv, self._seek_entry),
        ):
            watcher: Any = await bucket.watchall()
            while (entry := await watcher.updates(timeout=10)) is not None:
                apply(entry)
            self._tasks.append(asyncio.create_task(self._watch(watcher, apply)))
        for work in (self._beat(), self._send(), self._write(), self._check_alive()):
            self._tasks.append(asyncio.create_task(work))
        await asyncio.sleep(self.heartbeat * 1.5)
        me = (self.started, self.node)
        self.recovers = all(me < (self.started_at[n], n) for n in self.alive)
        self.core.tables.claims.elsewhere = self.games
        self.core.tables.listed_elsewhere = self.listed_elsewhere
        self.core.tables.claims.take = self._claim_game
        guests = self.core.guest_claims
        guests.take, guests.give_back = self._reserve_guest, self._unreserve_guest
        seeks = self.core.seek_claims
        seeks.elsewhere, seeks.take, seeks.give_back = self.seeks, self._claim_seek, self._seek_gone
        self.core.world.touched.append(self.touch)
        self.core.registry.game_started.append(self._game_started)
        self.core.registry.game_ended.append(self._game_ended)
        others = len(self.alive)
        log.info("node %s joined cluster %s (%d other nodes)", self.node, self.prefix, others)

    async def stop(self) -> None:
        for task in self._tasks:
            task.cancel()
        await asyncio.wait(self._tasks, timeout=STOP_PATIENCE)
        if self._nc is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._drain_writes(), STOP_PATIENCE)
                await self._nc.flush(timeout=STOP_PATIENCE)
            await self._nc.close()

    async def _drain_writes(self) -> None:
        while not self._writes.empty():
            await self._write_one(*self._writes.get_nowait())

    # -- users ---------------------------------------------------------------------------

    async def claim(self, session: Session) -> bool:
        """Take ``session``'s name in the whole cluster. A registered user online on
        another node takes over (that node logs the old session out); False when the name
        is somebody else's (an unregistered name in use on another node)."""
        if self._users is None:
            raise RuntimeError("the cluster node is not started")
        key = name_key(session.name)
        found = facts_.facts_of(session, self.node)
        data = facts_.encode(found)
        for _ in range(20):
            try:
                await self._users.create(key, data)
                self._written[key] = facts_.stable(found)
                return True
            except KeyWrongLastSequenceError:
                pass
            try:
                owner = facts_.decode((await self._users.get(key)).value or b"{}")["node"]
            except Exception as exc:  # deleted meanwhile: try again
                log.debug("the entry of %s went away (%r): trying again", key, exc)
                continue
            if owner == self.node:  # one of ours: the app's one session per name decides
                self._reserved.discard(key)  # (a guest name given at the login prompt)
                self._written[key] = facts_.stable(found)
                self._writes.put_nowait(("users", key, data))
                return True
            if owner not in self.alive:  # left by a dead node
                await self._users.delete(key)
                continue
            if not session.registered:
                return False
            with contextlib.suppress(NatsTimeout, NoRespondersError):
                if self._nc is None:
                    raise RuntimeError("the cluster node is not started")
                await self._nc.request(
                    self.subject("node", owner, "kick"), key.encode(), timeout=FORWARD_TIMEOUT
                )
            await asyncio.sleep(0.05)
        return False

    async def _reserve_guest(self, key: str) -> bool:
        """Take a guest name the login is about to give (False: another node has it)."""
        if self._users is None:
            raise RuntimeError("the cluster node is not started")
        try:
            await self._users.create(key, facts_.encode({"node": self.node, "reserved": True}))
        except KeyWrongLastSequenceError:
            return False
        self._reserved.add(key)
        return True

    def _unreserve_guest(self, key: str) -> None:
        if key in self._reserved:
            self._reserved.discard(key)
            self._writes.put_nowait(("users", key, None))

    def release(self, session: Session) -> None:
        """``session`` logged out: its name is free in the cluster."""
        key = name_key(session.name)
        self._written.pop(key, None)
        self._dirty.discard(session)
        self._writes.put_nowait(("users", key, None))

    def touch(self, session: Session) -> None:
        """``session``'s facts may have changed (a command, a game's start or end): its
        home writes them; another node sends the home what it changed."""
        if not self._dirty:
            asyncio.get_running_loop().call_soon(self._publish_dirty)
        self._dirty.add(session)

    def _publish_dirty(self) -> None:
        dirty, self._dirty = self._dirty, set()
        for session in dirty:
            if session.remote is None:
                if session.logged_in:
                    self._put_facts(session)
            else:
                home = cast(Peer, session.remote).node
                change = (session.name, facts_.changes(session))
                self._queue(home, "changes", change)

    def _put_facts(self, session: Session) -> None:
        key = name_key(session.name)
        found = facts_.facts_of(session, self.node)
        stable = facts_.stable(found)
        if self._written.get(key) == stable:
            return
        self._written[key] = stable
        self._writes.put_nowait(("users", key, facts_.encode(found)))

    def _user_entry(self, entry: KeyValue.Entry) -> None:
        """A user's facts were written (or the name was freed) somewhere in the cluster."""
        world = self.core.world
        key = entry.key
        known = world.online.get(key)
        if entry.operation in ("DEL", "PURGE") or not entry.value:
            if known is not None and known.remote is not None:
                self.core.registry.player_left(known)  # a game here with it ends
                world.forget(known)
            return
        found = facts_.decode(entry.value)
        node = found["node"]
        if node == self.node or found.get("reserved"):  # ours, or not logged in yet
            return
        if known is None:
            replica = Session(remote=self._peer(node))
            facts_.apply(replica, found)
            replica.logged_in = True
            world.add_replica(replica)
        elif known.remote is not None:
            if cast(Peer, known.remote).node != node:
                known.remote = self._peer(node)
            before = known.channels
            facts_.apply(known, found)
            world.replica_changed(known, before)

    async def _on_changes(self, msg: Msg) -> None:
        """Another node changed facts of one of our users (its game, observing there)."""
        name, change = pickle.loads(msg.data)  # noqa: S301  (trusted NATS only; issue 21 item 2 replaces pickle)
        session = self.core.world.online.get(name_key(name))
        if session is None or session.remote is not None:
            return
        facts_.apply(session, change)
        self.core.world.listening.refresh(session)
        self._put_facts(session)

    async def _on_kick(self, msg: Msg) -> None:
        """A registered user logged in on another node: this node's session goes."""
        session = self.core.world.online.get(msg.data.decode())
        if session is not None and session.remote is None:
            session.taken_over()
        await msg.respond(b"")

    def _peer(self, node: str) -> Peer:
        peer = self.peers.get(node)
        if peer is None:
            peer = self.peers[node] = Peer(self, node)
        return peer

    def node_of(self, session: Session) -> str:
        return self.node if session.remote is None else cast(Peer, session.remote).node

    # -- delivering ----------------------------------------------------------------------

    def ship(self, node: str, batch: Batch, entries: Entries) -> None:
        """Resolve ``entries`` (for users of ``node``) as data, each message once per
        receiver key, and queue them for that node; the issuer's part of a forwarded
        command goes to its reply instead."""
        resolved: list[Message] = []
        known: dict[tuple[int, Any], int] = {}
        groups: dict[tuple[int, ...], list[str]] = {}
        for receiver, is_issuer, messages in entries:
            indexes = []
            for message in messages:
                cache_key = (id(message), message.key(receiver))
                index = known.get(cache_key)
                if index is None:
                    index = known[cache_key] = len(resolved)
                    resolved.append(message.resolve(receiver))
                indexes.append(index)
            captured = self._capturing.get(receiver) if is_issuer else None
            if captured is not None:
                captured.extend(resolved[i] for i in indexes)
            else:
                groups.setdefault(tuple(indexes), []).append(receiver.name)
        if groups:
            packet = ("batch", batch.cn, batch.issuer_name, list(groups.items()), resolved)
            self._queue(node, "deliver", packet)

    def _queue(self, node: str, kind: str, item: Any) -> None:
        """Send in order, at the end of this turn of the event loop, in one message per
        node and kind."""
        self._outbox.setdefault(f"{node} {kind}", []).append(item)
        self._wake.set()

    async def _send(self) -> None:
        if self._nc is None:
            raise RuntimeError("the cluster node is not started")
        while True:
            await self._wake.wait()
            self._wake.clear()
            outbox, self._outbox = self._outbox, {}
            for target, items in outbox.items():
                node, kind = target.split()
                subject = self.subject("node", node, kind)
                payloads = [items] if kind == "deliver" else items
                for payload in payloads:
                    try:
                        await self._nc.publish(subject, pickle.dumps(payload))
                    except Exception:  # one bad message never stops the others
                        log.exception("cluster: could not send to %s", target)

    async def _on_deliver(self, msg: Msg) -> None:
        """Batches for our users, and the answers to lines we forwarded, in the order the
        other node sent them: a player whose game is there reads his own move's answer
        before the opponent's reply, as on one server."""
        online = self.core.world.online
        for packet in pickle.loads(msg.data):  # noqa: S301  (trusted NATS only; issue 21 item 2 replaces pickle)
            if packet[0] == "reply":
                self._answered(*packet[1:])
                continue
            _, cn, issuer_name, groups, resolved = packet
            batch = Batch(cn, None, issuer_name=issuer_name)
            for indexes, names in groups:
                for name in names:
                    session = online.get(name_key(name))
                    if session is not None and session.remote is None:
                        for index in indexes:
                            batch.add(session, resolved[index])
            batch.flush()

    # -- forwarding ----------------------------------------------------------------------

    async def forward(self, node: str, session: Session, text: str, answer: Answer) -> None:
        """Run ``text`` of our user ``session`` on ``node``, where what it is about lives;
        ``answer`` gets (command number, block code, the user's output) when it comes, in
        order with what else that node sends our users, or NOT_ANSWERING in time."""
        if self._nc is None:
            raise RuntimeError("the cluster node is not started")
        self._forwards += 1
        number = self._forwards
        done = asyncio.get_running_loop().create_future()
        self._waiting[number] = (answer, done)
        request = (number, self.node, session.name, text)
        await self._nc.publish(self.subject("node", node, "run"), pickle.dumps(request))
        try:
            await asyncio.wait_for(done, FORWARD_TIMEOUT)
        except TimeoutError:
            if self._waiting.pop(number, None) is not None:
                answer(CN.SCN_BAD, None, [lines(NOT_ANSWERING)])

    def _answered(self, number: int, cn: int, code: int | None, output: list[Message]) -> None:
        waiting = self._waiting.pop(number, None)
        if waiting is not None:
            answer, done = waiting
            answer(cn, code, output)
            done.set_result(None)

    async def _on_run(self, msg: Msg) -> None:
        self.core.spawn(self._run(msg))  # a slow command does not hold up the next

    async def _run(self, msg: Msg) -> None:
        number, home, name, text = pickle.loads(msg.data)  # noqa: S301  (trusted NATS only; issue 21 item 2 replaces pickle)
        replica = self.core.world.online.get(name_key(name))
        if replica is None or replica.remote is None or self.run_line is None:
            refused = ("reply", number, CN.SCN_BAD, None, [lines(NOT_ANSWERING)])
            self._queue(home, "deliver", refused)
            return
        captured: list[Message] = []
        self._capturing[replica] = captured
        try:
            cn, code = await self.run_line(replica, text)
        except Exception:
            log.exception("forwarded %r of %s failed", text, name)
            cn, code = CN.SCN_BAD, None
            captured.append(lines("Sorry, that command failed on the server."))
        finally:
            del self._capturing[replica]
        self.touch(replica)
        self._queue(home, "deliver", ("reply", number, cn, code, captured))

    # -- games and seeks -----------------------------------------------------------------

    async def listed_elsewhere(self) -> list[ListedGame]:
        """The games the other nodes list (``games``), from each that answers in time."""
        if self._nc is None:
            raise RuntimeError("the cluster node is not started")
        asked = [
            self._nc.request(self.subject("node", node, "games"), b"", timeout=LIST_TIMEOUT)
            for node in self.alive
        ]
        found: list[ListedGame] = []
        for reply in await asyncio.gather(*asked, return_exceptions=True):
            if not isinstance(reply, BaseException):
                found += [ListedGame(*row) for row in pickle.loads(reply.data)]  # noqa: S301  (trusted NATS only; issue 21 item 2 replaces pickle)
        return found

    async def _on_games(self, msg: Msg) -> None:
        rows = [
            (t.number, t.examined, t.games_row(False), t.games_row(True))
            for t in self.core.tables.all()
            if not t.private
        ]
        await msg.respond(pickle.dumps(rows))

    async def _claim_game(self, number: int) -> bool:
        """Take game number ``number`` in the whole cluster (False: another node has it)."""
        if self._games_kv is None:
            raise RuntimeError("the cluster node is not started")
        entry = {"node": self.node, "id": None, "white": "", "black": ""}
        try:
            await self._games_kv.create(str(number), facts_.encode(entry))
        except KeyWrongLastSequenceError:
            self.games.setdefault(number, {"node": "?", "id": None})
            return False
        self.games[number] = entry
        return True

    def _game_started(self, table: Table, batch: Batch) -> None:
        if table.examined:
            return
        players = [s.name for s in table.audience()][:2]
        entry = {
            "node": self.node,
            "id": getattr(table, "game_id", None),
            "white": players[0] if players else "",
            "black": players[1] if len(players) > 1 else "",
        }
        self.games[table.number] = entry
        self._writes.put_nowait(("games", str(table.number), facts_.encode(entry)))

    def _game_ended(self, table: Table, batch: Batch) -> None:
        self.games.pop(table.number, None)
        self._writes.put_nowait(("games", str(table.number), None))

    def _game_entry(self, entry: KeyValue.Entry) -> None:
        number = int(entry.key)
        if entry.operation in ("DEL", "PURGE") or not entry.value:
            if self.games.get(number, {}).get("node") != self.node:
                self.games.pop(number, None)
            return
        found = facts_.decode(entry.value)
        if found["node"] != self.node:
            self.games[number] = found

    async def _claim_seek(self, index: int) -> bool:
        """Take seek index ``index`` in the whole cluster (False: another node has it)."""
        if self._seeks_kv is None:
            raise RuntimeError("the cluster node is not started")
        try:
            await self._seeks_kv.create(str(index), self.node.encode())
        except KeyWrongLastSequenceError:
            self.seeks.setdefault(index, "?")
            return False
        self.seeks[index] = self.node
        return True

    def _seek_gone(self, index: int) -> None:
        if self.seeks.get(index) == self.node:
            del self.seeks[index]
            self._writes.put_nowait(("seeks", str(index), None))

    def _seek_entry(self, entry: KeyValue.Entry) -> None:
        index = int(entry.key)
        if entry.operation in ("DEL", "PURGE") or not entry.value:
            if self.seeks.get(index) != self.node:
                self.seeks.pop(index, None)
        elif entry.value.decode() != self.node:
            self.seeks[index] = entry.value.decode()

    # -- the registry's writes, in order ---------------------------------------------------

    async def _write(self) -> None:
        while True:
            bucket, key, value = await self._writes.get()
            try:
                await self._write_one(bucket, key, value)
            except Exception:
                log.exception("cluster registry write %s %s failed", bucket, key)

    async def _write_one(self, bucket: str, key: str, value: bytes | None) -> None:
        kv = {"users": self._users, "games": self._games_kv, "seeks": self._seeks_kv}[bucket]
        if kv is None:
            raise RuntimeError("the cluster node is not started")
        if value is None:
            with contextlib.suppress(Exception):
                await kv.delete(key)
        else:
            await kv.put(key, value)

    async def _watch(self, watcher: Any, apply: Callable[[KeyValue.Entry], None]) -> None:
        async for entry in watcher:
            if entry is not None:
                try:
                    apply(entry)
                except Exception:
                    log.exception("cluster registry entry %s", entry.key)

    # -- nodes alive and dead ------------------------------------------------------------

    async def _beat(self) -> None:
        if self._nc is None:
            raise RuntimeError("the cluster node is not started")
        beat = f"{self.node} {self.started!r}".encode()
        while True:
            await self._nc.publish(self.subject("heartbeat"), beat)
            await asyncio.sleep(self.heartbeat)

    async def _on_heartbeat(self, msg: Msg) -> None:
        node, started = msg.data.decode().split()
        if node != self.node:
            self.alive[node] = time.monotonic()
            self.started_at[node] = float(started)
            self._peer(node)

    async def _check_alive(self) -> None:
        while True:
            await asyncio.sleep(self.heartbeat / 2)
            now = time.monotonic()
            for node, seen in list(self.alive.items()):
                if now - seen > self.dead_after:
                    del self.alive[node]
                    await self._node_died(node)

    def leader(self) -> bool:
        """Whether this node cleans up after a dead one (the least id alive)."""
        return all(self.node < other for other in self.alive)

    async def _node_died(self, node: str) -> None:
        """Node ``node`` stopped beating: its users leave every list (each node tells its
        own users), its games are adjourned in the database (by the leader), and its
        entries in the registry go."""
        log.warning("node %s is gone", node)
        world = self.core.world
        gone = [s for s in list(world.online.values()) if self.node_of(s) == node]
        for session in gone:
            world.depart(session, local_only=True)
        for session in gone:
            self.core.registry.player_left(session)  # its games here end as its terms say
        games = {n: e for n, e in self.games.items() if e.get("node") == node}
        self._end_lost_games(games)
        for number in games:
            self.games.pop(number, None)
        for index in [i for i, n in self.seeks.items() if n == node]:
            del self.seeks[index]
        if self.leader():
            self._tasks.append(asyncio.create_task(self._clean_up(node, gone, games)))

    async def _clean_up(
        self, node: str, gone: list[Session], games: dict[int, dict[str, Any]]
    ) -> None:
        """The leader's part of a node's death: its games adjourned in the database, then
        its entries out of the registry."""
        ids = [e["id"] for e in games.values() if e.get("id")]
        if ids:
            adjourned = await asyncio.to_thread(self.core.store.interrupted_to_adjourned, ids)
            log.warning("%d games of node %s adjourned", adjourned, node)
        # every node sees the death within a check of ours; only then do its entries go
        # (a node that heard of their removal first would take them for a normal end)
        await asyncio.sleep(self.dead_after)
        for session in gone:
            self._writes.put_nowait(("users", name_key(session.name), None))
        for number in games:
            self._writes.put_nowait(("games", str(number), None))

    def _end_lost_games(self, games: dict[int, dict[str, Any]]) -> None:
        """Our users in the games of a dead node: the game is adjourned; they are told."""
        batch = Batch(CN.SCN_AUTOMATIC, None)
        for session in list(self.core.world.online.values()):
            if session.remote is not None:
                continue
            for number, entry in games.items():
                said = (
                    f"{{Game {number} ({entry.get('white')} vs. {entry.get('black')}) "
                    "Game adjourned when its server went down} *"
                )
                if session.state in ("P", "E") and session.state_game == number:
                    session.state, session.state_game = "X", 0
                    self.core.world.state_changed(session, batch)
                    batch.add(session, lines("", said))
                elif number in session.observing:
                    session.observing -= {number}
                    batch.add(session, lines("", said))
        batch.flush()
