"""The games part of the Store: one row per game from its start (the moves saved after
every move, so a game survives a crash), how it ended, and then the history, the adjourned
games, the resumed ones and each user's journal of stored games."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from datetime import UTC, datetime
from typing import Any, NamedTuple

from sqlalchemy import Connection, Row, bindparam, delete, func, insert, or_, select, update
from sqlalchemy.sql.elements import ColumnElement

from icswire.protocol.codes import AbortMode, AdjournMode, ResultStatus
from icswire.server.core.model.names import name_key
from icswire.server.core.storage.accounts import user_id
from icswire.server.core.storage.database import Database
from icswire.server.core.storage.fencing import hold
from icswire.server.core.storage.ratings import rate_game
from icswire.server.core.storage.records import GameRecord, RatingChange
from icswire.server.core.storage.schema import games, journal_games, nodes, users

__all__ = [
    "ADJOURNED_BY_SHUTDOWN",
    "BUGHOUSE_WILD",
    "Games",
    "MoveTexts",
    "Progress",
    "UnknownGame",
]


ADJOURNED_BY_SHUTDOWN = AdjournMode.SHUTDOWN
"""The DG_GAMELIST_ITEM mode of status 2 (adjourned) for "Game adjourned by system shutdown"."""
BUGHOUSE_WILD = 24
"""Bughouse's wild number (its boards are aborted, never adjourned, by a shutdown)."""

_FINISHED = (ResultStatus.WIN, ResultStatus.DRAW)

#: :meth:`Store.save_progress_many`'s update, built once and executed with many rows: a
#: game in progress only (one that ended, or that a cluster adjourned, stays as it is; a
#: save replayed from the write journal changes nothing).
_SAVE_PROGRESS = (
    update(games)
    .where(games.c.id == bindparam("p_id"), games.c.status.is_(None))
    .values(
        moves=bindparam("p_moves"),
        clocks=bindparam("p_clocks"),
        times=bindparam("p_times"),
        white_clock=bindparam("p_white_clock"),
        black_clock=bindparam("p_black_clock"),
        updated=bindparam("p_updated"),
    )
)


class Progress(NamedTuple):
    """A game in progress as it is saved after a move: its moves, clocks and times as the
    games table keeps them (:class:`MoveTexts`), and the clocks now
    (:meth:`Store.save_progress_many`)."""

    game_id: int
    moves: str
    clocks: str
    times: str
    white_clock: int
    black_clock: int


class MoveTexts:
    """A game's moves, clocks and times as the games table keeps them (blank-separated
    words), brought up to date with the game's moves as they are played: a save after a
    move appends one word to each, not the whole game joined again (which grew with every
    ply). Moves taken back, or replaced, make it join them all once more."""

    __slots__ = ("_count", "_last", "clocks", "moves", "times")

    def __init__(self) -> None:
        self.moves = self.clocks = self.times = ""
        self._count = 0
        self._last: object = None  # the last move counted, to see a takeback

    def follow(self, played: Sequence[Any]) -> None:
        """Bring the texts up to ``played`` (objects with ``san``, ``clock_ms`` and
        ``time_ms``), which is the list they followed with moves added, or anything else
        (then they are made again)."""
        count = self._count
        if count > len(played) or (count and played[count - 1] is not self._last):
            count = 0  # taken back or replaced: made again
        if count == self._count == len(played):
            return
        added = played[count:]
        moves = _join_moves([move.san for move in added])
        clocks = _join_ints([move.clock_ms for move in added])
        times = _join_ints([move.time_ms for move in added])
        if count:
            moves, clocks, times = (
                f"{self.moves} {moves}",
                f"{self.clocks} {clocks}",
                f"{self.times} {times}",
            )
        self.moves, self.clocks, self.times = moves, clocks, times
        self._count, self._last = len(played), played[-1] if played else None


class UnknownGame(LookupError):
    """No stored game has this id."""

    def __init__(self, game_id: int) -> None:
        super().__init__(f"no such game: {game_id}")
        self.game_id = game_id


