"""The Internet Chess Server: accounts, sessions, commands, and output in every level.

``app`` runs it, ``login`` logs people in, ``session`` is one connection, ``world`` who is
here, ``commands`` the command table, ``render`` turns domain events into each receiver's
bytes, ``variables`` the ``set``/``iset`` variables, ``store`` the database, ``admin``
the ``icswire user`` commands.
"""
