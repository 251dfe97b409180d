"""The bot's PGN files: :func:`icswire.client.pgnfiles.save_game` (shared with the TD)."""

from icswire.client.pgnfiles import save_game

__all__ = ["save_game"]
