"""Played games' lifecycle for each receiver: a game started, changed (``switch``) or
ended, an observer came or went, the requests standing changed.

Who a receiver is decides what it gets, by its name: a player of the game gets the
whole block of a game's start (FICS's ``Creating:`` lines, DG_MY_GAME_STARTED and what
follows it, the board); one of the audience at its end the result line, DG_MY_GAME_RESULT
and DG_MY_RELATION_TO_GAME ``X``; everybody else only the listing DGs (DG_GAME_STARTED,
DG_GAME_RESULT) and, with ``set gin`` (``iset allresults`` at the end), the ``{Game N
...}`` line.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import TYPE_CHECKING, Any

from icswire.protocol import datagrams as dg
from icswire.protocol.codes import Sound
from icswire.protocol.datagrams import DG, DatagramRecord
from icswire.server.core.events.games import (
    ClockPaused,
    GameChanged,
    GameEnded,
    GameHeader,
    GameStarted,
    ObserverJoined,
    ObserverLeft,
    OffersChanged,
    RequestAnswered,
    RequestMade,
)
from icswire.server.core.model.ratings import RATING_TYPES
from icswire.server.core.model.requests import ASKED, KINDS
from icswire.server.core.render.alerts import sound
from icswire.server.core.render.batch import EventMessage, render_parts
from icswire.server.core.render.boards import history_records
from icswire.server.core.render.moves import ShowsBoard

if TYPE_CHECKING:
    from icswire.server.core.model.users import User


def game_started(header: GameHeader) -> dg.GameStarted:
    """DG_GAME_STARTED (12) of a played game (White's time control, then Black's)."""
    h = header
    return dg.GameStarted(
        h.game, h.white, h.black, h.wild, h.rating_type, h.rated, h.initial, h.increment,
        h.black_initial, h.black_increment, True, "", h.white_rating, h.black_rating, h.game_id,
        h.white_titles, h.black_titles, h.irregular_legality, h.irregular_semantics,
        h.holdings, "", h.promote_to_king,
    )  # fmt: skip


def started_record(header: GameHeader, kind: int) -> DatagramRecord:
    """A DG_GAME_STARTED-form record (12, 15, 18, 40, 100) of a played game."""
    return dg.record_as(kind, game_started(header))


def _on(receiver: User, kind: int) -> bool:
    return kind in receiver.level2


class StartMessage(ShowsBoard):
    """:class:`GameStarted` for one receiver (see the event)."""

    event: GameStarted

    def __init__(self, event: GameStarted) -> None:
        super().__init__(event)
        self._title = f"Game {event.header.game} ({event.header.white} vs. {event.header.black})"

    def _started_line(self) -> str:
        verb = "Continuing" if self.event.resumed else "Creating"
        return f"{{{self._title} {verb} {self.event.words} match.}}"

    def key(self, receiver: User) -> Hashable:
        listed = _on(receiver, DG.GAME_STARTED)
        name, header = receiver.name, self.event.header
        if name != header.white and name != header.black:
            return listed, bool(receiver.variables["gin"])
        gameinfo = bool(receiver.ivariables["gameinfo"])
        return name, receiver.level2 & self.datagram_kinds, gameinfo, self.board_key(receiver)

    def render(self, receiver: User) -> bytes:
        header, name = self.event.header, receiver.name
        listed = [started_record(header, DG.GAME_STARTED)] if _on(receiver, DG.GAME_STARTED) else []
        if name != header.white and name != header.black:
            gin = (self._started_line(),) if receiver.variables["gin"] else ()
            return render_parts(listed, gin, receiver)
        return self._players_block(receiver) + render_parts(listed, (), receiver)

    def _players_block(self, receiver: User) -> bytes:
        event, header, on = self.event, self.event.header, receiver.level2
        white = receiver.name == header.white
        number = header.game
        text = [
            f"Creating: {header.white} ({event.ratings[0]}) {header.black} ({event.ratings[1]})"
            f" {event.words} {header.initial} {header.increment}",
            self._started_line(),
        ]
        if event.partner is not None:  # FICS's words (lasker's matchproc.c)
            other, other_white, other_black = event.partner
            text.append(f"Your partner is playing game {other} ({other_white} vs. {other_black}).")
        if receiver.ivariables["gameinfo"]:
            text.append(event.info)
        found: list[Any] = [
            dg.Sound(Sound.START),
            started_record(header, DG.MY_GAME_STARTED),
            dg.Flip(number, not white),
            *history_records(on, event.history),
            dg.MyRelationToGame(number, "PW" if white else "PB"),
            dg.PlayersInMyGame(number, header.white, "PW", True),
            dg.PlayersInMyGame(number, header.black, "PB", True),
            *[dg.PgnTag(number, tag, value) for tag, value in event.tags],
            self._pstat(white),
        ]
        if (header.initial, header.increment) == (0, 0) or (
            header.black_initial,
            header.black_increment,
        ) == (0, 0):
            # an untimed game: the server keeps no premove (Games.premove_allowed)
            found.append(dg.DisablePremove(number))
        records = [record for record in found if record.dg in on]
        data = render_parts((), text, receiver) + render_parts(records, (), receiver)
        data += self.board_bytes(receiver)
        if DG.MY_TURN in on and self.position.relation(receiver.name) == 1:
            data += render_parts((dg.MyTurn(number),), (), receiver)
        return data

    def _pstat(self, white: bool) -> Any:
        """DG_PSTAT (142): the player's record against the other in this rating type, as
        White and as Black ("Game start records only have one record")."""
        header = self.event.header
        me, other = (header.white, header.black) if white else (header.black, header.white)
        ww, wl, wd, bw, bl, bd = self.event.pstat[0 if white else 1]
        rating_type = header.rating_type
        number = RATING_TYPES.index(rating_type) if rating_type in RATING_TYPES else 0
        return dg.Pstat(0, None, me, other, (dg.PstatRecord(ww, wl, wd, bw, bl, bd, number),))


#: What FICS tells both players after the result of a game that changes no rating
#: (unrated, or adjourned or aborted): lasker's ``game_ended``, with the empty line
#: freechess.org puts before it.
NO_ADJUSTMENT = ("", "No ratings adjustment done.")


class EndMessage(EventMessage):
    """:class:`GameEnded` for one receiver (see the event); it starts on a fresh line for
    the player whose command ended the game too (``resign``, ``abort``, a mating move)."""

    event: GameEnded
    starts_fresh = True

    def __init__(self, event: GameEnded) -> None:
        super().__init__(event)
        self._said = (
            f"{{Game {event.game} ({event.white} vs. {event.black}) {event.description}}}"
            f" {event.score}{event.tourney}"
        )

    def _playing(self, receiver: User) -> bool:
        return receiver.name in (self.event.white, self.event.black)

    def key(self, receiver: User) -> Hashable:
        on = receiver.level2 & self.datagram_kinds
        if receiver.name in self.event.audience:
            return True, on, self._playing(receiver), receiver.talks_icc
        return False, on, bool(receiver.variables["gin"] or receiver.ivariables["allresults"])

    def render(self, receiver: User) -> bytes:
        event, on = self.event, receiver.level2
        fields = (event.game, False, event.code, event.score, event.description, event.eco)
        listed = [dg.GameResult(*fields)] if DG.GAME_RESULT in on else []
        if receiver.name not in event.audience:
            heard = receiver.variables["gin"] or receiver.ivariables["allresults"]
            return render_parts(listed, (self._said,) if heard else (), receiver)
        found: list[Any] = [dg.Sound(Sound.END)] if self._playing(receiver) else []
        found += [dg.MyGameResult(*fields), dg.MyRelationToGame(event.game, "X")]
        mine = [record for record in found if record.dg in on]
        said: tuple[str, ...] = (self._said,)
        if self._playing(receiver) and not event.adjusted and not receiver.talks_icc:
            said += NO_ADJUSTMENT
        return render_parts((), said, receiver) + render_parts(mine + listed, (), receiver)


class ChangeMessage(EventMessage):
    """:class:`GameChanged` for one receiver: DG_MY_GAME_CHANGE (100), to a player
    DG_FLIP of its colour, the moves and clocks, to a player DG_MY_RELATION_TO_GAME."""

    event: GameChanged

    def _seat(self, receiver: User) -> str:
        header = self.event.header
        return (
            "PW"
            if receiver.name == header.white
            else "PB"
            if receiver.name == header.black
            else "O"
        )

    def key(self, receiver: User) -> Hashable:
        return self._seat(receiver), receiver.level2 & self.datagram_kinds

    def render(self, receiver: User) -> bytes:
        event, on = self.event, receiver.level2
        number, seat = event.header.game, self._seat(receiver)
        found: list[Any] = [started_record(event.header, DG.MY_GAME_CHANGE)]
        if seat != "O":
            found.append(dg.Flip(number, seat == "PB"))
        found += history_records(on, event.history)
        if seat != "O":
            found.append(dg.MyRelationToGame(number, seat))
        return render_parts([record for record in found if record.dg in on], (), receiver)


class JoinedMessage(EventMessage):
    """:class:`ObserverJoined`: DG_PLAYERS_IN_MY_GAME (20) ``O``."""

    event: ObserverJoined

    def key(self, receiver: User) -> Hashable:
        return DG.PLAYERS_IN_MY_GAME in receiver.level2

    def render(self, receiver: User) -> bytes:
        if DG.PLAYERS_IN_MY_GAME not in receiver.level2:
            return b""
        event = self.event
        record = dg.PlayersInMyGame(event.game, event.name, "O", event.kibitz)
        return render_parts((record,), (), receiver)


class LeftMessage(EventMessage):
    """:class:`ObserverLeft`: DG_PLAYERS_IN_MY_GAME (20) ``X``."""

    event: ObserverLeft

    def key(self, receiver: User) -> Hashable:
        return DG.PLAYERS_IN_MY_GAME in receiver.level2

    def render(self, receiver: User) -> bytes:
        if DG.PLAYERS_IN_MY_GAME not in receiver.level2:
            return b""
        record = dg.PlayersInMyGame(self.event.game, self.event.name, "X", False)
        return render_parts((record,), (), receiver)


class OffersMessage(EventMessage):
    """:class:`OffersChanged`: DG_OFFERS_IN_MY_GAME (21)."""

    event: OffersChanged

    def key(self, receiver: User) -> Hashable:
        return DG.OFFERS_IN_MY_GAME in receiver.level2

    def render(self, receiver: User) -> bytes:
        if DG.OFFERS_IN_MY_GAME not in receiver.level2:
            return b""
        e = self.event
        record = dg.OffersInMyGame(e.game, *e.draw, *e.adjourn, *e.abort, *e.takeback)
        return render_parts((record,), (), receiver)


def game_message(game: int, said: Sequence[str], receiver: User, prefix: bool) -> bytes:
    """``said``, words about game ``game`` (a request, its answer, the clock paused), as
    text (``Game N: `` before each line with ``prefix``: to observers) and, to a receiver
    with DG_GAME_MESSAGE (77) on, each line as one too: it "encapsulates the text
    generated by miscellaneous commands that affect a particular game, e.g. mexamine,
    setwhiteclock, draw"; the text still comes, as the spec does not say it replaces it."""
    records: tuple[DatagramRecord, ...] = ()
    if DG.GAME_MESSAGE in receiver.level2:
        records = tuple([dg.GameMessage(game, line) for line in said])
    shown = [f"Game {game}: {line}" for line in said] if prefix else said
    return render_parts(records, shown, receiver)


