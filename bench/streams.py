"""Deterministic, realistic server-to-client streams, made only with icswire's encoders.

:func:`make_stream` gives a long mixed stream for benchmarks: several concurrent games
sending DG_SEND_MOVES (with DGs 33-36 on) and DG_MSEC, FICS style 12 lines (with
``clock_ticking`` and ``lag``), tells with ``^Y{...^Y}`` strings, DG_LIST and
DG_GAME_STARTED, level 1 units around some of it, and ``\\r\\n`` text lines and
``fics% `` prompts. :func:`make_session` gives a small stream shaped like one session
(``python bench/streams.py`` writes it to ``examples/session.bin``).

Moves are not legal chess, but they look like it: a piece of the side to move goes where
its kind can go on a board that changes move by move, so SAN (``Nf3``, ``exd5``, ``O-O``),
SMITH (``g1f3``, ``e4d5p``, ``e1g1c``) and style 12 boards agree with each other.
Everything comes from one seeded :class:`random.Random`: the same seed, the same bytes.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Iterator
from pathlib import Path

from icswire.protocol import datagrams as dg
from icswire.protocol.bughouse import Bughouse
from icswire.protocol.encoder import encode_event, encode_unit_start
from icswire.protocol.events import BughouseLine, Prompt, Style12Line, Text, UnitEnd
from icswire.protocol.level1 import CommandNumber as CN
from icswire.protocol.style12 import Style12

#: The DGs the receiver of :func:`make_stream` has on (give them to ``Decoder``).
DATAGRAMS: tuple[int, ...] = (0, 12, 15, 24, 28, 31, 33, 34, 35, 36, 56, 96)
#: The DGs the receiver of :func:`make_session` has on (the Makefile's ``make run`` list).
SESSION_DATAGRAMS: tuple[int, ...] = (0, 24, 25, 28, 31, 33, 34, 35, 36, 56)

CRLF = "\r\n"
FICS_PROMPT = "fics% "

NAMES = (
    "fred", "joe", "Mlotek", "GriffySr", "pchesso", "Kasparovich", "TheBishop", "zugzwang",
    "mgatto", "Thegermain", "milecker", "jamofr", "Lasker77", "ChessNut", "knightrider",
    "e4e5fan", "Sicilian_D", "BlitzBot", "Capablanca_", "queenside", "HoxtonRook",
    "Pawnstorm", "Tal-fan", "nimzo", "DragonSlayer", "ZeitnotZ", "endgamer", "fischer60",
)  # fmt: skip
TITLES = ("", "", "", "", "", "", "GM", "IM", "FM", "C", "TD", "H", "*", "DM", "GM TD")
CHANNEL_TOPICS = (1, 2, 4, 24, 46, 50, 53, 69, 97, 100, 165, 250)
TELLS = (
    "hi",
    "gg",
    "good game {again}",
    "thanks :) want a rematch?",
    "try {e4 e5 Nf3 Nc6 Bb5} -- the Ruy Lopez",
    "anyone up for a 5 0?",
    "lag is terrible tonight {sigh}",
    "did you see game {Carlsen vs. Nepo}, move 31?",
    "{set-2 24 1} turns on DG_SEND_MOVES",
    "my rating went {1500 -> 1612} this week",
    "nice sac on f7!",
    "the engine says +1.3 {depth 22}",
    "brb, dinner",
    "what time control {3 0} or {5 2}?",
    "{}{}{} empty braces are fine",
    "who is playing in the {Friday blitz} tonight?",
)
SHOUTS = (
    "{} shouts: anyone for bughouse?",
    "{} shouts: looking for a 15 0 rated game",
    "{} (TD) shouts: the Sunday arena starts in 10 minutes",
    "{} c-shouts: gg all",
)
LIST_HEADERS = ("censor", "notify", "noplay", "channel", "gnotify", "computer")
RATING_TYPES = ("Bullet", "Blitz", "Blitz", "Blitz", "Standard", "5-minute", "1-minute")
TIME_CONTROLS = ((1, 0), (2, 1), (3, 0), (3, 2), (5, 0), (5, 3), (15, 0), (45, 45))
RESULTS = (
    ("{} resigns", "1-0", "0-1"),
    ("{} forfeits on time", "1-0", "0-1"),
    ("{} checkmated", "1-0", "0-1"),
)

FILES = "abcdefgh"
START = ("rnbqkbnr", "pppppppp", "--------", "--------", "--------", "--------", "PPPPPPPP",
         "RNBQKBNR")  # fmt: skip
KNIGHT = ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2))
KING = ((1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1))
ROOK = ((1, 0), (-1, 0), (0, 1), (0, -1))
BISHOP = ((1, 1), (1, -1), (-1, 1), (-1, -1))


def square(row: int, col: int) -> str:
    """``(0, 0)`` is a8 (style 12 lists rank 8 first), ``(7, 7)`` is h1."""
    return f"{FILES[col]}{8 - row}"


class Move:
    """One pseudo-move and every notation the streams need for it."""

    __slots__ = ("san", "smith", "verbose")

    def __init__(self, san: str, smith: str, verbose: str) -> None:
        self.san = san  # DG_MOVE_ALGEBRAIC and style 12's pretty move
        self.smith = smith
        self.verbose = verbose  # style 12's verbose move: N/g1-f3, o-o


class Game:
    """A game in progress: a board that changes move by move, and two running clocks."""

    def __init__(self, rng: random.Random, number: int, white: str, black: str) -> None:
        self.rng = rng
        self.number = number
        self.white = white
        self.black = black
        self.white_rating = rng.randint(900, 2700)
        self.black_rating = max(800, self.white_rating + rng.randint(-250, 250))
        self.rating_type = rng.choice(RATING_TYPES)
        self.initial, self.increment = rng.choice(TIME_CONTROLS)
        self.game_id = 1_700_000_000 + rng.randrange(10_000_000)
        self.white_titles = rng.choice(TITLES)
        self.black_titles = rng.choice(TITLES)
        self.rated = rng.random() < 0.7
        self.board = [list(rank) for rank in START]
        self.side = "W"
        self.move_number = 1
        self.halfmove = 0
        self.double_push = -1
        self.castle = {"K": True, "Q": True, "k": True, "q": True}
        self.msec = {"W": self.initial * 60_000, "B": self.initial * 60_000}
        self.last: Move | None = None
        self.last_ms = 0
        self.plies = 0
        self.length = rng.randint(30, 140)  # plies until the game ends
        self.fics = False  # observed through style 12 lines as well as datagrams

    # -- the board -------------------------------------------------------------------

    def _own(self, piece: str) -> bool:
        return piece != "-" and piece.isupper() == (self.side == "W")

    def _targets(self, row: int, col: int, piece: str) -> Iterator[tuple[int, int]]:
        kind = piece.upper()
        board = self.board
        if kind == "P":
            step = -1 if piece == "P" else 1
            r = row + step
            if 0 <= r < 8:
                if board[r][col] == "-":
                    yield r, col
                    home = 6 if piece == "P" else 1
                    if row == home and board[r + step][col] == "-":
                        yield r + step, col
                for c in (col - 1, col + 1):
                    if 0 <= c < 8 and board[r][c] != "-" and not self._own(board[r][c]):
                        yield r, c
            return
        if kind in "NK":
            for dr, dc in KNIGHT if kind == "N" else KING:
                r, c = row + dr, col + dc
                if 0 <= r < 8 and 0 <= c < 8 and not self._own(board[r][c]):
                    yield r, c
            return
        rays = ROOK if kind == "R" else BISHOP if kind == "B" else ROOK + BISHOP
        for dr, dc in rays:
            r, c = row + dr, col + dc
            while 0 <= r < 8 and 0 <= c < 8:
                if board[r][c] != "-":
                    if not self._own(board[r][c]):
                        yield r, c
                    break
                yield r, c
                r, c = r + dr, c + dc

    def _castling(self) -> list[Move]:
        row = 7 if self.side == "W" else 0
        rank = self.board[row]
        king, rook = ("K", "R") if self.side == "W" else ("k", "r")
        short, long = ("K", "Q") if self.side == "W" else ("k", "q")
        out: list[Move] = []
        if rank[4] != king:
            return out
        if self.castle[short] and rank[7] == rook and rank[5] == rank[6] == "-":
            out.append(Move("O-O", f"e{8 - row}g{8 - row}c", "o-o"))
        if self.castle[long] and rank[0] == rook and rank[1] == rank[2] == rank[3] == "-":
            out.append(Move("O-O-O", f"e{8 - row}c{8 - row}C", "o-o-o"))
        return out

    def play(self) -> Move | None:
        """Make a pseudo-move for the side to move; None when it has none (game over)."""
        rng = self.rng
        board = self.board
        moves: list[tuple[int, int, int, int]] = []
        for row in range(8):
            for col in range(8):
                piece = board[row][col]
                if self._own(piece):
                    for r, c in self._targets(row, col, piece):
                        if board[r][c].upper() != "K":  # never take a king
                            moves.append((row, col, r, c))
        castles = self._castling()
        if castles and rng.random() < 0.5:
            return self._castle(rng.choice(castles))
        if not moves:
            return None
        # Captures and development come up more often than random shuffling.
        captures = [m for m in moves if board[m[2]][m[3]] != "-"]
        pick = rng.choice(captures if captures and rng.random() < 0.35 else moves)
        return self._apply(*pick)

    def _apply(self, row: int, col: int, r: int, c: int) -> Move:
        board = self.board
        rng = self.rng
        piece = board[row][col]
        taken = board[r][c]
        kind = piece.upper()
        frm, to = square(row, col), square(r, c)
        promote = ""
        if kind == "P" and r in (0, 7):
            promote = rng.choice("QQQQQNRB")
        capture = "x" if taken != "-" else ""
        check = "+" if self.plies > 4 and rng.random() < 0.08 else ""
        if kind == "P":
            san = f"{frm[0]}{capture}{to}" if capture else to
        else:
            san = f"{kind}{capture}{to}"
        if promote:
            san += "=" + promote
        san += check
        smith = frm + to + taken.lower().replace("-", "") + promote
        verbose = f"{kind}/{frm}-{to}" + (f"={promote}" if promote else "")
        board[row][col] = "-"
        board[r][c] = (promote if piece.isupper() else promote.lower()) if promote else piece
        self.double_push = col if kind == "P" and abs(r - row) == 2 else -1
        self.halfmove = 0 if kind == "P" or taken != "-" else self.halfmove + 1
        if kind == "K":
            for right in "KQ" if piece == "K" else "kq":
                self.castle[right] = False
        for right, (rr, cc) in (("K", (7, 7)), ("Q", (7, 0)), ("k", (0, 7)), ("q", (0, 0))):
            if (row, col) == (rr, cc) or (r, c) == (rr, cc):
                self.castle[right] = False
        return self._moved(Move(san, smith, verbose))

    def _castle(self, move: Move) -> Move:
        row = 7 if self.side == "W" else 0
        rank = self.board[row]
        king, rook = rank[4], rank[7 if move.verbose == "o-o" else 0]
        if move.verbose == "o-o":
            rank[4], rank[5], rank[6], rank[7] = "-", rook, king, "-"
        else:
            rank[0], rank[2], rank[3], rank[4] = "-", king, rook, "-"
        for right in "KQ" if self.side == "W" else "kq":
            self.castle[right] = False
        self.double_push = -1
        self.halfmove += 1
        return self._moved(move)

    def _moved(self, move: Move) -> Move:
        """Charge the mover's clock, add the increment and hand the move over."""
        rng = self.rng
        spent = int(rng.expovariate(1 / (700 * self.initial + 300)))
        self.msec[self.side] += self.increment * 1000 - spent
        self.last, self.last_ms = move, spent
        if self.side == "B":
            self.move_number += 1
        self.side = "B" if self.side == "W" else "W"
        self.plies += 1
        return move

    @property
    def over(self) -> bool:
        return self.plies >= self.length or min(self.msec.values()) < 0

    # -- what the server sends -------------------------------------------------------

    def started(self, record: type[dg.DatagramRecord] = dg.GameStarted) -> dg.DatagramRecord:
        """DG_GAME_STARTED (12) or DG_MY_GAME_STARTED (15) for this game."""
        return record(
            self.number, self.white, self.black, 0, self.rating_type, self.rated,
            self.initial, self.increment, self.initial, self.increment, True, "",
            self.white_rating, self.black_rating, self.game_id,
            self.white_titles, self.black_titles, False, False, False, "", False,
        )  # fmt: skip

    def move_datagrams(self, move: Move) -> list[dg.DatagramRecord]:
        """DG_SEND_MOVES with all four parts on, then DG_MSEC for both clocks."""
        mover = "B" if self.side == "W" else "W"
        clock = self.msec[mover]
        return [
            dg.SendMoves(self.number, move.san, move.smith, self.last_ms // 1000, clock // 1000),
            dg.Msec(self.number, mover, clock, False),
            dg.Msec(self.number, self.side, self.msec[self.side], True),
        ]

    def style12(self, relation: int = 0, lag: int | None = None) -> Style12:
        """The board as a FICS style 12 line (ms on: clocks in ms, ``(m:ss.mmm)``)."""
        last = self.last
        return Style12(
            ranks=tuple("".join(rank) for rank in self.board),
            side_to_move=self.side,
            double_push_file=self.double_push,
            white_castle_short=self.castle["K"],
            white_castle_long=self.castle["Q"],
            black_castle_short=self.castle["k"],
            black_castle_long=self.castle["q"],
            halfmove_clock=self.halfmove,
            game_number=self.number,
            white_name=self.white,
            black_name=self.black,
            relation=relation,
            initial_time=self.initial,
            increment=self.increment,
            white_strength=self._material("PNBRQ"),
            black_strength=self._material("pnbrq"),
            white_time=self.msec["W"],
            black_time=self.msec["B"],
            move_number=self.move_number,
            verbose_move=last.verbose if last else "none",
            move_time_ms=self.last_ms,
            move_time_precise=True,
            pretty_move=last.san if last else "none",
            flip=False,
            clock_ticking=self.plies > 0,
            lag_ms=self.rng.choice((0, 0, 0, 12, 41, 97, 230)) if lag is None else lag,
        )

    def _material(self, letters: str) -> int:
        value = dict(zip(letters, (1, 3, 3, 5, 9), strict=True))
        return sum(value.get(piece, 0) for rank in self.board for piece in rank)

    def result_text(self) -> str:
        """FICS's end-of-game line, e.g. ``{Game 42 (fred vs. joe) joe resigns} 1-0``."""
        text, white_wins, black_wins = self.rng.choice(RESULTS)
        loser = self.rng.choice((self.white, self.black))
        score = black_wins if loser == self.white else white_wins
        what = text.format(loser)
        return f"{{Game {self.number} ({self.white} vs. {self.black}) {what}}} {score}"


def _pair(rng: random.Random) -> tuple[str, str]:
    white, black = rng.sample(NAMES, 2)
    return white, black


def _text(line: str, end: str = CRLF) -> bytes:
    return encode_event(Text(line, end))


class _Stream:
    """The generator's state: the games under way and the bytes so far."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.out: list[bytes] = []
        self.size = 0
        self.next_number = rng.randint(10, 400)
        self.games: list[Game] = []

    def emit(self, data: bytes) -> None:
        self.out.append(data)
        self.size += len(data)

    def emit_all(self, records: list[dg.DatagramRecord]) -> None:
        for record in records:
            self.emit(dg.encode_datagram(record))

    def new_game(self, white: str | None = None, black: str | None = None) -> Game:
        rng = self.rng
        if white is None or black is None:
            white, black = _pair(rng)
        game = Game(rng, self.next_number, white, black)
        game.fics = rng.random() < 0.35
        self.next_number += rng.randint(1, 9)
        self.games.append(game)
        return game

    def unit(self, command: int, issuer: str | None = None, tag: str | None = None) -> None:
        """Open a level 1 unit (close it with :meth:`end_unit`)."""
        self.emit(encode_unit_start(command, issuer or "*", tag, "\n"))

    def end_unit(self, depth: int = 1) -> None:
        self.emit(encode_event(UnitEnd(depth)))

    def prompt(self) -> None:
        self.emit(encode_event(Prompt(FICS_PROMPT)))

    # -- pieces of traffic -----------------------------------------------------------

    def move(self, game: Game) -> None:
        move = None if game.over else game.play()
        if move is None:
            self.finish(game)
            return
        style12 = game.fics or self.rng.random() < 0.08
        in_unit = self.rng.random() < 0.12
        if in_unit:
            self.unit(CN.SCN_MOVE, self.rng.choice((game.white, game.black)))
        self.emit_all(game.move_datagrams(move))
        if style12:
            self.emit(encode_event(Style12Line(game.style12(), CRLF)))
        if in_unit:
            self.end_unit()
        if style12 and self.rng.random() < 0.5:
            self.prompt()

    def finish(self, game: Game) -> None:
        self.emit(_text(game.result_text()))
        self.games.remove(game)
        started = self.new_game()
        self.emit_all([started.started()])

    def tell(self) -> None:
        rng = self.rng
        sender = rng.choice(NAMES)
        text = rng.choice(TELLS)
        if rng.random() < 0.3:
            text = f"{text} {rng.choice(TELLS)}"
        if rng.random() < 0.55:
            record: dg.DatagramRecord = dg.PersonalTell(sender, rng.choice(TITLES), text, 1)
            command = CN.CN_TELL
        else:
            channel = rng.choice(CHANNEL_TOPICS)
            record = dg.ChannelTell(channel, sender, rng.choice(TITLES), text, 1)
            command = CN.CN_CHANNELTELL
        wrap = rng.random() < 0.3
        if wrap:
            self.unit(command, sender)
        self.emit(dg.encode_datagram(record))
        if wrap:
            self.end_unit()

    def listing(self) -> None:
        rng = self.rng
        names = tuple(sorted(rng.sample(NAMES, rng.randint(0, 12)), key=str.lower))
        self.unit(CN.CN_PLUS if rng.random() < 0.5 else CN.CN_LIST, None)
        self.emit(dg.encode_datagram(dg.List(rng.choice(LIST_HEADERS), " ", names)))
        self.emit(_text(f"-- {len(names)} names --"))
        self.end_unit()

    def text(self) -> None:
        rng = self.rng
        roll = rng.random()
        name = rng.choice(NAMES)
        if roll < 0.3:
            line = rng.choice(SHOUTS).format(name)
        elif roll < 0.55:
            line = f"Notification: {name} has {rng.choice(('arrived', 'departed'))}."
        elif roll < 0.75 and self.games:
            game = rng.choice(self.games)
            line = (
                f"Game {game.number}: {game.white} ({game.white_rating}) "
                f"{game.black} ({game.black_rating}) rated {game.rating_type.lower()} "
                f"{game.initial} {game.increment}"
            )
        elif roll < 0.9:
            line = f"{name}({rng.randint(1, 255)}): {rng.choice(TELLS)}"
        else:
            line = ""
        self.emit(_text(line))
        if rng.random() < 0.4:
            self.prompt()

    def game_list(self) -> None:
        """A few DG_GAME_STARTED, as when DG 12 is turned on or a busy minute passes."""
        for _ in range(self.rng.randint(1, 3)):
            self.emit_all([Game(self.rng, self.rng.randint(1, 999), *_pair(self.rng)).started()])


def make_stream(size_bytes: int, seed: int = 1) -> bytes:
    """At least ``size_bytes`` bytes (a little more: the last frame is whole) of mixed
    traffic for a receiver with :data:`DATAGRAMS` on. Same seed, same bytes."""
    rng = random.Random(seed)
    s = _Stream(rng)
    for _ in range(8):
        s.new_game()
    while s.size < size_bytes:
        roll = rng.random()
        if roll < 0.70:
            s.move(rng.choice(s.games))
        elif roll < 0.82:
            s.tell()
        elif roll < 0.94:
            s.text()
        elif roll < 0.98:
            s.listing()
        else:
            s.game_list()
    return b"".join(s.out)


def make_session(seed: int = 7) -> bytes:
    """A small stream shaped like one session of ``fred``: login, level 1 units with
    command numbers, a game of his own, a tell, an observed bughouse board and a prompt.
    Decode it with :data:`SESSION_DATAGRAMS` on."""
    rng = random.Random(seed)
    s = _Stream(rng)
    for line in (
        "",
        "    Welcome to the Free Internet Chess Server",
        "    (icswire sample session)",
        "",
        'If you are not a registered player, enter the login name "guest".',
        "",
    ):
        s.emit(_text(line))
    s.emit(encode_event(Prompt("login: ")))
    s.emit(_text(""))
    s.emit(_text("**** Starting FICS session as fred ****"))
    s.emit(_text(""))
    s.emit(dg.encode_datagram(dg.WhoAmI("fred", "")))

    # Logging in: the news and events units, nested inside SCN_REALLY_LOG_IN.
    s.unit(CN.SCN_REALLY_LOG_IN, "$LoggingIn$")
    s.unit(CN.SCN_NEWS, "*")
    s.emit(_text("There are 2 new news items since your last login: 1203, 1204."))
    s.end_unit(2)
    s.unit(CN.SCN_EVENTS, "*")
    s.emit(_text("Friday blitz arena: join with 'tell ArenaBot join'."))
    s.end_unit(2)
    s.end_unit(1)

    # "finger joe", with a client tag echoed back.
    s.unit(CN.CN_FINGER, "*", "f1")
    s.emit(_text("Finger of joe:"))
    s.emit(_text(""))
    s.emit(_text("On for: 1 hr 12 mins   Idle: 0 secs"))
    s.emit(_text("          rating     RD      win    loss    draw   total   best"))
    s.emit(_text("Blitz      1612     52.1     210     188      31     429   1655"))
    s.end_unit()

    # A match with joe starts: DG_MY_GAME_STARTED inside the CN_MATCH unit.
    game = s.new_game("fred", "joe")
    game.initial, game.increment = 3, 0
    game.msec = {"W": 180_000, "B": 180_000}
    game.rating_type, game.rated = "Blitz", True
    game.white_rating, game.black_rating = 1550, 1612
    game.white_titles = game.black_titles = ""
    s.unit(CN.CN_MATCH, "*")
    s.emit(_text("Issuing: fred (1550) joe (1612) rated blitz 3 0."))
    s.emit_all([game.started(dg.MyGameStarted)])
    s.emit(_text("Creating: fred (1550) joe (1612) rated blitz 3 0"))
    s.emit(_text(f"{{Game {game.number} (fred vs. joe) Creating rated blitz match.}}"))
    s.emit_all(
        [dg.Msec(game.number, "W", 180_000, True), dg.Msec(game.number, "B", 180_000, False)]
    )
    s.emit(encode_event(Style12Line(game.style12(relation=1, lag=0), CRLF)))
    s.end_unit()

    for ply in range(8):
        move = game.play()
        if move is None:
            break
        mine = ply % 2 == 0
        s.unit(CN.SCN_MOVE, "*" if mine else "joe")
        s.emit_all(game.move_datagrams(move))
        s.emit(encode_event(Style12Line(game.style12(relation=-1 if mine else 1), CRLF)))
        s.end_unit()
        if ply == 3:
            s.unit(CN.CN_TELL, "joe")
            s.emit(dg.encode_datagram(dg.PersonalTell("joe", "", "gl {and have fun}", 1)))
            s.end_unit()
        if ply == 5:
            s.emit(dg.encode_datagram(dg.ChannelTell(50, "Mlotek", "IM", "anyone {5 0}?", 1)))

    # "tell joe thanks": the echo of fred's own command.
    s.unit(CN.CN_TELL, "*")
    s.emit(_text("(told joe)"))
    s.end_unit()

    # Observing a bughouse board: style 12 followed by its <b1> holdings line.
    bug = Game(rng, 88, "Pawnstorm", "nimzo")
    for _ in range(6):
        bug.play()
    s.unit(CN.CN_OBSERVE, "*")
    s.emit(_text(f"You are now observing game {bug.number}."))
    s.emit(encode_event(Style12Line(bug.style12(relation=0, lag=41), CRLF)))
    s.emit(encode_event(BughouseLine(Bughouse(bug.number, "PN", "BP"), CRLF)))
    s.end_unit()
    s.emit(encode_event(BughouseLine(Bughouse(bug.number, "PNQ", "BP", "W", "Q"), CRLF)))
    s.emit(_text(f"{{Game {game.number} (fred vs. joe) joe resigns}} 1-0"))
    s.prompt()
    return b"".join(s.out)


def main() -> None:
    path = Path(__file__).resolve().parent.parent / "examples" / "session.bin"
    path.parent.mkdir(exist_ok=True)
    data = make_session()
    path.write_bytes(data)
    sys.stdout.write(f"wrote {path} ({len(data)} bytes)\n")


if __name__ == "__main__":
    main()