class Games(Database):
    """Stored games by id, and each player's history, adjourned games and journal.

    In a cluster, every write of a game (its start, progress, seats, end and ratings,
    adjournments) is made under the node's :attr:`fence`: refused with
    :class:`~.fencing.Fenced` once the node was declared dead (:mod:`.fencing`)."""

    def start_game(self, record: GameRecord, resumes: int | None = None) -> int:
        """Store a game that begins now and return its id.

        The row is in progress whatever ``record`` says of its end: status, mode, color and
        ended None, score ``*``. The record's moves (a resumed game's, say) are kept. With
        ``resumes``, the adjourned game of that id is marked resumed in the same
        transaction (:meth:`resume_done`): both happen or neither.
        """
        now = datetime.now(UTC)
        with self._begin() as conn:
            hold(conn, self.fence)
            game_id = conn.scalar(
                insert(games)
                .values(
                    white=record.white,
                    white_key=name_key(record.white),
                    black=record.black,
                    black_key=name_key(record.black),
                    white_rating=record.white_rating,
                    black_rating=record.black_rating,
                    wild=record.wild,
                    variant=record.variant,
                    rating_type=record.rating_type,
                    rated=record.rated,
                    initial=record.initial,
                    increment=record.increment,
                    black_initial=record.black_initial,
                    black_increment=record.black_increment,
                    start_fen=record.start_fen,
                    moves=_join_moves(record.moves),
                    clocks=_join_ints(record.clocks),
                    times=_join_ints(record.times),
                    status=None,
                    mode=None,
                    color=None,
                    score="*",
                    eco=record.eco,
                    white_clock=record.white_clock,
                    black_clock=record.black_clock,
                    started=record.started,
                    updated=now,
                    ended=None,
                    resumed=None,
                    private=record.private,
                    event=record.event or None,
                )
                .returning(games.c.id)
            )
            if resumes is not None:
                self._resume_done(conn, resumes, now)
        if game_id is None:
            raise RuntimeError("game_id is None")
        return int(game_id)

    def save_progress(
        self,
        game_id: int,
        moves: Sequence[str],
        clocks: Sequence[int],
        times: Sequence[int],
        white_clock: int,
        black_clock: int,
    ) -> None:
        """Save the moves so far of a game in progress (after every move: it survives a crash).

        Raises :class:`UnknownGame` when there is no game ``game_id``.
        """
        texts = _join_moves(moves), _join_ints(clocks), _join_ints(times)
        progress = Progress(game_id, *texts, white_clock, black_clock)
        if self.save_progress_many([progress]):
            raise UnknownGame(game_id)

    def save_progress_many(self, saves: Sequence[Progress]) -> list[int]:
        """Save the progress of several games in one transaction (the write queue gathers
        the saves that wait together); the ids of games that do not exist are returned and
        the others saved. A game no longer in progress is left as it is: a save made again
        after a crash (the write journal) never undoes its end. One statement, executed
        once for all of them."""
        if not saves:
            return []
        now = datetime.now(UTC)
        rows = [
            {
                "p_id": save.game_id,
                "p_moves": save.moves,
                "p_clocks": save.clocks,
                "p_times": save.times,
                "p_white_clock": save.white_clock,
                "p_black_clock": save.black_clock,
                "p_updated": now,
            }
            for save in saves
        ]
        with self._begin() as conn:
            hold(conn, self.fence)
            result = conn.execute(_SAVE_PROGRESS, rows)
            if conn.dialect.supports_sane_multi_rowcount and result.rowcount == len(rows):
                return []
            ids = [save.game_id for save in saves]
            found = set(conn.scalars(select(games.c.id).where(games.c.id.in_(ids))))
        return [game_id for game_id in ids if game_id not in found]

    def seat_players(
        self, game_id: int, white: str, black: str, white_rating: int, black_rating: int
    ) -> None:
        """Who plays which colour in game ``game_id`` (after ``switch``, FICS help
        ``switch``); setting the same again changes nothing.

        Raises :class:`UnknownGame` when there is no game ``game_id``.
        """
        values = {
            "white": white,
            "white_key": name_key(white),
            "black": black,
            "black_key": name_key(black),
            "white_rating": white_rating,
            "black_rating": black_rating,
            "updated": datetime.now(UTC),
        }
        with self._begin() as conn:
            hold(conn, self.fence)
            result = conn.execute(update(games).where(games.c.id == game_id).values(values))
            if result.rowcount == 0:
                raise UnknownGame(game_id)

    def finish_game(
        self,
        game_id: int,
        status: int,
        mode: int,
        color: int | None,
        score: str,
        eco: str,
        white_clock: int,
        black_clock: int,
        *,
        final: GameRecord | None = None,
        rate: bool = False,
    ) -> tuple[RatingChange, ...]:
        """Record how game ``game_id`` ended (or was adjourned, status 2); ended is now.

        ``final`` gives the moves, clocks and times to store with the end (the game's last
        progress need not have been saved). With ``rate``, a win or a draw between two
        registered players also updates both players' ratings of the game's rating type
        (Glicko-2, from the ratings stored when this runs); the result and the ratings are
        one transaction. Returns the rating changes, White's first (none when unrated).

        A game that has already ended is left as it is, and nothing is rated again: a call
        made again after the database lost its answer (it did commit) changes nothing.
        Raises :class:`UnknownGame` when there is no game ``game_id``.
        """
        now = datetime.now(UTC)
        values: dict[str, Any] = {
            "status": status,
            "mode": mode,
            "color": color,
            "score": score,
            "eco": eco,
            "white_clock": white_clock,
            "black_clock": black_clock,
            "updated": now,
            "ended": now,
        }
        if final is not None:
            values["moves"] = _join_moves(final.moves)
            values["clocks"] = _join_ints(final.clocks)
            values["times"] = _join_ints(final.times)
        with self._begin() as conn:
            hold(conn, self.fence)
            row = conn.execute(
                select(games.c.status, games.c.white, games.c.black, games.c.rating_type)
                .where(games.c.id == game_id)
                .with_for_update()
            ).one_or_none()
            if row is None:
                raise UnknownGame(game_id)
            if row.status is not None:
                return ()
            conn.execute(update(games).where(games.c.id == game_id).values(values))
            if not rate or status not in (ResultStatus.WIN, ResultStatus.DRAW):
                return ()
            white_score = 0.5 if status == ResultStatus.DRAW else float(color == 0)
            return rate_game(conn, str(row.white), str(row.black), row.rating_type, white_score)

    def game(self, game_id: int) -> GameRecord | None:
        """The game ``game_id`` as stored, or None."""
        with self._begin() as conn:
            row = conn.execute(select(games).where(games.c.id == game_id)).one_or_none()
        return None if row is None else game_record(row)

    def history(self, name: str, limit: int = 10) -> list[GameRecord]:
        """The last ``limit`` finished games of ``name`` (won or drawn), newest last.

        Adjourned games are not history (see :meth:`adjourned`), nor are aborted ones
        (FICS's history lists neither).
        """
        key = name_key(name)
        query = (
            select(games)
            .where(
                or_(games.c.white_key == key, games.c.black_key == key),
                games.c.status.in_(_FINISHED),
            )
            .order_by(games.c.ended.desc(), games.c.id.desc())
            .limit(limit)
        )
        with self._begin() as conn:
            rows = conn.execute(query).all()
        return [game_record(row) for row in reversed(rows)]

    def finished_count(self, name: str) -> int:
        """How many games ``name`` finished (won or drawn: what :meth:`history` lists):
        FICS numbers a player's history by it (lasker's per-player counter, 0 to 99)."""
        key = name_key(name)
        query = select(func.count()).where(
            or_(games.c.white_key == key, games.c.black_key == key),
            games.c.status.in_(_FINISHED),
        )
        with self._begin() as conn:
            return int(conn.execute(query).scalar_one())

    def recent(self, limit: int = 10, private: bool = True, player: str = "") -> list[GameRecord]:
        """The last ``limit`` games finished on the server (won or drawn), newest last
        (``lhistory``); without ``private``, none made private but those ``player``
        played."""
        where: list[ColumnElement[bool]] = [games.c.status.in_(_FINISHED)]
        if not private:
            key = name_key(player)
            where.append(
                or_(
                    games.c.private.is_not(True),
                    games.c.white_key == key,
                    games.c.black_key == key,
                )
            )
        query = (
            select(games)
            .where(*where)
            .order_by(games.c.ended.desc(), games.c.id.desc())
            .limit(limit)
        )
        with self._begin() as conn:
            rows = conn.execute(query).all()
        return [game_record(row) for row in reversed(rows)]

    def between(self, one: str, other: str) -> list[GameRecord]:
        """The finished games (won or drawn) of ``one`` and ``other`` against each other,
        oldest first: their record (DG_PSTAT, ``pstat``)."""
        a, b = name_key(one), name_key(other)
        query = (
            select(games)
            .where(
                or_(
                    (games.c.white_key == a) & (games.c.black_key == b),
                    (games.c.white_key == b) & (games.c.black_key == a),
                ),
                games.c.status.in_(_FINISHED),
            )
            .order_by(games.c.ended, games.c.id)
        )
        with self._begin() as conn:
            rows = conn.execute(query).all()
        return [game_record(row) for row in rows]

    def adjourned(self, name: str) -> list[GameRecord]:
        """The adjourned games of ``name`` not resumed yet, oldest first."""
        key = name_key(name)
        query = (
            select(games)
            .where(
                or_(games.c.white_key == key, games.c.black_key == key),
                games.c.status == ResultStatus.ADJOURNED,
                games.c.resumed.is_(None),
            )
            .order_by(games.c.id)
        )
        with self._begin() as conn:
            rows = conn.execute(query).all()
        return [game_record(row) for row in rows]

    def interrupted_to_adjourned(self, ids: Collection[int] | None = None) -> int:
        """Adjourn every game left in progress by a crash or a stop (only the games
        ``ids``, when given: those of a cluster's node that died); how many there were.

        For the server's start: such a game gets status 2, mode 2 ("adjourned by system
        shutdown"), color 0, score ``*``, and ended at the last time it was saved. A
        bughouse board (wild 24) cannot go on without its partner board: it is aborted
        instead (status 3, mode 2, "aborted by system shutdown").
        """
        with self._begin() as conn:
            hold(conn, self.fence)
            return _adjourn(conn, ids)

    def declare_dead(self, node: str, epoch: int, ids: Collection[int]) -> int:
        """Node ``node`` of a cluster, last known at ``epoch``, is dead: in one transaction
        its epoch is taken (its later writes are refused, :mod:`.fencing`) and its games
        ``ids`` still in progress are adjourned as :meth:`interrupted_to_adjourned` does;
        how many were. Made under this node's own fence: a node declared dead itself
        declares nobody dead. A node that joined again since (another epoch) keeps it."""
        with self._begin() as conn:
            hold(conn, self.fence)
            conn.execute(
                update(nodes)
                .where(nodes.c.name == node, nodes.c.epoch == epoch)
                .values(epoch=epoch + 1)
            )
            return _adjourn(conn, ids) if ids else 0

    def resume_done(self, game_id: int) -> None:
        """Mark the adjourned game ``game_id`` as resumed: :meth:`adjourned` lists it no more.

        The row is kept, unchanged but for its ``resumed`` time, so :meth:`game` still finds
        it: the game goes on as a new game (:meth:`start_game` with its moves so far, which
        does this too with ``resumes``). No-op for a game that is not adjourned.
        """
        with self._begin() as conn:
            self._resume_done(conn, game_id, datetime.now(UTC))

    def settle_adjourned(
        self, game_id: int, status: int, mode: int, color: int | None, score: str
    ) -> tuple[RatingChange, ...] | None:
        """End the adjourned game ``game_id`` without playing it on: an adjudication (an
        administrator's ``adjudicate``) or what its players agreed while it was adjourned
        (``resignadj``, ``drawadj``, ``abortadj``). A rated win or draw between registered
        players is rated as a played one is. Returns the rating changes (White's first;
        none when unrated), or None when the game is not adjourned (any more): then
        nothing changes, so a second call is harmless."""
        now = datetime.now(UTC)
        with self._begin() as conn:
            hold(conn, self.fence)
            row = conn.execute(
                select(
                    games.c.status,
                    games.c.resumed,
                    games.c.white,
                    games.c.black,
                    games.c.rating_type,
                    games.c.rated,
                )
                .where(games.c.id == game_id)
                .with_for_update()
            ).one_or_none()
            if row is None or row.status != ResultStatus.ADJOURNED or row.resumed is not None:
                return None
            values = {"status": status, "mode": mode, "color": color, "score": score}
            conn.execute(
                update(games).where(games.c.id == game_id).values(**values, updated=now, ended=now)
            )
            if not row.rated or status not in (ResultStatus.WIN, ResultStatus.DRAW):
                return ()
            white_score = 0.5 if status == ResultStatus.DRAW else float(color == 0)
            return rate_game(conn, str(row.white), str(row.black), row.rating_type, white_score)

    @staticmethod
    def _resume_done(conn: Connection, game_id: int, now: datetime) -> None:
        conn.execute(
            update(games)
            .where(
                games.c.id == game_id,
                games.c.status == ResultStatus.ADJOURNED,
                games.c.resumed.is_(None),
            )
            .values(resumed=now)
        )

    # -- journals ---------------------------------------------------------------------------

    def journal(self, name: str) -> list[tuple[str, GameRecord]]:
        """The games saved in the journal of ``name``: (slot letter, game), by slot."""
        with self._begin() as conn:
            rows = conn.execute(
                select(journal_games.c.slot, games)
                .select_from(
                    journal_games.join(users, users.c.id == journal_games.c.user_id).join(
                        games, games.c.id == journal_games.c.game_id
                    )
                )
                .where(users.c.name_key == name_key(name))
                .order_by(journal_games.c.slot)
            ).all()
        return [(str(row.slot), game_record(row)) for row in rows]

    def journal_save(self, name: str, slot: str, game_id: int) -> None:
        """Put the stored game ``game_id`` in journal slot ``slot`` (a-z) of ``name``,
        replacing what the slot held."""
        if len(slot) != 1 or not "a" <= slot <= "z":
            raise ValueError(f"a journal slot is a letter a-z, not {slot!r}")
        with self._begin() as conn:
            uid = user_id(conn, name)
            where = (journal_games.c.user_id == uid, journal_games.c.slot == slot)
            changed = update(journal_games).where(*where).values(game_id=game_id, note=None)
            result = conn.execute(changed)
            if result.rowcount == 0:
                conn.execute(insert(journal_games).values(user_id=uid, slot=slot, game_id=game_id))

    def journal_notes(self, name: str) -> dict[str, str]:
        """The notes (``libannotate``) on the journal entries of ``name``, by slot."""
        with self._begin() as conn:
            rows = conn.execute(
                select(journal_games.c.slot, journal_games.c.note)
                .select_from(journal_games.join(users, users.c.id == journal_games.c.user_id))
                .where(users.c.name_key == name_key(name), journal_games.c.note.is_not(None))
            ).all()
        return {str(row.slot): str(row.note) for row in rows}

    def journal_annotate(self, name: str, slot: str, note: str | None) -> bool:
        """Put ``note`` on journal slot ``slot`` of ``name`` (None: take it off); False
        when the slot holds no game."""
        with self._begin() as conn:
            uid = user_id(conn, name)
            result = conn.execute(
                update(journal_games)
                .where(journal_games.c.user_id == uid, journal_games.c.slot == slot)
                .values(note=note)
            )
            return result.rowcount > 0

    def journal_kill(self, name: str, slot: str) -> bool:
        """Empty journal slot ``slot`` of ``name``; False when it held nothing."""
        with self._begin() as conn:
            uid = user_id(conn, name)
            result = conn.execute(
                delete(journal_games).where(
                    journal_games.c.user_id == uid, journal_games.c.slot == slot
                )
            )
            return result.rowcount > 0


