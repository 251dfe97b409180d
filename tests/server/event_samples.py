"""One sample of every domain event kind (and value type), for the tests that must cover
them all: the render table's and the cluster wire format's round trip. A new event kind
without a sample here fails those tests."""

from __future__ import annotations

from icswire.boards.variants import new_board
from icswire.server.core.events import examine, games, pairing, presence, talk

_E4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
_POSITION = games.GamePosition(
    7, "Alice", "Bob", "chess", _E4, 3, 0, 178_500, 180_000, 1_500, True, 1,
    ("e4", "e4", "e2e4"), (("e4", "P/e2-e4", 1_500),), ("Carol",),
    games.BoardView.of(new_board("chess", fen=_E4)),
)  # fmt: skip
_ALICE = talk.Speaker("Alice", "", "Alice")
_GUEST = talk.Speaker("GuestABCD", "U", "GuestABCD(U)")
_NF6 = "rnbqkb1r/pppppppp/5n2/8/4P3/8/PPPP1PPP/RNBQKBNR[p] w KQkq - 1 2"
_HOUSE = games.GamePosition(
    8, "Dana", "Eve", "crazyhouse", _NF6, 2, 12, 120_000, 119_000, 900, True, 2, None, (), (),
    games.BoardView.of(new_board("crazyhouse", fen=_NF6)),
)  # fmt: skip
_ALICE_PLAYER = presence.Player(
    "Alice", True, (("Blitz", 1510, 2), ("Wild", 1400, 1)), True, "P", 7, 12
)
_GUEST_PLAYER = presence.Player("GuestABCD", False, (), False, "X", 0, 0)

_HEADER = games.GameHeader(
    7,
    "Alice",
    "Bob",
    0,
    "Blitz",
    True,
    3,
    0,
    1500,
    1620,
    42,
    "",
    "(GM)",
    False,
    False,
    False,
    False,
)
_HISTORY = games.GameHistory(
    7, None, "*", (("e4", "e2e4", 1_500, 178_500),), 178_500, 180_000, "B",
    "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
)  # fmt: skip
_WILD_HISTORY = games.GameHistory(
    8, "rnbqkb1r/pppppppp/5n2/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "RNBQKB-RPPPPPPPP----------------------------pppppppprnbqkbnr", (), 120_000, 120_000, None,
    "rnbqkb1r/pppppppp/5n2/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
)  # fmt: skip

_SEEK = pairing.SeekAd(
    12, "Alice", "", True, 1510, 1, 0, "Blitz", "blitz", 3, 0, False, -1, 0, 9999, True,
    False, "3 0 unrated blitz",
)  # fmt: skip
_GUEST_SEEK = pairing.SeekAd(
    13, "GuestABCD", "U", False, 0, 0, 22, "Wild", "wild/fr", 5, 2, False, 1, 1000, 1800,
    False, True, "5 2 unrated wild/fr [white] 1000-1800 m f",
)  # fmt: skip

_EXAMINED = examine.ExaminedPosition(
    21, "Alice", "Bob", "chess", "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2",
    3, 0, 180_000, 180_000, 0, 2, ("P/e7-e5", "e5"), (("e4", "P/e2-e4", 0), ("e5", "P/e7-e5", 0)),
    ("Alice", "Carol"), ("Carol",),
)  # fmt: skip
_SET_UP = examine.ExaminedPosition(
    22, "Dana", "Dana", "crazyhouse", "4k3/8/8/8/8/8/8/4K3[Qp] w - - 0 1",
    0, 0, 0, 0, 0, 0, None, (), ("Dana",), (),
)  # fmt: skip

