"""What the server knows, with no I/O: the world (who is online, channels) and its
listening indexes, the tables of games, pending offers, the kinds of requests in a game,
partnerships, user variables, formulas and their fit, ratings (Glicko-2), names, zones,
and numbers claimed in a cluster."""
