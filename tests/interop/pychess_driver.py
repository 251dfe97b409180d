#!/usr/bin/python3
"""Drive PyChess's own ICS code headless against a chess server; one JSON line per event.

Run it with the *system* Python, which has Debian's ``pychess`` (1.0.x) and its ``gi``
bindings; icswire's venv has neither::

    /usr/bin/python3 tests/interop/pychess_driver.py --port 5000 login
    /usr/bin/python3 tests/interop/pychess_driver.py --port 5000 --mode icc login
    /usr/bin/python3 tests/interop/pychess_driver.py --port 5000 seek-play
    /usr/bin/python3 tests/interop/pychess_driver.py --port 5000 '{"steps": [...]}'
    /usr/bin/python3 tests/interop/pychess_driver.py --port 5000 @scenario.json

Nothing here reimplements the protocol: each client is a ``FICSMainConnection`` (exactly
what PyChess's "Log on" dialog creates), actions go through the managers' own methods
(``glm.seek``, ``om.playIndex``, ``om.challenge``, ``om.acceptIndex``, ``bm.sendMove``,
``bm.observe``, ``cm.tellPlayer``, ``cm.tellChannel``, ``cm.tellAll``...), and what is
printed is what the managers and object lists recognised: their GObject signals, plus the
moves PyChess puts on ``FICSGame.move_queue`` (the queue its ``ICPlayer`` reads; nobody
else reads it here, so the driver does, and replays each move on a PyChess board the way
``ICPlayer.makeMove`` does with ``parseSAN``).

PyChess enters its ICC mode only when the host name is ``chessclub.com``; with
``--mode icc`` the driver connects to that name and resolves it, inside this process only
(``socket.getaddrinfo`` is wrapped), to ``--host``. No display is needed: PyChess runs on
an asyncio loop that pumps the default GLib main context every 10 ms, as ``/usr/games/pychess``
does; Gtk is imported (``pychess.ic`` imports it) but never initialised.

Output (stdout, one JSON object per line; anything PyChess prints goes to stderr):

``{"t": 0.41, "client": "a", "event": "connected", "username": "GuestAB", "ics": "FICS"}``

``event`` is a PyChess signal name (``addSeek``, ``playGameCreated``, ``privateMessage``,
``FICSPlayerEntered``...) with its arguments as fields, or one of the driver's own:
``move`` (an item of ``move_queue``), ``unmatched`` (a line no PyChess parser took; in ICC
mode a level 1 unit's text or a datagram without a handler), ``sent`` (a line PyChess wrote),
``recv`` (raw bytes read, with ``--trace``), ``eof`` (the server closed the connection),
``crash`` (PyChess raised), ``wait_failed`` / ``wait_timeout``, ``timeout`` and ``done``.

Scenario: ``{"clients": {"a": {"mode": "fics", "user": "guest"}, ...}, "steps": [...]}``.
A step is one of

- ``{"do": ACTION, "client": "a", ...}``: see :data:`ACTIONS`;
- ``{"wait": EVENT, "client": "a", "where": {FIELD: VALUE}, "save": {VAR: FIELD},
  "timeout": 10, "optional": false}``: the first event of that name (and client) since
  the last ``do`` whose fields equal ``where`` (a value ``"re:..."`` is a regular
  expression); ``save`` keeps fields for later steps as ``"$VAR"``. ``"$a"`` is the name
  client ``a`` logged in with. A failed wait ends the run (exit status 2) unless optional;
- ``{"sleep": SECONDS}``.

Clients log in one after the other before the first step, except those with
``"late": true``, which log in at a ``{"do": "connect", "client": KEY}`` step.
The run ends after the last step (plus ``--linger`` seconds for late events), at
``--timeout`` (exit status 3), or when a wait fails; the connections are closed and the
process exits with ``os._exit``, since PyChess's read loop spins forever once a server has
closed the connection.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import logging
import os
import re
import shutil
import signal
import socket
import sys
import tempfile
import threading
import time
import traceback
from typing import Any

#: The JSON stream: the real stdout. Everything else (PyChess prints) goes to stderr.
OUT: Any = None
START = time.monotonic()
EVENTS: list[dict[str, Any]] = []
TRACE = False
ICC_HOST = "chessclub.com"


def emit(client: str | None, event: str, **fields: Any) -> dict[str, Any]:
    record: dict[str, Any] = {"t": round(time.monotonic() - START, 3)}
    if client is not None:
        record["client"] = client
    record["event"] = event
    record.update(fields)
    EVENTS.append(record)
    OUT.write(json.dumps(record, default=repr) + "\n")
    OUT.flush()
    return record


#: A temporary home made by isolate_home(), removed at exit.
TEMP_HOME: list[str] = []


def hard_exit(code: int) -> None:
    try:
        OUT.flush()
        sys.stderr.flush()
        for path in TEMP_HOME:
            shutil.rmtree(path, ignore_errors=True)
    finally:
        os._exit(code)


# -- isolation: PyChess writes a config and logs under the user's directories ---------------


def isolate_home() -> None:
    if os.environ.get("PYCHESS_DRIVER_KEEP_HOME"):
        return
    base = tempfile.mkdtemp(prefix="pychess-driver-")
    TEMP_HOME.append(base)
    for var in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME"):
        os.environ[var] = os.path.join(base, var.lower())
        os.makedirs(os.environ[var], exist_ok=True)


def import_pychess() -> Any:
    """Import what we use; returns a namespace. Exit status 4 if PyChess is missing."""
    here = os.path.dirname(os.path.abspath(__file__))
    sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != here]  # tests/interop
    try:
        import gi

        gi.require_version("Gtk", "3.0")
        import pychess.ic
        import pychess.ic.FICSConnection
        import pychess.ic.FICSObjects as objects
        import pychess.Utils.Board
        import pychess.Utils.const
        import pychess.Utils.Move as moves
        import pychess.Utils.Offer
        from gi.repository import GLib
    except Exception as error:
        emit(None, "error", error=f"PyChess is not importable: {error!r}", python=sys.executable)
        hard_exit(4)
    return argparse.Namespace(
        GLib=GLib,
        ic=pychess.ic,
        fc=pychess.ic.FICSConnection,
        const=pychess.Utils.const,
        Board=pychess.Utils.Board.Board,
        Offer=pychess.Utils.Offer.Offer,
        FICSChallenge=objects.FICSChallenge,
        FICSGame=objects.FICSGame,
        FICSPlayer=objects.FICSPlayer,
        FICSSeek=objects.FICSSeek,
        parseAny=moves.parseAny,
        parseSAN=moves.parseSAN,
        toAN=moves.toAN,
    )


# -- making PyChess objects printable ---------------------------------------------------------


class Names:
    def __init__(self, const: Any) -> None:
        results = ("WAITING_TO_START", "PAUSED", "RUNNING", "DRAW", "WHITEWON", "BLACKWON")
        results += ("KILLED", "ADJOURNED", "ABORTED", "UNKNOWN_STATE", "ICC_ABORTED", "CANCELLED")
        self.result = {getattr(const, n): n for n in results}
        prefixes = ("WON_", "DRAW_", "ABORTED_", "ADJOURNED_")
        self.reason = {
            getattr(const, n): n
            for n in dir(const)
            if n.startswith(prefixes) and isinstance(getattr(const, n), int)
        }
        self.reason[const.UNKNOWN_REASON] = "UNKNOWN_REASON"
        self.repr_result = const.reprResult


def jsonable(value: Any, py: Any, names: Names) -> Any:
    if value is None or isinstance(value, str | int | float | bool):
        return value
    if isinstance(value, list | tuple | set):
        return [jsonable(v, py, names) for v in value]
    if isinstance(value, py.FICSPlayer):
        ratings = {str(i): r for i, r in enumerate(value.ratings) if r}
        return {"name": value.name, "online": value.online, "status": value.status} | (
            {"ratings": ratings} if ratings else {}
        )
    if isinstance(value, py.FICSGame):
        out: dict[str, Any] = {
            "gameno": value.gameno,
            "white": value.wplayer.name,
            "black": value.bplayer.name,
            "rated": value.rated,
            "game_type": getattr(value.game_type, "fics_name", None),
            "minutes": value.minutes,
            "inc": value.inc,
            "relation": getattr(value, "relation", None),
        }
        if value.result is not None:
            out["result"] = names.repr_result[value.result]
            out["result_state"] = names.result.get(value.result, value.result)
        if value.reason is not None:
            out["reason"] = names.reason.get(value.reason, value.reason)
        board = getattr(value, "board", None)
        if board is not None:
            out["board"] = {"wms": board.wms, "bms": board.bms, "fen": board.fen, "pgn": board.pgn}
        return out
    if isinstance(value, py.FICSChallenge | py.FICSSeek):
        out = {
            "index": value.index,
            "player": value.player.name,
            "minutes": value.minutes,
            "inc": value.inc,
            "rated": value.rated,
            "color": value.color,
            "game_type": getattr(value.game_type, "fics_name", None),
        }
        for attr in ("rmin", "rmax", "automatic", "adjourned"):
            if hasattr(value, attr):
                out[attr] = getattr(value, attr)
        return out
    if isinstance(value, py.Offer):
        return {"type": value.type, "index": value.index, "param": value.param}
    return repr(value)


# -- the managers' signals, and what each argument is called ---------------------------------

SIGNALS: dict[str, dict[str, tuple[str, ...]]] = {
    "glm": {  # SeekManager / ICCSeekManager
        "addSeek": ("seek",),
        "removeSeek": ("index",),
        "clearSeeks": (),
        "our_seeks_removed": (),
        "seek_updated": ("text",),
        "assessReceived": ("assess",),
    },
    "bm": {  # BoardManager / ICCBoardManager
        "playGameCreated": ("game",),
        "obsGameCreated": ("game",),
        "exGameCreated": ("game",),
        "exGameReset": ("game",),
        "gameUndoing": ("gameno", "plies"),
        "archiveGamePreview": ("game",),
        "boardSetup": ("gameno", "fen", "white", "black"),
        "timesUpdate": ("gameno", "wms", "bms"),
        "obsGameEnded": ("game",),
        "curGameEnded": ("game",),
        "obsGameUnobserved": ("game",),
        "madeExamined": ("gameno",),
        "madeUnExamined": ("gameno",),
        "gamePaused": ("gameno", "paused"),
        "tooManySeeks": (),
        "nonoWhileExamine": (),
        "matchDeclined": ("player",),
        "player_on_censor": ("player",),
        "player_on_noplay": ("player",),
        "player_lagged": ("player",),
        "opp_not_out_of_time": (),
        "req_not_fit_formula": ("player", "formula"),
    },
    "cm": {  # ChatManager / ICCChatManager
        "channelMessage": ("name", "isadmin", "isme", "channel", "text"),
        "kibitzMessage": ("name", "gameno", "text"),
        "whisperMessage": ("name", "gameno", "text"),
        "privateMessage": ("name", "title", "isadmin", "text"),
        "bughouseMessage": ("name", "text"),
        "announcement": ("text",),
        "arrivalNotification": ("player",),
        "departedNotification": ("player",),
        "channelAdd": ("channel",),
        "channelRemove": ("channel",),
        "channelJoinError": ("who", "channel"),
        "channelsListed": ("channels",),
        "channelLog": ("channel", "time", "handle", "text"),
        "toldChannel": ("channel", "amount"),
        "receivedChannels": ("name", "channels"),
        "receivedNames": ("channel", "names"),
        "observers_received": ("gameno", "observers"),
    },
    "om": {  # OfferManager / ICCOfferManager
        "onOfferAdd": ("offer",),
        "onOfferRemove": ("offer",),
        "onOfferDeclined": ("offer",),
        "onChallengeAdd": ("challenge",),
        "onChallengeRemove": ("index",),
        "onActionError": ("offer", "error"),
    },
    "em": {"onCommandNotFound": ("command",), "onAmbiguousMove": ("move",)}
    | {"onIllegalMove": ("move",)},
    "fm": {"fingeringFinished": ("finger",)},
    "adm": {
        "onAdjournmentsList": ("games",),
        "onHistoryList": ("games",),
        "onJournalList": ("games",),
    },
    "alm": {"logOut": ()},
    "nm": {"readingNews": ("news",), "readNews": ("news",)},
    "players": {"FICSPlayerEntered": ("players",), "FICSPlayerExited": ("player",)},
    "games": {"FICSGameCreated": ("games",), "FICSGameEnded": ("game",)},
    "challenges": {
        "FICSChallengeIssued": ("challenge",),
        "FICSChallengeRemoved": ("challenge",),
    },
}
#: Signals emitted in bulk (a list for the whole who/games output): printed per item too.
SUMMARISE = {"FICSPlayerEntered", "FICSGameCreated", "channelsListed"}


class Client:
    """One PyChess connection: a FICSMainConnection and the driver's view of its games."""

    def __init__(self, driver: Driver, key: str, spec: dict[str, Any]) -> None:
        self.driver = driver
        self.py = driver.py
        self.key = key
        self.mode = spec.get("mode", driver.args.mode)
        self.user = spec.get("user", driver.args.user)
        self.password = spec.get("password", driver.args.password) or ""
        self.timeseal = bool(spec.get("timeseal", driver.args.timeseal))
        self.helper = spec.get("helper", driver.args.helper)
        if self.helper == "auto":  # what PyChess's log-on dialog does for a remote host
            self.helper = "main" if self.mode == "icc" else "connection"
        self.conn: Any = None
        self.connected = asyncio.Event()
        self.finished = asyncio.Event()  # connected, failed or disconnected
        self.boards: dict[int, Any] = {}  # gameno -> PyChess Board after the last move
        self.watched: set[int] = set()
        self.eof_reported = False
        self.helper_ready = asyncio.Event()

    # -- connecting --------------------------------------------------------------------------

    async def start(self) -> None:
        host = ICC_HOST if self.mode == "icc" else self.driver.args.host
        self.conn = self.py.fc.FICSMainConnection(
            host, [self.driver.args.port], self.timeseal, self.user, self.password
        )
        self.conn.connect("connectingMsg", lambda c, msg: emit(self.key, "connectingMsg", text=msg))
        self.conn.connect("connected", self._on_connected)
        self.conn.connect("disconnected", self._on_disconnected)
        self.conn.connect("error", self._on_error)
        self.task = asyncio.get_event_loop().create_task(self._run())

    async def _run(self) -> None:
        try:
            await self.conn.start()
        except Exception as error:  # FICSConnection.start re-raises what it does not know
            emit(self.key, "crash", error=repr(error), traceback=traceback.format_exc())
        finally:
            self.finished.set()

    def _on_connected(self, conn: Any) -> None:
        telnet = conn.client.telnet
        telnet.name = self.key  # log records of this connection now name the client
        telnet.protocol.name = self.key
        emit(self.key, "connected", username=conn.username, ics=conn.ics_name, ICC=conn.ICC)
        self.driver.vars[self.key] = conn.username
        for manager, signals in SIGNALS.items():
            obj = getattr(conn, manager, None)
            if obj is None:
                continue
            for name, argnames in signals.items():
                obj.connect(name, self._handler(name, argnames))
        conn.bm.connect("playGameCreated", self._on_game)
        conn.bm.connect("obsGameCreated", self._on_game)
        conn.bm.connect("exGameCreated", self._on_game)
        if self.helper == "main":
            # What the GUI does for ICC, and for FICS when its helper guest cannot log in.
            conn.start_helper_manager(True)
        elif self.helper == "connection" and not conn.ICC:
            # ICLogon: a second guest login that keeps the player and game lists.
            helper = self.py.fc.FICSHelperConnection(
                conn, self.driver.args.host, [self.driver.args.port], self.timeseal
            )
            helper.connect("connected", self._on_helper_connected)
            helper.connect("error", lambda c, e: emit(self.key, "helper_error", error=str(e)))
            self.helper_conn = helper
            self.driver.connecting = f"{self.key}-helper"
            asyncio.get_event_loop().create_task(helper.start())
        self.connected.set()
        self.finished.set()

    def _on_helper_connected(self, helper: Any) -> None:
        name = f"{self.key}-helper"
        helper.client.telnet.name = name
        helper.client.telnet.protocol.name = name
        self.driver.clients_by_log_name[name] = name
        emit(self.key, "helper_connected", username=helper.username)
        self.helper_ready.set()

    def _on_disconnected(self, conn: Any) -> None:
        emit(self.key, "disconnected")
        self.finished.set()

    def _on_error(self, conn: Any, error: Any) -> None:
        emit(self.key, "error", error=str(error), type=type(error).__name__)
        self.finished.set()

    def _handler(self, name: str, argnames: tuple[str, ...]) -> Any:
        def handler(obj: Any, *args: Any) -> None:
            fields = {
                argname: jsonable(arg, self.py, self.driver.names)
                for argname, arg in zip(argnames, args, strict=False)
            }
            if name == "fingeringFinished":
                fields = {"name": args[0].getName()} if args else {}
            emit(self.key, name, **fields)
            if name in SUMMARISE and args and isinstance(args[0], list):
                # One line per player or game too, so a test can wait for one of them.
                singular = {"FICSPlayerEntered": "player", "FICSGameCreated": "game"}
                if name in singular:
                    for item in args[0]:
                        emit(
                            self.key,
                            name + "1",
                            **{singular[name]: jsonable(item, self.py, self.driver.names)},
                        )

        return handler

    # -- games: read move_queue as ICPlayer does -----------------------------------------------

    def _on_game(self, bm: Any, game: Any) -> None:
        gameno = game.gameno
        fen = getattr(game.board, "fen", None) if game.board is not None else None
        board = None
        if fen or game.board is None or not getattr(game.board, "pgn", None):
            try:
                board = self.py.Board(setup=fen or self.py.const.FEN_START)
            except Exception as error:
                emit(self.key, "board_error", gameno=gameno, fen=fen, error=repr(error))
        self.boards[gameno] = board
        # ICPlayer tells the BoardManager when its game model has started.
        if gameno in bm.gamemodelStartedEvents:
            bm.onGameModelStarted(gameno)
        if gameno not in self.watched:
            self.watched.add(gameno)
            asyncio.get_event_loop().create_task(self._read_moves(game))

    async def _read_moves(self, game: Any) -> None:
        while True:
            item = await game.move_queue.get()
            if isinstance(item, str):
                emit(self.key, "move_queue", gameno=game.gameno, item=item)
                continue
            gameno, ply, curcol, lastmove, fen, _white, _black, wms, bms = item
            fields: dict[str, Any] = {
                "gameno": gameno,
                "ply": ply,
                "to_move": "white" if curcol == self.py.const.WHITE else "black",
                "move": lastmove,
                "wms": wms,
                "bms": bms,
            }
            if fen:
                fields["fen"] = fen
            board = self.boards.get(gameno)
            if board is not None:
                try:
                    move = self.py.parseSAN(board, lastmove)
                    board = board.move(move)
                    self.boards[gameno] = board
                    fields["parsed"] = True
                except Exception as error:
                    fields["parsed"] = False
                    fields["parse_error"] = repr(error)
                    self.boards[gameno] = None
            emit(self.key, "move", **fields)

    def move_text(self, text: str) -> str:
        """The move as ICPlayer would send it: parsed on the current board, then toAN."""
        game = self.conn.bm.theGameImPlaying
        board = self.boards.get(game.gameno) if game is not None else None
        if board is None:
            return text
        move = self.py.parseAny(board, text)
        const = self.py.const
        notation = const.CASTLE_SAN if board.variant == const.FISCHERRANDOMCHESS else None
        notation = const.CASTLE_KK if notation is None else notation
        return self.py.toAN(board, move, castleNotation=notation)


