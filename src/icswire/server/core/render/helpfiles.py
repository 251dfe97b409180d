"""The help texts: one plain-text file per command or topic, ``server/help/NAME.txt``
(package data, read with :mod:`importlib.resources`)."""

from __future__ import annotations

import functools
from importlib.resources import files

HELP_DIRECTORY = files("icswire.server").joinpath("help")
SUFFIX = ".txt"


@functools.cache
def file_topics() -> tuple[str, ...]:
    """The name of every help file, sorted."""
    return tuple(
        sorted(
            entry.name.removesuffix(SUFFIX)
            for entry in HELP_DIRECTORY.iterdir()
            if entry.name.endswith(SUFFIX)
        )
    )


@functools.cache
def read(topic: str) -> tuple[str, ...]:
    """The lines of help file ``topic`` (one of :func:`file_topics`), without the trailing
    blank ones."""
    text = HELP_DIRECTORY.joinpath(topic + SUFFIX).read_text(encoding="utf-8")
    return tuple(text.rstrip().splitlines())
