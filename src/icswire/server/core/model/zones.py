"""Time zones for ``set tzone``: the zone a user's dates are shown in (``date``, history).

FICS takes the abbreviations of its zone table (``EST``, ``CET``...) and ``SERVER``, the
server's own zone, which is UTC here (the server keeps and shows its times in UTC,
whatever the machine's zone). This server takes those (each abbreviation stands for the
zone where it is used, so summer time is followed), ``GMT``/``UTC``, and any IANA name
(``Europe/Paris``), matched without regard to case.

>>> zone_name("est"), zone_name("europe/paris"), zone_name("Mars/Olympus")
('EST', 'Europe/Paris', None)
"""

from __future__ import annotations

import zoneinfo
from datetime import UTC, datetime, tzinfo
from functools import cache

__all__ = ["SERVER", "date_text", "local", "zone", "zone_name"]

#: The server's own zone, FICS's default.
SERVER = "SERVER"
_ABBREVIATIONS = {
    "GMT": "UTC",
    "UTC": "UTC",
    "WET": "Europe/Lisbon",
    "BST": "Europe/London",
    "CET": "Europe/Paris",
    "MET": "Europe/Paris",
    "EET": "Europe/Helsinki",
    "MSK": "Europe/Moscow",
    "IST": "Asia/Kolkata",
    "JST": "Asia/Tokyo",
    "AEST": "Australia/Sydney",
    "NZST": "Pacific/Auckland",
    "AST": "America/Halifax",
    "EST": "America/New_York",
    "EDT": "America/New_York",
    "CST": "America/Chicago",
    "CDT": "America/Chicago",
    "MST": "America/Denver",
    "MDT": "America/Denver",
    "PST": "America/Los_Angeles",
    "PDT": "America/Los_Angeles",
    "AKST": "America/Anchorage",
    "HST": "Pacific/Honolulu",
}


@cache
def _iana() -> dict[str, str]:
    return {name.lower(): name for name in zoneinfo.available_timezones()}


def zone_name(text: str) -> str | None:
    """The spelling ``set tzone`` keeps for ``text``, or None if it names no zone."""
    word = text.strip()
    if word.upper() in (SERVER, *_ABBREVIATIONS):
        return word.upper()
    return _iana().get(word.lower())


def zone(name: str) -> tzinfo:
    """The zone a kept name stands for (UTC for ``SERVER`` and for what names none)."""
    if name.upper() == SERVER or not zone_name(name):
        return UTC
    return zoneinfo.ZoneInfo(_ABBREVIATIONS.get(name.upper(), name))


def local(when: datetime, name: str) -> datetime:
    """``when`` in the zone ``name``; a naive ``when`` is UTC, as the store keeps times."""
    aware = when if when.tzinfo is not None else when.replace(tzinfo=UTC)
    return aware.astimezone(zone(name))


def date_text(when: datetime, name: str) -> str:
    """``Tue Nov 24, 01:05 EST 2026``: a moment as FICS prints it, in the zone ``name``."""
    return local(when, name).strftime("%a %b %d, %H:%M %Z %Y")
