"""Who is here, in which channels, and who is told when that changes.

The world holds the logged-in sessions and the channel memberships, and says what others
see happen as presence events (:mod:`icswire.server.core.events.presence`: an arrival, a
departure, a state, open, shouts or availability change), each to the receivers who asked
for it (DG_PLAYER_ARRIVED or ``pin`` on, a notify list, a channel shared ...); which bytes
each receiver gets is :mod:`icswire.server.core.render.presence`'s. It also sends the lists
that turning a DG on asks for (icc-formats.txt section 4: "When this DG is turned on (with
set-2 or during login), a raw list ... is sent")."""

from __future__ import annotations

import random
import string
from collections.abc import Callable, Iterable, Iterator

from icswire.boards.variants import VARIANTS
from icswire.protocol import datagrams as dg
from icswire.protocol.datagrams import DG, RATING_DGS
from icswire.protocol.level1 import CommandNumber as CN
from icswire.server.core.events.presence import (
    Arrived,
    AvailabilityChanged,
    Departed,
    OpenChanged,
    Player,
    ShoutsChanged,
    StateChanged,
)
from icswire.server.core.model.listening import Listening
from icswire.server.core.model.names import name_key
from icswire.server.core.model.users import User
from icswire.server.core.model.variables import IVARIABLES, VARIABLES, Value, value_of
from icswire.server.core.render.batch import Batch, Datagram, Message
from icswire.server.core.render.presence import (
    RATING_TYPES,
    arrived_record,
    my_ratings,
    rating_record,
)

#: The wild variants this server plays, by ICC number (DG_WILD_KEY, 116).
WILD_NAMES: tuple[tuple[int, str], ...] = tuple(
    sorted((v.wild, v.title) for v in VARIANTS if v.wild is not None)
)