# -- actions: each goes through a PyChess manager method ---------------------------------------


def _game_type(py: Any, step: dict[str, Any]) -> Any:
    name = step.get("game_type")
    if name:
        return py.ic.GAME_TYPES[name]
    return py.ic.time_control_to_gametype(int(step.get("minutes", 5)), int(step.get("inc", 0)))


def _color(py: Any, step: dict[str, Any]) -> Any:
    return {"white": py.const.WHITE, "black": py.const.BLACK}.get(step.get("color") or "")


class _GameRef:
    """What BoardManager.observe/unobserve read from a FICSGame: its number."""

    def __init__(self, gameno: int) -> None:
        self.gameno = gameno


def _offer(py: Any, kind: str) -> Any:
    const = py.const
    kinds = {
        "resign": const.RESIGNATION,
        "draw": const.DRAW_OFFER,
        "abort": const.ABORT_OFFER,
        "adjourn": const.ADJOURN_OFFER,
        "takeback": const.TAKEBACK_OFFER,
        "flag": const.FLAG_CALL,
    }
    return py.Offer(kinds[kind])


def act(client: Client, step: dict[str, Any]) -> None:
    py, conn, do = client.py, client.conn, step["do"]
    if do == "seek":  # SeekChallenge.py -> glm.seek
        rmin, rmax = step.get("ratings", (0, 9999))
        conn.glm.seek(
            int(step.get("minutes", 5)),
            int(step.get("inc", 0)),
            _game_type(py, step),
            bool(step.get("rated", False)),
            (int(rmin), int(rmax)),
            _color(py, step),
            bool(step.get("manual", False)),
        )
    elif do == "unseek":  # perspectives/fics/__init__.py
        conn.client.run_command("unseek")
    elif do == "play":  # accept a seek: ParrentListSection -> om.playIndex
        conn.om.playIndex(int(step["index"]))
    elif do == "match":  # SeekChallenge.py -> om.challenge
        conn.om.challenge(
            step["player"],
            _game_type(py, step),
            int(step.get("minutes", 5)),
            int(step.get("inc", 0)),
            bool(step.get("rated", False)),
            _color(py, step),
        )
    elif do == "accept":  # a challenge: SeekListPanel -> om.acceptIndex
        conn.om.acceptIndex(int(step["index"]))
    elif do == "decline":
        conn.om.declineIndex(int(step["index"]))
    elif do == "move":  # ICPlayer.makeMove -> bm.sendMove(toAN(...))
        conn.bm.sendMove(client.move_text(step["move"]))
    elif do == "offer":  # ICGameModel -> om.offer (resign, draw, abort, adjourn, takeback)
        conn.om.offer(_offer(py, step["offer"]))
    elif do == "accept_offer":  # ICGameModel.acceptReceived -> om.accept
        offer = py.Offer(_offer(py, step["offer"]).type, index=step.get("index"))
        conn.om.accept(offer)
    elif do == "observe":
        if "gameno" in step:
            conn.bm.observe(_GameRef(int(step["gameno"])))
        else:
            conn.bm.observe(None, player=conn.players.get(step["player"]))
    elif do == "unobserve":
        conn.bm.unobserve(_GameRef(int(step["gameno"])))
    elif do == "tell":
        conn.cm.tellPlayer(step["player"], step["text"])
    elif do == "channel_tell":
        conn.cm.tellChannel(str(step["channel"]), step["text"])
    elif do == "shout":
        conn.cm.tellAll(step["text"])
    elif do == "say":
        conn.cm.tellOpponent(step["text"])
    elif do == "kibitz":
        conn.cm.tellGame(int(step["gameno"]), step["text"])
    elif do == "whisper":
        conn.cm.whisper(step["text"])
    elif do == "join_channel":
        conn.cm.joinChannel(str(step["channel"]))
    elif do == "finger":
        conn.fm.finger(step["player"])
    elif do == "command":  # what a user types in PyChess's console panel
        conn.client.run_command(step["text"], show_reply=True)
    elif do == "close":  # the Log Off button
        conn.close()
    else:
        raise ValueError(f"unknown action {do!r}")


