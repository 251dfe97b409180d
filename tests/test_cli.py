"""The command line contract: ``icswire decode`` / ``icswire encode`` / ``icswire pgn``."""

from __future__ import annotations

import io
import json
import shutil
import socket
import subprocess
import sys
from pathlib import Path

import chess.pgn
import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from icswire.cli import main, parse_datagram_list

from .boards.transcript import as_datagrams, as_style12, play, session

STREAM = (
    b"login: \xff\xfb\x01password: \n\r**** Starting FICS session as fred ****\n\r"
    b"\x19[101 * t1\n\x19(31 fred {GM} \x19{hi {there}\x19} 1\x19)\x19]"
    b"\x19(24 5 Nf3  g1f3\x19)\x07bell\r\n<b1> game 6 white [PNBBB] black [PNB]\n\x1a"
)


def run(*args: str, stdin: bytes = b"") -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "icswire", *args], input=stdin, capture_output=True, check=False
    )


def test_decode_prints_one_object_per_event_with_names() -> None:
    result = CliRunner().invoke(
        main, ["decode", "-", "--datagrams", "24,33,DG_MOVE_SMITH"], input=STREAM
    )
    assert result.exit_code == 0, result.output
    objects = [json.loads(line) for line in result.output.splitlines()]
    kinds = [o["event"] for o in objects]
    assert kinds[:3] == ["prompt", "telnet", "prompt"]
    assert "unit_start" in kinds and "unit_end" in kinds and "b1" in kinds and "overflow" in kinds
    tell = next(o for o in objects if o.get("dg") == 31)
    assert tell["name"] == "DG_PERSONAL_TELL" and "raw" not in tell
    assert tell["fields"]["text"] == "hi {there}"
    moves = next(o for o in objects if o.get("dg") == 24)
    assert (moves["fields"]["algebraic"], moves["fields"]["smith"]) == ("Nf3", "g1f3")
    assert moves["raw"] == "\x19(24 5 Nf3  g1f3\x19)"  # two blanks: not the canonical form
    bell = next(o for o in objects if o["event"] == "text" and o["fields"]["text"] == "bell")
    assert bell["fields"] == {"text": "bell", "end": "\r\n", "bells": [0]}


def test_decode_then_encode_reproduces_the_stream_through_real_pipes(tmp_path: Path) -> None:
    capture = tmp_path / "capture.bin"
    capture.write_bytes(STREAM)
    decoded = run("decode", str(capture), "--datagrams", "24 33 34")
    assert decoded.returncode == 0, decoded.stderr
    encoded = run("encode", "-", stdin=decoded.stdout)
    assert encoded.returncode == 0, encoded.stderr
    assert encoded.stdout == STREAM


@settings(max_examples=40, deadline=None)
@given(st.binary(max_size=200))
def test_decode_then_encode_reproduces_any_bytes(data: bytes) -> None:
    runner = CliRunner()
    decoded = runner.invoke(main, ["decode", "--datagrams", "1,3,24,25,33"], input=data)
    assert decoded.exit_code == 0
    encoded = runner.invoke(main, ["encode"], input=decoded.stdout_bytes)
    assert encoded.exit_code == 0
    assert encoded.stdout_bytes == data


def test_decode_reads_fics_block_mode_when_told() -> None:
    stream = b"\x1554\x16156\x16<sr> 8 17 30\n\rYour seeks have been removed.\n\r\x17\nfics% \x19("
    result = CliRunner().invoke(main, ["decode", "--block-mode"], input=stream)
    assert result.exit_code == 0, result.output
    objects = [json.loads(line) for line in result.output.splitlines()]
    assert objects[0] == {"event": "block_start", "fields": {"id": 54, "code": 156}}
    assert objects[1] == {
        "event": "seeks_removed",
        "fields": {"numbers": [8, 17, 30], "end": "\n\r"},
    }
    assert [o["event"] for o in objects[3:]] == ["block_end", "text", "prompt", "pose_end", "text"]
    encoded = CliRunner().invoke(main, ["encode"], input=result.stdout_bytes)
    assert encoded.stdout_bytes == stream
    plain = CliRunner().invoke(main, ["decode"], input=stream)
    assert "block_start" not in plain.output and '"error"' in plain.output


