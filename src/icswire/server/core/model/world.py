"""Who is here, in which channels, and what others are told when that changes.

The world holds the logged-in sessions and the channel memberships, and turns presence
changes into messages: DG_PLAYER_ARRIVED (1) with each receiver's rating, open, state and
uid parts, DG_PLAYER_LEFT (2), DG_PLAYER_ARRIVED_SIMPLE (55), DG_STATE (11), DG_OPEN (10),
the notify-list forms (64-68) or their text, the channel DGs (27, 46) and DG_SEES_SHOUTS
(45); for FICS interfaces ``<wa>``/``<wd>`` (``iset pin 1``) and the ``availinfo`` lines
(``... is now available for matches.``). It also sends the lists that turning a DG on
asks for (icc-formats.txt section 4: "When this DG is turned on (with set-2 or during
login), a raw list ... is sent").
"""

from __future__ import annotations

import random
import string
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from icswire.boards.variants import VARIANTS
from icswire.protocol import datagrams as dg
from icswire.protocol import ivars
from icswire.protocol.datagrams import DG, RATING_DGS, Rating
from icswire.protocol.level1 import CommandNumber as CN
from icswire.server.core.model.listening import Listening
from icswire.server.core.model.names import name_key
from icswire.server.core.model.variables import IVARIABLES, VARIABLES
from icswire.server.core.net.session import Session
from icswire.server.core.render.alerts import BELL, name_for
from icswire.server.core.render.batch import (
    Batch,
    Datagram,
    Lines,
    Message,
    PerReceiver,
    TextOrDatagram,
    lines,
)

#: ICC's rating types, in DG_RATING_TYPE_KEY's order (DG 76) and their rating DGs.
RATING_TYPES: tuple[tuple[str, int], ...] = (
    ("Wild", DG.WILD),
    ("Blitz", DG.BLITZ),
    ("Standard", DG.STANDARD),
    ("Bullet", DG.BULLET),
    ("Bughouse", DG.BUGHOUSE),
    ("Losers", DG.LOSERS),
    ("Crazyhouse", DG.CRAZYHOUSE),
    ("5-minute", DG.FIVEMINUTE),
    ("1-minute", DG.ONEMINUTE),
    ("Correspondence", DG.CORRESPONDENCE_RATING),
    ("15-minute", DG.FIFTEENMINUTE),
    ("3-minute", DG.THREEMINUTE),
    ("45-minute", DG.FORTYFIVEMINUTE),
    ("Chess960", DG.CHESS960),
)
#: The wild variants this server plays, by ICC number (DG_WILD_KEY, 116).
WILD_NAMES: tuple[tuple[int, str], ...] = tuple(
    sorted((v.wild, v.title) for v in VARIANTS if v.wild is not None)
)


#: The ratings of a ``<wa>`` line, in FICS's order (blitz, standard, lightning, wild,
#: bughouse, crazyhouse, suicide, losers, atomic): this server's rating type of each.
ARRIVAL_RATINGS: tuple[str | None, ...] = (
    "Blitz",
    "Standard",
    "Bullet",
    "Wild",
    "Bughouse",
    "Crazyhouse",
    "Suicide",
    "Losers",
    "Atomic",
)
#: The first ratings FICS's availinfo line shows (then Light and Bug).
_AVAILABLE_RATINGS = (("Blitz", "Blitz"), ("Std", "Standard"), ("Wild", "Wild"))


def ratstr(player: Session, rating_type: str) -> str:
    """FICS's ``ratstrii``: ``%4d``, ``----`` registered without one, ``++++`` a guest."""
    rating = player.ratings.get(rating_type, (0, 0))[0] if player.registered else 0
    if rating:
        return f"{rating:4d}"
    return "----" if player.registered else "++++"


def arrival_line(player: Session) -> str:
    """``<wa>`` (FICS ``iset pin``, help ``new_features``): the name, the ``who`` status
    character (`` `` open, ``:`` not open), two hex digits of title flags (1 unregistered)
    and the ratings, each with its provshow character (`` `` established, ``P`` not)."""
    ratings = []
    for label in ARRIVAL_RATINGS:
        known = label is not None and player.registered
        rating, note = player.ratings.get(label, (0, 0)) if known and label else (0, 0)
        ratings.append((rating, " " if note == 2 else "P"))
    status = " " if player.variables["open"] else ":"
    titles = f"{0 if player.registered else 1:02X}"
    return ivars.format_player_arrived(
        ivars.PlayerArrived(player.name, status, titles, tuple(ratings))
    )


