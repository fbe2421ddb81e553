"""A calendar's own time zones (``VTIMEZONE``), vetted before the ``icalendar`` library reads them.

A zone the calendar defines itself (a TZID that is no IANA name) is a set of rules that
``dateutil`` expands each time a start is placed in it. Real zones change their offset a few times
a year: their rules repeat yearly (``FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU``), Outlook's from 1601.
A rule that repeats every second, or a yearly one listing every day, hour and minute, is a few
hundred bytes that keep a reader expanding for hours. So a zone is read only when each of its
parts is such a rule (``tame``); another is taken out of the text before the library sees it (its
starts are then read as written, with no offset) and a notice says so. The library caches zones
for the whole process (``serve`` and the editor read many calendars), so an untamed zone must never
reach it at all, which is why this works on the text.
"""

from __future__ import annotations

import re

#: the zones one calendar may define (an export holds one to three)
MAX_ZONES = 20
#: the offset changes one zone's rules may make, counted from each part's start to 2100
#: (Outlook's two yearly parts from 1601: about 1,000)
MAX_CHANGES = 20_000
#: the keys a zone's yearly rule uses (RFC 5545 3.6.5's examples and every exporter's output)
RULE_KEYS = frozenset(("FREQ", "BYMONTH", "BYDAY", "BYMONTHDAY", "UNTIL", "COUNT", "INTERVAL", "WKST"))
#: the earliest year a zone's part may start in (Outlook writes 1601)
FIRST_YEAR = 1600
LAST_YEAR = 2100

_LINE = re.compile(r"(?i)^([A-Z0-9-]+)((?:;[^:]*)?):(.*)$")


def tame(text: str) -> tuple[str, list[str]]:
    """``text`` (an iCalendar file) without the zones whose rules are not a zone's (and those past
    ``MAX_ZONES``), and a notice for each zone taken out."""
    lines = re.sub(r"\r?\n[ \t]", "", text).splitlines()  # unfolded: a property on one line
    kept: list[str] = []
    notices: list[str] = []
    zones = 0
    index = 0
    while index < len(lines):
        if lines[index].strip().upper() != "BEGIN:VTIMEZONE":
            kept.append(lines[index])
            index += 1
            continue
        end = next((n for n in range(index + 1, len(lines)) if lines[n].strip().upper() == "END:VTIMEZONE"), len(lines) - 1)
        block = lines[index : end + 1]
        zones += 1
        problem = _untamed(block) if zones <= MAX_ZONES else f"is one more than the {MAX_ZONES} zones a calendar may define"
        if problem is None:
            kept += block
        else:
            name = next((_value(line) for line in block if line.upper().startswith("TZID")), "")
            notices.append(f"the calendar's time zone '{name[:40]}' {problem}; ignored (its times are read as written)")
        index = end + 1
    return "\r\n".join(kept) + "\r\n", notices


def _value(line: str) -> str:
    found = _LINE.match(line.strip())
    return found.group(3).strip() if found else ""


def _untamed(block: list[str]) -> str | None:
    """Why a VTIMEZONE's lines are no real zone's, or None when they are: each part's rule repeats
    yearly on a few days, and all of them make at most ``MAX_CHANGES`` changes up to 2100."""
    changes = 0
    year = LAST_YEAR
    for line in block:
        found = _LINE.match(line.strip())
        if found is None:
            continue
        name, value = found.group(1).upper(), found.group(3).strip()
        if name == "DTSTART":
            if not value[:4].isdigit() or int(value[:4]) < FIRST_YEAR:
                return f"starts in the year {value[:4]}, before {FIRST_YEAR}"
            year = int(value[:4])
        elif name == "RRULE":
            fields = {key: rest for key, _, rest in (part.partition("=") for part in value.upper().split(";") if part)}
            if fields.get("FREQ") != "YEARLY":
                return f"repeats FREQ={fields.get('FREQ', '')[:12]}, not yearly as a zone's rules do"
            extra = sorted(set(fields) - RULE_KEYS)
            if extra:
                return f"repeats by {extra[0][:12]}, as no zone's rules do"
            per_year = 1
            for key in ("BYMONTH", "BYMONTHDAY", "BYDAY"):
                per_year *= fields[key].count(",") + 1 if key in fields else 1
            changes += per_year * max(0, LAST_YEAR - year)
        elif name == "RDATE":
            changes += value.count(",") + 1
        if changes > MAX_CHANGES:
            return f"changes its offset more than {MAX_CHANGES:,} times"
    return None
