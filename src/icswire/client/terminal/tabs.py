"""The text pane's tabs: ``console`` (everything the server says), ``tells`` (personal
tells, to me and from me), ``seeks`` (the live seek list) and one per channel heard or
joined. A tab not shown that gets a line is marked until it is shown."""

from __future__ import annotations

from dataclasses import dataclass, field

from icswire.client.terminal.scrollback import Scrollback

CONSOLE, TELLS, SEEKS = "console", "tells", "seeks"


def channel_tab(channel: int) -> str:
    return f"ch{channel}"


@dataclass
class Tab:
    name: str
    text: Scrollback = field(default_factory=Scrollback)
    unread: bool = False


class Tabs:
    def __init__(self) -> None:
        self.tabs = [Tab(CONSOLE), Tab(TELLS), Tab(SEEKS)]
        self.current = 0

    @property
    def shown(self) -> Tab:
        return self.tabs[self.current]

    def get(self, name: str) -> Tab:
        """The tab ``name``, added at the end if there is none yet."""
        for tab in self.tabs:
            if tab.name == name:
                return tab
        self.tabs.append(Tab(name))
        return self.tabs[-1]

    def add(self, name: str, line: str) -> None:
        tab = self.get(name)
        tab.text.append(line)
        if tab is not self.shown and name != CONSOLE:
            tab.unread = True

    def show(self, index: int) -> None:
        if 0 <= index < len(self.tabs):
            self.current = index
            self.shown.unread = False

    def step(self, by: int) -> None:
        self.show((self.current + by) % len(self.tabs))

    def labels(self) -> list[tuple[str, bool, bool]]:
        """``(N:name, shown, unread)`` for each tab, N being its Alt-N key."""
        return [
            (f"{i + 1}:{tab.name}", i == self.current, tab.unread)
            for i, tab in enumerate(self.tabs)
        ]
