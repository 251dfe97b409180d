"""A pane's text and how far up it is scrolled: lines wrap to the pane's width, and the
view is counted in screen rows up from the newest one, so that new lines coming while the
reader is scrolled up do not move what the reader is reading."""

from __future__ import annotations

from collections import deque

LIMIT = 5000  # lines kept per pane


def wrap(line: str, width: int) -> list[str]:
    """The screen rows ``line`` takes at ``width`` columns (one for an empty line)."""
    width = max(1, width)
    return [line[i : i + width] for i in range(0, len(line), width)] or [""]


class Scrollback:
    def __init__(self, limit: int = LIMIT) -> None:
        self.lines: deque[str] = deque(maxlen=limit)
        self.offset = 0  # rows between the bottom of the view and the newest row
        self.width = 80  # the width of the last view: what offsets were counted at
        self.height = 10

    def append(self, line: str) -> None:
        for part in line.split("\n"):
            self.lines.append(part)
            if self.offset:
                self.offset += len(wrap(part, self.width))

    def view(self, width: int, height: int) -> list[str]:
        """The rows to show in a pane of this size (the newest at the bottom)."""
        if width != self.width:
            self.offset = 0  # rows counted at another width mean nothing now
        self.width, self.height = width, height
        self.offset = min(self.offset, max(0, self._rows(self.offset + height) - height))
        rows: list[str] = []
        for line in reversed(self.lines):
            rows[:0] = wrap(line, width)
            if len(rows) >= self.offset + height:
                break
        end = len(rows) - self.offset
        return rows[max(0, end - height) : end]

    def _rows(self, enough: int) -> int:
        """The rows of the newest lines, counted until ``enough`` (or all of them)."""
        total = 0
        for line in reversed(self.lines):
            total += len(wrap(line, self.width))
            if total >= enough:
                break
        return total

    def scroll(self, rows: int) -> None:
        """Up (``rows`` > 0) or down; never past the oldest row or below the newest."""
        top = max(0, self._rows(self.offset + rows + self.height) - self.height)
        self.offset = max(0, min(self.offset + rows, top))

    def page_up(self) -> None:
        self.scroll(max(1, self.height - 1))

    def page_down(self) -> None:
        self.scroll(-max(1, self.height - 1))

    def bottom(self) -> None:
        self.offset = 0

    def below(self) -> int:
        """How many rows are below the view (0: it shows the newest)."""
        return self.offset
