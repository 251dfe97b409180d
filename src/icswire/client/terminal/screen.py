"""The pieces the screen is made of: a pane drawn for its size each time (and what the
mouse wheel does over it), rows of styled text, the styles, and a line fitted to a width."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.layout.controls import UIContent, UIControl
from prompt_toolkit.mouse_events import MouseEvent, MouseEventType
from prompt_toolkit.styles import Style

WHEEL_ROWS = 3  # rows the text pane scrolls for a turn of the mouse wheel

STYLE = Style.from_dict(
    {
        "header": "reverse",
        "bar": "reverse",
        "bar.shown": "noreverse bold",
        "bar.unread": "bold underline",
        "status": "bold",
        "turn": "bold",
        "light": "bg:#c8c8b4 #000000 bold",
        "dark": "bg:#6e8c5a #000000 bold",
    }
)

Lines = list[StyleAndTextTuples]


def plain(lines: Iterable[str], style: str = "") -> Lines:
    return [[(style, line)] for line in lines]


def fit(parts: list[str], width: int) -> str:
    """``parts`` joined by two spaces, the last ones left out until the line fits, and
    cut only if the first alone does not."""
    for count in range(len(parts), 0, -1):
        line = "  ".join(p for p in parts[:count] if p)
        if len(line) <= width:
            return line
    return parts[0][:width] if parts else ""


class Pane(UIControl):
    """A control drawn for its size each time: ``render(width, height)`` gives its rows;
    ``wheel(rows)`` (if given) takes the mouse wheel."""

    def __init__(
        self,
        render: Callable[[int, int], Lines],
        wheel: Callable[[int], None] | None = None,
    ) -> None:
        self.render, self.wheel = render, wheel

    def create_content(self, width: int, height: int) -> UIContent:
        rows = self.render(width, height)
        return UIContent(get_line=lambda i: rows[i], line_count=len(rows), show_cursor=False)

    def mouse_handler(self, mouse_event: MouseEvent) -> Any:
        if self.wheel is not None and mouse_event.event_type == MouseEventType.SCROLL_UP:
            self.wheel(WHEEL_ROWS)
            return None
        if self.wheel is not None and mouse_event.event_type == MouseEventType.SCROLL_DOWN:
            self.wheel(-WHEEL_ROWS)
            return None
        return NotImplemented

    def is_focusable(self) -> bool:
        return False
