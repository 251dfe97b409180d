"""The input line's history: Up and Down walk it, and with text typed they walk only the
lines that begin with that text (as a shell's history search does). It is kept in a file
between sessions, without the lines that carry a password."""

from __future__ import annotations

import os
from pathlib import Path

LIMIT = 1000
#: Commands whose arguments are secret: never written to the history file.
SECRET = ("password", "asetpasswd", "register")


def default_path() -> Path:
    """``$XDG_STATE_HOME/icswire/history`` (``~/.local/state/icswire/history``)."""
    state = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(state) / "icswire" / "history"


class InputHistory:
    """Lines sent, oldest first; :meth:`older` / :meth:`newer` browse from the newest."""

    def __init__(self, lines: list[str] | None = None, limit: int = LIMIT) -> None:
        self.limit = limit
        self.lines: list[str] = (lines or [])[-limit:]
        self._index = len(self.lines)  # len(lines): the line being typed
        self._typed = ""  # what was typed before browsing began: the prefix searched

    def add(self, line: str) -> None:
        """A line sent: remembered once (not again right after itself); browsing restarts."""
        if line and (not self.lines or self.lines[-1] != line):
            self.lines.append(line)
            del self.lines[: -self.limit]
        self.reset()

    def reset(self) -> None:
        self._index = len(self.lines)
        self._typed = ""

    def older(self, text: str) -> str | None:
        """The line before the one shown that begins with what was typed, or None."""
        if self._index == len(self.lines):
            self._typed = text
        for index in range(self._index - 1, -1, -1):
            if self.lines[index].startswith(self._typed) and self.lines[index] != text:
                self._index = index
                return self.lines[index]
        return None

    def newer(self) -> str | None:
        """The next line that begins with what was typed; what was typed after the newest;
        None when not browsing."""
        if self._index == len(self.lines):
            return None
        for index in range(self._index + 1, len(self.lines)):
            if self.lines[index].startswith(self._typed):
                self._index = index
                return self.lines[index]
        self._index = len(self.lines)
        return self._typed


def is_secret(line: str) -> bool:
    words = line.split()
    return bool(words) and words[0].lower() in SECRET


def load(path: Path, limit: int = LIMIT) -> InputHistory:
    """The history kept in ``path`` (an empty one if it cannot be read)."""
    try:
        lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        lines = []
    return InputHistory([line for line in lines if line], limit)


def save(history: InputHistory, path: Path) -> None:
    """Write the history to ``path`` (its folder made if needed), secrets left out; a file
    that cannot be written is left as it is."""
    lines = [line for line in history.lines if not is_secret(line)]
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("".join(f"{line}\n" for line in lines), encoding="utf-8")
    except OSError:
        return
