"""``icswire bot``: a computer account on any ICS (icswire's own server, or any FICS- or
ICC-protocol server), in either dialect, playing with a UCI or XBoard engine; docs/bot.md
says what it does and how to set it up.

:mod:`~icswire.bot.config` reads its settings (a TOML file); :mod:`~icswire.bot.engine`
runs the engine (python-chess's ``chess.engine``, with book and tablebases);
:mod:`~icswire.bot.rules` judges challenges, draws and resignation; the session
(:mod:`~icswire.bot.session`, :func:`run_bot`) plays on the server with the client library
(:mod:`icswire.client`), with a module for each thing it reads or writes:
:mod:`~icswire.bot.challenges`, :mod:`~icswire.bot.offers`, :mod:`~icswire.bot.games`,
:mod:`~icswire.bot.seeks`, :mod:`~icswire.bot.owner` (its owner's tells) and
:mod:`~icswire.bot.pgnfiles`; :mod:`~icswire.bot.cli` is the command.

The names here are imported on first use (PEP 562): reading a configuration does not
start the client or the engine's modules.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from icswire.protocol.lazy import lazy_getattr

if TYPE_CHECKING:
    from icswire.bot.config import BotConfig, ConfigError, default_config, load_config
    from icswire.bot.engine import EngineError, EnginePlayer
    from icswire.bot.session import BotSession, run_bot

#: Each name of ``__all__``, by the module that defines it.
_MODULE_OF = {
    "BotConfig": "config",
    "ConfigError": "config",
    "default_config": "config",
    "load_config": "config",
    "EngineError": "engine",
    "EnginePlayer": "engine",
    "BotSession": "session",
    "run_bot": "session",
}

__all__ = [
    "BotConfig",
    "BotSession",
    "ConfigError",
    "EngineError",
    "EnginePlayer",
    "default_config",
    "load_config",
    "run_bot",
]


__getattr__ = lazy_getattr(__name__, _MODULE_OF, globals())


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
