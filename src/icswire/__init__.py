"""icswire: the ICC/FICS chess-server protocol in Python, both sides of the wire."""

__version__ = "0.1.0"