class World:
    """The logged-in sessions and the channels."""

    def __init__(self) -> None:
        self.online: dict[str, Session] = {}
        self.channels: dict[int, set[Session]] = {}
        #: Who has which DG and presence switch on, and who notifies of whom.
        self.listening = Listening()
        self.uids: dict[str, int] = {}
        #: Called with a session whose facts others see may have changed (its state, its
        #: ratings, its settings after a command): a cluster tells the other nodes.
        self.touched: list[Callable[[Session], None]] = []

    # -- who ---------------------------------------------------------------------------

    def find(self, name: str) -> Session | None:
        """The logged-in player ``name``, or the only one whose name it begins."""
        key = name_key(name)
        if key in self.online:
            return self.online[key]
        found = [s for k, s in self.online.items() if k.startswith(key)]
        return found[0] if len(found) == 1 else None

    def others(self, session: Session) -> Iterator[Session]:
        return (s for s in self.online.values() if s is not session)

    def guest_name(self) -> str:
        while True:
            # a name, not a secret: any generator will do
            name = "Guest" + "".join(random.choices(string.ascii_uppercase, k=4))  # noqa: S311
            if name_key(name) not in self.online:
                return name

    # -- presence ----------------------------------------------------------------------

    def arrived_record(
        self, player: Session, receiver: Session, kind: int
    ) -> dg.PlayerArrived | dg.NotifyArrived:
        """DG_PLAYER_ARRIVED / DG_NOTIFY_ARRIVED in the receiver's form: a (rating,
        annotation) pair per rating DG it has on, then open, state and uid parts."""
        on = receiver.level2
        by_dg = {number: player.ratings.get(label, (0, 0)) for label, number in RATING_TYPES}
        ratings = tuple(Rating(d, *by_dg.get(d, (0, 0))) for d in RATING_DGS if d in on)
        record_class = dg.PlayerArrived if kind == DG.PLAYER_ARRIVED else dg.NotifyArrived
        return record_class(
            player.name,
            ratings,
            bool(player.variables["open"]) if DG.OPEN in on else None,
            player.state if DG.STATE in on else None,
            player.state_game if DG.STATE in on else None,
            self.uids.get(name_key(player.name), 0) if DG.UID in on else None,
        )

    def _arrived(self, player: Session, kind: int) -> Message:
        return PerReceiver(kind, lambda receiver: self.arrived_record(player, receiver, kind))

    def arrive(self, session: Session, greeting: Message) -> None:
        """``session`` has logged in: greet it, tell the others, then give it the lists
        it asked for (at the login prompt, with ``level2settings=``). One pass over the
        others, and messages only for those who will get something."""
        key = name_key(session.name)
        if self.online.setdefault(key, session) is not session:
            raise RuntimeError(f"{session.name} is online already")  # one session per name
        batch = Batch(CN.SCN_REALLY_LOG_IN, session)
        batch.add(session, greeting)
        arrived = self._arrived(session, DG.PLAYER_ARRIVED)
        simple = Datagram(dg.PlayerArrivedSimple(session.name))
        pin = lines(f"[{session.name} has connected.]")  # FICS's words (set pin 1)
        pin_line = lines(arrival_line(session))
        shouts = session.variables["shout"] or session.variables["sshout"]
        sees = self._sees_shouts(session) if shouts else None
        self._index(session)
        listening = self.listening
        me = {session}
        batch.add_all(listening.with_dg(DG.PLAYER_ARRIVED) - me, arrived)
        batch.add_all(listening.with_dg(DG.PLAYER_ARRIVED_SIMPLE) - me, simple)
        batch.add_all(listening.with_variable("pin") - me, pin)
        batch.add_all(listening.with_ivariable("pin") - me, pin_line)
        for other in listening.notifying(key) - me:
            batch.add(other, BELL)
            batch.add(other, self._notify_arrival(session, other))
        for other in self._notified_by(session):
            batch.add(other, BELL)
            batch.add(other, lines(self._unlisted(session, other, "arrived")))
        if sees is not None:
            batch.add_all(listening.with_dg(DG.SEES_SHOUTS) - me, sees)
        for other in self._channel_listeners(session):
            shared = sorted(session.channels & other.channels)
            if DG.CHANNELS_SHARED in other.level2:  # it replaces the channel-by-channel form
                batch.add(other, self._channels_shared(session, shared))
            else:
                for channel in shared:
                    batch.add(other, Datagram(dg.PeopleInMyChannel(channel, session.name, True)))
        for number in sorted(session.level2):
            self.send_lists(batch, session, number, at_login=True)
        batch.flush()

    def _channel_listeners(self, session: Session) -> set[Session]:
        """Others in a channel of ``session`` with DG_CHANNELS_SHARED (46) or
        DG_PEOPLE_IN_MY_CHANNEL (27) on: from the channels' members or from those
        listeners, whichever is fewer."""
        listeners = self.listening.with_dg(DG.CHANNELS_SHARED) | self.listening.with_dg(
            DG.PEOPLE_IN_MY_CHANNEL
        )
        found: set[Session] = set()
        for channel in session.channels:
            members = self.channels.get(channel, set())
            if len(members) <= len(listeners):
                found.update(m for m in members if m in listeners)
            else:
                found.update(m for m in listeners if channel in m.channels)
        found.discard(session)
        return found

    def depart(self, session: Session, local_only: bool = False) -> None:
        """``session`` is gone: tell the others (DG_PLAYER_LEFT, notify lists, channels);
        with ``local_only``, only this node's users (in a cluster, a dead node's user)."""
        key = name_key(session.name)
        if self.forget(session) is None:
            return
        batch = Batch(CN.SCN_LOGOUT, None, issuer_name=session.name)
        batch.local_only = local_only
        left = Datagram(dg.PlayerLeft(session.name))
        pin = lines(f"[{session.name} has disconnected.]")
        pin_line = lines(ivars.format_player_departed(ivars.PlayerDeparted(session.name)))
        notice = TextOrDatagram(
            (f"Notification: {session.name} has departed.",),
            DG.NOTIFY_LEFT,
            dg.NotifyLeft(session.name),
        )
        listening = self.listening
        batch.add_all(listening.with_dg(DG.PLAYER_LEFT), left)
        batch.add_all(listening.with_variable("pin"), pin)
        batch.add_all(listening.with_ivariable("pin"), pin_line)
        for other in listening.notifying(key):
            batch.add(other, BELL)
            batch.add(other, notice)
        for other in self._notified_by(session):
            batch.add(other, BELL)
            batch.add(other, lines(self._unlisted(session, other, "departed")))
        for channel in sorted(session.channels):
            gone = Datagram(dg.PeopleInMyChannel(channel, session.name, False))
            members = self.channels.get(channel, set())
            batch.add_all(members & self.listening.with_dg(DG.PEOPLE_IN_MY_CHANNEL), gone)
        batch.flush()

    def forget(self, session: Session) -> Session | None:
        """Take ``session`` out of the world without telling anybody (a shutdown)."""
        key = name_key(session.name)
        if self.online.get(key) is not session:
            return None
        del self.online[key]
        self.listening.drop(session)
        for channel in session.channels:
            self.channels.get(channel, set()).discard(session)
        return session

    def add_replica(self, session: Session) -> None:
        """A user of another node of the cluster is online (its node tells everybody)."""
        self.online[name_key(session.name)] = session
        self._index(session)

    def _index(self, session: Session) -> None:
        """An online user into the channels' members and the listening indexes."""
        for channel in session.channels:
            self.channels.setdefault(channel, set()).add(session)
        self.listening.refresh(session)

    def replica_changed(self, session: Session, channels_before: frozenset[int]) -> None:
        """A replica's facts changed: its channels and this world's indexes follow."""
        for channel in channels_before - session.channels:
            self.channels.get(channel, set()).discard(session)
        for channel in session.channels - channels_before:
            self.channels.setdefault(channel, set()).add(session)
        self.listening.refresh(session)

    def touch(self, session: Session) -> None:
        for hook in self.touched:
            hook(session)

    def _notified_by(self, player: Session) -> list[Session]:
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
    def _unlisted(player: Session, receiver: Session, verb: str) -> str:
        name = name_for(receiver, player.name)
        return f"Notification: {name} has {verb} and isn't on your notify list."

    def _notify_arrival(self, player: Session, receiver: Session) -> Message:
        record = self.arrived_record(player, receiver, DG.NOTIFY_ARRIVED)
        return TextOrDatagram(
            (f"Notification: {player.name} has arrived.",), DG.NOTIFY_ARRIVED, record
        )

    def _sees_shouts(self, player: Session) -> Message:
        bits = (1 if player.variables["shout"] else 0) | (2 if player.variables["sshout"] else 0)
        return Datagram(dg.SeesShouts(player.name, bits))

    def _channels_shared(self, player: Session, shared: list[int]) -> Message:
        return Datagram(dg.ChannelsShared(player.name, tuple(shared)))

    def notify_watchers(self, player: Session) -> list[Session]:
        """Who has ``player`` on their notify list."""
        return [s for s in self.listening.notifying(name_key(player.name)) if s is not player]

    def state_changed(self, player: Session, batch: Batch) -> None:
        """DG_STATE (11) to DG_PLAYER_ARRIVED listeners, DG_NOTIFY_STATE (67) to watchers."""
        self.touch(player)
        state = dg.State(player.name, player.state, player.state_game)
        watchers = self.notify_watchers(player)
        batch.add_all(self.listening.with_dg(DG.PLAYER_ARRIVED) - {player}, Datagram(state))
        batch.add_all(watchers, Datagram(dg.NotifyState(*state[:3])))

    def open_changed(self, player: Session, batch: Batch) -> None:
        """DG_OPEN (10) to DG_PLAYER_ARRIVED listeners, DG_NOTIFY_OPEN (66) to watchers."""
        is_open = bool(player.variables["open"])
        batch.add_all(
            self.listening.with_dg(DG.PLAYER_ARRIVED) - {player},
            Datagram(dg.Open(player.name, is_open)),
        )
        batch.add_all(
            self.notify_watchers(player),
            Datagram(dg.NotifyOpen(player.name, is_open)),
        )

    def availability_changed(
        self, player: Session, available: bool, batch: Batch, playing: Iterable[Session] = ()
    ) -> None:
        """FICS's ``announce_avail`` / ``announce_notavail``: those who set ``availinfo``,
        are open and are not playing (``playing``) hear that ``player`` can be challenged
        now, or no longer, if his blitz rating is from their ``availmin`` to their
        ``availmax`` (0: no limit). The caller knows when (a game starts or ends for a player who
        is open, ``set open``)."""
        if available:
            first = ", ".join(
                f"{word} ({ratstr(player, kind)})" for word, kind in _AVAILABLE_RATINGS
            )
            told: Lines = lines(
                f"{player.display_name} {first}, Light({ratstr(player, 'Bullet')}),"
                f" Bug({ratstr(player, 'Bughouse')})",
                "  is now available for matches.",
            )
        else:
            told = lines(f"{player.display_name} is no longer available for matches.")
        busy = set(playing)
        blitz = player.ratings.get("Blitz", (0, 0))[0] if player.registered else 0
        for other in self.listening.with_variable("availinfo"):
            if other is not player and other.variables["open"] and other not in busy:
                low, high = other.variables["availmin"], other.variables["availmax"]
                if low <= blitz and (not high or blitz <= high):  # set availmin/availmax
                    batch.add(other, told)

    def shouts_changed(self, player: Session, batch: Batch) -> None:
        """DG_SEES_SHOUTS (45): somebody changed their shout or sshout variable."""
        batch.add_all(self.listening.with_dg(DG.SEES_SHOUTS), self._sees_shouts(player))

    # -- channels ----------------------------------------------------------------------

    def join(self, session: Session, channel: int, batch: Batch) -> None:
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

    def leave(self, session: Session, channel: int, batch: Batch) -> None:
        members = self.channels.get(channel, set())
        listeners = members & self.listening.with_dg(DG.PEOPLE_IN_MY_CHANNEL)
        batch.add_all(listeners, Datagram(dg.PeopleInMyChannel(channel, session.name, False)))
        members.discard(session)
        session.channels -= {channel}

    # -- lists a DG asks for when it is turned on ---------------------------------------

    def send_lists(
        self, batch: Batch, session: Session, number: int, at_login: bool = False
    ) -> None:
        """What turning DG ``number`` on sends (section 4, each DG's own description)."""
        add = batch.add

        def everyone() -> list[Session]:
            return sorted(self.online.values(), key=lambda s: s.name.lower())

        def others() -> list[Session]:
            return [s for s in everyone() if s is not session]

        if number == DG.WHO_AM_I and at_login:
            add(session, Datagram(dg.WhoAmI(session.name, session.titles)))
        elif number == DG.PLAYER_ARRIVED:
            for player in everyone():
                add(session, self._arrived(player, DG.PLAYER_ARRIVED))
        elif number == DG.PLAYER_ARRIVED_SIMPLE and not at_login:
            for player in everyone():
                add(session, Datagram(dg.PlayerArrivedSimple(player.name)))
        elif number in RATING_DGS and DG.PLAYER_ARRIVED in session.level2 and not at_login:
            for player in everyone():
                add(session, Datagram(dg.record_as(number, dg.Bullet(player.name, 0, 0))))
        elif number == DG.NOTIFY_ARRIVED:
            for player in others():
                if name_key(player.name) in session.notify:
                    add(session, self._arrived(player, DG.NOTIFY_ARRIVED))
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
                if player.variables["shout"] or player.variables["sshout"]:
                    add(session, self._sees_shouts(player))
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
        elif number == DG.NEW_MY_RATING:
            value = 0 if session.registered else -1
            ratings = tuple(value for _ in RATING_TYPES)
            add(session, Datagram(dg.NewMyRating(ratings)))
        elif number == DG.DUMMY_RESPONSE:
            add(session, Datagram(dg.DummyResponse()))

    def my_variable(self, session: Session, name: str) -> Message:
        """DG_MY_VARIABLE (47) or DG_MY_STRING_VARIABLE (48) for one variable."""
        if name == "level1":
            value: Any = session.level1
        elif name in VARIABLES.by_name:
            value = session.variables[name]
        else:
            value = session.ivariables[name]
        if isinstance(value, str):
            return Datagram(dg.MyStringVariable(name, value))
        return Datagram(dg.MyVariable(name, int(value)))
