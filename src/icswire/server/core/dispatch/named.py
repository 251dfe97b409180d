"""The player a command names, logged in on this node: what TDs' commands (``qset``,
``qpartner``, ``qfollow`` ...) act on, since what they change must be changed where the
player's session is."""

from __future__ import annotations

from typing import TYPE_CHECKING

from icswire.server.core.model.names import name_key

if TYPE_CHECKING:
    from icswire.server.core.dispatch.hub import Context
    from icswire.server.core.model.users import User


def player_here(ctx: Context, name: str) -> User | None:
    """The player ``name`` logged in on this node; None after saying that nobody of that
    name is logged in, or that the player is connected to another node."""
    player = ctx.world.online.get(name_key(name))
    if player is None:
        ctx.reply(f'No user named "{name}" is logged in.')
        return None
    if player.remote is not None:
        ctx.reply(f"{player.name} is connected to another node.")
        return None
    return player
