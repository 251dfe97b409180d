"""Domain events: what other users see happen, as typed, immutable data.

A feature changes the world and says what happened with an event (``MovePlayed``,
``Told``, ``Arrived`` ...); it never builds a board line or a datagram for other users.
:mod:`icswire.server.core.render` turns each event into bytes for each kind of receiver,
and a cluster ships events between nodes in a language-neutral form
(:mod:`icswire.server.cluster.wire`), so that each node renders for its own users.

- :mod:`.base`: :class:`~.base.Event`, and :data:`~.base.KINDS`, every event by name;
- :mod:`.games`: moves, boards, takebacks and clocks of played games;
- :mod:`.talk`: tells, channel tells, shouts, kibitzes, qtells and messages.
- :mod:`.pairing`: seeks and challenges posted and removed, pending offers (FICS's
  ``<pf>``, ``<pt>``, ``<pr>``);
- :mod:`.presence`: arrivals, departures, state, open, availability, ratings and
  partnerships others see.
"""
