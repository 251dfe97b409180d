"""The requests a player makes of the other player in a game, as FICS words them.

FICS keeps every offer in one list (``pending``): a request in a game is one of them,
numbered in the same series as match offers (``<pf>``/``<pt>``/``<pr>``, help
``iv_pendinfo``). Each kind has its word (``t=`` of ``<pf>``, and what ``accept t WORD``
takes), its noun in the texts (``You decline the draw request from alice.``) and what
``pending`` says of it (``alice is offering a draw.``), and what the other player reads
when it is made (:data:`ASKED`; XBoard and PyChess read the draw and abort lines).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class RequestKind:
    """One kind of request in a game."""

    word: str  # t= of <pf>, the command that makes and accepts it
    noun: str  # "draw request"
    offering: str  # what ``pending`` says after "offering", {n}: the takeback's half-moves
    note: str  # what observers read after "Game N: NAME ", {n} as above

    def offering_text(self, params: str) -> str:
        return self.offering.format(n=params)

    def note_text(self, params: str) -> str:
        return self.note.format(n=params)


KINDS = {
    kind.word: kind
    for kind in (
        RequestKind("draw", "draw request", "a draw", "offers a draw."),
        RequestKind("abort", "abort request", "to abort the game", "requests to abort the game."),
        RequestKind(
            "adjourn", "adjourn request", "an adjournment", "requests to adjourn the game."
        ),
        RequestKind(
            "takeback",
            "takeback request",
            "to takeback the last {n} half moves",
            "requests to take back {n} half move(s).",
        ),
        RequestKind("pause", "pause request", "to pause the clock", "requests to pause the game."),
        RequestKind(
            "unpause", "unpause request", "to unpause the clock", "requests to unpause the game."
        ),
        RequestKind("switch", "switch request", "to switch sides", "requests to switch sides."),
    )
}


#: What the other player reads when a request is made (FICS's words): ``{name}`` who asks,
#: ``{n}`` the takeback's half-moves.
ASKED = {
    "draw": ("{name} offers you a draw.",),
    "abort": ('{name} would like to abort the game; type "abort" to accept.',),
    "adjourn": ('{name} would like to adjourn the game; type "adjourn" to accept.',),
    "takeback": ("{name} would like to take back {n} half move(s).",),
    "pause": ("{name} requests to pause the game.",),
    "unpause": ("{name} requests to unpause the game.",),
    "switch": (
        "{name} would like to switch sides.",
        'Type "accept" to switch sides, or "decline" to refuse.',
    ),
}