def _adjourn(conn: Connection, ids: Collection[int] | None) -> int:
    """:meth:`Games.interrupted_to_adjourned`'s updates, in ``conn``'s transaction."""
    in_progress: Any = games.c.status.is_(None)
    if ids is not None:
        in_progress = in_progress & games.c.id.in_(list(ids))
    aborted = conn.execute(
        update(games)
        .where(in_progress, games.c.wild == BUGHOUSE_WILD)
        .values(
            status=ResultStatus.ABORTED,
            mode=AbortMode.SHUTDOWN,
            color=0,
            score="*",
            ended=games.c.updated,
        )
    )
    result = conn.execute(
        update(games)
        .where(in_progress)
        .values(
            status=ResultStatus.ADJOURNED,
            mode=ADJOURNED_BY_SHUTDOWN,
            color=0,
            score="*",
            ended=games.c.updated,
        )
    )
    return int(aborted.rowcount) + int(result.rowcount)


def _join_moves(moves: Sequence[str]) -> str:
    """The moves separated by blanks; each must be one word (checked on the joined text:
    it splits back into the very moves exactly when each is one non-empty word)."""
    text = " ".join(moves)
    if text.split() != list(moves):
        for move in moves:
            if not move or move.split() != [move]:
                raise ValueError(f"a move must be one word, not {move!r}")
    return text


