"""One node of a cluster of icswire servers, on NATS (docs/cluster.md).

Every node keeps, besides its own users, a replica of every user of the other nodes
(:mod:`.facts`), so a command runs on the node where it is typed and reaches everybody:
what a batch has for a user of another node is resolved there as data
(:meth:`Message.resolve <icswire.server.core.render.batch.Message.resolve>`) and shipped to
that node, which renders it for its user as for any other (:class:`Peer`). What lives on
one node only (a game, a match offer, a seek) is acted on there: a command about it is
forwarded to that node (:meth:`Cluster.forward`), run with the user's replica, and its
output to the user comes back in order with that node's other deliveries.

NATS carries (``P`` is the cluster's name, ``icswire`` unless told), each message in
the versioned JSON of :mod:`.wire` (a message this node does not read is dropped and
logged):

- ``P.node.ID.deliver``: batches for node ID's users (:class:`~.wire.Deliver`);
- ``P.node.ID.run``: a forwarded line (:class:`~.wire.Run`); its answer (the user's
  output) comes back among the home's deliveries;
- ``P.node.ID.changes``: the facts another node owns of a user of node ID
  (:class:`~.wire.Changes`);
- ``P.node.ID.kick``: request/reply, a registered user logging in elsewhere takes over;
- ``P.node.ID.games``: request/reply, the games node ID lists;
- ``P.heartbeat``: each node's id and epoch, every :attr:`Cluster.heartbeat` seconds.

JetStream key-value buckets: ``P_users`` (name key -> facts; a name is created once in
the whole cluster), ``P_games`` (game number -> its node and stored id), ``P_seeks``
(seek index -> its node), ``P_events`` (the list of events, ``qaddevent``: index -> the
event and the node that last changed it, or that node and ``removed``; each node keeps
the list in memory, read from the database at its start, and follows the others'
changes here).

**One writer per fact.** A user's home writes its facts; a node where the user plays or
observes a game owns those facts (the game played there, the games observed there, the
ratings a game there changed) and sends them to the home as they change, captured when
they change, each with a number (``seq``) that grows. The home merges each node's part
and writes, with the facts, the last ``seq`` it applied of each node (``acks``): a write
older than a node's last change is one that node does not take its own facts from.

**Fencing.** PostgreSQL decides what becomes of a node the others stop hearing: the node
writes its games under an epoch it takes when it joins; the leader declares it dead by
taking that epoch in the transaction that adjourns its games, and a write under an epoch
taken is refused (:mod:`~icswire.server.core.storage.fencing`). A node learns it was
declared dead from such a refusal or from its row (read each heartbeat): its games end as
adjourned and it joins again. Cut off from NATS, a node declares nobody dead; when NATS is
back, every node reads the registry through and writes its own entries again.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import time
import uuid
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, cast

from nats.aio.client import Client
from nats.errors import NoRespondersError
from nats.errors import TimeoutError as NatsTimeout
from nats.js.errors import KeyWrongLastSequenceError
from nats.js.kv import KeyValue

from icswire.protocol.level1 import CommandNumber as CN
from icswire.server.cluster import facts as facts_
from icswire.server.cluster import wire
from icswire.server.cluster.access import Access, ClusterRefused, refusal, shown
from icswire.server.core.model.names import name_key
from icswire.server.core.model.tables import LOST_WITH_ITS_SERVER, ListedGame, Table
from icswire.server.core.model.tourneys import EventList, ListedEvent
from icswire.server.core.model.users import User
from icswire.server.core.net.session import Session
from icswire.server.core.render.batch import Batch, Data, Message, lines
from icswire.server.core.storage.store import Fence, Fenced, StoreUnavailable

if TYPE_CHECKING:
    from nats.aio.msg import Msg

    from icswire.server.core.dispatch.hub import Core

log = logging.getLogger("icswire.cluster")

#: Seconds a forwarded command may take before the user is told the node is not answering.
FORWARD_TIMEOUT = 10.0
#: Seconds ``games`` waits for the other nodes' lists.
LIST_TIMEOUT = 2.0
#: Seconds a stopping node waits for its last writes to the registry.
STOP_PATIENCE = 2
#: Seconds between two tries to reach NATS again: the nodes come back within this of
#: each other, and each gives the others this long more than ``dead_after`` to be heard.
RECONNECT_WAIT = 2
NOT_ANSWERING = "The server that holds that is not answering; try again in a moment."
#: Runs one forwarded line for a replica: (level 1 command number, block code, output).
LineRunner = Callable[[User, str], Awaitable[tuple[int, int | None]]]
Entries = list[tuple[User, bool, list[Message]]]
#: What the home does with a forwarded line's answer: (command number, block code, output).
Answer = Callable[[int, int | None, list[Message]], None]


#: The fields of an event of the list as the registry's ``events`` bucket holds them.
LISTED_EVENT_FIELDS = tuple(f.name for f in dataclasses.fields(ListedEvent))


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
        access: Access | None = None,
    ) -> None:
        self.core = core
        self.url = url
        #: Credentials and TLS for NATS (a token may also be in ``url``).
        self.access = access or Access()
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
        self._events_kv: KeyValue | None = None
        self._tasks: list[asyncio.Task[Any]] = []
        self._outbox: dict[str, list[Any]] = {}
        self._wake = asyncio.Event()
        self._writes: asyncio.Queue[tuple[str, str, bytes | None]] = asyncio.Queue()
        #: Each of our users' facts as last written, but the idle clock (facts.stable).
        self._written: dict[str, bytes] = {}
        self._dirty: set[User] = set()
        #: Changes sent of the other nodes' users (the facts this node owns), the last by
        #: name key, and the ratings their registry entry last gave.
        self._sent: dict[str, wire.Changes] = {}
        self._seq = 0
        self._known_ratings: dict[str, dict[str, tuple[int, int]]] = {}
        #: Of our users: what each other node last said of the facts it owns, by name key.
        self._claims: dict[str, dict[str, wire.Changes]] = {}
        self._capturing: dict[User, list[Message]] = {}
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
        #: The epoch this node writes its games under (:mod:`~icswire.server.core.storage.
        #: fencing`), and each other node's, as its heartbeats say.
        self.epoch = 0
        self.epochs: dict[str, int] = {}
        #: Whether this node is connected to NATS now: cut off, it declares nobody dead.
        self.connected = False
        self._watchers: list[tuple[Any, asyncio.Task[None]]] = []
        #: Joining the cluster again after it declared this node dead, while it does.
        self._rejoining: asyncio.Task[None] | None = None
        #: Catching up with the registry after NATS came back, while it does.
        self._catching_up: asyncio.Task[None] | None = None

    # -- starting and stopping -----------------------------------------------------------

    def subject(self, *parts: str) -> str:
        return ".".join((self.prefix, *parts))

    async def start(self) -> None:
        """Connect, open the buckets, read who is online and which games are played,
        hear the other nodes for a heartbeat's time (:attr:`recovers` tells what it heard)."""
        await self._take_epoch()
        self._nc = nc = await self._connect()
        self.connected = True
        js = nc.jetstream()
        self._users = await js.create_key_value(bucket=f"{self.prefix}_users", history=1)
        self._games_kv = await js.create_key_value(bucket=f"{self.prefix}_games", history=1)
        self._seeks_kv = await js.create_key_value(bucket=f"{self.prefix}_seeks", history=1)
        self._events_kv = await js.create_key_value(bucket=f"{self.prefix}_events", history=1)
        self.core.state(EventList).shared.append(self._event_changed)
        await nc.subscribe(self.subject("heartbeat"), cb=self._on_heartbeat)
        await nc.subscribe(self.subject("node", self.node, "deliver"), cb=self._on_deliver)
        await nc.subscribe(self.subject("node", self.node, "run"), cb=self._on_run)
        await nc.subscribe(self.subject("node", self.node, "changes"), cb=self._on_changes)
        await nc.subscribe(self.subject("node", self.node, "kick"), cb=self._on_kick)
        await nc.subscribe(self.subject("node", self.node, "games"), cb=self._on_games)
        await self._watch_registry()
        for work in (
            self._beat(),
            self._send(),
            self._write(),
            self._check_alive(),
            self._check_fence(),
        ):
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

    async def _connect(self) -> Client:
        """Connect to NATS, trying again for as long as it takes (NATS may start after
        the node), but :class:`ClusterRefused` at once if NATS refuses the node's
        credentials or TLS fails; once connected, the client reconnects forever."""
        loop = asyncio.get_running_loop()
        refused: asyncio.Future[BaseException] = loop.create_future()

        async def on_error(error: Exception) -> None:
            if refusal(error) and not refused.done():
                refused.set_result(error)
            log.warning("cluster: NATS at %s: %s", shown(self.url), error)

        client = Client()
        connecting = asyncio.ensure_future(
            client.connect(
                self.url,
                name=f"icswire-{self.node}",
                max_reconnect_attempts=-1,
                reconnect_time_wait=RECONNECT_WAIT,
                error_cb=on_error,
                disconnected_cb=self._lost_bus,
                reconnected_cb=self._back_on_bus,
                **self.access.connect_options(),
            )
        )
        waiting: set[asyncio.Future[Any]] = {connecting, refused}
        await asyncio.wait(waiting, return_when=asyncio.FIRST_COMPLETED)
        if not connecting.done():
            connecting.cancel()
            with contextlib.suppress(BaseException):
                await connecting
            with contextlib.suppress(Exception):
                await client.close()
            error = refused.result()
            raise ClusterRefused(
                f"NATS at {shown(self.url)} refused this node: {error} (give credentials: "
                "a token in the URL, --cluster-creds or --cluster-user; TLS: --cluster-tls-*)"
            )
        connecting.result()
        return client

    async def stop(self) -> None:
        tasks = [*self._tasks, *(task for _, task in self._watchers)]
        tasks += [t for t in (self._rejoining, self._catching_up) if t is not None]
        for task in tasks:
            task.cancel()
        if tasks:  # none if it never joined
            await asyncio.wait(tasks, timeout=STOP_PATIENCE)
        if self._nc is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._drain_writes(), STOP_PATIENCE)
                await self._nc.flush(timeout=STOP_PATIENCE)
            await self._nc.close()

    async def _drain_writes(self) -> None:
        while not self._writes.empty():
            await self._write_one(*self._writes.get_nowait())

    # -- users ---------------------------------------------------------------------------

    async def claim(self, session: User) -> bool:
        """Take ``session``'s name in the whole cluster. A registered user online on
        another node takes over (that node logs the old session out); False when the name
        is somebody else's (an unregistered name in use on another node)."""
        if self._users is None:
            raise RuntimeError("the cluster node is not started")
        self._on_the_bus("no name can be taken")
        key = name_key(session.name)
        found = facts_.facts_of(session, self.node, self.epoch)
        data = facts_.encode(found)
        for _ in range(20):
            try:
                await self._users.create(key, data)
                self._written[key] = facts_.stable(found)
                return True
            except KeyWrongLastSequenceError:
                pass
            except Exception as exc:  # NATS did not answer
                raise StoreUnavailable(f"NATS at {shown(self.url)}: {exc!r}") from exc
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
                    self.subject("node", owner, "kick"),
                    wire.encode(wire.Kick(key)),
                    timeout=FORWARD_TIMEOUT,
                )
            await asyncio.sleep(0.05)
        return False

    def _on_the_bus(self, otherwise: str) -> None:
        """Raise :class:`StoreUnavailable` (saying ``otherwise``) while this node is cut off
        from NATS: what is unique in the cluster (a name, a game number, a seek index)
        cannot be taken then, and the command says so instead of waiting for NATS."""
        if not self.connected:
            raise StoreUnavailable(f"NATS at {shown(self.url)} is away: {otherwise}")

    async def _reserve_guest(self, key: str) -> bool:
        """Take a guest name the login is about to give (False: another node has it)."""
        if self._users is None:
            raise RuntimeError("the cluster node is not started")
        self._on_the_bus("no guest name can be taken")
        try:
            await self._users.create(key, facts_.encode({"node": self.node, "reserved": True}))
        except KeyWrongLastSequenceError:
            return False
        except Exception as exc:  # NATS did not answer
            raise StoreUnavailable(f"NATS at {shown(self.url)}: {exc!r}") from exc
        self._reserved.add(key)
        return True

    def _unreserve_guest(self, key: str) -> None:
        if key in self._reserved:
            self._reserved.discard(key)
            self._writes.put_nowait(("users", key, None))

    def release(self, session: User) -> None:
        """``session`` logged out: its name is free in the cluster."""
        key = name_key(session.name)
        self._written.pop(key, None)
        self._claims.pop(key, None)
        self._dirty.discard(session)
        self._writes.put_nowait(("users", key, None))

    def touch(self, session: User) -> None:
        """``session``'s facts may have changed (a command, a game's start or end): its
        home writes them (at the end of this turn, once however often touched); another
        node sends the home, now, the facts it owns of the user (:meth:`_capture`)."""
        if session.remote is not None:
            self._capture(session)
            return
        if not self._dirty:
            asyncio.get_running_loop().call_soon(self._publish_dirty)
        self._dirty.add(session)

    def _publish_dirty(self) -> None:
        dirty, self._dirty = self._dirty, set()
        for session in dirty:
            if session.logged_in and session.remote is None:
                self._put_facts(session)

    def _capture(self, replica: User) -> None:
        """The facts this node owns of ``replica``, as they are now, for its home: the
        game it plays here, the games it observes here, ratings changed here. Nothing is
        sent if they did not change."""
        key = name_key(replica.name)
        tables = self.core.tables
        playing = None
        if replica.state in ("P", "E") and tables.find(replica.state_game) is not None:
            playing = (replica.state, replica.state_game)
        observing = tuple(sorted(n for n in replica.observing if tables.find(n) is not None))
        known = self._known_ratings.get(key, {})
        ratings = {k: (r, n) for k, (r, n) in replica.ratings.items() if known.get(k) != (r, n)}
        last = self._sent.get(key)
        if not ratings and (playing, observing) == (
            (last.playing, last.observing) if last is not None else (None, ())
        ):
            return
        self._seq += 1
        change = wire.Changes(self.node, replica.name, self._seq, playing, observing, ratings)
        self._sent[key] = change
        self._known_ratings[key] = dict(replica.ratings)
        self._queue(cast(Peer, replica.remote).node, "changes", change)

    def _forget_sent(self, key: str) -> None:
        self._sent.pop(key, None)
        self._known_ratings.pop(key, None)

    def _put_facts(self, session: User) -> None:
        key = name_key(session.name)
        found = facts_.facts_of(session, self.node, self.epoch)
        claims = self._claims.get(key)
        if claims:
            found["acks"] = {node: change.seq for node, change in sorted(claims.items())}
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
            self._forget_sent(key)
            if known is not None and known.remote is not None:
                self.core.registry.player_left(known)  # a game here with it ends
                world.forget(known)
            return
        found = facts_.decode(entry.value)
        node = found["node"]
        if node == self.node or found.get("reserved"):  # ours, or not logged in yet
            return
        if known is None:
            self._forget_sent(key)
            replica = User(remote=self._peer(node))
            facts_.apply(replica, found)
            self._known_ratings[key] = dict(replica.ratings)
            replica.logged_in = True
            world.add_replica(replica)
        elif known.remote is not None:
            if cast(Peer, known.remote).node != node:  # logged in again elsewhere
                known.remote = self._peer(node)
                self._forget_sent(key)
            sent = self._sent.get(key)
            acked = found.get("acks", {}).get(self.node, 0)
            if sent is not None and acked < sent.seq:
                # written before the home had our last change: our facts stay ours
                found = {k: v for k, v in found.items() if k not in facts_.CHANGEABLE}
            before = known.channels
            facts_.apply(known, found)
            if "ratings" in found:
                self._known_ratings[key] = dict(known.ratings)
            world.replica_changed(known, before)

    async def _on_changes(self, msg: Msg) -> None:
        """Another node's facts of one of our users (its game, observing there, ratings
        changed there): its part replaces what it said before, and the facts are written
        with its ``seq`` acknowledged."""
        change = wire.receive(msg.subject, msg.data, wire.Changes)
        if change is None:
            return
        key = name_key(change.name)
        session = self.core.world.online.get(key)
        if session is None or session.remote is not None:
            return
        claims = self._claims.setdefault(key, {})
        before = claims.get(change.node)
        if before is not None and change.seq <= before.seq:
            return
        claims[change.node] = change
        if change.playing is not None:
            session.state, session.state_game = change.playing
        elif before is not None and (session.state, session.state_game) == before.playing:
            session.state, session.state_game = "X", 0  # its game there ended
        gone = frozenset(before.observing) if before is not None else frozenset()
        session.observing = (session.observing - gone) | frozenset(change.observing)
        if change.ratings:
            session.ratings = {**session.ratings, **change.ratings}
        self.core.world.listening.refresh(session)
        self._put_facts(session)

    async def _on_kick(self, msg: Msg) -> None:
        """A registered user logged in on another node: this node's session goes."""
        kick = wire.receive(msg.subject, msg.data, wire.Kick)
        if kick is None:
            return
        session = self.core.world.online.get(kick.name)
        if isinstance(session, Session):
            session.taken_over()
        await msg.respond(wire.encode(wire.Ack()))

    def _peer(self, node: str) -> Peer:
        peer = self.peers.get(node)
        if peer is None:
            peer = self.peers[node] = Peer(self, node)
        return peer

    def node_of(self, session: User) -> str:
        return self.node if session.remote is None else cast(Peer, session.remote).node

    # -- delivering ----------------------------------------------------------------------

    def ship(self, node: str, batch: Batch, entries: Entries) -> None:
        """Resolve ``entries`` (for users of ``node``) as data, each message once per
        receiver key, and queue them for that node; the issuer's part of a forwarded
        command goes to its reply instead."""
        resolved: list[Message] = []
        known: dict[Any, int] = {}
        groups: dict[tuple[int, ...], list[str]] = {}
        for receiver, is_issuer, messages in entries:
            indexes = []
            for message in messages:
                # data (an event above all) goes as it is to every receiver: their node
                # renders it; the rest is resolved once per receiver key
                cache_key = (
                    id(message)
                    if isinstance(message, Data)
                    else (id(message), message.key(receiver))
                )
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
            found = tuple((indexes, tuple(names)) for indexes, names in groups.items())
            packet = wire.Packet(batch.cn, batch.issuer_name, found, tuple(resolved))
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
                payloads = [wire.Deliver(tuple(items))] if kind == "deliver" else items
                for payload in payloads:
                    try:
                        await self._nc.publish(subject, wire.encode(payload))
                    except Exception:  # one bad message never stops the others
                        log.exception("cluster: could not send to %s", target)

    async def _on_deliver(self, msg: Msg) -> None:
        """Batches for our users, and the answers to lines we forwarded, in the order the
        other node sent them: a player whose game is there reads his own move's answer
        before the opponent's reply, as on one server."""
        delivered = wire.receive(msg.subject, msg.data, wire.Deliver)
        if delivered is None:
            return
        online = self.core.world.online
        for packet in delivered.packets:
            if isinstance(packet, wire.Reply):
                self._answered(packet.number, packet.cn, packet.code, list(packet.output))
                continue
            resolved = packet.messages
            if any(not 0 <= i < len(resolved) for indexes, _ in packet.groups for i in indexes):
                log.warning("cluster: dropped a packet on %s: a bad message index", msg.subject)
                continue
            batch = Batch(packet.cn, None, issuer_name=packet.issuer)
            for indexes, names in packet.groups:
                for name in names:
                    session = online.get(name_key(name))
                    if session is not None and session.remote is None:
                        for index in indexes:
                            batch.add(session, resolved[index])
            batch.flush()

    # -- forwarding ----------------------------------------------------------------------

    async def forward(self, node: str, session: User, text: str, answer: Answer) -> None:
        """Run ``text`` of our user ``session`` on ``node``, where what it is about lives;
        ``answer`` gets (command number, block code, the user's output) when it comes, in
        order with what else that node sends our users, or NOT_ANSWERING in time."""
        if self._nc is None:
            raise RuntimeError("the cluster node is not started")
        self._forwards += 1
        number = self._forwards
        done = asyncio.get_running_loop().create_future()
        self._waiting[number] = (answer, done)
        request = wire.Run(number, self.node, session.name, text)
        await self._nc.publish(self.subject("node", node, "run"), wire.encode(request))
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
        run = wire.receive(msg.subject, msg.data, wire.Run)
        if run is None:
            return
        number, home, name, text = run.number, run.home, run.name, run.line
        replica = self.core.world.online.get(name_key(name))
        if replica is None or replica.remote is None or self.run_line is None:
            refused = wire.Reply(number, CN.SCN_BAD, None, (lines(NOT_ANSWERING),))
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
        self._queue(home, "deliver", wire.Reply(number, cn, code, tuple(captured)))

    # -- games and seeks -----------------------------------------------------------------

    async def listed_elsewhere(self) -> list[ListedGame]:
        """The games the other nodes list (``games``), from each that answers in time."""
        if self._nc is None:
            raise RuntimeError("the cluster node is not started")
        request = wire.encode(wire.ListGames())
        nodes = list(self.alive)
        asked = [
            self._nc.request(self.subject("node", node, "games"), request, timeout=LIST_TIMEOUT)
            for node in nodes
        ]
        found: list[ListedGame] = []
        replies = await asyncio.gather(*asked, return_exceptions=True)
        for node, reply in zip(nodes, replies, strict=True):
            if isinstance(reply, BaseException):
                continue
            games = wire.receive(self.subject("node", node, "games"), reply.data, wire.Games)
            if games is not None:
                found += [ListedGame(*row) for row in games.rows]
        return found

    async def _on_games(self, msg: Msg) -> None:
        if wire.receive(msg.subject, msg.data, wire.ListGames) is None:
            return
        rows = [t.listed() for t in self.core.tables.all()]
        await msg.respond(wire.encode(wire.Games(tuple(rows))))

    async def _claim_game(self, number: int) -> bool:
        """Take game number ``number`` in the whole cluster (False: another node has it)."""
        if self._games_kv is None:
            raise RuntimeError("the cluster node is not started")
        self._on_the_bus("no game number")  # one taken here could be taken elsewhere
        entry = {"node": self.node, "id": None, "white": "", "black": ""}
        try:
            await self._games_kv.create(str(number), facts_.encode(entry))
        except KeyWrongLastSequenceError:
            self.games.setdefault(number, {"node": "?", "id": None})
            return False
        except Exception as exc:  # NATS did not answer
            raise StoreUnavailable(f"NATS at {shown(self.url)}: {exc!r}") from exc
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
        for session in table.observers:  # they observe it no more: tell their homes
            if session.remote is not None:
                self.touch(session)

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
        self._on_the_bus("no seek index can be taken")
        try:
            await self._seeks_kv.create(str(index), self.node.encode())
        except KeyWrongLastSequenceError:
            self.seeks.setdefault(index, "?")
            return False
        except Exception as exc:  # NATS did not answer
            raise StoreUnavailable(f"NATS at {shown(self.url)}: {exc!r}") from exc
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

    # -- the list of events (qaddevent) --------------------------------------------------

    def _event_changed(self, index: int, event: ListedEvent | None) -> None:
        """An event added or removed here: into the registry, for the other nodes (a
        removal as an entry too, so that this node knows its own and skips it)."""
        value: dict[str, Any] = {"node": self.node, "removed": event is None}
        if event is not None:
            value.update(dataclasses.asdict(event))
        self._writes.put_nowait(("events", str(index), facts_.encode(value)))

    def _event_entry(self, entry: KeyValue.Entry) -> None:
        """An event added or removed on another node: this node's list follows, and its
        own users with DG_TOURNEY / DG_REMOVE_TOURNEY on are told."""
        if entry.operation in ("DEL", "PURGE") or not entry.value:
            return
        found = facts_.decode(entry.value)
        if found.get("node") == self.node:
            return
        index = int(entry.key)
        events = self.core.state(EventList)
        batch = Batch(CN.SCN_AUTOMATIC, None)
        if found.get("removed"):
            events.remove(index, self.core.world, batch, share=False)
        else:
            event = ListedEvent(**{k: found[k] for k in LISTED_EVENT_FIELDS})
            events.put(event, self.core.world, batch, share=False)
        batch.flush()

    # -- the registry's writes, in order ---------------------------------------------------

    async def _write(self) -> None:
        while True:
            bucket, key, value = await self._writes.get()
            try:
                await self._write_one(bucket, key, value)
            except Exception:
                log.exception("cluster registry write %s %s failed", bucket, key)

    async def _write_one(self, bucket: str, key: str, value: bytes | None) -> None:
        kv = {
            "users": self._users,
            "games": self._games_kv,
            "seeks": self._seeks_kv,
            "events": self._events_kv,
        }[bucket]
        if kv is None:
            raise RuntimeError("the cluster node is not started")
        if value is None:
            with contextlib.suppress(Exception):
                await kv.delete(key)
        else:
            await kv.put(key, value)

    async def _watch_registry(self) -> None:
        """Read the registry's buckets through, then follow them (again, after NATS came
        back: what the old watchers missed is read, and what went meanwhile goes here)."""
        for old, task in self._watchers:
            task.cancel()
            with contextlib.suppress(Exception):
                await old.stop()
        self._watchers = []
        for bucket, apply, forget in (
            (self._users, self._user_entry, self._users_gone),
            (self._games_kv, self._game_entry, self._games_gone),
            (self._seeks_kv, self._seek_entry, self._seeks_gone),
            (self._events_kv, self._event_entry, lambda found: None),
        ):
            if bucket is None:
                raise RuntimeError("the cluster node is not started")
            watcher: Any = await bucket.watchall()
            found: dict[str, bytes] = {}
            while (entry := await watcher.updates(timeout=10)) is not None:
                apply(entry)
                if entry.operation not in ("DEL", "PURGE") and entry.value:
                    found[entry.key] = entry.value
            forget(found)
            self._watchers.append((watcher, asyncio.create_task(self._watch(watcher, apply))))

    def _users_gone(self, found: dict[str, bytes]) -> None:
        """After reading the users' bucket through: replicas of names not in it leave;
        entries of ours for users no longer here go."""
        world = self.core.world
        for key, replica in list(world.online.items()):
            if replica.remote is not None and key not in found:
                self._forget_sent(key)
                self.core.registry.player_left(replica)
                world.forget(replica)
        for key, value in found.items():
            if facts_.decode(value)["node"] != self.node:
                continue
            user = world.online.get(key)
            if key not in self._reserved and (user is None or user.remote is not None):
                self._writes.put_nowait(("users", key, None))

    def _games_gone(self, found: dict[str, bytes]) -> None:
        for number, entry in list(self.games.items()):
            if entry.get("node") != self.node and str(number) not in found:
                del self.games[number]
        for key, value in found.items():
            ours = facts_.decode(value)["node"] == self.node
            if ours and self.games.get(int(key), {}).get("node") != self.node:
                self._writes.put_nowait(("games", key, None))

    def _seeks_gone(self, found: dict[str, bytes]) -> None:
        for index, node in list(self.seeks.items()):
            if node != self.node and str(index) not in found:
                del self.seeks[index]
        for key, value in found.items():
            if value == self.node.encode() and self.seeks.get(int(key)) != self.node:
                self._writes.put_nowait(("seeks", key, None))

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
        while True:
            beat = wire.Heartbeat(self.node, self.started, self.epoch)
            await self._nc.publish(self.subject("heartbeat"), wire.encode(beat))
            await asyncio.sleep(self.heartbeat)

    async def _on_heartbeat(self, msg: Msg) -> None:
        beat = wire.receive(msg.subject, msg.data, wire.Heartbeat)
        if beat is not None and beat.node != self.node:
            self.alive[beat.node] = time.monotonic()
            self.started_at[beat.node] = beat.started
            self.epochs[beat.node] = beat.epoch
            self._peer(beat.node)

    async def _check_alive(self) -> None:
        while True:
            await asyncio.sleep(self.heartbeat / 2)
            if not self.connected:  # cut off: whether the others died cannot be told
                continue
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
        for claims in self._claims.values():
            claims.pop(node, None)
        games = {n: e for n, e in self.games.items() if e.get("node") == node}
        self._end_lost_games(games)
        for number in games:
            self.games.pop(number, None)
        for index in [i for i, n in self.seeks.items() if n == node]:
            del self.seeks[index]
        if self.leader():
            self._tasks.append(asyncio.create_task(self._clean_up(node, gone, games)))

    async def _clean_up(
        self, node: str, gone: list[User], games: dict[int, dict[str, Any]]
    ) -> None:
        """The leader's part of a node's death: its games adjourned in the database, then
        its entries out of the registry."""
        ids = [e["id"] for e in games.values() if e.get("id")]
        epoch = self.epochs.get(node, 0)
        while True:  # its epoch taken and its games adjourned, in one transaction
            try:
                adjourned = await asyncio.to_thread(self.core.store.declare_dead, node, epoch, ids)
                break
            except Fenced:  # this node was declared dead itself: it declares nothing
                return
            except StoreUnavailable as exc:
                log.warning("node %s is not declared dead yet: %s", node, exc)
                await asyncio.sleep(self.dead_after)
        log.warning("node %s (epoch %d) declared dead: %d games adjourned", node, epoch, adjourned)
        # every node sees the death within a check of ours; only then do its entries go
        # (a node that heard of their removal first would take them for a normal end);
        # those it wrote again since, joined again (another epoch), stay
        await asyncio.sleep(self.dead_after)
        for session in gone:
            key = name_key(session.name)
            await self._delete_if(self._users, key, lambda f: f.get("epoch") == epoch)
        for number, entry in games.items():
            await self._delete_if(self._games_kv, str(number), entry.__eq__)

    async def _delete_if(
        self, kv: KeyValue | None, key: str, stale: Callable[[dict[str, Any]], bool]
    ) -> None:
        """Delete ``key`` of a dead node, if its entry is still the ``stale`` one."""
        if kv is None:
            raise RuntimeError("the cluster node is not started")
        with contextlib.suppress(Exception):  # gone already, or written again meanwhile
            entry = await kv.get(key)
            if entry.value and stale(facts_.decode(entry.value)):
                await kv.delete(key, last=entry.revision)

    # -- fencing, and NATS coming back -----------------------------------------------------

    async def _take_epoch(self) -> None:
        """Take a new epoch in the database: this node's games are written under it."""
        loop = asyncio.get_running_loop()
        store = self.core.store
        self.epoch = epoch = await asyncio.to_thread(store.join, self.node)

        def refused() -> None:  # in the store's thread
            loop.call_soon_threadsafe(self._fenced, epoch)

        store.fence = Fence(self.node, epoch, refused)

    async def _check_fence(self) -> None:
        """Each heartbeat, whether the cluster declared this node dead: a node with no
        write to be refused (no game going, or NATS down) learns it too."""
        while True:
            await asyncio.sleep(self.heartbeat)
            epoch = self.epoch
            with contextlib.suppress(StoreUnavailable):
                if await asyncio.to_thread(self.core.store.epoch, self.node) != epoch:
                    self._fenced(epoch)

    def _fenced(self, epoch: int) -> None:
        """The cluster declared this node dead at ``epoch`` (a write was refused, or the
        epoch is not its row's any more): join again, once however often told."""
        if epoch == self.epoch and (self._rejoining is None or self._rejoining.done()):
            self._rejoining = asyncio.create_task(self._rejoin())

    async def _rejoin(self) -> None:
        """The cluster adjourned this node's games and took its epoch: each game ends here
        as it ended there (its players and observers told, nothing stored), and the node
        joins again under a new epoch; its users are written to the registry again."""
        log.warning("node %s was declared dead by the cluster: its games are adjourned", self.node)
        batch = Batch(CN.SCN_AUTOMATIC, None)
        self.core.play.adjourned_by_cluster(batch)
        batch.flush()
        while True:
            try:
                await self._take_epoch()
                break
            except StoreUnavailable as exc:
                log.warning("node %s cannot join again yet: %s", self.node, exc)
                await asyncio.sleep(self.dead_after)
        log.warning("node %s joined the cluster again (epoch %d)", self.node, self.epoch)
        if self.connected:
            self._publish_all()

    def _publish_all(self) -> None:
        """Write every fact of this node to the registry again: its users, games, seeks
        (the other nodes removed them when they took it for dead, or writes were lost while
        NATS was away)."""
        self._written.clear()
        for session in list(self.core.world.online.values()):
            if session.logged_in and session.remote is None:
                self._put_facts(session)
        for number, entry in self.games.items():
            if entry.get("node") == self.node and entry.get("id") is not None:
                self._writes.put_nowait(("games", str(number), facts_.encode(entry)))
        for index, node in self.seeks.items():
            if node == self.node:
                self._writes.put_nowait(("seeks", str(index), node.encode()))
        for index, event in self.core.state(EventList).events.items():
            self._event_changed(index, event)

    async def _lost_bus(self) -> None:
        if self._nc is None or self._nc.is_closed:  # the node stops
            return
        self.connected = False
        log.warning("cluster: NATS at %s is gone: nobody is declared dead until it is back",
                    shown(self.url))  # fmt: skip

    async def _back_on_bus(self) -> None:
        """NATS is back: every node alive before has a fresh ``dead_after`` to be heard
        (and the time they may take to come back too), and this node catches up with the
        registry and writes its own facts again."""
        later = time.monotonic() + RECONNECT_WAIT
        for node in self.alive:
            self.alive[node] = later
        self.connected = True
        log.warning("cluster: NATS at %s is back", shown(self.url))
        if self._catching_up is None or self._catching_up.done():
            self._catching_up = asyncio.create_task(self._catch_up())

    async def _catch_up(self) -> None:
        while True:  # JetStream may need a moment after its server started again
            try:
                await self._watch_registry()
                break
            except Exception as exc:
                log.warning("cluster: cannot read the registry again yet: %r", exc)
                await asyncio.sleep(self.heartbeat)
        self._publish_all()

    def _end_lost_games(self, games: dict[int, dict[str, Any]]) -> None:
        """Our users in the games of a dead node: the game is adjourned; they are told."""
        batch = Batch(CN.SCN_AUTOMATIC, None)
        for session in list(self.core.world.online.values()):
            if session.remote is not None:
                continue
            for number, entry in games.items():
                said = (
                    f"{{Game {number} ({entry.get('white')} vs. {entry.get('black')}) "
                    f"{LOST_WITH_ITS_SERVER}}} *"
                )
                if session.state in ("P", "E") and session.state_game == number:
                    session.state, session.state_game = "X", 0
                    self.core.world.state_changed(session, batch)
                    batch.add(session, lines("", said))
                elif number in session.observing:
                    session.observing -= {number}
                    batch.add(session, lines("", said))
        batch.flush()
