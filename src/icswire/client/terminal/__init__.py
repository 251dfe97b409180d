"""``icswire connect HOST [PORT]``: a full-screen terminal client (prompt_toolkit) from
80x24 up, so it works over SSH; docs/terminal.md lists its keys and panes.

:mod:`~.app` puts the screen together and follows the connection; each part it shows has a
module: :mod:`~.games` (the games on screen, boards and move lists), :mod:`~.clocks`,
:mod:`~.tabs` and :mod:`~.scrollback` (the text pane), :mod:`~.lines` (what an event
shows), :mod:`~.history`, :mod:`~.completion` and :mod:`~.premove` (the input line).
"""

from icswire.client.terminal.app import TerminalClient, run_terminal

__all__ = ["TerminalClient", "run_terminal"]
