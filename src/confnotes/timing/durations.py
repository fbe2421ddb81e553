"""Durations as notes write them (``20min``, ``1h30m``, ``20:00``) and minutes as confnotes prints them."""

from __future__ import annotations

import math
import re
from typing import Any

#: an ``h:mm`` duration at or above this many hours is refused as a likely ``mm:ss``
MAX_CLOCK_HOURS = 8


_UNITS = {"h": 60.0, "hr": 60.0, "hrs": 60.0, "hour": 60.0, "hours": 60.0, "m": 1.0, "min": 1.0, "mins": 1.0}
_UNITS |= {"minute": 1.0, "minutes": 1.0, "s": 1 / 60, "sec": 1 / 60, "secs": 1 / 60, "second": 1 / 60, "seconds": 1 / 60}


_PART = re.compile(r"(\d+(?:\.\d+)?)\s*([a-z]+)")


_CLOCK = re.compile(r"(\d{1,3}):([0-5]\d)(?::([0-5]\d))?")


class DurationError(ValueError):
    """A duration confnotes cannot read; the message says which forms it can."""


def parse_duration(value: Any) -> float:
    """Minutes from ``20min``, ``20 min``, ``20m``, ``90s``, ``1h``, ``1h30m``, ``1h 30min``,
    ``20:00`` (minutes:seconds, as a talk's clock reads), ``0:20:00`` (hours:minutes:seconds) or a
    bare number of minutes (``20``, ``7.5``)."""
    if isinstance(value, bool) or value is None:
        raise DurationError(f"not a duration: {value!r}")
    if isinstance(value, (int, float)):
        minutes = float(value)
    else:
        text = str(value).strip().lower()
        clock = _CLOCK.fullmatch(text)
        if clock:
            first, second, third = int(clock.group(1)), int(clock.group(2)), clock.group(3)
            if third is None:  # m:ss, as the presenter's clock and `confnotes time` print it
                minutes = first + second / 60
            else:
                if first >= MAX_CLOCK_HOURS:
                    raise DurationError(f"duration {str(value)!r} reads as {first} hours (hours:minutes:seconds)")
                minutes = first * 60 + second + int(third) / 60
        elif re.fullmatch(r"\d+(?:\.\d+)?", text):
            minutes = float(text)
        else:
            parts = list(_PART.finditer(text))
            rest = _PART.sub("", text).strip()
            if not parts or rest or any(part.group(2) not in _UNITS for part in parts):
                raise DurationError(f"cannot read duration {str(value)!r} (use e.g. 20min, 20m, 1h, 1h30m or 20:00)")
            minutes = sum(float(part.group(1)) * _UNITS[part.group(2)] for part in parts)
    if not math.isfinite(minutes) or minutes <= 0 or minutes > 24 * 60:
        raise DurationError(f"duration {str(value)!r} must be more than 0 and at most 24 hours")
    return minutes


def format_minutes(minutes: float) -> str:
    """``4.1`` → ``4:06`` (minutes:seconds), as a speaker reads a clock."""
    seconds = round(minutes * 60)
    return f"{seconds // 60}:{seconds % 60:02d}"


def spoken_minutes(minutes: float) -> str:
    """``4.1`` → ``4 min 6 s``, ``0.98`` → ``59 s``, ``30`` → ``30 min``: a duration in a sentence
    (a clock's ``0:59 min`` reads as neither)."""
    seconds = round(minutes * 60)
    whole, rest = divmod(seconds, 60)
    if not whole:
        return f"{rest} s"
    return f"{whole} min" + (f" {rest} s" if rest else "")


def agenda_label(minutes: float) -> str:
    """Minutes as an agenda shows them, to the half minute budgets are written in, halves rounded
    up (not to even, as Python's ``round`` does): ``4 min``, ``4.5 min``, ``<1 min``."""
    halves = math.floor(minutes * 2 + 0.5)
    return "<1 min" if minutes < 0.75 else f"{halves / 2:g} min"


def budget_minutes(minutes: float) -> float:
    """Minutes as ``--write-budgets`` writes them: to the half minute, at least half a minute."""
    return max(0.5, round(minutes * 2) / 2)


def budget_value(minutes: float) -> str:
    return f"{budget_minutes(minutes):g}min"
