"""Bytes for each receiver: messages and batches (level 1 units, prompts, sharing bytes
between receivers with equal settings), boards in every style, FICS's text layouts
(diagrams, move lists, people, game lists), wrapping, alerts and the help texts."""
