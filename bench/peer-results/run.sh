#!/bin/sh
# Issue 27's comparison, as results.md here was made (2026-11-28): icswire before (main at
# 9d1b2a2, "icswire-main"), icswire after (this branch), FICS 1.6.2 and FICS+NODELAY,
# interleaved in every run. Needs ../shared/bench-peer's set-up under /tmp/peer (README.md
# there) with three changes: its peercmp.py patched by peercmp-before-after.patch (the
# shouter's password fics_addplayer gave, and the icswire-main kind), the harness's
# icswire entry replaced by icswire-entry.sh, and main's code at /tmp/peer/before/src
# (git archive 9d1b2a2 src | tar -x -C /tmp/peer/before).
set -e
cd /tmp/peer/bench
PY=/work/main/.venv/bin/python
OUT=${OUT:-/tmp/peer/final.jsonl}
timeout 1500 $PY peercmp.py --out "$OUT" --servers icswire-main,icswire,fics,fics-nodelay --runs 3 \
    --scenarios logins:200,logins:400
timeout 2400 $PY peercmp.py --out "$OUT" --servers icswire-main,icswire,fics,fics-nodelay --runs 3 \
    --scenarios games:50x5,games:100x2,fanout:430
# two tables from one run: icswire-main (as icswire) and icswire, each with the same FICS runs
$PY - "$OUT" <<'PY'
import json, sys
rows = [json.loads(line) for line in open(sys.argv[1])]
with open("/tmp/peer/before.jsonl", "w") as before, open("/tmp/peer/after.jsonl", "w") as after:
    for row in rows:
        if row["server"] == "icswire-main":
            before.write(json.dumps({**row, "server": "icswire"}) + "\n")
        elif row["server"] == "icswire":
            after.write(json.dumps(row) + "\n")
        else:
            before.write(json.dumps(row) + "\n")
            after.write(json.dumps(row) + "\n")
PY
$PY summarize.py /tmp/peer/before.jsonl > /tmp/peer/before.md
$PY summarize.py /tmp/peer/after.jsonl > /tmp/peer/after.md