ACTIONS = [
    *("seek", "unseek", "play", "match", "accept", "decline", "move", "offer"),
    *("accept_offer", "observe", "unobserve", "tell", "channel_tell", "shout", "say"),
    *("kibitz", "whisper", "join_channel", "finger", "command", "close"),
]


# -- the scenario runner -----------------------------------------------------------------------


class Driver:
    def __init__(self, args: argparse.Namespace, py: Any, scenario: dict[str, Any]) -> None:
        self.args = args
        self.py = py
        self.names = Names(py.const)
        self.scenario = scenario
        self.vars: dict[str, Any] = {}
        self.clients: dict[str, Client] = {}
        self.connecting: str | None = None
        self.clients_by_log_name: dict[str, str] = {}

    def subst(self, value: Any) -> Any:
        """``"$x"`` is the value saved as x; ``"accept $a"`` has it put into the text."""

        def known(key: str) -> Any:
            if key not in self.vars:
                raise KeyError(f"${key} is not known yet")
            return self.vars[key]

        if isinstance(value, str):
            whole = re.fullmatch(r"\$([A-Za-z_]\w*)", value)
            if whole:
                return known(whole.group(1))
            return re.sub(r"\$([A-Za-z_]\w*)", lambda m: str(known(m.group(1))), value)
        if isinstance(value, dict):
            return {k: self.subst(v) for k, v in value.items()}
        if isinstance(value, list):
            return [self.subst(v) for v in value]
        return value

    @staticmethod
    def field(event: dict[str, Any], path: str) -> Any:
        value: Any = event
        for part in path.split("."):
            if isinstance(value, dict) and part in value:
                value = value[part]
            else:
                return KeyError
        return value

    def matches(self, event: dict[str, Any], step: dict[str, Any], where: dict[str, Any]) -> bool:
        if event["event"] != step["wait"]:
            return False
        if "client" in step and event.get("client") != step["client"]:
            return False
        for path, wanted in where.items():
            got = self.field(event, path)
            if isinstance(wanted, str) and wanted.startswith("re:"):
                if not isinstance(got, str) or not re.search(wanted[3:], got):
                    return False
            elif isinstance(wanted, str) and isinstance(got, str):
                if wanted.lower() != got.lower():  # FICS names are case insensitive
                    return False
            elif got != wanted:
                return False
        return True

    async def wait(self, index: int, step: dict[str, Any], mark: int) -> bool:
        where = self.subst(step.get("where", {}))
        deadline = time.monotonic() + float(step.get("timeout", self.args.wait))
        seen = mark
        while True:
            while seen < len(EVENTS):
                event = EVENTS[seen]
                seen += 1
                if self.matches(event, step, where):
                    for var, path in step.get("save", {}).items():
                        self.vars[var] = self.field(event, path)
                    return True
            if time.monotonic() > deadline:
                kind = "wait_timeout" if step.get("optional") else "wait_failed"
                emit(step.get("client"), kind, step=index, wait=step["wait"], where=where)
                return bool(step.get("optional"))
            await asyncio.sleep(0.02)

    async def connect(self, key: str, spec: dict[str, Any]) -> bool:
        """Log one client in (and its helper connection); False if it could not."""
        client = Client(self, key, spec or {})
        self.clients[key] = client
        self.connecting = key
        await client.start()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(client.finished.wait(), self.args.wait)
        if not client.connected.is_set():
            emit(key, "wait_failed", step="login", wait="connected")
            return False
        if client.helper == "connection" and not client.conn.ICC:
            try:
                await asyncio.wait_for(client.helper_ready.wait(), self.args.wait)
            except TimeoutError:
                emit(key, "wait_timeout", step="login", wait="helper_connected")
        self.connecting = None
        return True

    async def connect_all(self) -> bool:
        """The clients not marked ``"late": true`` (those log in at a ``connect`` step)."""
        for key, spec in self.scenario.get("clients", {"a": {}}).items():
            if not (spec or {}).get("late") and not await self.connect(key, spec):
                return False
        await asyncio.sleep(self.args.settle)  # the replies to PyChess's setup commands
        return True

    async def run(self) -> int:
        if not await self.connect_all():
            return 2
        mark = 0
        for index, step in enumerate(self.scenario.get("steps", [])):
            if "wait" in step:
                if not await self.wait(index, step, mark):
                    return 2
            elif "sleep" in step:
                await asyncio.sleep(float(step["sleep"]))
            elif step.get("do") == "connect":  # a late client logs in now
                mark = len(EVENTS)
                key = step.get("client", "a")
                if not await self.connect(key, self.scenario["clients"][key]):
                    return 2
            elif "do" in step:
                mark = len(EVENTS)
                client = self.clients[step.get("client", "a")]
                try:
                    act(client, self.subst(step))
                except Exception as error:
                    emit(client.key, "action_failed", step=index, do=step["do"], error=repr(error))
                    return 2
            else:
                raise ValueError(f"step {index} has no do, wait or sleep: {step}")
        await asyncio.sleep(self.args.linger)
        return 0

    async def watch_eof(self) -> None:
        """PyChess never notices end of file (its read loop spins); report it and stop."""
        while True:
            await asyncio.sleep(0.1)
            for client in self.clients.values():
                telnet = getattr(getattr(client.conn, "client", None), "telnet", None)
                reader = getattr(telnet, "reader", None) or getattr(
                    getattr(client.conn, "client", None), "reader", None
                )
                if reader is not None and reader.at_eof() and not client.eof_reported:
                    client.eof_reported = True
                    emit(client.key, "eof")
                    client.finished.set()

    def close(self) -> None:
        for client in self.clients.values():
            try:
                if client.conn is not None and client.conn.isConnected():
                    client.conn.close()
            except Exception as error:
                emit(client.key, "close_failed", error=repr(error))


