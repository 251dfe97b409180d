"""What FICS and ICC print about people: ``who``'s entries and columns, ``finger``'s
rating table, the time spans of both.

The layouts follow FICS's ``who`` and ``finger`` (lasker's ``com_who`` and ``com_stats``)
and ICC's ``finger`` table (``rating [need] win loss draw total best``).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from datetime import datetime

from icswire.server.core.model.ratings import FICS_ONLY_TYPES, PROVISIONAL_GAMES
from icswire.server.core.model.users import User
from icswire.server.core.storage.records import RatingRecord

#: FICS's names of this server's rating types, in the order ``finger`` lists them.
FINGER_TYPES: tuple[tuple[str, str], ...] = (
    ("Blitz", "Blitz"),
    ("Standard", "Standard"),
    ("Lightning", "Bullet"),
    ("Wild", "Wild"),
    ("Bughouse", "Bughouse"),
    ("Crazyhouse", "Crazyhouse"),
    ("Suicide", "Suicide"),
    ("Losers", "Losers"),
    ("Atomic", "Atomic"),
    ("Chess960", "Chess960"),
)
#: ICC's names of the same rating types (ICC calls FICS's lightning "Bullet"; it has no
#: suicide or atomic ratings).
ICC_FINGER_TYPES: tuple[tuple[str, str], ...] = tuple(
    ("Bullet" if kind == "Bullet" else label, kind)
    for label, kind in FINGER_TYPES
    if kind not in FICS_ONLY_TYPES
)
#: freechess.org's ``finger`` filter letters (``finger NAME /sbl``): the types they keep.
FINGER_FILTERS = {
    "b": "Blitz",
    "B": "Bughouse",
    "l": "Bullet",
    "L": "Losers",
    "s": "Standard",
    "S": "Suicide",
    "w": "Wild",
    "x": "Atomic",
    "z": "Crazyhouse",
}
#: Seconds without input after which ``who`` shows a player as idle (``.``).
IDLE_AFTER = 300


def plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def span_text(seconds: int) -> str:
    """FICS's ``hms_desc``: ``5 secs``, ``3 mins``, ``1 hr, 2 mins, 3 secs``, or days."""
    days, rest = divmod(max(seconds, 0), 86_400)
    hours, rest = divmod(rest, 3600)
    minutes, secs = divmod(rest, 60)
    if not days and not hours and not minutes:
        return plural(secs, "sec")
    if not days and not hours:
        return plural(minutes, "min")
    if not days:
        return f"{plural(hours, 'hr')}, {plural(minutes, 'min')}, {plural(secs, 'sec')}"
    return (
        f"{plural(days, 'day')}, {plural(hours, 'hour')}, {plural(minutes, 'minute')} "
        f"and {plural(secs, 'second')}"
    )


def short_span(seconds: int) -> str:
    """FICS's ``hms(t, 0, 0, 0)``: minutes, or ``h:mm`` from an hour on."""
    hours, rest = divmod(max(seconds, 0), 3600)
    return f"{hours}:{rest // 60:02d}" if hours else str(rest // 60)


def when_text(moment: datetime) -> str:
    """FICS's ``strltime``: ``Tue Nov 24,  0:54 UTC 2026`` (an hour without its zero)."""
    return f"{moment.strftime('%a %b %d')}, {moment.hour:2d}:{moment.strftime('%M %Z %Y')}"


def rating_of(player: User, rating_type: str) -> int:
    """The rating ``who`` shows: 0 for none (and always for a guest)."""
    return player.ratings.get(rating_type, (0, 0))[0] if player.registered else 0


def ratstr(player: User, rating_type: str) -> str:
    """FICS's ``ratstrii``: the rating in four columns, ``----`` registered without one,
    ``++++`` a guest."""
    rating = rating_of(player, rating_type)
    if rating:
        return f"{rating:4d}"
    return "----" if player.registered else "++++"


def status_symbol(player: User, playing: bool, idle: float) -> str:
    """FICS's ``who`` status: ``#`` examining, ``^`` playing, ``:`` not open, ``.`` idle
    five minutes, blank otherwise."""
    if player.state == "E":
        return "#"
    if playing:
        return "^"
    if not player.variables["open"]:
        return ":"
    if idle > IDLE_AFTER:
        return "."
    return " "


def visible(text: str) -> int:
    """How many columns ``text`` takes: each ANSI attribute (``ESC [ n m``, four bytes) none."""
    return len(text) - 4 * text.count("\x1b")


def columns(entries: Sequence[str], width: int, space: int = 2) -> list[str]:
    """FICS's ``multicol_pprint``: entries down the columns, each padded to the widest
    entry plus ``space`` (the last column by the widest alone); a highlighted name's
    attributes take no column."""
    if not entries:
        return []
    widest = max(visible(entry) for entry in entries) + space
    per_line = max(width // widest, 1)
    rows = -(-len(entries) // per_line)
    out = []
    for row in range(rows):
        cells = []
        for column in range(per_line):
            index = row + rows * column
            if index >= len(entries):
                break
            pad = widest - (space if column == per_line - 1 else 0)
            entry = entries[index]
            cells.append(entry + " " * (pad - visible(entry)))
        out.append("".join(cells))
    return out


def finger_rows(
    records: dict[str, RatingRecord],
    bests: dict[str, tuple[int, datetime]],
    only: Collection[str] | None = None,
) -> list[str]:
    """FICS's rating table of ``finger``: a row per rating type played (of ``only``, the
    types a ``/`` filter kept)."""
    rows = ["         rating     RD     win   loss   draw  total   best"]
    for label, kind in FINGER_TYPES:
        record = records.get(kind) if only is None or kind in only else None
        if record is None or not record.games:
            continue
        row = (
            f"{label:<10}{round(record.glicko.rating):4d}    {record.glicko.deviation:5.1f}"
            f"   {record.wins:4d}   {record.losses:4d}   {record.draws:4d}   {record.games:4d}"
        )
        if kind in bests:
            best, when = bests[kind]
            row += f"   {best} ({when.strftime('%d-%b-%Y')})"
        rows.append(row)
    return rows


def icc_finger_rows(
    records: dict[str, RatingRecord],
    bests: dict[str, tuple[int, datetime]],
    only: Collection[str] | None = None,
) -> list[str]:
    """ICC's rating table of ``finger``: ``[need]`` is how many games a provisional
    rating still needs to be established."""
    rows = ["                  rating [need] win  loss  draw total   best"]
    for label, kind in ICC_FINGER_TYPES:
        record = records.get(kind) if only is None or kind in only else None
        if record is None or not record.games:
            continue
        need = PROVISIONAL_GAMES - record.games
        needed = f"[{need}]" if need > 0 else ""
        row = (
            f"{label:<18}{round(record.glicko.rating):6d} {needed:<6}{record.wins:4d}"
            f"{record.losses:6d}{record.draws:6d}{record.games:6d}"
        )
        if kind in bests:
            best, when = bests[kind]
            row += f"   {best} ({when.strftime('%d-%b-%Y')})"
        rows.append(row)
    return rows