def _join_ints(values: Sequence[int]) -> str:
    return " ".join(map(str, map(int, values)))


def game_record(row: Row[*tuple[Any, ...]]) -> GameRecord:
    """A row of the games table as a :class:`GameRecord`."""
    return GameRecord(
        id=int(row.id),
        white=str(row.white),
        black=str(row.black),
        white_rating=int(row.white_rating),
        black_rating=int(row.black_rating),
        wild=int(row.wild),
        variant=None if row.variant is None else str(row.variant),
        rating_type=str(row.rating_type),
        rated=bool(row.rated),
        initial=int(row.initial),
        increment=int(row.increment),
        start_fen=None if row.start_fen is None else str(row.start_fen),
        moves=tuple(str(row.moves).split()),
        clocks=tuple(int(value) for value in str(row.clocks).split()),
        times=tuple(int(value) for value in str(row.times).split()),
        status=None if row.status is None else int(row.status),
        mode=None if row.mode is None else int(row.mode),
        color=None if row.color is None else int(row.color),
        score=str(row.score),
        eco=str(row.eco),
        white_clock=int(row.white_clock),
        black_clock=int(row.black_clock),
        started=row.started,
        ended=row.ended,
        private=bool(row.private),
        event=str(row.event or ""),
        black_initial=None if row.black_initial is None else int(row.black_initial),
        black_increment=None if row.black_increment is None else int(row.black_increment),
    )
