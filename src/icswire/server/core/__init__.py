"""The server's core: it knows no command. Its rooms:

- :mod:`.net`: connections (the asyncio Protocol with telnet, timeseal and block framing),
  the listener, and the admission and abuse limits;
- :mod:`.model`: what the server knows: users online and their indexes, channels, tables
  (games), offers, partnerships, variables, formulas, ratings, numbers claimed in a cluster;
- :mod:`.events`: the typed domain events features emit, plain immutable data;
- :mod:`.render`: messages and events turned into bytes for each kind of receiver (FICS
  text in each style, ICC level 1 units, level 2 datagrams), shared per receiver key;
- :mod:`.storage`: the database (schema, migrations, accounts, games, ratings) behind one
  ``Store``, the queue of writes that must not be lost, and the one-server-per-database lock;
- :mod:`.dispatch`: the command registry, the context a handler gets, line parsing.
"""
