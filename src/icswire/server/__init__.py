"""The Internet Chess Server.

``core`` knows no command: sessions (one connection each), the world (who is online),
rendering (domain messages to each receiver's bytes), the store (the database), the
tables (the games being played or examined) and the registry features plug into.
``features`` are the commands and hooks, one family each. ``app`` wires them together
and owns start and stop; ``admin`` is the ``icswire user`` command. The rules of who may
import what are in ``docs/server.md`` and checked by ``tests/server/test_layout.py``.
"""