SAMPLES: list[object] = [
    _EXAMINED,
    examine.ExaminedBoard(_EXAMINED),
    examine.ExaminedBoard(_SET_UP),
    examine.ExaminedForward(_EXAMINED, "Alice", (("e5", "e7e5", 0, 180_000),), 3),
    examine.ExaminedForward(
        _EXAMINED, "Carol", (("e4", "e2e4", 1_000, 179_000), ("e5", "e7e5", 0, 180_000)), 2
    ),
    examine.ExaminedBackward(_EXAMINED, "Alice", 2, False),
    examine.ExaminedBackward(_SET_UP, "Dana", 0, True),
    examine.ExaminerJoined(21, "Carol", True),
    examine.ExaminerLeft(21, "Carol"),
    examine.ExaminedGameGone(21),
    examine.BoardMarked(21, "Alice", "circle", "e4", "e4", 0, 0, (), "Game 21: Alice circles e4."),
    examine.BoardMarked(21, "Alice", "boardinfo", "a1", "c3", 3, 2, (), ""),
    examine.BoardMarked(
        21,
        "Alice",
        "boardinfo",
        "a1",
        "a1",
        0,
        0,
        (("arrow", "e2", "e4", 0), (3, "a1", "b2", 1)),
        "",
    ),
    _SEEK,
    pairing.SeekPosted(_SEEK),
    pairing.SeekPosted(_GUEST_SEEK),
    pairing.SeekListed(_SEEK),
    pairing.SeeksRemoved("Alice", (12, 14), 3),
    pairing.ChallengeMade(
        "Alice",
        "",
        (1510, 2),
        (-8, 0, 8),
        "Bob",
        "(GM)",
        (0, 0),
        (-3, 1, 5),
        0,
        "Blitz",
        True,
        "rated blitz",
        3,
        0,
        -1,
        False,
        True,
    ),
    pairing.ChallengeMade(
        "GuestABCD",
        "U",
        (0, 0),
        (0, 0, 0),
        "Bob",
        "",
        (1620, 1),
        (0, 0, 0),
        22,
        "Wild",
        False,
        "unrated wild 22",
        5,
        2,
        0,
        True,
        False,
    ),
    pairing.ChallengeRemoved("Alice", "Bob", "Alice withdrew the challenge."),
    pairing.OfferPending(3, "Alice", "Bob", "match", "Alice (1510) Bob (----) rated blitz 3 0"),
    pairing.OfferPending(4, "Bob", "Alice", "draw", "#"),
    pairing.OffersGone((3,)),
    _HEADER,
    _HISTORY,
    _POSITION,
    _POSITION.view,
    _HOUSE.view,
    games.MovePlayed(_POSITION, "e4", "e2e4", 1_500, 178_500, 0, 1_500),
    games.MovePlayed(_HOUSE, "Nf6", "g8f6", 900, 119_000, 0),
    games.BoardShown(_POSITION),
    games.TakenBack(_POSITION, 2),
    games.ClocksChanged(_HOUSE),
    games.PiecePassed(8, "P", "", "W", "P"),
    games.GameStarted(
        _HEADER,
        _POSITION,
        _HISTORY,
        False,
        "rated blitz",
        ("1500", "1620"),
        (9, "Carol", "Dana"),
        "<g1> 7 p=0 t=blitz r=1 u=1,1 it=180,0 i=180,0 pt=9 rt=1500,1620 ts=0,0 m=2 n=0",
        (("Event", "ICS rated blitz match"), ("White", "Alice")),
        ((1, 0, 2, 0, 1, 0), (0, 1, 0, 2, 0, 1)),
    ),
    games.GameEnded(
        7, "Alice", "Bob", "Res", "0-1", "Alice resigns", ("Alice", "Bob", "Carol"), False, "B90"
    ),
    games.GameChanged(_HEADER, _WILD_HISTORY),
    games.ObserverJoined(7, "Carol", True),
    games.ObserverLeft(7, "Carol"),
    games.OffersChanged(7, (True, False), (False, False), (False, True), (0, 2)),
    games.RequestMade(7, "Alice", "Bob", "takeback", "2"),
    games.RequestAnswered(7, "Bob", "Alice", "declines", "draw"),
    games.ClockPaused(7, "Alice", "Bob", True),
    _ALICE,
    talk.Told(_ALICE, "Bob", talk.TELL, "hello"),
    talk.Told(_GUEST, "Bob", talk.SAY, "good game"),
    talk.Told(_ALICE, "Alice", talk.PTELL, "sit"),
    talk.ChannelTold(1, _GUEST, "help"),
    talk.Shouted(_ALICE, talk.SHOUT, "hi all"),
    talk.Shouted(_ALICE, talk.I_SHOUT, "waves"),
    talk.Shouted(_GUEST, talk.SSHOUT, "quiet"),
    talk.CShouted(_ALICE, "e4!"),
    talk.Kibitzed(7, _ALICE, "1500", True, "nice"),
    talk.Kibitzed(7, _GUEST, "++++", False, "hmm"),
    talk.Qtold(_ALICE, None, "Round 1:\\nyou play \\HBob\\h\\b"),
    talk.Qtold(_ALICE, 49, "Pairings\\nout"),
    talk.MessageReceived("Alice", "Tue Nov 24, 01:05 UTC 2026", "see you"),
    _ALICE_PLAYER,
    presence.Arrived(_ALICE_PLAYER, 3, (1, 50), ("bob", "carol")),
    presence.Arrived(_GUEST_PLAYER, 0, (), ()),
    presence.Departed("Alice", (1, 50), ("bob",)),
    presence.StateChanged("Alice", "P", 7),
    presence.OpenChanged("Alice", False),
    presence.AvailabilityChanged(_ALICE_PLAYER, True),
    presence.AvailabilityChanged(_GUEST_PLAYER, False),
    presence.ShoutsChanged("Alice", 1),
    presence.RatingChanged("Alice", "Blitz", 1525, 2),
    presence.RatingChanged("Alice", "Suicide", 1525, 2),
    presence.PartnershipChanged("Alice", "Bob", True),
]