# -- PyChess's log records: the lines it sent, the lines no parser took ------------------------


class LogTap(logging.Handler):
    def __init__(self, driver: Driver) -> None:
        super().__init__(logging.DEBUG)
        self.driver = driver

    def emit(self, record: logging.LogRecord) -> None:
        task = getattr(record, "task", None)
        if not isinstance(task, tuple) or len(task) != 2:
            return
        name, kind = task
        known = self.driver.clients_by_log_name
        client = known.get(name) or (
            name if name in self.driver.clients else self.driver.connecting or str(name)
        )
        message = record.msg
        if kind == "raw":
            if record.funcName == "cook_some":  # ICSStreamReaderProtocol: bytes read
                if TRACE:
                    emit(client, "recv", data=bytes(message).decode("latin-1"))
            elif record.funcName == "write":  # ICSTelnet.write: a line sent
                emit(client, "sent", text=str(message))
        elif kind == "nonmatched":
            emit(client, "unmatched", line=str(message))
        elif TRACE and kind not in ("lines", "run_command"):
            emit(client, "matched", parser=str(kind), text=str(record.getMessage())[:2000])


# -- built-in scenarios ------------------------------------------------------------------------


def _fools_mate(white: str, black: str) -> list[dict[str, Any]]:
    steps: list[dict[str, Any]] = []
    for n, (who, move, san) in enumerate(
        ((white, "f2f3", "f3"), (black, "e7e5", "e5"), (white, "g2g4", "g4")), start=1
    ):
        steps.append({"do": "move", "client": who, "move": move})
        for c in (white, black):
            steps.append({"wait": "move", "client": c, "where": {"ply": n, "move": san}})
    steps.append({"do": "move", "client": black, "move": "d8h4"})
    return steps


