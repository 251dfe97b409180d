"""The ``seek`` command of a :class:`~icswire.bot.config.Seek`, in the dialect's words.

``seek BASE INC rated|unrated [white|black] [VARIANT] [formula]``: chess names no variant;
FICS names its own game types (``crazyhouse``, ``suicide``, ``wild fr``, ``wild 5``) and
ICC its wild numbers (``wild 23``). Both FICS's and icswire's servers read either.
"""

from __future__ import annotations

from icswire.boards.variants import CHESS, Variant, variant_of
from icswire.bot.config import Seek

__all__ = ["seek_command", "variant_words"]


def seek_command(seek: Seek, dialect: str) -> str:
    """The line that posts ``seek``.

    >>> seek_command(Seek(2, 12, rated=False, variant="crazyhouse"), "icc")
    'seek 2 12 unrated wild 23'
    >>> seek_command(Seek(5, 0, color="white", variant="fr", formula=True), "fics")
    'seek 5 0 rated white wild fr formula'
    """
    words = ["seek", str(seek.base), str(seek.increment), "rated" if seek.rated else "unrated"]
    if seek.color:
        words.append(seek.color)
    variant = variant_words(variant_of(seek.variant), dialect)
    if variant:
        words.append(variant)
    if seek.formula:
        words.append("formula")
    return " ".join(words)


def variant_words(variant: Variant, dialect: str) -> str:
    """How ``seek`` and ``match`` name ``variant`` ("" for chess)."""
    if variant is CHESS:
        return ""
    if dialect == "icc" and variant.wild is not None:
        return f"wild {variant.wild}"
    if variant.fics_type is not None:
        return variant.fics_type.replace("/", " ")
    return variant.name
