"""``icswire td``: a tournament director on any ICS (docs/td.md), built on
:mod:`icswire.client`. The formats: :mod:`~icswire.td.swiss` (FIDE Dutch pairings as a
maximum-weight matching), :mod:`~icswire.td.roundrobin` (Berger tables),
:mod:`~icswire.td.arena` (lichess's arena); :mod:`~icswire.td.model` is the tournament
as data (its JSON file), :mod:`~icswire.td.director` its rules, :mod:`~icswire.td.scores`
standings, tie-breaks and crosstables; :mod:`~icswire.td.session` the loop on the wire,
:mod:`~icswire.td.cli` the command."""
