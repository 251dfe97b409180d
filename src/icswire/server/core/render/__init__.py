"""Bytes for each receiver: messages and batches (level 1 units, prompts, sharing bytes
between receivers with equal settings), boards in every style, the domain events of played
games (``moves``, ``games``; which DGs each sends is ``table``'s), FICS's text layouts
(diagrams, move lists, people, game lists), wrapping, alerts and the help texts."""
