#!/bin/sh
# Harness entry: icswire from ICSWIRE_SRC (default: the perf worktree); ICSWIRE_PROFILE=DIR samples it with py-spy.
if [ -n "$ICSWIRE_PROFILE" ]; then
  (sleep 0.5; /work/main/.venv/bin/py-spy record --pid $$ -r 400 ${ICSWIRE_PYSPY_OPTS} -f raw -o "$ICSWIRE_PROFILE/prof-$$.txt" >/dev/null 2>&1) &
fi
PYTHONPATH=${ICSWIRE_SRC:-/work/wt-perf/src} exec /work/main/.venv/bin/python -m icswire "$@" $ICSWIRE_EXTRA
