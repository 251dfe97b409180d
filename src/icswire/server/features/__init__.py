"""The server's features: each a module (or a small package) with the commands and hooks
of one family, installed on the core by the app with ``install(core)``.

``accounts`` (login, accounts), ``registration`` (password, register), ``admin``
(administrators' commands), ``news``, ``info`` (date, ping, quit), ``help``, ``people``
(who, finger, ratings, best, rank, uptime), ``pstat`` (one player's record against
another), ``robots`` (isregname, getpx), ``journal`` (journal, jsave, jkill, liblist),
``settings`` (variables, aliases, set-2), ``chat`` (tells, says, qtells, shouts),
``lists`` (FICS's lists: channels, notify, censor, noplay, gnotify; znotify),
``messages`` (messages kept for registered users), ``logons`` (logons, llogons),
``pairing`` (seeks, challenges, resuming), ``play`` (moves, clocks, offers, endings,
ratings), ``watching`` (games, observe, follow, kibitz) and ``examine`` (examined and
stored games), ``robots`` (getpi, getgi: what TD programs read), ``adjudication`` (adjourned games
settled by administrators or agreed by their players), ``events`` (the list of events:
events, qaddevent, qremoveevent, DG_TOURNEY), ``simuls`` (lasker's simultaneous
exhibitions), ``automail`` (finished games mailed to the players who ask).

A feature imports the core, never a sibling feature nor the app: what it must hear of the
others comes through the registry's hooks, what it must ask of them through ``core.play``.
"""