def test_unreadable_input_exits_2_with_a_message(tmp_path: Path) -> None:
    missing = run("decode", str(tmp_path / "missing.bin"))
    assert missing.returncode == 2 and b"cannot read" in missing.stderr
    directory = run("decode", str(tmp_path))
    assert directory.returncode == 2 and b"cannot read" in directory.stderr
    assert run("encode", str(tmp_path / "missing.jsonl")).returncode == 2


def test_malformed_content_is_reported_not_a_crash() -> None:
    result = run("decode", stdin=b"\x19(24 x\x19)ok\n")
    assert result.returncode == 0
    first = json.loads(result.stdout.splitlines()[0])
    assert first["event"] == "error" and first["fields"]["offset"] == 0
    assert "gamenumber" in first["fields"]["message"]


def test_encode_rejects_lines_that_are_not_events() -> None:
    result = CliRunner().invoke(main, ["encode"], input=b'{"event": "nonsense"}\n')
    assert result.exit_code != 0 and "line 1" in result.output


def test_datagram_lists_take_numbers_and_names() -> None:
    assert parse_datagram_list("24, 33 DG_MOVE_SMITH msec") == [24, 33, 34, 56]
    try:
        parse_datagram_list("DG_NOPE")
    except ValueError as exc:
        assert "DG_NOPE" in str(exc)
    else:
        raise AssertionError("an unknown name must be refused")
    assert CliRunner().invoke(main, ["decode", "--datagrams", "nope"]).exit_code == 2