def _seek_game(white: str, black: str) -> list[dict[str, Any]]:
    """``white`` seeks 5 0 as white, ``black`` accepts it from the seek list (play N)."""
    return [
        {"do": "seek", "client": white, "minutes": 5, "inc": 0, "color": "white"},
        {
            "wait": "addSeek",
            "client": black,
            "where": {"seek.player": f"${white}"},
            "save": {"seek": "seek.index"},
        },
        {"do": "play", "client": black, "index": "$seek"},
        {"wait": "playGameCreated", "client": white, "save": {"game": "game.gameno"}},
        {"wait": "playGameCreated", "client": black},
    ]


def builtin(name: str, mode: str) -> dict[str, Any]:
    two = {"a": {}, "b": {}}
    if name == "login":
        return {"clients": {"a": {}}, "steps": [{"sleep": 1.0}]}
    if name == "seek":
        # FICS: PyChess holds a "<sr> N" line until the next line comes (it may begin its
        # two-line "Your seeks have been removed." pattern), so a tells b something
        nudge: list[dict[str, Any]] = (
            [{"do": "tell", "client": "a", "player": "$b", "text": "seek gone"}]
            if mode == "fics"
            else []
        )
        return {
            "clients": {"a": {}, "b": {}},
            "steps": [
                {"do": "seek", "client": "a", "minutes": 5, "inc": 0},
                {"wait": "addSeek", "client": "a", "where": {"seek.player": "$a"}},
                {"wait": "addSeek", "client": "b", "where": {"seek.player": "$a"}},
                {"do": "unseek", "client": "a"},
                *nudge,  # sent with the unseek, before any answer can come
                {"wait": "removeSeek", "client": "a"},
                {"wait": "removeSeek", "client": "b"},
            ],
        }
    if name == "seek-play":
        return {
            "clients": two,
            "steps": [
                *_seek_game("a", "b"),
                *_fools_mate("a", "b"),
                {"wait": "curGameEnded", "client": "a", "where": {"game.result": "0-1"}},
                {"wait": "curGameEnded", "client": "b", "where": {"game.result": "0-1"}},
            ],
        }
    if name == "match":
        # PyChess's ICC mode ignores DG_MATCH (ICCOfferManager.on_icc_match only logs it),
        # so there the challenged user can only type "accept" in the console.
        if mode == "icc":
            answer: list[dict[str, Any]] = [
                {"sleep": 0.5},
                {"do": "command", "client": "b", "text": "accept $a"},
            ]
        else:
            answer = [
                {
                    "wait": "onChallengeAdd",
                    "client": "b",
                    "where": {"challenge.player": "$a"},
                    "save": {"offer": "challenge.index"},
                },
                {"do": "accept", "client": "b", "index": "$offer"},
            ]
        return {
            "clients": two,
            "steps": [
                {"do": "match", "client": "a", "player": "$b", "minutes": 3, "color": "white"},
                *answer,
                {"wait": "playGameCreated", "client": "a"},
                {"wait": "playGameCreated", "client": "b"},
                {"do": "move", "client": "a", "move": "e2e4"},
                {"wait": "move", "client": "b", "where": {"ply": 1, "move": "e4"}},
                {"do": "offer", "client": "b", "offer": "resign"},
                {"wait": "curGameEnded", "client": "a", "where": {"game.result": "1-0"}},
                {"wait": "curGameEnded", "client": "b", "where": {"game.result": "1-0"}},
            ],
        }
    if name == "observe":
        return {
            "clients": {"a": {}, "b": {}, "c": {}},
            "steps": [
                *_seek_game("a", "b"),
                {"do": "move", "client": "a", "move": "e2e4"},
                {"wait": "move", "client": "b", "where": {"ply": 1}},
                {"do": "observe", "client": "c", "gameno": "$game"},
                {"wait": "obsGameCreated", "client": "c", "where": {"game.gameno": "$game"}},
                {"do": "move", "client": "b", "move": "e7e5"},
                {"wait": "move", "client": "c", "where": {"ply": 2, "move": "e5"}},
                {"do": "offer", "client": "a", "offer": "resign"},
                {"wait": "obsGameEnded", "client": "c", "where": {"game.result": "0-1"}},
            ],
        }
    if name == "chat":
        # tells, channel tells and shouts both ways, each as PyChess's ChatManager
        # recognises it (privateMessage, channelMessage); FICS also has c-shouts. The
        # texts are matched at their start: PyChess's ICC mode keeps the ^Y that closes
        # a quoted datagram field at the end of a channel tell's text.
        cshout: list[dict[str, Any]] = (
            [
                {"do": "channel_tell", "client": "b", "channel": "cshout", "text": "e4!"},
                {"wait": "channelMessage", "client": "a", "where": {"channel": "cshout"}},
            ]
            if mode == "fics"
            else []
        )
        steps: list[dict[str, Any]] = [
            {"do": "join_channel", "client": "a", "channel": 4},
            {"do": "join_channel", "client": "b", "channel": 4},
            {"sleep": 0.5},
        ]
        for me, other in (("a", "b"), ("b", "a")):
            steps += [
                {"do": "tell", "client": me, "player": f"${other}", "text": f"hello {other}"},
                {
                    "wait": "privateMessage",
                    "client": other,
                    "where": {"name": f"${me}", "text": f"re:^hello {other}"},
                },
                {"do": "channel_tell", "client": me, "channel": 4, "text": f"4 from {me}"},
                {
                    "wait": "channelMessage",
                    "client": other,
                    "where": {"name": f"${me}", "channel": "4", "text": f"re:^4 from {me}"},
                },
                {"do": "shout", "client": me, "text": f"all from {me}"},
                {
                    "wait": "channelMessage",
                    "client": other,
                    "where": {
                        "name": f"${me}",
                        "channel": "shout",
                        "text": f"re:^all from {me}",
                    },
                },
            ]
        # only registered players shout (lasker's com_shout): the test registers these
        talkers = {key: {"user": name, "password": CHAT_PASSWORD} for key, name in CHATTERS.items()}
        return {"clients": talkers, "steps": [*steps, *cshout]}
    if name == "lists":
        # c watches the lobby: both players arrive, their game appears and goes away.
        # FICS: the helper's "who IbslwBzSLx", <wa>/<wd> (pin), availinfo and gin lines;
        # ICC: DG_PLAYER_ARRIVED_SIMPLE and "games *19" (the GUI runs it every 5 s).
        refresh = [{"do": "command", "client": "c", "text": "games *19"}] if mode == "icc" else []
        return {
            "clients": {"a": {}, "b": {}, "c": {}},
            "steps": [
                {"wait": "FICSPlayerEntered1", "client": "c", "where": {"player.name": "$a"}},
                {"wait": "FICSPlayerEntered1", "client": "c", "where": {"player.name": "$b"}},
                *_seek_game("a", "b"),
                *refresh,
                {"wait": "FICSGameCreated1", "client": "c", "where": {"game.gameno": "$game"}},
                {"do": "offer", "client": "b", "offer": "resign"},
                {"wait": "curGameEnded", "client": "a"},
                *refresh,
                {"wait": "FICSGameEnded", "client": "c", "where": {"game.gameno": "$game"}},
            ],
        }
    if name == "games-list":
        # The games list alone (FICS: the helper's gin lines; ICC: "games *19"): what
        # "lists" checks once the players have arrived.
        steps = builtin("lists", mode)["steps"][2:]
        return {"clients": {"a": {}, "b": {}, "c": {}}, "steps": steps}
    raise SystemExit(f"unknown scenario {name!r}; built in: {', '.join(BUILTINS)}")


