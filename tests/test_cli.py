"""The command line contract: ``icswire decode`` / ``icswire encode``."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from icswire.cli import main, parse_datagram_list

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
    assert tell["name"] == "DG_PERSONAL_TELL" and tell["text"] == "hi {there}" and "raw" not in tell
    moves = next(o for o in objects if o.get("dg") == 24)
    assert (moves["algebraic"], moves["smith"]) == ("Nf3", "g1f3")
    assert moves["raw"] == "\x19(24 5 Nf3  g1f3\x19)"  # two blanks: not the canonical form
    bell = next(o for o in objects if o["event"] == "text" and o["text"] == "bell")
    assert bell["bells"] == [0] and bell["end"] == "\r\n"


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
    assert objects[0] == {"event": "block_start", "id": 54, "code": 156}
    assert objects[1] == {"event": "seeks_removed", "numbers": [8, 17, 30], "end": "\n\r"}
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
    assert first["event"] == "error" and first["offset"] == 0 and "gamenumber" in first["message"]


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