def test_decode_writes_events_as_they_arrive_on_a_live_pipe() -> None:
    process = subprocess.Popen(
        [sys.executable, "-m", "icswire", "decode", "-"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
    )
    assert process.stdin is not None and process.stdout is not None
    try:
        process.stdin.write(b"\x19(81\x19)")
        process.stdin.flush()
        first = json.loads(process.stdout.readline())  # before stdin is closed
        assert first["name"] == "DG_DUMMY_RESPONSE"
    finally:
        process.stdin.close()
        process.wait(timeout=10)


GAMELIST_ITEM = (
    b"\x19(73 1 2 event 2024.01.02 12:00 fred 1500 joe 1600 1 1 0 3 0 3 0 B01 1 0 0 {a note} 1\x19)"
)


def test_a_datagram_field_named_event_does_not_clash_with_the_event_key() -> None:
    """DG_GAMELIST_ITEM has a field named ``event``: it used to overwrite ``"event":
    "datagram"``, and the object could not be encoded again."""
    decoded = CliRunner().invoke(main, ["decode"], input=GAMELIST_ITEM)
    (obj,) = [json.loads(line) for line in decoded.output.splitlines()]
    assert (obj["event"], obj["dg"], obj["name"]) == ("datagram", 73, "DG_GAMELIST_ITEM")
    assert obj["fields"]["event"] == "event" and obj["fields"]["note"] == "a note"
    assert "raw" not in obj
    encoded = CliRunner().invoke(main, ["encode"], input=decoded.stdout_bytes)
    assert encoded.exit_code == 0 and encoded.stdout_bytes == GAMELIST_ITEM


def test_every_object_keeps_its_fields_apart_from_the_keys_around_them() -> None:
    stream = STREAM + GAMELIST_ITEM + b"\x19(999 a {b}\x19)\x19(24 5  e4\x19)"
    decoded = CliRunner().invoke(main, ["decode", "--datagrams", "24,33"], input=stream)
    objects = [json.loads(line) for line in decoded.output.splitlines()]
    for obj in objects:
        assert set(obj) <= {"event", "dg", "name", "fields", "raw"} and "fields" in obj
        assert ("dg" in obj) == (obj["event"] == "datagram")
    assert objects[-2]["fields"] == ["a", "{b}"]  # a DG the catalog does not document
    assert objects[-1]["raw"] == "\x19(24 5  e4\x19)"


@pytest.mark.parametrize(
    "stream",
    [
        b"\x19(31 Fred {} \x19{a\x19{b\x19} 1\x19)",
        b"\x19(31 Fred\x1c{} \x19{ab\x19} 1\x19)\x19(24 5  e4\x19)",
        b"<12> rnbqkbnr pppppppp -------- -------- -------- -------- PPPPPPPP RNBQKBNR W -1 1 1"
        b" 1 1 0 55 mgatto Thegermain 1 4 0 39 39 240000 240000 1 none (0:00.000) none 0 0 0",
        b"<12> " + b"x" * 3000 + b"\n\x07\xff\xff" * 3,
        b"\x19[\xb2 fred\nhi\n\x19]",
    ],
)
def test_decode_then_encode_is_byte_exact_on_odd_inputs(stream: bytes) -> None:
    """Among them the two that used to fail: a control-Y inside a quoted string (encode
    raised) and a header number int() cannot read (decode raised)."""
    runner = CliRunner()
    decoded = runner.invoke(main, ["decode", "--datagrams", "24,31,33"], input=stream)
    assert decoded.exit_code == 0, decoded.output
    encoded = runner.invoke(main, ["encode"], input=decoded.stdout_bytes)
    assert encoded.exit_code == 0, encoded.output
    assert encoded.stdout_bytes == stream


def test_pgn_wraps_the_movetext_within_80_columns() -> None:
    played = play(9, 2026, 120)  # a long game: its moves would make a line of ~800 characters
    result = CliRunner().invoke(main, ["pgn", "-"], input=session(as_datagrams(played)))
    assert result.exit_code == 0, result.output
    text = result.stdout
    movetext = text.split("\n\n", 1)[1].strip().splitlines()
    assert len(movetext) > 5 and all(len(line) < 80 for line in movetext)
    parsed = chess.pgn.read_game(io.StringIO(text))
    assert parsed is not None and list(parsed.mainline_moves()) == played.moves


SEND_MOVES = '{"event": "datagram", "dg": 24, '
#: Lines ``icswire encode`` refuses, and what it says of each.
NOT_EVENTS = [
    (SEND_MOVES + '"fields": {"x": 1}}', "fields.x: DG_SEND_MOVES has no such field (gamenumber,"),
    ("[1, 2]", "expected a JSON object, got [1, 2]"),
    ('{"event": "text", "fields": {"text": 5}}', "fields.text: expected a string, got 5"),
    ('{"event": "text"}', "fields: missing: expected the fields of text"),
    (SEND_MOVES + '"fields": {}}', "fields.gamenumber: missing: expected an integer"),
    (
        SEND_MOVES + '"fields": {"gamenumber": "5"}}',
        'fields.gamenumber: expected an integer, got "5"',
    ),
    ('{"event": "datagram", "dg": "24"}', 'dg: expected a DG number (an integer), got "24"'),
    ('{"event": "datagram", "dg": 9999, "fields": {}}', "fields: expected a list of strings"),
    (SEND_MOVES + '"name": "DG_MSEC", "fields": {}}', "name: expected 'DG_SEND_MOVES' (the name"),
    ('{"event": "unit_end", "fields": {"depth": true}}', "fields.depth: expected an integer, got"),
    ('{"event": "text", "fields": {"text": "\\u20ac"}}', "fields.text: expected one character per"),
    ('{"event": "text", "fields": {}, "dg": 1}', "dg: no such key (an object has event, fields,"),
    ('{"event": "textt", "fields": {}}', "event: unknown event 'textt'"),
    ('{"event": "style12", "fields": {"ranks": "x"}}', "fields.ranks: expected a list of strings,"),
    (
        '{"event": "datagram", "dg": 1, "fields": {"playername": "Ann", "ratings": '
        '[{"dg": 5, "rating": "x", "annotation": 0}]}}',
        'fields.ratings[0].rating: expected an integer, got "x"',
    ),
    ("{not json", "not JSON"),
]


@pytest.mark.parametrize(("line", "message"), NOT_EVENTS)
def test_encode_names_the_line_the_field_and_what_was_expected(line: str, message: str) -> None:
    good = '{"event": "text", "fields": {"text": "ok", "end": "\\n"}}'
    result = CliRunner().invoke(main, ["encode"], input=f"{good}\n\n{line}\n".encode())
    assert result.exit_code == 2, result.output
    assert f"line 3: {message}" in result.output
    assert "Traceback" not in result.output and "object has no attribute" not in result.output


def test_encode_still_takes_what_decode_writes_and_datagrams_the_catalog_lacks() -> None:
    lines = [
        '{"event": "datagram", "dg": 24, "fields": {"gamenumber": 5, "algebraic": "e4"}}',
        '{"event": "datagram", "dg": 9999, "fields": ["a", "{b}"]}',
        '{"event": "text", "fields": {"text": "hi", "bells": [0]}}',
    ]
    result = CliRunner().invoke(main, ["encode"], input="\n".join(lines).encode())
    assert result.exit_code == 0, result.output
    assert result.stdout_bytes == b"\x19(24 5 e4\x19)\x19(9999 a {b}\x19)\x07hi\n"


@pytest.mark.parametrize("command", ["decode", "pgn"])
def test_datagram_numbers_outside_the_catalog_are_refused(command: str) -> None:
    result = run(command, "--datagrams", "24,9999")
    assert result.returncode == 2
    assert b"unknown datagram 9999 (no DG has that number)" in result.stderr
    assert run(command, "--datagrams", "24,151").returncode == 0  # the catalog's last


def test_pgn_says_which_datagrams_of_which_game_were_missing() -> None:
    data = session(as_datagrams(play(7, 1, 20)))
    start = data.index(b"\x19(24 7 ", data.index(b"\x19(24 7 ") + 1)  # the second move
    end = data.index(b"\x19)", start) + 2
    result = run("pgn", stdin=data[:start] + b"\x19(24 7 x\x19)" + data[end:])
    assert result.returncode == 0
    summary, *why = result.stderr.decode().splitlines()
    assert summary == "1 games: 0 complete, 0 incomplete, 1 with gaps"
    (line,) = why
    assert line.startswith("game 7 (white7 vs. black7): moves missing after ply 1: ")
    assert line.endswith(
        "; 1 DG_SEND_MOVES could not be read (is --datagrams what the session had on?)"
    )


def test_pgn_says_where_style12_boards_are_missing() -> None:
    result = run("pgn", stdin=session(as_style12(play(8, 3, 12), drop=4)))
    summary, line = result.stderr.decode().splitlines()
    assert summary.endswith("1 with gaps")
    assert line.startswith("game 8 (white8 vs. black8): moves missing after ply 3: the next")
    assert "style 12 board" in line


def test_serve_on_a_port_in_use_says_so_in_one_line(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = subprocess.run(
            [sys.executable, "-m", "icswire", "serve", "--port", str(port), "--data-dir", tmp_path],
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
    assert result.returncode == 1
    assert result.stderr == (
        f"icswire serve: 127.0.0.1:{port} is in use (another server?); choose another with --port\n"
    )


@pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")
def test_make_run_takes_a_port_and_arguments_and_make_test_says_why_tests_skip() -> None:
    root = Path(__file__).resolve().parent.parent

    def planned(*args: str) -> str:
        done = subprocess.run(
            ["make", "-n", "--no-print-directory", "-C", str(root), *args],
            capture_output=True,
            text=True,
        )
        return done.stdout.splitlines()[-1]

    engine = shutil.which("stockfish") or Path("/usr/games/stockfish").is_file()
    computer = " --computer stockfish" if engine else ""  # computer opponents when installed
    assert planned("run", "PORT=5001", "ARGS=--open-registration").endswith(
        f"icswire serve --port 5001 --ws-port 5080{computer} --open-registration"
    )
    assert planned("run").endswith(f"icswire serve --port 5000 --ws-port 5080{computer}")
    assert planned("run", "COMPUTER=").endswith("icswire serve --port 5000 --ws-port 5080")
    assert planned("run", "COMPUTER=", "WS_PORT=0").endswith("icswire serve --port 5000")
    said = subprocess.run(
        ["make", "-n", "--no-print-directory", "-C", str(root), "run", "WS_PORT=5081"],
        capture_output=True,
        text=True,
    ).stdout
    assert "open http://127.0.0.1:5081/ in a browser" in said  # the address to open
    assert planned("unit").endswith("pytest -rs")


def test_serve_refuses_a_bad_smtp_relay_before_it_starts(tmp_path: Path) -> None:
    data = ["--data-dir", str(tmp_path / "data")]
    bad = CliRunner().invoke(main, ["serve", *data, "--smtp-relay", "mail.example.org:x"])
    assert bad.exit_code == 2
    assert "is not HOST:PORT" in bad.output
    alone = CliRunner().invoke(main, ["serve", *data, "--mail-from", "fics@example.org"])
    assert alone.exit_code == 2
    assert "--mail-from needs --smtp-relay" in alone.output