#: The registered accounts the "chat" scenario logs in with (the test registers them).
CHATTERS = {"a": "Chatter", "b": "Talker"}
CHAT_PASSWORD = "chat-pw"

BUILTINS = ("login", "seek", "seek-play", "match", "observe", "chat", "lists", "games-list")


def load_scenario(text: str, mode: str) -> dict[str, Any]:
    if text.startswith("@"):
        with open(text[1:], encoding="utf-8") as handle:
            text = handle.read()
    if text.lstrip().startswith(("{", "[")):
        scenario = json.loads(text)
        return {"steps": scenario} if isinstance(scenario, list) else scenario
    return builtin(text, mode)


GAME_CREATING = re.compile(rb"\{Game \d+ \([^)]*\) (?:Creating|Continuing) [^}]*\}$")


class Proxy:
    """A diagnostic relay between PyChess and the server, to see past one known server gap.

    ``icc-newline``: add a newline after each top-level level 1 unit (``^Y]``) that lacks
    one (what issue 12 asks of the server). ``game-blank-line``: a blank line between
    ``{Game N (...) Creating ...}`` and the first ``<12>`` board, as FICS sends.
    ``strip-block-ids``: drop the ``ID `` PyChess's FICS block mode puts before each
    command, so a server without block mode runs them (PyChess then reads the unblocked
    replies with every parser, as it does unsolicited lines).
    """

    def __init__(self, host: str, port: int, fixes: set[str]) -> None:
        self.host, self.port, self.fixes = host, port, fixes
        self.listen_port = 0

    async def start(self) -> int:
        server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        self.listen_port = server.sockets[0].getsockname()[1]
        return self.listen_port

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        up_reader, up_writer = await asyncio.open_connection(self.host, self.port)
        await asyncio.gather(
            self._pump(reader, up_writer, self._to_server),
            self._pump(up_reader, writer, self._to_client),
            return_exceptions=True,
        )

    @staticmethod
    async def _pump(reader: asyncio.StreamReader, writer: asyncio.StreamWriter, fix: Any) -> None:
        state: dict[str, Any] = {}
        try:
            while data := await reader.read(65536):
                writer.write(fix(data, state))
                await writer.drain()
        finally:
            writer.close()

    @staticmethod
    def _blank_line(data: bytes, state: dict[str, Any]) -> bytes:
        """A blank line between ``{Game N (A vs. B) Creating ...}`` and the ``<12>`` board."""
        out = bytearray()
        *complete, tail = data.split(b"\n")
        for line in complete:
            after = state.get("after_creating") and not state.get("partial")
            if after and line.startswith(b"<12> "):
                out += b"\n"
            whole = state.get("partial", b"") + line
            state["partial"] = b""
            state["after_creating"] = bool(GAME_CREATING.search(whole.strip(b"\r")))
            out += line + b"\n"
        if tail:
            if state.get("after_creating") and not state.get("partial") and tail.startswith(b"<"):
                out += b"\n"
                state["after_creating"] = False
            state["partial"] = state.get("partial", b"") + tail
        out += tail
        return bytes(out)

    def _to_server(self, data: bytes, state: dict[str, Any]) -> bytes:
        if "strip-block-ids" not in self.fixes:
            return data
        buffer = state.get("buffer", b"") + data
        *lines, state["buffer"] = buffer.split(b"\n")
        out = [re.sub(rb"^\d+ ", b"", line) for line in lines]
        return b"".join(line + b"\n" for line in out)

    def _to_client(self, data: bytes, state: dict[str, Any]) -> bytes:
        if "game-blank-line" in self.fixes:
            data = self._blank_line(data, state)
        if "icc-newline" not in self.fixes:
            return data
        out = bytearray()
        depth = state.get("depth", 0)
        escape = state.get("escape", False)
        for byte in data:
            if state.get("ended") and byte != 0x0A:
                out += b"\n"
            state["ended"] = False
            out.append(byte)
            if escape:
                escape = False
                if byte == ord("["):
                    depth += 1
                elif byte == ord("]"):
                    depth = max(depth - 1, 0)
                    state["ended"] = depth == 0
            elif byte == 0x19:
                escape = True
        if state.get("ended"):
            out += b"\n"
            state["ended"] = False
        state["depth"], state["escape"] = depth, escape
        return bytes(out)


