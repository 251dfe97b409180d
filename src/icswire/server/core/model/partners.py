"""Bughouse partnerships, as every feature may read them: who partners whom.

``features/partners.py`` forms and dissolves them (``partner``); pairing reads them to
match two partnerships (FICS help ``bughouse``), play to tell a partner's clocks
(``ptime``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from icswire.server.core.dispatch.hub import Core
    from icswire.server.core.model.offers import Offer
    from icswire.server.core.model.users import User

__all__ = ["Partners", "partner_of"]


@dataclass
class Partners:
    """Who partners whom (both ways), and the partnership offers standing."""

    partner: dict[User, User] = field(default_factory=dict)
    offers: dict[tuple[User, User], Offer] = field(default_factory=dict)


def partner_of(core: Core, session: User) -> User | None:
    """``session``'s bughouse partner, None without one."""
    return core.state(Partners).partner.get(session)
