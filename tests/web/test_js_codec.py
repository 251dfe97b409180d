"""The web client's JavaScript codec reads what the Python encoder writes: the committed
fixtures are the encoder's current output, and ``node --test`` passes on them (skipped
without Node.js)."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from tests.web import js_fixtures

WEB = js_fixtures.FIXTURE.parents[2]


def test_fixtures_are_the_encoders_current_output() -> None:
    assert js_fixtures.FIXTURE.read_text("utf-8") == js_fixtures.text(), (
        "web/test/fixtures/codec.json is stale: run python -m tests.web.js_fixtures"
    )


#: The tests of the codec and the session, which import no npm package.
CODEC_TESTS = ["test/codec.test.js", "test/session.test.js"]


@pytest.mark.skipif(shutil.which("node") is None, reason="the JavaScript tests need Node.js")
def test_node_tests_pass() -> None:
    """All of ``web/test`` once ``npm ci`` installed the client's packages (the game views'
    tests import chess.js); the codec's and the session's tests with Node.js alone."""
    node = shutil.which("node")
    assert node is not None
    tests = ["test/"] if (WEB / "node_modules").is_dir() else CODEC_TESTS
    done = subprocess.run(
        [node, "--test", *tests], cwd=WEB, capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
