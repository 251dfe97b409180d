"""The server's features: each a module (or a small package) with the commands and hooks
of one family, installed on the core by the app with ``install(core)``.

``accounts`` (login, accounts), ``info`` (who, finger, date, ping, quit), ``help``,
``settings`` (variables, aliases, set-2), ``chat`` (tells, shouts, channels, notify),
``pairing`` (seeks, challenges, resuming), ``play`` (moves, clocks, offers, endings,
ratings), ``watching`` (games, observe, follow, kibitz) and ``examine`` (examined and
stored games).

A feature imports the core, never a sibling feature nor the app: what it must hear of the
others comes through the registry's hooks, what it must ask of them through ``core.play``.
"""