ICC_TARGET = {"host": "127.0.0.1"}


def resolve_icc_host(real_host: str) -> None:
    """``chessclub.com`` (PyChess's ICC switch) resolves to the server under test."""
    ICC_TARGET["host"] = real_host
    if getattr(socket.getaddrinfo, "icc_wrapped", False):
        return
    original = socket.getaddrinfo

    def getaddrinfo(host: Any, *args: Any, **kwargs: Any) -> Any:
        if host == ICC_HOST:
            host = ICC_TARGET["host"]
        return original(host, *args, **kwargs)

    getaddrinfo.icc_wrapped = True  # type: ignore[attr-defined]
    socket.getaddrinfo = getaddrinfo  # type: ignore[assignment]


def main() -> None:
    global OUT, TRACE
    OUT = os.fdopen(os.dup(1), "w", buffering=1, encoding="utf-8")
    os.dup2(2, 1)  # PyChess prints (ICCChatManager prints some datagrams): keep them apart
    sys.stdout = sys.stderr

    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("scenario", help=f"{'|'.join(BUILTINS)}, JSON text, or @file")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--mode", choices=("fics", "icc"), default="fics")
    parser.add_argument("--user", default="guest")
    parser.add_argument("--password", default="")
    parser.add_argument("--timeseal", action="store_true", help="PyChess's timeseal 1 client")
    parser.add_argument(
        "--helper",
        choices=("auto", "main", "connection", "none"),
        default="auto",
        help="player and game lists: start_helper_manager on the main connection (what the "
        "GUI does for ICC), a second guest FICSHelperConnection (what it does for a remote "
        "FICS host), or none (a FICS host named localhost or 127.0.0.1); auto: as the GUI",
    )
    parser.add_argument("--timeout", type=float, default=60.0, help="whole run, seconds")
    parser.add_argument("--wait", type=float, default=10.0, help="default wait step timeout")
    parser.add_argument(
        "--settle", type=float, default=1.0, help="seconds after the logins, before step 1"
    )
    parser.add_argument("--linger", type=float, default=0.5, help="seconds after the last step")
    parser.add_argument("--trace", action="store_true", help="also raw input and matches")
    parser.add_argument(
        "--proxy",
        default="",
        help="diagnostics only: relay through fixes of known server gaps, comma separated: "
        "icc-newline, strip-block-ids, game-blank-line (see Proxy)",
    )
    args = parser.parse_args()
    TRACE = args.trace

    # The last resort: whatever PyChess does, the process ends.
    watchdog = threading.Timer(args.timeout + 5, lambda: (emit(None, "killed"), hard_exit(3)))
    watchdog.daemon = True
    watchdog.start()
    signal.signal(signal.SIGTERM, lambda *_: hard_exit(143))

    isolate_home()
    scenario = load_scenario(args.scenario, args.mode)
    py = import_pychess()
    resolve_icc_host(args.host)
    logging.getLogger().handlers.clear()  # PyChess's file log under XDG_DATA_HOME
    logging.getLogger().setLevel(logging.DEBUG)

    loop = asyncio.SelectorEventLoop()
    asyncio.set_event_loop(loop)
    driver = Driver(args, py, scenario)
    logging.getLogger().addHandler(LogTap(driver))
    context = py.GLib.MainContext.default()

    def glib_update() -> None:  # /usr/games/pychess: GLib work in the asyncio loop
        while context.pending():
            context.iteration(False)
        loop.call_later(0.01, glib_update)

    glib_update()

    async def run() -> int:
        fixes = {fix for fix in args.proxy.split(",") if fix}
        if fixes:
            proxy = Proxy(args.host, args.port, fixes)
            args.host, args.port = "127.0.0.1", await proxy.start()
            resolve_icc_host(args.host)
            emit(None, "proxy", fixes=sorted(fixes), port=args.port)
        eof = loop.create_task(driver.watch_eof())
        try:
            return await asyncio.wait_for(driver.run(), args.timeout)
        except TimeoutError:
            emit(None, "timeout", seconds=args.timeout)
            return 3
        finally:
            eof.cancel()

    code = 1
    try:
        code = loop.run_until_complete(run())
    except Exception as error:
        emit(None, "crash", error=repr(error), traceback=traceback.format_exc())
    driver.close()
    # Let "abort"/"quit" from close() reach the server, then stop for good.
    end = time.monotonic() + 0.3
    while time.monotonic() < end:
        loop.run_until_complete(asyncio.sleep(0.05))
    emit(None, "done", status=code)
    hard_exit(code)


if __name__ == "__main__":
    main()
