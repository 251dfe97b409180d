"""How fast do ``icswire pgn`` and ``icswire decode`` start, against python-chess alone?

``python bench/startup.py [--runs 20]`` runs, interleaved, each of

- **floor**: ``python -c "import chess.pgn"`` (what a PGN script on python-chess loads;
  ``icswire pgn`` writes its PGN without chess.pgn, whose import brings asyncio);
- ``python -m icswire decode examples/session.bin`` and ``... pgn examples/session.bin``
  (a small session: start-up is most of the work);
- ``python -m icswire --version``;

and prints, per command, the best wall time and the best CPU time (user + system of the
child, which other processes on a busy machine disturb less), and the ratio of each to
the floor's (target for decode and pgn: within 1.2x). It also lists the modules of the
server's database stack a command imported (there should be none): exit status 1 if any.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SESSION = ROOT / "examples" / "session.bin"
# The children write and read .pyc files, as an installed package has them (pip compiles
# them): PYTHONDONTWRITEBYTECODE in the caller's environment would leave icswire's modules
# compiled from source on every run, python-chess's not.
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
HEAVY = ("sqlalchemy", "argon2", "psycopg", "icswire.server")
# What a command imported, printed at exit (the child runs the CLI as `python -m` does).
IMPORTS_AT_EXIT = (
    "import atexit, sys, runpy\n"
    "atexit.register(lambda: sys.stderr.write("
    "'imported: ' + ' '.join(m for m in {heavy!r} if m in sys.modules) + '\\n'))\n"
    "sys.argv = ['icswire', *sys.argv[1:]]\n"
    "runpy.run_module('icswire', run_name='__main__')\n"
)


def commands() -> dict[str, list[str]]:
    python = sys.executable
    return {
        "floor": [python, "-c", "import chess.pgn"],
        "decode": [python, "-m", "icswire", "decode", str(SESSION)],
        "pgn": [python, "-m", "icswire", "pgn", str(SESSION)],
        "--version": [python, "-m", "icswire", "--version"],
    }


def timed(command: list[str]) -> tuple[float, float]:
    """(wall seconds, CPU seconds of the child) for one run."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(
        command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=ENV, check=True
    )
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def heavy_imports(command: list[str]) -> list[str]:
    """The database-stack modules ``command`` (an icswire one) imported."""
    args = command[command.index("icswire") + 1 :]
    script = IMPORTS_AT_EXIT.format(heavy=HEAVY)
    result = subprocess.run(
        [sys.executable, "-c", script, *args], capture_output=True, text=True, env=ENV, check=True
    )
    line = next(x for x in result.stderr.splitlines() if x.startswith("imported:"))
    return line.split()[1:]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=20, help="best of this many (default 20)")
    args = parser.parse_args(argv)

    todo = commands()
    for command in todo.values():  # warm the file cache and the .pyc files
        timed(command)
    best = {name: (float("inf"), float("inf")) for name in todo}
    for _ in range(args.runs):
        for name, command in todo.items():
            wall, cpu = timed(command)
            best[name] = (min(best[name][0], wall), min(best[name][1], cpu))

    floor_wall, floor_cpu = best["floor"]
    print(f"best of {args.runs}, interleaved; floor: python -c 'import chess.pgn'")
    print(f"{'':10} {'wall ms':>8} {'ratio':>6} {'cpu ms':>8} {'ratio':>6}  database stack")
    ok = True
    for name, (wall, cpu) in best.items():
        loaded = [] if name == "floor" else heavy_imports(todo[name])
        ok = ok and not loaded
        print(
            f"{name:10} {wall * 1e3:8.1f} {wall / floor_wall:5.2f}x {cpu * 1e3:8.1f} "
            f"{cpu / floor_cpu:5.2f}x  {' '.join(loaded) or '-'}"
        )
    print("target: decode and pgn within 1.2x of the floor")
    if not ok:
        print("FAIL: a command imported the server's database stack")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