class World:
    """The logged-in sessions and the channels."""

    def __init__(self) -> None:
        self.online: dict[str, User] = {}
        self.channels: dict[int, set[User]] = {}
        #: Who has which DG and presence switch on, and who notifies of whom.
        self.listening = Listening()
        self.uids: dict[str, int] = {}
        #: Called with a session whose facts others see may have changed (its state, its
        #: ratings, its settings after a command): a cluster tells the other nodes.
        self.touched: list[Callable[[User], None]] = []

    # -- who ---------------------------------------------------------------------------

    def find(self, name: str) -> User | None:
        """The logged-in player ``name``, or the only one whose name it begins."""
        key = name_key(name)
        if key in self.online:
            return self.online[key]
        found = [s for k, s in self.online.items() if k.startswith(key)]
        return found[0] if len(found) == 1 else None

    def others(self, session: User) -> Iterator[User]:
        return (s for s in self.online.values() if s is not session)

    def guest_name(self) -> str:
        while True:
            # a name, not a secret: any generator will do
            name = "Guest" + "".join(random.choices(string.ascii_uppercase, k=4))  # noqa: S311
            if name_key(name) not in self.online:
                return name

    # -- presence ----------------------------------------------------------------------

    def player(self, session: User) -> Player:
        """``session``'s facts others see, as an event carries them."""
        return Player(
            session.name,
            session.registered,
            tuple(sorted((label, *rating) for label, rating in session.ratings.items())),
            bool(session.variables["open"]),
            session.state,
            session.state_game,
            self.uids.get(name_key(session.name), 0),
            session.titles,
        )

    def arrive(self, session: User, greeting: Message) -> None:
        """``session`` has logged in: greet it, tell the others (:class:`Arrived`: those
        with DG_PLAYER_ARRIVED, DG_PLAYER_ARRIVED_SIMPLE or ``pin`` on, on its notify
        list, hearing shouts, in its channels), then give it the lists it asked for (at
        the login prompt, with ``level2settings=``)."""
        key = name_key(session.name)
        if self.online.setdefault(key, session) is not session:
            raise RuntimeError(f"{session.name} is online already")  # one session per name
        batch = Batch(CN.SCN_REALLY_LOG_IN, session)
        batch.add(session, greeting)
        shouts = self._shout_bits(session)
        self._index(session)
        listening = self.listening
        told = set(listening.with_dg(DG.PLAYER_ARRIVED))
        told.update(listening.with_dg(DG.PLAYER_ARRIVED_SIMPLE))
        told.update(listening.with_variable("pin"), listening.with_ivariable("pin"))
        told.update(listening.notifying(key), self._notified_by(session))
        if shouts:
            told.update(listening.with_dg(DG.SEES_SHOUTS))
        told.update(self._channel_listeners(session))
        told.discard(session)
        notify = tuple(session.notify) if session.registered else ()
        event = Arrived(self.player(session), shouts, tuple(sorted(session.channels)), notify)
        batch.add_all(told, event)
        for number in sorted(session.level2):
            self.send_lists(batch, session, number, at_login=True)
        batch.flush()

    def _channel_listeners(self, session: User) -> set[User]:
        """Others in a channel of ``session`` with DG_CHANNELS_SHARED (46) or
        DG_PEOPLE_IN_MY_CHANNEL (27) on: from the channels' members or from those
        listeners, whichever is fewer."""
        listeners = self.listening.with_dg(DG.CHANNELS_SHARED) | self.listening.with_dg(
            DG.PEOPLE_IN_MY_CHANNEL
        )
        found: set[User] = set()
        for channel in session.channels:
            members = self.channels.get(channel, set())
            if len(members) <= len(listeners):
                found.update(m for m in members if m in listeners)
            else:
                found.update(m for m in listeners if channel in m.channels)
        found.discard(session)
        return found

    def depart(self, session: User, local_only: bool = False) -> None:
        """``session`` is gone: tell the others (DG_PLAYER_LEFT, notify lists, channels);
        with ``local_only``, only this node's users (in a cluster, a dead node's user)."""
        if self.forget(session) is None:
            return
        batch = Batch(CN.SCN_LOGOUT, None, issuer_name=session.name)
        batch.local_only = local_only
        listening = self.listening
        told = set(listening.with_dg(DG.PLAYER_LEFT))
        told.update(listening.with_variable("pin"), listening.with_ivariable("pin"))
        told.update(listening.notifying(name_key(session.name)), self._notified_by(session))
        in_channels = listening.with_dg(DG.PEOPLE_IN_MY_CHANNEL)
        for channel in session.channels:
            told.update(self.channels.get(channel, set()) & in_channels)
        notify = tuple(session.notify) if session.registered else ()
        batch.add_all(told, Departed(session.name, tuple(sorted(session.channels)), notify))
        batch.flush()

    def forget(self, session: User) -> User | None:
        """Take ``session`` out of the world without telling anybody (a shutdown)."""
        key = name_key(session.name)
        if self.online.get(key) is not session:
            return None
        del self.online[key]
        self.listening.drop(session)
        for channel in session.channels:
            self.channels.get(channel, set()).discard(session)
        return session

    def add_replica(self, session: User) -> None:
        """A user of another node of the cluster is online (its node tells everybody)."""
        self.online[name_key(session.name)] = session
        self._index(session)

    def _index(self, session: User) -> None:
        """An online user into the channels' members and the listening indexes."""
        for channel in session.channels:
            self.channels.setdefault(channel, set()).add(session)
        self.listening.refresh(session)

    def replica_changed(self, session: User, channels_before: frozenset[int]) -> None:
        """A replica's facts changed: its channels and this world's indexes follow."""
        for channel in channels_before - session.channels:
            self.channels.get(channel, set()).discard(session)
        for channel in session.channels - channels_before:
            self.channels.setdefault(channel, set()).add(session)
        self.listening.refresh(session)

    def touch(self, session: User) -> None:
        for hook in self.touched:
            hook(session)

    def _notified_by(self, player: User) -> list[User]:
        """FICS's ``notifiedby``: those online on a registered ``player``'s notify list
        who set ``notifiedby`` and do not have him on their own list."""
        if not player.registered:
            return []
        listed = self.listening.notifying(name_key(player.name))
        found = []
        for key in player.notify:
            other = self.online.get(key)
            if other is None or other is player or other in listed:
                continue
            if other.variables["notifiedby"]:
                found.append(other)
        return found

    @staticmethod
    def _shout_bits(player: User) -> int:
        """DG_SEES_SHOUTS' bits: 1 shout, 2 sshout."""
        return (1 if player.variables["shout"] else 0) | (2 if player.variables["sshout"] else 0)

    def _channels_shared(self, player: User, shared: list[int]) -> Message:
        return Datagram(dg.ChannelsShared(player.name, tuple(shared)))

    def notify_watchers(self, player: User) -> list[User]:
        """Who has ``player`` on their notify list."""
        return [s for s in self.listening.notifying(name_key(player.name)) if s is not player]

    def state_changed(self, player: User, batch: Batch) -> None:
        """DG_STATE (11) to DG_PLAYER_ARRIVED listeners, DG_NOTIFY_STATE (67) to watchers."""
        self.touch(player)
        told = set(self.listening.with_dg(DG.PLAYER_ARRIVED))
        told.update(self.notify_watchers(player))
        told.discard(player)
        batch.add_all(told, StateChanged(player.name, player.state, player.state_game))

    def open_changed(self, player: User, batch: Batch) -> None:
        """DG_OPEN (10) to DG_PLAYER_ARRIVED listeners, DG_NOTIFY_OPEN (66) to watchers."""
        told = set(self.listening.with_dg(DG.PLAYER_ARRIVED))
        told.discard(player)
        told.update(self.notify_watchers(player))
        batch.add_all(told, OpenChanged(player.name, bool(player.variables["open"])))

    def titles_changed(self, player: User, batch: Batch) -> None:
        """DG_TITLES (9) to DG_PLAYER_ARRIVED listeners who have it on, ``player`` too (its
        titles are in its own list of players); its facts are written again."""
        self.touch(player)
        told = self.listening.with_dg(DG.PLAYER_ARRIVED)
        batch.add_all(told, Datagram(dg.Titles(player.name, player.titles)))

    def availability_changed(
        self, player: User, available: bool, batch: Batch, playing: Iterable[User] = ()
    ) -> None:
        """FICS's ``announce_avail`` / ``announce_notavail``: those who set ``availinfo``,
        are open and are not playing (``playing``) hear that ``player`` can be challenged
        now, or no longer, if his blitz rating is from their ``availmin`` to their
        ``availmax`` (0: no limit). The caller knows when (a game starts or ends for a player who
        is open, ``set open``)."""
        busy = set(playing)
        blitz = player.ratings.get("Blitz", (0, 0))[0] if player.registered else 0
        told = []
        for other in self.listening.with_variable("availinfo"):
            if other is not player and other.variables["open"] and other not in busy:
                low, high = other.variables["availmin"], other.variables["availmax"]
                if low <= blitz and (not high or blitz <= high):  # set availmin/availmax
                    told.append(other)
        if told:
            batch.add_all(told, AvailabilityChanged(self.player(player), available))

    def shouts_changed(self, player: User, batch: Batch) -> None:
        """DG_SEES_SHOUTS (45): somebody changed their shout or sshout variable."""
        event = ShoutsChanged(player.name, self._shout_bits(player))
        batch.add_all(self.listening.with_dg(DG.SEES_SHOUTS), event)

    # -- channels ----------------------------------------------------------------------

    def join(self, session: User, channel: int, batch: Batch) -> None:
        """DG_PEOPLE_IN_MY_CHANNEL: the joiner gets the members, the members the joiner."""
        members = self.channels.setdefault(channel, set())
        members.add(session)
        session.channels |= {channel}
        listeners = self.listening.with_dg(DG.PEOPLE_IN_MY_CHANNEL)
        if DG.PEOPLE_IN_MY_CHANNEL in session.level2:
            for member in sorted(members, key=lambda s: s.name.lower()):
                batch.add(session, Datagram(dg.PeopleInMyChannel(channel, member.name, True)))
        joined = Datagram(dg.PeopleInMyChannel(channel, session.name, True))
        batch.add_all((members & listeners) - {session}, joined)

    def leave(self, session: User, channel: int, batch: Batch) -> None:
        members = self.channels.get(channel, set())
        listeners = members & self.listening.with_dg(DG.PEOPLE_IN_MY_CHANNEL)
        batch.add_all(listeners, Datagram(dg.PeopleInMyChannel(channel, session.name, False)))
        members.discard(session)
        session.channels -= {channel}

    # -- lists a DG asks for when it is turned on ---------------------------------------

    def send_lists(self, batch: Batch, session: User, number: int, at_login: bool = False) -> None:
        """What turning DG ``number`` on sends (section 4, each DG's own description)."""
        add = batch.add

        def everyone() -> list[User]:
            return sorted(self.online.values(), key=lambda s: s.name.lower())

        def others() -> list[User]:
            return [s for s in everyone() if s is not session]

        if number == DG.WHO_AM_I and at_login:
            add(session, Datagram(dg.WhoAmI(session.name, session.titles)))
        elif number == DG.PLAYER_ARRIVED:
            for player in everyone():
                record = arrived_record(self.player(player), session.level2, number)
                add(session, Datagram(record))
        elif number == DG.PLAYER_ARRIVED_SIMPLE and not at_login:
            for player in everyone():
                add(session, Datagram(dg.PlayerArrivedSimple(player.name)))
        elif number in RATING_DGS and DG.PLAYER_ARRIVED in session.level2 and not at_login:
            for player in everyone():
                if player.registered:  # DG_BULLET: "Shouldn't get rating DGs for unregs"
                    add(session, Datagram(rating_record(self.player(player), number)))
        elif number == DG.NOTIFY_ARRIVED:
            for player in others():
                if name_key(player.name) in session.notify:
                    record = arrived_record(self.player(player), session.level2, number)
                    add(session, Datagram(record))
        elif number == DG.MY_NOTIFY_LIST:
            for _, name in sorted(session.notify.items()):
                add(session, Datagram(dg.MyNotifyList(name, True)))
        elif number == DG.CHANNELS_SHARED:
            for player in others():
                shared = sorted(session.channels & player.channels)
                if shared:
                    add(session, self._channels_shared(player, shared))
        elif number == DG.PEOPLE_IN_MY_CHANNEL and DG.CHANNELS_SHARED not in session.level2:
            for channel in sorted(session.channels):
                for member in sorted(self.channels.get(channel, ()), key=lambda s: s.name.lower()):
                    add(session, Datagram(dg.PeopleInMyChannel(channel, member.name, True)))
        elif number == DG.SEES_SHOUTS:
            for player in everyone():
                bits = self._shout_bits(player)
                if bits:
                    add(session, Datagram(dg.SeesShouts(player.name, bits)))
        elif number == DG.MY_VARIABLE:
            for variable in (*VARIABLES.by_name.values(), *IVARIABLES.by_name.values()):
                if variable.numeric:
                    add(session, self.my_variable(session, variable.name))
        elif number == DG.MY_STRING_VARIABLE:
            for variable in VARIABLES.by_name.values():
                if not variable.numeric:
                    add(session, self.my_variable(session, variable.name))
        elif number == DG.RATING_TYPE_KEY:
            for index, (label, _) in enumerate(RATING_TYPES):
                add(session, Datagram(dg.RatingTypeKey(index, label)))
        elif number == DG.WILD_KEY:
            for index, label in WILD_NAMES:
                add(session, Datagram(dg.WildKey(index, label)))
        elif number in (DG.NEW_MY_RATING, DG.MY_RATING):  # sent when turned on
            for record in my_ratings(self.player(session)):
                if record.dg == number:
                    add(session, Datagram(record))
        elif number == DG.DUMMY_RESPONSE:
            add(session, Datagram(dg.DummyResponse()))

    def my_variable(self, session: User, name: str) -> Message:
        """DG_MY_VARIABLE (47) or DG_MY_STRING_VARIABLE (48) for one variable."""
        if name == "level1":
            value: Value = int(session.level1)
        elif name in VARIABLES.by_name:
            value = value_of(session.variables, name)
        else:
            value = value_of(session.ivariables, name)
        if isinstance(value, str):
            return Datagram(dg.MyStringVariable(name, value))
        return Datagram(dg.MyVariable(name, value))