class RequestMessage(EventMessage):
    """:class:`RequestMade`: FICS's words to the opponent, ``Game N: ...`` to observers
    (and DG_GAME_MESSAGE)."""

    event: RequestMade

    def key(self, receiver: User) -> Hashable:
        opponent = receiver.name == self.event.opponent
        on = receiver.level2
        return opponent, opponent and DG.SOUND in on, DG.GAME_MESSAGE in on

    def render(self, receiver: User) -> bytes:
        e = self.event
        if receiver.name != e.opponent:
            note = KINDS[e.request].note_text(e.params)
            return game_message(e.game, (f"{e.name} {note}",), receiver, True)
        offered = sound(receiver, Sound.OFFER)
        if e.counter:
            said: tuple[str, ...] = (
                f"{e.name} proposes a different number ({e.params}) of half-move(s).",
            )
        else:
            said = tuple([text.format(name=e.name, n=e.params) for text in ASKED[e.request]])
        return offered + game_message(e.game, said, receiver, False)


class AnswerMessage(EventMessage):
    """:class:`RequestAnswered`: to the other player, and ``Game N: ...`` to observers
    (and DG_GAME_MESSAGE)."""

    event: RequestAnswered

    def key(self, receiver: User) -> Hashable:
        return receiver.name == self.event.other, DG.GAME_MESSAGE in receiver.level2

    def render(self, receiver: User) -> bytes:
        e = self.event
        said = f"{e.name} {e.answer} the {KINDS[e.request].noun}."
        return game_message(e.game, (said,), receiver, receiver.name != e.other)


class PausedMessage(EventMessage):
    """:class:`ClockPaused`: to the players, and ``Game N: ...`` to observers (and
    DG_GAME_MESSAGE)."""

    event: ClockPaused

    def key(self, receiver: User) -> Hashable:
        player = receiver.name in (self.event.white, self.event.black)
        return player, DG.GAME_MESSAGE in receiver.level2

    def render(self, receiver: User) -> bytes:
        e = self.event
        said = "Game clock paused." if e.paused else "Game clock resumed."
        player = receiver.name in (e.white, e.black)
        return game_message(e.game, (said,), receiver, not player)
