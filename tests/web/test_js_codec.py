"""The web client's JavaScript codec reads what the Python encoder writes: the committed
fixtures are the encoder's current output, and ``node --test`` passes on them (skipped
without Node.js)."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

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


@pytest.mark.skipif(
    shutil.which("node") is None or not (WEB / "node_modules").is_dir(),
    reason="building the web client needs Node.js and npm ci in web/",
)
def test_the_committed_build_is_the_sources(tmp_path: Path) -> None:
    """``src/icswire/web/static`` is what ``npm run build`` makes of ``web/`` now."""
    node = shutil.which("node")
    assert node is not None
    env = dict(os.environ, ICSWIRE_WEB_OUT=str(tmp_path))
    done = subprocess.run(
        [node, "build.mjs"], cwd=WEB, env=env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr[-2000:]
    static = WEB.parent / "src" / "icswire" / "web" / "static"
    built = sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*") if p.is_file())
    committed = sorted(p.relative_to(static) for p in static.rglob("*") if p.is_file())
    assert built == committed
    stale = [str(p) for p in built if (tmp_path / p).read_bytes() != (static / p).read_bytes()]
    assert not stale, f"rebuild static (cd web && npm run build): {stale}"
