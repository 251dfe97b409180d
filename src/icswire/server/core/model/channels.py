"""The server's channels: the numbers there are, and what the numbered ones are for.

Anyone may join any channel in :data:`CHANNELS`; :data:`TOPICS` is this server's own list
of channels with a purpose (``help channel_list`` shows it, in the layout PyChess's FICS
mode reads). Every other number is free for any use.
"""

from __future__ import annotations

#: The channel numbers (FICS's 0-255).
CHANNELS = range(0, 256)

#: The channels with a purpose, by number.
TOPICS: dict[int, str] = {
    0: "Server operators: reach the people who run this server",
    1: "Help: questions about using the server and its commands",
    2: "The server: icswire itself, bug reports and ideas",
    4: "Guests: questions from people trying the server out",
    49: "Bughouse: finding a partner and a team to play",
    50: "General chat (keep it friendly)",
    64: "Computer chess: engines, bots and their operators",
    90: "Chess: openings, endgames, analysis of games",
}

#: The short name of each channel with a purpose, as freechess.org ends the echo of a tell
#: to it: ``(told 5 players in channel 1 "Help")`` (PyChess's FICS mode reads it so).
NAMES: dict[int, str] = {
    0: "Server operators",
    1: "Help",
    2: "The server",
    4: "Guests",
    49: "Bughouse",
    50: "Chat",
    64: "Computer chess",
    90: "Chess",
}
